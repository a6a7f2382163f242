"""Server logging: one line per event on stderr, ``[json-contracts] <level>: <message>``.

stdout is the protocol channel in stdio mode, so nothing here ever writes to it. Debug and
info lines appear only with ``DEBUG`` set; user input is never logged otherwise.
"""

from __future__ import annotations

import json
import sys
from typing import Any

__all__ = ["Logger"]


class Logger:
    def __init__(self, debug: bool = False) -> None:
        self.debug_enabled = debug

    def _write(self, level: str, message: str, meta: Any = None) -> None:
        line = f"[json-contracts] {level}: {message}"
        if meta is not None:
            if isinstance(meta, (BaseException, str)):
                line += f" {meta}"
            else:
                try:
                    line += " " + json.dumps(meta, ensure_ascii=False)
                except (TypeError, ValueError):
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
