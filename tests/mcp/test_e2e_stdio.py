"""The server as agents run it: a real `json-contracts` process on stdio, real SDK clients."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import TextContent

from json_contracts.findings import Code
from tests.support.mcp import INITIALIZE

TICKET = {
    "description": "Support ticket.",
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "summary": {"type": "string", "maxLength": 80},
            "severity": {"type": "string", "enum": ["low", "medium", "high", "critical"]},
        },
        "required": ["summary", "severity"],
    },
    "examples": [{"input": "Login broken", "output": {"summary": "Login broken", "severity": "high"}}],
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    contracts = tmp_path / "json-contracts"
    contracts.mkdir()
    (contracts / "support-ticket.json").write_text(json.dumps(TICKET, indent=2), encoding="utf-8")
    return contracts


def _env(folder: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN"}}
    env.update({"JSON_CONTRACTS_DIR": str(folder), "WATCH_CONTRACTS": "false", **extra})
    return env


def _initialize(request_id: int = 1) -> dict[str, Any]:
    return {**INITIALIZE, "id": request_id}


def _call(request_id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


def _run_raw(folder: Path, lines: list[str], **env: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.perf_counter()
    process = subprocess.run(
        [sys.executable, "-m", "json_contracts"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        env=_env(folder, **env),
        timeout=60,
    )
    return process, time.perf_counter() - started


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_an_sdk_client_lists_tools_and_validates_over_real_stdio(folder: Path, mode: str) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "json_contracts"], env=_env(folder))
    with anyio.fail_after(30):
        async with Client(stdio_client(params), mode=mode) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            valid = await client.call_tool(
                "validate_json", {"contract": "support-ticket", "json": {"summary": "x", "severity": "low"}}
            )
            missing = await client.call_tool("read_contract", {"contract": "nope"})

    assert names[0] == "list_contracts"
    assert len(names) == 8
    assert valid.is_error is False
    assert valid.structured_content == {
        "valid": True,
        "contract": "support-ticket",
        "json": {"summary": "x", "severity": "low"},
        "errors": [],
    }
    assert missing.is_error is True
    assert missing.structured_content is None  # an error is text only: it does not match the outputSchema
    assert missing.content == [TextContent(type="text", text='{\n  "error": "Contract not found: nope"\n}')]


@pytest.mark.parametrize("watch", ["false", "true"])
def test_the_server_answers_everything_read_then_exits_promptly_at_eof(folder: Path, watch: str) -> None:
    burst = [
        json.dumps(_call(i, "validate_json", {"contract": "support-ticket", "json": {"n": i}})) for i in range(2, 52)
    ]
    lines = [json.dumps(_initialize()), json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), *burst]

    process, _ = _run_raw(folder, lines, WATCH_CONTRACTS=watch)
    answered = {json.loads(line)["id"] for line in process.stdout.splitlines()}

    assert process.returncode == 0
    assert answered == set(range(1, 52))


@pytest.mark.parametrize("watch", ["false", "true"])
def test_closing_stdin_ends_the_server_by_itself_even_while_watching(folder: Path, watch: str) -> None:
    # The TypeScript server never exits while watching; a hang here fails with TimeoutExpired.
    # How quickly it exits is measured in bench/, not asserted here.
    process, _ = _run_raw(folder, [json.dumps(_initialize())], WATCH_CONTRACTS=watch)

    assert process.returncode == 0


@pytest.mark.parametrize(("command", "watch"), [((), "true"), (("serve",), "false")])
def test_ctrl_c_stops_the_server_with_status_130_and_one_line(
    folder: Path, command: tuple[str, ...], watch: str
) -> None:
    # Like every other command (docs/reference/commands.md, Ctrl-C): 130, "Interrupted.", no traceback.
    process = subprocess.Popen(
        [sys.executable, "-m", "json_contracts", *command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(folder, WATCH_CONTRACTS=watch),
    )
    try:
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.write((json.dumps(_initialize()) + "\n").encode())
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1  # serving: the interrupt lands mid-session
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()  # a no-op once it has exited; a server that ignored SIGINT must not outlive the test
        process.wait()

    assert (process.returncode, stdout, stderr.decode()) == (130, b"", "Interrupted.\n")


def test_garbage_lines_and_unknown_methods_never_stop_the_server(folder: Path) -> None:
    lines = [
        json.dumps(_initialize()),
        "this is not json",
        '{"jsonrpc": "2.0", "id": 2, "method":',
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "no/such/method"}),
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"arguments": "x"}}),
        json.dumps(_call(5, "validate_json", {"contract": "support-ticket", "json": None})),
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "ping"}),
    ]

    process, _ = _run_raw(folder, lines)
    replies = {json.loads(line)["id"]: json.loads(line) for line in process.stdout.splitlines()}

    assert replies[3]["error"]["code"] == -32601
    assert "error" in replies[4]
    assert replies[5]["result"]["structuredContent"]["valid"] is False
    assert replies[6]["result"] == {}


def test_requests_nested_past_the_sdk_parser_are_answered_over_real_stdio(folder: Path) -> None:
    # pydantic-core gives up at ~200 levels and the SDK drops such a line unanswered.
    def deep_call(request_id: int, depth: int) -> str:
        document = "[" * depth + "]" * depth
        return (
            f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", "params": '
            f'{{"name": "validate_json", "arguments": {{"contract": "support-ticket", "json": {document}}}}}}}'
        )

    lines = [json.dumps(_initialize()), deep_call(2, 300), deep_call(3, 100_000), json.dumps(_call(4, "status", {}))]

    process, _ = _run_raw(folder, lines)
    replies = {json.loads(line)["id"]: json.loads(line) for line in process.stdout.splitlines()}

    assert process.returncode == 0
    assert replies[2]["result"] == {
        "content": [{"type": "text", "text": '{\n  "error": "json is nested more than 64 levels deep; flatten it"\n}'}],
        "isError": True,
    }
    assert replies[3]["error"]["code"] == -32600
    assert "nested too deeply" in replies[3]["error"]["message"]
    assert "contracts" in json.dumps(replies[4]["result"]["structuredContent"])


def test_a_request_line_over_16_mib_is_refused_and_the_server_goes_on(folder: Path) -> None:
    huge = json.dumps(_call(2, "validate_json", {"contract": "support-ticket", "json": "x" * (17 * 1024 * 1024)}))
    lines = [json.dumps(_initialize()), huge, json.dumps(_call(3, "status", {}))]

    process, _ = _run_raw(folder, lines)
    replies = {json.loads(line)["id"]: json.loads(line) for line in process.stdout.splitlines()}

    assert process.returncode == 0
    assert replies[2]["error"] == {
        "code": -32600,
        "message": "Request line is longer than 16777216 bytes; send a smaller document",
    }
    assert "result" in replies[3]


def test_stdin_redirected_from_a_regular_file_is_served_too(folder: Path, tmp_path: Path) -> None:
    # asyncio cannot watch a regular file, so the SDK's own stdio transport takes over.
    requests = tmp_path / "requests.jsonl"
    requests.write_text(json.dumps(_initialize()) + "\n" + json.dumps(_call(2, "status", {})) + "\n", encoding="utf-8")

    with requests.open("rb") as stdin:
        process = subprocess.run(
            [sys.executable, "-m", "json_contracts"], stdin=stdin, capture_output=True, text=True,
            env=_env(folder), timeout=60, check=False,
        )  # fmt: skip

    assert process.returncode == 0
    assert [json.loads(line)["id"] for line in process.stdout.splitlines()] == [1, 2]


def test_stdout_redirected_to_a_regular_file_is_served_too(folder: Path, tmp_path: Path) -> None:
    answers = tmp_path / "answers.jsonl"
    lines = json.dumps(_initialize()) + "\n" + json.dumps(_call(2, "status", {})) + "\n"

    with answers.open("w", encoding="utf-8") as stdout:
        process = subprocess.run(
            [sys.executable, "-m", "json_contracts"], input=lines, stdout=stdout, stderr=subprocess.PIPE, text=True,
            env=_env(folder), timeout=60, check=False,
        )  # fmt: skip

    assert process.returncode == 0, process.stderr
    assert "Traceback" not in process.stderr
    assert [json.loads(line)["id"] for line in answers.read_text(encoding="utf-8").splitlines()] == [1, 2]


def test_a_stray_print_in_the_server_process_never_reaches_the_protocol_channel(folder: Path, tmp_path: Path) -> None:
    # fd 1 points at stderr while serving: a library that prints cannot corrupt the JSON-RPC stream.
    probe = tmp_path / "sitecustomize.py"
    probe.write_text(
        "import json_contracts.mcp.handlers as h\n"
        "original = h.ContractService.call\n"
        "def noisy(self, name, arguments):\n"
        "    print('stray output from a library')\n"
        "    import os; os.write(1, b'raw bytes on fd 1\\n')\n"
        "    return original(self, name, arguments)\n"
        "h.ContractService.call = noisy\n",
        encoding="utf-8",
    )
    lines = [json.dumps(_initialize()), json.dumps(_call(2, "status", {}))]

    process, _ = _run_raw(folder, lines, PYTHONPATH=str(tmp_path))

    assert [json.loads(line)["id"] for line in process.stdout.splitlines()] == [1, 2]
    assert "raw bytes on fd 1" in process.stderr


def test_a_catastrophic_pattern_is_answered_within_its_time_bound_and_the_server_goes_on(folder: Path) -> None:
    # A back-reference needs the backtracking engine, so this one is matched in the killable worker.
    evil = {"schema": {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)+\\1$"}}}}
    (folder / "evil.json").write_text(json.dumps(evil), encoding="utf-8")
    linear = {"schema": {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}}}}
    (folder / "linear.json").write_text(json.dumps(linear), encoding="utf-8")
    lines = [
        json.dumps(_initialize()),
        json.dumps(_call(2, "validate_json", {"contract": "evil", "json": {"code": "a" * 40 + "!"}})),
        json.dumps(_call(3, "validate_json", {"contract": "evil", "json": {"code": "aaaa"}})),
        json.dumps(_call(4, "validate_json", {"contract": "linear", "json": {"code": "a" * 100_000 + "!"}})),
    ]

    process, _ = _run_raw(folder, lines, JSON_CONTRACTS_PATTERN_TIMEOUT="0.5")
    replies = {json.loads(line)["id"]: json.loads(line) for line in process.stdout.splitlines()}

    [error] = replies[2]["result"]["structuredContent"]["errors"]
    assert error["path"] == "/code"
    assert error["message"].startswith('could not be checked against pattern "^(a+)+\\1$" within 0.5 s')
    assert replies[3]["result"]["structuredContent"]["valid"] is True
    # The same shape without the back-reference runs in linear time: a verdict, not a timeout.
    [verdict] = replies[4]["result"]["structuredContent"]["errors"]
    assert verdict["message"] == 'must match pattern "^(a+)+$"'


def test_stdout_carries_only_protocol_messages(folder: Path) -> None:
    lines = [json.dumps(_initialize()), json.dumps(_call(2, "status", {}))]

    process, _ = _run_raw(folder, lines, DEBUG="true")

    for line in process.stdout.splitlines():
        assert json.loads(line)["jsonrpc"] == "2.0"


def test_a_broken_contract_at_startup_is_a_fatal_error_on_stderr(folder: Path) -> None:
    (folder / "broken.json").write_text("{ nope", encoding="utf-8")

    process, _ = _run_raw(folder, [json.dumps(_initialize())])

    assert process.returncode == 1
    assert process.stdout == ""
    assert process.stderr.startswith(
        "[json-contracts] error: Fatal startup error Failed to load JSON contracts: broken.json: Invalid JSON: "
    )  # the TypeScript server's line, then what to do about it
    assert process.stderr.splitlines()[1:] == [
        "[json-contracts] error: To serve the contracts that load and skip the broken ones, set "
        "ALLOW_INVALID_CONTRACTS=true; to see every problem with its line and column, run: "
        f"json-contracts validate --contracts {folder}"
    ]


def test_the_startup_advice_works_when_followed(folder: Path) -> None:
    (folder / "broken.json").write_text("{ nope", encoding="utf-8")
    process, _ = _run_raw(folder, [json.dumps(_initialize())])
    command = shlex.split(process.stderr.splitlines()[1].split("run: ", 1)[1])
    assert command[:2] == ["json-contracts", "validate"]

    validated = subprocess.run([sys.executable, "-m", "json_contracts", *command[1:]], capture_output=True,
                               text=True, env=_env(folder), timeout=60, check=False)  # fmt: skip
    served, _ = _run_raw(folder, [json.dumps(_initialize())], ALLOW_INVALID_CONTRACTS="true")

    assert validated.returncode == 1
    assert f"broken.json:1:3: {Code.INVALID_JSON} error Invalid JSON" in validated.stdout + validated.stderr
    assert served.returncode == 0
    assert "Skipping invalid contract broken.json" in served.stderr


def test_allowing_invalid_contracts_serves_the_good_ones_and_warns(folder: Path) -> None:
    (folder / "broken.json").write_text("{ nope", encoding="utf-8")

    process, _ = _run_raw(
        folder, [json.dumps(_initialize()), json.dumps(_call(2, "list_contracts", {}))], ALLOW_INVALID_CONTRACTS="yes"
    )
    listed = json.loads(process.stdout.splitlines()[1])["result"]["structuredContent"]

    assert [c["name"] for c in listed["contracts"]] == ["support-ticket"]
    assert "[json-contracts] warn: Skipping invalid contract broken.json Invalid JSON: " in process.stderr


@pytest.mark.parametrize(("variable", "value"), [("MCP_TRANSPORT", "carrier-pigeon"), ("PORT", "http")])
def test_a_bad_transport_setting_fails_with_one_clear_line(folder: Path, variable: str, value: str) -> None:
    env = {variable: value, "MCP_TRANSPORT": "http"} if variable == "PORT" else {variable: value}
    process, _ = _run_raw(folder, [], **env)

    assert process.returncode == 1
    assert process.stderr.startswith("[json-contracts] error: ")
    assert len(process.stderr.strip().splitlines()) == 1


def test_an_empty_transport_variable_counts_as_unset(folder: Path) -> None:
    process, _ = _run_raw(folder, [json.dumps(_initialize())], MCP_TRANSPORT="")

    assert process.returncode == 0
    assert json.loads(process.stdout.splitlines()[0])["id"] == 1


# --- stdin closed with requests in flight -----------------------------------------------------------

_SLOW_HANDLERS = """\
import time

