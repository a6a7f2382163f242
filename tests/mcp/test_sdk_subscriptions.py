"""Resource subscriptions in both eras: ``notifications/resources/updated`` for each subscribed
contract whose text a reload changed (edited, removed or added), and for no other.

2025-era clients ``resources/subscribe`` on a connection the server can push to; 2026-era clients
list the URIs on their ``subscriptions/listen`` stream.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import MCPError
from mcp.client.subscriptions import ResourcesListChanged, ResourceUpdated, Subscription

from tests.support.mcp import Served

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]

UPDATED = "notifications/resources/updated"
LIST_CHANGED = "notifications/resources/list_changed"
NO_OPS = "json-contract://no-ops"
TICKET = "json-contract://support-ticket"
QUIET = 0.3


class Heard:
    """A 2025-era client's ``message_handler``: the server's notifications, in order."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, Any]] = []

    async def __call__(self, message: Any) -> None:
        method = getattr(message, "method", None)
        if method is not None:
            self.messages.append((method, getattr(getattr(message, "params", None), "uri", None)))

    def updated(self) -> list[str]:
        return [uri for method, uri in self.messages if method == UPDATED]

    async def wait_list_changed(self, count: int = 1) -> None:
        with anyio.fail_after(5):
            while sum(method == LIST_CHANGED for method, _ in self.messages) < count:
                await anyio.sleep(0.01)
        await anyio.sleep(QUIET)  # anything sent with it has arrived too


async def _reload(client: Any) -> None:
    result = await client.call_tool("reload_contracts", {})
    assert not result.is_error, result.content


# --- the handshake era ----------------------------------------------------------------------------


async def test_subscribe_is_advertised_where_updates_are_pushed(served: Served) -> None:
    async with served.client("legacy") as client:
        resources = client.server_capabilities.resources
    assert resources is not None
    assert (resources.subscribe, resources.list_changed) == (True, True)


async def test_a_subscriber_hears_its_contract_change(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        assert await client.subscribe_resource(NO_OPS) is not None
        served.write("no-ops.json", {"description": "Now described.", "schema": {}})
        await _reload(client)
        await heard.wait_list_changed()
    assert heard.updated() == [NO_OPS]


async def test_only_subscribed_contracts_that_changed_are_updated(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        await client.subscribe_resource(TICKET)
        await client.subscribe_resource("json-contract://added")  # not served yet: its creation is an update
        served.write("no-ops.json", {"description": "Changed, not subscribed.", "schema": {}})
        served.write("added.json", {"schema": {}})
        await _reload(client)
        await heard.wait_list_changed()
    assert heard.updated() == ["json-contract://added"]


async def test_a_removed_contract_is_an_update(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        await client.subscribe_resource(NO_OPS)
        (served.folder / "no-ops.json").unlink()
        await _reload(client)
        await heard.wait_list_changed()
    assert heard.updated() == [NO_OPS]


async def test_an_unsubscribed_contract_is_no_longer_updated(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        await client.subscribe_resource(NO_OPS)
        await client.unsubscribe_resource(NO_OPS)
        served.write("no-ops.json", {"description": "Now described.", "schema": {}})
        await _reload(client)
        await heard.wait_list_changed()
    assert heard.updated() == []


async def test_a_save_that_changes_nothing_updates_no_one(served: Served) -> None:
    heard = Heard()
    async with served.client("legacy", message_handler=heard) as client:
        await client.subscribe_resource(TICKET)
        text = (served.folder / "support-ticket.json").read_text(encoding="utf-8")
        served.write("support-ticket.json", "\n\n" + text)  # whitespace only
        await _reload(client)
        await anyio.sleep(QUIET)
    assert heard.messages == []


async def test_only_the_subscribing_connection_hears_it(served: Served) -> None:
    subscriber, other = Heard(), Heard()
    async with (
        served.client("legacy", message_handler=subscriber) as one,
        served.client("legacy", message_handler=other) as two,
    ):
        await one.subscribe_resource(NO_OPS)
        await two.list_tools()
        served.write("no-ops.json", {"description": "Now described.", "schema": {}})
        await _reload(two)
        await subscriber.wait_list_changed()
        await other.wait_list_changed()
    assert (subscriber.updated(), other.updated()) == ([NO_OPS], [])


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("file:///etc/passwd", "Invalid resource URI scheme: file:///etc/passwd"),
        ("json-contract://../x", "Invalid contract name: ../x"),
    ],
)
async def test_a_malformed_uri_cannot_be_subscribed(served: Served, uri: str, message: str) -> None:
    async with served.client("legacy") as client:
        with pytest.raises(MCPError) as caught:
            await client.subscribe_resource(uri)
    assert (caught.value.code, caught.value.message) == (-32602, message)


# --- the 2026-07-28 era -----------------------------------------------------------------------------


async def _events(subscription: Subscription) -> list[Any]:
    events: list[Any] = []
    with anyio.move_on_after(QUIET * 2):
        async for event in subscription:
            events.append(event)
    return events


async def test_a_listener_hears_its_contract_change(served: Served) -> None:
    async with (
        served.client("modern") as client,
        client.listen(resources_list_changed=True, resource_subscriptions=[NO_OPS, TICKET]) as listening,
    ):
        served.write("no-ops.json", {"description": "Now described.", "schema": {}})
        await _reload(client)
        events = await _events(listening)
    assert events == [ResourcesListChanged(), ResourceUpdated(NO_OPS)]


async def test_a_listener_of_one_uri_hears_only_that_uri(served: Served) -> None:
    async with served.client("modern") as client, client.listen(resource_subscriptions=[TICKET]) as listening:
        served.write("no-ops.json", {"description": "Now described.", "schema": {}})
        await _reload(client)
        assert await _events(listening) == []
        (served.folder / "support-ticket.json").unlink()
        await _reload(client)
        assert await _events(listening) == [ResourceUpdated(TICKET)]
