"""The documentation site (docs/) says what the code does, and its strict build really is strict.

The pages are written by hand, so these tests hold them to the code: every CLI command and option,
every environment variable, every MCP tool and prompt argument, every format and every public name
must be mentioned where a reader looks for it. The JSON Schema of a contract file must agree with
the loader. And the build command of ``scripts/check`` must fail on a broken link or a page outside
every toctree, or the site could rot without anyone noticing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import click
import pytest
from jsonschema import Draft202012Validator

import json_contracts
from json_contracts import load_contracts
from json_contracts.cli import main as cli
from json_contracts.contracts.limits import ENVIRONMENT
from json_contracts.findings import CATALOGUE
from json_contracts.mcp.settings import settings_from_env
from json_contracts.mcp.tools import PROMPTS, TOOLS
from json_contracts.schema.formats import KNOWN_FORMATS
from json_contracts.testing.results import derandomize_by_default

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
REFERENCE = DOCS / "reference"
CONTRACT_FILE_SCHEMA = REFERENCE / "contract-file.schema.json"
STARTERS = sorted((ROOT / "src" / "json_contracts" / "contracts" / "starter").glob("*.json"))

# The command of scripts/check, with the source and output folders left to fill in.
BUILD = ["-m", "sphinx", "--fail-on-warning", "--keep-going", "--nitpicky", "--quiet", "--builder", "html"]


def _page(name: str) -> str:
    return (REFERENCE / name).read_text(encoding="utf-8")


def _mentions(text: str, word: str) -> bool:
    """Whether ``word`` appears as a whole token (``--json`` is not found inside ``--json-x``)."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


# --- the command line ---------------------------------------------------------------------------


def _commands() -> Iterator[tuple[str, click.Command]]:
    yield "json-contracts", cli
    assert isinstance(cli, click.Group)
    yield from cli.commands.items()


def _cli_words() -> Iterator[tuple[str, str]]:
    """(command, word) for every command, option spelling, argument and choice of the CLI."""
    for name, command in _commands():
        yield name, name
        context = click.Context(command, info_name=name)
        for param in command.get_params(context):
            if isinstance(param, click.Option):
                for opt in (*param.opts, *param.secondary_opts):
                    yield name, opt
            else:
                yield name, param.metavar or (param.name or "").upper()
            if isinstance(param.type, click.Choice):
                for choice in param.type.choices:
                    yield name, str(choice)


def test_every_command_and_option_is_in_the_commands_page() -> None:
    page = _page("commands.md")
    words = list(_cli_words())
    assert len(words) > 40  # the walk found the commands and their options
    missing = sorted({f"{command}: {word}" for command, word in words if not _mentions(page, word)})
    assert not missing, f"docs/reference/commands.md does not mention {missing}"


def test_every_command_has_a_section() -> None:
    page = _page("commands.md")
    assert isinstance(cli, click.Group)
    missing = [name for name in cli.commands if not re.search(rf"^## {re.escape(name)}$", page, re.MULTILINE)]
    assert not missing, f"docs/reference/commands.md has no '## <command>' section for {missing}"


# --- environment variables ----------------------------------------------------------------------


class _RecordingEnviron(Mapping[str, str]):
    """An empty environment that remembers every variable the code asks it for."""

    def __init__(self) -> None:
        self.asked: set[str] = set()

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return default

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.asked.add(key)
        return False

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


_READER = re.compile(
    r"""(?:environ(?:\.get)?\(|environ\[|getenv\(|\b(?:text|flag|choice|whole_number|positive_seconds)\(\s*\w+,\s*)"""
    r"""["']([A-Z][A-Z0-9_]*)["']"""
)


def _variables_in_source() -> set[str]:
    """Names passed as literals to an environment reader anywhere in the two packages."""
    found: set[str] = set()
    for folder in (ROOT / "src", ROOT / "pytest_plugin" / "src"):
        for path in folder.rglob("*.py"):
            found.update(_READER.findall(path.read_text(encoding="utf-8")))
    return found


