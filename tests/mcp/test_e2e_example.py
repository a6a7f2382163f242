"""The agent-loop example runs end to end against every starter contract."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import json_contracts

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python-client" / "agent_loop.py"
STARTERS = Path(json_contracts.__file__).parent / "contracts" / "starter"


@pytest.mark.parametrize("contract", ["support-ticket", "ecommerce-return", "create-filter"])
def test_the_agent_loop_reaches_valid_json_through_a_repair(contract: str) -> None:
    process = subprocess.run(
        [sys.executable, str(EXAMPLE), str(STARTERS), contract],
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert process.returncode == 0, process.stderr
    lines = process.stdout.splitlines()
    assert lines[0].startswith("attempt 1: ")
    assert "asking for a repair contract" in lines[0]
    assert lines[1] == "attempt 2: valid"
