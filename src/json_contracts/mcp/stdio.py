"""The stdio channel: lines in from stdin, lines out to stdout, with no SDK and no event loop.

Both ends are private copies of fds 0 and 1, read and written with plain blocking calls, which
work on every kind of file (pipe, terminal, regular file, ``/dev/null``, Windows) without asking
asyncio whether it can watch them. While serving, fd 0 points at the null device and fd 1 at
stderr, as the SDK's own stdio transport does, so a stray ``print`` never corrupts the protocol;
both are put back on exit.

A line longer than :data:`.lines.MAX_LINE_BYTES` (16 MiB) is never held: it is read on and dropped,
keeping only its first and last bytes, where its id is looked for.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from json_contracts.mcp.lines import MAX_LINE_BYTES

__all__ = ["Channel", "LongLine", "Output", "open_channel", "read_lines"]

_KEPT = 1024  # bytes kept of each end of a line over the limit, to find its id
_CHUNK = 256 * 1024


@dataclass(frozen=True)
class LongLine:
    """A line over the limit, dropped: its first and last bytes."""

    head: bytes
    tail: bytes


def read_lines(fd: int, limit: int = MAX_LINE_BYTES) -> Iterator[bytes | LongLine]:
    """Each non-blank line of ``fd`` (without its newline), until end of input.

    A last line without a newline still counts. A line over ``limit`` bytes is a :class:`LongLine`.
    """
    buffer = bytearray()
    skipping: tuple[bytes, bytes] | None = None  # (head, tail) of the line being dropped
    while True:
        try:
            chunk = os.read(fd, _CHUNK)
        except InterruptedError:  # pragma: no cover - Python retries EINTR itself
            continue
        except OSError:  # e.g. EIO on a terminal that went away: the same as the end of input
            chunk = b""
        if not chunk:
            if skipping is not None:
                yield LongLine(skipping[0], skipping[1])
            elif buffer.strip():
                yield bytes(buffer)
            return
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if skipping is not None:
                skipping = (skipping[0], (skipping[1] + piece)[-_KEPT:])
            elif len(buffer) + len(piece) > limit:
                head = (bytes(buffer[:_KEPT]) + piece[:_KEPT])[:_KEPT]
                skipping = (head, (bytes(buffer[-_KEPT:]) + piece)[-_KEPT:])
                buffer.clear()
            else:
                buffer += piece
            if end < 0:
                break
            if skipping is not None:
                yield LongLine(skipping[0], skipping[1])
                skipping = None
            elif buffer.strip():
                yield bytes(buffer)
            buffer.clear()
            start = end + 1


class Output:
    """The protocol's side of stdout: whole lines, written by any thread, one at a time.

    Once the peer has gone (its end of stdout closed: ``EPIPE``), nothing more can be delivered:
    :attr:`gone` is set and later lines are dropped, so the server ends quietly instead of failing.
    """

    def __init__(self, fd: int, on_gone: Callable[[], None] | None = None) -> None:
        self._fd = fd
        self._lock = threading.Lock()
        self._on_gone = on_gone
        self.gone = threading.Event()

    def write(self, data: bytes) -> None:
        """Write ``data`` (one or more whole lines) entirely, before any other thread's."""
        with self._lock:
            if self.gone.is_set():
                return
            view = memoryview(data)
            try:
                while view:
                    written = os.write(self._fd, view)
                    view = view[written:]
            except OSError:  # EPIPE, or the terminal went away: nobody reads any more
                self.gone.set()
                if self._on_gone is not None:
                    self._on_gone()


@dataclass(frozen=True)
class Channel:
    """The private copies of stdin and stdout being served."""

    stdin: int
    stdout: int


@contextlib.contextmanager
def open_channel() -> Iterator[Channel]:
    """Private copies of fds 0 and 1 for the protocol, fd 0 on the null device and fd 1 on stderr."""
    sys.stdout.flush()
    in_fd, out_fd = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # stray output goes to stderr, never onto the protocol channel
    try:
        yield Channel(in_fd, out_fd)
    finally:
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        for fd in (saved_in, saved_out, out_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        # in_fd stays open: the reading thread may still be blocked on it (a terminal that never
        # closes); it is closed when the process ends.
