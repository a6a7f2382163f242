"""Patterns that can take exponential or polynomial time on a backtracking engine (JC120).

The analysis is :func:`~json_contracts.schema.regex_safety.analyse_pattern`; this rule finds every
``pattern`` and ``patternProperties`` key and says what the analysis found: the kind of time, the
part of the pattern to rewrite, a near-miss input that stalls it, and how to rewrite it.
"""

from __future__ import annotations

from collections.abc import Iterator

from json_contracts._json.text import dumps
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, Segments, all_nodes
from json_contracts.schema.regex_safety import MAX_GROUP_DEPTH, BacktrackingRisk, analyse_pattern

#: A longer pattern is quoted up to here, then its length, so a 100 KB pattern makes a short message.
SHOWN_CHARACTERS = 200


def rule_patterns(linter: Linter) -> Iterator[Finding]:
    for parts, node in all_nodes(linter.contract.schema):
        patterns: list[tuple[str, Segments, bool]] = []
        if isinstance(node.get("pattern"), str):
            patterns.append((node["pattern"], (*parts, "pattern"), False))
        if isinstance(node.get("patternProperties"), dict):
            patterns += [(p, (*parts, "patternProperties", p), True) for p in node["patternProperties"]]
        for pattern, where, is_key in patterns:
            risk = analyse_pattern(pattern)
            if risk:
                yield linter.schema_finding(Code.BACKTRACKING_PATTERN, message(pattern, risk), where, key=is_key)


def message(pattern: str, risk: BacktrackingRisk) -> str:
    """The JC120 message: what time, why, an input that shows it, and the rewrite."""
    quoted = dumps(pattern[:SHOWN_CHARACTERS], indent=None)
    if len(pattern) > SHOWN_CHARACTERS:
        quoted += f"... ({len(pattern)} characters)"
    if risk.kind == "too-deep":
        return (
            f"Pattern {quoted} nests groups more than {MAX_GROUP_DEPTH} deep, too deep to check for "
            f"catastrophic backtracking; {risk.fix}"
        )
    time = "exponential time" if risk.kind == "exponential" else f"polynomial time (degree {risk.degree})"
    example = f", and a near-miss input such as {risk.attack} stalls it" if risk.attack else ""
    return f"Pattern {quoted} can take {time} on a backtracking engine: {risk.shape}{example}; {risk.fix}"
