"""Validation is bounded in CPU per document, whatever the schema says.

Every keyword and format check is linear in the value it reads (the cases below took from 38 s to
minutes before), and one document's validation stops at ``JSON_CONTRACTS_VALIDATION_TIMEOUT``
seconds with a ``timeout`` record, so a document that ran out of time is never reported valid.
Time bounds here are generous (10 s where the bug took a minute or more): nothing flakes on a
loaded machine, and nothing passes that used to be quadratic.
"""

from __future__ import annotations

import itertools
import random
import threading
import time
from typing import Any

import pytest
import uri_template
from jsonschema._utils import equal

from json_contracts.errors import EnvironmentVariableError
from json_contracts.schema import budget
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.formats import FORMAT_CHECKER
from json_contracts.schema.validation import ErrorRecord, is_valid, iter_errors, validate

D7 = "draft-07"
D2020 = "2020-12"
GENEROUS = 10.0  # seconds; every case here took a minute or more before


def errors_of(schema: dict[str, Any], instance: Any, dialect: str = D2020, **options: Any) -> list[ErrorRecord]:
    return validate(compile_schema(schema, dialect), instance, **options).errors


def timed(schema: dict[str, Any], instance: Any, dialect: str = D2020) -> tuple[list[ErrorRecord], float]:
    compiled = compile_schema(schema, dialect)
    started = time.monotonic()
    errors = validate(compiled, instance, max_errors=1000).errors
    return errors, time.monotonic() - started


# --- enum and const: JSON equality as jsonschema decides it, in linear time ---------------------

TRICKY: list[Any] = [
    0, 0.0, -0.0, 1, 1.0, -1, 2**53, 2**53 + 1, float(2**53), 1e308, 0.1, True, False, None,
    "", "1", "true", "null", [], {}, [1], [1.0], [True], [None], [[]], [{}], {"a": 1}, {"a": 1.0},
    {"a": True}, {"a": 1, "b": 2}, {"b": 2, "a": 1}, {"a": [1, {"b": False}]}, {"a": [1, {"b": 0}]},
    [1, 2], [2, 1], [1, [2, [3]]], {"": None}, {"1": 1}, ["a", 1], [["b", True]], ["b", 1],
]  # fmt: skip


@pytest.mark.parametrize("keyword", ["enum", "const"])
def test_enum_and_const_keep_json_equality(keyword: str) -> None:
    # The verdict for every pair is jsonschema's `equal`: 1 == 1.0, -0 == 0, true != 1, key order
    # irrelevant, [1] == [1.0] but != [true].
    for value, instance in itertools.product(TRICKY, repeat=2):
        schema = {keyword: [value, "other"] if keyword == "enum" else value}
        expected = equal(value, instance)
        assert is_valid(compile_schema(schema, D2020), instance) is expected, (value, instance)


def test_enum_of_many_values_is_cheap_per_item() -> None:
    # 250 values on 200,000 items: 63 s before (one deep comparison per value per item).
    values = list(range(250))
    errors, seconds = timed({"type": "array", "items": {"enum": values}}, [249] * 200_000)
    assert errors == []
    assert seconds < GENEROUS


def test_enum_of_objects_on_many_items_is_cheap() -> None:
    # 250 objects, 40,000 items equal to the last one, about 1 MiB: 28 s before.
    values = [{"v": i, "w": [i, str(i)]} for i in range(250)]
    errors, seconds = timed({"items": {"enum": values}}, [{"w": [249, "249"], "v": 249.0}] * 40_000)
    assert errors == []
    assert seconds < GENEROUS


def test_enum_still_fails_and_passes_as_before_for_deep_and_odd_values() -> None:
    deep: Any = 1
    for _ in range(60):
        deep = [deep]
    assert errors_of({"enum": [[1], [[2]]]}, deep) == [
        {"path": "", "message": "must be equal to one of the allowed values", "keyword": "enum"}
    ]
    assert errors_of({"enum": [deep]}, deep) == []
    assert errors_of({"enum": [{"a": [1, 2]}]}, {"a": (1, 2)}) == []  # library callers' tuples: the old path


# --- uniqueItems, unevaluatedItems, unevaluatedProperties: linear ----------------------------------


def test_unevaluated_items_after_contains_is_linear() -> None:
    # 100,000 items each evaluated by `contains`: 150 s before (a list searched for every index).
    errors, seconds = timed({"contains": {"type": "integer"}, "unevaluatedItems": False}, list(range(100_000)))
    assert errors == []
    assert seconds < GENEROUS


