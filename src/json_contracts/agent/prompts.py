"""The text of the three MCP prompts, and the pre-processing of their string arguments.

MCP prompt arguments arrive as strings, and the rendered text is what an agent reads, so both
follow the TypeScript server byte for byte: the same fixed lines, the same ``JSON.stringify``
layout (:func:`json_contracts.agent.payloads.answer_json`: compact only where indentation would bloat
a hostile value many times over) and the same operation checks as the tools. The
MCP adapter declares the prompts (:mod:`json_contracts.mcp.tools`), runs
:func:`preprocess_prompt_arguments`, applies the tools' argument rules, then calls a ``render_*``
function.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from json_contracts._json.reading import parse_json
from json_contracts._json.values import nested_too_deep
from json_contracts.agent.payloads import answer_json, check_create, check_edit
from json_contracts.agent.served import served
from json_contracts.contracts.model import Contract
from json_contracts.errors import InvalidInputError, JsonParseError, JsonTooDeepError

__all__ = [
    "preprocess_prompt_arguments",
    "render_edit_prompt",
    "render_json_prompt",
    "render_repair_prompt",
]


_JSON_LINES = (
    "Convert the input into JSON.",
    "The agent/model performs the conversion; the MCP server only provides this contract.",
    "Return JSON only.",
    "Do not return markdown.",
    "Do not include prose.",
    "Do not include commentary.",
    "Do not include extra keys.",
    "Match the schema exactly.",
    "Use enum values exactly.",
    "Follow all rules.",
    "Use examples as guidance.",
    "If information is missing, infer only when rules/examples justify it.",
    "Otherwise use safe defaults only if the schema/rules specify them.",
)
_EDIT_LINES = (
    "Edit the current JSON using the user's requested change.",
    "The agent/model performs the edit; the MCP server only provides this contract.",
    "Start from currentJson.",
    "Apply only the user's requested change.",
    "Preserve all unspecified fields exactly.",
    "Return the complete updated JSON object, not a patch.",
    "Return JSON only.",
    "Do not return markdown.",
    "Do not include prose.",
    "Do not include commentary.",
    "Do not include extra keys.",
    "Match the schema exactly.",
    "Use enum values exactly.",
    "Follow all rules.",
    "Use examples as guidance.",
)
_REPAIR_LINES = (
    "The previous JSON failed validation.",
    "Repair it so it matches the schema.",
    "Return corrected JSON only.",
    "Do not explain the fix.",
    "Do not return markdown.",
    "Do not include prose.",
    "Do not include commentary.",
    "Do not include extra keys.",
    "Preserve valid fields where possible.",
)
_ERROR_KEYS = ("path", "message", "keyword")


def _rules(rules: Sequence[str]) -> str:
    """Numbered rules, or the literal ``[]`` the TypeScript server prints for an empty list."""
    if not rules:
        return "[]"
    return "\n".join(f"{i}. {rule}" for i, rule in enumerate(rules, start=1))


def _description(contract: Contract) -> str:
    # The TypeScript server keeps the space after the colon even when there is no description.
    return f"Description: {contract.description or ''}"


def _operation_section(contract: Contract, operation: str) -> list[str]:
    """The part the create and edit prompts share: the contract, its rules, schema and examples,
    then the operation's own rules and examples."""
    view = served(contract)
    op = view.operations[operation]
    title = operation.capitalize()
    return [
        "",
        f"Contract: {contract.name}",
        f"Operation: {operation}",
        _description(contract),
        "",
        "Rules:",
        _rules(contract.rules),
        "",
        f"{title} operation rules:",
        _rules(op["rules"]),
        "",
        "JSON Schema:",
        answer_json(contract.schema),
        "",
        "Examples:",
        answer_json(view.examples),
        "",
        f"{title} operation examples:",
        answer_json(op["examples"]),
    ]


def render_json_prompt(contract: Contract, input_text: str, context: Mapping[str, Any] | None = None) -> str:
    """The ``json_contract_prompt`` text.

    Raises:
        OperationError: the contract disables ``create``.
    """
    check_create(contract)
    lines = [
        *_JSON_LINES,
        *_operation_section(contract, "create"),
        "",
        "Input:",
        input_text,
        "",
        "Context:",
        answer_json({} if context is None else context),
    ]
    return "\n".join(lines)


def render_edit_prompt(
    contract: Contract,
    current_json: Any,
    input_text: str,
    context: Mapping[str, Any] | None = None,
    *,
    max_errors: int | None = None,
    max_bytes: int | None = None,
) -> str:
    """The ``edit_contract_prompt`` text.

    Raises:
        OperationError: edit is disabled or does not return ``full_object``.
        InvalidInputError: ``current_json`` does not validate against the contract.
    """
    check_edit(contract, current_json, caller="edit_contract_prompt", max_errors=max_errors, max_bytes=max_bytes)
    lines = [
        *_EDIT_LINES,
        *_operation_section(contract, "edit"),
        "",
        "Current JSON:",
        answer_json(current_json),
        "",
        "Requested change:",
        input_text,
        "",
        "Context:",
        answer_json({} if context is None else context),
    ]
    return "\n".join(lines)


def render_repair_prompt(
    contract: Contract, invalid_json: Any, validation_errors: Sequence[Mapping[str, Any]] | None = None
) -> str:
    """The ``repair_contract_prompt`` text.

    Unlike ``get_repair_contract`` this computes no errors and checks no operation: the
    TypeScript server renders only the supplied errors. Each is reduced to ``path``, ``message``,
    ``keyword`` in that order, as the TypeScript server's zod argument parsing leaves them.
    """
    errors = [{key: error[key] for key in _ERROR_KEYS if key in error} for error in validation_errors or []]
    lines = [
        *_REPAIR_LINES,
        "",
        f"Contract: {contract.name}",
        _description(contract),
        "",
        "Rules:",
        _rules(contract.rules),
        "",
        "JSON Schema:",
        answer_json(contract.schema),
        "",
        "Examples:",
        answer_json(served(contract).examples),
        "",
        "Invalid JSON:",
        answer_json(invalid_json),
        "",
        "Validation errors:",
        answer_json(errors),
    ]
    return "\n".join(lines)


def _parse_or_raw(text: str, name: str, max_depth: int) -> Any:
    """JSON when the text parses, else the text itself (the TypeScript server's lenient reading).

    Raises:
        InvalidInputError: the text is JSON nested too deeply to read; it is not taken as a string.
    """
    try:
        return parse_json(text)
    except JsonTooDeepError as exc:
        raise InvalidInputError(nested_too_deep(name, max_depth)) from exc
    except JsonParseError:
        return text


def preprocess_prompt_arguments(arguments: Mapping[str, str], *, max_depth: int = 64) -> dict[str, Any]:
    """Turn prompt arguments (always strings over MCP) into the values the tools' rules check.

    Only keys that are present are touched; other keys pass through unchanged, so the
    adapter's strict argument check still sees (and rejects) unknown ones.
    """
    result: dict[str, Any] = dict(arguments)
    if "context" in result:
        raw_context = arguments["context"]
        result["context"] = {} if raw_context == "" else _parse_or_raw(raw_context, "context", max_depth)
    for key in ("currentJson", "invalidJson"):
        if key in result:
            if arguments[key] == "":
                del result[key]
            else:
                result[key] = _parse_or_raw(arguments[key], key, max_depth)
    if "validationErrors" in result:
        raw = arguments["validationErrors"]
        result["validationErrors"] = [] if raw == "" else _parse_or_raw(raw, "validationErrors", max_depth)
    return result
