"""Watching the contracts folder: debounced reloads and change notifications.

``watchfiles`` (Rust ``notify``) reports changes; bursts are debounced (150 ms of quiet, as
the original), then the store reloads off the event loop. A contract that breaks keeps its last
good version and the failure is logged; clients hear ``notifications/resources/list_changed``
only when what is served actually changed.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import anyio.to_thread
from watchfiles import Change, awatch

from json_contracts.mcp_server.log import Logger
from json_contracts.mcp_server.server import ContractServer
from json_contracts.mcp_server.settings import ServerSettings

__all__ = ["watch_contracts"]

DEBOUNCE_MS = 150


def _is_contract_event(change: Change, path: str, folder: Path) -> bool:
    candidate = Path(path)
    return candidate.parent == folder and candidate.name.endswith(".json")


async def watch_contracts(server: ContractServer, settings: ServerSettings, logger: Logger) -> None:
    """Reload on every settled burst of changes to ``*.json`` files directly in the folder."""
    folder = server.tools.store.directory
    if not folder.is_dir():
        logger.warn("Contracts directory does not exist; not watching it", str(folder))
        return
    async for _changes in awatch(
        folder,
        watch_filter=lambda change, path: _is_contract_event(change, path, folder),
        debounce=DEBOUNCE_MS,
        step=25,
        recursive=False,
        rust_timeout=200,  # how often the watcher thread checks for cancellation: exit stays prompt
    ):
        outcome = await anyio.to_thread.run_sync(server.tools.store.reload)
        if outcome.message:
            logger.warn("Contract reload found broken files; still serving their last good versions", outcome.message)
        if outcome.changed:
            logger.info("Contracts reloaded", str(len(server.tools.store.contracts)))
            await server.notify_resources_changed()
