"""Names the validator does not know, so they do nothing: keywords (JC110), contract fields (JC111),
formats (JC118), and a ``name`` field that disagrees with the file name (JC122)."""

from __future__ import annotations

from collections.abc import Iterator

from json_contracts._json.pointers import escape_pointer_segment
from json_contracts.contracts.shape import KNOWN_FIELDS
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, all_nodes, suggest
from json_contracts.schema.formats import KNOWN_FORMATS
from json_contracts.schema.vocabulary import DRAFT7, KNOWN_KEYWORDS


def rule_unknown_keywords(linter: Linter) -> Iterator[Finding]:
    known = KNOWN_KEYWORDS[linter.contract.dialect] | {"$defs"}
    for parts, node in all_nodes(linter.contract.schema):
        for key in node:
            if key in known or key.startswith("x-"):
                continue
            suggestion = suggest(key, known)
            fix = f'did you mean "{suggestion}"?' if suggestion else 'remove it, or prefix extensions with "x-"'
            dialect = "draft-07" if linter.contract.dialect == DRAFT7 else "2020-12"
            yield linter.schema_finding(
                Code.UNKNOWN_KEYWORD,
                f'Unknown {dialect} keyword "{key}" is ignored by the validator; {fix}',
                (*parts, key),
                key=True,
            )


def rule_unknown_fields(linter: Linter) -> Iterator[Finding]:
    for key in linter.contract.raw:
        if key in KNOWN_FIELDS:
            continue
        suggestion = suggest(key, [f for f in KNOWN_FIELDS if f != "version"])
        fix = f'did you mean "{suggestion}"?' if suggestion else "remove it (unknown fields are dropped)"
        yield linter.finding(
            Code.UNKNOWN_FIELD,
            f'Unknown contract field "{key}" is ignored; {fix}',
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
