"""action.yml, the workflow, the pre-commit hooks and the documented CI snippets, checked offline.

Schemas: check-jsonschema's vendored SchemaStore schemas (``vendor.github-actions``,
``vendor.github-workflows``). check-jsonschema has none for ``.pre-commit-hooks.yaml``, so the
hooks and the documented ``.pre-commit-config.yaml`` are checked by pre-commit's own validators
(``pre-commit validate-manifest`` / ``validate-config``), the code that reads them. zizmor
audits the Action and the workflow for injection and unpinned actions; shellcheck the scripts.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.action import STARTER, VENV_BIN, tool
from tests.support.gha_runner import ACTION_YML, REPO, load_action
from tests.support.samples import BROKEN

WORKFLOW = REPO / ".github" / "workflows" / "ci.yml"
HOOKS = REPO / ".pre-commit-hooks.yaml"
README = REPO / "README.md"
ACTION_DOCS = REPO / "docs" / "reference" / "github-action.md"  # the workflows users copy


def run_tool(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=120, check=False)


def readme_block(first_line: str) -> str:
    """The docs' yaml block whose first line is ``first_line`` (a ``# file name`` comment)."""
    text = ACTION_DOCS.read_text(encoding="utf-8")
    blocks: list[str] = re.findall(r"^```(?:yaml|yml)\n(.*?)^```$", text, flags=re.S | re.M)
    matching = [block for block in blocks if block.startswith(first_line + "\n")]
    assert len(matching) == 1, f"{ACTION_DOCS.name} needs exactly one yaml block starting with {first_line!r}"
    return matching[0]


# --- schemas -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "path"),
    [("vendor.github-actions", ACTION_YML), ("vendor.github-workflows", WORKFLOW)],
)
def test_the_action_and_workflow_validate_against_schemastore_schemas(schema: str, path: Path) -> None:
    completed = run_tool(tool("check-jsonschema"), "--builtin-schema", schema, str(path))

    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_the_action_schema_check_fails_on_a_broken_action(tmp_path: Path) -> None:
    broken = ACTION_YML.read_text(encoding="utf-8").replace("using: composite", "using: compost")
    (tmp_path / "action.yml").write_text(broken, encoding="utf-8")

    completed = run_tool(
        tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", "action.yml", cwd=tmp_path
    )

    assert completed.returncode == 1


def test_the_readme_workflow_snippets_validate(tmp_path: Path) -> None:
    for name in (
        "# .github/workflows/contracts.yml",
        "# .github/workflows/contract-compatibility.yml",
        "# .github/workflows/code-scanning.yml",
    ):
        (tmp_path / "workflow.yml").write_text(readme_block(name), encoding="utf-8")
        completed = run_tool(
            tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", "workflow.yml", cwd=tmp_path
        )
        assert completed.returncode == 0, completed.stdout + completed.stderr


def test_the_hooks_manifest_passes_pre_commit_s_own_validator(tmp_path: Path) -> None:
    completed = run_tool(tool("pre-commit"), "validate-manifest", str(HOOKS))
    assert completed.returncode == 0, completed.stdout + completed.stderr

    broken = HOOKS.read_text(encoding="utf-8").replace("\n  pass_filenames: false", "\n  pass_filenames: never", 1)
    (tmp_path / "hooks.yaml").write_text(broken, encoding="utf-8")
    assert run_tool(tool("pre-commit"), "validate-manifest", str(tmp_path / "hooks.yaml")).returncode == 1


def test_the_readme_pre_commit_config_validates_and_names_our_hooks(tmp_path: Path) -> None:
    snippet = readme_block("# .pre-commit-config.yaml")
    (tmp_path / ".pre-commit-config.yaml").write_text(snippet, encoding="utf-8")

    completed = run_tool(tool("pre-commit"), "validate-config", ".pre-commit-config.yaml", cwd=tmp_path)

    assert completed.returncode == 0, completed.stdout + completed.stderr
    ours = {hook["id"] for hook in yaml.safe_load(HOOKS.read_text(encoding="utf-8"))}
    used = {hook["id"] for repo in yaml.safe_load(snippet)["repos"] for hook in repo["hooks"]}
    assert used == ours == {"json-contracts-validate", "json-contracts-lint"}


# --- security and scripts -------------------------------------------------------------------


def test_zizmor_finds_nothing_in_the_action_or_workflow() -> None:
    completed = run_tool(tool("zizmor"), "--offline", "--no-progress", str(ACTION_YML), str(WORKFLOW))

    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_zizmor_would_flag_an_input_pasted_into_run(tmp_path: Path) -> None:
    text = ACTION_YML.read_text(encoding="utf-8").replace(
        'run: bash "$GITHUB_ACTION_PATH/action/run.sh"', 'run: echo "${{ inputs.contracts }}"'
    )
    (tmp_path / "action.yml").write_text(text, encoding="utf-8")

    completed = run_tool(tool("zizmor"), "--offline", "--no-progress", "--no-config", str(tmp_path / "action.yml"))

    assert completed.returncode != 0
    assert "template-injection" in completed.stdout


