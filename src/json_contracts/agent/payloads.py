"""The payloads agents receive: contract, create, edit and repair.

Field order and the fixed instruction lines are the TypeScript server's, exactly; the MCP tools, the
CLI and the Python API all return these dicts.
"""

from __future__ import annotations

from typing import Any

from json_contracts.agent.repair import field_hints, repairs
from json_contracts.contracts.model import Contract
from json_contracts.errors import InvalidInputError, OperationError
from json_contracts.schema.validation import ErrorRecord, describe_errors, validate

__all__ = [
    "CREATE_INSTRUCTIONS",
    "EDIT_INSTRUCTIONS",
    "REPAIR_INSTRUCTIONS",
    "contract_payload",
    "create_payload",
    "edit_payload",
    "repair_payload",
    "resource_payload",
    "validation_payload",
]

_SHARED = [
    "Return JSON only.",
    "Do not return markdown.",
    "Do not include commentary.",
    "Do not include extra keys.",
    "Match the schema exactly.",
    "Use enum values exactly.",
    "Follow all rules.",
    "Use examples as guidance.",
]
CREATE_INSTRUCTIONS = ["Convert the input into JSON.", *_SHARED]
EDIT_INSTRUCTIONS = [
    "Start from currentJson.",
    "Apply only the user's requested change.",
    "Preserve all unspecified fields exactly.",
    "Return the complete updated JSON object, not a patch.",
    *_SHARED,
]
REPAIR_INSTRUCTIONS = [
    "Repair the JSON so it validates against the schema.",
    "Return JSON only.",
    "Do not return markdown.",
    "Do not include commentary.",
    "Do not include extra keys.",
    "Preserve valid fields where possible.",
]


def _head(contract: Contract) -> dict[str, Any]:
    return {
        "contract": contract.name,
        "contractHash": contract.contract_hash,
        "schemaHash": contract.schema_hash,
    }


def contract_payload(contract: Contract) -> dict[str, Any]:
    """``read_contract``: the whole normalised contract with its hashes."""
    return {
        **_head(contract),
        "description": contract.description or "",
        "rules": contract.rules,
        "operations": contract.operations,
        "schema": contract.schema,
        "examples": contract.examples,
    }


def resource_payload(contract: Contract) -> dict[str, Any]:
    """The ``json-contract://<name>`` resource body."""
    body = contract.public_body()
    body["contractHash"] = contract.contract_hash
    body["schemaHash"] = contract.schema_hash
    return body


def check_create(contract: Contract) -> None:
    """Raises: OperationError: the contract disables ``create``."""
    if not contract.operations["create"]["enabled"]:
        raise OperationError(f"Contract {contract.name} does not enable the create operation.")


def check_edit(
    contract: Contract, current_json: Any, *, caller: str = "get_edit_contract", max_errors: int | None = None
) -> None:
    """Raises: OperationError or InvalidInputError, in the TypeScript server's order of checks."""
    edit = contract.operations["edit"]
    if not edit["enabled"]:
        raise OperationError(f"Contract {contract.name} does not enable the edit operation.")
    if edit.get("return") != "full_object":
        raise OperationError(f"Contract {contract.name} edit operation must return full_object for {caller}.")
    result = validate(contract.compiled, current_json, max_errors=max_errors)
    if not result.valid:
        raise InvalidInputError(
            f"currentJson does not validate against contract {contract.name}: {describe_errors(result.errors)}"
        )


def _operation_body(contract: Contract, operation: str, instructions: list[str]) -> dict[str, Any]:
    """The fields the create and edit payloads share, in the TypeScript server's order."""
    op = contract.operations[operation]
    return {
        **_head(contract),
        "operation": operation,
        "instructions": list(instructions),
        "description": contract.description or "",
        "rules": contract.rules,
        "operationRules": op["rules"],
        "schema": contract.schema,
        "examples": contract.examples,
        "operationExamples": op["examples"],
    }


def create_payload(contract: Contract, input_text: str, context: dict[str, Any] | None = None) -> dict[str, Any]:
    """``get_json_contract``.

    Raises:
        OperationError: the contract disables ``create``.
    """
    check_create(contract)
    return {
        **_operation_body(contract, "create", CREATE_INSTRUCTIONS),
        "input": input_text,
        "context": {} if context is None else context,
    }


def edit_payload(
    contract: Contract,
    current_json: Any,
    input_text: str,
    context: dict[str, Any] | None = None,
    *,
    max_errors: int | None = None,
) -> dict[str, Any]:
    """``get_edit_contract``; ``max_errors`` bounds the errors quoted when ``current_json`` is invalid.

    Raises:
        OperationError: edit is disabled or does not return ``full_object``.
        InvalidInputError: ``current_json`` does not validate.
    """
    check_edit(contract, current_json, max_errors=max_errors)
    return {
        **_operation_body(contract, "edit", EDIT_INSTRUCTIONS),
        "currentJson": current_json,
        "input": input_text,
        "context": {} if context is None else context,
    }


def _key(error: ErrorRecord) -> str:
    return f"{error['keyword']}:{error['path']}:{error['message']}"


def _unique(errors: list[ErrorRecord]) -> list[ErrorRecord]:
    seen: set[str] = set()
    unique: list[ErrorRecord] = []
    for error in errors:
        if _key(error) not in seen:
            seen.add(_key(error))
            unique.append(error)
    return unique


def repair_payload(
    contract: Contract,
    invalid_json: Any,
    validation_errors: list[ErrorRecord] | None = None,
    *,
    max_errors: int | None = None,
) -> dict[str, Any]:
    """``get_repair_contract``, plus ``repairs`` (one machine-readable entry per error).

    ``max_errors`` bounds the errors computed for ``invalid_json`` (the supplied ones are already
    bounded by the argument size limit).
    """
    supplied: list[ErrorRecord] = [
        {"path": e["path"], "message": e["message"], "keyword": e["keyword"]} for e in validation_errors or []
    ]
    computed = validate(contract.compiled, invalid_json, max_errors=max_errors).errors
    errors = _unique(computed + supplied) if computed else supplied
    hints = field_hints(contract.schema, _unique(supplied + computed))
    instructions = list(dict.fromkeys([*REPAIR_INSTRUCTIONS, *hints]))
    return {
        **_head(contract),
        "instructions": instructions,
        "schema": contract.schema,
        "rules": contract.rules,
        "examples": contract.examples,
        "invalidJson": invalid_json,
        "validationErrors": errors,
        "repairs": repairs(contract.schema, errors),
    }


def validation_payload(contract: Contract, document: Any, *, max_errors: int | None = None) -> dict[str, Any]:
    """``validate_json``: ``{valid, contract, json?, errors}``; at most ``max_errors`` errors and a closing record."""
    result = validate(contract.compiled, document, max_errors=max_errors)
    if result.valid:
        return {"valid": True, "contract": contract.name, "json": document, "errors": []}
    return {"valid": False, "contract": contract.name, "errors": result.errors}
