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
