"""Contract quality rules: the original's four warnings plus deeper checks, each with a code.

Every rule is a small generator of :class:`~json_contracts.model.Finding` for one contract,
pointing at the offending place in the file. Codes and severities are listed in
:mod:`json_contracts.codes`; messages end with what to do.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from json_contracts.codes import CODES
from json_contracts.formats import KNOWN_FORMATS
from json_contracts.jsonio import escape_pointer_segment, pointer_from_parts
from json_contracts.jstext import canonical, dumps, format_number
from json_contracts.keywords import DRAFT7, KNOWN_KEYWORDS, iter_subschemas, resolve_local_ref
from json_contracts.model import Contract, Finding, LoadResult, Severity
from json_contracts.patterns import search as pattern_search
from json_contracts.regex_safety import backtracking_risk
from json_contracts.shape import KNOWN_FIELDS
from json_contracts.validation import describe_errors, error_records

__all__ = ["RULES", "lint_contract", "lint_result"]

_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
Segments = tuple[str | int, ...]


def _lint_path(parts: Segments) -> str:
    """The original's ``$.schema…`` path: ``.key``, ``["odd key"]`` or ``[i]``."""
    text = "$.schema"
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.fullmatch(part):
            text += f".{part}"
        else:
            text += f"[{dumps(part, indent=None)}]"
    return text


@dataclass
class _Linter:
    contract: Contract

    def finding(
        self,
        code: str,
        message: str,
        pointer: str,
        *,
        key: bool = False,
        severity: Severity | None = None,
        lint_path: str | None = None,
    ) -> Finding:
        source = self.contract.source
        line, column = source.position(pointer, key=key) if source else (1, 1)
        return Finding(
            code=code,
            severity=severity or CODES[code].severity,
            message=message,
            file=source.path.name if source else f"{self.contract.name}.json",
            path=source.path if source else None,
            pointer=pointer,
            line=line,
            column=column,
            contract=self.contract.name,
            lint_path=lint_path,
        )

    def schema_finding(self, code: str, message: str, parts: Segments, **kw: Any) -> Finding:
        return self.finding(code, message, "/schema" + pointer_from_parts(parts), lint_path=_lint_path(parts), **kw)


# --- walking ------------------------------------------------------------------------------------

_ORIGINAL_SINGLE = ("items", "additionalProperties", "additionalItems", "contains", "not", "if", "then", "else")
_ORIGINAL_ARRAYS = ("prefixItems", "allOf", "anyOf", "oneOf")
_ORIGINAL_MAPS = ("$defs", "definitions", "dependentSchemas", "patternProperties")


def _original_walk(node: Any, parts: Segments) -> Iterator[tuple[Segments, dict[str, Any]]]:
    """Pre-order walk in the original lint's order (REFERENCE §12); stops at empty objects."""
    if not isinstance(node, dict):
        return
    yield parts, node
    if not node:
        return
    properties = node.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            yield from _original_walk(sub, (*parts, "properties", name))
    for key in _ORIGINAL_SINGLE:
        value = node.get(key)
        if isinstance(value, dict):
            yield from _original_walk(value, (*parts, key))
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                yield from _original_walk(sub, (*parts, key, i))
    for key in _ORIGINAL_ARRAYS:
        value = node.get(key)
        if isinstance(value, list):
            for i, sub in enumerate(value):
                yield from _original_walk(sub, (*parts, key, i))
    for key in _ORIGINAL_MAPS:
        value = node.get(key)
        if isinstance(value, dict):
            for name, sub in value.items():
                yield from _original_walk(sub, (*parts, key, name))


def _all_nodes(node: Any, parts: Segments = ()) -> Iterator[tuple[Segments, dict[str, Any]]]:
    """Every schema object, pre-order, through every sub-schema keyword."""
    if not isinstance(node, dict):
        return
    yield parts, node
    for sub_parts, sub in iter_subschemas(node):
        yield from _all_nodes(sub, parts + sub_parts)


# --- the original's rules -----------------------------------------------------------------------


def _example_count(contract: Contract) -> int:
    return sum(len(group) for _, _, group in contract.all_examples())


def rule_no_examples(linter: _Linter) -> Iterator[Finding]:
    if _example_count(linter.contract) == 0:
        yield linter.finding("JC101", "Contract has no examples.", "", lint_path="examples")