def test_unevaluated_properties_after_pattern_properties_is_linear() -> None:
    schema = {"allOf": [{"patternProperties": {"^k": {}}}], "unevaluatedProperties": False}
    errors, seconds = timed(schema, {f"k{i}": i for i in range(60_000)})
    assert errors == []
    assert seconds < GENEROUS


def test_unevaluated_properties_reads_patterns_as_ecma_262() -> None:
    # \p{L} is ECMA-262 (Unicode mode); Python's re refused it with a traceback (re.error).
    schema = {"patternProperties": {"^\\p{L}+$": {}}, "unevaluatedProperties": False}
    assert errors_of(schema, {"é": 1, "1": 2}) == [
        {"path": "", "message": "must NOT have unevaluated properties", "keyword": "unevaluatedProperties"}
    ]
    assert errors_of(schema, {"éa": 1}) == []


def test_unevaluated_properties_never_backtracks_unbounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # The key was matched with Python's re, outside the pattern time bound: 2**40 steps.
    monkeypatch.setenv("JSON_CONTRACTS_PATTERN_TIMEOUT", "0.3")
    schema = {"patternProperties": {"^(a|aa)+$": {}}, "unevaluatedProperties": False}
    errors, seconds = timed(schema, {"a" * 40 + "!": 1})
    assert errors[-1] == {
        "path": "",
        "message": "must NOT have unevaluated properties",
        "keyword": "unevaluatedProperties",
    }
    assert seconds < GENEROUS


# --- uri-template: a linear check with the verdicts it had --------------------------------------


@pytest.mark.parametrize(
    ("value", "verdict"),
    [
        ("{" + "a" * 1_000_000 + "}", True),
        ("{a}" * 300_000, True),
        ("{" * 1_000_000, False),
        ("{" + "a," * 500_000 + "a}", True),
        ("{a" + "%41" * 300_000 + "}", True),
        ("{a}" * 300_000 + "}", False),
    ],
    ids=["one-long-variable", "many-expressions", "open-braces", "many-variables", "percent-escapes", "stray-brace"],
)
def test_uri_template_is_checked_in_linear_time(value: str, verdict: bool) -> None:
    # A 1 MiB variable name took 38 s (the name grew one character at a time), open braces longer.
    started = time.monotonic()
    assert FORMAT_CHECKER.conforms(value, "uri-template") is verdict
    assert time.monotonic() - started < GENEROUS


_TEMPLATE_ALPHABET = "{}a_1%4Fg,+#./;?&=!@|:*[]\n 0é-"
_TEMPLATE_CORPUS = [
    "", "a", "{a}", "{}", "{,}", "{a,}", "{a,,b}", "{+a}", "{#a}", "{.a}", "{/a}", "{;a}", "{?a}", "{&a}",
    "{,a}", "{,+a}", "{=a}", "{!a}", "{@a}", "{|a}", "{a:3}", "{a:0}", "{a:00}", "{a:1000}", "{a:}", "{a*}",
    "{a[]}", "{a=b}", "{a=}", "{=}", "{a:3*}", "{a*:3}", "{%41}", "{%4}", "{a%41}", "{a%4}", "{a.b}",
    "{a/b}", "{a\n}", "{a=\n}", "{a=b\nc}", "{\n}", "}{", "{{a}", "{a}}", "a}b", "{a}{b}c", "{ a}", "{a-b}",
    "x{a", "{+}", "{+,}", "{a,b:12,c*}", "{é}", "{_}", "{.}", "{a.}", "{a..b}", "{a;}", "{a&}", "{a/}",
]  # fmt: skip


def test_uri_template_verdicts_are_unchanged() -> None:
    rng = random.Random(6570)
    drawn = ["".join(rng.choices(_TEMPLATE_ALPHABET, k=rng.randint(0, 12))) for _ in range(20_000)]
    drawn += ["{" + "".join(rng.choices(_TEMPLATE_ALPHABET[2:], k=rng.randint(0, 10))) + "}" for _ in range(20_000)]
    for value in _TEMPLATE_CORPUS + drawn:
        assert FORMAT_CHECKER.conforms(value, "uri-template") is uri_template.validate(value), value


# --- the per-document deadline ------------------------------------------------------------------


def _diamond(levels: int, **root: Any) -> dict[str, Any]:
    """Each level is an anyOf of two references to the next: 2**levels paths to a failing leaf."""
    defs: dict[str, Any] = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 2} for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    return {"$ref": "#/$defs/d0", "$defs": defs} if not root else {**root, "$defs": defs}


