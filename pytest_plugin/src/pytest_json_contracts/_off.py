"""What the plugin says while it is off: a run that names a contracts folder learns how to turn it on.

Without this, ``pytest json-contracts`` in a project that has not named its folder reports only
"no tests ran". Only paths named on the command line are looked at (a bare ``pytest`` stays
silent), and only cheaply: a folder named ``json-contracts``, or a folder or ``.json`` file
holding a contract (a JSON object with a ``schema``). Nothing of json-contracts is imported.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

__all__ = ["off_hint"]

FOLDER_NAME = "json-contracts"  # the folder `json-contracts init` writes and every command reads
_MAX_FILES = 20  # JSON files of a named folder looked into, at most
_MAX_BYTES = 262_144  # a bigger file is not read here (the loader's default file limit)


def _is_contract(path: Path) -> bool:
    """Whether ``path`` is a small JSON file holding an object with a ``schema``: a contract, likely."""
    try:
        if path.stat().st_size > _MAX_BYTES:
            return False
        value = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(value, dict) and "schema" in value


def _holds_contracts(folder: Path) -> bool:
    if folder.name == FOLDER_NAME:
        return True
    try:
        files = sorted(folder.glob("*.json"))[:_MAX_FILES]
    except OSError:
        return False
    return any(_is_contract(path) for path in files)


def _named_folder(config: pytest.Config) -> tuple[str, Path] | None:
    """The first contracts folder the command line names (as typed, and absolute), if any."""
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        return None
    base = config.invocation_params.dir
    for arg in config.args:
        typed = arg.split("::", 1)[0]
        if not typed:
            continue
        path = Path(base, typed)
        if path.is_dir() and _holds_contracts(path):
            return typed.rstrip("/\\") or typed, path
        if path.suffix == ".json" and path.is_file() and (path.parent.name == FOLDER_NAME or _is_contract(path)):
            return os.path.dirname(typed) or ".", path.parent
    return None


def off_hint(config: pytest.Config) -> str | None:
    """One line on how to turn the plugin on, when the off plugin's run names a contracts folder."""
    named = _named_folder(config)
    if named is None:
        return None
    typed, folder = named
    ini = config.inipath
    relative = Path(os.path.relpath(os.path.abspath(folder), ini.parent if ini else config.rootpath)).as_posix()
    if ini is None or ini.name == "pyproject.toml":
        setting = f'json_contracts_dir = "{relative}" in [tool.pytest.ini_options]'
    elif ini.suffix == ".toml":  # pytest.toml: a [pytest] table
        setting = f'json_contracts_dir = "{relative}" in {ini.name}'
    else:  # an ini file: quotes would be part of the value
        setting = f"json_contracts_dir = {relative} in {ini.name}"
    return (
        f"json-contracts: the plugin is off, so the contracts in {typed} were not tested; "
        f"turn it on with --json-contracts={typed}, or {setting}"
    )
