"""Argument checks for the MCP tools and prompts, with the original's zod 3 error text.

Agents configured for the TypeScript original read its argument errors, so a failure is the
zod 3 issue list serialised exactly as the original sends it (REFERENCE §6): issues in the
order of each tool's ``inputSchema`` properties, unrecognized keys last, every key in zod's
order. The prompts reuse the rules of the tool they mirror (REFERENCE §8).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Mapping
from typing import Any

from json_contracts.errors import JsonContractsError
from json_contracts.jstext import dumps, js_key_order
from json_contracts.names import is_safe_name

__all__ = ["PROMPT_NAMES", "TOOL_NAMES", "ArgumentsError", "argument_names", "check_arguments"]

#: The tools in the order ``tools/list`` publishes them.
TOOL_NAMES = (
    "list_contracts",
    "read_contract",
    "get_json_contract",
    "get_edit_contract",
    "validate_json",
    "get_repair_contract",
    "status",
    "reload_contracts",
)
#: The prompts in the order ``prompts/list`` publishes them.
PROMPT_NAMES = ("json_contract_prompt", "edit_contract_prompt", "repair_contract_prompt")

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
    """zod 3's ``getParsedType`` name for a decoded JSON value."""
    if value is _ABSENT:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "nan" if isinstance(value, float) and math.isnan(value) else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    raise TypeError(f"{type(value).__name__} is not a JSON value")


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


_CONTRACT: tuple[str, _Field] = ("contract", _contract)
_INPUT: tuple[str, _Field] = ("input", _string)
_CONTEXT: tuple[str, _Field] = ("context", _context)
# Field order is each tool's inputSchema property order, which is also zod's issue order.
_FIELDS: dict[str, tuple[tuple[str, _Field], ...]] = {
    "list_contracts": (),
    "read_contract": (_CONTRACT,),
    "get_json_contract": (_CONTRACT, _INPUT, _CONTEXT),
    "get_edit_contract": (_CONTRACT, ("currentJson", _json_value), _INPUT, _CONTEXT),
    "validate_json": (_CONTRACT, ("json", _json_value)),
    "get_repair_contract": (_CONTRACT, ("invalidJson", _json_value), ("validationErrors", _validation_errors)),
    "status": (),
    "reload_contracts": (),
}
_PROMPT_TOOL = dict(zip(PROMPT_NAMES, ("get_json_contract", "get_edit_contract", "get_repair_contract"), strict=True))


def _fields(name: str) -> tuple[tuple[str, _Field], ...]:
    fields = _FIELDS.get(_PROMPT_TOOL.get(name, name))
    if fields is None:
        raise ValueError(f"Unknown tool or prompt: {name}")
    return fields


def argument_names(name: str) -> tuple[str, ...]:
    """The argument keys a tool or prompt accepts, in schema order.

    Raises:
        ValueError: when ``name`` is neither a tool nor a prompt.
    """
    return tuple(key for key, _ in _fields(name))


def check_arguments(name: str, arguments: Any) -> dict[str, Any]:
    """Check a tool's or prompt's decoded JSON arguments as the original's strict zod schema does.

    ``None`` counts as ``{}`` (the original parses ``input ?? {}``). Prompt arguments must already
    be pre-processed from their string form. Returns the parsed arguments in schema order, with
    ``context`` defaulting to ``{}``, ``validationErrors`` to ``[]`` and each validation error cut
    down to ``path``, ``message`` and ``keyword``.

    Raises:
        ArgumentsError: listing every issue, in the original's order and shape.
        ValueError: when ``name`` is neither a tool nor a prompt.
        TypeError: when a checked value is not a decoded JSON value.
    """
    fields = _fields(name)
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, Mapping):
        raise ArgumentsError([_invalid_type("object", arguments, [])])
    issues: list[Issue] = []
    parsed: dict[str, Any] = {}
    for key, check in fields:
        value = check(arguments.get(key, _ABSENT), [key], issues)
        if value is not _ABSENT:
            parsed[key] = value
    known = {key for key, _ in fields}
    extra = [key for key in js_key_order(arguments) if key not in known]
    if extra:
        listed = ", ".join(f"'{key}'" for key in extra)
        issues.append(
            {
                "code": "unrecognized_keys",
                "keys": extra,
                "path": [],
                "message": f"Unrecognized key(s) in object: {listed}",
            }
        )
    if issues:
        raise ArgumentsError(issues)
    return parsed
