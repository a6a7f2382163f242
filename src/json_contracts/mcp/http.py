"""Running the server over streamable HTTP: the SDK's ASGI app behind our gates, served by uvicorn.

The app is stateless (any instance can answer any request). ASGI gates sit in front of it, outermost
first: :class:`DiscoveryGate` (no OAuth here: every ``/.well-known/`` path is 404),
:class:`BearerTokenGate` (``API_AUTH_TOKEN``), :class:`ProtocolGate` (no server stream to GET, and a
bad ``MCP-Protocol-Version`` header named as such), :class:`UnusableIdGate` (a request id that is
not a string or an integer gets -32600 with id null, as on stdio) and :class:`HangUpGate` (a client
that hangs up before its answer cancels its request's work).

Change notifications: a handshake-era (2025) session over stateless HTTP has no channel a change
could reach it on (the SDK gives such sessions no GET stream), so it is not promised
``resources.listChanged``; a 2026-07-28 client hears changes on its ``subscriptions/listen`` stream.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from json_contracts.mcp.lines import unusable_id_answer
from json_contracts.mcp.log import LibraryLogHandler, Logger
from json_contracts.mcp.server import ContractServer, _Server
from json_contracts.mcp.settings import ServerSettings
from json_contracts.mcp.watch import watch_contracts

__all__ = [
    "BearerTokenGate",
    "DiscoveryGate",
    "HangUpGate",
    "ProtocolGate",
    "UnusableIdGate",
    "http_app",
    "serve_http",
]

#: On SIGTERM or Ctrl-C, how long HTTP requests already being answered may take before they are
#: dropped; a hostile document still being validated then no longer holds the server up.
_GRACE_SECONDS = 5

Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]
ASGIApp = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]


async def _answer(send: Send, status: int, body: bytes, *extra: tuple[bytes, bytes]) -> None:
    """A whole JSON response in two ASGI messages."""
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Receive, limit: int) -> tuple[list[Any], bytes, bool]:
    """The ASGI messages read (to replay), the body they carry, and whether more than ``limit`` bytes remain."""
    received: list[Any] = []
    size, more = 0, True
    while more and size <= limit:
        message = await receive()
        received.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        more = bool(message.get("more_body", False))
    body = b"".join(m.get("body", b"") for m in received if m["type"] == "http.request")
    return received, body, more


def _replaying(received: list[Any], receive: Receive) -> Receive:
    """``receive`` that first hands back the messages already read."""
    pending = iter(received)

    async def replay() -> Any:
        return next(pending, None) or await receive()

    return replay


_NO_OAUTH = b'{"error":"Not found: this server does not use OAuth; send Authorization: Bearer <API_AUTH_TOKEN>."}'


class DiscoveryGate:
    """ASGI middleware: every ``/.well-known/`` path answers 404, with or without a token.

    Clients (the MCP Inspector, the TypeScript SDK) look there for OAuth metadata; a 401 made them
    believe OAuth was on and start a login nobody can finish. A 404 says there is none, so they send
    the bearer token they were given. Nothing is served under those paths.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and "/.well-known/" in scope.get("path", ""):
            await _answer(send, 404, _NO_OAUTH)
            return
        await self.app(scope, receive, send)