def rule_original_schema_warnings(linter: _Linter) -> Iterator[Finding]:
    for parts, node in _original_walk(linter.contract.schema, ()):
        if not node:
            yield linter.schema_finding("JC102", "Schema object is empty and accepts any JSON value.", parts)
            continue
        object_shaped = node.get("type") == "object" or isinstance(node.get("properties"), dict)
        if not object_shaped:
            continue
        additional = node.get("additionalProperties")
        if additional is True:
            yield linter.schema_finding(
                "JC103", "Object schema uses additionalProperties:true; prefer explicit fields when possible.", parts
            )
        elif additional is not False:
            yield linter.schema_finding("JC104", "Object schema does not set additionalProperties:false.", parts)


# --- deeper rules -------------------------------------------------------------------------------


def _suggest(word: str, candidates: Iterable[str]) -> str | None:
    candidates = list(candidates)
    for candidate in candidates:
        if candidate.lower() == word.lower():
            return candidate
    matches = difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)
    return matches[0] if matches else None


def rule_unknown_keywords(linter: _Linter) -> Iterator[Finding]:
    known = KNOWN_KEYWORDS[linter.contract.dialect] | {"$defs"}
    for parts, node in _all_nodes(linter.contract.schema):
        for key in node:
            if key in known or key.startswith("x-"):
                continue
            suggestion = _suggest(key, known)
            fix = f'did you mean "{suggestion}"?' if suggestion else 'remove it, or prefix extensions with "x-"'
            dialect = "draft-07" if linter.contract.dialect == DRAFT7 else "2020-12"
            yield linter.schema_finding(
                "JC110",
                f'Unknown {dialect} keyword "{key}" is ignored by the validator; {fix}',
                (*parts, key),
                key=True,
            )


def rule_unknown_fields(linter: _Linter) -> Iterator[Finding]:
    for key in linter.contract.raw:
        if key in KNOWN_FIELDS:
            continue
        suggestion = _suggest(key, [f for f in KNOWN_FIELDS if f != "version"])
        fix = f'did you mean "{suggestion}"?' if suggestion else "remove it (unknown fields are dropped)"
        yield linter.finding(
            "JC111", f'Unknown contract field "{key}" is ignored; {fix}', "/" + escape_pointer_segment(key), key=True
        )


def rule_required_defined(linter: _Linter) -> Iterator[Finding]:
    for parts, node in _all_nodes(linter.contract.schema):
        properties, required = node.get("properties", {}), node.get("required")
        closed = node.get("additionalProperties") is False
        if not isinstance(properties, dict) or not isinstance(required, list):
            continue
        if not properties and not closed:
            continue  # a bare `required` (e.g. in an if or allOf branch) is a normal idiom
        patterns = node.get("patternProperties") or {}
        # With composition beside it, the property may well be defined in a branch or a $ref.
        composed = any(k in node for k in ("allOf", "anyOf", "oneOf", "if", "$ref", "dependentSchemas"))
        for i, name in enumerate(required):
            if not isinstance(name, str) or name in properties:
                continue
            if patterns:
                try:
                    if any(pattern_search(p, name) for p in patterns):
                        continue
                except Exception:  # an invalid or runaway pattern: JC119/JC120 report it
                    continue
            if closed:
                yield linter.schema_finding(
                    "JC112",
                    f'Required property "{name}" is not in properties and additionalProperties is false, '
                    "so no object can satisfy this schema; add it to properties or remove it from required",
                    (*parts, "required", i),
                    severity="error",
                )
            elif not composed:
                yield linter.schema_finding(
                    "JC112",
                    f'Required property "{name}" is not in properties, so it accepts any value; '
                    "add it to properties with a type",
                    (*parts, "required", i),
                )


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _declared_types(node: dict[str, Any]) -> list[str] | None:
    declared = node.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        return list(declared)
    return None


def _type_allows(types: list[str], value: Any) -> bool:
    kind = _json_type(value)
    return kind in types or (kind == "integer" and "number" in types)


def rule_enum_types(linter: _Linter) -> Iterator[Finding]:
    for parts, node in _all_nodes(linter.contract.schema):
        types = _declared_types(node)
        if types is None:
            continue
        enum = node.get("enum")
        if isinstance(enum, list):
            for i, value in enumerate(enum):
                if not _type_allows(types, value):
                    yield linter.schema_finding(
                        "JC113",
                        f"Enum value {dumps(value, indent=None)} is {_json_type(value)} but the type is "
                        f"{' or '.join(types)}, so it can never validate; fix the value or the type",
                        (*parts, "enum", i),
                    )
        if "const" in node and not _type_allows(types, node["const"]):
            yield linter.schema_finding(
                "JC113",
                f"const {dumps(node['const'], indent=None)} is {_json_type(node['const'])} but the type is "
                f"{' or '.join(types)}, so nothing can validate; fix the const or the type",
                (*parts, "const"),
            )


