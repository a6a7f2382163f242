"""Shared constants and helpers for tests/ci (a module of its own: every test folder has a conftest)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gha_runner import REPO

STARTER = REPO / "src" / "json_contracts" / "contracts" / "starter"
VENV_BIN = Path(sys.executable).parent

#: One lint error (JC113 on the 5), one warning (JC104 on the schema object) and two info findings.
BROKEN = """{
  "schema": {
    "type": "object",
    "properties": {"size": {"type": "string", "enum": ["s", 5]}},
    "required": ["size"]
  },
  "examples": [{"input": "small", "output": {"size": "s"}}]
}
"""


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
