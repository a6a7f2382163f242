"""Watching the contracts folder: debounced reloads and change notifications.

``watchfiles`` (Rust ``notify``) reports changes; bursts are debounced (150 ms of quiet, as
in the TypeScript server), then the store reloads off the event loop. A contract that breaks keeps its last
good version and the failure is logged; clients hear ``notifications/resources/list_changed``
only when what is served actually changed.

The folder itself may go away, be replaced (moved aside, swapped for a file) or stop being
readable while the server runs. An OS watch follows the folder it was put on, not its path, so
the folder's identity (device, inode) is polled as well; when it changes the store reloads
(``status`` then says what happened) and the watch is put on whatever folder is there, waiting
for one to appear if none is. A reload that fails unexpectedly is logged, never fatal.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Protocol

import anyio
import anyio.to_thread
from watchfiles import Change, awatch

from json_contracts.mcp.handlers import ContractService
from json_contracts.mcp.log import Logger
from json_contracts.mcp.settings import ServerSettings


class ContractServer(Protocol):
    """What the watcher needs of a server: its service, and a way to tell clients of a change.

    A protocol, not the SDK server class: the stdio front desk runs the watcher before (and
    often without ever) loading the SDK, and importing it here would cost every start-up 0.7 s.
    """

    service: ContractService

    async def notify_resources_changed(self) -> None: ...


__all__ = ["watch_contracts"]

DEBOUNCE_MS = 150
#: The TypeScript server's warning when a watched reload fails; the detail follows it. Broken files
#: keep their last good versions (and other files' changes take effect), see the module docstring.
RELOAD_FAILED = "Contract reload failed; keeping previous cache"
POLL_SECONDS = 0.5  # how often the folder's identity is checked, and a missing folder looked for

Identity = tuple[int, int]


def _identity(folder: Path) -> Identity | None:
    """The folder's (device, inode) while it is a folder, else None; a new value is a new folder."""
    try:
        info = os.stat(folder)
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISDIR(info.st_mode) else None


def _is_watched_event(change: Change, path: str, folder: Path) -> bool:
    """A ``*.json`` file directly in the folder, or the folder itself (removed, moved, chmod-ed)."""
    candidate = Path(path)
    return candidate == folder or (candidate.parent == folder and candidate.name.endswith(".json"))


class _Reloader:
    """Reloads the store off the loop, logs what changed, and notifies clients.

    A failure is logged in the TypeScript server's words when it first appears, not again on every
    reload that still finds it (the folder is looked at every half second while it is missing or
    unreadable): ``Contract reload failed; keeping previous cache <message>``, or with invalid
    contracts allowed one ``Skipping invalid contract <file> <message>`` line per broken file.
    """

    def __init__(self, server: ContractServer, logger: Logger) -> None:
        self.server = server
        self.logger = logger
        self._failures = tuple(server.service.store.failures)  # logged at start-up already
        self._error: str | None = None

    async def __call__(self) -> None:
        store = self.server.service.store
        try:
            outcome = await anyio.to_thread.run_sync(store.reload)
        except Exception as exc:  # e.g. an I/O error the loader did not expect: keep serving
            detail = str(exc) or type(exc).__name__
            if detail != self._error:
                self.logger.warn(RELOAD_FAILED, detail)
                self._error = detail
            return
        self._error = None
        if tuple(outcome.failures) != self._failures:
            if outcome.message:
                self.logger.warn(RELOAD_FAILED, outcome.message)
            else:  # invalid contracts are allowed: each broken file is skipped, as at start-up
                for failure in outcome.failures:
                    self.logger.warn(f"Skipping invalid contract {failure.file}", failure.message)
        self._failures = tuple(outcome.failures)
        if outcome.changed:
            self.logger.info("Contracts reloaded", str(len(outcome.snapshot.contracts)))
            await self.server.notify_resources_changed()


async def watch_contracts(server: ContractServer, settings: ServerSettings, logger: Logger) -> None:
    """Reload on every settled burst of changes to ``*.json`` files directly in the folder, for ever."""
    folder = server.service.store.directory
    reload = _Reloader(server, logger)
    identity = _identity(folder)
    if identity is None:
        logger.warn("Contracts directory does not exist; watching for it to appear", str(folder))
        # It may have gone between the load at start-up and now: serve what is there (nothing).
        await reload()
    while True:
        if identity is None:
            while identity is None:
                await anyio.sleep(POLL_SECONDS)
                identity = _identity(folder)
            logger.info("Contracts directory appeared", str(folder))
        else:
            await _watch_folder(folder, identity, reload, logger)
            identity = _identity(folder)
            if identity is None:
                logger.warn("Contracts directory is gone or no longer a folder; watching for it to return", str(folder))
        await reload()  # the folder went, came back or was replaced: serve what is there now


async def _watch_folder(folder: Path, identity: Identity, reload: _Reloader, logger: Logger) -> None:
    """Reload on changes until this folder is gone or replaced (or cannot be watched); then return."""
    replaced = anyio.Event()

    async def poll_identity() -> None:
        await anyio.sleep(POLL_SECONDS)
        await reload()  # catch up with changes made before the OS watch was in place
        while _identity(folder) == identity:
            await anyio.sleep(POLL_SECONDS)
        replaced.set()

    async with anyio.create_task_group() as group:
        group.start_soon(poll_identity)
        try:
            async for changes in awatch(
                folder,
                watch_filter=lambda change, path: _is_watched_event(change, path, folder),
                stop_event=replaced,
                debounce=DEBOUNCE_MS,
                step=25,
                recursive=False,
                rust_timeout=200,  # how often the watcher thread checks for cancellation: exit stays prompt
            ):
                if any(Path(path) == folder for _, path in changes) and _identity(folder) != identity:
                    replaced.set()  # the folder itself was removed or moved away: the watch ends at once
                    continue
                await reload()
        except (OSError, RuntimeError) as exc:  # e.g. not readable, or gone before the watch started
            logger.debug("Cannot watch the contracts directory; checking it again shortly", repr(exc))
            await reload()
            with anyio.move_on_after(POLL_SECONDS):
                await replaced.wait()
        group.cancel_scope.cancel()
