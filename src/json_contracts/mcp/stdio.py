"""A lean stdio transport: the same messages as the SDK's, without a worker thread per line.

The SDK's ``stdio_server`` reads stdin and writes stdout through ``anyio.wrap_file``, so every
line in and every line out is a hop to a worker thread (about 12 per request, most of the
per-call cost over pipes). Here both ends are asyncio pipe transports on private copies of
fds 0 and 1, parsed and serialised exactly as the SDK does. Like the SDK, fd 1 points at
stderr while serving (a stray ``print`` never corrupts the protocol) and fd 0 at the null
device; both are restored on exit, and the pipes are put back into blocking mode so a shared
terminal is left as it was.

:func:`lean_stdio` raises :class:`Unsupported` where asyncio cannot watch stdin (Windows,
stdin or stdout redirected to a regular file); the caller then uses :func:`threaded_stdio`, which
reads and writes the same way through blocking calls in worker threads. Both read each line
through :func:`.lines.read_message` and refuse a line over :data:`.lines.MAX_LINE_BYTES` (16 MiB)
without holding it, so the limit and the answers are the same on every stdio transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import BinaryIO

import anyio
import anyio.to_thread
from mcp.shared.message import SessionMessage

from json_contracts.mcp.lines import MAX_LINE_BYTES, Reply, long_line_reply, read_message

__all__ = ["MAX_LINE_BYTES", "Unsupported", "lean_stdio", "threaded_stdio"]

_KEPT = 1024  # bytes kept of each end of a line over the limit, to find its id


class Unsupported(Exception):
    """This platform or this stdin cannot be served by the lean transport."""


class StdinMessages:
    """stdin as an async iterator of messages: a ``SessionMessage``, the parse error (as the SDK
    yields it) or a :class:`Reply`."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> StdinMessages:
        return self

    async def __anext__(self) -> SessionMessage | Exception | Reply:
        while True:
            try:
                line = await self._reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as eof:
                if not eof.partial.strip():
                    raise StopAsyncIteration from None
                line = eof.partial  # a last line without a newline still counts
            except asyncio.LimitOverrunError:
                reply = await self._skip_long_line()
                if reply is not None:
                    return reply
                continue
            if not line.strip():
                continue
            return read_message(line.decode("utf-8", "replace"))  # as the SDK reads stdin: bad bytes replaced

    async def _skip_long_line(self) -> Reply | None:
        """Drop a line over the limit without holding it; answer it when its id can be found."""
        head = tail = b""
        while True:
            try:
                chunk = await self._reader.readuntil(b"\n")
            except asyncio.LimitOverrunError as over:
                chunk = await self._reader.readexactly(over.consumed)
            except asyncio.IncompleteReadError as eof:
                chunk = eof.partial
            head = head or chunk[:_KEPT]
            tail = (tail + chunk)[-_KEPT:]
            if not chunk or chunk.endswith(b"\n"):
                return long_line_reply(head, tail)


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
        Unsupported: on Windows, or when stdin or stdout is not a pipe, socket or terminal.
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
        yield StdinMessages(reader), sender
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


class FileLines:
    """A blocking binary file as an async iterator of messages, each line read in a worker thread.

    The same messages as :class:`StdinMessages`, with the same 16 MiB line limit: a longer line is
    read on in 1 MiB pieces that are dropped, keeping only its two ends to find its id.
    """

    def __init__(self, file: BinaryIO) -> None:
        self._file = file

    def __aiter__(self) -> FileLines:
        return self

    async def __anext__(self) -> SessionMessage | Exception | Reply:
        while True:
            # abandoned on cancel: a read blocked on a terminal must not hold the server open at exit
            line, reply = await anyio.to_thread.run_sync(self._read_line, abandon_on_cancel=True)
            if reply is not None:
                return reply
            if line is None:
                raise StopAsyncIteration
            if line.strip():
                return read_message(line.decode("utf-8", "replace"))

    def _read_line(self) -> tuple[bytes | None, Reply | None]:
        """The next line (None at end of input), or the answer to a line over the limit."""
        while True:
            line = self._file.readline(MAX_LINE_BYTES + 1)
            if not line:
                return None, None
            if len(line) <= MAX_LINE_BYTES or line.endswith(b"\n"):
                return line, None
            head, tail = line[:_KEPT], line[-_KEPT:]
            del line
            while True:
                piece = self._file.readline(1024 * 1024)
                tail = (tail + piece)[-_KEPT:]
                if not piece or piece.endswith(b"\n"):
                    break
            reply = long_line_reply(head, tail)
            if reply is not None:
                return None, reply


class FileSender:
    """A blocking binary file as the server's write stream: one JSON line per message, written in a worker thread.

    One write at a time, first come first served, so answers leave in the order they were sent.
    """

    def __init__(self, file: BinaryIO) -> None:
        self._file = file
        self._lock: anyio.Lock | None = None  # made on first use, inside the event loop

    async def send(self, item: SessionMessage) -> None:
        data = item.message.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8", "surrogatepass")
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            await anyio.to_thread.run_sync(self._write, data + b"\n")

    def _write(self, data: bytes) -> None:
        self._file.write(data)
        self._file.flush()

    async def aclose(self) -> None:
        """Everything is flushed as it is sent."""


@asynccontextmanager
async def threaded_stdio() -> AsyncIterator[tuple[FileLines, FileSender]]:
    """stdin and stdout as message streams through blocking reads and writes, for any kind of file.

    Like :func:`lean_stdio`, it serves private copies of fds 0 and 1 while fd 0 points at the
    null device and fd 1 at stderr, and puts both back on exit.
    """
    sys.stdout.flush()
    in_fd, out_fd = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    stdin_file = os.fdopen(in_fd, "rb")
    stdout_file = os.fdopen(out_fd, "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # stray output goes to stderr, never onto the protocol channel
    try:
        yield FileLines(stdin_file), FileSender(stdout_file)
    finally:
        with contextlib.suppress(OSError):  # the client has gone: nothing to deliver
            stdout_file.close()
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)
        # stdin_file stays open: a worker thread may still be blocked reading it; it is closed
        # when the process ends.
