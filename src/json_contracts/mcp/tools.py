"""The MCP tools and prompts, each declared once: name, title, description, arguments, output, answer.

A tool's ``inputSchema`` is built from its arguments (:mod:`json_contracts.agent.arguments`, which
also enforces them) and its ``outputSchema`` is the schema of the contract its ``output`` names in
this project's ``json-contracts/`` folder (:mod:`.outputs`). Adding a tool is one entry in
:data:`TOOLS` plus its output contract and a test. Names, descriptions, arguments and the order
of both lists are the TypeScript server's, so an agent configured for it works unchanged. No
``mcp`` import here: the SDK glue is :mod:`.server`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from json_contracts import __version__
from json_contracts.agent.arguments import (
    CONTEXT,
    CONTRACT,
    INPUT,
    VALIDATION_ERRORS,
    Argument,
    input_schema,
    json_value,
)
from json_contracts.agent.arguments import check_arguments as check_argument_list
from json_contracts.agent.payloads import (
    contract_payload,
    create_payload,
    edit_payload,
    repair_payload,
    validation_payload,
)
from json_contracts.agent.prompts import render_edit_prompt, render_json_prompt, render_repair_prompt
from json_contracts.errors import ReloadFailedError

if TYPE_CHECKING:
    from json_contracts.mcp.handlers import ContractService

__all__ = [
    "PROMPTS",
    "PROMPT_NAMES",
    "TOOLS",
    "TOOL_NAMES",
    "Prompt",
    "PromptArgument",
    "Tool",
    "argument_names",
    "check_arguments",
    "prompt_named",
    "tool_named",
]

Answer = Callable[["ContractService", dict[str, Any]], dict[str, Any]]
Render = Callable[["ContractService", dict[str, Any]], str]


@dataclass(frozen=True)
class Tool:
    """One MCP tool; ``blocking`` tools read files, so they run off the event loop."""

    name: str
    title: str
    description: str
    arguments: tuple[Argument, ...]
    output: str  # the contract in json-contracts/ whose schema is the outputSchema
    answer: Answer
    read_only: bool = True
    blocking: bool = False

    @property
    def input_schema(self) -> dict[str, Any]:
        return input_schema(self.arguments)


@dataclass(frozen=True)
class PromptArgument:
    """A prompt argument as ``prompts/list`` shows it (prompt arguments always arrive as strings)."""

    name: str
    description: str
    required: bool


@dataclass(frozen=True)
class Prompt:
    """One MCP prompt: its listed arguments, the tool whose argument rules it applies, and its text."""

    name: str
    description: str
    arguments: tuple[PromptArgument, ...]
    rules: tuple[Argument, ...]
    render: Render

    def listing(self) -> dict[str, Any]:
        """The prompt as ``prompts/list`` shows it."""
        return {
            "name": self.name,
            "description": self.description,
            "arguments": [
                {"name": a.name, "description": a.description, "required": a.required} for a in self.arguments
            ],
        }


# --- what each tool answers ----------------------------------------------------------------------


def _list_contracts(service: ContractService, args: dict[str, Any]) -> dict[str, Any]:
    return {"contracts": [c.summary() for c in service.store.snapshot.sorted_contracts()]}


def _read_contract(service: ContractService, args: dict[str, Any]) -> dict[str, Any]:
    return contract_payload(service.store.get(args["contract"]))


def _get_json_contract(service: ContractService, args: dict[str, Any]) -> dict[str, Any]:
    return create_payload(service.store.get(args["contract"]), args["input"], args["context"])


class _AnswerBounds(TypedDict):
    max_errors: int
    max_bytes: int


def _bounds(service: ContractService) -> _AnswerBounds:
    """The bounds of an answer that lists a document's errors: the server's limits, read once at start."""
    return {"max_errors": service.settings.max_document_errors, "max_bytes": service.settings.max_document_bytes}


def _get_edit_contract(service: ContractService, args: dict[str, Any]) -> dict[str, Any]:
    contract = service.store.get(args["contract"])
    return edit_payload(contract, args["currentJson"], args["input"], args["context"], **_bounds(service))


def _validate_json(service: ContractService, args: dict[str, Any]) -> dict[str, Any]:
    return validation_payload(service.store.get(args["contract"]), args["json"], **_bounds(service))


def _get_repair_contract(service: ContractService, args: dict[str, Any]) -> dict[str, Any]:
    contract = service.store.get(args["contract"])
    return repair_payload(contract, args["invalidJson"], args["validationErrors"], **_bounds(service))


def _status(service: ContractService, args: dict[str, Any]) -> dict[str, Any]:
    snapshot = service.store.snapshot  # one read: the contracts and failures shown belong together
    contracts = snapshot.sorted_contracts()
    return {
        "server": "json-contracts",
        "version": __version__,
        "contractsDir": str(service.store.directory),
        "loaded": len(contracts),
        "contracts": [c.summary() for c in contracts],
        "watchContracts": service.settings.watch,
        "allowInvalidContracts": service.settings.allow_invalid,
        "failures": snapshot.failure_records(),
    }


def _reload_contracts(service: ContractService, args: dict[str, Any]) -> dict[str, Any]:
    outcome = service.store.reload()
    if outcome.message is not None:
        raise ReloadFailedError(outcome.message)
    return {"loaded": len(outcome.snapshot.contracts), "contracts": list(outcome.snapshot.names)}


TOOLS: tuple[Tool, ...] = (
    Tool(
        "list_contracts",
        "List contracts",
        "List currently loaded JSON contracts.",
        (),
        "list-contracts-result",
        _list_contracts,
    ),
    Tool(
        "read_contract",
        "Read contract",
        "Read a loaded JSON contract.",
        (CONTRACT,),
        "read-contract-result",
        _read_contract,
    ),
    Tool(
        "get_json_contract",
        "Get JSON contract",
        "Return schema, rules, examples, instructions, and input so the agent/model can produce JSON.",
        (CONTRACT, INPUT, CONTEXT),
        "get-json-contract-result",
        _get_json_contract,
    ),
    Tool(
        "get_edit_contract",
        "Get edit contract",
        "Return schema, rules, current JSON, edit instructions, and input so the agent/model can edit existing JSON.",
        (CONTRACT, json_value("currentJson"), INPUT, CONTEXT),
        "get-edit-contract-result",
        _get_edit_contract,
    ),
    Tool(
        "validate_json",
        "Validate JSON",
        "Validate agent-produced JSON against a contract schema.",
        (CONTRACT, json_value("json")),
        "validate-json-result",
        _validate_json,
    ),
    Tool(
        "get_repair_contract",
        "Get repair contract",
        "Return schema, rules, previous invalid JSON, validation errors, and repair instructions.",
        (CONTRACT, json_value("invalidJson"), VALIDATION_ERRORS),
        "get-repair-contract-result",
        _get_repair_contract,
    ),
    Tool(
        "status",
        "Server status",
        "Return json-contracts MCP server status and loaded contract metadata.",
        (),
        "status-result",
        _status,
    ),
    Tool(
        "reload_contracts",
        "Reload contracts",
        "Rescan the JSON contracts directory and reload valid contracts.",
        (),
        "reload-contracts-result",
        _reload_contracts,
        read_only=False,
        blocking=True,
    ),
)
TOOL_NAMES = tuple(tool.name for tool in TOOLS)

# --- what each prompt renders --------------------------------------------------------------------


def _json_prompt(service: ContractService, args: dict[str, Any]) -> str:
    return render_json_prompt(service.store.get(args["contract"]), args["input"], args["context"])


def _edit_prompt(service: ContractService, args: dict[str, Any]) -> str:
    contract = service.store.get(args["contract"])
    return render_edit_prompt(contract, args["currentJson"], args["input"], args["context"], **_bounds(service))


def _repair_prompt(service: ContractService, args: dict[str, Any]) -> str:
    return render_repair_prompt(service.store.get(args["contract"]), args["invalidJson"], args["validationErrors"])


_CONTEXT_ARGUMENT = PromptArgument("context", "Optional JSON object encoded as a string.", required=False)
_TOOLS_BY_NAME = {tool.name: tool for tool in TOOLS}

PROMPTS: tuple[Prompt, ...] = (
    Prompt(
        "json_contract_prompt",
        "Render a reusable prompt that tells the agent/model how to produce JSON from a selected contract.",
        (
            PromptArgument("contract", "Contract name, for example support-ticket.", required=True),
            PromptArgument("input", "Natural-language input to convert.", required=True),
            _CONTEXT_ARGUMENT,
        ),
        _TOOLS_BY_NAME["get_json_contract"].arguments,
        _json_prompt,
    ),
    Prompt(
        "edit_contract_prompt",
        "Render a reusable prompt that tells the agent/model how to edit existing JSON from a selected contract.",
        (
            PromptArgument("contract", "Contract name, for example create-filter.", required=True),
            PromptArgument("currentJson", "Current JSON value encoded as a string.", required=True),
            PromptArgument("input", "Natural-language edit instruction.", required=True),
            _CONTEXT_ARGUMENT,
        ),
        _TOOLS_BY_NAME["get_edit_contract"].arguments,
        _edit_prompt,
    ),
    Prompt(
        "repair_contract_prompt",
        "Render a reusable prompt that tells the agent/model how to repair JSON that failed validation.",
        (
            PromptArgument("contract", "Contract name, for example support-ticket.", required=True),
            PromptArgument("invalidJson", "Invalid JSON value encoded as a string.", required=True),
            PromptArgument("validationErrors", "Validation errors encoded as a JSON array string.", required=False),
        ),
        _TOOLS_BY_NAME["get_repair_contract"].arguments,
        _repair_prompt,
    ),
)
PROMPT_NAMES = tuple(prompt.name for prompt in PROMPTS)
_PROMPTS_BY_NAME = {prompt.name: prompt for prompt in PROMPTS}
_RULES = {**{tool.name: tool.arguments for tool in TOOLS}, **{prompt.name: prompt.rules for prompt in PROMPTS}}


def _rules(name: str) -> tuple[Argument, ...]:
    rules = _RULES.get(name)
    if rules is None:
        raise ValueError(f"Unknown tool or prompt: {name}")
    return rules


def argument_names(name: str) -> tuple[str, ...]:
    """The argument keys a tool or prompt accepts, in order.

    Raises:
        ValueError: when ``name`` is neither a tool nor a prompt.
    """
    return tuple(argument.name for argument in _rules(name))


def check_arguments(name: str, values: Any) -> dict[str, Any]:
    """Check a tool's or a (pre-processed) prompt's arguments by its rules.

    See :func:`json_contracts.agent.arguments.check_arguments`.

    Raises:
        ArgumentsError: listing every issue.
        ValueError: when ``name`` is neither a tool nor a prompt.
    """
    return check_argument_list(_rules(name), values)


def tool_named(name: str) -> Tool | None:
    """The declared tool called ``name``, or None."""
    return _TOOLS_BY_NAME.get(name)


def prompt_named(name: str) -> Prompt | None:
    """The declared prompt called ``name``, or None."""
    return _PROMPTS_BY_NAME.get(name)
