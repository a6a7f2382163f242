"""Outcomes and failure text on good and deliberately broken contracts."""

from __future__ import annotations

import pytest

from tests.support.plugin import FAST, TINY_IDS, ContractsWriter, position_of
from tests.support.samples import BAD_REPAIR, UNSATISFIABLE, tiny

RUN = ("--json-contracts", "json-contracts", *FAST)


def _outcome(result: pytest.RunResult, item: str) -> str:
    """PASSED/FAILED/SKIPPED of one item, read from ``-v`` output."""
    line = next(line for line in result.outlines if f"::{item} " in line)
    return line.split()[1]


def test_a_good_contract_passes_every_item(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    write_contracts({"tiny.json": tiny()})

    result = pytester.runpytest(*RUN)

    result.assert_outcomes(passed=len(TINY_IDS))


def test_a_file_that_does_not_load_fails_load_skips_its_checks_and_the_others_still_run(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"broken.json": '{\n  "schema": {"type": "object",\n}\n', "tiny.json": tiny()})

    result = pytester.runpytest(*RUN, "-rs")

    result.assert_outcomes(failed=1, skipped=6, passed=len(TINY_IDS))
    result.stdout.fnmatch_lines(["*_ broken: load _*", "json-contracts/broken.json:3:1: JC014 error Invalid JSON: *"])
    assert "SKIPPED [6] json-contracts/broken.json:3: broken.json did not load (JC014); see ::load" in result.outlines