def _timeout_record(seconds: float) -> ErrorRecord:
    return {"path": "", "message": budget.timeout_record_message(seconds), "keyword": "timeout"}


def test_a_document_that_would_run_for_hours_is_cut_at_the_deadline() -> None:
    started = time.monotonic()
    result = validate(compile_schema(_diamond(40), D2020), 1, max_errors=1000, timeout=0.5)
    assert time.monotonic() - started < GENEROUS
    assert not result.valid
    assert result.errors == [_timeout_record(0.5)]
    assert result.errors[0]["message"].startswith(
        "must be checked within 0.5 s of CPU time; the document was not fully checked"
    )


def test_the_deadline_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JSON_CONTRACTS_VALIDATION_TIMEOUT", "0.4")
    compiled = compile_schema(_diamond(40), D2020)
    assert list(iter_errors(compiled, 1)) == [_timeout_record(0.4)]
    assert not is_valid(compiled, 1)


def test_errors_found_before_the_deadline_are_kept_in_order() -> None:
    schema = _diamond(40, type="array", prefixItems=[{"type": "string"}, {"$ref": "#/$defs/d0"}])
    errors = errors_of(schema, [1, 2], timeout=0.5, max_errors=1000)
    assert errors == [{"path": "/0", "message": "must be string", "keyword": "type"}, _timeout_record(0.5)]


def test_the_timeout_record_survives_the_error_cap() -> None:
    schema = _diamond(40, type="array", prefixItems=[{"type": "string"}] * 3 + [{"$ref": "#/$defs/d0"}])
    errors = errors_of(schema, [1, 2, 3, 4], timeout=0.5, max_errors=3)
    assert [e["keyword"] for e in errors] == ["type", "type", "type", "timeout"]


def test_documents_that_finish_in_time_keep_their_records() -> None:
    schema = {"type": "object", "required": ["a"], "properties": {"b": {"enum": [1, 2]}}}
    assert errors_of(schema, {"b": 3}, timeout=30) == errors_of(schema, {"b": 3})
    assert errors_of(schema, {"b": 3}) == [
        {"path": "/a", "message": "must have required property 'a'", "keyword": "required"},
        {"path": "/b", "message": "must be equal to one of the allowed values", "keyword": "enum"},
    ]


def _burn(cpu_seconds: float) -> None:
    until = time.thread_time() + cpu_seconds
    while time.thread_time() < until:
        pass


def test_a_nested_deadline_never_extends_the_outer_one() -> None:
    with budget.deadline(0.2):
        _burn(0.3)
        with budget.deadline(60), pytest.raises(budget.ValidationTimeout) as raised:
            budget.check()
    assert raised.value.seconds == pytest.approx(0.2)
    budget.check()  # outside every block it never raises


def test_the_deadline_counts_cpu_time_not_waiting() -> None:
    # A busy machine (or a wait, here) slows a document down but never makes it run out of time.
    with budget.deadline(0.2):
        time.sleep(0.3)
        budget.check()
        # at most the age of a shared CPU-clock reading more than the budget, never less
        assert 0.15 < (budget.remaining() or 0) <= 0.2 + budget._SAMPLE_AGE
        _burn(0.25)
        with pytest.raises(budget.ValidationTimeout):
            budget.check()


@pytest.mark.parametrize(("raw", "expected"), [("", 10.0), ("2.5", 2.5), (" 30 ", 30.0)])
def test_the_deadline_variable_is_read(raw: str, expected: float) -> None:
    assert budget.validation_timeout({"JSON_CONTRACTS_VALIDATION_TIMEOUT": raw}) == expected


