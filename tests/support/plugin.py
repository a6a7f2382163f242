"""Contracts and helpers shared by the pytest plugin's tests (imported as a module, not a conftest)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Lints clean; two top-level examples and one edit example; every check passes.
TINY: dict[str, Any] = {
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
    "operations": {
        "edit": {
            "enabled": True,
            "examples": [
                {
                    "currentJson": {"title": "Printer down", "priority": "low"},
                    "input": "raise it",
                    "output": {"title": "Printer down", "priority": "high"},
                }
            ],
        }
    },
    "examples": [
        {"input": "printer is down", "output": {"title": "Printer down", "priority": "high"}},
        {"input": "typo on the site", "output": {"title": "Typo on the site", "priority": "low"}},
    ],
}

TINY_IDS = ["load", "lint", "example[0]", "example[1]", "edit.example[0]",
            "satisfiable", "samples-valid", "repair-hints", "edit", "hashes"]  # fmt: skip

#: No document can satisfy it: the pattern needs 10 characters, maxLength allows 5.
UNSATISFIABLE: dict[str, Any] = {
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"code": {"type": "string", "pattern": "^a{10}$", "maxLength": 5}},
        "required": ["code"],
    },
    "operations": {"edit": {"enabled": False}},
    "examples": [],
}

#: Following the hint for a missing ``b`` (add it) cannot work: ``dependentSchemas`` pins it to 1.
BAD_REPAIR: dict[str, Any] = {
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
        "dependentSchemas": {"a": {"properties": {"b": {"const": 1}}}},
    },
    "operations": {"edit": {"enabled": False}},
    "examples": [{"input": "x", "output": {"a": 1, "b": 1}}],
}

FAST = ("-p", "no:cacheprovider", "--json-contracts-max-examples", "10")

ContractsWriter = Callable[..., Path]  # the write_contracts fixture


def tiny(**changes: Any) -> dict[str, Any]:
    """A deep copy of :data:`TINY` with top-level fields replaced."""
    return {**copy.deepcopy(TINY), **changes}


def position_of(path: Path, needle: str) -> tuple[int, int]:
    """1-based line and column of the first occurrence of ``needle`` in the file (an independent oracle)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(f"{needle!r} not in {path}")
