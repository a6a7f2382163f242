"""The linear engine answers exactly as ``regress`` does, for every pattern the translator accepts."""

from __future__ import annotations

import pytest
import regress
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from json_contracts.schema import patterns
from json_contracts.schema.ecma_linear import translate

# Characters where ECMA-262 and a naive translation part ways: line terminators, white space
# outside ASCII, astral characters, word and non-word characters, a digit outside ASCII.
SPECIAL = "\n\r\u2028\u2029\u00a0\ufeff\u1680\u2000\u200a\u202f\u205f\u3000\u180e\u0085\v\f\t \x00\x08"
OTHERS = "aAbz_09-.é😀Ωд٣"

LITERALS = st.sampled_from(["a", "b", "-", "é", "😀", " ", "_", "0", "Ω", "\\.", "\\-" * 0 + "\\/", "\\$"])
ESCAPES = st.sampled_from(
    [
        "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", ".", "\\n", "\\r", "\\t", "\\v", "\\f", "\\0", "\\cJ",
        "\\cm", "\\x41", "\\x0a", "\\u00e9", "\\u2028", "\\u{1F600}", "\\u{61}", "\\ud83d\\ude00",
        "\\u00A0", "\\p{L}", "\\P{L}", "\\p{Lu}", "\\p{Nd}", "\\p{Script=Greek}", "\\p{ASCII}", "\\p{Zs}",
    ]
)  # fmt: skip
CLASS_ITEMS = st.sampled_from(
    [
        "a", "b", "a-z", "0-9", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\b", "\\-", "-", "é", "😀",
        "\\u2028", "\\x00-\\x20", "\\u{10000}-\\u{10FFFF}", "\\p{L}", "\\P{Ll}", "^", ".", "$", "[", "\\]",
    ]
)  # fmt: skip
UNSUPPORTED = st.sampled_from(["(?=a)", "(?!b)", "(?<=a)", "(?<!\\d)", "(a)\\1", "(?<n>a)\\k<n>", "a{1001}"])
QUANTIFIERS = st.sampled_from(["", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{0,2}", "{1,}", "{2,3}?"])


def _class(items: list[str], negated: bool) -> str:
    return "[" + ("^" if negated else "") + "".join(items) + "]"


CLASSES = st.builds(_class, st.lists(CLASS_ITEMS, max_size=4), st.booleans())
ATOMS = st.one_of(LITERALS, ESCAPES, CLASSES, UNSUPPORTED.filter(lambda _: True).map(lambda u: u))


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    group = st.builds(lambda kind, body: kind + body + ")", st.sampled_from(["(", "(?:", "(?<g>"]), inner)
    alternation = st.builds(lambda a, b: a + "|" + b, inner, inner)
    sequence = st.lists(inner, min_size=1, max_size=3).map("".join)
    quantified = st.builds(lambda atom, q: atom + q, group, QUANTIFIERS)
    return st.one_of(alternation, sequence, quantified)


TERMS = st.builds(lambda atom, q: atom + q, st.one_of(ATOMS, st.sampled_from(["^", "$", "\\b", "\\B"])), QUANTIFIERS)
PATTERNS = st.recursive(TERMS, _extend, max_leaves=6)


@st.composite
def pattern_and_text(draw: st.DrawFn) -> tuple[str, str]:
    pattern = draw(PATTERNS)
    own = [c for c in pattern if c not in "\\[](){}|*+?^$"]
    alphabet = st.sampled_from(sorted(set(own + list(SPECIAL + OTHERS))))
    return pattern, "".join(draw(st.lists(alphabet, max_size=8)))


def _regress(pattern: str) -> regress.Regex | None:
    try:
        return regress.Regex(pattern, "u")
    except regress.RegressError:
        return None


SEEN = {"valid": 0, "linear": 0}


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(pattern_and_text())
def test_the_linear_engine_agrees_with_regress(case: tuple[str, str]) -> None:
    pattern, text = case
    reference = _regress(pattern)
    if reference is None:  # regress refuses it: so does search, with regress's error
        with pytest.raises(regress.RegressError):
            patterns.search(pattern, text)
        return
    SEEN["valid"] += 1
    if patterns._compiled(pattern).linear is None:
        return
    SEEN["linear"] += 1
    # Quantifiers nested in the generated patterns are shallow and texts short: regress stays fast.
    assert patterns.search(pattern, text) is (reference.find(text) is not None), (pattern, text)


def test_most_generated_patterns_take_the_linear_path() -> None:
    """Guards the property test above against testing nothing (run after it in file order)."""
    if SEEN["valid"] < 100:
        pytest.skip("the property test did not run first")
    assert SEEN["linear"] / SEEN["valid"] > 0.5, SEEN


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("^.$", "\u2028"), ("^.$", "\x85"), ("^.$", "😀"), ("^..$", "😀"), ("^\\s$", "\u180e"),
        ("^\\s$", "\ufeff"), ("^\\s$", "\v"), ("^\\w$", "é"), ("\\bé", "é"), ("a$", "a\n"), ("^b", "a\nb"),
        ("[^]", "\n"), ("[]", "a"), ("^[\\b]$", "\b"), ("^\\cj$", "\n"), ("^\\0$", "\x00"),
        ("^\\ud83d\\ude00$", "😀"), ("^[\\ud83d\\ude00-\\ud83d\\ude4f]$", "😃"), ("^\\u{1F600}$", "😀"),
        ("^\\p{Lu}+$", "ΩA"), ("^\\P{L}$", "1"), ("^\\p{Script=Greek}$", "Ω"), ("^a{2,3}?$", "aaa"),
        ("^(?<n>a|b)+$", "abab"), ("^[a-]$", "-"), ("^[\\-]$", "-"), ("^\\/$", "/"),
    ],
)  # fmt: skip
def test_edge_cases_take_the_linear_path_and_agree(pattern: str, text: str) -> None:
    assert translate(pattern) is not None
    assert patterns.search(pattern, text) is (regress.Regex(pattern, "u").find(text) is not None)


@pytest.mark.parametrize("pattern", ["(?=a)", "(?<!a)b", "(a)\\1", "(?<n>a)\\k<n>", "a{1001}", "(?:a{1000}){1000}"])
def test_what_needs_backtracking_goes_to_the_worker(pattern: str) -> None:
    assert patterns._compiled(pattern).linear is None


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [("^.$", "\ud800", True), ("^[\\ud800-\\udbff]$", "\udbff", True), ("^[^\\ud800]$", "\ud800", False),
     ("^.$", "\ud83d\ude00", True), ("^\\S\\S$", "a\udc00", True)],
)  # fmt: skip
def test_lone_surrogates_are_code_points_on_the_linear_path(pattern: str, text: str, expected: bool) -> None:
    assert patterns.search(pattern, text) is expected
