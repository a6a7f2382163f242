"""The stdio front desk: the frequent, simple messages answered here, everything else by the SDK.

A session over stdio is almost always ``initialize``, ``notifications/initialized``, ``tools/list``
and then ``tools/call`` after ``tools/call``. The desk reads each line with :func:`json.loads` and
answers those itself, when they are well formed, with the answers the SDK's server gives (the same
version negotiation, capabilities and results; a property test holds the two to the same JSON).
That saves the SDK's per-message work (about 0.3 ms a call) and its import (0.7 s at start).

Anything else goes to the SDK's server (:func:`.transports.serve_streams`) exactly as before:
the 2026-07-28 per-request era, ``server/discover``, resources, prompts, a ``tools/list`` with a
cursor, unknown methods, lines that are not JSON or not quite requests, a first request that is
not ``initialize``. The SDK is imported in a thread of its own the first time it is needed, and
what it should read waits in order meanwhile. When the desk already answered ``initialize``, the
recorded ``initialize`` (under a private id whose answer is dropped) and
``notifications/initialized`` go first, so the SDK's session is the one the client negotiated.
Once the SDK owns a session (it saw the first request), every later message goes to it.

Tool calls run in one worker thread, in the order they arrived, under a
:class:`~json_contracts.schema.budget.Cancellation`, so a ``ping`` is answered while a long
validation runs, and ``notifications/cancelled`` stops a call at its next check and leaves it
unanswered. ``reload_contracts`` reads files, so it runs in a thread of its own, as on the SDK path.

JSON-RPC batches (a line holding an array) are part of revision 2025-03-26 only: in such a
session each member is handled as if it had its own line and the answers come back as one array;
in any other session a batch is answered with one -32600 error.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from json_contracts import __version__
from json_contracts.mcp.handlers import ContractService, ToolAnswer
from json_contracts.mcp.lines import INVALID_REQUEST, long_line_answer
from json_contracts.mcp.log import Logger
from json_contracts.mcp.outputs import output_schema
from json_contracts.mcp.settings import ServerSettings
from json_contracts.mcp.tools import TOOLS, tool_named
from json_contracts.schema.budget import Cancellation, cancellable

__all__ = [
    "BATCH_VERSION",
    "HANDSHAKE_VERSIONS",
    "FrontDesk",
    "SdkHub",
    "initialize_result",
    "serve_stdio",
    "tool_list_result",
]

#: The protocol revisions the SDK negotiates through ``initialize`` (``mcp_types.version``), oldest first.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
#: The one revision whose sessions may send JSON-RPC batches.
BATCH_VERSION = "2025-03-26"
_ENVELOPE_KEY = "io.modelcontextprotocol/protocolVersion"  # the 2026-07-28 per-request envelope's mark
_PRIVATE = "json-contracts-desk:"  # ids of the desk's own requests to the SDK; their answers are dropped
_DRAIN_SECONDS = 30.0  # at end of input, how long answers to requests already read are waited for
_REQUEST_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_MAX_ID = 2**63  # ids the desk echoes itself; larger integers (rare) take the SDK's path


def initialize_result(version: str) -> dict[str, Any]:
    """The SDK's ``initialize`` result for our server at ``version``, keys in its order."""
    return {
        "capabilities": {
            "prompts": {"listChanged": False},
            "resources": {"listChanged": True, "subscribe": True},
            "tools": {"listChanged": False},
        },
        "protocolVersion": version,
        "serverInfo": {"name": "json-contracts", "version": __version__},
    }


def tool_list_result() -> dict[str, Any]:
    """``tools/list`` as the SDK's server answers it: the declarations of :mod:`.tools`."""
    tools = []
    for tool in TOOLS:
        annotations: dict[str, Any] = {"openWorldHint": False, "readOnlyHint": tool.read_only, "title": tool.title}
        if not tool.read_only:
            annotations.update(destructiveHint=False, idempotentHint=True)
        tools.append(
            {
                "annotations": dict(sorted(annotations.items())),
                "description": tool.description,
                "inputSchema": tool.input_schema,
                "name": tool.name,
                "outputSchema": output_schema(tool.output),
                "title": tool.title,
            }
        )
    return {"tools": tools}


