"""Fixtures shared by several test folders: contract folders, the support ticket, a CI workspace."""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from json_contracts.cli import main
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import Contract
from json_contracts.schema.checking import check_schema
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.dialects import detect_dialect
from json_contracts.schema.validation import ErrorRecord, validate
from tests.support.action import STARTER
from tests.support.cli import RunCli
from tests.support.samples import LOGIN_TICKET, SUPPORT_TICKET_SCHEMA, make_support_ticket_file

ContractsDirFactory = Callable[..., Path]
LoadOne = Callable[..., Contract]
ErrorsOf = Callable[[dict[str, Any], Any], list[ErrorRecord]]

# The pytest plugin's tests (tests/pytest_plugin/) need pytester; only a root conftest may enable plugins.
pytest_plugins = ["pytester"]


@pytest.fixture
def make_contracts_dir(tmp_path: Path) -> ContractsDirFactory:
    """Write contract files into a fresh folder under ``tmp_path`` and return the folder.

    ``files`` maps a file name to its content: ``bytes`` and ``str`` are written verbatim (raw
    text, so broken JSON, BOMs and odd line endings can be tested); any other value is
    serialised as 2-space indented JSON with non-ASCII kept raw. To write a JSON *string*
    document, pass ``json.dumps(value)``. Call it again with another ``dirname`` for a second
    folder; calling it twice with the same ``dirname`` adds files to the same folder.
    """

    def make(files: Mapping[str, Any] | None = None, *, dirname: str = "json-contracts") -> Path:
        folder = tmp_path / dirname
        folder.mkdir(parents=True, exist_ok=True)
        for filename, content in (files or {}).items():
            path = folder / filename
            if isinstance(content, bytes):
                path.write_bytes(content)
            elif isinstance(content, str):
                path.write_bytes(content.encode("utf-8"))
            else:
                path.write_bytes((json.dumps(content, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        return folder

    return make


# --- the support ticket (tests/_json, schema, contracts, agent) ----------------------------------


@pytest.fixture
def support_ticket_schema() -> dict[str, Any]:
    return copy.deepcopy(SUPPORT_TICKET_SCHEMA)


@pytest.fixture
def valid_ticket() -> dict[str, Any]:
    return copy.deepcopy(LOGIN_TICKET)


@pytest.fixture
def support_ticket_file(support_ticket_schema: dict[str, Any], valid_ticket: dict[str, Any]) -> dict[str, Any]:
    """The support-ticket contract file, with rules, operation rules and examples to echo."""
    return make_support_ticket_file(support_ticket_schema, valid_ticket)


@pytest.fixture
def load_one(make_contracts_dir: ContractsDirFactory) -> LoadOne:
    """Load one contract file (``name.json``) from a fresh folder; fails the test if it does not load.

    (``tests/lint`` has a ``load_one`` of its own, which returns the load result and the file text.)
    """
    counter = iter(range(1_000_000))

    def load(content: Any, name: str = "support-ticket") -> Contract:
        folder = make_contracts_dir({f"{name}.json": content}, dirname=f"load-one-{next(counter)}")
        result = load_contracts(folder)
        assert result.failures == [], [f.message for f in result.failures]
        return result.contracts[name]

    return load


@pytest.fixture
def support_ticket(load_one: LoadOne, support_ticket_file: dict[str, Any]) -> Contract:
    return load_one(support_ticket_file)


@pytest.fixture
def errors_of() -> ErrorsOf:
    """Validate ``instance`` against a schema that must be usable; return the error records."""

    def check(schema: dict[str, Any], instance: Any) -> list[ErrorRecord]:
        dialect = detect_dialect(schema)
        assert isinstance(dialect, str), dialect
        assert check_schema(schema, dialect) is None
        return validate(compile_schema(schema, dialect), instance).errors

    return check


# --- a simulated GitHub workspace (tests/action, reporting, cli) ----------------------------------


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$GITHUB_WORKSPACE``: a fresh folder, also the working directory of in-process CLI runs.

    (``tests/cli`` makes this its own working folder, ``workdir``.)
    """
    folder = tmp_path / "workspace"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.delenv("JSON_CONTRACTS_DIR", raising=False)
    return folder


@pytest.fixture
def good_folder(workspace: Path) -> Path:
    """The starter contracts (lint clean, strict) as ``json-contracts/`` in the workspace."""
    folder = workspace / "json-contracts"
    shutil.copytree(STARTER, folder)
    return folder


@pytest.fixture
def run_cli(workspace: Path) -> RunCli:
    """``json-contracts`` in-process, in the workspace; stdout and stderr kept apart.

    (``tests/cli`` has a ``run_cli`` of its own that also takes ``input`` and ``env``.)
    """

    def run(*args: str) -> Result:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return run


def pytest_report_header() -> list[str]:
    """Which Hypothesis the property checks ran on (they must work with the newest on PyPI)."""
    from importlib.metadata import version

    return [
        f"json-contracts checks on hypothesis {version('hypothesis')}, hypothesis-jsonschema "
        f"{version('hypothesis-jsonschema')}"
    ]
