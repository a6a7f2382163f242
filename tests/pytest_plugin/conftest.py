"""Fixtures for the pytest plugin's tests: contract folders inside a ``pytester`` project.

The engine is imported once per session, before any ``pytester`` takes its ``sys.modules``
snapshot, so in-process runs share it instead of importing jsonschema and Hypothesis afresh
(not at conftest import: Hypothesis warns about start-up side effects there).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.support.history import git
from tests.support.plugin import ContractsWriter

#: The commit_project fixture: commit everything in the pytester project, return the commit.
CommitProject = Callable[[], str]


@pytest.fixture(scope="session", autouse=True)
def _engine_imported() -> None:
    import pytest_json_contracts.items
    import pytest_json_contracts.registry  # noqa: F401


@pytest.fixture
def write_contracts(pytester: pytest.Pytester) -> ContractsWriter:
    """Write contract files into ``<project>/json-contracts`` (dicts as 2-space JSON, str verbatim)."""

    def write(files: Mapping[str, Any], *, folder: str = "json-contracts") -> Path:
        target = pytester.path / folder
        target.mkdir(parents=True, exist_ok=True)
        for name, content in files.items():
            text = content if isinstance(content, str) else json.dumps(content, indent=2) + "\n"
            (target / name).write_text(text, encoding="utf-8")
        return target

    return write


@pytest.fixture(autouse=True)
def _no_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs draw with a random seed unless a test sets ``CI`` (the outer run may be on CI)."""
    monkeypatch.delenv("CI", raising=False)


@pytest.fixture
def commit_project(pytester: pytest.Pytester) -> CommitProject:
    """Commit the whole pytester project (a Git repository from the first call, branch main); returns the commit.

    ``--json-contracts-base`` reads the contracts folder as a revision has it, so its tests need history.
    """

    def commit() -> str:
        if not (pytester.path / ".git").exists():
            git(pytester.path, "init", "-q")
        git(pytester.path, "add", "-A")
        git(pytester.path, "commit", "-q", "--allow-empty", "-m", "commit")
        return git(pytester.path, "rev-parse", "HEAD")

    return commit
