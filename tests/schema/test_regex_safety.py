"""``backtracking_risk``: the analysis behind lint JC120, over a real parse of the pattern.

Each unsafe family is pinned with its exact reason, each safe shape next to the near miss that
would be flagged, so a scanner that ignored the detail that makes the shape safe fails here too.
"""

from __future__ import annotations

import pytest

from json_contracts.schema.regex_safety import _Parser, analyse_pattern, backtracking_risk

NESTED = "exponential time: the repeated"
OVERLAPPING = "exponential time: alternatives of"
FIXED_COUNT = "polynomial time (degree"


def reason(pattern: str) -> str | None:
    """The first words of the reason: which of the three shapes was found."""
    found = backtracking_risk(pattern)
    for shape in (NESTED, OVERLAPPING, FIXED_COUNT):
        if found is not None and found.startswith(shape):
            return shape
    return found


# -- (a) a repeated group whose body repeats what the group repeats --------------------------------


@pytest.mark.parametrize(
    "pattern",
    [
        r"(a+)+",
        r"(\w*)*",
        r"(x|y+)*",
        r"(b|a+)*",
        r"^(a+)+$",
        r"(a+)*b",
        r"(\d+)+",
        r"(\(+)+",
        r"((a+))+",
        r"((a)+)+",
        r"(?:a+)+",
        r"(?:(?:a)+)+",
        r"(a{2,})+",
        r"(a+){2,}",
        r"(a+?)+",
        r"(a+)+?",
        r"(a*)*?",
        r"(a+){2,}?",
        r"(a+)(b+)+",
        r"^([a-z]+[a-z0-9]*)+$",
    ],
)
def test_a_repeated_group_whose_body_repeats_what_the_group_repeats_is_flagged(pattern: str) -> None:
    assert reason(pattern) == NESTED


@pytest.mark.parametrize(
    ("flagged", "safe"),
    [
        (r"(a?b+)+", r"(ab+)+"),  # an optional first atom still lets the body start with what it repeats
        (r"(a*b+)+", r"(ab+)+"),
        (r"(a{0,3}b+)+", r"(a{1,3}b+)+"),  # {0,...} is optional, {1,...} is not
        (r"^(b+a?)+$", r"^(b+a)+$"),  # an optional last atom lets the body end with what it repeats
        (r"(x[a-z]+)+", r"(x[0-9]+)+"),
        (r"(\d+.)*\d+", r"(\d+\.)*\d+"),  # an escaped dot is a delimiter, a bare dot is anything
    ],
)
def test_the_body_must_start_and_end_with_what_it_repeats(flagged: str, safe: str) -> None:
    assert reason(flagged) == NESTED
    assert backtracking_risk(safe) is None


@pytest.mark.parametrize("pattern", [r"(?=a)(a+)+", r"(a+)+(?<=a)", r"((?=a)a+)+", r"(?!\))(a+)+"])
def test_a_lookaround_next_to_the_shape_does_not_hide_it(pattern: str) -> None:
    assert reason(pattern) == NESTED


# -- (b) alternatives that can start with the same character ---------------------------------------


@pytest.mark.parametrize(
    "pattern",
    [
        r"(a|aa)+",
        r"(?:a|aa)+",
        r"(a|aa){2,}",
        r"(a|b|ab)+",
        r"((a|b)|a)+",
        r"([a-z]|[0-9a-f])+",
        r"(\d|[0-9])+",
        r"([^a]|b)+",
        r"(.|a)+",
        r"(a|\p{L})+",
    ],
)
def test_a_repeated_group_whose_alternatives_can_start_alike_is_flagged(pattern: str) -> None:
    assert reason(pattern) == OVERLAPPING


@pytest.mark.parametrize(
    "pattern",
    [
        r"(a|ab)*",
        r"(ab+|ac)+",
        r"(a|b)+",
        r"(a|b)*",
        r"([a-f]|[g-z])+",
        r"([^a]|a)+",
        r"(\d|x)+",
        r"(\.|a)+",
        r"(\s|\S)+",
        r"(\w|\W)+",
    ],
)
def test_a_repeated_group_of_alternatives_that_start_differently_is_not_flagged(pattern: str) -> None:
    assert backtracking_risk(pattern) is None


@pytest.mark.parametrize("pattern", [r"(a|aa)", r"(a|aa)?", r"(a|ab){3}", r"(a|b)(a|a)", r"^(https?|http)://"])
def test_overlapping_alternatives_that_are_not_repeated_without_bound_are_not_flagged(pattern: str) -> None:
    assert backtracking_risk(pattern) is None


# -- (c) a group with unbounded repetition repeated a fixed number of times ------------------------


@pytest.mark.parametrize(
    "pattern", [r"(.*a){20}", r"(a+){2}", r"(a+){2,5}", r"^(a+){0,5}$", r"(a+){3}?", r"((a+)b){3}", r"(?:x\d*){4}"]
)
def test_a_group_with_unbounded_repetition_repeated_several_times_is_flagged(pattern: str) -> None:
    assert reason(pattern) == FIXED_COUNT


