"""json-contracts: contracts for JSON written by AI agents.

The public Python API. Load a folder, look a contract up, validate a document (the same result
shape as the MCP tool ``validate_json``), build the agent payloads, and lint::

    from json_contracts import load_contracts, validate_json
    result = load_contracts("json-contracts")
    report = validate_json(result.contracts["support-ticket"], {"summary": "..."})
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from json_contracts.errors import (
    ContractNotFoundError,
    InvalidContractNameError,
    InvalidInputError,
    JsonContractsError,
    JsonParseError,
    LoadError,
    OperationError,
)
from json_contracts.lint import lint_contract, lint_result
from json_contracts.loading import Limits, load_contracts, load_contracts_strict
from json_contracts.model import Contract, Finding, LoadResult
from json_contracts.payloads import contract_payload, create_payload, edit_payload, repair_payload
from json_contracts.payloads import validation_payload as validate_json

try:
    __version__ = _version("json-contracts")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = [
    "Contract",
    "ContractNotFoundError",
    "Finding",
    "InvalidContractNameError",
    "InvalidInputError",
    "JsonContractsError",
    "JsonParseError",
    "Limits",
    "LoadError",
    "LoadResult",
    "OperationError",
    "__version__",
    "contract_payload",
    "create_payload",
    "edit_payload",
    "lint_contract",
    "lint_result",
    "load_contracts",
    "load_contracts_strict",
    "repair_payload",
    "validate_json",
]
