"""ECMA-262 patterns drawn from: every string the Python translation yields matches under the ECMA engine.

The generator draws pattern strings with Hypothesis's ``from_regex`` on :func:`python_pattern`'s
translation, then re-checks each with the ECMA-262 engine; a translation that matches more than the
pattern costs filtering, and one that is refused costs drawing the string as any text (a false
"unsatisfiable"). These tests hold the translation to "translated, and a subset".
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from json_contracts.schema.patterns import search
from json_contracts.testing import from_schema
from json_contracts.testing._regex import MATCHES_NOTHING, python_pattern

_SETTINGS = settings(max_examples=10, database=None, deadline=None, suppress_health_check=list(HealthCheck))


def _draws_match(pattern: str) -> None:
    """Every string drawn from the translation matches ``pattern`` under the ECMA-262 engine."""
    translated = python_pattern(pattern)
    assert translated is not None, f"{pattern!r} was not translated"

    @_SETTINGS
    @given(st.from_regex(translated))
    def check(text: str) -> None:
        assert search(pattern, text), f"{text!r} drawn for {pattern!r} (as {translated!r}) does not match"

    check()


@pytest.mark.parametrize(
    "pattern",
    [
        r"^\cJ$",  # item 10: a control escape (LF), which Python's re does not know
        r"^a\cIb$",
        r"^[\cA-\cZ]+$",
        r"^\u{1F600}$",
        r"^\u{41}\u00e9$",
        r"^\ud83d\ude00$",  # a surrogate pair of escapes is one code point
        r"^[\u{1F600}-\u{1F64F}]+$",
        r"^\0$".replace("\\0", "\\0a"),  # \0 then a literal: NUL then "a"
        r"^(?<year>\d{4})-\k<year>$",  # a named group and a reference to it
        r"^(?<a>x)(?<b>y)\k<b>\k<a>$",
        r"^\k<late>(?<late>z)$",  # a reference before its group matches nothing in ECMA-262
        r"^(a)\1$",
        r"^(?<=a)b|^c$",
        r"^\p{L}+$",
        r"^\p{Lu}\p{Ll}*$",
        r"^[\p{L}\d_-]+$",  # a property inside a class
        r"^\p{Script=Greek}+$",
        r"^\p{sc=Han}{2}$",
        r"^\P{L}$",
        r"^[^\p{L}\s]+$",
        r"^a\/b$",  # an identity escape ECMA-262 allows
        r"^[\-\]\\]+$",
        r"^[^]$",  # any character
        r"^a[]?$",  # [] matches nothing, so only "a"
        r"^\s$",  # ECMA-262's white space, wider than Python's
        r"^\S\w\W\d\D$",
        r"\bword\b",
        # real-world patterns (SchemaStore) whose drawn strings the ECMA-262 engine used to refuse
        r"\.json$",  # Python's $ also matches before a final newline
        r"^\/.+\/i?$",  # Python's . matches \r
        r"^(?:[^a-df-zA-DF-Z\s]+(?:[umUM][sS]|[dhmsDHMS])\s?)+$",  # Python's \s misses U+FEFF
        r"^AuditTo:((?<EnvironmentVariableName>[a-zA-Z_]\w*)|(?<ArrayIndex>\d*))$",
        r"^(?<major>0|[1-9]\d*)\.(?<minor>0|[1-9]\d*)\.(?<patch>0|[1-9]\d*)(?:-(?<pre>[0-9A-Za-z-]+))?$",
    ],
)
def test_ecma_escapes_are_translated_to_strings_that_match(pattern: str) -> None:
    _draws_match(pattern)


@pytest.mark.parametrize(
    ("pattern", "outside"),
    [
        ("^.$", ["\n", "\r", "\u2028", "\u2029"]),  # what . never matches in ECMA-262
        ("^a$", ["a\n"]),  # $ is only the very end: Python's $ also matches before a final newline
        (r"^\d$", ["\u0661", "\u00b2"]),  # \d is ASCII
        (r"^\w$", ["\u00e9"]),
        (r"^\S$", ["\ufeff", "\u3000", "\u2028"]),  # ECMA-262 white space and line terminators
        (r"^[^]$", []),
        (r"^[]$", ["", "a"]),
    ],
)
def test_the_translation_never_matches_what_ecma_refuses(pattern: str, outside: list[str]) -> None:
    translated = python_pattern(pattern)
    assert translated is not None
    for text in outside:
        assert not search(pattern, text)
        assert re.search(translated, text) is None, f"{translated!r} matches {text!r}, which {pattern!r} refuses"


@pytest.mark.parametrize(
    ("pattern", "inside"),
    [
        (r"^\s$", ["\ufeff", "\u3000", "\u00a0", "\u2028", "\v"]),
        ("^.$", ["\u0085", "\U0001f600"]),
        (r"^\p{Lu}$", ["A", "\u0416", "\U0001d400"]),
        (r"^\p{L}$", ["A", "\u0400", "\u4e00", "\U00020000"]),  # a subset, spread over every range
        (r"^[^]$", ["\n", "\U0010ffff"]),
    ],
)
def test_the_translation_matches_what_ecma_matches(pattern: str, inside: list[str]) -> None:
    translated = python_pattern(pattern)
    assert translated is not None
    for text in inside:
        assert search(pattern, text)
        assert re.search(translated, text) is not None, f"{translated!r} refuses {text!r}"


def test_large_classes_stay_cheap_to_draw_from() -> None:
    """A class of a hundred thousand code points is drawn from a subset, never listed whole."""
    translated = python_pattern(r"^[\p{L}\p{N}]+$")
    assert translated is not None
    assert len(translated) < 100_000
    _draws_match(r"^[\p{L}\p{N}]+$")


def test_a_translation_too_large_to_compile_is_not_used() -> None:
    """Each ``\\p{L}`` is a class of some 13,000 characters of Python text: a few hundred of them made a
    pattern that ``re`` and Hypothesis took seconds to compile (2,000: 25 MB, about a minute). Past
    a million characters the strings are drawn as any text and filtered, as for a long pattern."""
    assert python_pattern(r"\p{L}" * 100) is None
    assert python_pattern(r"\p{L}" * 10) is not None


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?<=a+)b",  # a lookbehind of varying width: Python's re cannot express it
        "a" * 10 + "(" * 200 + ")" * 200,
    ],
)
def test_what_python_cannot_express_is_none_not_an_error(pattern: str) -> None:
    translated = python_pattern(pattern)
    assert translated is None or re.compile(translated)


# A small grammar of ECMA-262 patterns, for the property below.
_ATOMS = st.sampled_from(
    [
        "a", "b", "-", ".", r"\d", r"\D", r"\w", r"\W", r"\s", r"\S", r"\cM", r"\0", r"\x41", r"\u00e9",
        r"\u{1F600}", r"\/", r"\.", "[a-c]", "[^a]", "[^]", r"[\s\d]", r"[\p{Lu}x]", r"\p{Ll}", r"\P{L}",
        r"\p{Script=Cyrillic}", "[]",
    ]
)  # fmt: skip
_QUANTIFIERS = st.sampled_from(["", "", "*", "+", "?", "{2}", "{1,3}", "*?"])


@st.composite
def _ecma_patterns(draw: st.DrawFn, depth: int = 0) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 2 and draw(st.integers(0, 4)) == 0:
            inner = "|".join(draw(st.lists(_ecma_patterns(depth + 1), min_size=1, max_size=3)))
            atom = draw(st.sampled_from(["(", "(?:", "(?<g>"])) + inner + ")"
            if atom.startswith("(?<g>") and (depth or any(part.startswith("(?<g>") for part in parts)):
                atom = "(?:" + inner + ")"  # one name per pattern
        else:
            atom = draw(_ATOMS)
        parts.append(atom + draw(_QUANTIFIERS))
    body = "".join(parts)
    return draw(st.sampled_from(["^", ""])) + body + draw(st.sampled_from(["$", ""]))


@settings(max_examples=40, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_strings_drawn_for_random_ecma_patterns_match_them(data: st.DataObject) -> None:
    pattern = data.draw(_ecma_patterns())
    translated = python_pattern(pattern)
    assert translated is not None, pattern
    if translated == MATCHES_NOTHING:
        return  # a mandatory [] or an anchor that cannot hold on any path: nothing to draw
    text = data.draw(st.from_regex(translated))
    assert search(pattern, text), f"{text!r} drawn for {pattern!r} (as {translated!r})"


# Hypothesis draws ``\A`` and ``\Z`` as nothing wherever they stand, and its ``from_regex`` then searches
# each drawn string with Python's backtracking ``re``: an anchor drawn where it cannot hold gave a
# string the translation refuses, and refusing it took exponential time under a nested repetition
# (``(a+)+``), so drawing never ended. The seed-3 pattern of the property test above hung this way.
_HUNG = [
    r"^(?:a+|^b)+$",  # a ^ inside a repetition, drawn after an "a"
    r"^(?:a+|b$)+$",  # a $ inside a repetition, drawn before an "a"
    r"^(?<g>[^](-*?a[a-c]*?[\s\d]{1,3}){1,3}(?:\cM+\cM?\cM|^-*?\0\D*[a-c]*|\S*){1,3})+[a-c]{1,3}$",
]


@pytest.mark.parametrize("pattern", _HUNG)
def test_anchors_drawn_where_they_cannot_hold_do_not_hang_drawing(pattern: str) -> None:
    """Drawing runs in a child process (a hang would never end), bounded far above its usual second."""
    script = textwrap.dedent(
        f"""
        from hypothesis import HealthCheck, given, settings, strategies as st
        from json_contracts.schema.patterns import search
        from json_contracts.testing._regex import python_pattern

        pattern = {pattern!r}
        drawn = []

        @settings(max_examples=30, database=None, deadline=None, suppress_health_check=list(HealthCheck))
        @given(st.from_regex(python_pattern(pattern)))
        def draw(text):
            assert search(pattern, text), text
            drawn.append(text)

        draw()
        print(len(drawn))
        """
    )
    try:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"drawing 30 strings for {pattern!r} did not finish in 60 s")
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 1


@pytest.mark.parametrize(
    ("pattern", "inside", "outside"),
    [
        (r"^(?:a+|^b)+$", ["a", "aa", "b"], ["ab", "aba", ""]),  # "ba" too, left out (a subset)
        (r"^(?:a+|b$)+$", ["a", "aa", "b"], ["ba", "aba"]),  # "aab" too, left out
        (r"(^a|b)c", ["ac", "bc", "xbc"], ["xac"]),
        (r"^(?:^a|^b){1,3}$", ["a", "b"], ["ab", "aa"]),  # a second turn cannot be at the start
        (r"^(?:a$)*$", ["", "a"], ["aa"]),
        (r"(?:x|a^)b", ["xb"], ["ab"]),  # a ^ after a letter never holds
        (r"a$b?", ["a", "xa"], ["ab"]),  # the $ holds only if b? is empty: b? is left out
        (r"(a$|b)c?", ["a", "b"], ["ac"]),
        (r"(a$)+(\s?b$)*?$", ["a", "xa"], ["ab"]),  # the left-out part does not decide the first $
        (r"(?=^a)a|b", ["a", "b"], []),  # anchors in a lookaround keep their place
    ],
)
def test_anchors_are_kept_only_where_they_can_hold(pattern: str, inside: list[str], outside: list[str]) -> None:
    """The translation places each ^ and $ where Hypothesis's drawing honours it, and what it matches
    is a subset of the pattern's strings."""
    translated = python_pattern(pattern)
    assert translated is not None
    for text in inside:
        assert search(pattern, text)
        assert re.search(translated, text) is not None, f"{translated!r} refuses {text!r}"
    for text in outside:
        assert re.search(translated, text) is None, f"{translated!r} matches {text!r}"
    _draws_match(pattern)


def test_a_pattern_that_matches_nothing_translates_to_one_that_matches_nothing() -> None:
    for pattern in ("a^b", "^[]$", "a$b", "$ref"):
        translated = python_pattern(pattern)
        assert translated == MATCHES_NOTHING
        assert not any(re.search(translated, text) for text in ("", "a", "ab", "a\nb"))


@pytest.mark.parametrize("pattern", [r"^a\cIb$", r"^\p{Lu}{2}\u{1F600}$", r"^(?<w>[a-z]{2})-\k<w>$"])
def test_schemas_with_ecma_only_escapes_are_drawn_from(pattern: str) -> None:
    """Item 10: such strings were drawn as any text and filtered, so the schema looked unsatisfiable."""
    drawn = find(from_schema({"type": "string", "pattern": pattern}), lambda _: True, settings=_SETTINGS)
    assert search(pattern, drawn)
