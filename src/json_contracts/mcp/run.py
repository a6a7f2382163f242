"""Starting the server: load the folder, build the server, serve it on the chosen transport.

Importing this module imports the MCP SDK (about a second); the CLI imports it only when it
starts the server.
"""

from __future__ import annotations

import atexit
import os
import shlex
import sys
import threading
import time

import anyio

from json_contracts.contracts.store import ContractStore
from json_contracts.errors import LoadError
from json_contracts.mcp.handlers import ContractService
from json_contracts.mcp.log import Logger
from json_contracts.mcp.server import ContractServer, build_server
from json_contracts.mcp.settings import ServerSettings

__all__ = ["INTERRUPTED_EXIT_CODE", "open_server", "run_server"]

_LINGER_SECONDS = 1.0  # how long an exit waits for worker threads still working on an abandoned call

#: 128 + SIGINT: Ctrl-C ends the server as it ends every other command (docs/reference/commands.md).
INTERRUPTED_EXIT_CODE = 130


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


def _startup_advice(settings: ServerSettings) -> str:
    """What to do when a broken contract stops the server: the fatal line alone leaves one stuck.

    It follows the TypeScript server's ``Fatal startup error`` line, which stays as it was.
    """
    folder = shlex.quote(str(settings.contracts_dir))
    return (
        "To serve the contracts that load and skip the broken ones, set ALLOW_INVALID_CONTRACTS=true; "
        f"to see every problem with its line and column, run: json-contracts validate --contracts {folder}"
    )


def _exit_past_lingering_workers(code: int) -> None:
    """End the process now when a worker thread is still busy with a call nobody waits for.

    A call whose client went away (end of input, SIGTERM, Ctrl-C) is abandoned, but its thread
    runs to the end of its document, and Python waits for such threads before exiting. The
    exit handlers run, then the process ends with ``code`` without waiting.
    """
    deadline = time.monotonic() + _LINGER_SECONDS
    for thread in threading.enumerate():
        if thread is threading.main_thread() or thread.daemon:
            continue
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            sys.stdout.flush()
            sys.stderr.flush()
            atexit._run_exitfuncs()
            os._exit(code)


def run_server(settings: ServerSettings) -> int:
    """Start the server and serve until the client goes away; returns the exit code.

    0 when stdin closed (stdio) or the client went away, 1 when the folder does not load, 130 after
    Ctrl-C (SIGINT), with ``Interrupted.`` on stderr and no traceback.
    """
    from json_contracts.mcp.http import serve_http
    from json_contracts.mcp.transports import serve_stdio

    logger = Logger(settings.debug)
    try:
        server = open_server(settings, logger)
    except LoadError as exc:
        logger.error("Fatal startup error", str(exc))
        logger.error(_startup_advice(settings))
        return 1
    serve = serve_stdio if settings.transport == "stdio" else serve_http
    try:
        anyio.run(serve, server, settings, logger)
    except KeyboardInterrupt:
        # anyio.run has already cancelled the tasks and restored stdio by the time it re-raises, so
        # the shutdown is as clean as at EOF; the exit says it was interrupted, as every command's does.
        sys.stderr.write(("\n" if sys.stderr.isatty() else "") + "Interrupted.\n")  # after the terminal's ^C
        sys.stderr.flush()
        _exit_past_lingering_workers(INTERRUPTED_EXIT_CODE)
        return INTERRUPTED_EXIT_CODE
    sys.stderr.flush()
    _exit_past_lingering_workers(0)
    return 0
