"""Fixtures shared by every test folder."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

ContractsDirFactory = Callable[..., Path]

pytest_plugins = ["pytester"]  # the pytest plugin's tests (tests/plugin/); only a root conftest may enable plugins


@pytest.fixture
def make_contracts_dir(tmp_path: Path) -> ContractsDirFactory:
    """Write contract files into a fresh folder under ``tmp_path`` and return the folder.

    ``files`` maps a file name to its content: ``bytes`` and ``str`` are written verbatim (raw
    text, so broken JSON, BOMs and odd line endings can be tested); any other value is
    serialised as 2-space indented JSON with non-ASCII kept raw. To write a JSON *string*
    document, pass ``json.dumps(value)``. Call it again with another ``dirname`` for a second
    folder; calling it twice with the same ``dirname`` adds files to the same folder.
    """

    def make(files: Mapping[str, Any] | None = None, *, dirname: str = "json-contracts") -> Path:
        folder = tmp_path / dirname
        folder.mkdir(parents=True, exist_ok=True)
        for filename, content in (files or {}).items():
            path = folder / filename
            if isinstance(content, bytes):
                path.write_bytes(content)
            elif isinstance(content, str):
                path.write_bytes(content.encode("utf-8"))
            else:
                path.write_bytes((json.dumps(content, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        return folder

    return make


def pytest_report_header() -> list[str]:
    """Which Hypothesis the property checks ran on (they must work with the newest on PyPI)."""
    from importlib.metadata import version

    return [
        f"json-contracts checks on hypothesis {version('hypothesis')}, hypothesis-jsonschema "
        f"{version('hypothesis-jsonschema')}"
    ]
