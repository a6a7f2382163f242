"""Helpers for the MCP tests: the served contracts, a server over a folder, result checks, and a
wire-level peer that speaks JSON-RPC text lines the way stdio does; and what the HTTP tests share.

Nothing here but :func:`free_port` touches a socket, and nothing spawns a process (the
``test_e2e_*.py`` modules do). Golden data is in ``tests/data``, read through ``tests.support.golden``.
"""

from __future__ import annotations

import copy
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from mcp import Client
from mcp.shared.memory import create_client_server_memory_streams
from mcp.shared.message import SessionMessage

from json_contracts._json.text import dumps
from json_contracts.contracts.model import Contract
from json_contracts.contracts.store import ContractStore
from json_contracts.mcp.handlers import ContractService
from json_contracts.mcp.log import Logger
from json_contracts.mcp.server import ContractServer, build_server
from json_contracts.mcp.settings import ServerSettings
from json_contracts.mcp.transports import serve_streams
from tests.support.samples import SUPPORT_TICKET

# --- the contracts the server serves ------------------------------------------------------------

# Both operations disabled, and an empty description (omitted from summaries and resources).
NO_OPS: dict[str, Any] = {
    "description": "",
    "operations": {"create": {"enabled": False}, "edit": {"enabled": False}},
    "schema": {"type": "object", "properties": {"n": {"type": "integer"}}},
}
# Edit enabled but returning a JSON patch, which get_edit_contract refuses; no description key.
PATCH_EDIT: dict[str, Any] = {
    "operations": {"edit": {"enabled": True, "return": "json_patch"}},
    "schema": {"type": "object"},
}
CONTRACT_FILES: dict[str, Any] = {
    "support-ticket.json": SUPPORT_TICKET,
    "no-ops.json": NO_OPS,
    "patch-edit.json": PATCH_EDIT,
}
#: The served names in the TypeScript server's order (JavaScript's ``localeCompare``).
CONTRACT_NAMES = ["no-ops", "patch-edit", "support-ticket"]

TOOL_NAMES = [
    "list_contracts",
    "read_contract",
    "get_json_contract",
    "get_edit_contract",
    "validate_json",
    "get_repair_contract",
    "status",
    "reload_contracts",
]


def contract_text(content: Any) -> str:
    """A contract file's text, written as the loader expects it (2-space JSON)."""
    return json.dumps(content, indent=2, ensure_ascii=False) + "\n"


# --- a served folder ------------------------------------------------------------------------------

MODES = {"modern": "auto", "legacy": "legacy"}


@dataclass
class Served:
    """One server over one folder, the way the CLI builds it (watching off)."""

    folder: Path
    store: ContractStore
    service: ContractService
    server: ContractServer

    def write(self, filename: str, content: Any) -> Path:
        path = self.folder / filename
        path.write_text(content if isinstance(content, str) else contract_text(content), encoding="utf-8")
        return path

    def contract(self, name: str) -> Contract:
        return self.store.contracts[name]

    def client(self, mode: str = "modern", **options: Any) -> Client:
        """An in-memory SDK client: ``modern`` (2026 era, no handshake) or ``legacy`` (initialize)."""
        return Client(self.server.server, raise_exceptions=True, mode=MODES[mode], **options)

    @asynccontextmanager
    async def stdio_like(self) -> AsyncIterator[tuple[Any, Any]]:
        """An SDK ``Transport`` over :func:`serve_streams`, the loop ``json-contracts serve`` runs on stdio."""
        async with (
            create_client_server_memory_streams() as ((client_read, client_write), (server_read, server_write)),
            anyio.create_task_group() as group,
        ):
            group.start_soon(serve_streams, self.server, server_read, server_write, self.service.settings, Logger())
            try:
                yield client_read, client_write
            finally:
                await client_write.aclose()  # EOF, as when stdin closes
                group.cancel_scope.deadline = anyio.current_time() + 5


# --- result checks --------------------------------------------------------------------------------


def assert_success(result: types.CallToolResult, payload: dict[str, Any]) -> None:
    """A tool success: ``structuredContent`` is the payload, the text is its pretty JSON, key order kept."""
    assert not result.is_error, result.structured_content
    assert result.structured_content == payload
    assert len(result.content) == 1
    assert result.content[0].type == "text"
    assert result.content[0].text == dumps(payload)
    # The structured copy keeps the payload's key order through the protocol, too.
    assert dumps(result.structured_content) == dumps(payload)


def error_message(result: types.CallToolResult) -> str:
    """The message of a tool failure, read from its text (an error carries no ``structuredContent``)."""
    assert result.is_error is True
    assert len(result.content) == 1
    assert result.content[0].type == "text"
    message = json.loads(result.content[0].text)["error"]
    assert isinstance(message, str)
    return message


def assert_tool_error(result: types.CallToolResult, message: str) -> None:
    """An expected tool failure: ``isError`` with ``{"error": message}`` as its text, and no
    ``structuredContent`` (it must match the tool's output schema, which describes successes)."""
    assert result.is_error is True
    assert result.structured_content is None
    assert len(result.content) == 1
    assert result.content[0].type == "text"
    assert result.content[0].text == dumps({"error": message})


def wire_tool_error(result: dict[str, Any]) -> str:
    """The message of a tool error as the wire carries it: exactly ``isError`` and one text content
    ``{"error": …}`` in 2-space JSON, no ``structuredContent`` (it would have to match the tool's
    outputSchema)."""
    assert set(result) == {"content", "isError"}, result
    assert result["isError"] is True
    [content] = result["content"]
    assert content["type"] == "text"
    parsed = json.loads(content["text"])
    assert list(parsed) == ["error"]
    assert content["text"] == dumps(parsed)
    return str(parsed["error"])


