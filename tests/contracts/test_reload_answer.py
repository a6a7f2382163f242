"""``reload_contracts`` with ``ALLOW_INVALID_CONTRACTS``: the TypeScript server's answer (tests/data/ts-order).

With invalid contracts allowed, the TypeScript server's reload skipped a broken file and answered
success with what it served; it failed the call only when they were not allowed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support.golden import golden_json
from tests.support.mcp import serve_factory

RECORDED: dict[str, Any] = golden_json("ts-order/reload.json")
GOOD = '{"schema": {"type": "object"}}'
BROKEN = '{"schema": 5}'


def test_a_broken_file_is_skipped_and_the_reload_answers_what_is_served(
    make_contracts_dir: Callable[..., Path],
) -> None:
    served = serve_factory(make_contracts_dir)({"a.json": GOOD}, allow_invalid=True)
    served.write("b.json", BROKEN)
    answer = served.service.call("reload_contracts", {})
    assert not answer.is_error, answer.data
    assert answer.text == RECORDED["reload_contracts"]["content"][0]["text"]
    assert answer.data == RECORDED["reload_contracts"]["structuredContent"]
    # status still says what was skipped and why
    (failure,) = served.store.failure_records()
    assert failure["file"] == "b.json"
    assert failure["message"] == "Invalid contract shape: schema must be a JSON Schema object"


def test_a_contract_that_breaks_keeps_its_last_good_version_and_the_reload_succeeds(
    make_contracts_dir: Callable[..., Path],
) -> None:
    # Deliberate: the TypeScript server dropped it; a served contract never silently disappears here.
    served = serve_factory(make_contracts_dir)({"a.json": GOOD, "b.json": GOOD}, allow_invalid=True)
    served.write("b.json", BROKEN)
    answer = served.service.call("reload_contracts", {})
    assert answer.data == {"loaded": 2, "contracts": ["a", "b"]}
    assert [f["file"] for f in served.store.failure_records()] == ["b.json"]


def test_without_allow_invalid_the_reload_still_fails_with_the_aggregated_message(
    make_contracts_dir: Callable[..., Path],
) -> None:
    served = serve_factory(make_contracts_dir)({"a.json": GOOD})
    served.write("b.json", BROKEN)
    answer = served.service.call("reload_contracts", {})
    assert answer.is_error
    assert answer.data == {
        "error": "Failed to load JSON contracts: b.json: Invalid contract shape: schema must be a JSON Schema object"
    }