_ENCODER = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":")
)  # made once: json.dumps with options makes one per call


def _dump(message: Any) -> bytes:
    """One message as a line, as the SDK writes it: compact, UTF-8, non-ASCII unescaped."""
    return _ENCODER.encode(message).encode("utf-8", "surrogatepass") + b"\n"


def _key(request_id: Any) -> Any:
    """``"7"`` and ``7`` are one id when matching a cancellation, as the SDK counts them."""
    if isinstance(request_id, str):
        try:
            return int(request_id)
        except ValueError:
            return request_id
    return request_id


def _usable_id(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _desk_id(value: Any) -> bool:
    """An id the desk echoes exactly as the SDK would: a string it can write, or an integer in range."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -_MAX_ID < value < _MAX_ID
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate
            return False
        return not value.startswith(_PRIVATE)
    return False


def _no_params(params: Any) -> bool:
    return params is None or params == {}


def _reject_constant(name: str) -> Any:
    raise ValueError(name)  # NaN and Infinity are not JSON: the SDK's path decides what to say


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)  # made once, as _ENCODER


Reply = Callable[[dict[str, Any] | None], None]  # an answer's destination; None: the request gets none


@dataclass(eq=False)
class _Job:
    """One ``tools/call`` the desk answers."""

    request_id: Any
    name: str
    arguments: Any
    raw: str
    reply: Reply
    handle: Cancellation = field(default_factory=Cancellation)
    cancelled: bool = False
    done: bool = False


@dataclass(eq=False)
class _Forward:
    """A line for the SDK, in its turn: after the desk's calls that came before it."""

    text: str
    request_id: Any = None


class _Batch:
    """The answers to one batch, written as one array once every request in it is answered."""

    def __init__(self, write: Callable[[bytes], None]) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._answers: list[tuple[int, dict[str, Any]]] = []
        self._waiting: set[int] = set()
        self._sealed = False
        self._written = False

    def expect(self, slot: int) -> Reply:
        """Member ``slot`` is a request: the batch's line waits for its answer."""
        with self._lock:
            self._waiting.add(slot)
        return lambda answer: self.answer(slot, answer)

    def answer(self, slot: int, answer: dict[str, Any] | None) -> None:
        """Record ``answer`` (None: this member gets no answer, e.g. it was cancelled)."""
        with self._lock:
            if slot not in self._waiting:
                return
            self._waiting.discard(slot)
            if answer is not None:
                self._answers.append((slot, answer))
        self._flush()

    def seal(self) -> None:
        """Every member has been handed out: the line goes once the last answer is in."""
        with self._lock:
            self._sealed = True
        self._flush()

    def _flush(self) -> None:
        with self._lock:
            if not self._sealed or self._waiting or self._written:
                return
            self._written = True
            answers = [answer for _, answer in sorted(self._answers, key=lambda pair: pair[0])]
        if answers:  # a batch of notifications only gets no line
            self._write(_dump(answers))


class FrontDesk:
    """One stdio connection: the desk's routing, its worker thread, and the SDK when needed.

    ``write`` puts whole lines on the wire (from any thread); ``sdk`` starts the SDK's server on
    first use and feeds it (:class:`SdkHub`). Lines are received from one thread.
    """

    def __init__(self, service: ContractService, write: Callable[[bytes], None], logger: Logger, sdk: SdkHub) -> None:
        self.service = service
        self._write = write
        self._logger = logger
        self.sdk = sdk
        self._tools: bytes | None = None
        self._state = "new"  # "new", "desk" (the desk answered initialize) or "sdk" (the SDK owns the session)
        self.version: str | None = None  # the negotiated revision, once known
        self._init_params: dict[str, Any] | None = None
        self._initialized = False
        self._lock = threading.Condition()
        self._queue: deque[_Job | _Forward] = deque()
        self._executing = False  # a reading thread is working through the queue
        self._claimer: int | None = None  # the thread that queued the first item works through the queue
        self._barriers: dict[str, threading.Event] = {}
        self._inflight: dict[Any, list[_Job]] = {}
        self._members: dict[str, tuple[Any, _Batch, int]] = {}  # private id -> (the member's id, batch, slot)
        self._member_ids: dict[Any, str] = {}  # a batch member's id -> its private id
        self._private = itertools.count(1)

    # -- reading ---------------------------------------------------------------------------------

    def receive(self, line: bytes) -> None:
        """One line from stdin."""
        text = line.decode("utf-8", "replace")  # as the SDK reads stdin: bad bytes replaced
        try:
            body = _DECODER.decode(text)
        except (ValueError, RecursionError):
            self._to_sdk(text)  # the SDK's path answers what is not JSON, or too deep for this parser
            return
        if isinstance(body, list):
            self._batch(body)
        else:
            self._route(body, text, self._reply_line)

    def receive_long_line(self, head: bytes, tail: bytes) -> None:
        """A line over the length limit, dropped: answered with -32600 when its id can be found."""
        answer = long_line_answer(head, tail)
        if answer is not None:
            self._write(_dump(answer))

    def _reply_line(self, answer: dict[str, Any] | None) -> None:
        if answer is not None:
            self._write(_dump(answer))

    def _route(self, body: Any, text: str, reply: Reply) -> None:
        """Answer ``body`` here when the desk can, else hand ``text`` to the SDK."""
        if not isinstance(body, dict):
            self._to_sdk(text)
            return
        method, params = str(body.get("method")), body.get("params")
        if method == "initialize" and "id" in body:
            self._note_version(params)
        plain = body.get("jsonrpc") == "2.0" and isinstance(body.get("method"), str) and body.keys() <= _REQUEST_KEYS
        request_id = body.get("id")
        if self._state == "sdk" or not plain or not (params is None or isinstance(params, dict)):
            self._to_sdk(text, request_id)
        elif "id" not in body:
            self._notification(method, params, text)
        elif not _desk_id(request_id) or not self._request(request_id, method, params, text, reply):
            self._to_sdk(text, request_id)

    def _notification(self, method: str, params: dict[str, Any] | None, text: str) -> None:
        if method == "notifications/cancelled":
            if self._cancel((params or {}).get("requestId")) or not self.sdk.started:
                return  # one of the desk's calls; or nothing else runs that could be cancelled
        elif method == "notifications/initialized" and _no_params(params):
            if self._state == "new":
                self._to_sdk(text)  # it opens the SDK's gate on its own: the SDK's session from here on
                return
            self._initialized = True
        elif self._state == "new":
            return  # before the first request the SDK drops every other notification
        if self.sdk.started:
            self._forward_now(text)  # not behind the calls: a notification answers nothing
        # else: the SDK has nothing running this notification could act on, and replays the handshake

    def _request(self, request_id: Any, method: str, params: dict[str, Any] | None, text: str, reply: Reply) -> bool:
        """Answer one well-formed request here; False when the SDK should."""
        if method == "initialize":
            return self._initialize(request_id, params, reply)
        if self._state != "desk" or (params is not None and "_meta" in params):
            return False  # not our session yet; or a progress token or an envelope: the SDK's business
        if method == "ping" and _no_params(params):
            reply({"jsonrpc": "2.0", "id": request_id, "result": {}})
            return True
        if method == "tools/list" and _no_params(params):
            if self._tools is None:
                self._tools = json.dumps(tool_list_result()).encode()
            reply({"jsonrpc": "2.0", "id": request_id, "result": json.loads(self._tools)})
            return True
        if method == "tools/call" and params is not None and params.keys() <= {"name", "arguments"}:
            name, arguments = params.get("name"), params.get("arguments", {})
            if isinstance(name, str) and isinstance(arguments, dict):
                self._submit(_Job(request_id, name, params.get("arguments"), text, reply))
                return True
        return False

    def _initialize(self, request_id: Any, params: dict[str, Any] | None, reply: Reply) -> bool:
        if self._state == "sdk" or not _plain_initialize(params):
            if self._state == "new":
                self._state = "sdk"
            return False
        assert params is not None  # _plain_initialize checked it
        version = params["protocolVersion"]
        negotiated = version if version in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]
        reply({"jsonrpc": "2.0", "id": request_id, "result": initialize_result(negotiated)})
        self._state = "desk"
        self._init_params = params
        if self.sdk.started:  # keep the SDK's session in step with what the client negotiated
            self.sdk.send(self._private_initialize())
        return True

    def _note_version(self, params: Any) -> None:
        if isinstance(params, dict) and isinstance(params.get("protocolVersion"), str):
            version = params["protocolVersion"]
            self.version = version if version in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]

    def _private_initialize(self) -> str:
        body = {"jsonrpc": "2.0", "id": f"{_PRIVATE}init-{next(self._private)}", "method": "initialize"}
        return json.dumps({**body, "params": self._init_params})

    # -- the SDK -----------------------------------------------------------------------------------

    def _to_sdk(self, text: str, request_id: Any = None) -> None:
        """Hand a line to the SDK's server in its turn.

        In a session the desk opened, the line waits for the desk's calls read before it, and the
        desk's calls read after it wait until the SDK has dealt with it (a barrier), so answers keep
        the order the requests came in, as when the SDK answered everything.
        """
        if self._state != "desk":
            self._state = "sdk"
            self._forward_now(text)
            return
        self._enqueue(_Forward(text, request_id))

    def _forward_now(self, text: str) -> None:
        """Send a line to the SDK's server, starting it (after the handshake's replay) if needed."""
        replay = []
        if self._state == "desk" and self._init_params is not None:
            replay.append(self._private_initialize())
            if self._initialized:
                replay.append('{"jsonrpc":"2.0","method":"notifications/initialized"}')
        self.sdk.start(replay)  # the replay is only sent by the call that starts it
        self.sdk.send(text)

    def _barrier(self) -> None:
        """Wait until the SDK has dealt with every line sent to it so far (at most 30 s).

        The barrier is a private call of a tool that does not exist: the SDK answers it in the order
        of its own calls, after the transport-level answers to the lines before it.
        """
        private = f"{_PRIVATE}barrier-{next(self._private)}"
        reached = self._barriers[private] = threading.Event()
        call = {"jsonrpc": "2.0", "id": private, "method": "tools/call", "params": {"name": private, "arguments": {}}}
        self._forward_now(json.dumps(call))
        reached.wait(_DRAIN_SECONDS)
        self._barriers.pop(private, None)

    def sdk_answer(self, answer: dict[str, Any]) -> None:
        """An answer the SDK wrote to one of the desk's private ids: dropped, or a batch member's."""
        barrier = self._barriers.get(answer["id"])
        if barrier is not None:
            barrier.set()
            return
        with self._lock:
            member = self._members.pop(answer["id"], None)
            if member is not None:
                self._member_ids.pop(_key(member[0]), None)
                self._lock.notify_all()
        if member is not None:
            original, batch, slot = member
            batch.answer(slot, {**answer, "id": original})

    # -- tool calls ----------------------------------------------------------------------------------

    def _submit(self, job: _Job) -> None:
        tool = tool_named(job.name)
        with self._lock:
            self._inflight.setdefault(_key(job.request_id), []).append(job)
            if tool is not None and tool.blocking:  # reads and compiles files: not behind other calls
                threading.Thread(target=self._run, args=(job,), daemon=True, name="json-contracts-reload").start()
                return
        self._enqueue(job)

    def _enqueue(self, item: _Job | _Forward) -> None:
        with self._lock:
            self._queue.append(item)
            if not self._executing:
                self._executing = True
                self._claimer = threading.get_ident()

    def work(self) -> None:
        """Work through the queue if the last :meth:`receive` claimed it (call it after each line).

        Calls run one at a time in the order they came, each in the thread that read the first of
        them while nobody was working; the other reading thread reads on meanwhile (pings, cancels).
        A sequential client's call is so worked on in the thread that read it, with no hand-over.
        """
        with self._lock:
            if self._claimer != threading.get_ident():
                return
            self._claimer = None
        while True:
            with self._lock:
                if not self._queue:
                    self._executing = False
                    self._lock.notify_all()
                    return
                item = self._queue.popleft()
            if isinstance(item, _Forward):
                self._forward_now(item.text)
                self._barrier()
            else:
                self._run(item)

    def _run(self, job: _Job) -> None:
        generation = self.service.store.generation
        answer: ToolAnswer | None = None
        if not job.cancelled:
            try:
                with cancellable(job.handle):
                    answer = self.service.call(job.name, job.arguments)
                    _ = answer.text
            except Exception as exc:  # not an expected failure: the SDK's path answers it as it always has
                self._logger.debug("A tool call failed unexpectedly; the SDK answers it", repr(exc))
        with self._lock:
            cancelled = job.cancelled
            self._settle(job)
        if cancelled:
            job.reply(None)
        elif answer is not None:
            job.reply({"jsonrpc": "2.0", "id": job.request_id, "result": answer.result()})
        else:
            self._forward_now(job.raw)
        if self.service.store.generation != generation:
            self.notify_resources_changed()

    def _settle(self, job: _Job) -> None:
        """The job is over (answered or cancelled); the caller holds the lock."""
        job.done = True
        jobs = self._inflight.get(_key(job.request_id), [])
        if job in jobs:
            jobs.remove(job)
        if not jobs:
            self._inflight.pop(_key(job.request_id), None)
        self._lock.notify_all()

    def _cancel(self, request_id: Any) -> bool:
        """Cancel the desk's call with this id (or a batch member's); False when it is none of the desk's."""
        if not _usable_id(request_id):
            return False
        key = _key(request_id)
        queued = []
        with self._lock:
            jobs = [job for job in self._inflight.get(key, []) if not job.done]
            for job in jobs:
                job.cancelled = True
                job.handle.cancel()  # a running validation ends at its next check
                if job in self._queue:
                    self._queue.remove(job)
                    self._settle(job)
                    queued.append(job)
            waiting = [item for item in self._queue if isinstance(item, _Forward) and _key(item.request_id) == key]
            for item in waiting:  # not sent yet: it never will be, as the SDK would never answer it
                self._queue.remove(item)
            private = self._member_ids.pop(key, None) if not jobs else None
            member = self._members.pop(private, None) if private is not None else None
        for job in queued:
            job.reply(None)
        if private is not None and member is not None:
            member[1].answer(member[2], None)
            self.sdk.send(
                json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": private}})
            )
        return bool(jobs) or bool(waiting) or member is not None

    # -- notifications -------------------------------------------------------------------------------

    def notify_resources_changed(self) -> None:
        """Tell this session the contract list changed, as the SDK's server tells a 2025-era session."""
        if self.sdk.started:
            self.sdk.notify_resources_changed()
        elif self._state == "desk":
            self._write(b'{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}\n')

    # -- batches -------------------------------------------------------------------------------------

    def _batch(self, members: list[Any]) -> None:
        if self.version != BATCH_VERSION:
            message = (
                "Invalid Request: a JSON-RPC batch (an array of messages on one line) is part of MCP 2025-03-26 "
                f"only, and this session negotiated {self.version or 'no version yet'}; send one message per line"
            )
            self._write(_dump(_invalid(None, message)))
            return
        if not members:
            self._write(_dump(_invalid(None)))
            return
        batch = _Batch(self._write)
        for slot, member in enumerate(members):
            if not isinstance(member, dict) or not ("method" in member or {"result", "error"} & member.keys()):
                batch.expect(slot)(_invalid(None))
            elif "method" not in member or "id" not in member:
                self._route(member, json.dumps(member), self._reply_line)  # a notification, or a response
            elif not _usable_id(member["id"]):
                batch.expect(slot)(_invalid(None, "Invalid request: id must be a string or an integer"))
            elif not self._desk_member(member, batch.expect(slot)):
                private = f"{_PRIVATE}batch-{next(self._private)}"
                with self._lock:
                    self._members[private] = (member["id"], batch, slot)
                    self._member_ids[_key(member["id"])] = private
                self._to_sdk(json.dumps({**member, "id": private}))
        batch.seal()

    def _desk_member(self, member: dict[str, Any], reply: Reply) -> bool:
        """Answer a batch member here when the desk would answer it on its own line."""
        params, method = member.get("params"), member["method"]
        if self._state != "desk" or member.get("jsonrpc") != "2.0" or not member.keys() <= _REQUEST_KEYS:
            return False
        if (
            not isinstance(method, str)
            or not _desk_id(member["id"])
            or not (params is None or isinstance(params, dict))
        ):
            return False
        return self._request(member["id"], method, params, json.dumps(member), reply)

    # -- the end ---------------------------------------------------------------------------------------

    def _pending(self) -> int:
        """Calls taken and not yet answered or cancelled (under the lock)."""
        return sum(len(jobs) for jobs in self._inflight.values()) + len(self._members) + len(self._queue)

    def drain(self, seconds: float = _DRAIN_SECONDS) -> int:
        """Wait until every call the desk took is answered or cancelled, for as long as answers keep
        coming: it gives up only after ``seconds`` without one. Returns the calls left unanswered.

        A client may pipeline many slow calls and close its input at once; each call is bounded by
        the validation deadline, so a queue that moves is always worth waiting for.
        """
        with self._lock:
            left = self._pending()
            while left or self._executing:
                if not self._lock.wait_for(partial(self._moved, left), timeout=seconds):
                    break
                left = self._pending()
            return left

    def _moved(self, left: int) -> bool:
        """Whether a call was answered since ``left`` were pending, or nothing is left to do."""
        pending = self._pending()
        return pending < left or not (pending or self._executing)