def _variables_read() -> set[str]:
    environ = _RecordingEnviron()
    settings_from_env(environ)  # the server's variables, and through it every limit
    derandomize_by_default(environ)  # CI, for json-contracts test and the pytest plugin
    return environ.asked | _variables_in_source() | set(ENVIRONMENT) | {"JSON_CONTRACTS_PATTERN_TIMEOUT"}


def test_every_environment_variable_is_in_the_configuration_page() -> None:
    page = _page("configuration.md")
    variables = _variables_read()
    expected = {"JSON_CONTRACTS_DIR", "MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN", "DEBUG", "CI"}
    assert expected <= variables, "the search for variables the code reads missed some"
    missing = sorted(name for name in variables if f"`{name}`" not in page)
    assert not missing, f"docs/reference/configuration.md does not list {missing}"


def test_every_limit_is_on_the_limits_page() -> None:
    page = _page("limits.md")
    times = ("JSON_CONTRACTS_PATTERN_TIMEOUT", "JSON_CONTRACTS_VALIDATION_TIMEOUT", "JSON_CONTRACTS_TEST_TIMEOUT")
    missing = sorted(name for name in (*ENVIRONMENT, *times) if f"`{name}`" not in page)
    assert not missing, f"docs/reference/limits.md does not list {missing}"


# --- the contract file --------------------------------------------------------------------------


