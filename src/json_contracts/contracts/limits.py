"""Every size and depth limit on untrusted input, with the environment variables that set them.

Contract files come from pull requests and documents from models, so both are bounded before
anything else reads them. :class:`Limits` bounds a contract file (the TypeScript server's three limits
plus nesting) and the folder as a whole (files and bytes, since copies of one large file are cheap
in Git); :class:`DocumentLimits` bounds a document or argument handed to ``check`` or to
an MCP tool or prompt. Every adapter reads the same variables through :func:`limits_from_env`,
so ``validate`` in CI, ``pytest`` and the server agree on what loads. Depth limits have a
ceiling: deeper values would reach Python's recursion limit in the code that reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from json_contracts._env import whole_number
from json_contracts.schema.budget import validation_timeout
from json_contracts.schema.patterns import pattern_timeout

__all__ = ["ENVIRONMENT", "DocumentLimits", "Limits", "defaults", "limits_from_env"]

MAX_DEPTH_CEILING = 256
# Past these, even a folder of small contracts needs more memory than a large CI machine has.
MAX_FOLDER_BYTES_CEILING = 256 * 1024 * 1024
MAX_FOLDER_FILES_CEILING = 20_000


@dataclass(frozen=True)
class Limits:
    """Limits on one contract file: the TypeScript server's three, plus nesting."""

    max_file_bytes: int = 262144  # on-disk size (stat), as the TypeScript server
    max_schema_bytes: int = 131072  # compact UTF-8 size of ``schema``, as the TypeScript server
    max_examples: int = 50  # all example groups together, as the TypeScript server
    max_schema_depth: int = 64  # sub-schema nesting; deeper schemas are refused, not crashed on
    max_file_depth: int = 256  # JSON nesting of the whole file (examples, const, default, ...)
    # The folder as a whole, counted in name order before any file is opened; files past it are refused.
    # lint holds about 15 MB per 256 KiB file of examples, so 32 MiB stays near 2 GB at worst.
    max_folder_bytes: int = 32 * 1024 * 1024  # total on-disk size of the contract files loaded
    max_folder_files: int = 2000  # contract files loaded (twice the 1,000 the server is tested with)


@dataclass(frozen=True)
class DocumentLimits:
    """Limits on one received document or argument (``check`` input, MCP tool and prompt arguments)."""

    max_bytes: int = 1024 * 1024  # compact UTF-8 size
    max_depth: int = 64  # arrays and objects inside each other
    max_errors: int = 1000  # errors listed for one document; more end in one "maxErrors" record


#: variable -> (which limits, field, largest accepted value or None)
ENVIRONMENT: dict[str, tuple[str, str, int | None]] = {
    "JSON_CONTRACTS_MAX_FILE_BYTES": ("contract", "max_file_bytes", None),
    "JSON_CONTRACTS_MAX_SCHEMA_BYTES": ("contract", "max_schema_bytes", None),
    "JSON_CONTRACTS_MAX_EXAMPLES": ("contract", "max_examples", None),
    "JSON_CONTRACTS_MAX_SCHEMA_DEPTH": ("contract", "max_schema_depth", 64),
    "JSON_CONTRACTS_MAX_FILE_DEPTH": ("contract", "max_file_depth", MAX_DEPTH_CEILING),
    "JSON_CONTRACTS_MAX_FOLDER_BYTES": ("contract", "max_folder_bytes", MAX_FOLDER_BYTES_CEILING),
    "JSON_CONTRACTS_MAX_FOLDER_FILES": ("contract", "max_folder_files", MAX_FOLDER_FILES_CEILING),
    "JSON_CONTRACTS_MAX_DOCUMENT_BYTES": ("document", "max_bytes", None),
    "JSON_CONTRACTS_MAX_DOCUMENT_DEPTH": ("document", "max_depth", MAX_DEPTH_CEILING),
    "JSON_CONTRACTS_MAX_ERRORS": ("document", "max_errors", None),
}


def limits_from_env(environ: Mapping[str, str]) -> tuple[Limits, DocumentLimits]:
    """The limits, with every ``JSON_CONTRACTS_MAX_*`` variable that is set (an empty one counts as unset).

    ``JSON_CONTRACTS_PATTERN_TIMEOUT`` and ``JSON_CONTRACTS_VALIDATION_TIMEOUT`` are checked too
    (the pattern matcher and the validator read them themselves), so an adapter that calls this
    once at start-up has checked every limit variable, and a bad one stops every command.

    Raises:
        EnvironmentVariableError: a variable is not a whole number in its accepted range.
    """
    base: dict[str, Limits | DocumentLimits] = {"contract": Limits(), "document": DocumentLimits()}
    values: dict[str, dict[str, int]] = {"contract": {}, "document": {}}
    for name, (kind, field, ceiling) in ENVIRONMENT.items():
        default = int(getattr(base[kind], field))
        values[kind][field] = whole_number(environ, name, default, maximum=ceiling)
    pattern_timeout(environ)
    validation_timeout(environ)
    return replace(Limits(), **values["contract"]), replace(DocumentLimits(), **values["document"])


def defaults() -> dict[str, int]:
    """Each variable's default, for documentation and tests."""
    base: dict[str, Limits | DocumentLimits] = {"contract": Limits(), "document": DocumentLimits()}
    return {name: int(getattr(base[kind], field)) for name, (kind, field, _) in ENVIRONMENT.items()}
