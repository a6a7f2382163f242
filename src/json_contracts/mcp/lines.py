"""Request lines the SDK's parser refuses although they are JSON: answered, never left hanging.

pydantic-core (the SDK's JSON parser) stops at about 200 levels of nesting, refuses a string
with a lone surrogate (``"\\ud800"``) and an integer with thousands of digits. JavaScript, and the
TypeScript server, read all three. The SDK drops such a line, and a client that sent a request
waits forever. :func:`recover_line` reads the line with Python's parser instead and hands the
request on, so its handler refuses the bad argument by name like any other; a line no parser
can read (tens of thousands of levels) is answered with -32600 when its id can be found, and so
is a request with an id but the wrong shape (``"params": []``); a line that is not JSON (a
trailing comma, a cut-off line) gets -32700 when its id can be found. Only a line with no findable id stays
unanswered, as in the TypeScript server: there is nothing to answer it with.

A request whose id is neither a string nor an integer (``1.5``, ``true``, ``null``, ``{}``) is an
invalid request in JSON-RPC 2.0, and MCP forbids a null id; the SDK reads such a line as a
notification and drops it. :func:`read_message` answers it with -32600 and id null, as JSON-RPC
answers a request whose id cannot be used. Both stdio transports read every line through it, and
answer a line over the length limit with :func:`long_line_reply`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.shared.message import SessionMessage

__all__ = ["MAX_LINE_BYTES", "Reply", "long_line_answer", "long_line_reply", "read_message", "recover_line"]

# The SDK is imported by the functions that build its messages, not here: the stdio front desk
# (:mod:`.frontdesk`) reads MAX_LINE_BYTES and long_line_answer before the SDK is loaded, if ever.
INVALID_REQUEST = -32600
PARSE_ERROR = -32700
MAX_LINE_BYTES = 16 * 1024 * 1024  # a longer request line is skipped and answered with -32600
_BAD_ID = "Invalid request: id must be a string or an integer"
# The id of a line too long to read: the first member before anything nested, or the last member.
_VALUE = r'-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|true|false|null|\{\}|\[\]'
_HEAD_ID = re.compile(r'^\s*\{[^{}\[\]]*?"id"\s*:\s*(' + _VALUE + r"|[\[{])")
_TAIL_ID = re.compile(r'"id"\s*:\s*(' + _VALUE + r")\s*\}\s*$")


@dataclass(frozen=True)
class Reply:
    """An answer the transport sends itself, for a line that never reaches the server."""

    message: SessionMessage


def _refusal(request_id: Any, message: str) -> Reply:
    from mcp.shared.message import SessionMessage
    from mcp_types import ErrorData, JSONRPCError

    error = ErrorData(code=INVALID_REQUEST, message=message)
    return Reply(SessionMessage(JSONRPCError(jsonrpc="2.0", id=request_id, error=error)))


def _has_id_member(raw: str) -> bool:
    """Whether the outermost object of a line has an ``id`` member, whatever its value."""
    body = _parse(raw)
    if isinstance(body, dict):
        return "id" in body
    return body is None and _top_level_id_token(raw) is not None


def unusable_id_answer(raw: str) -> bytes | None:
    """The -32600 answer (id null) for a request whose id is not a string or an integer, as JSON text.

    ``None`` for anything else. Over HTTP the SDK reads such a request as a notification and answers
    202 with no body, so the caller would wait for an answer that never comes.
    """
    read = read_message(raw)
    if not isinstance(read, Reply):
        return None
    answer = read.message.message.model_dump(by_alias=True, exclude_none=True)
    return json.dumps({**answer, "id": None}, separators=(",", ":")).encode()  # null, not left out


def read_message(raw: str) -> SessionMessage | Exception | Reply:
    """One stdio line as the SDK reads it, except that a request with an unusable id is answered.

    Returns the message, or the parse error (as the SDK forwards it, for :func:`recover_line`),
    or the -32600 :class:`Reply` for a request whose id is not a string or an integer.
    """
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCNotification, jsonrpc_message_adapter

    try:
        message = jsonrpc_message_adapter.validate_json(raw, by_name=False)
    except Exception as exc:  # what the SDK forwards for a line it cannot parse
        return exc
    if isinstance(message, JSONRPCNotification) and _has_id_member(raw):
        return _refusal(None, _BAD_ID)  # the SDK dropped the id it could not use: not a notification
    return SessionMessage(message)


def long_line_answer(head: bytes, tail: bytes) -> dict[str, Any] | None:
    """The -32600 answer to a line over :data:`MAX_LINE_BYTES`, from its first and last bytes, or None.

    The id is found when it is the first member or the last (the two layouts clients write); an
    id that is not a string or an integer is answered with id null. Plain JSON-RPC, no SDK.
    """
    found = _HEAD_ID.match(head.decode("utf-8", "replace")) or _TAIL_ID.search(tail.decode("utf-8", "replace"))
    if found is None:
        return None
    token = found.group(1)
    value = json.loads(token) if token not in ("[", "{") else None
    request_id = value if _usable_id(value) else None
    message = f"Request line is longer than {MAX_LINE_BYTES} bytes; send a smaller document"
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": INVALID_REQUEST, "message": message}}


def long_line_reply(head: bytes, tail: bytes) -> Reply | None:
    """:func:`long_line_answer` as a :class:`Reply` for the SDK's write stream."""
    answer = long_line_answer(head, tail)
    return None if answer is None else _refusal(answer["id"], answer["error"]["message"])


