"""The TypeScript server's four lint warnings, with the same wording and paths: JC101-JC104."""

from __future__ import annotations

from collections.abc import Iterator

from json_contracts.contracts.model import Contract
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, original_walk


def _example_count(contract: Contract) -> int:
    return sum(len(group) for _, _, group in contract.all_examples())


def rule_no_examples(linter: Linter) -> Iterator[Finding]:
    if _example_count(linter.contract) == 0:
        yield linter.finding(Code.NO_EXAMPLES, "Contract has no examples.", "", lint_path="examples")


def rule_original_schema_warnings(linter: Linter) -> Iterator[Finding]:
    for parts, node in original_walk(linter.contract.schema, ()):
        if not node:
            yield linter.schema_finding(Code.EMPTY_SCHEMA, "Schema object is empty and accepts any JSON value.", parts)
            continue
        object_shaped = node.get("type") == "object" or isinstance(node.get("properties"), dict)
        if not object_shaped:
            continue
        additional = node.get("additionalProperties")
        if additional is True:
            yield linter.schema_finding(
                Code.ADDITIONAL_PROPERTIES_TRUE,
                "Object schema uses additionalProperties:true; prefer explicit fields when possible.",
                parts,
            )
        elif additional is not False:
            yield linter.schema_finding(
                Code.ADDITIONAL_PROPERTIES_MISSING, "Object schema does not set additionalProperties:false.", parts
            )
