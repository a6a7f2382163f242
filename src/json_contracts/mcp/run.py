"""Starting the server: load the folder, then serve it on the chosen transport.

Over stdio the front desk (:mod:`.frontdesk`) serves, and the MCP SDK is imported only if a
message needs it; over HTTP the SDK's server is built at start. Importing this module imports
neither the SDK nor the event loop library.
"""

from __future__ import annotations

import atexit
import os
import shlex
import sys
import threading
import time
from typing import TYPE_CHECKING

from json_contracts.contracts.store import ContractStore
from json_contracts.errors import LoadError
from json_contracts.mcp.handlers import ContractService
from json_contracts.mcp.log import Logger
from json_contracts.mcp.settings import ServerSettings

if TYPE_CHECKING:
    from json_contracts.mcp.server import ContractServer

__all__ = ["INTERRUPTED_EXIT_CODE", "SWITCH_INTERVAL", "open_server", "open_service", "run_server"]

_LINGER_SECONDS = 1.0  # how long an exit waits for worker threads still working on an abandoned call

#: 128 + SIGINT: Ctrl-C ends the server as it ends every other command (docs/reference/commands.md).
INTERRUPTED_EXIT_CODE = 130


def open_service(settings: ServerSettings, logger: Logger) -> ContractService:
    """Load the folder: the tools, resources and prompts over it, with no SDK.

    Raises:
        LoadError: a contract failed to load and invalid contracts are not allowed.
    """
    if not settings.contracts_dir.is_dir() and not settings.contracts_dir.exists():
        logger.warn("Contracts directory does not exist; no contracts loaded", str(settings.contracts_dir))
    store = ContractStore.open(settings.contracts_dir, allow_invalid=settings.allow_invalid, limits=settings.limits)
    for failure in store.failures:
        logger.warn(f"Skipping invalid contract {failure.file}", failure.message)
    return ContractService(store, settings)


def open_server(settings: ServerSettings, logger: Logger) -> ContractServer:
    """Load the folder and build the SDK's server over it (imports the SDK).

    Raises:
        LoadError: a contract failed to load and invalid contracts are not allowed.
    """
    from json_contracts.mcp.server import build_server

    return build_server(open_service(settings, logger))


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


#: How long a thread may hold the interpreter while another waits for it (Python's default is 5 ms).
#: A slow document is validated in a thread while another reads stdin or serves the other HTTP
#: clients; each time that one makes a system call it lets the interpreter go and then waits up to
#: this long to get it back. At 1 ms a ping sent during a 1 MiB validation over stdio was answered
#: in 2.3 ms (median; 6.9 ms at 5 ms), and 49 HTTP clients beside a slow one kept about half their
#: throughput instead of a third (bench/ping_under_load.py, bench/http_slow_client.py). Shorter
#: intervals (0.5, 0.2 ms) left the others less, not more: the worker wins the interpreter back
#: sooner too.
SWITCH_INTERVAL = 0.001


def run_server(settings: ServerSettings) -> int:
    """Start the server and serve until the client goes away; returns the exit code.

    0 when stdin closed (stdio) or the client went away, 1 when the folder does not load, 130 after
    Ctrl-C (SIGINT), with ``Interrupted.`` on stderr and no traceback.
    """
    logger = Logger(settings.debug)
    try:
        service = open_service(settings, logger)
    except LoadError as exc:
        logger.error("Fatal startup error", str(exc))
        logger.error(_startup_advice(settings))
        return 1
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        if settings.transport == "stdio":
            from json_contracts.mcp.frontdesk import serve_stdio

            serve_stdio(service, settings, logger)
        else:
            import anyio

            from json_contracts.mcp.http import serve_http
            from json_contracts.mcp.server import build_server

            anyio.run(serve_http, build_server(service), settings, logger)
    except KeyboardInterrupt:
        # stdio is restored and (over HTTP) the tasks are cancelled by the time it arrives here, so the
        # shutdown is as clean as at EOF; the exit says it was interrupted, as every command's does.
        sys.stderr.write(("\n" if sys.stderr.isatty() else "") + "Interrupted.\n")  # after the terminal's ^C
        sys.stderr.flush()
        _exit_past_lingering_workers(INTERRUPTED_EXIT_CODE)
        return INTERRUPTED_EXIT_CODE
    sys.stderr.flush()
    _exit_past_lingering_workers(0)
    return 0
