"""The Action end to end: action.yml's steps run by bash in a simulated GitHub environment."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.action import STARTER, VENV_BIN, RunAction, position, run_script
from tests.support.cli import RunCli
from tests.support.gha_runner import REPO, ActionRun
from tests.support.samples import BROKEN, COUPLED_TEXT

ANNOTATION = re.compile(r"^::(error|warning|notice) (?P<props>[^:]*)::(?P<message>.*)$")


def parse_annotations(stdout: str) -> list[dict[str, str]]:
    """Every workflow command on stdout as ``{level, file, line, col, title, message}``."""
    found = []
    for line in stdout.splitlines():
        match = ANNOTATION.match(line)
        if match:
            props = dict(item.split("=", 1) for item in match["props"].split(","))
            found.append({"level": match.group(1), **props, "message": match["message"]})
    return found


def test_a_good_folder_passes_with_zero_counts_and_a_passing_summary(run_action: RunAction, good_folder: Path) -> None:
    run = run_action()

    assert run.returncode == 0, run.stderr
    assert run.outputs == {"errors": "0", "warnings": "0", "info": "0"}
    assert [a for a in parse_annotations(run.stdout) if a["level"] != "notice"] == []
    summary = run.step("run").summary
    assert summary.startswith("### json-contracts lint --strict (json-contracts): passed\n")
    assert "No findings." in summary


def test_a_broken_folder_fails_with_annotations_on_the_offending_lines(
    run_action: RunAction, broken_folder: Path
) -> None:
    text = (broken_folder / "broken.json").read_text(encoding="utf-8")

    run = run_action({"contracts": "broken"})

    assert run.returncode == 1
    found = parse_annotations(run.step("run").stdout)
    assert [(a["level"], a["title"]) for a in found] == [
        ("error", "JC113"),
        ("warning", "JC104"),
        ("notice", "JC132"),
        ("notice", "JC130"),
    ]
    assert {a["file"] for a in found} == {"broken/broken.json"}  # relative to the workspace
    where = {a["title"]: (int(a["line"]), int(a["col"])) for a in found}
    assert where["JC113"] == position(text, "5, ")  # the integer in the string enum
    assert where["JC130"] == position(text, '["s", 5, "m"]')  # the enum array
    assert where["JC104"] == position(text, "{", 2)  # the schema object
    assert where["JC132"] == (1, 1)
    assert run.outputs == {"errors": "1", "warnings": "1", "info": "2"}


def test_the_summary_lists_every_finding_of_a_broken_folder(run_action: RunAction, broken_folder: Path) -> None:
    run = run_action({"contracts": "broken"})

    summary = run.step("run").summary
    assert summary.startswith("### json-contracts lint --strict (broken): failed\n\n1 error, 1 warning, 2 info.\n")
    rows = [line for line in summary.splitlines() if line.startswith("| broken/")]
    assert [row.split(" | ")[1:3] for row in rows] == [
        ["JC113", "error"],
        ["JC104", "warning"],
        ["JC132", "info"],
        ["JC130", "info"],
    ]
    text = BROKEN
    line, column = position(text, "5, ")
    assert rows[0].startswith(f"| broken/broken.json:{line}:{column} | JC113 | error | Enum value 5 is integer")


def test_the_exit_code_is_the_cli_s_and_strict_false_lets_warnings_pass(
    run_action: RunAction, broken_folder: Path
) -> None:
    (broken_folder / "broken.json").unlink()
    (broken_folder / "open.json").write_text(
        '{"schema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},\n'
        ' "operations": {"edit": {"enabled": false}}, "examples": [{"input": "i", "output": {"a": "x"}}]}\n',
        encoding="utf-8",
    )

    strict = run_action({"contracts": "broken"})
    lenient = run_action({"contracts": "broken", "strict": "false"})

    assert strict.returncode == 1
    assert lenient.returncode == 0
    assert strict.outputs["warnings"] == lenient.outputs["warnings"] == "1"
    assert "::warning file=broken/open.json,line=1,col=12,title=JC104::" in lenient.stdout


def test_validate_reports_a_load_error_at_its_line_and_column(run_action: RunAction, workspace: Path) -> None:
    folder = workspace / "json-contracts"
    folder.mkdir()
    text = '{\n  "schema": {"type": "string",}\n}\n'
    (folder / "trailing.json").write_text(text, encoding="utf-8")

    run = run_action({"command": "validate"})

    assert run.returncode == 1
    [found] = parse_annotations(run.step("run").stdout)
    assert (found["level"], found["title"], found["file"]) == ("error", "JC014", "json-contracts/trailing.json")
    assert (int(found["line"]), int(found["col"])) == position(text, "}\n}")
    assert run.outputs == {"errors": "1", "warnings": "0", "info": "0"}
    assert "--strict" not in run.step("run").stderr  # validate has no --strict


def test_more_findings_than_github_shows_end_with_one_notice_pointing_at_the_summary(
    run_action: RunAction, workspace: Path
) -> None:
    folder = workspace / "json-contracts"
    folder.mkdir()
    for number in range(12):
        (folder / f"c{number:02}.json").write_text(BROKEN, encoding="utf-8")

    run = run_action()

    found = parse_annotations(run.step("run").stdout)
    levels = [a["level"] for a in found]
    assert levels == ["error"] * 10 + ["warning"] * 10 + ["notice"] * 10
    assert found[-1]["title"] == "json-contracts"
    assert found[-1]["message"] == (
        "19 more finding(s) not shown as annotations (GitHub shows 10 errors and 10 warnings per step); "
        "the job summary lists them all."
    )
    rows = [line for line in run.step("run").summary.splitlines() if line.startswith("| json-contracts/")]
    assert len(rows) == 48
    assert run.outputs == {"errors": "12", "warnings": "12", "info": "24"}


def test_args_pass_through_split_on_whitespace(run_action: RunAction, broken_folder: Path) -> None:
    run = run_action({"contracts": "broken", "args": "  --ignore\n\tJC104,JC130,JC132\n"})

    titles = [a["title"] for a in parse_annotations(run.step("run").stdout)]
    assert titles == ["JC113"]
    assert run.outputs == {"errors": "1", "warnings": "0", "info": "0"}


def test_inputs_are_never_run_as_shell_code(run_action: RunAction, workspace: Path) -> None:
    run = run_action({"contracts": 'x"; touch pwned1; "', "args": "$(touch pwned2) `touch pwned3`"})

    assert not list(workspace.glob("pwned*"))
    assert not list(Path(REPO).glob("pwned*"))
    assert run.returncode == 2  # the CLI refuses the extra arguments it was given literally
    assert "Got unexpected extra arguments ($(touch pwned2) `touch pwned3`)" in run.step("run").stderr


def test_an_unknown_command_or_strict_value_is_refused_before_running(run_action: RunAction, good_folder: Path) -> None:
    bad_command = run_action({"command": "format"})
    bad_strict = run_action({"strict": "yes"})

    assert bad_command.returncode == bad_strict.returncode == 2
    assert (
        "::error title=json-contracts::command must be lint, validate, test or diff, not 'format'" in bad_command.stdout
    )
    assert "::error title=json-contracts::strict must be true or false, not 'yes'" in bad_strict.stdout
    assert bad_command.outputs == {"errors": "", "warnings": "", "info": ""}


@pytest.mark.slow  # every property check on the starter set, twice (through the Action and directly)
def test_the_test_command_is_passed_to_the_cli_as_is(run_action: RunAction, good_folder: Path, workspace: Path) -> None:
    run = run_action({"command": "test"})

    direct = run_script("test", "--contracts", "json-contracts", "--format", "github", cwd=workspace)
    assert run.returncode == direct.returncode
    assert "json-contracts test --contracts json-contracts --format github --summary " in run.step("run").stderr


def test_install_none_without_json_contracts_on_path_fails_with_an_error_annotation(
    run_action: RunAction, good_folder: Path
) -> None:
    run = run_action(path=["/usr/bin", "/bin"])

    assert run.returncode == 1
    assert run.step("install").stdout.startswith("::error title=json-contracts::install is none, but json-contracts")
    assert run.step("run").returncode is None  # skipped after the failure


FAKE_PYTHON = """#!{python}
# A stand-in interpreter for install.sh: logs each call; "-m venv DIR" makes DIR/bin/python
# (this script again); "-m pip install SPEC" puts a json-contracts shim that runs the real one.
import json, sys
from pathlib import Path

