"""The payloads agents receive: contract, create, edit and repair.

Field order and the fixed instruction lines are the TypeScript server's, exactly; the MCP tools, the
CLI and the Python API all return these dicts.
"""

from __future__ import annotations

from typing import Any

from json_contracts._json.text import dumps
from json_contracts.agent.repair import field_hints, repairs
from json_contracts.agent.served import js_ordered, served
from json_contracts.contracts.model import Contract
from json_contracts.errors import InvalidInputError, OperationError
from json_contracts.schema.validation import ErrorRecord, describe_errors, too_many_errors, validate

__all__ = [
    "CREATE_INSTRUCTIONS",
    "EDIT_INSTRUCTIONS",
    "PRETTY_ALLOWANCE",
    "REPAIR_INSTRUCTIONS",
    "answer_json",
    "bounded_errors",
    "contract_payload",
    "create_payload",
    "edit_payload",
    "error_limit",
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

#: Indentation an answer's text may add and still be printed with 2 spaces, as the TypeScript
#: server prints it; past this and past the compact text's own size, the text is compact.
PRETTY_ALLOWANCE = 64 * 1024
_ANNOTATIONS = frozenset({"description", "title", "$comment", "examples", "default"})  # never quoted in a message


def _indentation(value: Any, cap: int) -> int:
    """What 2-space indentation adds to ``value``'s compact JSON text, counted up to just past ``cap``.

    Only containers are visited and nothing is written, so a 1 MiB document costs one cheap pass.
    """
    extra = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node
        # each member: a newline and its indent (plus the space after ":" in an object); then the
        # newline and indent before the closing bracket
        per_member = 2 * depth + (4 if isinstance(node, dict) else 3)
        extra += len(node) * per_member + 2 * depth + 1
        if extra > cap:
            return extra
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list, tuple)) and child)
    return extra


def answer_json(value: Any) -> str:
    """``value`` as an answer's text: the TypeScript server's 2-space JSON, unless that would bloat it.

    Indentation grows with depth: a 1 MiB document of numbers 60 levels deep pretty-prints to 65 MB.
    So the text is 2-space JSON when the indentation adds at most :data:`PRETTY_ALLOWANCE` (every
    ordinary answer, byte for byte the TypeScript server's) or at most the compact text's own size
    (a large but ordinary document); otherwise it is compact, which is the same JSON.
    """
    if not isinstance(value, (dict, list, tuple)) or not value:
        return dumps(value)
    if _indentation(value, PRETTY_ALLOWANCE) <= PRETTY_ALLOWANCE:
        return dumps(value)
    compact = dumps(value, indent=None)
    if _indentation(value, len(compact) + PRETTY_ALLOWANCE) <= len(compact) + PRETTY_ALLOWANCE:
        return dumps(value)
    return compact


def _longest_pointer(document: Any) -> int:
    """The length of the longest JSON pointer into ``document`` (escapes counted): what an error path can reach."""
    longest = 0
    stack: list[tuple[Any, int]] = [(document, 0)]
    while stack:
        node, length = stack.pop()
        longest = max(longest, length)
        if isinstance(node, dict):
            for key, child in node.items():
                key_text = str(key)
                reach = length + 1 + len(key_text) + key_text.count("~") + key_text.count("/")
                if isinstance(child, (dict, list, tuple)) and child:
                    stack.append((child, reach))
                elif reach > longest:
                    longest = reach
        elif isinstance(node, (list, tuple)) and node:
            longest = max(longest, length + 1 + len(str(len(node) - 1)))
            stack.extend(
                (child, length + 1 + len(str(i)))
                for i, child in enumerate(node)
                if isinstance(child, (dict, list, tuple)) and child
            )
    return longest


_QUOTED: dict[str, int] = {}  # schema hash -> longest string a message or path may quote from it


def _longest_quoted(contract: Contract) -> int:
    """The longest key or string in the contract's schema that an error may quote (patterns, names, ...)."""
    cached = _QUOTED.get(contract.schema_hash)
    if cached is not None:
        return cached
    longest = 0
    stack: list[Any] = [contract.schema]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            longest = max(longest, len(node))
        elif isinstance(node, dict):
            for key, child in node.items():
                longest = max(longest, len(key))
                if key not in _ANNOTATIONS:
                    stack.append(child)
        elif isinstance(node, list):
            stack.extend(node)
    if len(_QUOTED) > 4096:  # one entry per schema ever served: keep it from growing without end
        _QUOTED.clear()
    _QUOTED[contract.schema_hash] = longest
    return longest