def rule_duplicate_enum(linter: _Linter) -> Iterator[Finding]:
    for parts, node in _all_nodes(linter.contract.schema):
        enum = node.get("enum")
        if not isinstance(enum, list):
            continue
        seen: set[str] = set()
        for i, value in enumerate(enum):
            text = canonical(value)
            if text in seen:
                yield linter.schema_finding(
                    "JC114",
                    f"Enum value {dumps(value, indent=None)} is listed twice; remove the repeat",
                    (*parts, "enum", i),
                )
            seen.add(text)


_BOUNDS = (
    ("minLength", "maxLength", False),
    ("minimum", "maximum", False),
    ("exclusiveMinimum", "exclusiveMaximum", True),
    ("minimum", "exclusiveMaximum", True),
    ("exclusiveMinimum", "maximum", True),
    ("minItems", "maxItems", False),
    ("minProperties", "maxProperties", False),
    ("minContains", "maxContains", False),
)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def rule_contradictory_bounds(linter: _Linter) -> Iterator[Finding]:
    for parts, node in _all_nodes(linter.contract.schema):
        for low_key, high_key, strict in _BOUNDS:
            low: Any = node.get(low_key)
            high: Any = node.get(high_key)
            if not (_number(low) and _number(high)):
                continue
            if low > high or (strict and low >= high):
                relation = "not below" if strict else "greater than"
                yield linter.schema_finding(
                    "JC115",
                    f"{low_key} {format_number(low)} is {relation} {high_key} {format_number(high)}, so no value "
                    f"satisfies both; lower {low_key} or raise {high_key}",
                    (*parts, low_key),
                )


def _sub_validator(linter: _Linter, node: dict[str, Any]) -> Any:
    return linter.contract.compiled.for_subschema(node)


def _own_value_rule(code: str, keyword: str, many: bool) -> Callable[[_Linter], Iterator[Finding]]:
    def rule(linter: _Linter) -> Iterator[Finding]:
        for parts, node in _all_nodes(linter.contract.schema):
            if keyword not in node:
                continue
            values = node[keyword] if many else [node[keyword]]
            if not isinstance(values, list):
                continue
            validator = None
            for i, value in enumerate(values):
                validator = validator or _sub_validator(linter, node)
                try:
                    errors = error_records(validator.iter_errors(value))
                except Exception:
                    continue
                if errors:
                    where = (*parts, keyword, i) if many else (*parts, keyword)
                    label = f"examples[{i}] value" if many else "default value"
                    yield linter.schema_finding(
                        code,
                        f"Schema {label} does not validate against its own schema: {describe_errors(errors)}; "
                        "fix the value or the schema",
                        where,
                    )

    rule.__name__ = f"rule_{keyword}_valid"
    return rule


def rule_unknown_format(linter: _Linter) -> Iterator[Finding]:
    for parts, node in _all_nodes(linter.contract.schema):
        name = node.get("format")
        if isinstance(name, str) and name not in KNOWN_FORMATS:
            suggestion = _suggest(name, KNOWN_FORMATS)
            fix = f'did you mean "{suggestion}"?' if suggestion else "use a known format or a pattern"
            yield linter.schema_finding(
                "JC118", f'Unknown format "{name}" is not checked, so any string passes; {fix}', (*parts, "format")
            )


def rule_patterns(linter: _Linter) -> Iterator[Finding]:
    for parts, node in _all_nodes(linter.contract.schema):
        patterns: list[tuple[str, Segments, bool]] = []
        if isinstance(node.get("pattern"), str):
            patterns.append((node["pattern"], (*parts, "pattern"), False))
        if isinstance(node.get("patternProperties"), dict):
            patterns += [(p, (*parts, "patternProperties", p), True) for p in node["patternProperties"]]
        for pattern, where, is_key in patterns:
            risk = backtracking_risk(pattern)
            if risk:
                yield linter.schema_finding(
                    "JC120",
                    f"Pattern {dumps(pattern, indent=None)} has {risk}, so a near-miss input can take "
                    "exponential time; rewrite it so each repetition has one way to match",
                    where,
                    key=is_key,
                )