def test_two_files_with_one_name_both_fail_to_load(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    write_contracts({"tiny.json": tiny(), "Tiny.json": tiny()})

    result = pytester.runpytest(*RUN, "-rf")

    result.assert_outcomes(failed=2, skipped=12)
    result.stdout.fnmatch_lines(["FAILED json-contracts/Tiny.json::load *", "FAILED json-contracts/tiny.json::load *"])
    assert result.stdout.str().count("JC010 error Duplicate contract name: tiny.json, Tiny.json") == 2


def test_a_lint_warning_passes_unless_strict(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    open_schema = tiny()["schema"] | {"additionalProperties": True}
    folder = write_contracts({"open.json": tiny(schema=open_schema)})

    lenient = pytester.runpytest(*RUN, "--json-contracts-no-hypothesis", "-v")
    strict = pytester.runpytest(*RUN, "--json-contracts-no-hypothesis", "--json-contracts-strict")

    assert _outcome(lenient, "lint") == "PASSED"
    strict.assert_outcomes(failed=1, passed=4, skipped=5)
    line, column = position_of(folder / "open.json", '"schema": {')  # JC103 points at the object schema
    strict.stdout.fnmatch_lines(
        [
            "*_ open: lint _*",
            f"json-contracts/open.json:{line}:{column + len('schema: ') + 2}: JC103 warning *",
            "0 lint error(s), 1 warning(s) (strict: warnings fail). Fix each finding above; only if one is "
            'deliberate, ignore its code in [tool.json-contracts]: ignore = ["JC103"]',
        ]
    )


def test_a_lint_error_advises_fixing_before_ignoring(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    schema = tiny()["schema"]
    schema["properties"]["title"] = {"type": "string", "minLength": 3, "maxlength": 60}  # a typo, not a choice
    write_contracts({"typo.json": tiny(schema=schema)})

    result = pytester.runpytest(*RUN, "--json-contracts-no-hypothesis", "--json-contracts-strict", "-k", "lint")

    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "maxLength" in text  # the finding says what to write instead
    fix, ignore = text.index("Fix each finding above"), text.index("ignore = [")
    assert fix < ignore  # the advice to fix comes before the way to silence it
    assert "only if one is deliberate" in text[fix:ignore]


def test_strict_and_ignore_come_from_the_projects_json_contracts_table(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"no-examples.json": tiny(examples=[], operations={"edit": {"enabled": False}})})
    pyproject = pytester.path / "pyproject.toml"

    pyproject.write_text("[tool.json-contracts]\nstrict = true\n", encoding="utf-8")
    failing = pytester.runpytest(*RUN, "--json-contracts-no-hypothesis")
    pyproject.write_text('[tool.json-contracts]\nstrict = true\nignore = ["JC101"]\n', encoding="utf-8")
    passing = pytester.runpytest(*RUN, "--json-contracts-no-hypothesis")

    failing.assert_outcomes(failed=1, passed=1, skipped=5)
    failing.stdout.fnmatch_lines(["json-contracts/no-examples.json:1:1: JC101 warning Contract has no examples.*"])
    passing.assert_outcomes(passed=2, skipped=5)


def test_an_invalid_edit_example_fails_its_item_with_position_document_errors_and_hints(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    contract = tiny()
    contract["operations"]["edit"]["examples"][0]["currentJson"]["priority"] = "urgent"
    folder = write_contracts({"tiny.json": contract})

    # Only the example items: lint has its own rule for this mistake (JC133), tested in tests/lint.
    result = pytester.runpytest(*RUN, "--json-contracts-no-hypothesis", "-k", "example")

    result.assert_outcomes(failed=1, passed=2)
    line, column = position_of(folder / "tiny.json", '"urgent"')
    result.stdout.fnmatch_lines(
        [
            "*_ tiny: edit.example?0? _*",
            f"json-contracts/tiny.json:{line}:{column}: JC203 error edit.example[0]: "
            "operations.edit.examples[0].currentJson does not validate against the schema",
            "currentJson:",
            "  {",
            '    "title": "Printer down",',
            '    "priority": "urgent"',
            "  }",
            "error: /priority must be equal to one of the allowed values (enum)",
            "hint: Set /priority to one of: low, high.",
            "*= short test summary info =*",
        ]
    )


def test_no_plugin_traceback_in_failures(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    write_contracts({"unsat.json": UNSATISFIABLE, "broken.json": "{"})

    result = pytester.runpytest(*RUN, "--tb=long")

    text = result.stdout.str()
    assert "FAILED json-contracts/unsat.json::satisfiable" in text
    for internal in ("Traceback", "items.py", "ContractFailure", "def runtest", "json_contracts/"):
        assert internal not in text


def test_an_unsatisfiable_schema_fails_satisfiable_and_samples_valid(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    folder = write_contracts({"unsat.json": UNSATISFIABLE})

    result = pytester.runpytest(*RUN, "-v", "-rs")

    assert _outcome(result, "satisfiable") == "FAILED"
    assert _outcome(result, "samples-valid") == "FAILED"
    assert _outcome(result, "edit") == "SKIPPED"
    line, column = position_of(folder / "unsat.json", '"maxLength": 5')
    result.stdout.fnmatch_lines(
        [
            f"json-contracts/unsat.json:{line}:{column + len('maxLength: ') + 2}: JC201 error satisfiable: "
            "no valid document found (*maxLength*",
            "seed *: repeat with --json-contracts-seed *",
        ]
    )
    result.stdout.fnmatch_lines(["*JC202 error samples-valid: no document could be drawn*"])
    line = position_of(folder / "unsat.json", '"edit": {')[0]
    assert f"SKIPPED [1] json-contracts/unsat.json:{line}: the edit operation is disabled" in result.outlines


def test_repairs_that_cannot_work_fail_repair_hints(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"repair.json": BAD_REPAIR})

    # Most drawn documents expose the problem: with 50 of them a passing run is vanishingly rare
    # (measured: 59 of 60 seeds fail with 10, all 60 with 25).
    result = pytester.runpytest(*RUN, "-v", "--json-contracts-max-examples", "50")

    assert _outcome(result, "repair-hints") == "FAILED"
    result.assert_outcomes(failed=1, passed=6, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "json-contracts/repair.json:*: JC204 error repair-hints: following the repairs for * does not make "
            "the document valid",
            "broken document:",
            "error: /b must have required property 'b' (required)",
            "hint: Add missing required field /b.",
            "after following the repairs:",
            "error: /b must be equal to constant (const)",
        ]
    )


def test_an_entry_the_loader_skips_is_a_skipped_load_item_and_fails_when_strict(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    folder = write_contracts({"tiny.json": tiny()})
    write_contracts({"real.json": tiny()}, folder="elsewhere")
    (folder / "linked.json").symlink_to(pytester.path / "elsewhere" / "real.json")

    lenient = pytester.runpytest(*RUN, "--json-contracts-no-hypothesis", "-rs", "json-contracts/linked.json")
    strict = pytester.runpytest(
        *RUN, "--json-contracts-no-hypothesis", "--json-contracts-strict", "json-contracts/linked.json"
    )

    lenient.assert_outcomes(skipped=7)
    lenient.stdout.fnmatch_lines(
        [
            "SKIPPED ?1? json-contracts/linked.json:1: "
            "json-contracts/linked.json:1:1: JC001 warning Skipped symbolic link *"
        ]
    )
    strict.assert_outcomes(failed=1, skipped=6)