@pytest.mark.parametrize("raw", ["soon", "-1", "0", "inf", "nan", "1e999"])
def test_a_bad_deadline_variable_is_refused_naming_it(raw: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(EnvironmentVariableError) as raised:
        budget.validation_timeout({"JSON_CONTRACTS_VALIDATION_TIMEOUT": raw})
    assert str(raised.value) == (
        f"JSON_CONTRACTS_VALIDATION_TIMEOUT must be a positive number of seconds, got {raw!r}; unset it for the default"
    )
    monkeypatch.setenv("JSON_CONTRACTS_VALIDATION_TIMEOUT", raw)
    with pytest.raises(EnvironmentVariableError):
        validate(compile_schema({"type": "string"}, D7), "x")


# --- a `$ref` to a resource that names its dialect stays on our keywords --------------------------


def test_a_reference_to_the_root_keeps_our_keywords_and_the_deadline() -> None:
    # jsonschema picks a validator class by `$schema` when it descends into a referenced resource:
    # behind `$ref: "#"` the stock keywords ran (Python's re for `pattern`, unbounded, refusing
    # \p{L} with a traceback; other paths and messages) and the deadline was not checked.
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"child": {"$ref": "#"}, "name": {"type": "string", "pattern": "^\\p{L}+$"}},
        "additionalProperties": False,
    }
    compiled = compile_schema(schema, D2020)
    inner = {"name": "é1", "extra": 1}
    assert validate(compiled, {"child": inner}).errors == [
        {"path": "/child/extra", "message": "must NOT have additional properties", "keyword": "additionalProperties"},
        {"path": "/child/name", "message": 'must match pattern "^\\p{L}+$"', "keyword": "pattern"},
    ]
    assert validate(compiled, {"child": {"child": {"name": "é"}}}).valid
    wide: dict[str, Any] = {"name": "é"}
    for _ in range(40):
        wide = {"child": wide}
    diamond = {
        **schema,
        "properties": {"child": {"anyOf": [{"$ref": "#"}, {"$ref": "#"}]}, "name": {"type": "integer"}},
    }
    assert validate(compile_schema(diamond, D2020), wide, timeout=0.5).errors[-1] == _timeout_record(0.5)


# --- cancellation from another thread ------------------------------------------------------------


def test_a_cancellation_from_another_thread_ends_the_validation_at_its_next_check() -> None:
    """A cancelled MCP request stops its work: the validation ends within moments, not at the deadline."""
    compiled = compile_schema(_diamond(40), D2020)
    handle = budget.Cancellation()
    finished: list[float] = []

    def work() -> None:
        with budget.cancellable(handle):
            began = time.monotonic()
            list(iter_errors(compiled, 1, timeout=60))
            finished.append(time.monotonic() - began)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.2)
    handle.cancel()
    worker.join(10)
    assert not worker.is_alive()
    assert finished
    assert finished[0] < 5


def test_work_started_after_the_cancellation_begins_spent() -> None:
    handle = budget.Cancellation()
    handle.cancel()
    with budget.cancellable(handle):
        assert list(iter_errors(compile_schema(_diamond(40), D2020), 1, timeout=60)) == [_timeout_record(60)]


def test_a_cancellation_handle_left_unused_changes_nothing() -> None:
    with budget.cancellable(budget.Cancellation()):
        assert errors_of({"type": "string"}, 1) == [{"path": "", "message": "must be string", "keyword": "type"}]


# --- one CPU-clock reading for back-to-back documents ------------------------------------------------


class _Clocks:
    """Fake wall and thread-CPU clocks, counting the CPU-clock reads (a system call each)."""

    def __init__(self) -> None:
        self.wall = 1000.0
        self.cpu = 5.0
        self.cpu_reads = 0

    def read_cpu(self) -> float:
        self.cpu_reads += 1
        return self.cpu

    def work(self, seconds: float) -> None:
        """The thread computes for ``seconds`` with the processor to itself."""
        self.wall += seconds
        self.cpu += seconds


@pytest.fixture
def clocks(monkeypatch: pytest.MonkeyPatch) -> _Clocks:
    fake = _Clocks()
    monkeypatch.setattr(budget, "_clock", lambda: fake.wall)
    monkeypatch.setattr(budget, "_cpu_clock", fake.read_cpu)
    monkeypatch.setattr(budget, "_SAMPLE", threading.local())
    return fake


def test_back_to_back_documents_share_one_cpu_clock_reading(clocks: _Clocks) -> None:
    for _ in range(100):  # a hundred small documents, 0.1 ms each
        with budget.deadline(10):
            clocks.work(0.0001)
            budget.check()
    assert clocks.cpu_reads <= 2  # the 50 ms a reading stays fresh covers them all


def test_a_shared_reading_never_cuts_a_document_short(clocks: _Clocks) -> None:
    with budget.deadline(10):
        clocks.work(0.001)
    clocks.work(0.04)  # busy between documents: the reading is 41 ms old when the next one starts
    with budget.deadline(1):
        clocks.work(0.999)
        budget.check()  # 0.999 s of CPU used: not out of time
        clocks.work(0.045)
        with pytest.raises(budget.ValidationTimeout):  # past the budget plus the reading's age
            budget.check()


def test_a_stale_reading_is_taken_again(clocks: _Clocks) -> None:
    with budget.deadline(10):
        pass
    clocks.wall += 5  # idle: the thread used no CPU
    with budget.deadline(1):
        clocks.work(0.9)
        budget.check()
    assert clocks.cpu_reads == 2  # the second deadline read the clock again: the first reading was stale
