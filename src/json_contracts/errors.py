"""Exceptions raised by the engine.

Batch work (loading a folder, linting) returns problems as values; exceptions are for a single
request that cannot be answered. Adapters catch :class:`JsonContractsError` only::

    JsonContractsError
    ├── ContractNotFoundError     lookup of a name that is not loaded
    ├── InvalidContractNameError  a name that breaks the safe-name rule
    ├── OperationError            create/edit disabled, or edit not returning full_object
    ├── InvalidInputError         a document or argument that cannot be used (e.g. currentJson)
    ├── JsonParseError            text that is not JSON (carries line and column)
    │   └── JsonTooDeepError      JSON nested deeper than can be read
    ├── LoadError                 a folder that failed to load (carries every problem)
    ├── ReloadFailedError         a reload of a served folder found broken files (the last good versions stay)
    └── EnvironmentVariableError  a variable set to a value its reader refuses (names both)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from json_contracts.findings import Finding

__all__ = [
    "ContractNotFoundError",
    "EnvironmentVariableError",
    "InvalidContractNameError",
    "InvalidInputError",
    "JsonContractsError",
    "JsonParseError",
    "JsonTooDeepError",
    "LoadError",
    "OperationError",
    "ReloadFailedError",
]


class JsonContractsError(Exception):
    """Base class of every error the engine raises on purpose."""


class ContractNotFoundError(JsonContractsError):
    """Raised when a contract name is valid but no such contract is loaded."""


class InvalidContractNameError(JsonContractsError):
    """Raised when a contract name breaks the safe-name rule."""


class OperationError(JsonContractsError):
    """Raised when a contract does not enable the requested operation."""


class InvalidInputError(JsonContractsError):
    """Raised when a supplied document or argument cannot be used."""


class JsonParseError(JsonContractsError):
    """Raised when text is not JSON; ``line`` and ``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset


class JsonTooDeepError(JsonParseError):
    """Raised when JSON text is nested too deeply to read at all."""


class LoadError(JsonContractsError):
    """Raised when a folder fails to load strictly; ``problems`` lists every failed file."""

    def __init__(self, message: str, problems: Sequence[Finding]) -> None:
        super().__init__(message)
        self.problems = list(problems)


class EnvironmentVariableError(JsonContractsError):
    """Raised when a variable is set to a value its reader does not accept; the message names both."""


class ReloadFailedError(JsonContractsError):
    """Raised when a reload of a served folder finds broken files; their last good versions stay served."""
