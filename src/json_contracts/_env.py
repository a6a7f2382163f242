"""Reading environment variables: one set of rules for every variable json-contracts reads.

An empty variable counts as unset (its default applies). Any other value must parse, or the
reader raises :class:`EnvironmentVariableError` naming the variable, the value and what it
accepts; adapters turn that into a usage error (exit 2) or a start-up error. Nothing falls back
silently, so a mistyped limit or flag never changes behaviour unnoticed. The variables and their
meanings are listed in ``docs/reference/configuration.md``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from json_contracts.errors import EnvironmentVariableError

__all__ = [
    "EmptyFolderOptionError",
    "choice",
    "ci_is_set",
    "flag",
    "positive_seconds",
    "text",
    "whole_number",
]

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def text(environ: Mapping[str, str], name: str) -> str | None:
    """The variable's value, or None when it is unset or empty."""
    return environ.get(name) or None


def _refuse(name: str, raw: str, accepted: str) -> EnvironmentVariableError:
    return EnvironmentVariableError(f"{name} must be {accepted}, got {raw!r}; unset it for the default")


def whole_number(
    environ: Mapping[str, str], name: str, default: int, *, minimum: int = 1, maximum: int | None = None
) -> int:
    """A whole number from ``minimum`` to ``maximum`` (``_`` separators allowed, as in ``262_144``).

    Raises:
        EnvironmentVariableError: the value is not a whole number in range.
    """
    raw = text(environ, name)
    if raw is None:
        return default
    digits = raw.strip().replace("_", "")
    value = int(digits) if digits.isascii() and digits.isdigit() else None
    if value is None or value < minimum or (maximum is not None and value > maximum):
        accepted = f"from {minimum} to {maximum}" if maximum is not None else f"of at least {minimum}"
        raise _refuse(name, raw, f"a whole number {accepted}")
    return value


def positive_seconds(environ: Mapping[str, str], name: str, default: float) -> float:
    """A positive, finite number of seconds (``0.5``, ``2``).

    Raises:
        EnvironmentVariableError: the value is not a positive finite number.
    """
    raw = text(environ, name)
    if raw is None:
        return default
    try:
        value = float(raw.strip())
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise _refuse(name, raw, "a positive number of seconds")
    return value


def flag(environ: Mapping[str, str], name: str, default: bool) -> bool:
    """A boolean: ``1``, ``true``, ``yes``, ``on`` or ``0``, ``false``, ``no``, ``off`` (any case).

    Raises:
        EnvironmentVariableError: any other value.
    """
    raw = text(environ, name)
    if raw is None:
        return default
    lowered = raw.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise _refuse(name, raw, f"one of {', '.join(_TRUE)} or {', '.join(_FALSE)}")


def shared_flag(environ: Mapping[str, str], name: str) -> bool:
    """A flag whose name other tools use too (``DEBUG``): on for 1/true/yes/on, off for anything else.

    Such a variable may hold another tool's value (``DEBUG=express:*``), so no value is refused.
    """
    return (text(environ, name) or "").strip().lower() in _TRUE


def choice(environ: Mapping[str, str], name: str, default: str, choices: Iterable[str]) -> str:
    """One of ``choices`` (compared in lower case).

    Raises:
        EnvironmentVariableError: any other value.
    """
    raw = text(environ, name)
    if raw is None:
        return default
    allowed = tuple(choices)
    if raw.strip().lower() not in allowed:
        raise _refuse(name, raw, " or ".join(allowed))
    return raw.strip().lower()


def ci_is_set(environ: Mapping[str, str]) -> bool:
    """Whether ``CI`` says this is a CI run: any value but empty, ``0``, ``false``, ``no``, ``off``.

    ``CI`` belongs to the CI system, not to us (some set it to ``true``, others to their own
    name), so no value is refused.
    """
    return (environ.get("CI") or "").strip().lower() not in ("", *_FALSE)


class EmptyFolderOptionError(ValueError):
    """``--contracts ""``: a folder option that names no folder."""


def contracts_folder(option: str | None, environ: Mapping[str, str]) -> str:
    """The contracts folder a command works on: ``--contracts``, else ``$JSON_CONTRACTS_DIR``, else
    ``json-contracts`` (relative to the working directory).

    Raises:
        EmptyFolderOptionError: the option is given but empty (the variable, empty, counts as unset).
    """
    if option is not None and not option.strip():
        raise EmptyFolderOptionError("--contracts needs a folder path; leave it out to use $JSON_CONTRACTS_DIR")
    return option or text(environ, "JSON_CONTRACTS_DIR") or "json-contracts"
