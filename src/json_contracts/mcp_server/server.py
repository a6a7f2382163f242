"""The MCP protocol layer: the SDK's low-level ``Server`` wired to :class:`Tools`.

The low-level server is used (not ``MCPServer``) because the original's tool list must be
reproduced exactly (schemas from a file, not from type hints) and because expected failures
must be ``isError`` results carrying the original's message, unprefixed.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

import anyio.to_thread
import mcp.types as types
from mcp import MCPError
from mcp.server import InitializationOptions, NotificationOptions, Server, ServerRequestContext
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourcesListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from json_contracts import __version__
from json_contracts.mcp_server.handlers import PromptError, Tools
from json_contracts.prompts import PROMPT_DEFINITIONS

__all__ = ["ContractServer", "build_server"]

_TITLES = {
    "list_contracts": "List contracts",
    "read_contract": "Read contract",
    "get_json_contract": "Get JSON contract",
    "get_edit_contract": "Get edit contract",
    "validate_json": "Validate JSON",
    "get_repair_contract": "Get repair contract",
    "status": "Server status",
    "reload_contracts": "Reload contracts",
}
_REPAIRS_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "keyword": {"type": "string"},
            "action": {"type": "string"},
            "message": {"type": "string"},
        },
        "required": ["path", "keyword", "action", "message"],
    },
}
_FAILURES_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "file": {"type": "string"},
            "message": {"type": "string"},
            "line": {"type": "integer"},
            "column": {"type": "integer"},
            "code": {"type": "string"},
        },
        "required": ["file", "message", "line", "column", "code"],
    },
}
_TEMPLATE = types.ResourceTemplate(
    uri_template="json-contract://{name}",
    name="json-contract",
    description="Read a json-contracts contract by filename-derived contract name.",
    mime_type="application/json",
)


def tool_definitions() -> list[types.Tool]:
    """The original's eight tools, verbatim, plus titles, annotations and our extra outputs."""
    text = (resources.files("json_contracts.mcp_server") / "tool_definitions.json").read_text(encoding="utf-8")
    tools = []
    for raw in json.loads(text)["tools"]:
        output = raw["outputSchema"]
        if raw["name"] == "get_repair_contract":
            output["properties"]["repairs"] = _REPAIRS_SCHEMA
        if raw["name"] == "status":
            output["properties"]["failures"] = _FAILURES_SCHEMA
        read_only = raw["name"] != "reload_contracts"
        tools.append(
            types.Tool(
                name=raw["name"],
                title=_TITLES[raw["name"]],
                description=raw["description"],
                input_schema=raw["inputSchema"],
                output_schema=output,
                annotations=types.ToolAnnotations(
                    title=_TITLES[raw["name"]],
                    read_only_hint=read_only,
                    destructive_hint=None if read_only else False,
                    idempotent_hint=None if read_only else True,
                    open_world_hint=False,
                ),
            )
        )
    return tools


class _Server(Server[Any]):
    """The SDK server, advertising ``resources.listChanged`` to 2025-era clients on every transport."""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        return super().create_initialization_options(
            notification_options or NotificationOptions(resources_changed=True), experimental_capabilities, extensions
        )


class ContractServer:
    """One low-level MCP server over a :class:`Tools`, plus change notifications for both eras.

    2026-era clients hear ``notifications/resources/list_changed`` on their
    ``subscriptions/listen`` stream (the bus); 2025-era clients get it on their session, which
    is remembered when they first send anything.
    """

    def __init__(self, tools: Tools) -> None:
        self.tools = tools
        self.bus = InMemorySubscriptionBus()
        self.listen_handler = ListenHandler(self.bus)
        self.connections: weakref.WeakSet[Any] = weakref.WeakSet()  # 2025-era connections, gone when closed
        self._tool_list = tool_definitions()
        self.server: Server[Any] = _Server(
            "json-contracts",
            version=__version__,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_templates,
            on_read_resource=self._read_resource,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
            on_subscriptions_listen=self.listen_handler,
        )
        # Drop the SDK's tracing middleware (no exporter is ever configured) and remember
        # legacy sessions so a file change can reach them outside any request.
        self.server.middleware[:] = [self._remember_session]

    async def _remember_session(
        self, ctx: ServerRequestContext[Any], call_next: Callable[[ServerRequestContext[Any]], Awaitable[Any]]
    ) -> Any:
        # The SDK makes a new ServerSession per request; the per-client Connection behind it is
        # what lasts. It has no public accessor yet (mcp 2.3), so read it from the session, and
        # fall back to no notifications rather than failing a request if that ever changes.
        connection = getattr(getattr(ctx, "session", None), "_connection", None)
        if (
            connection is not None
            and connection.protocol_version not in MODERN_PROTOCOL_VERSIONS
            and connection.has_standalone_channel
        ):
            self.connections.add(connection)  # a set: one entry per connection, however many requests
        return await call_next(ctx)

    async def notify_resources_changed(self) -> None:
        """Tell every connected client, of either protocol era, that the contract list changed."""
        await self.bus.publish(ResourcesListChanged())
        for connection in list(self.connections):
            try:
                await connection.send_resource_list_changed()
            except Exception:  # the peer has gone; the connection is forgotten with it
                self.connections.discard(connection)

    async def _list_tools(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._tool_list)

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        changed_before = self.tools.store.generation
        if params.name == "reload_contracts":  # reads and compiles files: off the loop, so other calls go on
            answer = await anyio.to_thread.run_sync(self.tools.call, params.name, params.arguments)
        else:
            answer = self.tools.call(params.name, params.arguments)
        if self.tools.store.generation != changed_before:
            await self.notify_resources_changed()
        result = types.CallToolResult(
            content=[types.TextContent(type="text", text=answer.text)],
            structured_content=answer.data,
            is_error=answer.is_error,
        )
        # The SDK dumps with exclude_none, so None (unvalidated, via model_copy) leaves the key
        # out: the original sends no isError on success.
        return result if answer.is_error else result.model_copy(update={"is_error": None})

    async def _list_resources(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=item["uri"],
                    name=item["name"],
                    mime_type="application/json",
                    description=item.get("description"),
                )
                for item in self.tools.resource_list()
            ]
        )

    async def _list_templates(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[_TEMPLATE])

    async def _read_resource(
        self, ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        try:
            text = self.tools.read_resource(str(params.uri))
        except PromptError as exc:
            raise MCPError(types.INTERNAL_ERROR, str(exc)) from exc
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=str(params.uri), mime_type="application/json", text=text)]
        )

    async def _list_prompts(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=item["name"],
                    description=item["description"],
                    arguments=[types.PromptArgument(**argument) for argument in item["arguments"]],
                )
                for item in PROMPT_DEFINITIONS
            ]
        )

    async def _get_prompt(
        self, ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        try:
            text = self.tools.render_prompt(params.name, params.arguments)
        except PromptError as exc:
            raise MCPError(types.INTERNAL_ERROR, str(exc)) from exc
        return types.GetPromptResult(
            messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))]
        )


def build_server(tools: Tools) -> ContractServer:
    """A ready MCP server over ``tools``; run it with a transport from :mod:`.transports`."""
    return ContractServer(tools)
