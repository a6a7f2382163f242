"""Running the server over streamable HTTP: the SDK's ASGI app behind our gates, served by uvicorn.

The app is stateless (any instance can answer any request). Two ASGI gates sit in front of it:
:class:`BearerTokenGate` (``API_AUTH_TOKEN``) and :class:`UnusableIdGate` (a request id that is
not a string or an integer gets -32600 with id null, as on stdio).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio

from json_contracts.mcp.lines import unusable_id_answer
from json_contracts.mcp.log import Logger
from json_contracts.mcp.server import ContractServer
from json_contracts.mcp.settings import ServerSettings
from json_contracts.mcp.watch import watch_contracts

__all__ = ["BearerTokenGate", "UnusableIdGate", "http_app", "serve_http"]

#: On SIGTERM or Ctrl-C, how long HTTP requests already being answered may take before they are
#: dropped; a hostile document still being validated then no longer holds the server up.
_GRACE_SECONDS = 5

ASGIApp = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]
]


class BearerTokenGate:
    """ASGI middleware: every HTTP request needs ``Authorization: Bearer <token>``.

    The comparison is constant-time. A missing or wrong token gets 401 with a
    ``WWW-Authenticate`` header and a JSON body that says what to send.
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(
        self,
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[Any]],
        send: Callable[[Any], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        supplied = dict(scope.get("headers") or []).get(b"authorization", b"")
        if secrets.compare_digest(supplied, self.expected):
            await self.app(scope, receive, send)
            return
        body = b'{"error":"Send Authorization: Bearer <API_AUTH_TOKEN>."}'
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", b'Bearer realm="json-contracts"'),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


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

    async def __call__(
        self,
        scope: MutableMapping[str, Any],
        receive: Callable[[], Awaitable[Any]],
        send: Callable[[Any], Awaitable[None]],
    ) -> None:
        declared = dict(scope.get("headers") or []).get(b"content-length", b"0")
        too_large = not declared.isdigit() or int(declared) > _MAX_BODY  # the SDK refuses it unread
        if scope["type"] != "http" or scope.get("method") != "POST" or too_large:
            await self.app(scope, receive, send)
            return
        received: list[Any] = []
        size, more = 0, True
        while more and size <= _MAX_BODY:
            message = await receive()
            received.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            more = bool(message.get("more_body", False))
        body = b"".join(m.get("body", b"") for m in received if m["type"] == "http.request")
        answer = unusable_id_answer(body.decode("utf-8", "replace")) if not more and _ODD_ID.search(body) else None
        if answer is not None:
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(answer)).encode())]
            await send({"type": "http.response.start", "status": 400, "headers": headers})
            await send({"type": "http.response.body", "body": answer})
            return
        pending = iter(received)

        async def replay() -> Any:
            return next(pending, None) or await receive()

        await self.app(scope, replay, send)


def http_app(server: ContractServer, settings: ServerSettings) -> ASGIApp:
    """The streamable-HTTP ASGI app, stateless (any instance can answer any request), token-gated."""
    app: ASGIApp = server.server.streamable_http_app(host=settings.host, stateless_http=True, json_response=True)
    app = UnusableIdGate(app)
    if settings.auth_token:
        app = BearerTokenGate(app, settings.auth_token)
    return app


async def serve_http(server: ContractServer, settings: ServerSettings, logger: Logger) -> None:
    """Serve streamable HTTP at ``http://<host>:<port>/mcp`` until interrupted."""
    import uvicorn

    config = uvicorn.Config(
        http_app(server, settings),
        host=settings.host,
        port=settings.port,
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
