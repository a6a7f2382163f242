"""The code table: every finding code's name, severity and summary."""

from __future__ import annotations

import re

from json_contracts.findings.catalogue import CATALOGUE


def test_the_code_table_gives_each_code_a_name_a_known_severity_and_a_summary() -> None:
    for code, entry in CATALOGUE.items():
        assert entry.code == code
        assert re.fullmatch(r"JC[01234]\d\d", code)
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", entry.name)
        assert entry.severity in ("error", "warning", "info")
        assert entry.summary.endswith(".")
    assert len({entry.name for entry in CATALOGUE.values()}) == len(CATALOGUE)


def test_info_codes_are_exactly_the_example_coverage_rules_and_the_informational_changes() -> None:
    # diff's information (an added contract, new rules) is never a failure; every other code can be
    assert {c for c, e in CATALOGUE.items() if e.severity == "info"} == {
        "JC130",
        "JC131",
        "JC132",
        "JC402",
        "JC441",
        "JC442",
        "JC443",
    }
