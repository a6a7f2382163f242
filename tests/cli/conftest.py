"""Fixtures for CLI tests: an isolated working folder, a click runner, contract writers, the real script.

Every test runs in its own ``tmp_path`` as the working directory with ``JSON_CONTRACTS_DIR``
unset, so the default ``./json-contracts``, any ``pyproject.toml`` lookup and ``test``'s cache folder
stay inside it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner, Result

from json_contracts.cli import main
from tests.support.cli import STARTER_FILES, RunCli, RunScript, WriteContracts, contract_text, script_path
from tests.support.samples import OPEN_OBJECT, TICKET, UNSHOWN_OPTIONAL, VERSIONED, WRONG_ENUM


@pytest.fixture
def samples() -> SimpleNamespace:
    """The sample contracts of ``tests.support.samples`` the CLI tests use, and the starter file order."""
    return SimpleNamespace(
        STARTER_FILES=list(STARTER_FILES),
        TICKET=TICKET,
        OPEN_OBJECT=OPEN_OBJECT,
        UNSHOWN_OPTIONAL=UNSHOWN_OPTIONAL,
        WRONG_ENUM=WRONG_ENUM,
        VERSIONED=VERSIONED,
    )


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the working directory, with JSON_CONTRACTS_DIR unset, and NO_COLOR and FORCE_COLOR too
    (a shell or CI that sets FORCE_COLOR would otherwise colour every output the tests compare)."""
    monkeypatch.chdir(tmp_path)
    for name in ("JSON_CONTRACTS_DIR", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def workspace(workdir: Path) -> Path:
    """The working folder, under the name the shared ``good_folder`` fixture (tests/conftest.py) writes into."""
    return workdir


@pytest.fixture
def run_cli(workdir: Path) -> RunCli:
    """Invoke ``json-contracts`` in-process; stdout and stderr stay separate (click >= 8.2)."""

    def run(*args: str, input: str | bytes | None = None, env: dict[str, str | None] | None = None) -> Result:
        return CliRunner().invoke(main, list(args), input=input, env=env, catch_exceptions=False)

    return run


@pytest.fixture
def write_contracts(workdir: Path) -> WriteContracts:
    """Write ``{name: contract}`` into ``folder`` (relative to the working directory); returns it."""

    def write(files: dict[str, dict[str, Any] | str], folder: str = "contracts") -> Path:
        target = workdir / folder
        target.mkdir(parents=True, exist_ok=True)
        for name, contract in files.items():
            (target / f"{name}.json").write_text(contract_text(contract), encoding="utf-8")
        return target

    return write


@pytest.fixture
def run_script(workdir: Path) -> RunScript:
    """Run the real installed ``json-contracts`` script in a subprocess, in the working folder."""

    def run(
        *args: str, input: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        full_env = {k: v for k, v in os.environ.items() if k != "JSON_CONTRACTS_DIR"}
        full_env.update({"NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"})
        full_env.update(env or {})
        return subprocess.run(
            [str(script_path()), *args],
            input=input,
            capture_output=True,
            text=True,
            cwd=workdir,
            env=full_env,
            timeout=60,
            check=False,
        )

    return run
