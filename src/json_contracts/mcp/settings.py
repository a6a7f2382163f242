"""Server settings from the environment (``docs/reference/configuration.md``) and the command line.

No ``mcp`` import here: the CLI reads settings before deciding to start the server.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from json_contracts._env import EmptyFolderOptionError, choice, contracts_folder, flag, shared_flag, text, whole_number
from json_contracts.contracts.limits import DocumentLimits, Limits, limits_from_env
from json_contracts.errors import EnvironmentVariableError

__all__ = ["ServerSettings", "SettingsError", "settings_from_env"]

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class SettingsError(ValueError):
    """A setting that cannot be used; the message names the variable or option and the fix."""


@dataclass(frozen=True)
class ServerSettings:
    """Everything the server needs to start."""

    contracts_dir: Path
    watch: bool = True
    allow_invalid: bool = False
    debug: bool = False
    transport: str = "stdio"
    host: str = "127.0.0.1"
    port: int = 3000
    auth_token: str | None = None
    max_document_bytes: int = DocumentLimits.max_bytes  # every tool and prompt argument
    max_document_depth: int = DocumentLimits.max_depth
    max_document_errors: int = DocumentLimits.max_errors  # errors listed per document
    limits: Limits = field(default_factory=Limits)  # every contract file


def settings_from_env(
    environ: Mapping[str, str],
    *,
    contracts: str | None = None,
    transport: str | None = None,
    host: str | None = None,
    port: int | None = None,
) -> ServerSettings:
    """Settings from environment variables, overridden by command-line values when given.

    An empty variable counts as unset (the TypeScript server treats ``""`` as a value); any other
    value must parse (a flag is one of 1/true/yes/on or 0/false/no/off), or start-up stops with a
    message naming the variable. ``DEBUG`` is the exception: other tools use the name, so only
    1/true/yes/on turn it on and nothing is refused.

    Raises:
        SettingsError: an unknown transport, a bad port, flag or ``JSON_CONTRACTS_MAX_*`` limit, or a
            non-loopback HTTP host without a token.
    """
    try:
        directory = contracts_folder(contracts, environ)
    except EmptyFolderOptionError as exc:
        raise SettingsError(str(exc)) from None
    if port is not None and not 0 < port < 65536:
        raise SettingsError(f"--port must be a whole number from 1 to 65535, got {port}")
    try:
        chosen_transport = transport or choice(environ, "MCP_TRANSPORT", "stdio", ("stdio", "http"))
        chosen_port = port or whole_number(environ, "PORT", 3000, maximum=65535)
        watch = flag(environ, "WATCH_CONTRACTS", True)
        allow_invalid = flag(environ, "ALLOW_INVALID_CONTRACTS", False)
        debug = shared_flag(environ, "DEBUG")
        limits, document_limits = limits_from_env(environ)
    except EnvironmentVariableError as exc:
        raise SettingsError(str(exc)) from None
    token = text(environ, "API_AUTH_TOKEN")
    chosen_host = host or "127.0.0.1"
    if chosen_transport == "http" and chosen_host not in LOOPBACK_HOSTS and token is None:
        raise SettingsError(
            f"Refusing to serve HTTP on {chosen_host} without API_AUTH_TOKEN; set a token or use 127.0.0.1"
        )
    return ServerSettings(
        contracts_dir=Path(os.path.abspath(directory)),
        watch=watch,
        allow_invalid=allow_invalid,
        debug=debug,
        transport=chosen_transport,
        host=chosen_host,
        port=chosen_port,
        auth_token=token,
        max_document_bytes=document_limits.max_bytes,
        max_document_depth=document_limits.max_depth,
        max_document_errors=document_limits.max_errors,
        limits=limits,
    )
