"""What each MCP tool, resource and prompt answers, as plain data (no ``mcp`` import).

The SDK glue in :mod:`json_contracts.mcp_server.server` wraps these answers in protocol
objects. Keeping them here means the rules (argument checks, limits, messages) are one code
path, testable without a transport.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from json_contracts import __version__
from json_contracts.arguments import PROMPT_NAMES, TOOL_NAMES, check_arguments
from json_contracts.errors import InvalidInputError, JsonContractsError
from json_contracts.jsonio import document_problem, escape_lone_surrogates
from json_contracts.jstext import dumps
from json_contracts.mcp_server.settings import ServerSettings
from json_contracts.names import is_safe_name
from json_contracts.payloads import (
    contract_payload,
    create_payload,
    edit_payload,
    repair_payload,
    resource_payload,
    validation_payload,
)
from json_contracts.prompts import (
    preprocess_prompt_arguments,
    render_edit_prompt,
    render_json_prompt,
    render_repair_prompt,
)
from json_contracts.store import ContractStore

__all__ = ["URI_PREFIX", "ToolAnswer", "Tools"]

URI_PREFIX = "json-contract://"
_SHOWN_CHARACTERS = 200  # of a name or URI echoed in an error message


def _shown(text: str) -> str:
    """``text`` as an error message quotes it: sendable (no lone surrogate) and short (a 5 MiB name is cut)."""
    if len(text) > _SHOWN_CHARACTERS:
        text = f"{text[:_SHOWN_CHARACTERS]}... ({len(text)} characters)"
    return escape_lone_surrogates(text)


class PromptError(JsonContractsError):
    """A prompt or resource request that fails; the protocol layer turns it into a JSON-RPC error."""


@dataclass(frozen=True)
class ToolAnswer:
    """A tool's structured result, or ``{"error": message}`` with ``is_error``."""

    data: dict[str, Any]
    is_error: bool = False

    @property
    def text(self) -> str:
        return dumps(self.data)


