"""hypothesis-jsonschema's JSON-Schema-Test-Suite corpus, drawn from with the public ``from_schema``.

Each schema: 20 derandomized documents, each accepted by the oracle (jsonschema for the schema's
dialect, with ECMA-262 patterns: see :mod:`tests.corpus.corpus`), or a refusal that names the
schema's own problem; no crash, no false "unsatisfiable", no failed health check. A failure names
the schema, what went wrong and the message.
"""

from __future__ import annotations

import pytest

from tests.corpus.corpus import Case, Drawn, draw, oracle_errors, problems, suite_cases

SUITE = suite_cases()


@pytest.mark.parametrize("case", SUITE, ids=[c.name for c in SUITE])
def test_suite_schema_is_drawn_from_soundly(case: Case) -> None:
    drawn = draw(case.schema)
    found = problems(case, drawn)
    assert not found, f"{case.id} ({case.dialect}, {drawn.outcome}): " + " || ".join(found)


WITNESSED = [c for c in SUITE if c.has_witness]


@pytest.mark.parametrize("case", WITNESSED, ids=[c.name for c in WITNESSED])
def test_a_suite_schema_listed_invalid_but_satisfiable_has_a_valid_witness(case: Case) -> None:
    """The ground truth: hypothesis-jsonschema lists these as invalid, yet the witness validates."""
    assert oracle_errors(case.schema, case.witness) == []


def test_the_oracle_reads_patterns_as_ecma_262() -> None:
    """``\\d`` is ASCII in ECMA-262 (Python's ``re`` takes Arabic-Indic digits), ``\\p{L}`` works,
    also one level down and in ``patternProperties``/``additionalProperties``."""
    digits = {"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"n": {"pattern": "^\\d+$"}}}
    assert oracle_errors(digits, {"n": "12"}) == []
    assert oracle_errors(digits, {"n": "\u0661\u0662"}) != []
    letters = {"patternProperties": {"^\\p{L}+$": {"type": "integer"}}, "additionalProperties": False}
    assert oracle_errors(letters, {"\u00e9t\u00e9": 1}) == []
    assert oracle_errors(letters, {"a1": 1}) != []
    assert oracle_errors(letters, {"abc": "x"}) != []


def test_the_judge_flags_what_the_corpus_must_never_show() -> None:
    """Each kind of failure the corpus tests look for is reported, with its message."""
    schema = {"type": "integer"}
    satisfiable = Case("suite", "integers", schema)
    assert problems(satisfiable, Drawn("drawn", [1, 2])) == []
    assert "invalid document #1" in problems(satisfiable, Drawn("drawn", [1, "x"]))[0]
    assert "false unsatisfiable" in problems(satisfiable, Drawn("unsatisfiable", message="nothing"))[0]
    assert "health check" in problems(satisfiable, Drawn("health-check", message="filter"))[0]
    assert "crash" in problems(satisfiable, Drawn("crash", message="KeyError: 'a'"))[0]
    warned = Drawn("drawn", [1], warned=["HypothesisDeprecationWarning: no reason"])
    assert problems(satisfiable, warned) == ["warning: HypothesisDeprecationWarning: no reason"]
    assert "refused without naming" in problems(satisfiable, Drawn("refused", message="no"))[0]
    assert problems(satisfiable, Drawn("refused", message="the schema refers to another file: $ref 'a.json'")) == []
    assert problems(satisfiable, Drawn("refused", message="Invalid JSON Schema: /type: bad")) != []
    empty = Case("suite", "nothing", {"not": {}}, satisfiable=False)
    assert problems(empty, Drawn("unsatisfiable")) == []
    assert problems(empty, Drawn("drawn", [1])) != []
