"""The output schemas of the MCP tools, read from the contracts that describe each tool's result.

Each tool's result is described once, by a contract in this project's ``json-contracts/`` folder
(the folder the test suite also checks every real answer against). An installed wheel carries the
folder as ``json_contracts/_own_contracts`` (see ``pyproject.toml``); a source checkout or an
editable install reads it from the repository root.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

__all__ = ["output_schema", "own_contracts_folder"]

_PACKAGED = "_own_contracts"


def own_contracts_folder() -> Traversable:
    """Where this project's own contracts are: inside the installed package, else in the checkout."""
    packaged = resources.files("json_contracts") / _PACKAGED
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "json-contracts"  # src/json_contracts/mcp/outputs.py


def output_schema(contract: str) -> dict[str, Any]:
    """The ``schema`` of ``json-contracts/<contract>.json``: a tool's ``outputSchema`` (a fresh copy).

    Raises:
        FileNotFoundError: the contract is missing (a packaging error: the wheel must carry the folder).
    """
    return copy.deepcopy(_read_schema(contract))


@cache
def _read_schema(contract: str) -> dict[str, Any]:
    text = (own_contracts_folder() / f"{contract}.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)["schema"]
    return schema
