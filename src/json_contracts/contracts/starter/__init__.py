"""The starter contracts shipped as package data, which ``init`` copies into a project."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from json_contracts.contracts.names import collation_key

__all__ = ["starter_files"]


def starter_files() -> list[Traversable]:
    """Starter ``*.json`` files and ``LICENSE.md``, in the TypeScript server's listing order."""
    folder = resources.files(__name__)
    files = [f for f in folder.iterdir() if f.is_file() and (f.name.endswith(".json") or f.name == "LICENSE.md")]
    return sorted(files, key=lambda f: collation_key(f.name))