def _invalid(request_id: Any, message: str = "Invalid Request") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": INVALID_REQUEST, "message": message}}


def _plain_initialize(params: Any) -> bool:
    """An ``initialize`` whose params the SDK surely accepts as they are (anything odd: its path)."""
    if not isinstance(params, dict) or not params.keys() <= {"protocolVersion", "capabilities", "clientInfo"}:
        return False
    info, capabilities = params.get("clientInfo"), params.get("capabilities")
    if not isinstance(params.get("protocolVersion"), str) or not isinstance(info, dict):
        return False
    if not info.keys() <= {"name", "version", "title"} or not all(isinstance(v, str) for v in info.values()):
        return False
    if not {"name", "version"} <= info.keys() or not isinstance(capabilities, dict):
        return False
    return all(_plain_capability(name, value) for name, value in capabilities.items())


def _plain_capability(name: str, value: Any) -> bool:
    """A client capability the SDK reads as given: known names, flags only where flags belong."""
    if name in ("sampling", "elicitation", "experimental"):
        return isinstance(value, dict) and not value
    if name == "roots":
        return (
            isinstance(value, dict)
            and value.keys() <= {"listChanged"}
            and all(isinstance(flag, bool) for flag in value.values())
        )
    return False


class SdkHub:
    """The SDK's side of one stdio connection, in a thread of its own with an event loop.

    Started on first use: the thread imports the SDK, builds the server over the same service and
    serves :func:`.transports.serve_streams` with what the desk hands it, in order (lines sent
    before it is ready wait). The same loop runs the folder watcher, which needs no SDK.
    """

    def __init__(
        self, service: ContractService, settings: ServerSettings, logger: Logger, write: Callable[[bytes], None]
    ) -> None:
        self._service = service
        self._settings = settings
        self._logger = logger
        self._write = write
        self.desk: FrontDesk | None = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._loop: Any = None  # the asyncio loop, once running
        self._group: Any = None
        self._stop: Any = None
        self._server: Any = None  # the ContractServer, once built
        self._feed: Any = None  # the SDK's read stream, once it listens
        self._pending: list[str] = []
        self._calls: list[Callable[[], Any]] = []
        self._closed = False
        self._stopping = False
        self._watching = False
        self.started = False
        self.sdk_done = threading.Event()
        self.watching = threading.Event()  # the watcher has begun (or failed to)

    # -- the desk's side ---------------------------------------------------------------------------

    def start(self, replay: list[str]) -> None:
        """Start the SDK's server (once); ``replay`` goes first."""
        with self._lock:
            if self.started:
                return
            self.started = True
            self._pending[:0] = replay
        self._call(self._serve_sdk)

    def send(self, text: str) -> None:
        """One line for the SDK's server, in order."""
        with self._lock:
            if self._feed is None:
                self._pending.append(text)
                return
        self._loop.call_soon_threadsafe(self._push, text)

    def notify_resources_changed(self) -> None:
        if self._server is not None:
            self._call(self._server.notify_resources_changed)

    def start_watcher(self) -> None:
        """Watch the folder from now on (once)."""
        with self._lock:
            if self._watching or self._closed:
                return
            self._watching = True
        self._call(self._watch)

    def close(self, seconds: float) -> None:
        """End of input: the SDK answers what it was given (at most ``seconds``), then everything stops."""
        with self._lock:
            self._closed = True
            feed, loop = self._feed, self._loop
        if feed is not None:
            loop.call_soon_threadsafe(feed.close)
        if self.started:
            self.sdk_done.wait(seconds)
        with self._lock:
            self._stopping = True
            loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(5)

    # -- the loop's side ------------------------------------------------------------------------

    def _call(self, func: Callable[[], Any]) -> None:
        """Run the coroutine function ``func`` in the hub's loop, starting its thread if needed."""
        with self._lock:
            if self._group is None:
                self._calls.append(func)
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, daemon=True, name="json-contracts-sdk")
                    self._thread.start()
                return
            loop, group = self._loop, self._group
        loop.call_soon_threadsafe(group.start_soon, func)

    def _run(self) -> None:
        import asyncio

        import anyio

        async def main() -> None:
            self._stop = anyio.Event()
            async with anyio.create_task_group() as group:
                with self._lock:
                    self._loop, self._group = asyncio.get_running_loop(), group
                    calls, self._calls = self._calls, []
                    stopping = self._stopping
                for func in calls:
                    group.start_soon(func)
                if not stopping:
                    await self._stop.wait()
                group.cancel_scope.cancel()

        try:
            anyio.run(main)
        except Exception as exc:  # said once on stderr, never a traceback
            self._logger.error("The MCP SDK's server failed", repr(exc))
        finally:
            self.sdk_done.set()
            self.watching.set()

    def _push(self, text: str) -> None:
        from json_contracts.mcp.lines import read_message

        self._feed.send_nowait(read_message(text))

    async def _serve_sdk(self) -> None:
        import math

        import anyio

        from json_contracts.mcp.lines import read_message
        from json_contracts.mcp.server import build_server
        from json_contracts.mcp.transports import serve_streams

        try:
            self._server = build_server(self._service)
            send, receive = anyio.create_memory_object_stream[Any](math.inf)
            with self._lock:
                pending, self._pending = self._pending, []
                for text in pending:
                    send.send_nowait(read_message(text))
                self._feed = send
                if self._closed:
                    send.close()
            settings = replace(self._settings, watch=False)  # the hub runs the watcher itself
            await serve_streams(self._server, receive, _SdkWriter(self), settings, self._logger)
        finally:
            self.sdk_done.set()

    async def _watch(self) -> None:
        from json_contracts.mcp.watch import watch_contracts

        try:
            watch = watch_contracts(_Notifier(self), self._settings, self._logger)
        finally:
            self.watching.set()
        await watch  # it looks at the folder before its first pause: the desk starts reading after that

    def written(self, item: Any) -> None:
        """A message the SDK's server sends: to stdout, or to the desk when it answers a private id."""
        message = item.message
        request_id = getattr(message, "id", None)
        if isinstance(request_id, str) and request_id.startswith(_PRIVATE):
            if self.desk is not None:
                self.desk.sdk_answer(message.model_dump(by_alias=True, exclude_unset=True, mode="json"))
            return
        data = message.model_dump_json(by_alias=True, exclude_unset=True)
        self._write(data.encode("utf-8", "surrogatepass") + b"\n")


