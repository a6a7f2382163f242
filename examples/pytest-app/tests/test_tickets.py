"""The app's own tests, driven by the contracts in json-contracts/ (the plugin is on in pyproject.toml)."""

from __future__ import annotations

from typing import Any

import pytest
from helpdesk import ON_CALL, QUEUES, Ticket, response_hours, route
from hypothesis import given
from pytest_json_contracts import ContractExample, ContractRegistry, assert_valid_json, contract_documents


def test_the_contracts_the_app_reads_are_loaded(json_contracts: ContractRegistry) -> None:
    assert "support-ticket" in json_contracts
    category = json_contracts["support-ticket"].schema["properties"]["category"]
    assert set(category["enum"]) == set(QUEUES)  # a new category in the contract needs a queue here


@pytest.mark.json_contract_examples("support-ticket")
def test_every_example_ticket_is_routed(example: ContractExample) -> None:
    ticket = Ticket.from_json(example.output)

    assert route(ticket) in {*QUEUES.values(), ON_CALL}


@given(contract_documents("support-ticket"))
def test_any_valid_ticket_round_trips_and_keeps_the_contract(document: dict[str, Any]) -> None:
    ticket = Ticket.from_json(document)

    assert ticket.to_json() == document
    assert_valid_json("support-ticket", ticket.to_json())  # what the app sends back as currentJson
    assert response_hours(ticket) in {0, 1, 4, 24, 72}


def test_an_edit_keeps_what_the_user_did_not_change() -> None:
    ticket = Ticket("Login fails for SSO users", "high", "authentication", tags=("sso",))

    raised = Ticket.from_json({**ticket.to_json(), "severity": "critical"})

    assert_valid_json("support-ticket", raised.to_json())
    assert route(raised) == ON_CALL
    assert raised.tags == ticket.tags
