"""Server logging: one line per event on stderr, ``[json-contracts] <level>: <message>``.

stdout is the protocol channel in stdio mode, so nothing here ever writes to it. Debug and
info lines appear only with ``DEBUG`` set; user input is never logged otherwise.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from json_contracts._json.text import dumps

__all__ = ["LibraryLogHandler", "Logger"]


class Logger:
    def __init__(self, debug: bool = False) -> None:
        self.debug_enabled = debug

    def _write(self, level: str, message: str, meta: Any = None) -> None:
        line = f"[json-contracts] {level}: {message}"
        if meta is not None:
            if isinstance(meta, (BaseException, str)):
                line += f" {meta}"
            else:
                try:  # as JSON.stringify writes it, like the TypeScript server's logger
                    line += " " + dumps(meta, indent=None)
                except (TypeError, ValueError, RecursionError):
                    line += " [unserializable metadata]"
        sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def error(self, message: str, meta: Any = None) -> None:
        self._write("error", message, meta)

    def warn(self, message: str, meta: Any = None) -> None:
        self._write("warn", message, meta)

    def announce(self, message: str, meta: Any = None) -> None:
        """An info line that always prints (e.g. where the HTTP server listens)."""
        self._write("info", message, meta)

    def info(self, message: str, meta: Any = None) -> None:
        if self.debug_enabled:
            self._write("info", message, meta)

    def debug(self, message: str, meta: Any = None) -> None:
        if self.debug_enabled:
            self._write("debug", message, meta)


class LibraryLogHandler(logging.Handler):
    """Writes the MCP SDK's and uvicorn's warnings as our own lines, control characters escaped.

    Those libraries log values a client chose (a refused ``Host`` or ``Origin`` header, say);
    printed raw they could move an operator's cursor or forge a line, and they would lack the
    ``[json-contracts]`` prefix every other line has. An exception shows as its type and message,
    never as a traceback.
    """

    def __init__(self, logger: Logger) -> None:
        super().__init__(logging.WARNING)
        self._logger = logger

    def emit(self, record: logging.LogRecord) -> None:
        from json_contracts.reporting.escaping import escape_text

        try:
            message = record.getMessage().strip()
        except Exception:  # a library's bad format string: still say something
            message = str(record.msg).strip()
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            message += f" ({type(error).__name__}: {error})"
        if record.levelno >= logging.ERROR:
            self._logger.error(escape_text(message))
        else:
            self._logger.warn(escape_text(message))

    def install(self, *names: str) -> None:
        """Send the named loggers' records here only (not also to Python's last-resort stderr writer)."""
        for name in names:
            library = logging.getLogger(name)
            library.handlers[:] = [self]
            library.propagate = False
