"""Server settings from the environment (REFERENCE §10) and the command line.

No ``mcp`` import here: the CLI reads settings before deciding to start the server.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from json_contracts.limits import DocumentLimits, LimitError, Limits, limits_from_env

__all__ = ["ServerSettings", "SettingsError", "env_flag", "settings_from_env"]

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class SettingsError(ValueError):
    """A setting that cannot be used; the message names the variable or option and the fix."""


def env_flag(environ: Mapping[str, str], name: str, default: bool) -> bool:
    """The original's boolean parsing: unset or empty → default; else one of 1/true/yes/on."""
    value = environ.get(name)
    if not value:
        return default
    return value.lower() in ("1", "true", "yes", "on")


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

    An empty variable counts as unset (the original treats ``""`` as a value).

    Raises:
        SettingsError: an unknown transport, a bad port, a bad ``JSON_CONTRACTS_MAX_*`` limit, or a
            non-loopback HTTP host without a token.
    """
    directory = contracts or environ.get("JSON_CONTRACTS_DIR") or "json-contracts"
    chosen_transport = (transport or environ.get("MCP_TRANSPORT") or "stdio").lower()
    if chosen_transport not in ("stdio", "http"):
        raise SettingsError(
            f"Unsupported MCP_TRANSPORT: {transport or environ.get('MCP_TRANSPORT')}. Use stdio or http."
        )
    raw_port = environ.get("PORT") if port is None else str(port)
    try:
        chosen_port = int(raw_port) if raw_port else 3000
    except ValueError:
        raise SettingsError(f"PORT must be a number from 1 to 65535, got {raw_port!r}") from None
    if not 0 < chosen_port < 65536:
        raise SettingsError(f"PORT must be a number from 1 to 65535, got {chosen_port}")
    try:
        limits, document_limits = limits_from_env(environ)
    except LimitError as exc:
        raise SettingsError(str(exc)) from None
    token = environ.get("API_AUTH_TOKEN") or None
    chosen_host = host or "127.0.0.1"
    if chosen_transport == "http" and chosen_host not in LOOPBACK_HOSTS and token is None:
        raise SettingsError(
            f"Refusing to serve HTTP on {chosen_host} without API_AUTH_TOKEN; set a token or use 127.0.0.1"
        )
    return ServerSettings(
        contracts_dir=Path(os.path.abspath(directory)),
        watch=env_flag(environ, "WATCH_CONTRACTS", True),
        allow_invalid=env_flag(environ, "ALLOW_INVALID_CONTRACTS", False),
        debug=env_flag(environ, "DEBUG", False),
        transport=chosen_transport,
        host=chosen_host,
        port=chosen_port,
        auth_token=token,
        max_document_bytes=document_limits.max_bytes,
        max_document_depth=document_limits.max_depth,
        max_document_errors=document_limits.max_errors,
        limits=limits,
    )