@pytest.mark.parametrize(
    "pattern", [r"(a+){1}", r"(a+){1,1}", r"(a+){0}", r"(a+)?", r"(a+)??", r"(ab){5}", r"(a|b){9}", r"[a-z]{2}"]
)
def test_a_group_repeated_once_or_without_unbounded_repetition_inside_is_not_flagged(pattern: str) -> None:
    assert backtracking_risk(pattern) is None


# -- safe shapes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pattern",
    [
        r"^[a-z0-9]+(-[a-z0-9]+)*$",
        r"(\d+\.)*\d+",
        r"(-[a-z]+)*",
        r"^\p{L}+(-\p{L}+)*$",
        r"^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$",
        r"^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$",
        r"^(a+b+)+$",
        r"(ba+)+",
        r"a+",
        r"^a*b*c+$",
        r"\d{3}-\d{4}",
        r"^\d{4}-\d{2}-\d{2}$",
        r"cat|dog|bird",
        r"(a|b)",
        r"^$",
        r".",
        r".*",
        r"^\bword\b$",
    ],
)
def test_ordinary_patterns_are_not_flagged(pattern: str) -> None:
    assert backtracking_risk(pattern) is None


@pytest.mark.parametrize("pattern", [r"(?=a+)", r"(?!x)", r"(?<=a)", r"(?<!b)", r"^(?=\d)\d+(?!\.)$", r"((?=b)a|b)+"])
def test_lookarounds_are_skipped(pattern: str) -> None:
    assert backtracking_risk(pattern) is None


@pytest.mark.parametrize(
    ("flagged", "safe"),
    [
        (r"(\w+\d)*", r"(\w+\W)*"),
        (r"(\D+a)*", r"(\d+\D)*"),
        (r"(\s+ )*", r"(\s+\S)*"),
        (r"(\S+a)*", r"(\S+\s)*"),
        (r"(\W+\.)*", r"(\w+\.)*"),
    ],
)
def test_class_escapes_stand_for_their_character_sets(flagged: str, safe: str) -> None:
    assert reason(flagged) == NESTED
    assert backtracking_risk(safe) is None


@pytest.mark.parametrize(
    ("flagged", "safe"),
    [
        (r"([a-z-]+-)*", r"([a-z]+-)*"),  # a dash before ] is a member
        (r"([-a]+-)*", r"([a]+-)*"),  # so is a leading dash
        (r"([^a]+-)*", r"([^-]+-)*"),  # negation excludes exactly its members
        (r"([\]a]+a)*", r"([\]]+a)*"),  # an escaped ] is a member, not the end of the class
        (r"([a-z]+b)*", r"([a\-z]+b)*"),  # an escaped dash is no range
        (r"([\d-z]+-)*", r"([\d]+-)*"),  # a class escape does not start a range
    ],
)
def test_character_classes_are_read_member_by_member(flagged: str, safe: str) -> None:
    assert reason(flagged) == NESTED
    assert backtracking_risk(safe) is None


def test_anchors_are_ignored_and_a_dot_is_any_character() -> None:
    assert reason(r"^(.+x)*$") == NESTED
    assert reason(r"(^a+)+") == NESTED  # an anchor matches no character: the body still starts with a
    assert reason(r"(.|é)+") == OVERLAPPING
    assert reason(r"^(x.)*$") is None


# -- malformed patterns ----------------------------------------------------------------------------


@pytest.mark.parametrize("pattern", ["(", "(a+", "((a)+", "a\\", "\\", "[abc", ")", "(a))", "a)+", "(?<n", "\\u{zz}"])
def test_a_malformed_pattern_gives_no_reason_instead_of_raising(pattern: str) -> None:
    assert backtracking_risk(pattern) is None


# -- the parser ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "members"),
    [
        ("[abc]", [(97, 99)]),
        ("[a-d]", [(97, 100)]),
        ("[a-c-e]", [(45, 45), (97, 99), (101, 101)]),
        ("[a-]", [(45, 45), (97, 97)]),
        ("[\\d-z]", [(45, 45), (48, 57), (122, 122)]),
        ("[\\]]", [(93, 93)]),
        ("[\\b]", [(8, 8)]),
        ("[]", []),
        ("[^]", [(0, 0x10FFFF)]),
        ("[^\\x00-\\u{10FFFF}]", []),
        ("\\cJ", [(10, 10)]),
        ("\\u{1F600}", [(0x1F600, 0x1F600)]),
        ("\\uD83D\\uDE00", [(0x1F600, 0x1F600)]),
        ("😀", [(0x1F600, 0x1F600)]),
        (".", [(0, 9), (11, 12), (14, 0x2027), (0x202A, 0x10FFFF)]),
    ],
)
def test_the_parser_reads_classes_and_escapes_as_the_code_points_they_match(
    pattern: str, members: list[tuple[int, int]]
) -> None:
    node = _Parser(pattern).parse()
    assert node.kind == "seq"
    assert list(node.items[0].chars) == members


def test_a_quantifier_after_a_unicode_property_escape_repeats_the_whole_escape() -> None:
    risk = analyse_pattern(r"^(x\p{L}+)+$")
    assert risk is not None
    assert risk.sub_pattern == r"(x\p{L}+)+"
