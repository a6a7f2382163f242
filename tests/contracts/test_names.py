"""Contract names: the safe-name rule and the listing order (JavaScript's ``localeCompare``)."""

from __future__ import annotations

import random

import pytest

from json_contracts.contracts.names import (
    CONTRACT_NAME_PATTERN,
    collation_key,
    is_safe_name,
    name_from_filename,
    name_rule_hint,
    suggested_name,
)
from tests.support.cli import STARTER_FILES


@pytest.mark.parametrize("name", ["support-ticket", "a.b.c", "A_b-C", "1x", "a", "Z9", "a.", "x-_.y"])
def test_safe_names_are_accepted(name: str) -> None:
    assert is_safe_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "bad name",
        ".hidden",
        "-dash",
        "_x",
        "a..b",
        "café",
        "",
        "../x",
        "foo..bar",
        "a/b",
        "a\\b",
        "abc\n",
        "\nabc",
        "abc\r",
        "x\u0661",  # an Arabic-Indic digit is not [0-9]
        "\uff41",  # a full-width letter is not [A-Za-z]
    ],
)
def test_unsafe_names_are_rejected(name: str) -> None:
    assert not is_safe_name(name)


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("über", "uber"),
        ("café", "cafe"),
        ("bad name", "bad-name"),
        ("_x", "x"),
        ("-dash", "dash"),
        (".hidden", "hidden"),
        ("a..b", "a.b"),
        ("a/b", "a-b"),
        ("", "contract"),
        ("日本", "contract"),
        ("ok", "ok"),
    ],
)
def test_an_unsafe_name_gets_a_safe_suggestion(name: str, suggestion: str) -> None:
    assert suggested_name(name) == suggestion
    assert is_safe_name(suggestion)


def test_the_name_hint_states_the_rule_and_suggests_a_file_name() -> None:
    assert name_rule_hint("über") == (
        "a contract name (the file name without .json) uses only ASCII letters, digits, '.', '_' and '-', starts "
        "with a letter or digit, and never contains '..'; rename the file, e.g. to uber.json"
    )


def test_published_pattern_is_the_original_js_regex() -> None:
    assert CONTRACT_NAME_PATTERN == r"^(?!.*\.\.)(?!.*[\\/])[A-Za-z0-9][A-Za-z0-9._-]*$"


@pytest.mark.parametrize(
    ("filename", "name"),
    [("support-ticket.json", "support-ticket"), (".json", ""), ("a.json.json", "a.json"), ("README", "README")],
)
def test_contract_name_is_the_file_name_without_json(filename: str, name: str) -> None:
    assert name_from_filename(filename) == name


_ORDER = ["_x", "1", "a", "A", "a_b", "a--b", "a-b", "a-c", "a.b", "a0", "ab", "aB", "Ab", "ac", "b"]


def test_names_sort_in_icu_collation_order() -> None:
    shuffled = _ORDER[:]
    random.Random(7).shuffle(shuffled)
    assert sorted(shuffled, key=collation_key) == _ORDER
    assert sorted(_ORDER, key=collation_key, reverse=True) == _ORDER[::-1]


def test_init_listing_puts_license_between_legal_and_patient_contracts() -> None:
    listing = list(STARTER_FILES)
    assert sorted(sorted(listing), key=collation_key) == listing


def test_lowercase_file_sorts_before_its_uppercase_twin() -> None:
    assert sorted(["Dup.json", "dup.json"], key=collation_key) == ["dup.json", "Dup.json"]
    assert sorted(["Duplicate.json", "duplicate.json"], key=collation_key) == ["duplicate.json", "Duplicate.json"]


def test_names_with_spaces_and_accents_sort_as_icu_does() -> None:
    assert sorted(["badschema.json", "bad name.json"], key=collation_key) == ["bad name.json", "badschema.json"]
    assert sorted(["cafz.json", "café.json"], key=collation_key) == ["café.json", "cafz.json"]
    assert sorted(["cafe.json", "cafè.json", "Cafe.json", "café.json"], key=collation_key)[0] == "cafe.json"