class BearerTokenGate:
    """ASGI middleware: every HTTP request needs ``Authorization: Bearer <token>``.

    The scheme is matched without regard to case and is followed by one or more spaces, then the
    token (the HTTP credentials grammar: ``bearer``, ``BEARER`` and ``Bearer  <token>`` all count; a
    tab does not). The token is compared in constant time. A missing or wrong token gets 401 with a
    ``WWW-Authenticate`` header and a JSON body that says what to send.
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = token.encode()

    def _authorized(self, scope: MutableMapping[str, Any]) -> bool:
        supplied = [v for k, v in scope.get("headers") or [] if k == b"authorization"]
        if len(supplied) != 1:  # none, or several: which one counts would be a guess
            return False
        scheme, _, rest = supplied[0].partition(b" ")
        token = rest.lstrip(b" ")
        return scheme.lower() == b"bearer" and secrets.compare_digest(token, self.expected)

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._authorized(scope):
            await self.app(scope, receive, send)
            return
        body = b'{"error":"Send Authorization: Bearer <API_AUTH_TOKEN>."}'
        await _answer(send, 401, body, (b"www-authenticate", b'Bearer realm="json-contracts"'))


#: The ``MCP-Protocol-Version`` values served: the handshake era's and the 2026-07-28 era's.
SUPPORTED_VERSIONS = (*HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS)
_ENDPOINT = ("/mcp", "/mcp/")
_POST_ONLY = b'{"error":"Method not allowed: this server sends no stream; POST JSON-RPC messages here."}'
_UNSUPPORTED_VERSION = -32022  # the 2026-07-28 revision's error code; its data lists what is served
# How much of a body refused for its version header is read to find the request's id (else id null).
_ID_SCAN_LIMIT = 64 * 1024


class ProtocolGate:
    """ASGI middleware: the endpoint's answers the SDK gets wrong for a stateless server.

    - ``GET`` (a stream for server-sent messages) is 405 with ``Allow: POST``: a stateless
      handshake-era session has nothing that could reach it on such a stream, so holding one open
      only ties a connection up (the 2026-07-28 entry already answers 405).
    - An ``MCP-Protocol-Version`` header this server does not serve is 400 with a JSON-RPC error
      naming the header, the value received and the versions served (the SDK routed any unknown
      value to its 2026-07-28 entry, which blamed the body's missing ``_meta`` envelope). The error
      is the 2026-07-28 revision's -32022 with ``data: {supported, requested}``, so a client of
      either era can pick a version to retry with; the id is the request's when it can be read.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("method") == "GET" and scope.get("path") in _ENDPOINT:
            await _answer(send, 405, _POST_ONLY, (b"allow", b"POST"))
            return
        versions = [v for k, v in scope.get("headers") or [] if k == b"mcp-protocol-version"]
        requested = versions[0].decode("latin-1") if versions else None
        if requested is None or requested in SUPPORTED_VERSIONS:
            await self.app(scope, receive, send)
            return
        _, body, more = await _read_body(receive, _ID_SCAN_LIMIT)
        await _answer(send, 400, _version_error(requested, None if more else body))


def _version_error(requested: str, body: bytes | None) -> bytes:
    """The JSON-RPC error for an unsupported ``MCP-Protocol-Version`` value, with the request's id if readable."""
    request_id: Any = None
    try:
        message = json.loads(body) if body is not None else None
    except (ValueError, RecursionError):
        message = None
    if isinstance(message, dict) and isinstance(message.get("id"), (str, int)) and not isinstance(message["id"], bool):
        request_id = message["id"]
    text = (
        f"Unsupported MCP-Protocol-Version header: {json.dumps(requested)}; "
        f"this server supports {', '.join(SUPPORTED_VERSIONS)}"
    )
    error = {
        "code": _UNSUPPORTED_VERSION,
        "message": text,
        "data": {"supported": list(SUPPORTED_VERSIONS), "requested": requested},
    }
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error}, separators=(",", ":")).encode()


# A request id that is not a string or an integer: only such bodies are parsed a second time.
_ODD_ID = re.compile(rb'"id"\s*:\s*(?:true|false|null|[\[{]|-?\d+(?:\.|[eE]))')
# The SDK's own limit on a POST body (it answers 413 past it): larger bodies are not held here.
_MAX_BODY = 4 * 1024 * 1024