def _unsatisfiable(node: Any, parts: Segments, linter: _Linter, depth: int = 0) -> tuple[Segments, str] | None:
    """Where and why ``node`` can never validate anything (a conservative, static proof)."""
    if node is False:
        return parts, "the schema is false"
    if not isinstance(node, dict) or depth > 32:
        return None
    if node.get("not") is True or node.get("not") == {}:
        return (*parts, "not"), "not forbids every value"
    types = _declared_types(node)
    if types is not None and not types:
        return (*parts, "type"), "type is an empty list"
    for key in ("allOf",):
        for i, branch in enumerate(node.get(key) or []):
            found = _unsatisfiable(branch, (*parts, key, i), linter, depth + 1)
            if found:
                return found
            branch_types = _declared_types(branch) if isinstance(branch, dict) else None
            if types is not None and branch_types is not None:
                widened = set(types) | ({"integer"} if "number" in types else set())
                meet = {t for t in branch_types if t in widened or (t == "number" and "integer" in types)}
                if not meet:
                    return (*parts, key, i, "type"), (
                        f"type {dumps(branch_types, indent=None)} does not overlap type {dumps(types, indent=None)}"
                    )
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            causes = [_unsatisfiable(b, (*parts, key, i), linter, depth + 1) for i, b in enumerate(branches)]
            if all(causes):
                return (*parts, key), f"no branch of {key} can be satisfied"
    for keyword in ("enum", "const"):
        if keyword not in node:
            continue
        values = node[keyword] if keyword == "enum" else [node[keyword]]
        if isinstance(values, list):
            rest = {k: v for k, v in node.items() if k not in ("enum", "const", "default", "examples")}
            validator = _sub_validator(linter, rest)
            try:
                if not any(validator.is_valid(v) for v in values):
                    what = "no enum value" if keyword == "enum" else "the const value"
                    return (*parts, keyword), f"{what} satisfies the other keywords"
            except Exception:
                return None
    properties: dict[str, Any] = node["properties"] if isinstance(node.get("properties"), dict) else {}
    for name in node.get("required") or []:
        if isinstance(name, str) and name in properties:
            found = _unsatisfiable(properties[name], (*parts, "properties", name), linter, depth + 1)
            if found:
                return found[0], f'required property "{name}": {found[1]}'
    return None


def rule_unsatisfiable(linter: _Linter) -> Iterator[Finding]:
    found = _unsatisfiable(linter.contract.schema, (), linter)
    if found:
        where, reason = found
        yield linter.schema_finding(
            "JC121",
            f"No JSON value can satisfy this schema ({reason}); every document will fail validation — "
            "relax or remove the conflicting keyword",
            where,
        )


def rule_name_matches_file(linter: _Linter) -> Iterator[Finding]:
    name = linter.contract.raw.get("name")
    if isinstance(name, str) and name and name != linter.contract.name:
        yield linter.finding(
            "JC122",
            f'The name field "{name}" differs from the file name "{linter.contract.name}", and the file name '
            "wins; rename the file or remove the name field",
            "/name",
        )


def _example_pointers(contract: Contract) -> Iterator[tuple[str, Any]]:
    groups = [("/examples", contract.raw.get("examples") or [])]
    for op_name, op in (contract.raw.get("operations") or {}).items():
        if isinstance(op, dict):
            groups.append((f"/operations/{escape_pointer_segment(op_name)}/examples", op.get("examples") or []))
    for base, group in groups:
        for i, example in enumerate(group):
            yield f"{base}/{i}", example


def rule_duplicate_examples(linter: _Linter) -> Iterator[Finding]:
    seen: dict[str, str] = {}
    for pointer, example in _example_pointers(linter.contract):
        text = canonical(example)
        if text in seen:
            yield linter.finding(
                "JC123",
                f"This example repeats the one at {seen[text]}; remove it or make it show something new",
                pointer,
            )
        else:
            seen[text] = pointer


# --- example coverage ---------------------------------------------------------------------------

_MAX_COVERAGE_DEPTH = 24


def _documents(contract: Contract) -> list[Any]:
    docs: list[Any] = []
    for _, example in _example_pointers(contract):
        if isinstance(example, dict):
            docs += [example[k] for k in ("output", "currentJson") if k in example]
    return docs


def _values_at(doc: Any, data_path: tuple[str, ...]) -> list[Any]:
    current = [doc]
    for segment in data_path:
        following: list[Any] = []
        for value in current:
            if segment == "*" and isinstance(value, list):
                following += value
            elif isinstance(value, dict) and segment in value:
                following.append(value[segment])
        current = following
    return current


