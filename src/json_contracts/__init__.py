"""json-contracts: contracts for JSON written by AI agents.

The public Python API. Load a folder, look a contract up, validate a document (the same result
shape as the MCP tool ``validate_json``), build the agent payloads, lint, and draw valid
documents for an app's own property tests::

    from json_contracts import load_contracts, validate_json
    result = load_contracts("json-contracts")
    report = validate_json(result.contracts["support-ticket"], {"summary": "..."})

Everything else in the package is internal: its layout is explained in ``ARCHITECTURE.md``.
Names are imported on first use (PEP 562), so ``import json_contracts`` costs nothing until a
name is used, and ``from_contract``/``from_schema`` import Hypothesis only when asked for.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from json_contracts.agent.payloads import contract_payload, create_payload, edit_payload, repair_payload
    from json_contracts.agent.payloads import validation_payload as validate_json
    from json_contracts.contracts.limits import DocumentLimits, Limits
    from json_contracts.contracts.loading import load_contracts, load_contracts_strict
    from json_contracts.contracts.model import Contract, LoadResult
    from json_contracts.errors import (
        ContractNotFoundError,
        EnvironmentVariableError,
        InvalidContractNameError,
        InvalidInputError,
        JsonContractsError,
        JsonParseError,
        LoadError,
        OperationError,
    )
    from json_contracts.findings import Code, Finding
    from json_contracts.lint import lint_contract, lint_result
    from json_contracts.testing.strategies import from_contract, from_schema

    __version__: str

# module -> {public name: name in that module}
_SOURCES: dict[str, dict[str, str]] = {
    "json_contracts.agent.payloads": {
        "contract_payload": "contract_payload",
        "create_payload": "create_payload",
        "edit_payload": "edit_payload",
        "repair_payload": "repair_payload",
        "validate_json": "validation_payload",
    },
    "json_contracts.contracts.limits": {"DocumentLimits": "DocumentLimits", "Limits": "Limits"},
    "json_contracts.contracts.loading": {
        "load_contracts": "load_contracts",
        "load_contracts_strict": "load_contracts_strict",
    },
    "json_contracts.contracts.model": {"Contract": "Contract", "LoadResult": "LoadResult"},
    "json_contracts.errors": {
        name: name
        for name in (
            "ContractNotFoundError",
            "EnvironmentVariableError",
            "InvalidContractNameError",
            "InvalidInputError",
            "JsonContractsError",
            "JsonParseError",
            "LoadError",
            "OperationError",
        )
    },
    "json_contracts.findings": {"Code": "Code", "Finding": "Finding"},
    "json_contracts.lint": {"lint_contract": "lint_contract", "lint_result": "lint_result"},
    "json_contracts.testing.strategies": {"from_contract": "from_contract", "from_schema": "from_schema"},
}
_LAZY = {public: (module, name) for module, names in _SOURCES.items() for public, name in names.items()}

__all__ = [
    "Code",
    "Contract",
    "ContractNotFoundError",
    "DocumentLimits",
    "EnvironmentVariableError",
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
    "from_contract",
    "from_schema",
    "lint_contract",
    "lint_result",
    "load_contracts",
    "load_contracts_strict",
    "repair_payload",
    "validate_json",
]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("json-contracts")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.0.0"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = _version()
    elif name in _LAZY:
        module, attribute = _LAZY[name]
        value = getattr(import_module(module), attribute)
    else:
        raise AttributeError(f"module 'json_contracts' has no attribute {name!r}")
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