class UnusableIdGate:
    """ASGI middleware: a POSTed request whose id is not a string or an integer gets -32600, id null.

    JSON-RPC calls such a request invalid and wants an answer with a null id; the SDK instead reads
    it as a notification (202, no body), as it did on stdio (``lines.read_message`` answers there).
    Bodies with ordinary ids are passed on after one regular-expression scan.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        declared = dict(scope.get("headers") or []).get(b"content-length", b"0")
        too_large = not declared.isdigit() or int(declared) > _MAX_BODY  # the SDK refuses it unread
        if scope["type"] != "http" or scope.get("method") != "POST" or too_large:
            await self.app(scope, receive, send)
            return
        received, body, more = await _read_body(receive, _MAX_BODY)
        answer = unusable_id_answer(body.decode("utf-8", "replace")) if not more and _ODD_ID.search(body) else None
        if answer is not None:
            await _answer(send, 400, answer)
            return
        await self.app(scope, _replaying(received, receive), send)


class _Exchange:
    """One POST seen by :class:`HangUpGate`: its ``receive`` and ``send``, and the task that listens for a hang-up.

    Once the app has read the whole body, only the listener reads the connection; the app's own
    later ``receive()`` calls wait for what it hears (the disconnect), as they would have anyway.
    """

    __slots__ = ("_answered", "_gone", "_heard", "_listener", "_receive", "_scope", "_send")

    def __init__(self, receive: Receive, send: Send, scope: anyio.CancelScope) -> None:
        self._receive = receive
        self._send = send
        self._scope = scope
        self._listener: asyncio.Task[None] | None = None
        self._gone: asyncio.Event | None = None  # made only if the app asks again after the body
        self._heard = False  # the disconnect (or the end of the answer) has been reported
        self._answered = False

    async def receive(self) -> Any:
        if self._listener is None:
            message = await self._receive()
            if message["type"] == "http.request" and not message.get("more_body", False):
                self._listener = asyncio.get_running_loop().create_task(self._listen())
            return message
        if not self._heard:
            if self._gone is None:
                self._gone = asyncio.Event()
            await self._gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: Any) -> None:
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            self._answered = True  # before sending: the server reports the end of an answer as a disconnect
        await self._send(message)

    async def _listen(self) -> None:
        while (await self._receive())["type"] != "http.disconnect":
            pass  # nothing else comes once the body has been read; ignored if it did
        self._heard = True
        if self._gone is not None:
            self._gone.set()
        if not self._answered:
            self._scope.cancel()

    def close(self) -> None:
        """Stop listening: not needed once answered (the server then reports a disconnect at once)."""
        if self._listener is not None and not self._answered:
            self._listener.cancel()


class HangUpGate:
    """ASGI middleware: a client that hangs up before its answer cancels the work done for it.

    In JSON-response mode the SDK runs a request to its end without watching the connection, so a
    client that posted a slow document and gave up left a worker validating it for the rest of its
    deadline. Here, once a POST's body has been read, one task listens for the client going away
    and cancels the request: the worker's validation stops at its next check
    (:class:`.server.Workers`) and nothing is sent. A client still connected is never cancelled,
    and a streamed answer (a 2026-07-28 ``subscriptions/listen``) ends when its client leaves.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        with anyio.CancelScope() as cancelled:
            exchange = _Exchange(receive, send, cancelled)
            try:
                await self.app(scope, exchange.receive, exchange.send)
            finally:
                exchange.close()


def http_app(server: ContractServer, settings: ServerSettings) -> ASGIApp:
    """The streamable-HTTP ASGI app, stateless (any instance can answer any request), token-gated."""
    if isinstance(server.server, _Server):
        server.server.handshake_list_changed = False  # no channel reaches a 2025-era session here
    app: ASGIApp = server.server.streamable_http_app(host=settings.host, stateless_http=True, json_response=True)
    app = ProtocolGate(UnusableIdGate(HangUpGate(app)))
    if settings.auth_token:
        app = BearerTokenGate(app, settings.auth_token)
    return DiscoveryGate(app)


async def serve_http(server: ContractServer, settings: ServerSettings, logger: Logger) -> None:
    """Serve streamable HTTP at ``http://<host>:<port>/mcp`` until interrupted."""
    import uvicorn

    LibraryLogHandler(logger).install("mcp", "uvicorn")
    config = uvicorn.Config(
        http_app(server, settings),
        host=settings.host,
        port=settings.port,
        log_config=None,  # its lines go through LibraryLogHandler, in our format
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=_GRACE_SECONDS,
    )
    logger.announce(f"Serving MCP over HTTP at http://{settings.host}:{settings.port}/mcp")
    async with anyio.create_task_group() as group:
        if settings.watch:
            group.start_soon(watch_contracts, server, settings, logger)
        await uvicorn.Server(config).serve()
        group.cancel_scope.cancel()