def _data_nodes(
    root: dict[str, Any], node: Any, parts: Segments, data_path: tuple[str, ...], depth: int = 0
) -> Iterator[tuple[Segments, dict[str, Any], tuple[str, ...]]]:
    """Schema objects with the data path they govern (array items as ``*``), through local refs."""
    if not isinstance(node, dict) or depth > _MAX_COVERAGE_DEPTH:
        return
    yield parts, node, data_path
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target = resolve_local_ref(root, ref)
        ref_parts = tuple(
            int(p) if p.isdigit() else p.replace("~1", "/").replace("~0", "~") for p in ref[2:].split("/")
        )
        yield from _data_nodes(root, target, ref_parts, data_path, depth + 1)
    properties = node.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            yield from _data_nodes(root, sub, (*parts, "properties", name), (*data_path, name), depth + 1)
    for key in ("items", "additionalItems", "contains"):
        if isinstance(node.get(key), dict):
            yield from _data_nodes(root, node[key], (*parts, key), (*data_path, "*"), depth + 1)
    for key in ("prefixItems",):
        for i, sub in enumerate(node.get(key) or []):
            yield from _data_nodes(root, sub, (*parts, key, i), (*data_path, "*"), depth + 1)
    for key in ("allOf", "anyOf", "oneOf"):
        for i, sub in enumerate(node.get(key) or []):
            yield from _data_nodes(root, sub, (*parts, key, i), data_path, depth + 1)
    for key in ("then", "else"):
        if isinstance(node.get(key), dict):
            yield from _data_nodes(root, node[key], (*parts, key), data_path, depth + 1)


def rule_example_coverage(linter: _Linter) -> Iterator[Finding]:
    contract = linter.contract
    docs = _documents(contract)
    if not docs:
        return  # JC101 already says there are no examples
    # A shared $defs node is reached through every $ref to it: gather what all of them show.
    nodes: dict[Segments, dict[str, Any]] = {}
    shown: dict[Segments, list[Any]] = {}
    for parts, node, data_path in _data_nodes(contract.schema, contract.schema, (), ()):
        nodes.setdefault(parts, node)
        shown.setdefault(parts, []).extend(v for doc in docs for v in _values_at(doc, data_path))
    for parts, node in nodes.items():
        values = shown[parts]
        enum = node.get("enum")
        if isinstance(enum, list):
            shown_texts = {canonical(v) for v in values}
            missing = [v for v in enum if canonical(v) not in shown_texts]
            if missing:
                listed = ", ".join(dumps(v, indent=None) for v in missing)
                yield linter.schema_finding(
                    "JC130", f"No example shows enum value(s) {listed}; add an example that uses them", (*parts, "enum")
                )
        properties = node.get("properties")
        if isinstance(properties, dict):
            required = set(node.get("required") or [])
            objects = [v for v in values if isinstance(v, dict)]
            for name in properties:
                if name not in required and not any(name in obj for obj in objects):
                    yield linter.schema_finding(
                        "JC131",
                        f'No example shows optional property "{name}"; add an example that sets it',
                        (*parts, "properties", name),
                        key=True,
                    )


def rule_edit_examples(linter: _Linter) -> Iterator[Finding]:
    edit = linter.contract.operations["edit"]
    if edit["enabled"] and not edit["examples"]:
        raw_ops = linter.contract.raw.get("operations")
        pointer = "/operations/edit" if isinstance(raw_ops, dict) and "edit" in raw_ops else ""
        yield linter.finding(
            "JC132",
            "The edit operation is enabled but has no examples; add operations.edit.examples "
            "with currentJson, input and output, or set enabled to false",
            pointer,
        )


RULES: tuple[Callable[[_Linter], Iterator[Finding]], ...] = (
    rule_no_examples,
    rule_original_schema_warnings,
    rule_unknown_fields,
    rule_name_matches_file,
    rule_unknown_keywords,
    rule_required_defined,
    rule_enum_types,
    rule_duplicate_enum,
    rule_contradictory_bounds,
    _own_value_rule("JC116", "default", many=False),
    _own_value_rule("JC117", "examples", many=True),
    rule_unknown_format,
    rule_patterns,
    rule_unsatisfiable,
    rule_duplicate_examples,
    rule_example_coverage,
    rule_edit_examples,
)


def lint_contract(contract: Contract, ignore: Iterable[str] = ()) -> list[Finding]:
    """Every finding for one loaded contract, minus ignored codes, in rule order."""
    ignored = set(ignore)
    linter = _Linter(contract)
    return [f for rule in RULES for f in rule(linter) if f.code not in ignored]


def lint_result(result: LoadResult, ignore: Iterable[str] = ()) -> list[Finding]:
    """The folder's load warnings (e.g. a skipped link), then every loaded contract's findings.

    Contracts come in sorted order; ignored codes are left out everywhere.
    """
    ignored = set(ignore)
    findings = [f for f in result.warnings if f.code not in ignored]
    return findings + [f for contract in result.sorted_contracts() for f in lint_contract(contract, ignored)]
