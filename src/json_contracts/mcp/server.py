"""The MCP protocol layer: the SDK's low-level ``Server`` wired to :class:`.handlers.ContractService`.

The low-level server is used (not ``MCPServer``) because the TypeScript server's tool list must
be reproduced exactly (schemas from the declarations in :mod:`.tools`, not from type hints) and
because expected failures must be ``isError`` results carrying that server's message, unprefixed.

Tool calls, prompts and resource reads are worked on in worker threads (:class:`Workers`), so a
hostile document that takes seconds to validate never holds the event loop: other clients'
calls, pings and a shutdown go on. Each client's calls still run one after another, in the order
they arrived (:meth:`ContractServer._turn`), so its answers come back in that order, as before.
A request the client cancels stops its validation at the next check and gets no answer.

Errors follow the revision the session speaks: a tool error is an ``isError`` result without
structured content (:meth:`.handlers.ToolAnswer.result`); a bad resource URI, prompt name or
prompt argument is invalid params (-32602); an unknown resource is -32002 until 2025-11-25 and
-32602 from 2026-07-28; malformed params name each field and its problem.
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
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourcesListChanged, ResourceUpdated
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from json_contracts import __version__
from json_contracts._json.text import escape_lone_surrogates
from json_contracts.mcp.handlers import ContractService, PromptError, ResourceNotFound, ToolAnswer
from json_contracts.mcp.outputs import output_schema
from json_contracts.mcp.tools import PROMPTS, TOOLS, tool_named
from json_contracts.schema.budget import Cancellation, cancellable

__all__ = ["WORKERS", "ContractServer", "Workers", "build_server"]

#: Calls worked on at once in worker threads; each holds its arguments and answer (tens of MiB at worst).
WORKERS = 4
_T = TypeVar("_T")

#: The handshake era's "Resource not found" (2024-11-05 to 2025-11-25); 2026-07-28 uses invalid params.
RESOURCE_NOT_FOUND = -32002
#: Resource URIs one 2025-era connection may subscribe to at once.
MAX_SUBSCRIPTIONS = 1_000
_SHOWN_PROBLEMS = 5  # malformed params: how many problems an error lists
_SHOWN_PART = 60  # ... and how much of each field name and problem text


class Workers:
    """At most :data:`WORKERS` handler threads at a time, counted until each thread really ends.

    A call whose client gives up (a cancelled request, a shutdown) stops waiting at once and its
    validation is told to stop (:class:`~json_contracts.schema.budget.Cancellation`): the thread
    ends at the validator's next check instead of finishing the document. Its place is freed only
    when the thread has ended, so a client that sends and cancels in a loop cannot pile threads up.
    """

    def __init__(self, size: int = WORKERS) -> None:
        self._size = size
        self._slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )  # one per event loop: a server object may outlive the loop a test ran it on
        self.busy = 0  # threads working now, abandoned ones included (read by tests and diagnostics)

    async def run(self, func: Callable[..., _T], *args: Any) -> _T:
        """``func(*args)`` in a worker thread, once a place is free; stopped if the caller is cancelled."""
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = anyio.Semaphore(self._size)
        await slots.acquire()
        lock = threading.Lock()
        state = {"started": False, "dropped": False}
        handle = Cancellation()

        def release() -> None:
            self.busy -= 1
            slots.release()

        def work() -> _T | None:
            with lock:
                if state["dropped"]:
                    return None
                state["started"] = True
            try:
                with cancellable(handle):
                    return func(*args)
            finally:
                with contextlib.suppress(RuntimeError):  # the loop has closed: the server is exiting
                    loop.call_soon_threadsafe(release)

        self.busy += 1
        try:
            result = await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except BaseException:
            handle.cancel()  # nobody waits for the answer: the validation stops at its next check
            with lock:
                if not state["started"]:  # cancelled before the thread began: free the place here
                    state["dropped"] = True
                    release()
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


def _cut(text: str) -> str:
    text = escape_lone_surrogates(text)
    return text if len(text) <= _SHOWN_PART else f"{text[:_SHOWN_PART]}..."


def invalid_params(exc: ValidationError) -> MCPError:
    """Invalid params that say what is wrong: each field's path and problem (the SDK sends neither).

    Bounded whatever the request holds: at most :data:`_SHOWN_PROBLEMS` problems, each part cut,
    and no input value is echoed.
    """
    problems = exc.errors(include_url=False, include_input=False, include_context=False)
    records = [
        {"path": ".".join(_cut(str(part)) for part in problem["loc"]), "problem": _cut(problem["msg"])}
        for problem in problems[:_SHOWN_PROBLEMS]
    ]
    summary = "; ".join(f"{record['path']}: {record['problem']}" for record in records)
    if len(problems) > _SHOWN_PROBLEMS:
        summary += f"; and {len(problems) - _SHOWN_PROBLEMS} more"
    return MCPError(types.INVALID_PARAMS, f"Invalid request parameters: {summary}", data=records)


class _Server(Server[Any]):
    """The SDK server, advertising ``resources.listChanged`` to 2025-era clients where it is delivered.

    A 2025-era client is promised ``resources.subscribe`` exactly where it is promised
    ``listChanged``: both are notifications pushed on the connection, so a transport that cannot
    push one cannot push the other.
    """

    def get_capabilities(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
        *,
        protocol_version: str | None = None,
    ) -> types.ServerCapabilities:
        capabilities = super().get_capabilities(
            notification_options, experimental_capabilities, extensions, protocol_version=protocol_version
        )
        if protocol_version not in MODERN_PROTOCOL_VERSIONS and capabilities.resources is not None:
            pushed = (notification_options or NotificationOptions()).resources_changed
            resources = capabilities.resources.model_copy(update={"subscribe": pushed})
            capabilities = capabilities.model_copy(update={"resources": resources})
        return capabilities

    #: Whether a 2025-era session can hear ``notifications/resources/list_changed`` when nothing else
    #: is said: on stdio and in process it can; the stateless HTTP app has no channel that reaches such a
    #: session and turns this off (``http.http_app``). 2026-07-28 clients learn it from ``server/discover``.
    handshake_list_changed = True

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        options = notification_options or NotificationOptions(resources_changed=self.handshake_list_changed)
        return super().create_initialization_options(options, experimental_capabilities, extensions)


class ContractServer:
    """One low-level MCP server over a :class:`.handlers.ContractService`, plus change notifications for both eras.

    2026-era clients hear ``notifications/resources/list_changed``, and
    ``notifications/resources/updated`` for the URIs they listed, on their ``subscriptions/listen``
    stream (the bus). 2025-era clients get list changes on their connection, which is remembered
    when they first send anything, and updates for the URIs they ``resources/subscribe``-d to.
    """

    def __init__(self, service: ContractService) -> None:
        self.service = service
        self.bus = InMemorySubscriptionBus()
        self.listen_handler = ListenHandler(self.bus)
        self.connections: weakref.WeakSet[Any] = weakref.WeakSet()  # 2025-era connections, gone when closed
        self.subscribed: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()  # 2025-era URIs
        self.workers = Workers()
        self._turns: weakref.WeakKeyDictionary[Any, anyio.Lock] = weakref.WeakKeyDictionary()
        self._tool_list = tool_definitions()
        self._versions = service.resource_versions()  # what clients were last told about
        self.server: Server[Any] = _Server(
            "json-contracts",
            version=__version__,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_templates,
            on_read_resource=self._read_resource,
            on_subscribe_resource=self._subscribe,
            on_unsubscribe_resource=self._unsubscribe,
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
        connection = _pushable(ctx)
        if connection is not None:
            self.connections.add(connection)  # a set: one entry per connection, however many requests
        try:
            return await call_next(ctx)
        except ValidationError as exc:  # the SDK would send "Invalid request parameters" and nothing more
            raise invalid_params(exc) from None

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
        """Tell every connected client, of either protocol era, that the contract list changed, and
        each subscriber which contracts' text changed (added, edited or removed) since last told."""
        versions = self.service.resource_versions()
        before, self._versions = self._versions, versions
        updated = sorted(uri for uri in before.keys() | versions.keys() if before.get(uri) != versions.get(uri))
        await self.bus.publish(ResourcesListChanged())
        for uri in updated:
            await self.bus.publish(ResourceUpdated(uri))
        for connection in list(self.connections):
            try:
                await connection.send_resource_list_changed()
                for uri in updated:
                    if uri in self.subscribed.get(connection, ()):
                        await connection.send_resource_updated(uri)
            except Exception:  # the peer has gone; the connection is forgotten with it
                self.connections.discard(connection)

    async def _list_tools(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._tool_list)

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tool = tool_named(params.name)
        if tool is not None and tool.blocking:  # reads and compiles files: off the loop, so other calls go on
            answer = await self._change(params.name, params.arguments)
        else:
            async with self._turn(ctx):
                answer = await self.workers.run(self._answer, params.name, params.arguments)
        result = types.CallToolResult.model_validate(answer.result())
        # The SDK dumps with exclude_none, so None (unvalidated, via model_copy) leaves the key
        # out: the TypeScript server sends no isError on success.
        return result if answer.is_error else result.model_copy(update={"is_error": None})

    async def _change(self, name: str, arguments: Any) -> ToolAnswer:
        """A call that may change what is served (``reload_contracts``), never half done.

        Once its thread has started it runs to the end, even if the caller cancels (the answer is
        then dropped), and clients hear of every change it made: the contracts served and the
        notifications sent always agree.
        """
        changed_before = self.service.store.generation
        try:
            return await anyio.to_thread.run_sync(self._answer, name, arguments)
        finally:
            if self.service.store.generation != changed_before:
                with anyio.CancelScope(shield=True):
                    await self.notify_resources_changed()

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
        except ResourceNotFound as exc:
            # -32002 until 2025-11-25; 2026-07-28 retired it for invalid params.
            code = types.INVALID_PARAMS if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS else RESOURCE_NOT_FOUND
            raise MCPError(code, str(exc), data={"uri": exc.uri}) from exc
        except PromptError as exc:
            raise MCPError(types.INVALID_PARAMS, str(exc), data={"uri": exc.uri}) from exc
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=str(params.uri), mime_type="application/json", text=text)]
        )

    async def _subscribe(
        self, ctx: ServerRequestContext[Any], params: types.SubscribeRequestParams
    ) -> types.EmptyResult:
        """``resources/subscribe`` (2025 era): updates of that contract are pushed on this connection.

        Only a connection that can be pushed to subscribes; elsewhere (stateless HTTP) the method
        is not found, as it was before, rather than accepted and never honoured. The URI must be
        well formed; the contract need not exist yet (its creation is an update too).
        """
        connection = _pushable(ctx)
        if connection is None:
            raise MCPError(types.METHOD_NOT_FOUND, "Method not found", data=ctx.method)
        uri = str(params.uri)
        try:
            self.service.resource_name(uri)
        except PromptError as exc:
            raise MCPError(types.INVALID_PARAMS, str(exc), data={"uri": exc.uri}) from exc
        uris = self.subscribed.setdefault(connection, set())
        if uri not in uris and len(uris) >= MAX_SUBSCRIPTIONS:
            raise MCPError(types.INVALID_PARAMS, f"Too many subscriptions: at most {MAX_SUBSCRIPTIONS} per connection")
        uris.add(uri)
        return types.EmptyResult()

    async def _unsubscribe(
        self, ctx: ServerRequestContext[Any], params: types.UnsubscribeRequestParams
    ) -> types.EmptyResult:
        connection = _pushable(ctx)
        if connection is None:
            raise MCPError(types.METHOD_NOT_FOUND, "Method not found", data=ctx.method)
        self.subscribed.get(connection, set()).discard(str(params.uri))
        return types.EmptyResult()

    async def _list_prompts(self, ctx: ServerRequestContext[Any], params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[types.Prompt.model_validate(prompt.listing()) for prompt in PROMPTS])

    async def _get_prompt(
        self, ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        try:
            async with self._turn(ctx):
                text = await self.workers.run(self.service.render_prompt, params.name, params.arguments)
        except PromptError as exc:  # an unknown prompt or a bad argument: invalid params, as the spec says
            raise MCPError(types.INVALID_PARAMS, str(exc)) from exc
        return types.GetPromptResult(
            messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))]
        )


def _pushable(ctx: ServerRequestContext[Any]) -> Any:
    """The 2025-era connection behind a request when the server can push notifications on it, else None."""
    connection = getattr(getattr(ctx, "session", None), "_connection", None)
    if (
        connection is not None
        and connection.protocol_version not in MODERN_PROTOCOL_VERSIONS
        and connection.has_standalone_channel
    ):
        return connection
    return None


def build_server(service: ContractService) -> ContractServer:
    """A ready MCP server over ``service``; run it with a transport from :mod:`.transports`."""
    return ContractServer(service)
