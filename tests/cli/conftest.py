"""Fixtures for CLI tests: an isolated working folder, a click runner, contract writers, the real script.

Every test runs in its own ``tmp_path`` as the working directory with ``JSON_CONTRACTS_DIR``
unset, so the default ``./json-contracts`` and any ``pyproject.toml`` lookup stay inside it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner, Result

from json_contracts.cli import main

#: The starter files in the order the original's ``init`` lists them (reference-outputs/init.stdout.txt).
STARTER_FILES = [
    "chart-generation.json",
    "create-filter.json",
    "ecommerce-return.json",
    "expense-report.json",
    "legal-client-intake.json",
    "LICENSE.md",
    "patient-intake.json",
    "real-estate-lead.json",
    "support-ticket.json",
]

#: Lints clean: closed object, every enum value and optional property shown, edit disabled.
TICKET = {
    "description": "A tiny ticket.",
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "required": ["title", "priority"],
        "properties": {
            "title": {"type": "string", "minLength": 3},
            "priority": {"type": "string", "enum": ["low", "high"]},
        },
    },
    "operations": {"edit": {"enabled": False}},
    "examples": [
        {"input": "printer is down", "output": {"title": "Printer down", "priority": "high"}},
        {"input": "new mouse please", "output": {"title": "New mouse", "priority": "low"}},
    ],
}

#: One warning: JC104 at the root schema (line 2, column 13 as written by ``write_contracts``).
OPEN_OBJECT = {
    "schema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
    "operations": {"edit": {"enabled": False}},
    "examples": [{"input": "i", "output": {"a": "x"}}],
}

#: One info finding: JC131 (optional property ``b`` never shown).
UNSHOWN_OPTIONAL = {
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "required": ["a"],
    },
    "operations": {"edit": {"enabled": False}},
    "examples": [{"input": "i", "output": {"a": "x"}}],
}

#: One lint error: JC113 (an integer in a string enum), plus JC130 info for the unshown value.
WRONG_ENUM = {
    "schema": {"type": "string", "enum": ["x", 5]},
    "operations": {"edit": {"enabled": False}},
    "examples": [{"input": "i", "output": "x"}],
}

#: Does not load: JC015.
VERSIONED = {"version": "1.0.0", "schema": {"type": "string"}}


@pytest.fixture
def samples() -> SimpleNamespace:
    """The sample contracts above, and the starter file order."""
    return SimpleNamespace(
        STARTER_FILES=list(STARTER_FILES),
        TICKET=TICKET,
        OPEN_OBJECT=OPEN_OBJECT,
        UNSHOWN_OPTIONAL=UNSHOWN_OPTIONAL,
        WRONG_ENUM=WRONG_ENUM,
        VERSIONED=VERSIONED,
    )


def contract_text(contract: dict[str, Any] | str) -> str:
    return contract if isinstance(contract, str) else json.dumps(contract, indent=2) + "\n"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the working directory, with JSON_CONTRACTS_DIR unset."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JSON_CONTRACTS_DIR", raising=False)
    return tmp_path


@pytest.fixture
def run_cli(workdir: Path) -> Callable[..., Result]:
    """Invoke ``json-contracts`` in-process; stdout and stderr stay separate (click >= 8.2)."""

    def run(*args: str, input: str | bytes | None = None, env: dict[str, str | None] | None = None) -> Result:
        return CliRunner().invoke(main, list(args), input=input, env=env, catch_exceptions=False)

    return run


@pytest.fixture
def write_contracts(workdir: Path) -> Callable[..., Path]:
    """Write ``{name: contract}`` into ``folder`` (relative to the working directory); returns it."""

    def write(files: dict[str, dict[str, Any] | str], folder: str = "contracts") -> Path:
        target = workdir / folder
        target.mkdir(parents=True, exist_ok=True)
        for name, contract in files.items():
            (target / f"{name}.json").write_text(contract_text(contract), encoding="utf-8")
        return target

    return write


def script_path() -> Path:
    """The installed console script next to this interpreter."""
    return Path(sys.executable).parent / ("json-contracts.exe" if os.name == "nt" else "json-contracts")


@pytest.fixture
def run_script(workdir: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
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
