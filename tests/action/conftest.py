"""Fixtures for the CI tests: a simulated GitHub workspace, the Action runner, the real CLI."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from ci_support import BROKEN, STARTER, VENV_BIN
from click.testing import CliRunner, Result
from gha_runner import ActionRun, Runner

from json_contracts.cli import main


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$GITHUB_WORKSPACE``: a fresh folder, also the working directory of in-process CLI runs."""
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
def broken_folder(workspace: Path) -> Path:
    """The starter contracts plus ``broken.json`` (:data:`BROKEN`) as ``broken/`` in the workspace."""
    folder = workspace / "broken"
    shutil.copytree(STARTER, folder)
    (folder / "broken.json").write_text(BROKEN, encoding="utf-8")
    return folder


@pytest.fixture
def run_action(workspace: Path, tmp_path: Path) -> Callable[..., ActionRun]:
    """Run action.yml's steps with ``inputs``; by default ``install: none`` with this venv's json-contracts on PATH.

    ``install: none`` is the Action's documented way to use an already installed json-contracts;
    the install path proper (a venv under ``$RUNNER_TEMP`` and pip) has its own tests with a
    stand-in interpreter, since a real pip install needs the network.
    """

    def run(
        inputs: dict[str, str] | None = None,
        *,
        path: list[str] | None = None,
        uses_outputs: dict[str, dict[str, str]] | None = None,
    ) -> ActionRun:
        temp = tmp_path / "runner_temp"
        temp.mkdir(exist_ok=True)
        chosen = {"install": "none", **(inputs or {})}
        search = path if path is not None else [str(VENV_BIN), "/usr/local/bin", "/usr/bin", "/bin"]
        runner = Runner(workspace=workspace, temp=temp, inputs=chosen, path=search, uses_outputs=uses_outputs)
        return runner.run()

    return run


@pytest.fixture
def run_cli(workspace: Path) -> Callable[..., Result]:
    """``json-contracts`` in-process, in the workspace; stdout and stderr kept apart."""

    def run(*args: str) -> Result:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return run