import json_contracts.mcp.handlers as handlers
from json_contracts.schema import budget

_original = handlers.ContractService.call


def _slow(self, name, arguments):
    # A tool that takes a while: {"delay": seconds} in the document being validated. The wait is
    # in the engine, which the front desk and the SDK's path both call, and a cancelled call ends
    # it at the next check, as it ends a validation.
    document = arguments.get("json") if isinstance(arguments, dict) else None
    if isinstance(document, dict) and isinstance(document.get("delay"), (int, float)):
        end = time.monotonic() + document["delay"]
        with budget.deadline(1e6):
            while time.monotonic() < end:
                budget.check()
                time.sleep(0.01)
    return _original(self, name, arguments)


handlers.ContractService.call = _slow
"""
BIG_SCHEMA = {
    "type": "object",
    "properties": {f"field{i}": {"type": "string", "description": "d" * 200} for i in range(100)},
}


@pytest.fixture
def slow_handlers(tmp_path: Path, folder: Path) -> str:
    """A PYTHONPATH whose ``sitecustomize`` makes ``tools/call`` wait ``json.delay`` seconds first.

    The folder gains ``open``, a contract any object passes, so an answer echoes its document.
    """
    (folder / "open.json").write_text('{"schema": {"type": "object"}}', encoding="utf-8")
    site = tmp_path / "slow-site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(_SLOW_HANDLERS, encoding="utf-8")
    return os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))


def _serve_lines(
    folder: Path, lines: list[str], stdin_kind: str, timeout: float = 120, **env: str
) -> subprocess.CompletedProcess[bytes]:
    """Run the server on ``lines`` then EOF: through a pipe (the lean transport) or a regular file (the SDK's)."""
    data = "".join(line + "\n" for line in lines).encode()
    command = [sys.executable, "-m", "json_contracts"]
    if stdin_kind == "pipe":
        return subprocess.run(command, input=data, capture_output=True, env=_env(folder, **env), timeout=timeout)
    requests = folder.parent / "requests.jsonl"
    requests.write_bytes(data)
    with requests.open("rb") as stdin:
        return subprocess.run(command, stdin=stdin, capture_output=True, env=_env(folder, **env), timeout=timeout)


@pytest.mark.parametrize("stdin_kind", ["pipe", "file"])
def test_a_pipelined_burst_of_slow_and_large_requests_is_all_answered_at_eof(
    folder: Path, slow_handlers: str, stdin_kind: str
) -> None:
    (folder / "big.json").write_text(json.dumps({"schema": BIG_SCHEMA}), encoding="utf-8")
    expected: dict[int, Any] = {}
    lines = [json.dumps(_initialize(0)), json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})]
    for i in range(1, 501):
        if i % 3 == 0:  # a large answer (~60 KB): the schema, twice over
            lines.append(json.dumps(_call(i, "get_json_contract", {"contract": "big", "input": f"n{i}"})))
            expected[i] = f"n{i}"
        else:  # slow, some with a ~1.6 MB answer; one connection's calls run one after another, so
            # the delays add up (about 9 s): most are still waiting at EOF, all within the 30 s drain
            document = {"delay": 1.0 if i % 97 == 0 else (i % 7) / 200, "text": "x" * (800_000 if i % 50 == 1 else i)}
            lines.append(json.dumps(_call(i, "validate_json", {"contract": "open", "json": document})))
            expected[i] = document

    process = _serve_lines(folder, lines, stdin_kind, PYTHONPATH=slow_handlers)
    replies = [json.loads(line) for line in process.stdout.splitlines()]
    by_id = {reply["id"]: reply for reply in replies}

    assert process.returncode == 0, process.stderr.decode()[-2000:]
    assert len(replies) == len(by_id) == 501  # every request answered exactly once
    for i, want in expected.items():
        result = by_id[i]["result"]["structuredContent"]
        if isinstance(want, str):
            assert (result["contract"], result["input"], result["schema"]) == ("big", want, BIG_SCHEMA)
        else:
            assert result == {"valid": True, "contract": "open", "json": want, "errors": []}


