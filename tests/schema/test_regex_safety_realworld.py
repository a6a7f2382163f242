"""JC120 on SchemaStore's GitHub workflow pattern: the disjoint ``(.|[\\r\\n])*`` is linear, the pattern is not.

``.`` never matches ``\\r`` or ``\\n`` in ECMA-262, so ``(.|[\\r\\n])*`` alone has one way to match any
text and is not flagged. The whole pattern ``^.*\\$\\{\\{(.|[\\r\\n])*\\}\\}.*$`` is a true positive: its
three repetitions share every character but line breaks, and on the near-miss input
``"a${{}}" * n + "\\n"`` both V8 and regress take cubic time (measured: doubling n multiplies the time
by about 8), so the report stays, with that input.
"""

from __future__ import annotations

import pytest

from json_contracts.schema.regex_safety import analyse_pattern

GITHUB_EXPRESSION = "^.*\\$\\{\\{(.|[\r\n])*\\}\\}.*$"  # as the schema's JSON text gives it: real CR and LF


@pytest.mark.parametrize(
    "pattern",
    ["(.|[\\r\\n])*", "^(.|[\\r\\n])*$", "^(?:.|\\n|\\r)*;$", "^\\$\\{\\{(.|[\r\n])*\\}\\}$", "(.|[\r\n])*"],
)
def test_a_dot_or_a_line_break_repeated_is_linear(pattern: str) -> None:
    assert analyse_pattern(pattern) is None


def test_the_github_expression_pattern_is_cubic_and_says_how_to_stall_it() -> None:
    risk = analyse_pattern(GITHUB_EXPRESSION)
    assert risk is not None
    assert (risk.kind, risk.degree) == ("polynomial", 3)
    assert risk.attack == '"a${{}}a${{}}…\\n"'


def test_overlapping_alternatives_repeated_are_still_exponential() -> None:
    risk = analyse_pattern("(.|\\s)*x")  # a space is both "." and "\\s"
    assert risk is not None
    assert risk.kind == "exponential"


SEMVER = (  # semver.org's pattern, in seven SchemaStore schemas; V8 matches ".1a" * 4000 + "!" in 0.1 ms
    "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)"
    "(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$"
)


@pytest.mark.parametrize(
    "pattern",
    [SEMVER, "^(\\.(0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*$", "^(?:-(?:\\d+|\\d*[a-z]\\w*))*$"],
)
def test_alternatives_that_never_match_the_same_text_are_not_exponential(pattern: str) -> None:
    # "[1-9]\d*" holds digits only and "\d*[a-zA-Z-]…" needs a letter: no text matches both, and
    # each repetition starts with a delimiter neither matches
    assert analyse_pattern(pattern) is None


@pytest.mark.parametrize(
    "pattern",
    [
        "^(\\.([1-9]\\d*|\\d*))*$",  # "1" matches both alternatives
        "^(?:-(?:\\d+|\\d*[0-9]))*$",
        "^(?:-(?:a|\\w*[a-z]))*$",
    ],
)
def test_alternatives_that_can_match_the_same_text_are_still_exponential(pattern: str) -> None:
    risk = analyse_pattern(pattern)
    assert risk is not None
    assert risk.kind == "exponential"


@pytest.mark.parametrize(
    "pattern",
    [
        "^(?:-(?:\\d+|\\d*[a-z]\\w*)\\w*)*$",  # "-1a" is "1" then "a", or "1a": two ways per repetition
        "^(?:-(?:\\d+|\\d*[a-z]\\w*))*$".replace("-", "[-a]"),  # the delimiter is a character a branch takes
    ],
)
def test_disjoint_alternatives_without_a_delimiter_after_them_are_still_exponential(pattern: str) -> None:
    risk = analyse_pattern(pattern)
    assert risk is not None
    assert risk.kind == "exponential"
