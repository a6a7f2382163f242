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
"""

from __future__ import annotations

import json
import re
from typing import Any

from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, JSONRPCRequest
from pydantic import ValidationError

__all__ = ["recover_line"]

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
    depth = 0
    expect_value = False
    previous = ""
    for match in _TOKEN.finditer(raw):
        token = match.group()
        if expect_value:
            return _id_of(token) if _ID_VALUE.fullmatch(token) else None
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
    body = next((d["input"] for d in details if isinstance(d.get("input"), dict)), None)
    if not isinstance(body, dict) or "method" not in body or not _usable_id(body.get("id")):
        return None  # not a request, or no id to answer
    if "result" in body or "error" in body:
        return None  # a malformed response: nothing waits for an answer
    first = next((d for d in details if d.get("loc", ())[:1] == ("JSONRPCRequest",)), details[0])
    field = ".".join(str(part) for part in first.get("loc", ())[1:]) or "request"
    message = f"Invalid request: {field}: {first.get('msg', 'not a JSON-RPC 2.0 request')}"
    return SessionMessage(
        JSONRPCError(jsonrpc="2.0", id=body["id"], error=ErrorData(code=INVALID_REQUEST, message=message))
    )


def recover_line(error: Exception, max_depth: int) -> SessionMessage | None:
    """What to send on for a line the SDK's parser refused: the request, an error answer, or None."""
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
