"""Project settings from ``[tool.json-contracts]`` in the nearest ``pyproject.toml``.

Recognised keys: ``ignore`` (list of finding codes to turn off), ``strict`` (bool, the default of
``lint --strict``), ``compatibility`` (the mode ``json-contracts diff`` holds every contract to)
and the ``compatibility-overrides`` table (a mode per contract name). Unknown keys are refused, so
a typo never silently does nothing.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from json_contracts.contracts.names import is_safe_name
from json_contracts.errors import JsonContractsError
from json_contracts.findings import CATALOGUE, Code

__all__ = ["COMPATIBILITY_MODES", "ConfigError", "Settings", "find_pyproject", "load_settings", "parse_codes"]

#: The compatibility modes of ``json-contracts diff`` (the engine's ``evolution.model.MODES``; a
#: test holds the two equal, since this layer sits below the engine and cannot import it).
COMPATIBILITY_MODES: tuple[str, ...] = ("backward", "forward", "full", "none")
_KEYS = ("ignore", "strict", "compatibility", "compatibility-overrides")


class ConfigError(JsonContractsError):
    """Raised when ``[tool.json-contracts]`` or a ``--ignore`` list is malformed."""


@dataclass(frozen=True)
class Settings:
    """The table's values, defaults filled in; ``source`` is the file they came from (None: no file)."""

    ignore: frozenset[str] = field(default_factory=frozenset)
    strict: bool = False
    source: Path | None = None
    compatibility: str = "backward"
    compatibility_overrides: Mapping[str, str] = field(default_factory=dict)


def parse_codes(codes: list[str], where: str) -> frozenset[str]:
    """Validate finding codes (``JC104``); raises ConfigError naming ``where``."""
    result = set()
    for code in codes:
        code = code.strip().upper()
        if not code:
            continue
        if code not in CATALOGUE:
            first, last = min(CATALOGUE), max(CATALOGUE)
            listed = f"known codes are {first}-{last}, listed in docs/reference/rules.md"
            raise ConfigError(f"{where}: unknown code {code!r}; {listed}")
        result.add(code)
    return frozenset(result)


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start``."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def _modes_listed() -> str:
    return ", ".join(COMPATIBILITY_MODES[:-1]) + f" or {COMPATIBILITY_MODES[-1]}"


def _mode(value: Any, where: str) -> str:
    """A compatibility mode, or a ConfigError that names ``where`` and the modes there are."""
    if not isinstance(value, str) or value not in COMPATIBILITY_MODES:
        shown = f"{value!r}" if isinstance(value, str) else f"a {type(value).__name__}"
        raise ConfigError(f"{where} must be one of {_modes_listed()}, got {shown}")
    return value


def _overrides(value: Any, path: Path) -> dict[str, str]:
    """``[tool.json-contracts.compatibility-overrides]``: contract name = mode, each checked."""
    where = f"{path}: [tool.json-contracts.compatibility-overrides]"
    if not isinstance(value, dict):
        raise ConfigError(f'{where} must be a table of contract name = mode, e.g. support-ticket = "full"')
    overrides: dict[str, str] = {}
    for name, mode in value.items():
        if not is_safe_name(name):
            raise ConfigError(f"{where} key {name!r} is not a contract name (the file name without .json)")
        overrides[name] = _mode(mode, f"{where} {name}")
    return overrides


def load_settings(start: Path) -> Settings:
    """Settings from the nearest pyproject.toml (defaults when there is none or no table).

    Raises:
        ConfigError: the file is not TOML or the table has a wrong key or value.
    """
    path = find_pyproject(start)
    if path is None:
        return Settings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read [tool.json-contracts]: {exc}") from exc
    tools = data.get("tool", {})
    if not isinstance(tools, dict):
        raise ConfigError(f"{path}: tool must be a table ([tool.json-contracts])")
    table = tools.get("json-contracts")
    if table is None:
        return Settings(source=path)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.json-contracts] must be a table")
    unknown = set(table) - set(_KEYS)
    if unknown:
        known = ", ".join(_KEYS[:-1]) + f" or {_KEYS[-1]}"
        raise ConfigError(f"{path}: [tool.json-contracts] has unknown key(s) {', '.join(sorted(unknown))}; use {known}")
    ignore = table.get("ignore", [])
    if not isinstance(ignore, list) or not all(isinstance(c, str) for c in ignore):
        raise ConfigError(
            f"{path}: [tool.json-contracts] ignore must be a list of codes, "
            f'e.g. ignore = ["{Code.OPTIONAL_PROPERTY_WITHOUT_EXAMPLE}"]'
        )
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise ConfigError(f"{path}: [tool.json-contracts] strict must be true or false")
    compatibility = _mode(table.get("compatibility", "backward"), f"{path}: [tool.json-contracts] compatibility")
    overrides = _overrides(table.get("compatibility-overrides", {}), path)
    return Settings(
        parse_codes(ignore, f"{path}: [tool.json-contracts] ignore"),
        strict,
        path,
        compatibility=compatibility,
        compatibility_overrides=overrides,
    )
