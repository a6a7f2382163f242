"""A lean stdio transport: the same messages as the SDK's, without a worker thread per line.

The SDK's ``stdio_server`` reads stdin and writes stdout through ``anyio.wrap_file``, so every
line in and every line out is a hop to a worker thread (about 12 per request, most of the
per-call cost over pipes). Here both ends are asyncio pipe transports on private copies of
fds 0 and 1, parsed and serialised exactly as the SDK does. Like the SDK, fd 1 points at
stderr while serving (a stray ``print`` never corrupts the protocol) and fd 0 at the null
device; both are restored on exit, and the pipes are put back into blocking mode so a shared
terminal is left as it was.

:func:`lean_stdio` raises :class:`Unsupported` where asyncio cannot watch stdin (Windows,
stdin redirected from a regular file); the caller then uses the SDK's transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, ErrorData, JSONRPCError, jsonrpc_message_adapter

__all__ = ["MAX_LINE_BYTES", "Unsupported", "lean_stdio"]

MAX_LINE_BYTES = 16 * 1024 * 1024  # a longer request line is skipped and answered with -32600
_LEADING_ID = re.compile(rb'^\s*\{[^{}\[\]]*?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')


class Unsupported(Exception):
    """This platform or this stdin cannot be served by the lean transport."""


class StdinMessages:
    """stdin as an async iterator of ``SessionMessage`` (or the parse error, as the SDK yields it)."""

    def __init__(self, reader: asyncio.StreamReader, sender: StdoutSender) -> None:
        self._reader = reader
        self._sender = sender

    def __aiter__(self) -> StdinMessages:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        while True:
            try:
                line = await self._reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as eof:
                if not eof.partial.strip():
                    raise StopAsyncIteration from None
                line = eof.partial  # a last line without a newline still counts
            except asyncio.LimitOverrunError:
                await self._skip_long_line()
                continue
            if not line.strip():
                continue
            text = line.decode("utf-8", "replace")  # as the SDK reads stdin: UTF-8, bad bytes replaced
            try:
                return SessionMessage(jsonrpc_message_adapter.validate_json(text, by_name=False))
            except Exception as exc:  # what the SDK forwards for a line it cannot parse
                return exc

    async def _skip_long_line(self) -> None:
        """Drop a line over the limit without holding it; answer it when its id comes first."""
        head = b""
        while True:
            try:
                chunk = await self._reader.readuntil(b"\n")
                head = head or chunk[:1024]
                break
            except asyncio.LimitOverrunError as over:
                chunk = await self._reader.readexactly(over.consumed)
                head = head or chunk[:1024]
            except asyncio.IncompleteReadError:
                break
        found = _LEADING_ID.match(head)
        if found is not None:
            message = f"Request line is longer than {MAX_LINE_BYTES} bytes; send a smaller document"
            request_id: Any = int(found.group(1)) if found.group(1)[:1] != b'"' else found.group(1)[1:-1].decode()
            error = ErrorData(code=INVALID_REQUEST, message=message)
            await self._sender.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=request_id, error=error)))


class StdoutSender:
    """stdout as the server's write stream: one JSON line per message, flow-controlled."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def send(self, item: SessionMessage) -> None:
        data = item.message.model_dump_json(by_alias=True, exclude_unset=True)
        self._writer.write(data.encode("utf-8", "surrogatepass") + b"\n")
        await self._writer.drain()

    async def aclose(self) -> None:
        await self._writer.drain()


@asynccontextmanager
async def lean_stdio() -> AsyncIterator[tuple[StdinMessages, StdoutSender]]:
    """stdin and stdout as message streams for :func:`.transports.serve_streams`.

    Raises:
        Unsupported: on Windows, or when stdin is not a pipe, socket or terminal.
    """
    if sys.platform == "win32":
        raise Unsupported("asyncio pipes on Windows")
    loop = asyncio.get_running_loop()
    sys.stdout.flush()
    in_fd, out_fd = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    reader = asyncio.StreamReader(limit=MAX_LINE_BYTES)
    stdin_file = os.fdopen(in_fd, "rb", buffering=0)
    stdout_file = os.fdopen(out_fd, "wb", buffering=0)
    read_transport: asyncio.ReadTransport | None = None
    try:
        read_transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin_file)
        write_transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, stdout_file)
    except (ValueError, OSError) as exc:  # e.g. stdin or stdout is a regular file
        if read_transport is not None:
            with contextlib.suppress(OSError):
                os.set_blocking(in_fd, True)
            read_transport.close()
        else:
            stdin_file.close()
        stdout_file.close()
        for fd in (saved_in, saved_out):
            os.close(fd)
        raise Unsupported(str(exc)) from exc
    writer = asyncio.StreamWriter(write_transport, protocol, None, loop)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # stray output goes to stderr, never onto the protocol channel
    sender = StdoutSender(writer)
    try:
        yield StdinMessages(reader, sender), sender
    finally:
        with contextlib.suppress(ConnectionError, OSError):  # the client has gone: nothing to deliver
            await writer.drain()
        for transport, fd in ((read_transport, in_fd), (write_transport, out_fd)):
            with contextlib.suppress(OSError):
                os.set_blocking(fd, True)  # the pipe or terminal may be shared with our parent
            transport.close()
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)
