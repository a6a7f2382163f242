"""Argument rules for the MCP tools and prompts, with the TypeScript server's (zod 3) error text.

Agents configured for the TypeScript server read its argument errors, so a failure is the zod 3
issue list serialised exactly as that server sends it: issues in the order of the arguments,
unrecognized keys last, every key in zod's order. Each argument is one :class:`Argument`: its name,
the JSON Schema fragment the tool's ``inputSchema`` publishes, and the check behind it, so the
published schema and the enforced rule cannot drift apart. The tools and prompts that use them are
declared in :mod:`json_contracts.mcp.tools`; ``docs/reference/mcp.md`` lists them.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from json_contracts._json.text import dumps, js_key_order
from json_contracts._json.values import json_type
from json_contracts.contracts.names import CONTRACT_NAME_PATTERN, is_safe_name
from json_contracts.errors import JsonContractsError

__all__ = [
    "CONTEXT",
    "CONTRACT",
    "INPUT",
    "VALIDATION_ERRORS",
    "Argument",
    "ArgumentsError",
    "check_arguments",
    "input_schema",
    "json_value",
]

Issue = dict[str, Any]
Path = list[str | int]


class ArgumentsError(JsonContractsError):
    """Raised when tool or prompt arguments break the rules; the message is the issue list as JSON."""

    def __init__(self, issues: list[Issue]) -> None:
        super().__init__(dumps(issues))
        self.issues = issues


class _Absent(enum.Enum):
    """A key that is not there, which zod sees as ``undefined`` (``None`` is JSON ``null``)."""

    ABSENT = enum.auto()


_ABSENT = _Absent.ABSENT
_ERROR_KEYS = ("path", "message", "keyword")
_Field = Callable[[Any, Path, list[Issue]], Any]


def _zod_type(value: Any) -> str:
    """zod 3's ``getParsedType`` name for a decoded JSON value (``undefined`` for a missing key)."""
    if value is _ABSENT:
        return "undefined"
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return json_type(value, integers=False)


def _invalid_type(expected: str, value: Any, path: Path) -> Issue:
    received = _zod_type(value)
    message = "Required" if received == "undefined" else f"Expected {expected}, received {received}"
    return {"code": "invalid_type", "expected": expected, "received": received, "path": path, "message": message}


def _string(value: Any, path: Path, issues: list[Issue]) -> Any:
    if not isinstance(value, str):
        issues.append(_invalid_type("string", value, path))
    return value


def _contract(value: Any, path: Path, issues: list[Issue]) -> Any:
    # z.string().min(1).refine(...): a short string is only "dirty", so the refinement still runs.
    if not isinstance(value, str):
        issues.append(_invalid_type("string", value, path))
        return value
    if not value:
        issues.append(
            {
                "code": "too_small",
                "minimum": 1,
                "type": "string",
                "inclusive": True,
                "exact": False,
                "message": "String must contain at least 1 character(s)",
                "path": list(path),
            }
        )
    if not is_safe_name(value):
        issues.append({"code": "custom", "message": "contract must be a safe contract name", "path": list(path)})
    return value


def _json_value(value: Any, path: Path, issues: list[Issue]) -> Any:
    # Any JSON value, null and false included; only a missing key is refused.
    if value is _ABSENT:
        issues.append({"code": "custom", "message": "value is required", "fatal": True, "path": path})
    return value


def _context(value: Any, path: Path, issues: list[Issue]) -> Any:
    if value is _ABSENT:
        return {}
    if not isinstance(value, Mapping):
        issues.append(_invalid_type("object", value, path))
        return value
    # z.record drops an own "__proto__" key when it builds its output.
    return {key: item for key, item in value.items() if key != "__proto__"}


def _validation_errors(value: Any, path: Path, issues: list[Issue]) -> Any:
    if value is _ABSENT:
        return []
    if not isinstance(value, list | tuple):
        issues.append(_invalid_type("array", value, path))
        return value
    parsed: list[Any] = []
    for index, item in enumerate(value):
        item_path: Path = [*path, index]
        if not isinstance(item, Mapping):
            issues.append(_invalid_type("object", item, item_path))
            continue
        # A plain (non-strict) zod object: other keys are stripped, not refused.
        parsed.append({key: _string(item.get(key, _ABSENT), [*item_path, key], issues) for key in _ERROR_KEYS})
    return parsed


@dataclass(frozen=True)
class Argument:
    """One argument of a tool or prompt: ``schema`` is what ``inputSchema`` publishes, ``check`` enforces it."""

    name: str
    schema: dict[str, Any]
    check: _Field
    required: bool = True


CONTRACT = Argument("contract", {"type": "string", "minLength": 1, "pattern": CONTRACT_NAME_PATTERN}, _contract)
INPUT = Argument("input", {"type": "string"}, _string)
CONTEXT = Argument("context", {"type": "object", "additionalProperties": True, "default": {}}, _context, required=False)
VALIDATION_ERRORS = Argument(
    "validationErrors",
    {
        "type": "array",
        "items": {
            "type": "object",
            "additionalProperties": False,
            "properties": {key: {"type": "string"} for key in _ERROR_KEYS},
            "required": list(_ERROR_KEYS),
        },
        "default": [],
    },
    _validation_errors,
    required=False,
)


def json_value(name: str) -> Argument:
    """An argument that takes any JSON value (``null`` and ``false`` included) and must be present."""
    return Argument(name, {}, _json_value)


def input_schema(arguments: Iterable[Argument]) -> dict[str, Any]:
    """The ``inputSchema`` a tool publishes for its arguments, in the TypeScript server's layout."""
    listed = list(arguments)
    schema: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {argument.name: argument.schema for argument in listed},
    }
    required = [argument.name for argument in listed if argument.required]
    if required:
        schema["required"] = required
    return schema


def check_arguments(arguments: Iterable[Argument], values: Any) -> dict[str, Any]:
    """Check decoded JSON ``values`` against ``arguments`` as the TypeScript server's strict zod schema does.

    ``None`` counts as ``{}`` (that server parses ``input ?? {}``). Prompt arguments must already
    be pre-processed from their string form. Returns the parsed values in argument order, with
    ``context`` defaulting to ``{}``, ``validationErrors`` to ``[]`` and each validation error cut
    down to ``path``, ``message`` and ``keyword``.

    Raises:
        ArgumentsError: listing every issue, in that server's order and shape.
        TypeError: when a checked value is not a decoded JSON value.
    """
    listed = list(arguments)
    if values is None:
        values = {}
    if not isinstance(values, Mapping):
        raise ArgumentsError([_invalid_type("object", values, [])])
    issues: list[Issue] = []
    parsed: dict[str, Any] = {}
    for argument in listed:
        value = argument.check(values.get(argument.name, _ABSENT), [argument.name], issues)
        if value is not _ABSENT:
            parsed[argument.name] = value
    known = {argument.name for argument in listed}
    extra = [key for key in js_key_order(values) if key not in known]
    if extra:
        shown = ", ".join(f"'{key}'" for key in extra)
        issues.append(
            {
                "code": "unrecognized_keys",
                "keys": extra,
                "path": [],
                "message": f"Unrecognized key(s) in object: {shown}",
            }
        )
    if issues:
        raise ArgumentsError(issues)
    return parsed