def issues(result: types.CallToolResult) -> list[dict[str, Any]]:
    """The zod issue list an argument error carries, after checking it is serialised as 2-space JSON."""
    message = error_message(result)
    parsed: list[dict[str, Any]] = json.loads(message)
    assert message == dumps(parsed)
    assert_tool_error(result, message)
    return parsed


# --- a wire-level peer --------------------------------------------------------------------------


class WirePeer:
    """Speaks JSON-RPC text lines to :func:`serve_streams` exactly as the SDK's stdio transport does.

    Each line is parsed with the SDK's own ``jsonrpc_message_adapter`` (a line it cannot parse is
    forwarded as the exception, like ``mcp.server.stdio``), and each answer is serialised with
    ``model_dump_json(by_alias=True, exclude_unset=True)`` like its stdout writer.
    """

    def __init__(self, send: Any, receive: Any) -> None:
        self._send = send
        self._receive = receive
        self.received: list[dict[str, Any]] = []

    async def send_line(self, line: str) -> None:
        try:
            message: Any = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except Exception as exc:  # what mcp.server.stdio does with a line it cannot parse
            await self._send.send(exc)
            return
        await self._send.send(SessionMessage(message))

    async def send_message(self, message: Any) -> None:
        """Send an already-built message (e.g. one too deep for any JSON text parser)."""
        await self._send.send(SessionMessage(message))

    async def next_message(self) -> dict[str, Any]:
        item = await self._receive.receive()
        message: dict[str, Any] = json.loads(item.message.model_dump_json(by_alias=True, exclude_unset=True))
        self.received.append(message)
        return message

    async def response(self, request_id: Any, *, timeout: float = 5.0) -> dict[str, Any]:
        """The answer to ``request_id`` (other messages are kept in :attr:`received`)."""
        for message in self.received:
            if "method" not in message and message.get("id") == request_id:
                return message
        with anyio.fail_after(timeout):
            while True:
                message = await self.next_message()
                if "method" not in message and message.get("id") == request_id:
                    return message

    async def request(self, request_id: Any, method: str, params: Any = None, **options: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            body["params"] = params
        await self.send_line(json.dumps(body))
        return await self.response(request_id, **options)

    async def send_and_wait(self, request_id: Any, line: str, **options: Any) -> dict[str, Any]:
        """Send a hand-written request line and return the answer to ``request_id``."""
        await self.send_line(line)
        return await self.response(request_id, **options)

    async def notify(self, method: str, params: Any = None) -> None:
        body: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            body["params"] = params
        await self.send_line(json.dumps(body))

    async def initialize(self, protocol_version: str = "2025-06-18") -> dict[str, Any]:
        answer = await self.request(
            "init",
            "initialize",
            {"protocolVersion": protocol_version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
        )
        await self.notify("notifications/initialized")
        return answer


@asynccontextmanager
async def wire_peer(served: Served) -> AsyncIterator[WirePeer]:
    async with served.stdio_like() as (read, write):
        yield WirePeer(write, read)


def nested_list(depth: int) -> list[Any]:
    """``[[[…]]]`` ``depth`` levels deep, built without recursion."""
    root: list[Any] = []
    current = root
    for _ in range(depth - 1):
        child: list[Any] = []
        current.append(child)
        current = child
    return root


ServeFactory = Callable[..., "Served"]


def serve_factory(make_contracts_dir: Callable[..., Path]) -> ServeFactory:
    """Build servers over fresh folders holding ``files`` (default :data:`CONTRACT_FILES`); watching off."""
    counter = iter(range(1_000))

    def build(files: Mapping[str, Any] | None = None, *, allow_invalid: bool = False, **settings: Any) -> Served:
        folder = make_contracts_dir(
            copy.deepcopy(dict(CONTRACT_FILES if files is None else files)), dirname=f"contracts-{next(counter)}"
        )
        store = ContractStore.open(folder, allow_invalid=allow_invalid)
        options = {"watch": False, "allow_invalid": allow_invalid, **settings}
        service = ContractService(store, ServerSettings(store.directory, **options))
        return Served(folder, store, service, build_server(service))

    return build


# --- a real server over HTTP (test_e2e_http*.py) ----------------------------------------------------

#: The bearer token the HTTP tests start the server with.
TOKEN = "s3cret-token"

#: An ``initialize`` request, as a JSON-RPC message.
INITIALIZE: dict[str, Any] = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (at the time of asking)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http_env(folder: Path, **extra: str) -> dict[str, str]:
    """The environment for ``json-contracts serve`` over ``folder``: watching off, and no transport,
    port or token inherited from this process."""
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN"}}
    env.update({"JSON_CONTRACTS_DIR": str(folder), "WATCH_CONTRACTS": "false", **extra})
    return env


@contextmanager
def http_server(env: dict[str, str]) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A real ``json-contracts serve --transport http`` on a free port, once it accepts connections.

    ``env`` is the whole environment (see :func:`http_env`). stderr goes to a temporary file (a
    pipe nobody reads could fill and stall the server) and is the failure message of a server that
    does not start. The process is terminated (a no-op once it has exited) and reaped on exit.
    """
    port = free_port()
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "json_contracts", "serve", "--transport", "http", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None:
                    stderr.seek(0)
                    raise AssertionError(stderr.read().decode("utf-8", "replace")) from None
                time.sleep(0.05)
        try:
            yield port, process
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