class _SdkWriter:
    """The SDK's write stream: each message through :meth:`SdkHub.written`."""

    def __init__(self, hub: SdkHub) -> None:
        self._hub = hub

    async def send(self, item: Any) -> None:
        self._hub.written(item)

    async def aclose(self) -> None:
        """Everything is written as it is sent."""


class _Notifier:
    """What the watcher needs of a server: the service, and a way to tell the client of a change."""

    def __init__(self, hub: SdkHub) -> None:
        self.service = hub._service
        self._hub = hub

    async def notify_resources_changed(self) -> None:
        if self._hub.desk is not None:
            self._hub.desk.notify_resources_changed()


def serve_stdio(service: ContractService, settings: ServerSettings, logger: Logger) -> None:
    """Serve one client over stdin and stdout until stdin closes (or the client stops reading).

    Every request read before the end of input is answered first (at most 30 s). Input already at
    its end (``</dev/null``) ends the server at once: there is nothing to answer.
    """
    from json_contracts.mcp.stdio import LongLine, Output, open_channel, read_lines

    done = threading.Event()
    with open_channel() as channel:
        output = Output(channel.stdout, on_gone=done.set)
        hub = SdkHub(service, settings, logger, output.write)
        desk = FrontDesk(service, output.write, logger, hub)
        hub.desk = desk

        lines = read_lines(channel.stdin)
        turn = threading.Lock()  # whoever holds it reads the next line

        def read() -> None:
            try:
                while not done.is_set():
                    with turn:
                        line = next(lines, None)
                        if line is None:
                            break
                        if isinstance(line, LongLine):
                            desk.receive_long_line(line.head, line.tail)
                        else:
                            desk.receive(line)
                    desk.work()  # the other thread reads meanwhile
            except Exception as exc:  # a bug of ours: said once, and the server ends as at end of input
                logger.error("Reading requests failed", repr(exc))
            done.set()

        if settings.watch:
            # Watching starts before anything is answered, as it always has: a client that changes
            # the folder after its first answer is heard.
            hub.start_watcher()
            hub.watching.wait(_DRAIN_SECONDS)
        for name in ("json-contracts-stdin-1", "json-contracts-stdin-2"):
            threading.Thread(target=read, daemon=True, name=name).start()
        done.wait()
        if not output.gone.is_set():
            unanswered = desk.drain(_DRAIN_SECONDS)
            if unanswered:
                logger.warn(
                    f"Input ended with {unanswered} request(s) still unanswered after {_DRAIN_SECONDS:g} s without "
                    "progress; they get no answer"
                )
        hub.close(_DRAIN_SECONDS)
