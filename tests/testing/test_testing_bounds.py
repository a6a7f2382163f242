"""The property checks are bounded by the schema's size, not by its numbers, and by a time budget.

A 600-byte contract used to cost gigabytes (a ``maxLength + 1`` string built for a mutation),
minutes ending in a false "unsatisfiable" (``minItems: 100000``) or a crash (a tiny ``multipleOf``,
a huge ``minLength``); one check that raised something other than an ``Exception`` (a Rust panic)
lost every result. Each test here failed before its fix.
"""

from __future__ import annotations

import json
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from json_contracts.contracts.loading import contract_from_text
from json_contracts.contracts.model import Contract
from json_contracts.testing import checks as checks_module
from json_contracts.testing.checks import CHECK_IDS, RunOptions, run_check, run_checks
from json_contracts.testing.harness import CheckFailure, OutOfTime, explore
from json_contracts.testing.mutations import MAX_BUILT_SIZE, mutations
from json_contracts.testing.results import MAX_DOCUMENT_LINES, document_lines
from json_contracts.testing.strategies import MAX_DRAWN_SIZE, from_schema

FAST = RunOptions(max_examples=10, seed=7)


def _contract(tmp_path: Path, value_schema: dict[str, Any], name: str = "hostile") -> Contract:
    schema = {"type": "object", "properties": {"v": value_schema}, "required": ["v"]}
    path = tmp_path / f"{name}.json"
    text = json.dumps({"schema": schema})
    path.write_text(text, encoding="utf-8")
    return contract_from_text(name, text, path)


# --- mutations are built only up to a size ---------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "document", "kind", "keyword"),
    [
        ({"type": "string", "maxLength": 10**8}, "ok", "string too long", "maxLength 100000000 at /"),
        ({"type": "array", "maxItems": 10**8}, [1], "too many items", "maxItems 100000000 at /"),
    ],
)
def test_a_mutation_over_the_cap_is_named_not_built(
    schema: dict[str, Any], document: Any, kind: str, keyword: str
) -> None:
    tracemalloc.start()
    try:
        found = mutations(schema, document)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert peak < 5 * 2**20  # it was the whole value: 100 MB of "x", or 800 MB of list slots
    assert kind not in {m.kind for m in found}
    assert found.too_large == [f"{kind} ({keyword})"]


def test_a_mutation_within_the_cap_is_still_built() -> None:
    found = mutations({"type": "string", "maxLength": MAX_BUILT_SIZE - 1}, "ok")
    assert [len(m.value) for m in found if m.kind == "string too long"] == [MAX_BUILT_SIZE]
    assert found.too_large == []


def test_repair_hints_says_which_mutation_it_left_out(tmp_path: Path) -> None:
    contract = _contract(tmp_path, {"type": "string", "maxLength": 10**9})

    result = run_check(contract, "repair-hints", FAST)

    assert result.outcome == "passed", result.message
    assert "not built, over 100,000 characters or items: string too long (maxLength 1000000000 at /v)" in result.message


# --- values drawn from a schema's numbers ------------------------------------------------------------


@pytest.mark.parametrize(
    ("value_schema", "keyword", "unit"),
    [
        ({"type": "array", "minItems": 100_000}, "minItems 100000", "items"),
        ({"type": "string", "minLength": 10_000_000}, "minLength 10000000", "characters"),
        ({"type": "object", "minProperties": 100_000}, "minProperties 100000", "properties"),
        ({"type": "array", "contains": {"type": "integer"}, "minContains": 50_000}, "minContains 50000", "items"),
    ],
)
def test_a_size_over_what_can_be_drawn_is_inconclusive_not_unsatisfiable(
    tmp_path: Path, value_schema: dict[str, Any], keyword: str, unit: str
) -> None:
    contract = _contract(tmp_path, value_schema)
    started = time.monotonic()

    results = run_checks(contract, FAST, ["satisfiable", "samples-valid", "repair-hints", "edit"])

    assert time.monotonic() - started < 60  # minItems 100000 took 11 minutes, minLength crashed
    name = keyword.split()[0]
    for result in results:
        assert result.outcome == "inconclusive", (result.check, result.message)
        assert f"{keyword} at /properties/v/{name} asks for more than the {MAX_DRAWN_SIZE:,} {unit}" in result.message
        assert result.pointer == f"/schema/properties/v/{name}"
        assert result.finding(contract).severity == "warning"


def test_a_size_within_what_can_be_drawn_is_still_drawn(tmp_path: Path) -> None:
    contract = _contract(tmp_path, {"type": "string", "minLength": 200})
    assert run_check(contract, "samples-valid", FAST).outcome == "passed"


@pytest.mark.parametrize(
    "value_schema",
    [
        {"type": "number", "multipleOf": 1e-300},
        {"type": "integer", "multipleOf": 1e-300},
        {"type": "number", "multipleOf": 5e-324},
        {"type": "number", "multipleOf": 1e300},
        {"type": "integer", "multipleOf": 1e300, "minimum": -1e301},
        {"type": "number", "multipleOf": 1e-300, "exclusiveMinimum": 1, "maximum": 2},
    ],
)
def test_a_hostile_multiple_of_draws_valid_numbers_instead_of_crashing(
    tmp_path: Path, value_schema: dict[str, Any]
) -> None:
    contract = _contract(tmp_path, value_schema)

    results = run_checks(contract, FAST, ["satisfiable", "samples-valid", "edit"])

    assert [r.outcome for r in results] == ["passed", "passed", "passed"], [r.message for r in results]


