"""The MCP protocol layer: the SDK's low-level ``Server`` wired to :class:`.handlers.ContractService`.

The low-level server is used (not ``MCPServer``) because the TypeScript server's tool list must
be reproduced exactly (schemas from the declarations in :mod:`.tools`, not from type hints) and
because expected failures must be ``isError`` results carrying that server's message, unprefixed.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import anyio.to_thread
import mcp.types as types
from mcp import MCPError
from mcp.server import InitializationOptions, NotificationOptions, Server, ServerRequestContext
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourcesListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from json_contracts import __version__
from json_contracts.mcp.handlers import ContractService, PromptError
from json_contracts.mcp.outputs import output_schema
from json_contracts.mcp.tools import PROMPTS, TOOLS, tool_named

__all__ = ["ContractServer", "build_server"]

_TEMPLATE = types.ResourceTemplate(
    uri_template="json-contract://{name}",
    name="json-contract",
    description="Read a json-contracts contract by filename-derived contract name.",
    mime_type="application/json",
)


def tool_definitions() -> list[types.Tool]:
    """The declared tools as ``tools/list`` publishes them: input schemas from their arguments,
    output schemas from their result contracts, titles and annotations."""
    return [
        types.Tool(
            name=tool.name,
            title=tool.title,
            description=tool.description,
            input_schema=tool.input_schema,
            output_schema=output_schema(tool.output),
            annotations=types.ToolAnnotations(
                title=tool.title,
                read_only_hint=tool.read_only,
                destructive_hint=None if tool.read_only else False,
                idempotent_hint=None if tool.read_only else True,
                open_world_hint=False,
            ),
        )
        for tool in TOOLS
    ]


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
    """One low-level MCP server over a :class:`.handlers.ContractService`, plus change notifications for both eras.

    2026-era clients hear ``notifications/resources/list_changed`` on their
    ``subscriptions/listen`` stream (the bus); 2025-era clients get it on their session, which
    is remembered when they first send anything.
    """

    def __init__(self, service: ContractService) -> None:
        self.service = service
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
        changed_before = self.service.store.generation
        tool = tool_named(params.name)
        if tool is not None and tool.blocking:  # reads and compiles files: off the loop, so other calls go on
            answer = await anyio.to_thread.run_sync(self.service.call, params.name, params.arguments)
        else:
            answer = self.service.call(params.name, params.arguments)
        if self.service.store.generation != changed_before:
            await self.notify_resources_changed()
        result = types.CallToolResult(
            content=[types.TextContent(type="text", text=answer.text)],
            structured_content=answer.data,
            is_error=answer.is_error,
        )
        # The SDK dumps with exclude_none, so None (unvalidated, via model_copy) leaves the key
        # out: the TypeScript server sends no isError on success.
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
                for item in self.service.resource_list()
            ]
        )

    async def _list_templates(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[_TEMPLATE])

    async def _read_resource(
        self, ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        try:
            text = self.service.read_resource(str(params.uri))
        except PromptError as exc:
            raise MCPError(types.INTERNAL_ERROR, str(exc)) from exc
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=str(params.uri), mime_type="application/json", text=text)]
        )

    async def _list_prompts(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[types.Prompt.model_validate(prompt.listing()) for prompt in PROMPTS])

    async def _get_prompt(
        self, ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        try:
            text = self.service.render_prompt(params.name, params.arguments)
        except PromptError as exc:
            raise MCPError(types.INTERNAL_ERROR, str(exc)) from exc
        return types.GetPromptResult(
            messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))]
        )


def build_server(service: ContractService) -> ContractServer:
    """A ready MCP server over ``service``; run it with a transport from :mod:`.transports`."""
    return ContractServer(service)
