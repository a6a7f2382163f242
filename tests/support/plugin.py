"""Helpers shared by the pytest plugin's tests (tests/pytest_plugin); their contracts are in ``samples``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

#: The items :data:`tests.support.samples.TINY` becomes, in collection order.
TINY_IDS = ["load", "lint", "example[0]", "example[1]", "edit.example[0]",
            "satisfiable", "samples-valid", "repair-hints", "edit", "hashes"]  # fmt: skip

#: Options that keep an in-process pytest run quick: no cache, ten examples per property check.
FAST = ("-p", "no:cacheprovider", "--json-contracts-max-examples", "10")

ContractsWriter = Callable[..., Path]  # the write_contracts fixture


def position_of(path: Path, needle: str) -> tuple[int, int]:
    """1-based line and column of the first occurrence of ``needle`` in the file (an independent oracle)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(f"{needle!r} not in {path}")