args = sys.argv[1:]
with open({log!r}, "a", encoding="utf-8") as log:
    log.write(json.dumps([sys.argv[0], *args]) + "\\n")
if args[:1] == ["-c"]:  # install.sh's version check
    sys.exit({too_old})
if args[:2] == ["-m", "venv"]:
    bin_dir = Path(args[2]) / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(Path(__file__).read_text(encoding="utf-8"), encoding="utf-8")
    (bin_dir / "python").chmod(0o755)
elif args[:3] == ["-m", "pip", "install"]:
    shim = Path(sys.argv[0]).parent / "json-contracts"
    shim.write_text("#!/bin/sh\\nexec {real} \\"$@\\"\\n", encoding="utf-8")
    shim.chmod(0o755)
"""


def _install_with_fake_python(
    run_action: RunAction, tmp_path: Path, inputs: dict[str, str], *, too_old: bool = False
) -> tuple[ActionRun, Path, list[list[str]]]:
    """Run the Action with setup-python's ``python-path`` output pointing at a stand-in interpreter.

    Everything but pip's download is real: install.sh's choices, the venv location, the
    executable it hands on, and the run step using it. Returns the run and the logged calls.
    """
    log = tmp_path / "calls.jsonl"
    fake = tmp_path / "fake-python"
    script = FAKE_PYTHON.format(
        python=sys.executable, log=str(log), too_old=int(too_old), real=VENV_BIN / "json-contracts"
    )
    fake.write_text(script, encoding="utf-8")
    fake.chmod(0o755)
    run = run_action(
        {"python-version": "3.12", **inputs},
        uses_outputs={"actions/setup-python": {"python-path": str(fake)}},
    )
    calls = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
    return run, fake, calls


def test_the_default_install_builds_a_venv_under_runner_temp_from_the_action_checkout(
    run_action: RunAction, good_folder: Path, tmp_path: Path
) -> None:
    run, fake, calls = _install_with_fake_python(run_action, tmp_path, {"install": "action"})

    assert run.returncode == 0, run.stderr
    assert calls[0][0] == str(fake)  # setup-python's python-path
    venv_call = next(call for call in calls if call[1:3] == ["-m", "venv"])
    venv = Path(venv_call[3])
    assert venv.parent == tmp_path / "runner_temp"  # $RUNNER_TEMP; the job's PATH is not touched
    pip_call = next(call for call in calls if call[1:4] == ["-m", "pip", "install"])
    assert pip_call[0] == str(venv / "bin" / "python")
    assert pip_call[-1] == str(REPO)  # $GITHUB_ACTION_PATH: the action's own checkout
    assert run.step("install").outputs == {"executable": str(venv / "bin" / "json-contracts")}
    assert run.step("run").stderr.startswith("json-contracts lint ")
    assert run.outputs == {"errors": "0", "warnings": "0", "info": "0"}


def test_a_pip_requirement_is_installed_as_given(run_action: RunAction, good_folder: Path, tmp_path: Path) -> None:
    run, _, calls = _install_with_fake_python(run_action, tmp_path, {"install": "json-contracts==0.2.0"})

    assert run.returncode == 0, run.stderr
    pip_call = next(call for call in calls if call[1:4] == ["-m", "pip", "install"])
    assert pip_call[-1] == "json-contracts==0.2.0"


def test_a_python_older_than_3_11_is_refused_with_a_hint(
    run_action: RunAction, good_folder: Path, tmp_path: Path
) -> None:
    run, _, calls = _install_with_fake_python(run_action, tmp_path, {"install": "action"}, too_old=True)

    assert run.returncode == 1
    assert "json-contracts needs Python 3.11 or newer" in run.step("install").stdout
    assert "set the python-version input" in run.step("install").stdout
    assert not [call for call in calls if call[1:3] == ["-m", "venv"]]


def test_install_none_skips_setting_up_python(run_action: RunAction, good_folder: Path) -> None:
    run = run_action({"python-version": "3.12", "install": "none"})  # no setup-python outputs given: not run

    assert run.returncode == 0, run.stderr
    assert run.step("python").returncode is None


def test_the_starter_folder_the_workflow_dogfoods_is_lint_clean(run_cli: RunCli) -> None:
    result = run_cli("lint", "--strict", "--contracts", str(STARTER))

    assert result.exit_code == 0, result.stdout


def test_run_sh_writes_the_outputs_before_failing_even_under_bash_e(
    broken_folder: Path, workspace: Path, tmp_path: Path
) -> None:
    output = tmp_path / "output"
    output.touch()
    env = {
        "PATH": "/usr/bin:/bin",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_OUTPUT": str(output),
        "RUNNER_TEMP": str(tmp_path),
        "JC_BIN": str(VENV_BIN / "json-contracts"),
        "JC_COMMAND": "lint",
        "JC_CONTRACTS": "broken",
        "JC_STRICT": "true",
    }

    completed = subprocess.run(
        ["bash", "-eo", "pipefail", str(REPO / "action" / "run.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert completed.returncode == 1
    assert output.read_text(encoding="utf-8") == "errors=1\nwarnings=1\ninfo=2\n"
    assert not list(tmp_path.glob("json-contracts-counts.*"))  # the temporary counts file is gone


def test_the_test_command_annotates_a_failed_property_check_at_its_line(run_action: RunAction, workspace: Path) -> None:
    folder = workspace / "json-contracts"
    folder.mkdir()
    (folder / "coupled.json").write_text(COUPLED_TEXT, encoding="utf-8")

    run = run_action({"command": "test", "args": "--max-examples 15"})

    assert run.returncode == 1
    [found] = parse_annotations(run.step("run").stdout)
    assert (found["level"], found["title"], found["file"]) == ("error", "JC204", "json-contracts/coupled.json")
    assert (int(found["line"]), int(found["col"])) == position(COUPLED_TEXT, '{\n    "type": "object"')  # /schema
    assert found["message"].startswith("repair-hints: following the repairs for 'drop a required field' at /b")
    assert run.outputs == {"errors": "1", "warnings": "0", "info": "0"}
    assert "JC204" in run.step("run").summary


def test_strict_false_wins_over_strict_true_in_the_repository_s_pyproject(
    run_action: RunAction, workspace: Path
) -> None:
    folder = workspace / "json-contracts"
    folder.mkdir()
    (folder / "open.json").write_text(
        '{"schema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},\n'
        ' "operations": {"edit": {"enabled": false}}, "examples": [{"input": "i", "output": {"a": "x"}}]}\n',
        encoding="utf-8",
    )
    (workspace / "pyproject.toml").write_text("[tool.json-contracts]\nstrict = true\n", encoding="utf-8")

    lenient = run_action({"strict": "false"})
    strict = run_action({"strict": "true"})

    assert (lenient.returncode, strict.returncode) == (0, 1)
    assert "json-contracts lint --contracts json-contracts --format github --no-strict " in lenient.step("run").stderr
    assert lenient.outputs["warnings"] == "1"
    assert lenient.step("run").summary.startswith("### json-contracts lint (json-contracts): passed\n")


def test_the_test_command_fails_on_a_mistyped_folder(run_action: RunAction, good_folder: Path) -> None:
    run = run_action({"command": "test", "contracts": "json-contract"})

    assert run.returncode == 1
    [found] = parse_annotations(run.step("run").stdout)
    assert (found["level"], found["title"], found["file"]) == ("error", "JC002", "json-contract")
    assert found["message"].startswith("Contracts directory does not exist")
    assert run.outputs == {"errors": "1", "warnings": "0", "info": "0"}