def test_no_run_step_contains_an_expression() -> None:
    for path in (ACTION_YML, WORKFLOW):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        steps = data["runs"]["steps"] if "runs" in data else [s for job in data["jobs"].values() for s in job["steps"]]
        for step in steps:
            assert "${{" not in step.get("run", ""), (path.name, step.get("name"))


def test_the_action_scripts_pass_shellcheck() -> None:
    scripts = sorted((REPO / "action").glob("*.sh"))

    completed = run_tool(tool("shellcheck"), *map(str, scripts))

    assert len(scripts) == 3
    assert completed.returncode == 0, completed.stdout


def test_the_action_inputs_and_outputs_are_the_documented_ones() -> None:
    action = load_action()
    defaults = {name: spec.get("default") for name, spec in action["inputs"].items()}

    assert defaults == {
        "contracts": "json-contracts",
        "command": "lint",
        "strict": "true",
        "base": "",
        "mode": "",
        "args": "",
        "python-version": "3.12",
        "install": "action",
    }
    assert set(action["outputs"]) == {"errors", "warnings", "info"}
    run_steps = [step for step in action["runs"]["steps"] if "run" in step]
    assert [step["run"] for step in run_steps] == [
        'bash "$GITHUB_ACTION_PATH/action/base.sh"',
        'bash "$GITHUB_ACTION_PATH/action/install.sh"',
        'bash "$GITHUB_ACTION_PATH/action/run.sh"',
    ]
    setup = next(step for step in action["runs"]["steps"] if "uses" in step)
    assert re.fullmatch(r"actions/setup-python@[0-9a-f]{40}", setup["uses"])
    assert setup["with"]["update-environment"] is False  # the caller's PATH stays as it was


def test_the_workflow_runs_the_readme_test_command_and_dogfoods_the_action() -> None:
    jobs = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]
    runs = [step.get("run") for job in jobs.values() for step in job["steps"]]
    uses = [step for job in jobs.values() for step in job["steps"] if step.get("uses") == "./"]

    assert "python -m pip install -e '.[dev]' -e ./pytest_plugin" in runs
    assert "scripts/check" in runs
    assert (
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[dev]' -e ./pytest_plugin"
        in README.read_text(encoding="utf-8")
    )
    assert {step["with"]["contracts"] for step in uses} >= {"src/json_contracts/contracts/starter"}


# --- pre-commit hooks as pre-commit runs them --------------------------------------------------


def _hooks() -> dict[str, dict[str, Any]]:
    return {hook["id"]: hook for hook in yaml.safe_load(HOOKS.read_text(encoding="utf-8"))}


@pytest.mark.parametrize(
    ("path", "validate", "lint"),
    [
        ("json-contracts/support-ticket.json", True, True),
        ("json-contracts/nested/x.json", False, False),  # only the folder's own files are contracts
        ("src/json-contracts/x.json", False, False),
        ("json-contracts/LICENSE.md", False, False),
        ("pyproject.toml", False, True),  # [tool.json-contracts] changes what lint reports
    ],
)
def test_the_hooks_run_when_a_contract_changes(path: str, validate: bool, lint: bool) -> None:
    hooks = _hooks()

    assert bool(re.search(hooks["json-contracts-validate"]["files"], path)) is validate
    assert bool(re.search(hooks["json-contracts-lint"]["files"], path)) is lint


@pytest.mark.parametrize("hook_id", ["json-contracts-validate", "json-contracts-lint"])
def test_each_hook_entry_passes_a_good_folder_and_fails_a_broken_one(hook_id: str, workspace: Path) -> None:
    hook = _hooks()[hook_id]
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is False  # once per commit, on the whole folder
    folder = workspace / "json-contracts"
    folder.mkdir()
    for source in STARTER.glob("*.json"):
        (folder / source.name).write_bytes(source.read_bytes())
    command = shlex.split(hook["entry"]) + hook.get("args", [])
    command[0] = str(VENV_BIN / command[0])  # the console script pre-commit's venv would have

    good = run_tool(*command, cwd=workspace)
    (folder / "broken.json").write_text(BROKEN.replace('"s", 5', '"s", 5,'), encoding="utf-8")
    broken = run_tool(*command, cwd=workspace)

    assert good.returncode == 0, good.stdout
    assert broken.returncode == 1
    assert "json-contracts/broken.json:4:" in broken.stdout
