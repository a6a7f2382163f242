"""Cancellation on the SDK path: a cancelled call's work stops and it gets no answer, and a cancelled
``reload_contracts`` never leaves the served contracts and the notifications disagreeing."""

from __future__ import annotations

import json
import threading
from typing import Any

import anyio
import pytest

from json_contracts.contracts import store as store_module
from tests.mcp.test_sdk_results import sdk_peer
from tests.support.mcp import Served, ServeFactory, WirePeer

pytestmark = pytest.mark.anyio

GENEROUS = 20.0  # seconds: the bugs these catch run for 60 (the validation deadline) or for ever


def _diamond(levels: int) -> dict[str, Any]:
    """Each level is an anyOf of two references to the next: 2**levels paths to a failing leaf."""
    defs: dict[str, Any] = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 2} for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    return {"$ref": "#/$defs/d0", "$defs": defs}


@pytest.fixture
def slow(serve: ServeFactory, monkeypatch: pytest.MonkeyPatch) -> Served:
    """A server whose ``diamond`` contract takes a minute of CPU to check the document ``1``."""
    monkeypatch.setenv("JSON_CONTRACTS_VALIDATION_TIMEOUT", "60")
    return serve({"diamond.json": {"schema": _diamond(40)}})


SLOW_ARGUMENTS: dict[str, Any] = {"contract": "diamond", "json": 1}
SLOW_CALL = {"name": "validate_json", "arguments": SLOW_ARGUMENTS}


async def _until(condition: Any, what: str) -> None:
    """Wait for ``condition()``; fail naming ``what`` did not happen within :data:`GENEROUS` seconds."""
    with anyio.move_on_after(GENEROUS):
        while not condition():
            await anyio.sleep(0.02)
        return
    pytest.fail(f"waited {GENEROUS:g} s for {what}")


async def _quiet(peer: WirePeer, seconds: float = 0.3) -> None:
    """Read whatever arrives for ``seconds`` (kept in ``peer.received``)."""
    with anyio.move_on_after(seconds):
        while True:
            await peer.next_message()


# --- a cancelled call stops --------------------------------------------------------------------------


async def test_a_cancelled_validation_stops_and_is_not_answered(slow: Served) -> None:
    workers = slow.server.workers
    async with sdk_peer(slow) as peer:
        await peer.initialize()
        await peer.send_line(f'{{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {_json(SLOW_CALL)}}}')
        await _until(lambda: workers.busy == 1, "the call to start")
        await anyio.sleep(0.2)  # well into the validation
        await peer.notify("notifications/cancelled", {"requestId": 7, "reason": "changed my mind"})
        await _until(lambda: workers.busy == 0, "the worker thread to end")  # not after 60 s of CPU
        assert (await peer.request(8, "ping"))["result"] == {}
        await _quiet(peer)
    assert [m for m in peer.received if m.get("id") == 7] == []


async def test_a_client_that_gives_up_stops_the_work(slow: Served, mode: str) -> None:
    """The SDK client cancels on the wire when its caller stops waiting (both eras)."""
    async with slow.client(mode) as client:
        with anyio.move_on_after(0.5):
            await client.call_tool("validate_json", SLOW_ARGUMENTS)
            pytest.fail("a minute-long validation answered in half a second")
        await _until(lambda: slow.server.workers.busy == 0, "the worker thread to end")
        listed = await client.call_tool("list_contracts", {})
    assert listed.structured_content == {
        "contracts": [{"name": "diamond", **_hashes(slow)}],
    }


def _hashes(served: Served) -> dict[str, str]:
    contract = served.contract("diamond")
    return {"contractHash": contract.contract_hash, "schemaHash": contract.schema_hash}


def _json(value: Any) -> str:
    return json.dumps(value)


# --- a cancelled reload ----------------------------------------------------------------------------


class HeldLoad:
    """``load_contracts`` that waits, mid-reload, until the test lets it go on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        real = store_module.load_contracts  # type: ignore[attr-defined]  # the name store.py calls

        def held(*args: Any, **kwargs: Any) -> Any:
            self.entered.set()
            self.release.wait(GENEROUS)
            return real(*args, **kwargs)

        monkeypatch.setattr(store_module, "load_contracts", held)

    async def wait_entered(self) -> None:
        assert await anyio.to_thread.run_sync(self.entered.wait, GENEROUS)


async def test_a_reload_cancelled_mid_way_still_swaps_and_notifies_legacy(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = HeldLoad(monkeypatch)
    async with sdk_peer(served) as peer:
        await peer.initialize()
        served.write("added.json", {"schema": {}})
        await peer.send_line(
            '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "reload_contracts"}}'
        )
        await held.wait_entered()
        await peer.notify("notifications/cancelled", {"requestId": 5})
        assert (await peer.request(6, "ping"))["result"] == {}  # the cancellation has been read
        held.release.set()
        with anyio.fail_after(GENEROUS):
            while not any(m.get("method") == "notifications/resources/list_changed" for m in peer.received):
                await peer.next_message()
        await _quiet(peer)
    assert "added" in served.store.contracts  # the reload went through...
    assert [m for m in peer.received if m.get("id") == 5] == []  # ...and its answer was dropped


MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def _modern(request_id: Any, method: str, params: dict[str, Any]) -> str:
    """A 2026-07-28 request line: the era's envelope rides in every request's ``_meta``."""
    return _json({"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**params, "_meta": MODERN_META}})


async def test_a_reload_cancelled_mid_way_still_swaps_and_notifies_modern(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = HeldLoad(monkeypatch)
    async with sdk_peer(served) as peer:
        await peer.send_line(
            _modern("listen", "subscriptions/listen", {"notifications": {"resourcesListChanged": True}})
        )
        with anyio.fail_after(GENEROUS):
            while not any(m.get("method") == "notifications/subscriptions/acknowledged" for m in peer.received):
                await peer.next_message()
        served.write("added.json", {"schema": {}})
        await peer.send_line(_modern(5, "tools/call", {"name": "reload_contracts"}))
        await held.wait_entered()
        await peer.notify("notifications/cancelled", {"requestId": 5, "_meta": MODERN_META})
        assert "result" in await peer.send_and_wait(6, _modern(6, "tools/list", {}))  # the cancellation was read
        held.release.set()
        with anyio.fail_after(GENEROUS):
            while not any(m.get("method") == "notifications/resources/list_changed" for m in peer.received):
                await peer.next_message()
        await _quiet(peer)
    assert "added" in served.store.contracts
    assert [m for m in peer.received if m.get("id") == 5] == []