_SHORT_DRAIN = "\nimport json_contracts.mcp.frontdesk as frontdesk\n\nfrontdesk._DRAIN_SECONDS = 1.0\n"


def test_queued_work_longer_than_the_drain_window_is_still_all_answered(folder: Path, slow_handlers: str) -> None:
    """The window at end of input is 30 s without an answer, not 30 s in all: a client that pipelines
    many slow calls and closes its input gets every answer (they were dropped silently past 30 s)."""
    site = Path(slow_handlers.split(os.pathsep)[0])
    (site / "sitecustomize.py").write_text(_SLOW_HANDLERS + _SHORT_DRAIN, encoding="utf-8")  # a 1 s window
    lines = [json.dumps(_initialize())]
    lines += [json.dumps(_call(i, "validate_json", {"contract": "open", "json": {"delay": 0.4}})) for i in range(2, 10)]
    process = _serve_lines(folder, lines, "pipe", PYTHONPATH=slow_handlers)  # 3.2 s of work, one call at a time
    assert process.returncode == 0, process.stderr.decode()[-2000:]
    assert sorted(json.loads(line)["id"] for line in process.stdout.splitlines()) == list(range(1, 10))
    assert b"unanswered" not in process.stderr


def test_a_call_that_makes_no_progress_within_the_window_is_given_up_with_a_warning(
    folder: Path, slow_handlers: str
) -> None:
    site = Path(slow_handlers.split(os.pathsep)[0])
    (site / "sitecustomize.py").write_text(_SLOW_HANDLERS + _SHORT_DRAIN, encoding="utf-8")
    lines = [
        json.dumps(_initialize()),
        json.dumps(_call(2, "validate_json", {"contract": "open", "json": {"delay": 30}})),
    ]
    process = _serve_lines(folder, lines, "pipe", timeout=25, PYTHONPATH=slow_handlers)
    assert process.returncode == 0
    assert [json.loads(line)["id"] for line in process.stdout.splitlines()] == [1]
    assert "Input ended with 1 request(s) still unanswered after 1 s without progress" in process.stderr.decode()


