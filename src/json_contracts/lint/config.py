"""Project settings from ``[tool.json-contracts]`` in the nearest ``pyproject.toml``.

Recognised keys: ``ignore`` (list of finding codes to turn off) and ``strict`` (bool, the
default of ``lint --strict``). Unknown keys are refused, so a typo never silently does nothing.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from json_contracts.errors import JsonContractsError
from json_contracts.findings import CATALOGUE, Code

__all__ = ["ConfigError", "Settings", "find_pyproject", "load_settings", "parse_codes"]


class ConfigError(JsonContractsError):
    """Raised when ``[tool.json-contracts]`` or a ``--ignore`` list is malformed."""


@dataclass(frozen=True)
class Settings:
    ignore: frozenset[str] = field(default_factory=frozenset)
    strict: bool = False
    source: Path | None = None


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
    unknown = set(table) - {"ignore", "strict"}
    if unknown:
        raise ConfigError(
            f"{path}: [tool.json-contracts] has unknown key(s) {', '.join(sorted(unknown))}; use ignore or strict"
        )
    ignore = table.get("ignore", [])
    if not isinstance(ignore, list) or not all(isinstance(c, str) for c in ignore):
        raise ConfigError(
            f"{path}: [tool.json-contracts] ignore must be a list of codes, "
            f'e.g. ignore = ["{Code.OPTIONAL_PROPERTY_WITHOUT_EXAMPLE}"]'
        )
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise ConfigError(f"{path}: [tool.json-contracts] strict must be true or false")
    return Settings(parse_codes(ignore, f"{path}: [tool.json-contracts] ignore"), strict, path)
