"""What the examples show and miss: repeated examples (JC123), enum values (JC130) and optional
properties (JC131) no example shows, an edit operation without examples (JC132), and edit examples
whose ``currentJson`` is invalid (JC133) or missing (JC134)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from json_contracts._json.pointers import escape_pointer_segment
from json_contracts._json.text import canonical, dumps
from json_contracts._json.values import json_type
from json_contracts.contracts.model import Contract
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, Segments, data_nodes, declared_types
from json_contracts.lint._fields import CURRENT_JSON, current_json_typo, example_groups, misspelt_operations
from json_contracts.lint._satisfiable import impossible_properties
from json_contracts.lint._values import excluded_kinds, kind_of, type_allows
from json_contracts.schema.validation import describe_errors, iter_errors


def _example_pointers(contract: Contract) -> Iterator[tuple[str, Any]]:
    for _, _, base, group in example_groups(contract):
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


def _documents(contract: Contract) -> list[Any]:
    docs: list[Any] = []
    for _, example in _example_pointers(contract):
        if isinstance(example, dict):
            docs += [example[k] for k in ("output", "currentJson") if k in example]
    return docs


def _inside(parts: Segments, impossible: dict[Segments, Any]) -> bool:
    """Whether ``parts`` is an impossible property or lies inside one."""
    return any(parts[: len(where)] == where for where in impossible)


def _possible_value(node: dict[str, Any], value: Any) -> bool:
    """False for an enum value JC113 (wrong type) or JC115 (crossed bounds of its kind) proves can never validate."""
    types = declared_types(node)
    if types is not None and not type_allows(types, value):
        return False
    return kind_of(json_type(value)) not in excluded_kinds(node)


def rule_example_coverage(linter: Linter) -> Iterator[Finding]:
    """JC130 and JC131, never asking for a value or property another rule proves impossible.

    Skipped: enum values of a type the node excludes (JC113) or that crossed bounds leave no room
    for (JC115), and everything in a property no value can fill (the proof of JC121, which reports
    it, or JC113/JC115, which report its cause; a property forbidden on purpose needs no report).
    """
    contract = linter.contract
    docs = _documents(contract)
    if not docs:
        return  # JC101 already says there are no examples
    impossible = impossible_properties(linter)
    # A shared $defs node is reached through every $ref to it: gather what all of them show.
    nodes: dict[Segments, dict[str, Any]] = {}
    shown: dict[Segments, list[Any]] = {}
    for parts, node, values in data_nodes(linter, docs):
        nodes.setdefault(parts, node)
        shown.setdefault(parts, []).extend(values)
    for parts, node in nodes.items():
        if _inside(parts, impossible):
            continue
        values = shown[parts]
        enum = node.get("enum")
        if isinstance(enum, list):
            shown_texts = {canonical(v) for v in values}
            missing = [v for v in enum if canonical(v) not in shown_texts and _possible_value(node, v)]
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
                if name in required or _inside((*parts, "properties", name), impossible):
                    continue
                if not any(name in obj for obj in objects):
                    yield linter.schema_finding(
                        Code.OPTIONAL_PROPERTY_WITHOUT_EXAMPLE,
                        f'No example shows optional property "{name}"; add an example that sets it',
                        (*parts, "properties", name),
                        key=True,
                    )


def rule_edit_examples(linter: Linter) -> Iterator[Finding]:
    """JC132: edit is enabled but has no examples, said where edit is (or would be) written.

    The finding points at ``operations.edit``; without one, at an operation JC124 reports as a
    typo of edit (``Edit``), read as what it will be once renamed: if that one is disabled or has
    examples, the rename alone is the fix and JC132 says nothing. Otherwise it points at the
    ``operations`` key, and at the top of the file only when there is no ``operations``.
    """
    contract = linter.contract
    edit = contract.operations["edit"]
    if not edit["enabled"] or edit["examples"]:
        return
    raw_ops = contract.raw.get("operations")
    typo = next((name for name, meant in misspelt_operations(contract).items() if meant == "edit"), None)
    key = isinstance(raw_ops, dict) and "edit" not in raw_ops
    if not isinstance(raw_ops, dict):
        pointer = ""
    elif "edit" in raw_ops:
        pointer = "/operations/edit"
    elif typo is not None:
        renamed = raw_ops[typo]
        if isinstance(renamed, dict) and (renamed.get("enabled") is False or renamed.get("examples")):
            return
        pointer = "/operations/" + escape_pointer_segment(typo)
    else:
        pointer = "/operations"
    yield linter.finding(
        Code.EDIT_WITHOUT_EXAMPLES,
        "The edit operation is enabled but has no examples; add operations.edit.examples "
        "with currentJson, input and output, or set enabled to false",
        pointer,
        key=key,
    )


def rule_edit_example_states(linter: Linter) -> Iterator[Finding]:
    """Each edit example shows a before and an after: a ``currentJson`` that validates (JC133), and
    one at all (JC134).

    ``get_edit_contract`` refuses a ``currentJson`` that does not validate, so such an example
    teaches an edit no agent is ever asked to make; today ``json-contracts test`` also catches it
    (JC203), lint says it first. A misspelt ``currentJson`` is named in the fix and pointed at, and
    JC125 leaves that key to this one finding.
    """
    contract = linter.contract
    for i, example in enumerate(contract.operations["edit"]["examples"]):
        if not isinstance(example, dict):
            continue
        pointer, label = f"/operations/edit/examples/{i}", f"operations.edit.examples[{i}]"
        if CURRENT_JSON not in example:
            typo = current_json_typo(example)
            add = f"add {CURRENT_JSON}, the document before the edit"
            fix = f'rename "{typo}" to "{CURRENT_JSON}"' if typo else add
            yield linter.finding(
                Code.EDIT_EXAMPLE_WITHOUT_CURRENT_JSON,
                f"Edit example {label} has no {CURRENT_JSON}, so the model sees a result without the document "
                f"it was edited from; {fix}",
                f"{pointer}/{escape_pointer_segment(typo)}" if typo else pointer,
                key=typo is not None,
            )
            continue
        errors = list(iter_errors(contract.compiled, example[CURRENT_JSON]))
        if errors:
            yield linter.finding(
                Code.EDIT_EXAMPLE_INVALID_CURRENT_JSON,
                f"{CURRENT_JSON} of edit example {label} does not validate against the schema, so the example shows "
                f"an edit no agent is asked to make (get_edit_contract refuses an invalid {CURRENT_JSON}): "
                f"{describe_errors(errors)}; fix {CURRENT_JSON} so it validates",
                f"{pointer}/{CURRENT_JSON}{errors[0]['path']}",
            )
