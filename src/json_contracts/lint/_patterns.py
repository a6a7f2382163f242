"""Patterns that can take exponential time on a backtracking engine (JC120)."""

from __future__ import annotations

from collections.abc import Iterator

from json_contracts._json.text import dumps
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, Segments, all_nodes
from json_contracts.schema.regex_safety import backtracking_risk


def rule_patterns(linter: Linter) -> Iterator[Finding]:
    for parts, node in all_nodes(linter.contract.schema):
        patterns: list[tuple[str, Segments, bool]] = []
        if isinstance(node.get("pattern"), str):
            patterns.append((node["pattern"], (*parts, "pattern"), False))
        if isinstance(node.get("patternProperties"), dict):
            patterns += [(p, (*parts, "patternProperties", p), True) for p in node["patternProperties"]]
        for pattern, where, is_key in patterns:
            risk = backtracking_risk(pattern)
            if risk:
                yield linter.schema_finding(
                    Code.BACKTRACKING_PATTERN,
                    f"Pattern {dumps(pattern, indent=None)} has {risk}, so a near-miss input can take "
                    "exponential time; rewrite it so each repetition has one way to match",
                    where,
                    key=is_key,
                )
