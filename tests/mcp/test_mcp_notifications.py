"""``notifications/resources/list_changed`` after a reload through the tool, for both protocol eras:
2025 clients hear it on their session, 2026 clients on a ``subscriptions/listen`` stream."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.subscriptions import ResourcesListChanged, Subscription

from tests.support.mcp import CONTRACT_NAMES, Served

pytestmark = pytest.mark.anyio

LIST_CHANGED = "notifications/resources/list_changed"
QUIET = 0.2  # how long "nothing arrives" is watched for


class Heard:
    """A legacy client's ``message_handler`` that keeps the resource list-changed notifications."""

    def __init__(self) -> None:
        self.count = 0
        self.other: list[Any] = []
        self._event = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if getattr(message, "method", None) == LIST_CHANGED:
            self.count += 1
            self._event.set()
        else:
            self.other.append(message)

    async def wait(self) -> None:
        with anyio.fail_after(2):
            await self._event.wait()

    async def settle(self) -> int:
        await anyio.sleep(QUIET)
        return self.count


async def _next_event(subscription: Subscription) -> Any:
    with anyio.fail_after(2):
        return await subscription.__anext__()


async def _no_event(subscription: Subscription) -> None:
    with anyio.move_on_after(QUIET):
        event = await subscription.__anext__()
        pytest.fail(f"unexpected event {event!r}")


# --- legacy (2025 handshake) clients ----------------------------------------------------------------


async def test_a_legacy_client_hears_a_reload_that_adds_a_contract(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        served.write("added.json", {"schema": {"type": "object"}})
        result = await client.call_tool("reload_contracts", {})
        assert not result.is_error
        await heard.wait()
        listed = await client.list_resources()
    assert heard.count >= 1
    assert [r.name for r in listed.resources] == ["added", *CONTRACT_NAMES]


async def test_a_legacy_client_hears_a_reload_that_removes_a_contract(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        (served.folder / "no-ops.json").unlink()
        assert not (await client.call_tool("reload_contracts", {})).is_error
        await heard.wait()


async def test_a_legacy_client_hears_a_changed_contract(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        served.write("no-ops.json", {"description": "Now described.", "schema": {}})
        assert not (await client.call_tool("reload_contracts", {})).is_error
        await heard.wait()


async def test_a_no_op_reload_sends_no_notification(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        for _ in range(2):
            assert not (await client.call_tool("reload_contracts", {})).is_error
        assert await heard.settle() == 0


async def test_a_failed_reload_that_changes_nothing_sends_no_notification(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        served.write("support-ticket.json", "{ not json")
        served.write("broken.json", "{ not json")
        assert (await client.call_tool("reload_contracts", {})).is_error
        assert await heard.settle() == 0


async def test_a_failed_reload_that_also_adds_a_contract_notifies(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        served.write("broken.json", "{ not json")
        served.write("added.json", {"schema": {}})
        assert (await client.call_tool("reload_contracts", {})).is_error
        await heard.wait()


async def test_every_connected_legacy_client_hears_it(served: Served) -> None:
    first, second = Heard(), Heard()
    async with (
        served.client("legacy", message_handler=first) as one,
        served.client("legacy", message_handler=second) as two,
    ):
        await two.list_tools()  # the server learns of a session when it first hears from it
        served.write("added.json", {"schema": {}})
        assert not (await one.call_tool("reload_contracts", {})).is_error
        await first.wait()
        await second.wait()


async def test_a_legacy_client_of_the_stdio_loop_hears_it(served: Served) -> None:
    heard = Heard()
    async with Client(served.stdio_like(), mode="legacy", message_handler=heard) as client:
        assert client.server_capabilities.resources is not None
        assert client.server_capabilities.resources.list_changed is True
        served.write("added.json", {"schema": {}})
        assert not (await client.call_tool("reload_contracts", {})).is_error
        await heard.wait()


@pytest.mark.parametrize("transport", ["in-memory", "stdio-loop"])
async def test_a_legacy_client_hears_each_change_exactly_once(served: Served, transport: str) -> None:
    heard = Heard()
    connection = served.client("legacy", message_handler=heard)
    if transport == "stdio-loop":
        connection = Client(served.stdio_like(), mode="legacy", message_handler=heard)
    async with connection as client:
        for _ in range(3):
            await client.list_tools()
        served.write("added.json", {"schema": {}})
        assert not (await client.call_tool("reload_contracts", {})).is_error
        await heard.wait()
        assert await heard.settle() == 1


async def test_the_server_keeps_no_state_per_request(served: Served) -> None:
    for mode in ("legacy", "modern"):
        async with served.client(mode) as client:
            for _ in range(20):
                await client.call_tool("status", {})
    await served.server.notify_resources_changed()
    assert len(served.server.connections) <= 1


# --- modern (2026-07-28) clients --------------------------------------------------------------------


async def test_a_modern_client_hears_it_on_a_listen_stream(served: Served) -> None:
    async with served.client("modern") as client, client.listen(resources_list_changed=True) as subscription:
        assert subscription.honored.resources_list_changed is True
        served.write("added.json", {"schema": {}})
        assert not (await client.call_tool("reload_contracts", {})).is_error
        assert await _next_event(subscription) == ResourcesListChanged()
        # The client refetches and sees the new contract.
        assert [r.name for r in (await client.list_resources()).resources] == ["added", *CONTRACT_NAMES]

        (served.folder / "added.json").unlink()
        assert not (await client.call_tool("reload_contracts", {})).is_error
        assert await _next_event(subscription) == ResourcesListChanged()


async def test_a_modern_client_hears_nothing_on_a_no_op_reload(served: Served) -> None:
    async with served.client("modern") as client, client.listen(resources_list_changed=True) as subscription:
        assert not (await client.call_tool("reload_contracts", {})).is_error
        await _no_event(subscription)


async def test_a_modern_listener_hears_a_reload_made_by_a_legacy_client(served: Served) -> None:
    async with (
        served.client("modern") as listener,
        listener.listen(resources_list_changed=True) as subscription,
        served.client("legacy") as other,
    ):
        served.write("added.json", {"schema": {}})
        assert not (await other.call_tool("reload_contracts", {})).is_error
        assert await _next_event(subscription) == ResourcesListChanged()


async def test_a_legacy_client_hears_a_reload_made_by_a_modern_client(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as listener, served.client("modern") as other:
        await listener.list_tools()
        served.write("added.json", {"schema": {}})
        assert not (await other.call_tool("reload_contracts", {})).is_error
        await heard.wait()