@dataclass
class Tools:
    """The eight tools, resources and prompts over one :class:`ContractStore`."""

    store: ContractStore
    settings: ServerSettings

    # -- tools -----------------------------------------------------------------------------------

    def call(self, name: str, arguments: Any) -> ToolAnswer:
        """Answer one ``tools/call``; every expected failure is an ``isError`` answer."""
        handler = getattr(self, f"_tool_{name}", None) if name in TOOL_NAMES else None
        if handler is None:
            return ToolAnswer({"error": f"Unknown tool: {_shown(name)}"}, is_error=True)
        try:
            self._check_bounds(arguments)
            args = check_arguments(name, arguments)
            data: dict[str, Any] = handler(args)
        except JsonContractsError as exc:
            return ToolAnswer({"error": str(exc)}, is_error=True)
        return ToolAnswer(data)

    def _check_bounds(self, arguments: Any) -> None:
        """Every argument is bounded in size and nesting before anything else reads it."""
        if not isinstance(arguments, dict):
            return  # check_arguments reports the wrong type
        for key, value in arguments.items():
            problem = document_problem(
                value,
                max_bytes=self.settings.max_document_bytes,
                max_depth=self.settings.max_document_depth,
                name=str(key),
            )
            if problem:
                raise InvalidInputError(problem)

    def _tool_list_contracts(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"contracts": [c.summary() for c in self.store.snapshot.sorted_contracts()]}

    def _tool_read_contract(self, args: dict[str, Any]) -> dict[str, Any]:
        return contract_payload(self.store.get(args["contract"]))

    def _tool_get_json_contract(self, args: dict[str, Any]) -> dict[str, Any]:
        return create_payload(self.store.get(args["contract"]), args["input"], args["context"])

    def _tool_get_edit_contract(self, args: dict[str, Any]) -> dict[str, Any]:
        contract = self.store.get(args["contract"])
        return edit_payload(
            contract, args["currentJson"], args["input"], args["context"], max_errors=self.settings.max_document_errors
        )

    def _tool_validate_json(self, args: dict[str, Any]) -> dict[str, Any]:
        return validation_payload(
            self.store.get(args["contract"]), args["json"], max_errors=self.settings.max_document_errors
        )

    def _tool_get_repair_contract(self, args: dict[str, Any]) -> dict[str, Any]:
        contract = self.store.get(args["contract"])
        return repair_payload(
            contract, args["invalidJson"], args["validationErrors"], max_errors=self.settings.max_document_errors
        )

    def _tool_status(self, args: dict[str, Any]) -> dict[str, Any]:
        snapshot = self.store.snapshot  # one read: the contracts and failures shown belong together
        contracts = snapshot.sorted_contracts()
        return {
            "server": "json-contracts",
            "version": __version__,
            "contractsDir": str(self.store.directory),
            "loaded": len(contracts),
            "contracts": [c.summary() for c in contracts],
            "watchContracts": self.settings.watch,
            "allowInvalidContracts": self.settings.allow_invalid,
            "failures": snapshot.failure_records(),
        }

    def _tool_reload_contracts(self, args: dict[str, Any]) -> dict[str, Any]:
        outcome = self.store.reload()
        if outcome.message is not None:
            raise ReloadFailedError(outcome.message)
        return {"loaded": len(outcome.snapshot.contracts), "contracts": list(outcome.snapshot.names)}

    # -- resources -------------------------------------------------------------------------------

    def resource_list(self) -> list[dict[str, Any]]:
        """One resource per contract, sorted."""
        items = []
        for contract in self.store.snapshot.sorted_contracts():
            item: dict[str, Any] = {"uri": URI_PREFIX + contract.name, "name": contract.name}
            if contract.description:
                item["description"] = contract.description
            items.append(item)
        return items

    def read_resource(self, uri: str) -> str:
        """The resource text for ``uri``, checked as the original checks it (REFERENCE §7).

        Raises:
            PromptError: with the original's message.
        """
        shown = _shown(uri)
        if not uri.startswith(URI_PREFIX):
            raise PromptError(f"Invalid resource URI scheme: {shown}")
        rest = uri[len(URI_PREFIX) :]
        if not rest or "?" in rest or "#" in rest:
            raise PromptError(f"Invalid resource URI: {shown}")
        if not is_safe_name(rest):
            raise PromptError(f"Invalid contract name: {_shown(rest)}")
        if len(rest) > _SHOWN_CHARACTERS:  # longer than any file name: never served, and not echoed whole
            raise PromptError(f"Contract not found: {_shown(rest)}")
        try:
            contract = self.store.get(rest)
        except JsonContractsError as exc:
            raise PromptError(str(exc)) from exc
        return dumps(resource_payload(contract))

    # -- prompts ---------------------------------------------------------------------------------

    def render_prompt(self, name: str, arguments: dict[str, str] | None) -> str:
        """The prompt text.

        Raises:
            PromptError: unknown prompt, bad arguments or a failed operation check.
        """
        if name not in PROMPT_NAMES:
            raise PromptError(f"Unknown prompt: {_shown(name)}")
        try:
            values = preprocess_prompt_arguments(dict(arguments or {}), max_depth=self.settings.max_document_depth)
            self._check_bounds(values)
            args = check_arguments(name, values)
            contract = self.store.get(args["contract"])
            if name == "json_contract_prompt":
                return render_json_prompt(contract, args["input"], args["context"])
            if name == "edit_contract_prompt":
                return render_edit_prompt(
                    contract,
                    args["currentJson"],
                    args["input"],
                    args["context"],
                    max_errors=self.settings.max_document_errors,
                )
            return render_repair_prompt(contract, args["invalidJson"], args["validationErrors"])
        except PromptError:
            raise
        except JsonContractsError as exc:
            raise PromptError(str(exc)) from exc


class ReloadFailedError(JsonContractsError):
    """A reload found broken files; the last good versions stay served."""
