"""The code table: every finding code's name, severity and summary."""

from __future__ import annotations

import re

from json_contracts.findings.catalogue import CATALOGUE


def test_the_code_table_gives_each_code_a_name_a_known_severity_and_a_summary() -> None:
    for code, entry in CATALOGUE.items():
        assert entry.code == code
        assert re.fullmatch(r"JC[0123]\d\d", code)
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", entry.name)
        assert entry.severity in ("error", "warning", "info")
        assert entry.summary.endswith(".")
    assert len({entry.name for entry in CATALOGUE.values()}) == len(CATALOGUE)


def test_info_codes_are_exactly_the_example_coverage_rules() -> None:
    assert {c for c, e in CATALOGUE.items() if e.severity == "info"} == {"JC130", "JC131", "JC132"}
