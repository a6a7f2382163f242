"""The real ``json-contracts`` script with some of its standard streams on a pseudo-terminal.

What the CLI does on a terminal (colour, the progress line, the server's hint, Ctrl-C) depends on
``isatty()``, which only a real terminal answers yes to; a pty is one. :func:`screen` replays what
was written to it the way a terminal shows it, so a test can see what a person would see.
"""

from __future__ import annotations

import fcntl
import os
import re
import signal
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.support.cli import script_path

COLUMNS = 100
_CSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """``json-contracts ARGS`` with the streams named in ``on_terminal`` on one pty, the others on pipes.

    Everything written to the pty is collected in :attr:`output` (bytes, as a terminal receives
    them). The environment is this one's minus ``JSON_CONTRACTS_DIR``, ``NO_COLOR`` and
    ``FORCE_COLOR``, plus ``env``.
    """

    def __init__(
        self,
        *args: str,
        cwd: Path,
        on_terminal: Iterable[str] = ("stdout", "stderr"),
        env: Mapping[str, str] | None = None,
    ) -> None:
        chosen = set(on_terminal)
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, COLUMNS, 0, 0))
        full_env = {k: v for k, v in os.environ.items() if k not in {"JSON_CONTRACTS_DIR", "NO_COLOR", "FORCE_COLOR"}}
        full_env.update({"PYTHONIOENCODING": "utf-8", **(env or {})})
        self._master = master
        self._chunks: list[bytes] = []
        self._lock = threading.Lock()
        self.process = subprocess.Popen(
            [str(script_path()), *args],
            cwd=cwd,
            env=full_env,
            stdin=slave if "stdin" in chosen else subprocess.PIPE,
            stdout=slave if "stdout" in chosen else subprocess.PIPE,
            stderr=slave if "stderr" in chosen else subprocess.PIPE,
            start_new_session=True,  # a Ctrl-C in the terminal running pytest never reaches it
        )
        os.close(slave)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self._master, 4096)
            except OSError:  # EIO: every copy of the other end is closed
                return
            if not chunk:
                return
            with self._lock:
                self._chunks.append(chunk)

    @property
    def output(self) -> bytes:
        with self._lock:
            return b"".join(self._chunks)

    def wait_for(self, marker: bytes, timeout: float = 60) -> None:
        """Wait until ``marker`` has appeared on the terminal."""
        deadline = time.monotonic() + timeout
        while marker not in self.output:
            if time.monotonic() > deadline or (self.process.poll() is not None and not self._reader.is_alive()):
                raise AssertionError(f"{marker!r} never appeared; the terminal shows {self.output!r}")
            time.sleep(0.05)

    def type(self, data: bytes) -> None:
        """Type on the keyboard (``b"\\x04"`` is Ctrl-D at the start of a line)."""
        os.write(self._master, data)

    def interrupt(self) -> None:
        """Ctrl-C: SIGINT to the process."""
        self.process.send_signal(signal.SIGINT)

    def finish(self, timeout: float = 120) -> tuple[int, bytes, bytes]:
        """Wait for the exit; (exit status, what the piped stdout got, what the piped stderr got)."""
        out, err = self.process.communicate(timeout=timeout)
        self._reader.join(timeout=10)
        os.close(self._master)
        return self.process.returncode, out or b"", err or b""


def screen(data: bytes, columns: int = COLUMNS, *, history: list[str] | None = None) -> list[str]:
    """The lines a terminal shows after receiving ``data``: carriage returns overwrite, escape codes act.

    Handles what the CLI writes: printable text, ``\\r``, ``\\n`` (the pty sends ``\\r\\n``),
    erase-in-line (``ESC [ K``) and cursor show/hide (no visible effect). A line longer than the
    terminal wraps onto the next one, as a terminal wraps it. ``history`` collects what the
    current line showed each time the cursor went back to its start (every redraw of a
    progress line), so a test can see the line as it was on screen between redraws.
    """
    lines: list[list[str]] = [[]]
    column = 0
    text = data
    position = 0
    while position < len(text):
        escape = _CSI.match(text, position)
        if escape:
            if escape.group().endswith(b"K"):
                del lines[-1][column:]
            position = escape.end()
            continue
        character = text[position : position + 1]
        width = 1
        if character[0] >= 0x80:  # one UTF-8 character: its lead byte says how long it is
            width = 2 if character[0] < 0xE0 else 3 if character[0] < 0xF0 else 4
        glyph = text[position : position + width].decode("utf-8", "replace")
        position += width
        if glyph == "\r":
            if history is not None:
                history.append("".join(lines[-1]).rstrip())
            column = 0
        elif glyph == "\n":
            lines.append([])
            column = 0
        else:
            if column >= columns:  # wrap
                lines.append([])
                column = 0
            line = lines[-1]
            line.extend(" " * (column - len(line)))
            if column < len(line):
                line[column] = glyph
            else:
                line.append(glyph)
            column += 1
    shown = ["".join(line).rstrip() for line in lines]
    while shown and not shown[-1]:
        shown.pop()
    return shown
