"""The stdio front desk: the SDK's answers without the SDK, calls off the reading thread, cancellation.

The equivalence test drives the desk and the SDK's server (:func:`serve_streams`, the path every
other message takes) with the same drawn requests and holds their answers to the same JSON. The
process tests run the real ``json-contracts serve`` over pipes.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from json_contracts.mcp.frontdesk import HANDSHAKE_VERSIONS, FrontDesk
from json_contracts.mcp.log import Logger
from tests.support.mcp import CONTRACT_FILES, CONTRACT_NAMES, TOOL_NAMES, Served, ServeFactory, contract_text, wire_peer

# --- the desk answers as the SDK does ---------------------------------------------------------------


class _NoSdk:
    """The hub of a desk that must answer by itself: handing anything to the SDK fails the test."""

    started = False

    def start(self, replay: list[str]) -> None:
        raise AssertionError(f"the desk handed a hot request to the SDK (replay {replay})")

    def send(self, text: str) -> None:
        raise AssertionError(f"the desk handed a hot request to the SDK: {text}")


def _desk_answers(served: Served, lines: list[str], count: int) -> list[Any]:
    answers: queue.Queue[bytes] = queue.Queue()
    desk = FrontDesk(served.service, answers.put, Logger(), _NoSdk())  # type: ignore[arg-type]
    for line in lines:
        desk.receive(line.encode("utf-8", "surrogatepass"))
        desk.work()
    return [json.loads(answers.get(timeout=30)) for _ in range(count)]


def _sdk_answers(served: Served, lines: list[str], ids: list[Any]) -> list[Any]:
    async def run() -> list[Any]:
        async with wire_peer(served) as peer:
            for line in lines:
                await peer.send_line(line)
            return [await peer.response(request_id, timeout=30) for request_id in ids]

    return anyio.run(run)


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_ids = (
    st.integers(-(2**62), 2**62)
    | st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
    | st.sampled_from([0, -1, 2**53 + 1, "7", "é", "\u2028", "id with spaces"])
)
_contract = st.sampled_from([*CONTRACT_NAMES, "nope", "../x", ""]) | st.text(max_size=10)
_arguments = st.one_of(
    st.fixed_dictionaries({"contract": _contract, "json": _json}),
    st.fixed_dictionaries({"contract": _contract, "input": st.text(max_size=20)}, optional={"context": _json}),
    st.fixed_dictionaries(
        {"contract": _contract, "invalidJson": _json},
        optional={
            "validationErrors": st.lists(
                st.fixed_dictionaries(
                    {"path": st.text(max_size=5), "message": st.text(max_size=5), "keyword": st.text(max_size=5)}
                ),
                max_size=2,
            )
        },
    ),
    st.fixed_dictionaries({"contract": _contract, "currentJson": _json, "input": st.text(max_size=10)}),
    st.dictionaries(st.text(max_size=6), _json, max_size=3),
)
_call = st.fixed_dictionaries(
    {"name": st.sampled_from([n for n in TOOL_NAMES if n != "reload_contracts"]) | st.text(max_size=8)},
    optional={"arguments": _arguments},
)
_request: st.SearchStrategy[tuple[str, Any]] = st.one_of(
    st.tuples(st.just("tools/call"), _call),
    st.tuples(st.just("tools/list"), st.sampled_from([None, {}])),
    st.tuples(st.just("ping"), st.sampled_from([None, {}])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    version=st.sampled_from([*HANDSHAKE_VERSIONS, "2099-01-01", "1.0"]),
    title=st.booleans(),
    request_id=_ids,
    request=_request,
)
def test_the_desk_answers_hot_requests_as_the_sdk_does(
    served: Served, version: str, title: bool, request_id: Any, request: tuple[str, Any]
) -> None:
    info = {"name": "client", "version": "1", **({"title": "Client ✓"} if title else {})}
    initialize = {
        "protocolVersion": version,
        "capabilities": {"roots": {"listChanged": True}, "sampling": {}},
        "clientInfo": info,
    }
    method, params = request
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        body["params"] = params
    lines = [
        json.dumps({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": initialize}),
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        json.dumps(body, ensure_ascii=False),
    ]
    desk = _desk_answers(served, lines, 2)
    sdk = _sdk_answers(served, lines, ["init", request_id])
    assert desk == sdk


# --- the real server: calls off the reading thread, cancellation ------------------------------------

_SLOW = {
    "schema": {
        "type": "array",
        "items": {"anyOf": [{"type": "object", "required": [f"k{i}"]} for i in range(40)]},
    }
}


class _Server:
    """``json-contracts serve`` over pipes, its answers read by a thread into a queue."""

    def __init__(self, folder: Path, **env: str) -> None:
        environ = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN"}}
        environ.update({"JSON_CONTRACTS_DIR": str(folder), "WATCH_CONTRACTS": "false", **env})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "json_contracts", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=environ,
        )
        self.lines: queue.Queue[Any] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        with self.process.stdout:
            for line in self.process.stdout:
                self.lines.put(json.loads(line))
        self.lines.put(None)

    def send(self, message: Any) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def next(self, seconds: float = 60) -> Any:
        return self.lines.get(timeout=seconds)

    def finish(self) -> list[Any]:
        """Close stdin; every line written after it, once the process has exited."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)
        rest = []
        while (line := self.next()) is not None:
            rest.append(line)
        return rest

    def kill(self) -> None:
        """The end of a test, whatever happened: no process or pipe left behind."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        assert self.process.stdin is not None
        self.process.stdin.close()


@pytest.fixture
def slow_folder(tmp_path: Path) -> Path:
    for name, content in {**CONTRACT_FILES, "slow.json": _SLOW}.items():
        (tmp_path / name).write_text(contract_text(content), encoding="utf-8")
    return tmp_path


@pytest.fixture
def spawn(slow_folder: Path) -> Iterator[Callable[..., _Server]]:
    """Start real servers over the folder; each is killed at the end of the test."""
    servers: list[_Server] = []

    def start(**env: str) -> _Server:
        servers.append(_Server(slow_folder, **env))
        return servers[-1]

    yield start
    for server in servers:
        server.kill()


def _start(server: _Server) -> None:
    params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    server.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})
    assert server.next()["id"] == 0
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})


def _validate(request_id: Any, contract: str, document: Any) -> dict[str, Any]:
    arguments = {"contract": contract, "json": document}
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "validate_json", "arguments": arguments},
    }


def _slow_document(items: int) -> list[Any]:
    return [{"k39": 1}] * items  # every item tries 39 alternatives before the one that matches


def test_a_ping_is_answered_while_a_long_validation_runs(spawn: Callable[..., _Server]) -> None:
    server = spawn()
    _start(server)
    server.send(_validate("slow", "slow", _slow_document(4000)))
    server.send({"jsonrpc": "2.0", "id": "ping", "method": "ping"})
    first, second = server.next(), server.next(seconds=120)
    assert (first["id"], second["id"]) == ("ping", "slow")
    assert second["result"]["structuredContent"]["valid"] is True
    assert server.finish() == []


def test_cancelled_calls_stop_and_are_never_answered(spawn: Callable[..., _Server]) -> None:
    # Uncancelled, each of these validations would run for minutes (the budget is raised to 300 CPU
    # seconds). Work that went on after its cancellation would hold a worker thread each; after
    # four of them, the next call would wait for minutes. Stopped, it is answered at once.
    server = spawn(JSON_CONTRACTS_VALIDATION_TIMEOUT="300")
    _start(server)
    for n in range(4):
        server.send(_validate(f"slow-{n}", "slow", _slow_document(40_000)))
        server.send({"jsonrpc": "2.0", "id": f"ping-{n}", "method": "ping"})
        assert server.next()["id"] == f"ping-{n}"  # the call has been read
        time.sleep(0.5)  # and has started working (were it still queued, it would be dropped unstarted)
        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": f"slow-{n}"}})
    server.send(_validate("fast", "no-ops", {"n": 1}))
    answer = server.next(seconds=90)
    assert answer["id"] == "fast"
    assert answer["result"]["structuredContent"]["valid"] is True
    assert server.finish() == []  # and no slow call ever gets an answer
    assert server.process.returncode == 0


def test_a_cancellation_of_an_unknown_or_finished_id_is_ignored(spawn: Callable[..., _Server]) -> None:
    server = spawn()
    _start(server)
    server.send(_validate(1, "no-ops", {"n": 1}))
    assert server.next()["id"] == 1
    for request_id in (1, 999, "nope", None, 1.5):
        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}})
    server.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    assert server.next() == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert server.finish() == []


def test_a_resource_read_after_the_desk_initialized_reaches_the_sdk_in_the_negotiated_session(
    slow_folder: Path,
) -> None:
    server = _Server(slow_folder)
    _start(server)
    server.send({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "json-contract://no-ops"}})
    read = server.next(seconds=60)
    assert read["id"] == 3
    assert json.loads(read["result"]["contents"][0]["text"])["name"] == "no-ops"
    server.send({"jsonrpc": "2.0", "id": 4, "method": "tools/list"})
    assert [tool["name"] for tool in server.next()["result"]["tools"]] == TOOL_NAMES
    assert server.finish() == []


def test_the_serve_factory_fixture_is_the_mcp_suites(serve: ServeFactory) -> None:
    assert sorted(serve().store.contracts) == CONTRACT_NAMES
