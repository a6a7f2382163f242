"""Change notifications over HTTP: advertised only where they are delivered, per protocol era.

The HTTP app is stateless: a handshake-era (2025) session has no channel a change could reach it
on, so ``initialize`` must not promise ``resources.listChanged``, and a GET for a stream that would
never carry anything is refused (405) instead of held open. A 2026-07-28 client gets its changes on
a ``subscriptions/listen`` stream, which works over HTTP: it hears a reload made by another call.
Before, 2025 sessions were told ``listChanged: true`` and a GET stream stayed open and silent.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.subscriptions import ResourcesListChanged
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from tests.support.mcp import http_env, http_server

NOTE = '{"schema": {"type": "object"}}'


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    contracts = tmp_path_factory.mktemp("list-changed") / "json-contracts"
    contracts.mkdir()
    (contracts / "note.json").write_text(NOTE, encoding="utf-8")
    return contracts


@pytest.fixture(scope="module")
def port(folder: Path) -> Iterator[int]:
    with http_server(http_env(folder)) as (chosen, _):
        yield chosen


def _request(
    port: int, method: str, body: dict[str, Any] | None, headers: dict[str, str]
) -> tuple[int, dict[str, str], bytes]:
    sent = {"accept": "application/json, text/event-stream", **headers}
    if body is not None:
        sent["content-type"] = "application/json"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=data, headers=sent, method=method)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, dict(response.headers), response.read() if method != "GET" else b""
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.mark.parametrize("version", HANDSHAKE_PROTOCOL_VERSIONS)
def test_a_handshake_era_session_is_not_promised_list_changed(port: int, version: str) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    status, _, body = _request(port, "POST", initialize, {})

    assert status == 200, body
    result = json.loads(body)["result"]
    assert result["protocolVersion"] == version
    assert result["capabilities"]["resources"].get("listChanged", False) is False
    assert result["capabilities"]["tools"].get("listChanged", False) is False
    assert result["capabilities"]["prompts"].get("listChanged", False) is False


@pytest.mark.parametrize("version", [None, *HANDSHAKE_PROTOCOL_VERSIONS])
def test_a_get_for_a_server_stream_is_refused_with_405(port: int, version: str | None) -> None:
    headers = {"accept": "text/event-stream"} | ({} if version is None else {"mcp-protocol-version": version})
    status, answered, _ = _request(port, "GET", None, headers)

    assert status == 405
    assert "GET" not in answered["allow"]
    assert "POST" in answered["allow"]


@pytest.mark.anyio
async def test_the_python_client_in_the_handshake_era_sees_no_list_changed(port: int) -> None:
    async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as client:
        resources = client.server_capabilities.resources
        assert resources is not None
        assert not resources.list_changed
        assert [r.name for r in (await client.list_resources()).resources] == ["note"]


@pytest.mark.anyio
async def test_a_modern_client_hears_a_reload_on_its_listen_stream(port: int, folder: Path) -> None:
    url = f"http://127.0.0.1:{port}/mcp"
    async with Client(url, mode="auto") as listener, Client(url, mode="auto") as other:
        assert listener.protocol_version == "2026-07-28"
        resources = listener.server_capabilities.resources
        assert resources is not None
        assert resources.list_changed is True
        async with listener.listen(resources_list_changed=True) as subscription:
            assert subscription.honored.resources_list_changed is True
            (folder / "added.json").write_text(NOTE, encoding="utf-8")
            try:
                assert not (await other.call_tool("reload_contracts", {})).is_error
                with anyio.fail_after(20):
                    event = await subscription.__anext__()
            finally:
                (folder / "added.json").unlink()
                await other.call_tool("reload_contracts", {})
            assert event == ResourcesListChanged()
