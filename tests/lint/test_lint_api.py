"""lint_contract / lint_result as a library: ignore lists, ordering, the starter set, every rule tested."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

from json_contracts import lint_contract as public_lint_contract
from json_contracts import lint_result as public_lint_result
from json_contracts.contracts.loading import load_contracts
from json_contracts.findings.catalogue import CATALOGUE
from json_contracts.lint import RULES, lint_contract, lint_result
from tests.support.lint import ContractMaker, LintOne, WriteFolder

#: Every lint rule code this folder has a triggering and a quiet test for.
TESTED_RULES = {
    "JC101", "JC102", "JC103", "JC104", "JC110", "JC111", "JC112", "JC113", "JC114", "JC115", "JC116",
    "JC117", "JC118", "JC119", "JC120", "JC121", "JC122", "JC123", "JC124", "JC125", "JC126", "JC130",
    "JC131", "JC132", "JC133", "JC134",
}  # fmt: skip


def _noisy(quiet: ContractMaker) -> dict[str, Any]:
    """A contract with one warning (JC104), one error (JC113, on the 5) and two info (JC131, JC130 for "y")."""
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string", "enum": ["x", 5, "y"]}, "b": {"type": "string"}},
        "required": ["a"],
    }
    return quiet(schema, {"a": "x"})


def test_every_lint_rule_code_in_the_code_table_has_tests_here() -> None:
    lint_codes = {code for code in CATALOGUE if re.fullmatch(r"JC1\d\d", code)}
    assert lint_codes == TESTED_RULES


def test_lint_contract_reports_every_severity_in_rule_order(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(_noisy(quiet))

    assert linted.codes == ["JC104", "JC113", "JC131", "JC130"]
    assert [f.severity for f in linted.findings] == ["warning", "error", "info", "info"]


def test_lint_contract_drops_ignored_codes(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(_noisy(quiet), ignore=["JC104", "JC131"])

    assert linted.codes == ["JC113", "JC130"]


def test_lint_contract_ignores_nothing_for_codes_that_did_not_fire(lint_one: LintOne, quiet: ContractMaker) -> None:
    full = lint_one(_noisy(quiet))
    again = lint_contract(full.contract, ignore=("JC101", "JC999"))

    assert [f.code for f in again] == full.codes


def test_lint_result_lints_contracts_in_sorted_order_and_honours_ignore(
    write_folder: WriteFolder, quiet: ContractMaker
) -> None:
    noisy = _noisy(quiet)
    folder = write_folder({"zeta": noisy, "Alpha": noisy, "beta": quiet({"type": "string"}, "x")})
    result = load_contracts(folder)

    findings = lint_result(result, ignore=["JC130"])
    assert [f.contract for f in findings] == ["Alpha", "Alpha", "Alpha", "zeta", "zeta", "zeta"]
    assert "JC130" not in {f.code for f in findings}


def test_lint_functions_are_exported_from_the_package() -> None:
    assert public_lint_contract is lint_contract
    assert public_lint_result is lint_result


def test_every_rule_is_a_named_function() -> None:
    names = [rule.__name__ for rule in RULES]
    assert all(name.startswith("rule_") for name in names)
    assert len(set(names)) == len(names)


def test_every_starter_contract_lints_with_no_finding_at_all() -> None:
    with resources.as_file(resources.files("json_contracts.contracts.starter")) as folder:
        result = load_contracts(Path(folder))
        assert result.failures == []
        assert result.warnings == []
        assert len(result.contracts) == 8
        findings = lint_result(result)

    assert [(f.contract, f.code, f.message) for f in findings] == []
