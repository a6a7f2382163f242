"""The MCP protocol layer: the SDK's low-level ``Server`` wired to :class:`.handlers.ContractService`.

The low-level server is used (not ``MCPServer``) because the TypeScript server's tool list must
be reproduced exactly (schemas from the declarations in :mod:`.tools`, not from type hints) and
because expected failures must be ``isError`` results carrying that server's message, unprefixed.

Tool calls, prompts and resource reads are worked on in worker threads (:class:`Workers`), so a
hostile document that takes seconds to validate never holds the event loop: other clients'
calls, pings and a shutdown go on. Each client's calls still run one after another, in the order
they arrived (:meth:`ContractServer._turn`), so its answers come back in that order, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread
import mcp.types as types
from mcp import MCPError
from mcp.server import InitializationOptions, NotificationOptions, Server, ServerRequestContext
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourcesListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from json_contracts import __version__
from json_contracts.mcp.handlers import ContractService, PromptError, ToolAnswer
from json_contracts.mcp.outputs import output_schema
from json_contracts.mcp.tools import PROMPTS, TOOLS, tool_named

__all__ = ["WORKERS", "ContractServer", "Workers", "build_server"]

#: Calls worked on at once in worker threads; each holds its arguments and answer (tens of MiB at worst).
WORKERS = 4
_T = TypeVar("_T")


class Workers:
    """At most :data:`WORKERS` handler threads at a time, counted until each thread really ends.

    A call whose client gives up (a cancelled request, a shutdown) stops waiting at once, but its
    thread runs on until the document is done; its place is freed only then, so a client that
    sends and cancels in a loop cannot pile threads up.
    """

    def __init__(self, size: int = WORKERS) -> None:
        self._size = size
        self._slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )  # one per event loop: a server object may outlive the loop a test ran it on

    async def run(self, func: Callable[..., _T], *args: Any) -> _T:
        """``func(*args)`` in a worker thread, once a place is free."""
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = anyio.Semaphore(self._size)
        await slots.acquire()
        lock = threading.Lock()
        state = {"started": False, "dropped": False}

        def work() -> _T | None:
            with lock:
                if state["dropped"]:
                    return None
                state["started"] = True
            try:
                return func(*args)
            finally:
                with contextlib.suppress(RuntimeError):  # the loop has closed: the server is exiting
                    loop.call_soon_threadsafe(slots.release)

        try:
            result = await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except BaseException:
            with lock:
                if not state["started"]:  # cancelled before the thread began: free the place here
                    state["dropped"] = True
                    slots.release()
            raise
        return result  # type: ignore[return-value]  # None only when dropped, and then this is not reached


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
        self.workers = Workers()
        self._turns: weakref.WeakKeyDictionary[Any, anyio.Lock] = weakref.WeakKeyDictionary()
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

    @contextlib.asynccontextmanager
    async def _turn(self, ctx: ServerRequestContext[Any]) -> AsyncIterator[None]:
        """This client's turn: its calls run one at a time, first come first served (a FIFO lock).

        A call used to run to its end on the event loop as soon as it arrived; keeping each
        client's calls in arrival order keeps its answers in the order they always came in.
        Clients (connections) do not wait for each other.
        """
        connection = getattr(getattr(ctx, "session", None), "_connection", None)
        if connection is None:
            yield
            return
        try:
            lock = self._turns.get(connection)
            if lock is None:
                lock = self._turns[connection] = anyio.Lock()
        except TypeError:  # a connection that cannot be weakly referenced: no ordering to keep
            yield
            return
        async with lock:
            yield

    def _answer(self, name: str, arguments: Any) -> ToolAnswer:
        """A tool's answer with its text written, in the worker thread."""
        answer = self.service.call(name, arguments)
        _ = answer.text
        return answer

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
            answer = await anyio.to_thread.run_sync(self._answer, params.name, params.arguments)
        else:
            async with self._turn(ctx):
                answer = await self.workers.run(self._answer, params.name, params.arguments)
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
            async with self._turn(ctx):
                text = await self.workers.run(self.service.read_resource, str(params.uri))
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
            async with self._turn(ctx):
                text = await self.workers.run(self.service.render_prompt, params.name, params.arguments)
        except PromptError as exc:
            raise MCPError(types.INTERNAL_ERROR, str(exc)) from exc
        return types.GetPromptResult(
            messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))]
        )


def build_server(service: ContractService) -> ContractServer:
    """A ready MCP server over ``service``; run it with a transport from :mod:`.transports`."""
    return ContractServer(service)