def error_limit(contract: Contract, document: Any, max_errors: int | None, max_bytes: int | None) -> int | None:
    """How many errors to list for ``document`` so that their records take at most about ``max_bytes``.

    Each record quotes a path into the document and a message that may quote the schema; a
    document with a 500,000-character key and 1,000 errors under it would otherwise list 500 MB
    of paths. The bound per record is the longest pointer into the document plus twice the
    longest string of the schema, so an ordinary document keeps ``max_errors`` (the list is then
    cut with the usual note: fix these and validate again).
    """
    if max_bytes is None:
        return max_errors
    per_record = _longest_pointer(document) + 2 * _longest_quoted(contract) + 200
    fitting = max(1, max_bytes // per_record)
    return fitting if max_errors is None else min(max_errors, fitting)


def _head(contract: Contract) -> dict[str, Any]:
    return {
        "contract": contract.name,
        "contractHash": contract.contract_hash,
        "schemaHash": contract.schema_hash,
    }


def contract_payload(contract: Contract) -> dict[str, Any]:
    """``read_contract``: the whole normalised contract with its hashes, in the served key order."""
    view = served(contract)
    return {
        **_head(contract),
        "description": contract.description or "",
        "rules": contract.rules,
        "operations": view.operations,
        "schema": view.schema,
        "examples": view.examples,
    }


def resource_payload(contract: Contract) -> dict[str, Any]:
    """The ``json-contract://<name>`` resource body: the hashed body, then the hashes."""
    view = served(contract)
    body: dict[str, Any] = {"name": contract.name}
    if contract.description:
        body["description"] = contract.description
    body.update(rules=contract.rules, operations=view.operations, schema=view.schema, examples=view.examples)
    body["contractHash"] = contract.contract_hash
    body["schemaHash"] = contract.schema_hash
    return body


def check_create(contract: Contract) -> None:
    """Raises: OperationError: the contract disables ``create``."""
    if not contract.operations["create"]["enabled"]:
        raise OperationError(f"Contract {contract.name} does not enable the create operation.")


def bounded_errors(
    contract: Contract, document: Any, *, max_errors: int | None = None, max_bytes: int | None = None
) -> list[ErrorRecord]:
    """``document``'s errors, at most ``max_errors`` and, with ``max_bytes``, about that much text of them.

    A list cut short ends with the usual note (fix these and validate again), whatever cut it.
    """
    limit = error_limit(contract, document, max_errors, max_bytes)
    errors = validate(contract.compiled, document, max_errors=limit).errors
    if max_bytes is None:
        return errors
    size = 0
    for index, error in enumerate(errors):
        size += len(error["path"]) + len(error["message"]) + len(error["keyword"]) + 40
        if size > max_bytes and index:  # a bound the estimate missed: cut here, with the same note
            return [*errors[:index], too_many_errors(index)]
    return errors


def check_edit(
    contract: Contract,
    current_json: Any,
    *,
    caller: str = "get_edit_contract",
    max_errors: int | None = None,
    max_bytes: int | None = None,
) -> None:
    """Raises: OperationError or InvalidInputError, in the TypeScript server's order of checks."""
    edit = contract.operations["edit"]
    if not edit["enabled"]:
        raise OperationError(f"Contract {contract.name} does not enable the edit operation.")
    if edit.get("return") != "full_object":
        raise OperationError(f"Contract {contract.name} edit operation must return full_object for {caller}.")
    errors = bounded_errors(contract, current_json, max_errors=max_errors, max_bytes=max_bytes)
    if errors:
        raise InvalidInputError(
            f"currentJson does not validate against contract {contract.name}: {describe_errors(errors)}"
        )


def _operation_body(contract: Contract, operation: str, instructions: list[str]) -> dict[str, Any]:
    """The fields the create and edit payloads share, in the TypeScript server's order."""
    view = served(contract)
    op = view.operations[operation]
    return {
        **_head(contract),
        "operation": operation,
        "instructions": list(instructions),
        "description": contract.description or "",
        "rules": contract.rules,
        "operationRules": op["rules"],
        "schema": view.schema,
        "examples": view.examples,
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
        "context": {} if context is None else js_ordered(context),
    }


def edit_payload(
    contract: Contract,
    current_json: Any,
    input_text: str,
    context: dict[str, Any] | None = None,
    *,
    max_errors: int | None = None,
    max_bytes: int | None = None,
) -> dict[str, Any]:
    """``get_edit_contract``; ``max_errors`` and ``max_bytes`` bound the errors quoted when ``current_json`` is invalid.

    Raises:
        OperationError: edit is disabled or does not return ``full_object``.
        InvalidInputError: ``current_json`` does not validate.
    """
    check_edit(contract, current_json, max_errors=max_errors, max_bytes=max_bytes)
    return {
        **_operation_body(contract, "edit", EDIT_INSTRUCTIONS),
        "currentJson": js_ordered(current_json),
        "input": input_text,
        "context": {} if context is None else js_ordered(context),
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
    max_bytes: int | None = None,
) -> dict[str, Any]:
    """``get_repair_contract``, plus ``repairs`` (one machine-readable entry per error).

    ``max_errors`` bounds the errors computed for ``invalid_json`` (the supplied ones are already
    bounded by the argument size limit). ``max_bytes`` bounds what the errors can grow into: the
    computed errors' text, and the hints and repairs, which may each quote a whole ``enum`` of the
    schema; a list cut short ends with a line saying so and what to do.
    """
    supplied: list[ErrorRecord] = [
        {"path": e["path"], "message": e["message"], "keyword": e["keyword"]} for e in validation_errors or []
    ]
    computed = bounded_errors(contract, invalid_json, max_errors=max_errors, max_bytes=max_bytes)
    errors = _unique(computed + supplied) if computed else supplied
    hint_bytes = None if max_bytes is None else max_bytes // 4
    # The TypeScript server's hints follow validationErrors: the computed errors, then the supplied ones.
    hints = field_hints(contract.schema, errors, max_bytes=hint_bytes)
    instructions = list(dict.fromkeys([*REPAIR_INSTRUCTIONS, *hints]))
    view = served(contract)
    return {
        **_head(contract),
        "instructions": instructions,
        "schema": view.schema,
        "rules": contract.rules,
        "examples": view.examples,
        "invalidJson": js_ordered(invalid_json),
        "validationErrors": errors,
        "repairs": repairs(contract.schema, errors, max_bytes=max_bytes),
    }


def validation_payload(
    contract: Contract, document: Any, *, max_errors: int | None = None, max_bytes: int | None = None
) -> dict[str, Any]:
    """``validate_json``: ``{valid, contract, json?, errors}``; at most ``max_errors`` errors (and about
    ``max_bytes`` of their text), then a closing record."""
    errors = bounded_errors(contract, document, max_errors=max_errors, max_bytes=max_bytes)
    if not errors:
        return {"valid": True, "contract": contract.name, "json": js_ordered(document), "errors": []}
    return {"valid": False, "contract": contract.name, "errors": errors}
