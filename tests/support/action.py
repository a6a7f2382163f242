"""Helpers for the Action's tests (tests/action) and the CI outputs: the starter folder, dev tools, the script."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.support.gha_runner import REPO, ActionRun

STARTER = REPO / "src" / "json_contracts" / "contracts" / "starter"
VENV_BIN = Path(sys.executable).parent

#: The run_action fixture: ``(inputs, *, path=None, uses_outputs=None)`` -> the simulated run.
RunAction = Callable[..., ActionRun]


def tool(name: str) -> str:
    """An executable installed next to this interpreter (the dev extras' tools)."""
    return str(VENV_BIN / name)


def position(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based line and column (code points) where ``needle`` starts in ``text``."""
    offset = -1
    for _ in range(occurrence):
        offset = text.index(needle, offset + 1)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def run_script(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed ``json-contracts`` console script in a subprocess."""
    env = {k: v for k, v in os.environ.items() if k != "JSON_CONTRACTS_DIR"}
    return subprocess.run(
        [tool("json-contracts"), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )
