"""The SDK's server on one stdio connection, answering everything already read before exiting.

The front desk (:mod:`.frontdesk`) hands this loop the messages it does not answer itself; the
in-process tests drive it directly with message streams.

The SDK's stdio loop drops a request that is still being handled when stdin reaches EOF; here
the read side is held open until every request read so far has been answered (at most 30 s),
then the server, the watcher and the process end together (no hanging on a watcher, unlike
the TypeScript server). A request the client cancelled is not waited for (the SDK never answers it),
and a client that closes its end of stdout ends the server quietly, with exit status 0.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import anyio
from mcp.server import NotificationOptions
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from json_contracts.mcp.lines import Reply, recover_line
from json_contracts.mcp.log import Logger
from json_contracts.mcp.server import ContractServer
from json_contracts.mcp.settings import ServerSettings
from json_contracts.mcp.watch import watch_contracts

__all__ = ["serve_streams"]

_DRAIN_SECONDS = 30.0  # the longest we wait at EOF for answers to requests already read


class _TrackedReader:
    """The transport's read side as the SDK's ``ReadStream``, remembering which requests await answers.

    At end of input it holds the stream open until every request read so far is answered (the
    SDK alone would cancel them), and it answers a line too deep for the SDK's parser itself.
    Passing the transport straight through (no extra memory stream per direction) saves two
    task hops per message.
    """

    def __init__(self, source: Any, writer: _TrackedWriter, depth: int) -> None:
        self._source = source
        self._writer = writer
        self._depth = depth
        self._drained = False

    def __aiter__(self) -> _TrackedReader:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        while not self._drained and not self._writer.gone.is_set():
            try:
                item: SessionMessage | Exception | Reply = await self._source.__anext__()
            except (StopAsyncIteration, anyio.EndOfStream, anyio.ClosedResourceError):
                with anyio.move_on_after(_DRAIN_SECONDS):
                    while self._writer.pending and not self._writer.gone.is_set():
                        await anyio.sleep(0.005)
                self._drained = True
                break
            if isinstance(item, Reply):  # a line the transport answers itself (too long, an unusable id)
                await self._writer.source.send(item.message)
                continue
            recovered = recover_line(item, self._depth) if isinstance(item, Exception) else None
            if recovered is not None and isinstance(recovered.message, JSONRPCError):
                await self._writer.source.send(recovered)
                continue
            item = recovered or item
            if isinstance(item, SessionMessage):
                message = item.message
                if isinstance(message, JSONRPCRequest):
                    self._writer.expect(message.id)
                elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
                    # The SDK never answers a cancelled request: stop waiting for it.
                    cancelled = as_request_id((message.params or {}).get("requestId"))
                    if cancelled is not None:
                        self._writer.settle(cancelled)
            return item
        raise StopAsyncIteration

    async def receive(self) -> SessionMessage | Exception:
        try:
            return await self.__anext__()
        except StopAsyncIteration:
            raise anyio.EndOfStream from None

    async def aclose(self) -> None:
        """The transport owns the real stream; the caller closes it."""

    async def __aenter__(self) -> _TrackedReader:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        return None


class _TrackedWriter:
    """The transport's write side as the SDK's ``WriteStream``; an answer clears its request.

    Requests are counted by id (a client that reuses an id while the first is in flight still
    gets both answers before the server exits), with ``"7"`` and ``7`` one id as the SDK counts
    them. When the peer has gone (its end of stdout closed), nothing more can be delivered:
    ``gone`` is set, later messages are dropped and the server ends quietly instead of failing
    with a broken pipe.
    """

    def __init__(self, source: Any) -> None:
        self.source = source
        self.pending: Counter[Any] = Counter()
        self.gone = anyio.Event()

    def expect(self, request_id: Any) -> None:
        self.pending[coerce_request_id(request_id)] += 1

    def settle(self, request_id: Any) -> None:
        key = coerce_request_id(request_id)
        if self.pending[key] > 1:
            self.pending[key] -= 1
        else:
            self.pending.pop(key, None)

    async def send(self, item: SessionMessage) -> None:
        if self.gone.is_set():
            return
        try:
            await self.source.send(item)
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):  # e.g. EPIPE: the peer has gone
            self.pending.clear()
            self.gone.set()
            return
        if isinstance(item.message, (JSONRPCResponse, JSONRPCError)) and item.message.id is not None:
            self.settle(item.message.id)  # only once it is on its way out

    async def aclose(self) -> None:
        """The transport owns the real stream; the caller closes it."""

    async def __aenter__(self) -> _TrackedWriter:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        return None


async def serve_streams(
    server: ContractServer,
    read_stream: Any,
    write_stream: Any,
    settings: ServerSettings,
    logger: Logger,
) -> None:
    """Serve one connection; return once the peer has closed and every request is answered."""
    options = server.server.create_initialization_options(NotificationOptions(resources_changed=True))
    writer = _TrackedWriter(write_stream)
    reader = _TrackedReader(read_stream, writer, settings.max_document_depth)
    async with anyio.create_task_group() as group:
        if settings.watch:
            group.start_soon(watch_contracts, server, settings, logger)
        group.start_soon(_end_when_gone, writer, group.cancel_scope, logger)
        await server.server.run(reader, writer, options)
        group.cancel_scope.cancel()  # the watcher


async def _end_when_gone(writer: _TrackedWriter, scope: anyio.CancelScope, logger: Logger) -> None:
    """Stop serving once the peer can no longer read answers (nothing left to deliver to)."""
    await writer.gone.wait()
    logger.debug("The client closed its end of the connection; stopping")
    scope.cancel()
