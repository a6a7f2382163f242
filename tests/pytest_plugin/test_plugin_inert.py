"""Not enabled, the plugin costs next to nothing: no items, and no heavy import at load.

A lone ``pytest --version`` exits before loading any plugin (pytest 9), so these runs use
``--version --version`` and a real session, which do load it, and check that it was loaded.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.plugin import ContractsWriter
from tests.support.samples import tiny

HEAVY = ("mcp", "hypothesis", "jsonschema", "hypothesis_jsonschema", "click", "json_contracts.contracts.loading")


_PROBE = """
import sys, pytest
class Count:
    items = 0
    def pytest_collection_finish(self, session):
        Count.items = len(session.items)
code = pytest.main({args!r}, plugins=[Count()])
heavy = sorted(name for name in {heavy!r} if name in sys.modules)
print("PLUGIN-LOADED", "pytest_json_contracts" in sys.modules, "HEAVY", heavy, "ITEMS", Count.items)
"""


def _probe(args: list[str], cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")}
    code = _PROBE.format(args=args, heavy=HEAVY)
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    return done.stdout.splitlines()[-1]


def test_loading_the_plugin_imports_nothing_heavy(tmp_path: Path) -> None:
    assert _probe(["--version", "--version"], tmp_path) == "PLUGIN-LOADED True HEAVY [] ITEMS 0"


def test_a_session_without_a_folder_imports_nothing_heavy_and_collects_no_contracts(
    tmp_path: Path, pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"tiny.json": tiny()})
    pytester.makepyfile(test_app="def test_app():\n    pass\n")

    # Hypothesis's own pytest plugin imports hypothesis in every session; leave it out to see ours.
    args = ["-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q"]
    assert _probe(args, pytester.path) == "PLUGIN-LOADED True HEAVY [] ITEMS 1"  # test_app.py's test only


def test_disabling_the_plugin_by_name_works(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    write_contracts({"tiny.json": tiny()})

    result = pytester.runpytest("-p", "no:json_contracts", "--json-contracts", "json-contracts")

    assert result.ret == pytest.ExitCode.USAGE_ERROR  # the option no longer exists
    result.stderr.fnmatch_lines(["*unrecognized arguments: --json-contracts*"])


def test_with_the_property_checks_off_hypothesis_is_never_imported(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"tiny.json": tiny()})

    args = ["-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q", "--json-contracts", "json-contracts",
            "--json-contracts-no-hypothesis"]  # fmt: skip
    line = _probe(args, pytester.path)

    assert line.startswith("PLUGIN-LOADED True HEAVY [")
    assert "'hypothesis'" not in line
    assert "'hypothesis_jsonschema'" not in line


@pytest.mark.parametrize(
    ("pyproject", "named", "folder", "setting"),
    [
        (None, "json-contracts", "json-contracts",
         'json_contracts_dir = "json-contracts" in [tool.pytest.ini_options]'),
        (None, "json-contracts/tiny.json::load", "json-contracts",
         'json_contracts_dir = "json-contracts" in [tool.pytest.ini_options]'),
        (None, "contracts", "contracts", 'json_contracts_dir = "contracts" in [tool.pytest.ini_options]'),
        ("[tool.pytest.ini_options]\n", "contracts/", "contracts",
         'json_contracts_dir = "contracts" in [tool.pytest.ini_options]'),
    ],
    ids=["folder", "item", "folder-of-contracts", "with-pyproject"],
)  # fmt: skip
def test_naming_a_contracts_folder_while_off_says_how_to_turn_the_plugin_on(
    pytester: pytest.Pytester,
    write_contracts: ContractsWriter,
    pyproject: str | None,
    named: str,
    folder: str,
    setting: str,
) -> None:
    write_contracts({"tiny.json": tiny()}, folder=folder)
    if pyproject is not None:
        pytester.makepyprojecttoml(pyproject)

    result = pytester.runpytest("-p", "no:cacheprovider", named)

    assert result.ret in (pytest.ExitCode.NO_TESTS_COLLECTED, pytest.ExitCode.USAGE_ERROR)  # an item: "not found"
    shown = folder if not named.endswith("/") else named.rstrip("/")
    hint = (
        f"json-contracts: the plugin is off, so the contracts in {shown} were not tested; "
        f"turn it on with --json-contracts={shown}, or {setting}"
    )
    assert hint in result.outlines
    if result.ret == pytest.ExitCode.NO_TESTS_COLLECTED:
        assert result.outlines.index(hint) < next(i for i, line in enumerate(result.outlines) if "no tests ran" in line)


def test_following_the_hint_runs_the_contracts(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    write_contracts({"tiny.json": tiny()}, folder="contracts")

    result = pytester.runpytest("-p", "no:cacheprovider", "contracts", "--json-contracts=contracts",
                                "--json-contracts-no-hypothesis")  # fmt: skip

    result.assert_outcomes(passed=5, skipped=5)
    assert "the plugin is off" not in result.stdout.str()


def test_naming_a_folder_without_contracts_gives_no_hint(pytester: pytest.Pytester) -> None:
    fixtures = pytester.mkdir("fixtures")
    (fixtures / "data.json").write_text('{"rows": []}\n', encoding="utf-8")
    (fixtures / "broken.json").write_text("{", encoding="utf-8")

    result = pytester.runpytest("-p", "no:cacheprovider", "fixtures")

    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "the plugin is off" not in result.stdout.str()


def test_a_hint_costs_no_heavy_import(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    write_contracts({"tiny.json": tiny()})

    args = ["-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q", "json-contracts"]
    assert _probe(args, pytester.path) == "PLUGIN-LOADED True HEAVY [] ITEMS 0"
