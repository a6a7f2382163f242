"""Catastrophic backtracking never stalls validation: patterns that need backtracking run in a killable worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import json_contracts.schema.patterns as patterns
from json_contracts.contracts.loading import load_contracts
from json_contracts.errors import EnvironmentVariableError
from json_contracts.schema.validation import validate

EVIL = "^(a+)+\\1$"  # a backreference: only the backtracking engine can match it
NEAR_MISS = "a" * 40 + "!"  # about 2**40 backtracking steps for the pattern above


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JSON_CONTRACTS_PATTERN_TIMEOUT", "0.3")


def test_a_runaway_match_is_stopped_and_reported(quick: None) -> None:
    with pytest.raises(patterns.PatternTimeout) as caught:
        patterns.search(EVIL, NEAR_MISS)
    assert caught.value.seconds == pytest.approx(0.3)
    # The worker was replaced: the next risky match works, and answers correctly.
    assert patterns.search(EVIL, "aaaa") is True
    assert patterns.search(EVIL, "aab") is False


def test_patterns_the_linear_engine_can_express_are_matched_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object) -> bool:
        raise AssertionError("a pattern RE2 can express must not go to the worker")

    monkeypatch.setattr(patterns._GUARD, "ask", refuse)
    assert patterns.search("^[a-z]+(-[a-z]+)*$", "json-contracts") is True
    assert patterns.search(r"^\d{5}$", "1234") is False
    assert patterns.search("^(a+)+$", NEAR_MISS) is False  # catastrophic for backtracking, linear here


def test_validation_reports_the_runaway_pattern_on_its_value(tmp_path: Path, quick: None) -> None:
    schema = {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": EVIL}},
        "patternProperties": {"^(b+)+\\1$": {"type": "integer"}},
        "additionalProperties": False,
    }
    (tmp_path / "evil.json").write_text(json.dumps({"schema": schema}), encoding="utf-8")
    contract = load_contracts(tmp_path).contracts["evil"]

    errors = validate(contract.compiled, {"code": NEAR_MISS, "b" * 40 + "!": 1}).errors

    key = "/" + "b" * 40 + "!"
    assert [(e["path"], e["keyword"]) for e in errors] == [  # Ajv's keyword order
        (key, "additionalProperties"),  # a key that could not be checked is never let in
        ("/code", "pattern"),
        ("/code", "patternProperties"),  # the document's time budget is spent: refused at once
        (key, "patternProperties"),
    ]
    assert errors[1]["message"].startswith('could not be checked against pattern "^(a+)+\\1$" within 0.3 s')
    assert validate(contract.compiled, {"code": "aaa"}).valid


@pytest.mark.parametrize(("raw", "expected"), [("", 1.0), ("2.5", 2.5), (" 0.25 ", 0.25)])
def test_the_time_bound_comes_from_the_environment(raw: str, expected: float) -> None:
    assert patterns.pattern_timeout({"JSON_CONTRACTS_PATTERN_TIMEOUT": raw}) == expected


@pytest.mark.parametrize("raw", ["soon", "-1", "0", "inf", "nan"])
def test_a_bad_time_bound_is_refused_naming_the_variable(raw: str) -> None:
    # It used to fall back to 1 s silently, unlike every other limit variable.
    with pytest.raises(EnvironmentVariableError) as raised:
        patterns.pattern_timeout({"JSON_CONTRACTS_PATTERN_TIMEOUT": raw})
    assert str(raised.value) == (
        f"JSON_CONTRACTS_PATTERN_TIMEOUT must be a positive number of seconds, got {raw!r}; unset it for the default"
    )


def test_a_bad_time_bound_is_a_one_line_usage_error_of_the_cli(tmp_path: Path) -> None:
    env = {**os.environ, "JSON_CONTRACTS_PATTERN_TIMEOUT": "soon"}
    done = subprocess.run(
        [sys.executable, "-m", "json_contracts", "validate", "-c", str(tmp_path)],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "Error: JSON_CONTRACTS_PATTERN_TIMEOUT must be a positive number of seconds, got 'soon'; "
        "unset it for the default\n"
    )


def test_one_document_spends_one_time_bound_however_many_hostile_values(tmp_path: Path, quick: None) -> None:
    schema = {"type": "array", "items": {"type": "string", "pattern": EVIL}}
    (tmp_path / "many.json").write_text(json.dumps({"schema": schema}), encoding="utf-8")
    contract = load_contracts(tmp_path).contracts["many"]

    errors = validate(contract.compiled, [NEAR_MISS + str(i) for i in range(50)]).errors

    # 50 runaway values: the first uses up the 0.3 s budget, the rest are refused at once.
    assert len(errors) == 50
    assert all(e["message"].startswith("could not be checked against pattern") for e in errors)
