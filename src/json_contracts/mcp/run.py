"""Starting the server: load the folder, build the server, serve it on the chosen transport.

Importing this module imports the MCP SDK (about a second); the CLI imports it only when it
starts the server.
"""

from __future__ import annotations

import contextlib
import sys

import anyio

from json_contracts.contracts.store import ContractStore
from json_contracts.errors import LoadError
from json_contracts.mcp.handlers import ContractService
from json_contracts.mcp.log import Logger
from json_contracts.mcp.server import ContractServer, build_server
from json_contracts.mcp.settings import ServerSettings

__all__ = ["open_server", "run_server"]


def open_server(settings: ServerSettings, logger: Logger) -> ContractServer:
    """Load the folder and build the server.

    Raises:
        LoadError: a contract failed to load and invalid contracts are not allowed.
    """
    if not settings.contracts_dir.is_dir() and not settings.contracts_dir.exists():
        logger.warn("Contracts directory does not exist; no contracts loaded", str(settings.contracts_dir))
    store = ContractStore.open(settings.contracts_dir, allow_invalid=settings.allow_invalid, limits=settings.limits)
    for failure in store.failures:
        logger.warn(f"Skipping invalid contract {failure.file}", failure.message)
    return build_server(ContractService(store, settings))


def run_server(settings: ServerSettings) -> int:
    """Start the server and serve until the client goes away; returns the exit code."""
    from json_contracts.mcp.transports import serve_http, serve_stdio

    logger = Logger(settings.debug)
    try:
        server = open_server(settings, logger)
    except LoadError as exc:
        logger.error("Fatal startup error", str(exc))
        return 1
    serve = serve_stdio if settings.transport == "stdio" else serve_http
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C ends an HTTP server quietly
        anyio.run(serve, server, settings, logger)
    sys.stderr.flush()
    return 0