def test_a_hostile_multiple_of_gives_whole_numbers_for_an_integer() -> None:
    from hypothesis import given, settings

    drawn: list[Any] = []

    @settings(max_examples=30, database=None)
    @given(from_schema({"type": "integer", "multipleOf": 0.5e-300, "minimum": -(2**60)}))
    def collect(value: Any) -> None:
        drawn.append(value)

    collect()
    assert drawn
    assert all(isinstance(v, int) for v in drawn)


# --- the time budget ----------------------------------------------------------------------------------


def test_a_check_that_runs_out_of_time_is_inconclusive_and_says_what_ran_out(tmp_path: Path) -> None:
    # 30 keys drawn one random name at a time: the satisfiable search took about 100 s.
    contract = _contract(tmp_path, {"type": "object", "minProperties": 30})
    started = time.monotonic()

    results = run_checks(contract, RunOptions(max_examples=200, seed=3, time_budget=2))

    assert time.monotonic() - started < 40
    assert {r.outcome for r in results} <= {"passed", "skipped", "inconclusive"}, [r.message for r in results]
    late = [r for r in results if r.outcome == "inconclusive"]
    assert late, [r.message for r in results]
    assert all("the contract's time budget (2 s) ran out" in r.message for r in late)
    assert all("--timeout" in r.message and "JSON_CONTRACTS_TEST_TIMEOUT" in r.message for r in late)


def test_a_budget_already_spent_runs_nothing_but_the_examples(tmp_path: Path) -> None:
    contract = _contract(tmp_path, {"type": "string"})
    spent = RunOptions(max_examples=10, seed=1, time_budget=5, deadline=time.monotonic() - 1)

    results = {r.check: r for r in run_checks(contract, spent)}

    assert results["satisfiable"].outcome == "inconclusive"
    assert results["satisfiable"].message.startswith(
        "the contract's time budget (5 s) ran out before it could try a document"
    )
    assert results["examples"].outcome == "skipped"  # no Hypothesis: it needs no budget


def test_a_failure_found_before_the_deadline_is_kept_even_if_shrinking_is_cut_short() -> None:
    from hypothesis import strategies as st

    calls: list[int] = []

    def body(value: int) -> None:
        calls.append(value)
        if value > 10:
            time.sleep(0.05)
            raise CheckFailure("too big")

    outcome = explore(
        st.integers(0, 10**9), body, RunOptions(max_examples=500, seed=1, deadline=time.monotonic() + 0.3)
    )

    assert outcome.failure is not None
    assert outcome.failure.message == "too big"
    assert isinstance(outcome.counterexample, int)
    assert outcome.counterexample > 10
    assert outcome.cut_short


def test_out_of_time_with_nothing_found_raises_with_the_count() -> None:
    from hypothesis import strategies as st

    def body(value: int) -> None:
        time.sleep(0.01)

    with pytest.raises(OutOfTime) as stopped:
        explore(st.integers(), body, RunOptions(max_examples=10_000, seed=1, deadline=time.monotonic() + 0.2))
    assert 0 < stopped.value.examples < 10_000


# --- a crash loses nothing but its own result ----------------------------------------------------------


class PanicException(BaseException):
    """What pyo3 raises for a Rust panic (rpds, referencing): a BaseException, not an Exception."""


@pytest.mark.parametrize(
    "error",
    [PanicException("called `Option::unwrap()` on a `None` value"), RecursionError("deep"), MemoryError()],
    ids=["panic", "recursion", "memory"],
)
def test_a_crash_in_one_check_is_a_failed_result_and_the_others_still_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    def crash(contract: Contract, options: RunOptions) -> Any:
        raise error

    monkeypatch.setitem(checks_module._CHECKS, "samples-valid", crash)
    contract = _contract(tmp_path, {"type": "string"}, name="crashing")

    results = {r.check: r for r in run_checks(contract, FAST)}

    assert list(results) == list(CHECK_IDS)
    crashed = results["samples-valid"]
    assert crashed.outcome == "failed"
    assert crashed.contract == "crashing"
    if isinstance(error, PanicException):
        assert crashed.message == (
            "the check itself crashed (PanicException: called `Option::unwrap()` on a `None` value) on contract "
            "'crashing'; please report this with the contract"
        )
    assert results["satisfiable"].outcome == "passed"
    assert results["hashes"].outcome == "passed"


def test_ctrl_c_still_stops_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(contract: Contract, options: RunOptions) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setitem(checks_module._CHECKS, "satisfiable", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_check(_contract(tmp_path, {"type": "string"}), "satisfiable", FAST)


def test_a_crash_message_is_one_bounded_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(contract: Contract, options: RunOptions) -> Any:
        raise ValueError("line one\nline two " + "x" * 10_000)

    monkeypatch.setitem(checks_module._CHECKS, "edit", crash)
    result = run_check(_contract(tmp_path, {"type": "string"}), "edit", FAST)

    assert "\n" not in result.message
    assert len(result.message) < 700
    assert result.message.startswith("the check itself crashed (ValueError: line one line two xxx")


# --- what a report shows of a document ------------------------------------------------------------------


def test_a_document_in_a_report_is_cut_to_a_readable_size() -> None:
    lines = document_lines("document", {"items": list(range(10_000)), "text": "y" * 100_000})

    assert len(lines) == 1 + MAX_DOCUMENT_LINES + 1
    assert lines[-1].endswith("more lines")
    assert max(len(line) for line in lines) < 1_000
