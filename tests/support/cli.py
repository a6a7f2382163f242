"""Helpers for the CLI tests: the installed console script, contract files as the CLI tests write them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

#: The starter files in the order ``init`` lists them (the TypeScript server's order).
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


def contract_text(contract: dict[str, Any] | str) -> str:
    """A contract file's text: a string as it is, anything else as 2-space JSON (ASCII only) and a newline."""
    return contract if isinstance(contract, str) else json.dumps(contract, indent=2) + "\n"


def script_path() -> Path:
    """The installed console script next to this interpreter."""
    return Path(sys.executable).parent / ("json-contracts.exe" if os.name == "nt" else "json-contracts")


#: The run_cli fixtures: ``json-contracts ARGS...`` in-process (tests/cli's also takes ``input=`` and ``env=``).
RunCli = Callable[..., Result]
#: tests/cli's run_script fixture: the installed script in a subprocess (``input=``, ``env=``).
RunScript = Callable[..., subprocess.CompletedProcess[str]]
#: tests/cli's write_contracts fixture: ``({name: contract}, folder="contracts")`` -> the folder.
WriteContracts = Callable[..., Path]
