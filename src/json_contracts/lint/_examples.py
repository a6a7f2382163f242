"""What the examples show and miss: repeated examples (JC123), enum values (JC130) and optional
properties (JC131) no example shows, and an edit operation without examples (JC132)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from json_contracts._json.pointers import escape_pointer_segment, pointer_parts, resolve_local_ref
from json_contracts._json.text import canonical, dumps
from json_contracts.contracts.model import Contract
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, Segments


def _example_pointers(contract: Contract) -> Iterator[tuple[str, Any]]:
    groups = [("/examples", contract.raw.get("examples") or [])]
    for op_name, op in (contract.raw.get("operations") or {}).items():
        if isinstance(op, dict):
            groups.append((f"/operations/{escape_pointer_segment(op_name)}/examples", op.get("examples") or []))
    for base, group in groups:
        for i, example in enumerate(group):
            yield f"{base}/{i}", example


def rule_duplicate_examples(linter: Linter) -> Iterator[Finding]:
    seen: dict[str, str] = {}
    for pointer, example in _example_pointers(linter.contract):
        text = canonical(example)
        if text in seen:
            yield linter.finding(
                Code.DUPLICATE_EXAMPLE,
                f"This example repeats the one at {seen[text]}; remove it or make it show something new",
                pointer,
            )
        else:
            seen[text] = pointer


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
        ref_parts = tuple(int(p) if p.isascii() and p.isdigit() else p for p in pointer_parts(ref[1:]))
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


def rule_example_coverage(linter: Linter) -> Iterator[Finding]:
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
                    Code.ENUM_VALUE_WITHOUT_EXAMPLE,
                    f"No example shows enum value(s) {listed}; add an example that uses them",
                    (*parts, "enum"),
                )
        properties = node.get("properties")
        if isinstance(properties, dict):
            required = set(node.get("required") or [])
            objects = [v for v in values if isinstance(v, dict)]
            for name in properties:
                if name not in required and not any(name in obj for obj in objects):
                    yield linter.schema_finding(
                        Code.OPTIONAL_PROPERTY_WITHOUT_EXAMPLE,
                        f'No example shows optional property "{name}"; add an example that sets it',
                        (*parts, "properties", name),
                        key=True,
                    )


def rule_edit_examples(linter: Linter) -> Iterator[Finding]:
    edit = linter.contract.operations["edit"]
    if edit["enabled"] and not edit["examples"]:
        raw_ops = linter.contract.raw.get("operations")
        pointer = "/operations/edit" if isinstance(raw_ops, dict) and "edit" in raw_ops else ""
        yield linter.finding(
            Code.EDIT_WITHOUT_EXAMPLES,
            "The edit operation is enabled but has no examples; add operations.edit.examples "
            "with currentJson, input and output, or set enabled to false",
            pointer,
        )