@pytest.mark.parametrize("stdin_kind", ["pipe", "file"])
def test_a_request_cancelled_before_eof_does_not_hold_the_server_open(
    folder: Path, slow_handlers: str, stdin_kind: str
) -> None:
    # The SDK never answers a cancelled request; waiting for that answer kept the process alive
    # for the whole 30 s drain, past the (generous) bound on the run below.
    slow = _call(2, "validate_json", {"contract": "support-ticket", "json": {"delay": 600}})
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}
    lines = [json.dumps(_initialize()), json.dumps(slow), json.dumps(cancel), json.dumps(_call(3, "status", {}))]

    process = _serve_lines(folder, lines, stdin_kind, timeout=25, PYTHONPATH=slow_handlers)

    assert process.returncode == 0
    assert [json.loads(line)["id"] for line in process.stdout.splitlines()] == [1, 3]


def test_a_request_id_reused_while_in_flight_still_gets_both_answers(folder: Path, slow_handlers: str) -> None:
    # JSON-RPC asks for unique ids, but a client that reuses one must not lose either answer. One
    # connection's calls are worked on in the order they came, so the slow one is answered first.
    first = _call(2, "validate_json", {"contract": "open", "json": {"delay": 1.0, "n": "slow"}})
    second = _call(2, "validate_json", {"contract": "open", "json": {"delay": 0, "n": "fast"}})
    lines = [json.dumps(_initialize()), json.dumps(first), json.dumps(second)]

    process = _serve_lines(folder, lines, "pipe", PYTHONPATH=slow_handlers)
    replies = [json.loads(line) for line in process.stdout.splitlines()[1:]]

    assert [reply["id"] for reply in replies] == [2, 2]
    assert all("result" in reply for reply in replies), replies
    assert [r["result"]["structuredContent"]["json"]["n"] for r in replies] == ["slow", "fast"]


@pytest.mark.parametrize("stdin_kind", ["pipe", "file"])
def test_a_client_that_stops_reading_ends_the_server_quietly(
    folder: Path, slow_handlers: str, stdin_kind: str, tmp_path: Path
) -> None:
    slow = [
        json.dumps(_call(i, "validate_json", {"contract": "support-ticket", "json": {"delay": 0.5}}))
        for i in range(2, 12)
    ]
    data = "".join(line + "\n" for line in [json.dumps(_initialize()), *slow]).encode()
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(data)
    env = _env(folder, PYTHONPATH=slow_handlers)
    with requests.open("rb") as file_stdin:
        process = subprocess.Popen(
            [sys.executable, "-m", "json_contracts"],
            stdin=file_stdin if stdin_kind == "file" else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        assert process.stdout is not None
        if process.stdin is not None:
            process.stdin.write(data)
            process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1
        process.stdout.close()  # the client goes away while ten answers are still being worked on
        if process.stdin is not None:
            process.stdin.close()
        process.wait(timeout=60)
        assert process.stderr is not None
        stderr = process.stderr.read()
        process.stderr.close()

    assert process.returncode == 0
    assert b"Traceback" not in stderr, stderr.decode()[-2000:]
