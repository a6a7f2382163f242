"""What each MCP tool, resource and prompt answers, as plain data (no ``mcp`` import).

The SDK glue in :mod:`json_contracts.mcp.server` wraps these answers in protocol objects. The
tools and prompts themselves are declared in :mod:`json_contracts.mcp.tools`; here every call is
bounded, its arguments checked by the declared rules, and every expected failure turned into an
``isError`` answer (tools) or a :class:`PromptError` (prompts and resources), one code path.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from json_contracts._json.text import escape_lone_surrogates
from json_contracts._json.values import document_problem
from json_contracts.agent.arguments import check_arguments
from json_contracts.agent.payloads import answer_json, resource_payload
from json_contracts.agent.prompts import preprocess_prompt_arguments
from json_contracts.contracts.names import is_safe_name
from json_contracts.contracts.store import ContractStore
from json_contracts.errors import ContractNotFoundError, InvalidInputError, JsonContractsError
from json_contracts.mcp.settings import ServerSettings
from json_contracts.mcp.tools import prompt_named, tool_named

__all__ = ["URI_PREFIX", "ContractService", "PromptError", "ResourceNotFound", "ToolAnswer"]

URI_PREFIX = "json-contract://"
_SHOWN_CHARACTERS = 200  # of a name or URI echoed in an error message


def _shown(text: str) -> str:
    """``text`` as an error message quotes it: sendable (no lone surrogate) and short (a 5 MiB name is cut)."""
    if len(text) > _SHOWN_CHARACTERS:
        text = f"{text[:_SHOWN_CHARACTERS]}... ({len(text)} characters)"
    return escape_lone_surrogates(text)


class PromptError(JsonContractsError):
    """A prompt or resource request that fails; the protocol layer turns it into a JSON-RPC error.

    Every one is the client's doing (a bad name, URI or argument): invalid params. ``uri`` is the
    resource URI a failed read asked for, as an error may quote it (sendable, and cut when huge).
    """

    def __init__(self, message: str, uri: str | None = None) -> None:
        super().__init__(message)
        self.uri = uri


class ResourceNotFound(PromptError):
    """A well-formed ``json-contract://`` URI that names no served contract; the protocol layer
    answers with the era's resource-not-found code, not plain invalid params."""


@dataclass(frozen=True)
class ToolAnswer:
    """A tool's structured result, or ``{"error": message}`` with ``is_error``.

    ``text`` is the same JSON as text (2-space, compact where indentation would bloat a hostile
    document: :func:`~json_contracts.agent.payloads.answer_json`), written once and kept, so the
    worker thread that computed the answer also pays for writing it.
    """

    data: dict[str, Any]
    is_error: bool = False

    @cached_property
    def text(self) -> str:
        return answer_json(self.data)

    def result(self) -> dict[str, Any]:
        """The ``CallToolResult`` as it goes on the wire, one rule for every transport and path.

        A success carries the answer twice, as text and as ``structuredContent`` (which matches the
        tool's ``outputSchema``), and no ``isError``. A failure carries ``isError: true`` and the
        ``{"error": message}`` text only: structured content must match the output schema, and
        clients built on the TypeScript SDK reject a whole result whose structured content does not.
        """
        content = [{"type": "text", "text": self.text}]
        if self.is_error:
            return {"content": content, "isError": True}
        return {"content": content, "structuredContent": self.data}


@dataclass
class ContractService:
    """The tools, resources and prompts over one :class:`ContractStore`."""

    store: ContractStore
    settings: ServerSettings

    # -- tools -----------------------------------------------------------------------------------

    def call(self, name: str, arguments: Any) -> ToolAnswer:
        """Answer one ``tools/call``; every expected failure is an ``isError`` answer."""
        tool = tool_named(name)
        if tool is None:
            return ToolAnswer({"error": f"Unknown tool: {_shown(name)}"}, is_error=True)
        try:
            self._check_bounds(arguments)
            return ToolAnswer(tool.answer(self, check_arguments(tool.arguments, arguments)))
        except JsonContractsError as exc:
            return ToolAnswer({"error": str(exc)}, is_error=True)

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

    def resource_versions(self) -> dict[str, str]:
        """Each served resource's URI and a hash that changes whenever its text does."""
        return {URI_PREFIX + name: contract.contract_hash for name, contract in self.store.contracts.items()}

    def resource_name(self, uri: str) -> str:
        """The contract name a ``json-contract://`` URI names, checked as the TypeScript server checks it.

        Raises:
            PromptError: a malformed URI, with the TypeScript server's message.
        """
        shown = _shown(uri)
        if not uri.startswith(URI_PREFIX):
            raise PromptError(f"Invalid resource URI scheme: {shown}", shown)
        rest = uri[len(URI_PREFIX) :]
        if not rest or "?" in rest or "#" in rest:
            raise PromptError(f"Invalid resource URI: {shown}", shown)
        if not is_safe_name(rest):
            raise PromptError(f"Invalid contract name: {_shown(rest)}", shown)
        return rest

    def read_resource(self, uri: str) -> str:
        """The resource text for ``uri``, checked as the TypeScript server checks it.

        Raises:
            ResourceNotFound: no such contract, with the TypeScript server's message.
            PromptError: a malformed URI, with the TypeScript server's message.
        """
        name = self.resource_name(uri)
        shown = _shown(uri)
        if len(name) > _SHOWN_CHARACTERS:  # longer than any file name: never served, and not echoed whole
            raise ResourceNotFound(f"Contract not found: {_shown(name)}", shown)
        try:
            contract = self.store.get(name)
        except ContractNotFoundError as exc:
            raise ResourceNotFound(str(exc), shown) from exc
        except JsonContractsError as exc:
            raise PromptError(str(exc), shown) from exc
        return answer_json(resource_payload(contract))

    # -- prompts ---------------------------------------------------------------------------------

    def render_prompt(self, name: str, arguments: dict[str, str] | None) -> str:
        """The prompt text.

        Raises:
            PromptError: unknown prompt, bad arguments or a failed operation check.
        """
        prompt = prompt_named(name)
        if prompt is None:
            raise PromptError(f"Unknown prompt: {_shown(name)}")
        try:
            values = preprocess_prompt_arguments(dict(arguments or {}), max_depth=self.settings.max_document_depth)
            self._check_bounds(values)
            return prompt.render(self, check_arguments(prompt.rules, values))
        except PromptError:
            raise
        except JsonContractsError as exc:
            raise PromptError(str(exc)) from exc
