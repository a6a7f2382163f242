"""Change notifications a real server sends when a contract file changes (watching on): to the
TypeScript client in 2025-era sessions, and to the Python client's ``subscriptions/listen`` stream
in 2026-07-28 sessions. Each test has its own folder and server, since it changes files."""

from __future__ import annotations

import json
import os
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.client.subscriptions import ResourcesListChanged, ResourceUpdated, Subscription

from tests.mcp.interop.support import (
    contract_names,
    drive,
    http_scenario,
    json_contracts_command,
    make_folder,
    server_env,
    start_http,
    stdio_scenario,
)
from tests.support.mcp import TOKEN

LIST_CHANGED = "notifications/resources/list_changed"
ADDED = {"description": "Added while the server runs.", "schema": {"type": "object"}}
#: How long a notification may take to arrive (the watcher waits 150 ms of quiet; the rest is load).
NOTICE_MS = 15_000
#: How long an HTTP client watches for a notification a stateless server may never send.
HTTP_WATCH_MS = 5_000


def _change_steps(folder: Path, watch_ms: int) -> list[dict[str, Any]]:
    return [
        {"op": "sleep", "ms": 300},  # let the watcher settle after start-up
        {"op": "writeFile", "path": str(folder / "added.json"), "text": json.dumps(ADDED)},
        {"op": "waitNotification", "method": LIST_CHANGED, "timeoutMs": watch_ms},
        {"op": "listResources"},
    ]


@pytest.mark.parametrize("offer", ["2024-11-05", "2025-03-26", "2025-11-25"])
def test_the_ts_client_on_stdio_hears_list_changed_after_a_file_change(
    node_modules: Path, tmp_path: Path, offer: str
) -> None:
    folder = make_folder(tmp_path / "contracts")
    scenario = stdio_scenario(folder, _change_steps(folder, NOTICE_MS), env={"WATCH_CONTRACTS": "true"}, offer=offer)

    report = drive(node_modules, scenario)

    assert report["protocolVersion"] == offer
    assert report["capabilities"]["resources"]["listChanged"] is True
    _, _, heard, listed = report["steps"]
    assert heard["value"]["heard"] >= 1, report["notifications"]
    assert [r["name"] for r in listed["value"]["resources"]] == contract_names(folder)
    assert "added" in contract_names(folder)


def test_the_ts_client_over_http_hears_list_changed_exactly_when_advertised(node_modules: Path, tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "contracts")
    with start_http(folder, WATCH_CONTRACTS="true") as (port, _):
        report = drive(
            node_modules, http_scenario(f"http://127.0.0.1:{port}/mcp", _change_steps(folder, HTTP_WATCH_MS))
        )

    assert report["connected"], report.get("error")
    advertised = bool(report["capabilities"].get("resources", {}).get("listChanged"))
    _, _, heard, listed = report["steps"]
    # The reload happened (so silence means "not sent", not "not noticed") ...
    assert "added" in [r["name"] for r in listed["value"]["resources"]]
    # ... and the capability tells the truth about delivery.
    assert advertised == (heard["value"]["heard"] >= 1), (advertised, report["notifications"])


# --- 2026-07-28: subscriptions/listen -------------------------------------------------------------------------


async def _events_until(subscription: Subscription, wanted: list[Any]) -> list[Any]:
    """Events of ``subscription`` until each of ``wanted`` has been seen (or 20 s pass)."""
    seen: list[Any] = []
    with anyio.fail_after(20):
        while not all(event in seen for event in wanted):
            seen.append(await subscription.__anext__())
    return seen


@pytest.mark.anyio
async def test_a_2026_python_client_on_stdio_hears_list_changed_and_resource_updates(tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "contracts")
    env = {**os.environ, **server_env(folder, WATCH_CONTRACTS="true")}
    server = StdioServerParameters(command=json_contracts_command(), args=["serve"], env=env)
    uri = "json-contract://support-ticket"
    async with (
        Client(server, mode="auto") as client,
        client.listen(resources_list_changed=True, resource_subscriptions=[uri]) as subscription,
    ):
        assert client.protocol_version == "2026-07-28"
        assert subscription.honored.resources_list_changed is True
        assert list(subscription.honored.resource_subscriptions or []) == [uri]

        (folder / "added.json").write_text(json.dumps(ADDED), encoding="utf-8")
        await _events_until(subscription, [ResourcesListChanged()])

        ticket = json.loads((folder / "support-ticket.json").read_text(encoding="utf-8"))
        ticket["description"] = "Changed while subscribed."
        (folder / "support-ticket.json").write_text(json.dumps(ticket, indent=2), encoding="utf-8")
        await _events_until(subscription, [ResourceUpdated(uri=uri)])

        read = await client.read_resource(uri)
        assert json.loads(read.contents[0].text)["description"] == "Changed while subscribed."  # type: ignore[union-attr]


@pytest.mark.anyio
async def test_a_2026_python_client_over_http_hears_list_changed_exactly_when_honored(tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "contracts")
    with start_http(folder, WATCH_CONTRACTS="true") as (port, _):
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as http_client,
            Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http_client)) as client,
            AsyncExitStack() as stack,
        ):
            assert client.protocol_version == "2026-07-28"
            resources = client.server_capabilities.resources
            advertised = bool(resources and resources.list_changed)
            try:
                subscription = await stack.enter_async_context(client.listen(resources_list_changed=True))
            except MCPError:
                subscription = None  # not offered over HTTP
            honored = subscription is not None and bool(subscription.honored.resources_list_changed)
            (folder / "added.json").write_text(json.dumps(ADDED), encoding="utf-8")
            heard = False
            if subscription is not None:
                with anyio.move_on_after(HTTP_WATCH_MS / 1000):
                    heard = await subscription.__anext__() == ResourcesListChanged()
    # What the server advertises, what it honors and what it delivers agree.
    assert advertised == honored == heard, (advertised, honored, heard)
