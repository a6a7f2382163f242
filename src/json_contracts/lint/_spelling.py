"""Names the validator does not know, so they do nothing: keywords (JC110), contract fields (JC111),
formats (JC118), and a ``name`` field that disagrees with the file name (JC122)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from json_contracts._json.pointers import escape_pointer_segment
from json_contracts.contracts.shape import KNOWN_FIELDS
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, all_nodes, declared_types, suggest
from json_contracts.schema.authoring import known_keywords, object_like, property_schema_beside
from json_contracts.schema.dialects import detect_dialect
from json_contracts.schema.formats import KNOWN_FORMATS
from json_contracts.schema.vocabulary import DRAFT7, DRAFT202012

DIALECT_KEY = "$schema"


def _misplaced_property_fix(key: str, node: dict[str, Any]) -> str | None:
    """The fix for a property's schema written beside ``properties`` instead of in it, or None.

    Said only with evidence: the value is a schema (the caller checks) and the node describes
    objects. A node with no ``type`` and no object keyword gets the move as one of two choices; a
    node whose type excludes objects gets nothing here, since no property of it can exist.
    """
    properties = node.get("properties")
    if isinstance(properties, dict) and key in properties:
        return f'"properties" already has a "{key}": merge this schema into it, or remove this one'
    target = '"properties"' if isinstance(properties, dict) else 'a "properties" object'
    move = f'it looks like a property\'s schema: move it into {target} ("properties": {{"{key}": {{...}}}})'
    if object_like(node):
        return move
    if declared_types(node) is None:
        return f'if "{key}" is a property, {move}; otherwise remove it, or prefix extensions with "x-"'
    return None


def rule_unknown_keywords(linter: Linter) -> Iterator[Finding]:
    """JC110: a keyword the dialect does not define, with the fix for its usual causes.

    A misspelt keyword gets a did-you-mean. A property's schema written beside ``properties`` (the
    wrapper forgotten, ``{"type": "object", "street": {"type": "string"}}``) gets "move it into
    properties", unless a keyword that takes a schema is the likelier meaning (``item``: ``items``).
    When such a schema is why an example output fails, the loader says so in JC020's hint, through
    the same :func:`~json_contracts.schema.authoring.property_schema_beside`.
    """
    known = known_keywords(linter.contract.dialect)
    dialect = "draft-07" if linter.contract.dialect == DRAFT7 else "2020-12"
    for parts, node in all_nodes(linter.contract.schema):
        for key in node:
            if key in known or key.startswith("x-"):
                continue
            suggestion = suggest(key, known)
            fix = f'did you mean "{suggestion}"?' if suggestion else 'remove it, or prefix extensions with "x-"'
            if property_schema_beside(node, key, known):
                fix = _misplaced_property_fix(key, node) or fix
            yield linter.schema_finding(
                Code.UNKNOWN_KEYWORD,
                f'Unknown {dialect} keyword "{key}" is ignored by the validator; {fix}',
                (*parts, key),
                key=True,
            )


def _misplaced_dialect(value: Any, schema: dict[str, Any]) -> str:
    """What happens to a ``$schema`` written at the top of a contract rather than inside ``schema``, and the fix.

    The dialect is read from ``schema.$schema`` only, so a draft-07 URI up here leaves the schema
    read as 2020-12. A URI that names no JSON Schema dialect (an editor's schema for contract files,
    say) is not the schema's dialect, and moving it would make the schema unusable.
    """
    if DIALECT_KEY in schema:
        return f'; the dialect is read from the "{DIALECT_KEY}" inside "schema": remove this one'
    dialect = detect_dialect({DIALECT_KEY: value}) if isinstance(value, str) else None
    move = f'move "{DIALECT_KEY}" into "schema", where it selects the dialect'
    if dialect == DRAFT7:
        return f", so the schema is read as 2020-12, not draft-07; {move}"
    if dialect == DRAFT202012:
        return f"; {move} (2020-12 is also the default)"
    if isinstance(value, str) and "json-schema.org" in value.lower():
        return f"; {move} (draft-07 or 2020-12)"
    return (
        ": a contract file is not checked against it; remove it, and map contract files to their schema in your "
        "editor's settings instead (docs/reference/contract-format.md)"
    )


def rule_unknown_fields(linter: Linter) -> Iterator[Finding]:
    """JC111: a top-level field the loader drops, with a did-you-mean or, for ``$schema``, where it belongs."""
    for key in linter.contract.raw:
        if key in KNOWN_FIELDS:
            continue
        if key == DIALECT_KEY:
            tail = _misplaced_dialect(linter.contract.raw[key], linter.contract.schema)
        else:
            suggestion = suggest(key, [f for f in KNOWN_FIELDS if f != "version"])
            tail = f'; did you mean "{suggestion}"?' if suggestion else "; remove it (unknown fields are dropped)"
        yield linter.finding(
            Code.UNKNOWN_FIELD,
            f'Unknown contract field "{key}" is ignored{tail}',
            "/" + escape_pointer_segment(key),
            key=True,
        )


def rule_unknown_format(linter: Linter) -> Iterator[Finding]:
    for parts, node in all_nodes(linter.contract.schema):
        name = node.get("format")
        if isinstance(name, str) and name not in KNOWN_FORMATS:
            suggestion = suggest(name, KNOWN_FORMATS)
            fix = f'did you mean "{suggestion}"?' if suggestion else "use a known format or a pattern"
            yield linter.schema_finding(
                Code.UNKNOWN_FORMAT,
                f'Unknown format "{name}" is not checked, so any string passes; {fix}',
                (*parts, "format"),
            )


def rule_name_matches_file(linter: Linter) -> Iterator[Finding]:
    name = linter.contract.raw.get("name")
    if isinstance(name, str) and name and name != linter.contract.name:
        yield linter.finding(
            Code.NAME_MISMATCH,
            f'The name field "{name}" differs from the file name "{linter.contract.name}", and the file name '
            "wins; rename the file or remove the name field",
            "/name",
        )
