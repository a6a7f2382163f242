"""The contract file's own shape and its normalised form.

Messages follow the TypeScript server's (zod's default wording), so a broken file reads the same in
both tools; each issue also carries the JSON pointer of the offending field and a ``hint`` that
names the field and says how to fix it, which zod's wording never does (``value is required``
names neither the field nor the example). The loader joins the hints of every issue.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from json_contracts._json.pointers import escape_pointer_segment
from json_contracts._json.values import json_type
from json_contracts.findings import Code, Finding
from json_contracts.schema.meta_messages import describe_value, json_snippet

__all__ = ["KNOWN_FIELDS", "normalise_operations", "shape_issues", "without_proto_keys"]

KNOWN_FIELDS = ("name", "description", "rules", "operations", "schema", "examples", "version")
_RETURNS = ("full_object", "json_patch")
_EXAMPLE_KEYS = ("input", "output")
# Keys people write for an example's input or output; a near spelling is found by difflib as well.
_EXAMPLE_SYNONYMS = {
    "input": ("inputs", "prompt", "query", "request", "message", "text", "user", "question"),
    "output": ("outputs", "expected", "expectedOutput", "expected_output", "result", "response", "answer", "json"),
}
_RETURN_SYNONYMS = {"full_object": ("fullObject", "full", "object"), "json_patch": ("jsonPatch", "patch")}
# Keywords that show a JSON Schema was written at the top level instead of inside "schema".
_SCHEMA_KEYWORDS = ("type", "properties", "required", "items", "enum", "$schema", "additionalProperties", "anyOf")
_EXAMPLE_SHAPE = '{"input": ..., "output": ...}'
_NAME_WINS = "the file name is the contract's name, so you may remove it"
_TRUE_WORDS = ("true", "yes", "on", "1", "enabled")
_FALSE_WORDS = ("false", "no", "off", "0", "disabled")


def _issue(pointer: str, message: str, hint: str) -> Finding:
    return Finding(code=Code.INVALID_SHAPE, severity="error", message=message, pointer=pointer, hint=hint)


def _expected(kind: str, value: Any) -> str:
    return f"Expected {kind}, received {json_type(value, integers=False)}"


def _means(word: str, target: str, synonyms: tuple[str, ...] = ()) -> bool:
    """Whether ``word`` most likely stands for ``target``: a synonym, another case, or a typo."""
    return (
        word.lower() == target.lower()
        or word in synonyms
        or difflib.SequenceMatcher(None, word.lower(), target).ratio() >= 0.8
    )


def _named(label: str) -> str:
    """A top-level field in quotes (``"rules"``); a path as it is (``operations.edit.rules``)."""
    return f'"{label}"' if label.isidentifier() else label


def _strings(value: Any, pointer: str, label: str, issues: list[Finding]) -> None:
    if not isinstance(value, list):
        if isinstance(value, str):
            hint = f'{_named(label)} must be a list of strings: write "rules": [{json_snippet(value)}]'
        else:
            hint = f'{_named(label)} must be a list of strings, such as ["Keep it short."], not {describe_value(value)}'
        issues.append(_issue(pointer, _expected("array", value), hint))
        return
    for i, item in enumerate(value):
        if not isinstance(item, str):
            hint = f"{label}[{i}] must be a string (one rule, in words), not {describe_value(item)}"
            issues.append(_issue(f"{pointer}/{i}", _expected("string", item), hint))


def _example_hint(example: dict[str, Any], label: str) -> str:
    missing = [key for key in _EXAMPLE_KEYS if key not in example]
    present = [key for key in example if isinstance(key, str) and key not in _EXAMPLE_KEYS]
    pairs: list[tuple[str, str]] = []
    for key in missing:
        found = next((p for p in present if _means(p, key, _EXAMPLE_SYNONYMS[key])), None)
        if found is not None:
            pairs.append((found, key))
    lacking = " and no ".join(f'"{key}"' for key in missing)
    guess = ""
    if pairs:
        has = " and ".join(f'"{found}"' for found, _ in pairs)
        meant = " and ".join(f'"{key}"' for _, key in pairs)
        guess = f" (it has {has}: did you mean {meant}?)"
    return f'{label} has no {lacking}{guess}; every example needs "input" and "output"'


def _examples(value: Any, pointer: str, label: str, issues: list[Finding]) -> None:
    if not isinstance(value, list):
        if isinstance(value, dict) and any(key in value for key in _EXAMPLE_KEYS):
            hint = f"{_named(label)} must be a list of examples: put [ ] around the example"
        else:
            hint = f"{_named(label)} must be a list of {_EXAMPLE_SHAPE} objects, not {describe_value(value)}"
        issues.append(_issue(pointer, _expected("array", value), hint))
        return
    for i, example in enumerate(value):
        here = f"{label}[{i}]"
        if not isinstance(example, dict):
            hint = f"{here} must be an object {_EXAMPLE_SHAPE}, not {describe_value(example)}"
            issues.append(_issue(f"{pointer}/{i}", _expected("object", example), hint))
            continue
        for key in _EXAMPLE_KEYS:
            if key not in example:
                issues.append(_issue(f"{pointer}/{i}", "value is required", _example_hint(example, here)))


def _flag_hint(value: Any, label: str) -> str:
    """How to write ``enabled``: a JSON boolean, never a word in quotes."""
    word = str(value).strip().lower() if isinstance(value, str | int | float) else ""
    meant = "true" if word in _TRUE_WORDS else "false" if word in _FALSE_WORDS else None
    if meant is not None and isinstance(value, str):
        return f"{label} must be true or false, not {describe_value(value)}: write {meant} without quotes"
    if meant is not None:
        return f"{label} must be true or false, not {describe_value(value)}: write {meant}"
    return f"{label} must be true or false, not {describe_value(value)}"


def _return_hint(got: Any, label: str) -> str:
    allowed = f'{label} must be "full_object" (the whole document) or "json_patch"'
    if not isinstance(got, str):
        return f"{allowed}, not {describe_value(got)}"
    word = got.replace("-", "_").replace(" ", "_")
    meant = next((r for r in _RETURNS if _means(word, r, _RETURN_SYNONYMS[r])), None)
    return f'{allowed}: did you mean "{meant}"?' if meant else f"{allowed}, not {describe_value(got)}"


def _operation(value: Any, name: str, pointer: str, issues: list[Finding]) -> None:
    label = f"operations.{name}"
    if not isinstance(value, dict):
        if isinstance(value, bool):
            hint = f'{label} must be an object of settings: write "{name}": {{"enabled": {json.dumps(value)}}}'
        else:
            hint = f'{label} must be an object of settings, such as {{"enabled": true}}, not {describe_value(value)}'
        issues.append(_issue(pointer, _expected("object", value), hint))
        return
    if "enabled" in value and not isinstance(value["enabled"], bool):
        hint = _flag_hint(value["enabled"], f"{label}.enabled")
        issues.append(_issue(f"{pointer}/enabled", _expected("boolean", value["enabled"]), hint))
    if "return" in value and value["return"] not in _RETURNS:
        got = value["return"]
        expected = "Expected 'full_object' | 'json_patch'"
        message = (
            f"Invalid enum value. {expected}, received '{got}'"
            if isinstance(got, str)
            else f"{expected}, received {json_type(got, integers=False)}"
        )
        issues.append(_issue(f"{pointer}/return", message, _return_hint(got, f"{label}.return")))
    if "rules" in value:
        _strings(value["rules"], f"{pointer}/rules", f"{label}.rules", issues)
    if "examples" in value:
        _examples(value["examples"], f"{pointer}/examples", f"{label}.examples", issues)


def _schema_hint(data: dict[str, Any]) -> str:
    """Why ``schema`` is not a schema object, and what to write instead."""
    if "schema" not in data:
        others = [key for key in data if isinstance(key, str)]
        near = next((key for key in others if _means(key, "schema", ("jsonSchema", "json_schema"))), None)
        if near is not None:
            return f'the contract has no "schema" (it has "{near}": did you mean "schema"?)'
        misplaced = [key for key in _SCHEMA_KEYWORDS if key in data]
        if misplaced:
            named = " and ".join(f'"{key}"' for key in misplaced[:2])
            return f'the contract has no "schema", but {named} are at the top level: move them into "schema": {{...}}'
        return 'every contract needs "schema": the JSON Schema its documents must satisfy, such as {"type": "object"}'
    schema = data["schema"]
    if isinstance(schema, bool):
        return (
            f'"schema": {json.dumps(schema)} is not accepted here: write {{}} to accept any value, or an object schema'
        )
    if isinstance(schema, str):
        if schema in ("object", "array", "string", "number", "integer", "boolean", "null"):
            return f'"schema" must be a JSON Schema object: write {{"type": "{schema}"}}'
        if schema.strip().startswith("{"):
            return '"schema" must be the JSON Schema object itself, not a string holding it: remove the quotes'
        return (
            f'"schema" must be the JSON Schema object itself, not {describe_value(schema)}: '
            "copy the schema here (files and URLs are never read)"
        )
    if isinstance(schema, list):
        return '"schema" must be one JSON Schema object, not an array: to accept several shapes, write {"anyOf": [...]}'
    return f'"schema" must be a JSON Schema object, such as {{"type": "object"}}, not {describe_value(schema)}'


def _root_hint(data: Any) -> str:
    if isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict):
        return "a contract file holds one JSON object: remove the [ ] around it"
    return (
        f'a contract file holds one JSON object, such as {{"schema": {{"type": "object"}}}}, not {describe_value(data)}'
    )


def shape_issues(data: Any) -> list[Finding]:
    """Every shape problem of a parsed contract file, in the TypeScript server's field order."""
    if not isinstance(data, dict):
        return [_issue("", _expected("object", data), _root_hint(data))]
    issues: list[Finding] = []
    if "name" in data:
        if not isinstance(data["name"], str):
            hint = f'"name" must be a string, not {describe_value(data["name"])}; {_NAME_WINS}'
            issues.append(_issue("/name", _expected("string", data["name"]), hint))
        elif not data["name"]:
            hint = f'"name" is empty; {_NAME_WINS}'
            issues.append(_issue("/name", "String must contain at least 1 character(s)", hint))
    if "description" in data and not isinstance(data["description"], str):
        description = data["description"]
        hint = f'"description" must be a string, not {describe_value(description)}'
        if isinstance(description, list) and all(isinstance(line, str) for line in description):
            hint += ": join the lines into one string"
        issues.append(_issue("/description", _expected("string", description), hint))
    if "rules" in data:
        _strings(data["rules"], "/rules", "rules", issues)
    if "operations" in data:
        operations = data["operations"]
        if not isinstance(operations, dict):
            if isinstance(operations, list) and all(isinstance(name, str) for name in operations):
                written = ", ".join(f'"{name}": {{"enabled": true}}' for name in operations[:2]) or '"create": {}'
                hint = f'"operations" maps each operation to its settings: write {{{written}}}'
            else:
                example = '{"edit": {"enabled": false}}'
                hint = f'"operations" must be an object such as {example}, not {describe_value(operations)}'
            issues.append(_issue("/operations", _expected("object", operations), hint))
        else:
            for name, op in operations.items():
                _operation(op, name, "/operations/" + escape_pointer_segment(name), issues)
    if not isinstance(data.get("schema"), dict):
        issues.append(_issue("/schema", "schema must be a JSON Schema object", _schema_hint(data)))
    if "examples" in data:
        _examples(data["examples"], "/examples", "examples", issues)
    return issues


