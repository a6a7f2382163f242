"""The TypeScript server's four lint warnings, with the same wording and paths: JC101-JC104.

``lint --json`` lists their messages in ``warnings`` exactly as the TypeScript server wrote them,
so the message never changes; what to do goes in the finding's ``hint``, which people read after
the message (``reporting.text.finding_message``) and ``--json`` reports as ``hint``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from json_contracts.contracts.model import Contract
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, Segments, original_walk
from json_contracts.schema.vocabulary import DRAFT7

_NO_EXAMPLES_HINT = 'add one: "examples": [{"input": "what a user asks for", "output": a document the schema accepts}]'
_EMPTY_HINT = 'give it a "type" and the keywords that describe the value, or write true if any value is meant'
_OPEN_HINT = (
    'list every field in "properties" and set "additionalProperties": false, or give additionalProperties '
    'a schema ({"type": "string"}) when the object is a map of values of one kind'
)
#: Keywords that apply sub-schemas to the same object: a branch reached through one is part of it.
_IN_PLACE = ("allOf", "anyOf", "oneOf")
_IN_PLACE_SINGLE = ("if", "then", "else")
_COMPOSING = (*_IN_PLACE, *_IN_PLACE_SINGLE, "$ref", "dependentSchemas")


def _example_count(contract: Contract) -> int:
    return sum(len(group) for _, _, group in contract.all_examples())


def rule_no_examples(linter: Linter) -> Iterator[Finding]:
    if _example_count(linter.contract) == 0:
        yield linter.finding(
            Code.NO_EXAMPLES, "Contract has no examples.", "", lint_path="examples", hint=_NO_EXAMPLES_HINT
        )


def _object_shaped(node: dict[str, Any]) -> bool:
    """The TypeScript server's test: ``type`` exactly ``"object"``, or a ``properties`` object."""
    return node.get("type") == "object" or isinstance(node.get("properties"), dict)


def _composing_parent(parts: Segments) -> Segments | None:
    """The schema ``parts`` is a branch of when it applies to the same object (an allOf branch, a then)."""
    if len(parts) >= 2 and parts[-2] in _IN_PLACE:
        return parts[:-2]
    if parts and parts[-1] in _IN_PLACE_SINGLE:
        return parts[:-1]
    return None


def _closing_hint(parts: Segments, node: dict[str, Any], walked: dict[Segments, dict[str, Any]], dialect: str) -> str:
    """How to close this object schema without breaking a composition it takes part in.

    ``"additionalProperties": false`` sees only the ``properties`` beside it: on an object composed
    from branches it forbids what the branches define, and on a branch it forbids what the rest of
    the object defines. Such objects are closed with ``unevaluatedProperties`` (2020-12), which
    JC104 does not count, so the hint says when JC104 is the thing to turn off.
    """
    ignore = f'ignore = ["{Code.ADDITIONAL_PROPERTIES_MISSING}"]'
    if isinstance(node.get("additionalProperties"), dict):
        return (
            "additionalProperties is a schema, so this object is a map of such values: if that is meant, turn "
            f'the rule off ({ignore}); otherwise list the fields in "properties" and set "additionalProperties": false'
        )
    ignore = f"turn the rule off if you close objects this way ({ignore})"
    unevaluated = dialect != DRAFT7  # draft-07 has no unevaluatedProperties: there it closes nothing
    if unevaluated and node.get("unevaluatedProperties") is False:
        return f'"unevaluatedProperties": false already closes this object; {ignore}'
    parent_parts = _composing_parent(parts)
    while unevaluated and parent_parts is not None and parent_parts in walked:
        if walked[parent_parts].get("unevaluatedProperties") is False:
            return f'the object this branch is part of is closed by "unevaluatedProperties": false; {ignore}'
        parent_parts = _composing_parent(parent_parts)
    parent_parts = _composing_parent(parts)
    branch = parent_parts is not None and parent_parts in walked and _object_shaped(walked[parent_parts])
    composes = any(key in node for key in _COMPOSING)
    if dialect == DRAFT7 and (branch or composes):
        return (
            'add "additionalProperties": false to the whole object and list in its "properties" every property '
            "its branches define (additionalProperties sees only the properties beside it)"
        )
    if branch:
        return (
            'close the object this branch is part of with "unevaluatedProperties": false instead: '
            '"additionalProperties": false here would forbid the properties defined outside this branch'
        )
    if composes:
        return (
            'add "unevaluatedProperties": false, which sees the properties its branches define; '
            '"additionalProperties": false would forbid them'
        )
    return 'add "additionalProperties": false to this object schema, so a model cannot add fields of its own'


def rule_original_schema_warnings(linter: Linter) -> Iterator[Finding]:
    walked: dict[Segments, dict[str, Any]] = {}
    for parts, node in original_walk(linter.contract.schema, ()):
        walked[parts] = node
        if not node:
            yield linter.schema_finding(
                Code.EMPTY_SCHEMA, "Schema object is empty and accepts any JSON value.", parts, hint=_EMPTY_HINT
            )
            continue
        if not _object_shaped(node):
            continue
        additional = node.get("additionalProperties")
        if additional is True:
            yield linter.schema_finding(
                Code.ADDITIONAL_PROPERTIES_TRUE,
                "Object schema uses additionalProperties:true; prefer explicit fields when possible.",
                parts,
                hint=_OPEN_HINT,
            )
        elif additional is not False:
            yield linter.schema_finding(
                Code.ADDITIONAL_PROPERTIES_MISSING,
                "Object schema does not set additionalProperties:false.",
                parts,
                hint=_closing_hint(parts, node, walked, linter.contract.dialect),
            )