_LEADING_ID = re.compile(r'^\s*\{[^{}\[\]]*?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')
_ID_VALUE = re.compile(r'-?\d+|"(?:[^"\\]|\\.)*"')


class _NotJson(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _NotJson(name)  # NaN and Infinity are not JSON (pydantic reads them, so they rarely get here)


def _read_int(text: str) -> int | float:
    """An integer as JavaScript reads it, at least in range: past Python's digit limit it is infinity."""
    try:
        return int(text)
    except ValueError:
        return float("-inf") if text.startswith("-") else float("inf")


def _parse(raw: str) -> Any:
    """The line as Python reads JSON, or None when it cannot be read at all."""
    try:
        return json.loads(raw, parse_int=_read_int, parse_constant=_reject_constant)
    except (RecursionError, ValueError):
        return None


def _id_of(text: str) -> Any:
    return json.loads(text)


def top_level_id(raw: str) -> Any:
    """The request id of a line that no parser can read, found without recursion, or None.

    Looks first at the common layout (the id before anything nested), then scans the tokens
    for the ``"id"`` member of the outermost object wherever it is.
    """
    found = _LEADING_ID.match(raw)
    if found is not None:
        return _id_of(found.group(1))
    token = _top_level_id_token(raw)
    return _id_of(token) if token is not None and _ID_VALUE.fullmatch(token) else None


def _top_level_id_token(raw: str) -> str | None:
    """The first token of the outermost object's ``id`` value, found without recursion, or None."""
    depth = 0
    expect_value = False
    previous = ""
    for match in _TOKEN.finditer(raw):
        token = match.group()
        if expect_value:
            return token
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
        elif token == ":" and depth == 1 and previous == '"id"':
            expect_value = True
        previous = token
    return None


def _usable_id(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _invalid_request(details: list[Any]) -> SessionMessage | None:
    """-32600 for JSON that is a request with an id but the wrong shape (``params`` not an object, ...).

    JSON-RPC 2.0 asks for this answer; the SDK alone drops the line and the client waits forever.
    """
    from mcp.shared.message import SessionMessage
    from mcp_types import ErrorData, JSONRPCError

    body = next((d["input"] for d in details if isinstance(d.get("input"), dict)), None)
    if not isinstance(body, dict) or "method" not in body or "id" not in body:
        return None  # not a request, or no id to answer
    if "result" in body or "error" in body:
        return None  # a malformed response: nothing waits for an answer
    if not _usable_id(body["id"]):
        return SessionMessage(
            JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=INVALID_REQUEST, message=_BAD_ID))
        )
    first = next((d for d in details if d.get("loc", ())[:1] == ("JSONRPCRequest",)), details[0])
    field = ".".join(str(part) for part in first.get("loc", ())[1:]) or "request"
    message = f"Invalid request: {field}: {first.get('msg', 'not a JSON-RPC 2.0 request')}"
    return SessionMessage(
        JSONRPCError(jsonrpc="2.0", id=body["id"], error=ErrorData(code=INVALID_REQUEST, message=message))
    )


def recover_line(error: Exception, max_depth: int) -> SessionMessage | None:
    """What to send on for a line the SDK's parser refused: the request, an error answer, or None."""
    from mcp.shared.message import SessionMessage
    from mcp_types import ErrorData, JSONRPCError, JSONRPCRequest
    from pydantic import ValidationError

    if not isinstance(error, ValidationError):
        return None
    details = error.errors()
    raw = details[0].get("input") if details else None
    if details and details[0].get("type") != "json_invalid":
        return _invalid_request(details)
    if not isinstance(raw, str):
        return None
    body = _parse(raw)
    if body is not None:
        request_id = body.get("id") if isinstance(body, dict) else None
        if (
            isinstance(body, dict)
            and body.get("jsonrpc") == "2.0"
            and isinstance(body.get("method"), str)
            and _usable_id(request_id)
        ):
            params = body.get("params") if isinstance(body.get("params"), dict) else None
            return SessionMessage(
                JSONRPCRequest.model_construct(jsonrpc="2.0", id=request_id, method=body["method"], params=params)
            )
        if isinstance(body, dict) and "id" in body and "method" in body and not {"result", "error"} & body.keys():
            return _refusal(None, _BAD_ID).message  # a request whose id cannot be used: answered with id null
        return None  # JSON, but not a request: nothing waits for an answer
    request_id = top_level_id(raw)
    if not _usable_id(request_id):
        return None  # no id to answer: as in the TypeScript server, the line gets no reply
    reason = str(details[0].get("msg", ""))
    if "recursion limit" in reason:
        code = INVALID_REQUEST
        message = f"Request is nested too deeply to read; documents may be nested at most {max_depth} levels"
    else:
        code = PARSE_ERROR
        message = f"Parse error: the request is not JSON ({reason.removeprefix('Invalid JSON: ')}); send JSON text"
    return SessionMessage(JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message)))