#: The TypeScript server's parser (zod) never copies a key of this name into the objects it builds,
#: so an operation or an example key called ``__proto__`` is not part of the contract (nor its hash).
_PROTO = "__proto__"


def without_proto_keys(examples: list[Any]) -> list[Any]:
    """``examples`` with any ``__proto__`` key left out of each example object, as zod leaves it."""
    if not any(isinstance(e, dict) and _PROTO in e for e in examples):
        return examples
    return [{k: v for k, v in e.items() if k != _PROTO} if isinstance(e, dict) else e for e in examples]


def normalise_operations(operations: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """``create``, ``edit``, then custom operations, each with its defaults filled in."""
    operations = operations or {}
    names = ["create", "edit"] + [n for n in operations if n not in ("create", "edit", _PROTO)]
    result: dict[str, dict[str, Any]] = {}
    for name in names:
        op = {k: v for k, v in (operations.get(name) or {}).items() if k != _PROTO}
        op["enabled"] = op["enabled"] if isinstance(op.get("enabled"), bool) else True
        if op.get("return") in _RETURNS:
            pass
        elif name == "edit":
            op["return"] = "full_object"
        op["rules"] = op["rules"] if isinstance(op.get("rules"), list) else []
        op["examples"] = without_proto_keys(op["examples"]) if isinstance(op.get("examples"), list) else []
        result[name] = op
    return result
