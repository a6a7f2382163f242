"""The six property checks: the starter set passes them all; each deliberately broken contract fails its own."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import json_contracts.testing.checks as checks_module
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import Contract
from json_contracts.contracts.starter import starter_files
from json_contracts.testing.checks import CHECK_IDS, RunOptions, example_refs, run_check, run_checks, run_example
from tests.support.samples import COUPLED

FAST = RunOptions(max_examples=15, derandomize=True)
STARTER = load_contracts(Path(str(starter_files()[0])).parent)


def _contract(tmp_path: Path, body: dict[str, Any], name: str = "thing") -> Contract:
    folder = tmp_path / "json-contracts"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(body, indent=2), encoding="utf-8")
    result = load_contracts(folder)
    assert not result.failures, result.failures
    return result.contracts[name]


@pytest.mark.parametrize("name", sorted(STARTER.contracts))
def test_every_starter_contract_passes_every_check(name: str) -> None:
    results = run_checks(STARTER.contracts[name], FAST)
    assert [r.check for r in results] == list(CHECK_IDS)
    assert [(r.check, r.outcome, r.message) for r in results if r.outcome != "passed"] == []


def test_satisfiable_fails_with_a_static_proof_at_the_sub_schema(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "enum": ["a"]}}, "required": ["n"]}
    contract = _contract(tmp_path, {"schema": schema})
    result = run_check(contract, "satisfiable", FAST)
    assert result.outcome == "failed"
    assert result.pointer == "/schema/properties/n/enum"
    assert "no enum value satisfies the other keywords" in result.message
    assert result.finding(contract).code == "JC201"


def test_satisfiable_fails_when_no_document_can_be_drawn_and_names_the_keyword(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^a{10}$", "maxLength": 5}},
              "required": ["code"]}  # fmt: skip
    contract = _contract(tmp_path, {"schema": schema})
    result = run_check(contract, "satisfiable", FAST)
    assert result.outcome == "failed"
    assert "mostly by maxLength at /properties/code/maxLength" in result.message
    finding = result.finding(contract)
    assert (finding.line, finding.pointer) == (8, "/schema/properties/code/maxLength")


@pytest.mark.parametrize("check", ["satisfiable", "samples-valid", "repair-hints", "edit"])
def test_crossed_string_lengths_fail_the_checks_cleanly_instead_of_crashing_them(tmp_path: Path, check: str) -> None:
    # Hypothesis refuses max_size < min_size; the checks used to report "the check itself crashed".
    schema = {"type": "object", "properties": {"a": {"type": "string", "minLength": 5, "maxLength": 2}},
              "required": ["a"]}  # fmt: skip
    result = run_check(_contract(tmp_path, {"schema": schema}), check, FAST)
    assert "crashed" not in result.message
    assert result.outcome in ("failed", "skipped")
    if check == "satisfiable":
        assert result.outcome == "failed"
        assert result.message.startswith("no valid document found")


def test_samples_valid_fails_on_heavy_filtering_with_the_keyword_to_blame(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 1000}},
              "required": ["n"], "not": {"properties": {"n": {"maximum": 990}}}}  # fmt: skip
    contract = _contract(tmp_path, {"schema": schema})
    assert run_check(contract, "satisfiable", FAST).outcome == "passed"
    result = run_check(contract, "samples-valid", FAST)
    assert result.outcome == "failed"
    assert "heavy filtering" in result.message
    assert "the schema makes most candidates fail not at /not (" in result.message
    assert "narrow it there" in result.message
    assert result.rejected_share is not None
    assert result.rejected_share > 0.5
    assert result.pointer == "/schema/not"


def test_examples_fail_on_an_edit_example_whose_current_json_is_invalid(tmp_path: Path) -> None:
    contract = _contract(tmp_path, {
        "schema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        "operations": {"edit": {"enabled": True, "examples": [
            {"currentJson": {"a": "fine"}, "input": "x", "output": {"a": "y"}},
            {"currentJson": {"a": 1}, "input": "x", "output": {"a": "y"}},
        ]}},
    })  # fmt: skip
    refs = example_refs(contract)
    assert [r.id for r in refs] == ["edit.example[0]", "edit.example[1]"]
    assert run_example(contract, refs[0]).outcome == "passed"
    failed = run_example(contract, refs[1])
    assert failed.outcome == "failed"
    assert failed.pointer == "/operations/edit/examples/1/currentJson/a"
    assert "error: /a must be string (type)" in failed.details
    aggregate = run_check(contract, "examples", FAST)
    assert aggregate.outcome == "failed"
    # It used to say "1 of 2 examples does not validate; first: ...", as if an output had failed.
    assert aggregate.message == (
        "currentJson of operations.edit.examples[1] does not validate against the schema (1 of 2 examples)"
    )
    assert aggregate.pointer == failed.pointer
    assert aggregate.details == failed.details


def test_the_examples_check_names_each_failing_current_json_and_counts_past_five(tmp_path: Path) -> None:
    bad = {"currentJson": {"a": 1}, "input": "x", "output": {"a": "y"}}
    contract = _contract(tmp_path, {
        "schema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        "examples": [{"input": "x", "output": {"a": "y"}}],
        "operations": {"edit": {"examples": [bad] * 7}},
    })  # fmt: skip

    result = run_check(contract, "examples", FAST)

    named = ", ".join(f"currentJson of operations.edit.examples[{i}]" for i in range(5))
    assert result.message == (
        f"{named} and 2 more do not validate against the schema (7 of 8 examples; the first is shown)"
    )
    assert result.pointer == "/operations/edit/examples/0/currentJson/a"


def test_messages_agree_with_their_numbers(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    one = _contract(tmp_path, {"schema": schema, "examples": [{"input": "x", "output": {"a": "y"}}]}, "one")
    two = _contract(tmp_path, {"schema": schema, "examples": [{"input": "x", "output": {"a": "y"}}] * 2}, "two")
    single = RunOptions(max_examples=1, derandomize=True)

    assert run_check(one, "examples", FAST).message == "1 example validates"
    assert run_check(two, "examples", FAST).message == "2 examples validate"
    assert run_check(one, "samples-valid", single).message.startswith("1 drawn document validates (")
    assert run_check(one, "hashes", single).message == "hashes stable across 1 layout"
    assert run_check(one, "edit", single).message == "edit payload built for 1 document"


def test_repair_hints_on_an_unsatisfiable_schema_say_nothing_could_be_drawn(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^a{10}$", "maxLength": 5}},
              "required": ["code"]}  # fmt: skip
    contract = _contract(tmp_path, {"schema": schema})

    result = run_check(contract, "repair-hints", FAST)

    assert result.outcome == "skipped"
    assert result.message.startswith("no valid document could be drawn")
    assert "unsatisfiable" in result.message
    assert "no mutation" not in result.message
    assert run_check(contract, "satisfiable", FAST).outcome == "failed"  # where the schema's problem is reported


def test_repair_hints_fail_when_following_them_cannot_fix_the_document(tmp_path: Path) -> None:
    # b must be 1 whenever a is present, but the hint for a missing b only says "add it".
    schema = copy.deepcopy(COUPLED["schema"])
    contract = _contract(tmp_path, {"schema": schema})
    result = run_check(contract, "repair-hints", FAST)
    assert result.outcome == "failed"
    assert "does not make the document valid" in result.message
    assert "broken document:" in result.details
    assert any("must be equal to constant" in line for line in result.details)


def test_edit_fails_when_the_payload_cannot_be_built(tmp_path: Path) -> None:
    contract = _contract(tmp_path, {"schema": {"type": "object"},
                                    "operations": {"edit": {"enabled": True, "return": "json_patch"}}})  # fmt: skip
    result = run_check(contract, "edit", FAST)
    assert result.outcome == "failed"
    assert "must return full_object" in result.message
    assert result.pointer == "/operations/edit"


def test_edit_is_skipped_when_disabled(tmp_path: Path) -> None:
    contract = _contract(tmp_path, {"schema": {"type": "object"}, "operations": {"edit": {"enabled": False}}})
    result = run_check(contract, "edit", FAST)
    assert (result.outcome, result.message) == ("skipped", "the edit operation is disabled")


def test_hashes_fail_when_hashing_depends_on_key_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def order_sensitive(value: Any) -> str:
        return hashlib.sha256(json.dumps(value).encode()).hexdigest()

    monkeypatch.setattr("json_contracts.contracts.model.sha256_of", order_sensitive)
    monkeypatch.setattr("json_contracts.contracts.loading.sha256_of", order_sensitive)
    contract = _contract(tmp_path, {"description": "x", "rules": ["r"], "schema": {"type": "object",
                         "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}})  # fmt: skip
    result = run_check(contract, "hashes", FAST)
    assert result.outcome == "failed"
    assert "changed from" in result.message


def test_hashes_hold_for_a_contract_with_unicode_and_numbers(tmp_path: Path) -> None:
    contract = _contract(tmp_path, {"description": "Caf\u00e9 \U0001f600", "schema": {"type": "number", "maximum": 1e21,
                                    "minimum": 0.1, "multipleOf": 0.1}})  # fmt: skip
    assert run_check(contract, "hashes", FAST).outcome == "passed"


def test_a_seed_makes_a_failing_run_repeatable(tmp_path: Path) -> None:
    schema = copy.deepcopy(COUPLED["schema"])
    contract = _contract(tmp_path, {"schema": schema})
    first = run_check(contract, "repair-hints", RunOptions(max_examples=15, seed=1234))
    second = run_check(contract, "repair-hints", RunOptions(max_examples=15, seed=1234))
    assert first.seed == second.seed == 1234
    assert (first.outcome, first.details) == (second.outcome, second.details)


def test_a_crash_inside_a_check_is_a_failed_result_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(contract: Contract, options: RunOptions) -> Any:
        raise KeyError("boom")

    monkeypatch.setitem(checks_module._CHECKS, "edit", broken)
    result = run_check(STARTER.contracts["support-ticket"], "edit", FAST)
    assert result.outcome == "failed"
    assert result.message.startswith("the check itself crashed (KeyError: 'boom')")


# --- repair-hints: the repair value comes from every sub-schema that applies (issue 16, item 8) ----


@pytest.mark.parametrize(
    "schema",
    [
        # the key matches a pattern, so additionalProperties (string) does not apply to it
        {"type": "object", "required": ["x-id"], "patternProperties": {"^x-": {"type": "integer"}},
         "additionalProperties": {"type": "string"}},
        # properties and a matching pattern both apply to "x-n"
        {"type": "object", "required": ["x-n"], "properties": {"x-n": {"type": "integer"}},
         "patternProperties": {"^x-": {"minimum": 1000}}},
        # minItems is said by an allOf branch, not by the array's own schema
        {"type": "object", "required": ["list"],
         "properties": {"list": {"type": "array", "items": {"type": "integer"}}},
         "allOf": [{"properties": {"list": {"minItems": 2}}}]},
        # so is contains: "add an item" must add one the contains schema accepts, not redraw the list
        {"type": "object", "required": ["list"], "properties": {"list": {"type": "array", "items": {"type": "string"}}},
         "allOf": [{"properties": {"list": {"minItems": 1, "contains": {"const": "needle in a haystack"}}}}]},
    ],
    ids=["pattern-not-additional", "property-and-pattern", "min-items-in-allOf", "contains-in-allOf"],
)  # fmt: skip
def test_repair_hints_pass_where_the_repair_value_is_drawn_from_every_applicable_schema(
    tmp_path: Path, schema: dict[str, Any]
) -> None:
    contract = _contract(tmp_path, {"schema": schema})
    result = run_check(contract, "repair-hints", RunOptions(max_examples=30, derandomize=True))
    assert (result.outcome, result.details) == ("passed", ()), result.message
