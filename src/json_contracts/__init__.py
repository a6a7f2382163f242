"""json-contracts: contracts for JSON written by AI agents.

The public Python API. Load a folder, look a contract up, validate a document (the same result
shape as the MCP tool ``validate_json``), build the agent payloads, and lint::

    from json_contracts import load_contracts, validate_json
    result = load_contracts("json-contracts")
    report = validate_json(result.contracts["support-ticket"], {"summary": "..."})

Names are imported on first use (PEP 562): pytest imports this package in every run of an
environment that has it installed (the ``pytest11`` plugin), and that must not pay for jsonschema.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

    __version__: str

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

# public name -> (module, name in that module)
_LAZY: dict[str, tuple[str, str]] = {
    **{name: ("json_contracts.errors", name) for name in (
        "ContractNotFoundError", "InvalidContractNameError", "InvalidInputError", "JsonContractsError",
        "JsonParseError", "LoadError", "OperationError")},
    "lint_contract": ("json_contracts.lint", "lint_contract"),
    "lint_result": ("json_contracts.lint", "lint_result"),
    "Limits": ("json_contracts.loading", "Limits"),
    "load_contracts": ("json_contracts.loading", "load_contracts"),
    "load_contracts_strict": ("json_contracts.loading", "load_contracts_strict"),
    "Contract": ("json_contracts.model", "Contract"),
    "Finding": ("json_contracts.model", "Finding"),
    "LoadResult": ("json_contracts.model", "LoadResult"),
    "contract_payload": ("json_contracts.payloads", "contract_payload"),
    "create_payload": ("json_contracts.payloads", "create_payload"),
    "edit_payload": ("json_contracts.payloads", "edit_payload"),
    "repair_payload": ("json_contracts.payloads", "repair_payload"),
    "validate_json": ("json_contracts.payloads", "validation_payload"),
}  # fmt: skip


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
    return sorted(set(globals()) | set(__all__))
