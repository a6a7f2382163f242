"""The contract file's own shape and its normalised form.

Messages follow the TypeScript server's (zod's default wording), so a broken file reads the same in
both tools; each issue also carries the JSON pointer of the offending field.
"""

from __future__ import annotations

from typing import Any

from json_contracts._json.pointers import escape_pointer_segment
from json_contracts._json.values import json_type
from json_contracts.findings import Code, Finding

__all__ = ["KNOWN_FIELDS", "normalise_operations", "shape_issues"]

KNOWN_FIELDS = ("name", "description", "rules", "operations", "schema", "examples", "version")
_RETURNS = ("full_object", "json_patch")


def _issue(pointer: str, message: str) -> Finding:
    return Finding(code=Code.INVALID_SHAPE, severity="error", message=message, pointer=pointer)


def _expected(kind: str, value: Any) -> str:
    return f"Expected {kind}, received {json_type(value, integers=False)}"


def _strings(value: Any, pointer: str, issues: list[Finding]) -> None:
    if not isinstance(value, list):
        issues.append(_issue(pointer, _expected("array", value)))
        return
    for i, item in enumerate(value):
        if not isinstance(item, str):
            issues.append(_issue(f"{pointer}/{i}", _expected("string", item)))


def _examples(value: Any, pointer: str, issues: list[Finding]) -> None:
    if not isinstance(value, list):
        issues.append(_issue(pointer, _expected("array", value)))
        return
    for i, example in enumerate(value):
        if not isinstance(example, dict):
            issues.append(_issue(f"{pointer}/{i}", _expected("object", example)))
            continue
        for key in ("input", "output"):
            if key not in example:
                issues.append(_issue(f"{pointer}/{i}", "value is required"))


def _operation(value: Any, pointer: str, issues: list[Finding]) -> None:
    if not isinstance(value, dict):
        issues.append(_issue(pointer, _expected("object", value)))
        return
    if "enabled" in value and not isinstance(value["enabled"], bool):
        issues.append(_issue(f"{pointer}/enabled", _expected("boolean", value["enabled"])))
    if "return" in value and value["return"] not in _RETURNS:
        got = value["return"]
        expected = "Expected 'full_object' | 'json_patch'"
        message = (
            f"Invalid enum value. {expected}, received '{got}'"
            if isinstance(got, str)
            else (f"{expected}, received {json_type(got, integers=False)}")
        )
        issues.append(_issue(f"{pointer}/return", message))
    if "rules" in value:
        _strings(value["rules"], f"{pointer}/rules", issues)
    if "examples" in value:
        _examples(value["examples"], f"{pointer}/examples", issues)


def shape_issues(data: Any) -> list[Finding]:
    """Every shape problem of a parsed contract file, in the TypeScript server's field order."""
    if not isinstance(data, dict):
        return [_issue("", _expected("object", data))]
    issues: list[Finding] = []
    if "name" in data:
        if not isinstance(data["name"], str):
            issues.append(_issue("/name", _expected("string", data["name"])))
        elif not data["name"]:
            issues.append(_issue("/name", "String must contain at least 1 character(s)"))
    if "description" in data and not isinstance(data["description"], str):
        issues.append(_issue("/description", _expected("string", data["description"])))
    if "rules" in data:
        _strings(data["rules"], "/rules", issues)
    if "operations" in data:
        operations = data["operations"]
        if not isinstance(operations, dict):
            issues.append(_issue("/operations", _expected("object", operations)))
        else:
            for name, op in operations.items():
                _operation(op, "/operations/" + escape_pointer_segment(name), issues)
    if not isinstance(data.get("schema"), dict):
        issues.append(_issue("/schema", "schema must be a JSON Schema object"))
    if "examples" in data:
        _examples(data["examples"], "/examples", issues)
    return issues


def normalise_operations(operations: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """``create``, ``edit``, then custom operations, each with its defaults filled in."""
    operations = operations or {}
    names = ["create", "edit"] + [n for n in operations if n not in ("create", "edit")]
    result: dict[str, dict[str, Any]] = {}
    for name in names:
        op = dict(operations.get(name) or {})
        op["enabled"] = op["enabled"] if isinstance(op.get("enabled"), bool) else True
        if op.get("return") in _RETURNS:
            pass
        elif name == "edit":
            op["return"] = "full_object"
        op["rules"] = op["rules"] if isinstance(op.get("rules"), list) else []
        op["examples"] = op["examples"] if isinstance(op.get("examples"), list) else []
        result[name] = op
    return result
