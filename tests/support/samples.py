"""Fixtures for the engine tests: the support-ticket contract and small helpers."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import Contract
from json_contracts.schema.checking import check_schema
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.dialects import detect_dialect
from json_contracts.schema.validation import ErrorRecord, validate

# The support-ticket contract of REFERENCE §2 and §5.
_SUPPORT_TICKET_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["summary", "severity", "category"],
    "properties": {
        "summary": {"type": "string", "maxLength": 80},
        "severity": {"type": "string", "enum": ["low", "medium", "high", "critical"]},
        "category": {"type": "string", "enum": ["authentication", "billing", "bug", "feature_request", "other"]},
    },
}
_VALID_TICKET = {"summary": "Login fails after SSO update", "severity": "high", "category": "authentication"}


@pytest.fixture
def support_ticket_schema() -> dict[str, Any]:
    return copy.deepcopy(_SUPPORT_TICKET_SCHEMA)


@pytest.fixture
def valid_ticket() -> dict[str, Any]:
    return copy.deepcopy(_VALID_TICKET)


@pytest.fixture
def support_ticket_file(support_ticket_schema: dict[str, Any], valid_ticket: dict[str, Any]) -> dict[str, Any]:
    """The support-ticket contract file, with rules, operation rules and examples to echo."""

    def ticket() -> dict[str, Any]:
        return copy.deepcopy(valid_ticket)

    return {
        "description": "Convert natural language into a support ticket.",
        "rules": ["Keep summary short."],
        "operations": {
            "create": {"rules": ["Create rule."]},
            "edit": {
                "rules": ["Edit rule."],
                "examples": [{"currentJson": ticket(), "input": "Make it critical.", "output": ticket()}],
            },
        },
        "schema": support_ticket_schema,
        "examples": [{"input": "SSO login is broken.", "output": ticket()}],
    }


LoadOne = Callable[..., Contract]


@pytest.fixture
def load_one(make_contracts_dir: Callable[..., Path]) -> LoadOne:
    """Load one contract file (``name.json``) from a fresh folder; fails the test if it does not load."""
    counter = iter(range(1_000_000))

    def load(content: Any, name: str = "support-ticket") -> Contract:
        folder = make_contracts_dir({f"{name}.json": content}, dirname=f"load-one-{next(counter)}")
        result = load_contracts(folder)
        assert result.failures == [], [f.message for f in result.failures]
        return result.contracts[name]

    return load


@pytest.fixture
def support_ticket(load_one: LoadOne, support_ticket_file: dict[str, Any]) -> Contract:
    return load_one(support_ticket_file)


ErrorsOf = Callable[[dict[str, Any], Any], list[ErrorRecord]]


@pytest.fixture
def errors_of() -> ErrorsOf:
    """Validate ``instance`` against a schema that must be usable; return the error records."""

    def check(schema: dict[str, Any], instance: Any) -> list[ErrorRecord]:
        dialect = detect_dialect(schema)
        assert isinstance(dialect, str), dialect
        assert check_schema(schema, dialect) is None
        return validate(compile_schema(schema, dialect), instance).errors

    return check