def _contract_file_validator() -> Draft202012Validator:
    schema = json.loads(CONTRACT_FILE_SCHEMA.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.mark.parametrize("path", STARTERS, ids=[path.stem for path in STARTERS])
def test_the_contract_file_schema_accepts_every_starter(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    errors = [error.message for error in _contract_file_validator().iter_errors(document)]
    assert not errors, errors


def test_the_starters_were_found() -> None:
    assert len(STARTERS) == 8


# Files the loader accepts and refuses; the schema must say the same of each.
SHAPES: dict[str, tuple[Any, bool]] = {
    "only-a-schema": ({"schema": {}}, True),
    "draft-07": ({"schema": {"$schema": "http://json-schema.org/draft-07/schema#"}}, True),
    "custom-operation-and-unknown-field": (
        {
            "schema": {"type": "object"},
            "operations": {"summarise": {"enabled": False, "return": "json_patch", "note": 1}},
            "rule": ["unknown fields are dropped"],
            "examples": [{"input": None, "output": {}, "currentJson": {}, "context": {"a": 1}}],
        },
        True,
    ),
    "top-level-array": ([], False),
    "no-schema": ({"rules": []}, False),
    "boolean-schema": ({"schema": True}, False),
    "version-field": ({"version": None, "schema": {}}, False),
    "rules-not-a-list": ({"rules": "x", "schema": {}}, False),
    "rule-not-a-string": ({"rules": [1], "schema": {}}, False),
    "empty-name": ({"name": "", "schema": {}}, False),
    "example-without-output": ({"schema": {}, "examples": [{"input": "x"}]}, False),
    "bad-return": ({"schema": {}, "operations": {"edit": {"return": "patch"}}}, False),
    "enabled-not-a-boolean": ({"schema": {}, "operations": {"create": {"enabled": "yes"}}}, False),
    "operation-not-an-object": ({"schema": {}, "operations": {"x": 3}}, False),
    "unsupported-dialect": ({"schema": {"$schema": "https://json-schema.org/draft/2019-09/schema"}}, False),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_contract_file_schema_agrees_with_the_loader(name: str, tmp_path: Path) -> None:
    document, accepted = SHAPES[name]
    (tmp_path / f"{name}.json").write_text(json.dumps(document), encoding="utf-8")
    result = load_contracts(tmp_path)
    assert (name in result.contracts) is accepted, [f.message for f in result.failures]
    assert _contract_file_validator().is_valid(document) is accepted


def test_the_contract_format_page_includes_the_schema_and_every_format() -> None:
    page = _page("contract-format.md")
    assert "```{literalinclude} contract-file.schema.json" in page
    missing = sorted(name for name in KNOWN_FORMATS if f"`{name}`" not in page)
    assert not missing, f"docs/reference/contract-format.md does not list the formats {missing}"


# --- other pages against the code -----------------------------------------------------------------


def test_every_family_of_codes_is_rendered_on_the_rules_page() -> None:
    page = _page("rules.md")
    families = {info.family for info in CATALOGUE.values()}
    missing = sorted(family for family in families if f"```{{finding-codes}} {family}" not in page)
    assert not missing, f"docs/reference/rules.md renders no table for {missing}"


def test_every_public_name_is_documented_on_the_python_api_page() -> None:
    page = _page("python-api.md")
    names = [name for name in json_contracts.__all__ if not name.startswith("__")]
    missing = [name for name in names if not re.search(rf"\.\. auto\w+:: {re.escape(name)}$", page, re.MULTILINE)]
    assert not missing, f"docs/reference/python-api.md has no autodoc entry for {missing}"


def test_every_tool_prompt_and_argument_is_on_the_mcp_page() -> None:
    page = _page("mcp.md")
    words = {tool.name for tool in TOOLS} | {argument.name for tool in TOOLS for argument in tool.arguments}
    words |= {prompt.name for prompt in PROMPTS} | {a.name for prompt in PROMPTS for a in prompt.arguments}
    words |= {f"json-contracts/{tool.output}.json" for tool in TOOLS}
    missing = sorted(word for word in words if f"`{word}`" not in page)
    assert not missing, f"docs/reference/mcp.md does not mention {missing}"


def test_every_output_contract_is_on_the_outputs_page() -> None:
    page = _page("outputs.md")
    contracts = sorted((ROOT / "json-contracts").glob("*.json"))
    assert len(contracts) >= len(TOOLS)
    missing = [path.name for path in contracts if f"`json-contracts/{path.name}`" not in page]
    assert not missing, f"docs/reference/outputs.md does not name {missing}"


# --- the strict build ----------------------------------------------------------------------------


def _site_copy(destination: Path) -> Path:
    """docs/, the top-level Markdown files it includes and the mistakes corpus its page is built from."""
    shutil.copytree(DOCS, destination / "docs", ignore=shutil.ignore_patterns("_build", "__pycache__"))
    for path in ROOT.glob("*.md"):
        shutil.copy2(path, destination / path.name)
    shutil.copytree(ROOT / "tests" / "data" / "mistakes", destination / "tests" / "data" / "mistakes")
    return destination / "docs"


def _add_to_toctree(docs: Path, page: str) -> None:
    index = docs / "index.md"
    text = index.read_text(encoding="utf-8")
    marker = "\ngetting-started\n"
    assert marker in text, "the index's toctree moved; update this test"
    index.write_text(text.replace(marker, f"{marker}{page}\n", 1), encoding="utf-8")


def _start_build(docs: Path, output: Path) -> subprocess.Popen[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SPHINX")}
    return subprocess.Popen(
        [sys.executable, *BUILD, str(docs), str(output)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=environment,
        cwd=docs.parent,
    )


def _finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    output, _ = process.communicate(timeout=300)
    return process.returncode, output


@pytest.mark.slow
def test_the_strict_build_passes_and_fails_on_broken_links_and_orphan_pages(tmp_path: Path) -> None:
    clean = _site_copy(tmp_path / "clean")

    broken_link = _site_copy(tmp_path / "broken-link")
    broken_page = "# Broken\n\nSee [a page](missing-page.md) and [a section](reference/commands.md#no-such-section).\n"
    (broken_link / "broken.md").write_text(broken_page, encoding="utf-8")
    _add_to_toctree(broken_link, "broken")

    orphan = _site_copy(tmp_path / "orphan")
    (orphan / "orphan.md").write_text("# Orphan\n\nIn no toctree.\n", encoding="utf-8")

    builds = {name: _start_build(docs, tmp_path / f"{name}-html") for name, docs in
              (("clean", clean), ("broken-link", broken_link), ("orphan", orphan))}  # fmt: skip
    outcomes = {name: _finish(process) for name, process in builds.items()}

    status, output = outcomes["clean"]
    assert status == 0, output
    status, output = outcomes["broken-link"]
    assert status != 0, output
    assert "missing-page.md" in output, output
    assert "no-such-section" in output, output
    status, output = outcomes["orphan"]
    assert status != 0, output
    assert "toctree" in output, output

    rules = (tmp_path / "clean-html" / "reference" / "rules.html").read_text(encoding="utf-8")
    missing = sorted(str(code) for code in CATALOGUE if f'id="{str(code).lower()}"' not in rules)
    assert not missing, f"the built rules page has no row for {missing}"


# --- examples a reader runs ---------------------------------------------------------------------


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^ *```{language}\n(.*?)^ *```", text, re.MULTILINE | re.DOTALL)


def _command_env() -> dict[str, str]:
    """The environment a reader's shell has: this interpreter's json-contracts first on PATH."""
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}


def test_the_annotations_and_summary_on_the_action_page_are_what_lint_prints(tmp_path: Path) -> None:
    page = _page("github-action.md")
    section = page[page.index("(annotations)=") : page.index("(code-scanning-sarif)=")]
    contract, annotations = _blocks(section, "json")[0], _blocks(section, "text")[0]
    summary = next(block for block in _blocks(section, "text") if block.startswith("### json-contracts lint"))
    (tmp_path / "json-contracts").mkdir()
    (tmp_path / "json-contracts" / "ticket.json").write_text(contract, encoding="utf-8")

    done = subprocess.run(
        [sys.executable, "-m", "json_contracts", "lint", "--strict", "--format", "github", "--summary", "summary.md"],
        cwd=tmp_path, capture_output=True, text=True, env=_command_env(), check=False, timeout=120,
    )  # fmt: skip

    assert done.returncode == 1, done.stderr
    assert done.stdout == annotations
    assert (tmp_path / "summary.md").read_text(encoding="utf-8").strip() == summary.strip()


def test_the_actions_install_example_needs_no_package_index() -> None:
    from packaging.requirements import Requirement

    page = _page("github-action.md")
    values = re.findall(r"^ +install: (.+)$", page, re.MULTILINE)
    assert values, "the Action page shows no install: example"
    for value in values:
        requirement = Requirement(value)  # action/install.sh hands the input to pip as one argument
        assert requirement.name == "json-contracts"
        assert requirement.url is not None
        assert requirement.url.startswith("git+https://")
        assert "@" in requirement.url.removeprefix("git+https://")  # pinned to a tag or commit


@pytest.mark.parametrize(
    ("source", "checkout_path"),
    [("examples/python-client/README.md", ""), ("docs/reference/mcp.md", "/path/to/json-contracts/")],
    ids=["example-readme", "mcp-page"],
)
def test_running_the_agent_loop_as_shown_leaves_the_checkout_as_it_was(
    tmp_path: Path, source: str, checkout_path: str
) -> None:
    text = (ROOT / source).read_text(encoding="utf-8")
    script = next(block for block in _blocks(text, "bash") if "agent_loop.py" in block)
    checkout = tmp_path / "checkout"  # what a reader's checkout holds that the commands could touch
    shutil.copytree(ROOT / "examples" / "python-client", checkout / "examples" / "python-client")
    shutil.copytree(ROOT / "json-contracts", checkout / "json-contracts")
    before = sorted(path.relative_to(checkout) for path in checkout.rglob("*"))
    if checkout_path:
        script = script.replace(checkout_path, f"{checkout}/")

    done = subprocess.run(
        ["bash", "-euc", script], cwd=checkout, capture_output=True, text=True, env=_command_env(), timeout=120,
        check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stdout + done.stderr
    assert "attempt 2: valid" in done.stdout
    assert sorted(path.relative_to(checkout) for path in checkout.rglob("*")) == before
