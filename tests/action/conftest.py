"""Fixtures for the Action's tests: a folder with a broken contract, and the Action runner.

The workspace itself (``workspace``, ``good_folder``) and the in-process CLI (``run_cli``) come
from ``tests/conftest.py``: the reporting tests use them too.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.action import STARTER, VENV_BIN, RunAction
from tests.support.gha_runner import ActionRun, Runner
from tests.support.samples import BROKEN


@pytest.fixture
def broken_folder(workspace: Path) -> Path:
    """The starter contracts plus ``broken.json`` (:data:`BROKEN`) as ``broken/`` in the workspace."""
    folder = workspace / "broken"
    shutil.copytree(STARTER, folder)
    (folder / "broken.json").write_text(BROKEN, encoding="utf-8")
    return folder


@pytest.fixture
def run_action(workspace: Path, tmp_path: Path) -> RunAction:
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
