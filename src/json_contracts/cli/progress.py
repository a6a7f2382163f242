"""The N-of-M line ``json-contracts test`` keeps on stderr while results stream to stdout.

click draws the bar (:func:`click.progressbar`): it pads each redraw to the widest line it drew,
so a shorter line never leaves characters of a longer one behind. What click has no call for is
taking the line away, which a line that sits between streamed results needs: :meth:`Progress.clear`
overwrites it with spaces before results are printed (no escape codes, so ``NO_COLOR`` cannot strip
it), and :meth:`Progress.close` does the same at the end and shows the cursor click hid, without the
newline click's own finish would leave.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

__all__ = ["Progress", "progress"]

_LABEL = "testing"
_BAR_WIDTH = 20
_SHOW_CURSOR = "\x1b[?25h"  # the counterpart of the hide click writes before each redraw


class Progress:
    """``testing  [#####     ]  3 of 8: support-ticket`` on stderr; a no-op when ``enabled`` is false."""

    def __init__(self, total: int, *, enabled: bool) -> None:
        self._total = total
        self._done = 0
        self._bar = None
        if enabled:
            self._bar = click.progressbar(
                length=max(total, 1),
                label=_LABEL,
                file=sys.stderr,
                width=_BAR_WIDTH,
                show_eta=False,
                show_percent=False,
                show_pos=False,
                item_show_func=_as_shown,
            )

    def start(self, name: str) -> None:
        """Show that the contract ``name`` is being tested (the one after those done)."""
        if self._bar is None:
            return
        room = shutil.get_terminal_size().columns - len(_LABEL) - _BAR_WIDTH - 8  # never wrap: a wrapped line stays
        item = f"{self._done + 1} of {self._total}: {name}"
        self._bar.current_item = item if len(item) <= room else item[: max(room - 1, 0)] + "…"
        self._bar.render_progress()

    def advance(self) -> None:
        """One more contract done."""
        self._done += 1
        if self._bar is not None:
            self._bar.update(1)

    def clear(self) -> None:
        """Take the line away, so results printed next start on a clean line."""
        if self._bar is not None and self._bar.max_width:
            click.echo("\r" + " " * self._bar.max_width + "\r", err=True, nl=False)

    def close(self) -> None:
        """Clear the line and show the cursor again."""
        if self._bar is not None:
            self.clear()
            click.echo(_SHOW_CURSOR, err=True, nl=False, color=True)
            self._bar = None


def _as_shown(item: str | None) -> str | None:
    return item


@contextmanager
def progress(total: int, *, enabled: bool) -> Iterator[Progress]:
    """A :class:`Progress` that is closed however the block ends (Ctrl-C included)."""
    line = Progress(total, enabled=enabled)
    try:
        yield line
    finally:
        line.close()
