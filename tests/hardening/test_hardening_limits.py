"""Size and depth limits on every entry point: a 5 MiB string and a 100,000-deep array are refused
quickly and clearly, through MCP tools and prompts (in memory, on the wire and over a real stdio
process), ``check`` (file and stdin) and contract files; every limit is configurable with the
``JSON_CONTRACTS_MAX_*`` variables, and its default is the one SECURITY.md documents.

"Quickly" is shown by these tests finishing: nothing here measures time.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcp.types as types
import pytest
from click.testing import CliRunner
from mcp import MCPError

from json_contracts.cli import main
from json_contracts.contracts.limits import ENVIRONMENT, DocumentLimits, Limits, defaults, limits_from_env
from json_contracts.contracts.loading import load_contracts
from json_contracts.errors import EnvironmentVariableError
from json_contracts.mcp.settings import SettingsError, settings_from_env
from tests.support.hardening import MIB, Served, nested_list, wire_peer
from tests.support.mcp import INITIALIZE, assert_tool_error, error_message, wire_tool_error

ROOT = Path(__file__).resolve().parents[2]
TICKET = "support-ticket"
FIVE_MIB = "x" * (5 * MIB)
DEEP = 100_000
DEEP_TEXT = "[" * DEEP + "]" * DEEP
VALID_TICKET = {"summary": "Login broken", "severity": "high", "category": "authentication"}

#: Every tool argument that carries a document or free text, with otherwise valid arguments.
DOCUMENT_ARGUMENTS: list[tuple[str, str, dict[str, Any]]] = [
    ("validate_json", "json", {"contract": TICKET}),
    ("get_edit_contract", "currentJson", {"contract": TICKET, "input": "x"}),
    ("get_edit_contract", "context", {"contract": TICKET, "input": "x", "currentJson": VALID_TICKET}),
    ("get_repair_contract", "invalidJson", {"contract": TICKET}),
    ("get_repair_contract", "validationErrors", {"contract": TICKET, "invalidJson": {}}),
    ("get_json_contract", "input", {"contract": TICKET}),
    ("get_json_contract", "context", {"contract": TICKET, "input": "x"}),
    ("read_contract", "contract", {}),
]
IDS = [f"{tool}.{key}" for tool, key, _ in DOCUMENT_ARGUMENTS]


def _size_message(key: str, size: int) -> str:
    return f"{key} is {size} bytes, over the limit of {MIB} bytes; send a smaller document"


def _error(result: types.CallToolResult) -> str:
    """The message of an expected tool failure, checked to be all it carries (text only)."""
    message = error_message(result)
    assert_tool_error(result, message)
    return message


# --- the defaults, and the variables that change them -----------------------------------------------


def test_the_limits_page_documents_every_limit_variable_with_its_default() -> None:
    """The limits table in the docs (SECURITY.md links to it) is the code's: same variables, same defaults."""
    text = (ROOT / "docs" / "reference" / "limits.md").read_text(encoding="utf-8")
    documented = {
        name: int(value.replace(",", ""))
        for name, value in re.findall(r"\| `(JSON_CONTRACTS_MAX_[A-Z_]+)` \| ([\d,]+) ", text)
    }
    assert documented == defaults()


def test_the_defaults_are_the_original_s_and_bound_nesting() -> None:
    assert limits_from_env({}) == (Limits(), DocumentLimits())
    assert (Limits().max_file_bytes, Limits().max_schema_bytes, Limits().max_examples) == (262144, 131072, 50)
    assert DocumentLimits() == DocumentLimits(max_bytes=MIB, max_depth=64, max_errors=1000)


def test_every_variable_sets_its_limit_and_an_empty_one_is_unset() -> None:
    environ = dict.fromkeys(ENVIRONMENT, "7") | {"JSON_CONTRACTS_MAX_FILE_BYTES": ""}
    contract, document = limits_from_env(environ)
    assert contract == Limits(
        max_file_bytes=262144,
        max_schema_bytes=7,
        max_examples=7,
        max_schema_depth=7,
        max_file_depth=7,
        max_folder_bytes=7,
        max_folder_files=7,
    )
    assert document == DocumentLimits(max_bytes=7, max_depth=7, max_errors=7)
    assert limits_from_env({"JSON_CONTRACTS_MAX_DOCUMENT_BYTES": "4_194_304"})[1].max_bytes == 4 * MIB


@pytest.mark.parametrize(
    ("name", "value", "accepted"),
    [
        ("JSON_CONTRACTS_MAX_DOCUMENT_BYTES", "0", "of at least 1"),
        ("JSON_CONTRACTS_MAX_DOCUMENT_BYTES", "-5", "of at least 1"),
        ("JSON_CONTRACTS_MAX_FILE_BYTES", "1e6", "of at least 1"),
        ("JSON_CONTRACTS_MAX_EXAMPLES", "lots", "of at least 1"),
        ("JSON_CONTRACTS_MAX_DOCUMENT_DEPTH", "100000", "from 1 to 256"),
        ("JSON_CONTRACTS_MAX_FILE_DEPTH", "257", "from 1 to 256"),
        ("JSON_CONTRACTS_MAX_SCHEMA_DEPTH", "65", "from 1 to 64"),
    ],
)
def test_a_bad_value_names_the_variable_and_what_it_accepts(name: str, value: str, accepted: str) -> None:
    with pytest.raises(EnvironmentVariableError) as raised:
        limits_from_env({name: value})
    assert str(raised.value) == f"{name} must be a whole number {accepted}, got {value!r}; unset it for the default"


def test_the_server_reads_the_variables_and_refuses_bad_ones(tmp_path: Path) -> None:
    settings = settings_from_env(
        {
            "JSON_CONTRACTS_MAX_DOCUMENT_BYTES": "100",
            "JSON_CONTRACTS_MAX_ERRORS": "3",
            "JSON_CONTRACTS_MAX_EXAMPLES": "2",
        },
        contracts=str(tmp_path),
    )
    assert (settings.max_document_bytes, settings.max_document_depth, settings.max_document_errors) == (100, 64, 3)
    assert settings.limits == Limits(max_examples=2)
    with pytest.raises(SettingsError, match=r"^JSON_CONTRACTS_MAX_DOCUMENT_DEPTH must be a whole number"):
        settings_from_env({"JSON_CONTRACTS_MAX_DOCUMENT_DEPTH": "deep"}, contracts=str(tmp_path))


def test_serve_with_a_bad_limit_exits_with_one_line_naming_it(tmp_path: Path) -> None:
    env = {**os.environ, "JSON_CONTRACTS_DIR": str(tmp_path), "JSON_CONTRACTS_MAX_ERRORS": "0"}
    process = subprocess.run(
        [sys.executable, "-m", "json_contracts"], input="", capture_output=True, text=True, env=env, timeout=60
    )
    assert process.returncode == 1
    assert process.stdout == ""
    assert process.stderr == (
        "[json-contracts] error: JSON_CONTRACTS_MAX_ERRORS must be a whole number of at least 1, got '0'; "
        "unset it for the default\n"
    )


# --- MCP tools and prompts --------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize(("tool", "key", "arguments"), DOCUMENT_ARGUMENTS, ids=IDS)
async def test_a_5_mib_string_is_refused_by_every_tool_argument(
    served: Served, tool: str, key: str, arguments: dict[str, Any]
) -> None:
    value: Any = FIVE_MIB
    if key == "context":
        value = {"a": FIVE_MIB}
    if key == "validationErrors":
        value = [{"path": "", "keyword": "k", "message": FIVE_MIB}]
    async with served.client() as client:
        result = await client.call_tool(tool, {**arguments, key: value})
        assert _error(result).startswith(f"{key} is ")
        assert _error(result).endswith(f" bytes, over the limit of {MIB} bytes; send a smaller document")
        assert not (await client.call_tool("status", {})).is_error


@pytest.mark.anyio
@pytest.mark.parametrize(("tool", "key", "arguments"), DOCUMENT_ARGUMENTS[:5], ids=IDS[:5])
async def test_a_100000_deep_array_is_refused_by_every_document_argument(
    served: Served, tool: str, key: str, arguments: dict[str, Any]
) -> None:
    """Built without recursion and handed over as a message (no client can serialise it)."""
    value: Any = nested_list(DEEP)
    if key == "context":
        value = {"a": value}
    async with wire_peer(served) as peer:
        await peer.initialize()
        request = types.JSONRPCRequest.model_construct(
            jsonrpc="2.0", id=1, method="tools/call", params={"name": tool, "arguments": {**arguments, key: value}}
        )
        await peer.send_message(request)
        result = (await peer.response(1))["result"]
        assert wire_tool_error(result) == f"{key} is nested more than 64 levels deep; flatten it"
        assert (await peer.request(2, "ping"))["result"] == {}


PROMPT_ARGUMENTS = [
    ("json_contract_prompt", "input", {"contract": TICKET}),
    ("json_contract_prompt", "context", {"contract": TICKET, "input": "x"}),
    ("edit_contract_prompt", "currentJson", {"contract": TICKET, "input": "x"}),
    ("repair_contract_prompt", "invalidJson", {"contract": TICKET}),
    ("repair_contract_prompt", "validationErrors", {"contract": TICKET, "invalidJson": "{}"}),
]


async def _prompt_error(served: Served, prompt: str, arguments: dict[str, str]) -> str:
    async with served.client() as client:
        with pytest.raises(MCPError) as raised:
            await client.get_prompt(prompt, arguments)
        assert not (await client.call_tool("status", {})).is_error
    return raised.value.message


@pytest.mark.anyio
@pytest.mark.parametrize(("prompt", "key", "arguments"), PROMPT_ARGUMENTS)
async def test_prompts_refuse_a_5_mib_argument(
    served: Served, prompt: str, key: str, arguments: dict[str, str]
) -> None:
    value = FIVE_MIB if key == "input" else json.dumps(FIVE_MIB)  # free text, or JSON text of a 5 MiB string
    message = await _prompt_error(served, prompt, {**arguments, key: value})
    assert re.fullmatch(rf"{key} is \d+ bytes, over the limit of {MIB} bytes; send a smaller document", message)


@pytest.mark.anyio
@pytest.mark.parametrize(("prompt", "key", "arguments"), PROMPT_ARGUMENTS[1:])
async def test_prompts_refuse_a_100000_deep_argument(
    served: Served, prompt: str, key: str, arguments: dict[str, str]
) -> None:
    message = await _prompt_error(served, prompt, {**arguments, key: DEEP_TEXT})
    assert message == f"{key} is nested more than 64 levels deep; flatten it"


@pytest.mark.anyio
async def test_a_5_mib_uri_or_tool_name_is_refused_with_a_short_message(served: Served) -> None:
    async with served.client() as client:
        with pytest.raises(MCPError) as raised:
            await client.read_resource("json-contract://" + FIVE_MIB)
        unknown = await client.call_tool(FIVE_MIB, {})
    assert raised.value.message == f"Contract not found: {'x' * 200}... ({5 * MIB} characters)"
    assert raised.value.code == -32602  # a 2026-07-28 session: an unknown resource is invalid params
    assert _error(unknown) == f"Unknown tool: {'x' * 200}... ({5 * MIB} characters)"


@pytest.mark.anyio
async def test_a_document_with_thousands_of_errors_lists_the_first_1000_then_says_so(served: Served) -> None:
    document = {f"extra{i}": i for i in range(5000)} | VALID_TICKET
    async with served.client() as client:
        validated = await client.call_tool("validate_json", {"contract": TICKET, "json": document})
        repaired = await client.call_tool("get_repair_contract", {"contract": TICKET, "invalidJson": document})
    errors = (validated.structured_content or {})["errors"]
    assert len(errors) == 1001
    assert errors[0] == {
        "path": "/extra0",
        "message": "must NOT have additional properties",
        "keyword": "additionalProperties",
    }
    assert errors[-1] == {
        "path": "",
        "message": "must NOT have more than 1000 errors; fix these and validate again",
        "keyword": "maxErrors",
    }
    assert (repaired.structured_content or {})["validationErrors"] == errors
    assert len((repaired.structured_content or {})["repairs"]) == 1001


@pytest.mark.anyio
async def test_the_error_cap_is_configurable(serve: Any) -> None:
    served = serve(max_document_errors=2)
    async with served.client() as client:
        result = await client.call_tool("validate_json", {"contract": TICKET, "json": {"a": 1, "b": 2, "c": 3}})
    keywords = [e["keyword"] for e in (result.structured_content or {})["errors"]]
    assert keywords == ["required", "required", "maxErrors"]


def test_a_real_stdio_server_refuses_5_mib_and_100000_deep_requests_and_answers_the_next(tmp_path: Path) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "t.json").write_text(json.dumps({"schema": {"type": "object"}}), encoding="utf-8")

    def call(request_id: int, arguments_text: str, *, id_last: bool = False) -> str:
        head = '{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "validate_json", "arguments": '
        if id_last:
            return head + arguments_text + f'}}, "id": {request_id}}}'
        return f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", "params": ' + (
            '{"name": "validate_json", "arguments": ' + arguments_text + "}}"
        )

    lines = [
        json.dumps(INITIALIZE),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        call(2, json.dumps({"contract": "t", "json": FIVE_MIB})),
        call(3, '{"contract": "t", "json": ' + DEEP_TEXT + "}"),
        call(4, '{"contract": "t", "json": ' + DEEP_TEXT + "}", id_last=True),
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 5,
                "method": "prompts/get",
                "params": {"name": "repair_contract_prompt", "arguments": {"contract": "t", "invalidJson": DEEP_TEXT}},
            }
        ),
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "ping"}),
    ]
    env = {**os.environ, "JSON_CONTRACTS_DIR": str(folder), "WATCH_CONTRACTS": "false"}
    process = subprocess.run(
        [sys.executable, "-m", "json_contracts"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    answers = {answer["id"]: answer for answer in map(json.loads, process.stdout.splitlines())}
    assert process.returncode == 0
    assert sorted(answers) == [1, 2, 3, 4, 5, 6]
    assert wire_tool_error(answers[2]["result"]) == _size_message("json", 5 * MIB + 2)
    too_deep = "Request is nested too deeply to read; documents may be nested at most 64 levels"
    assert answers[3]["error"] == {"code": -32600, "message": too_deep}
    assert answers[4]["error"] == {"code": -32600, "message": too_deep}
    assert answers[5]["error"]["message"] == "invalidJson is nested more than 64 levels deep; flatten it"
    assert answers[6]["result"] == {}
    assert "Traceback" not in process.stderr


# --- json-contracts check -----------------------------------------------------------------------------


@pytest.fixture
def contracts(tmp_path: Path) -> Path:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "any.json").write_text(json.dumps({"schema": {}}), encoding="utf-8")
    return folder


def _check(contracts: Path, *args: str, input: bytes | None = None, env: dict[str, str] | None = None) -> Any:
    result = CliRunner().invoke(main, ["check", "any", *args, "-c", str(contracts)], input=input, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("where", ["stdin", "file"])
def test_check_refuses_a_5_mib_document_without_reading_it_all(contracts: Path, tmp_path: Path, where: str) -> None:
    data = json.dumps(FIVE_MIB).encode()
    if where == "file":
        (tmp_path / "big.json").write_bytes(data)
        result = _check(contracts, str(tmp_path / "big.json"))
        label = str(tmp_path / "big.json")
    else:
        result = _check(contracts, "-", input=data)
        label = "<stdin>"
    assert result.exit_code == 1
    assert result.stdout == (
        f"{label}: document is larger than {MIB} bytes, the limit; check a smaller document "
        "or raise JSON_CONTRACTS_MAX_DOCUMENT_BYTES\n"
    )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_check_refuses_an_endless_file(contracts: Path) -> None:
    result = _check(contracts, "/dev/zero")
    assert result.exit_code == 1
    assert result.stdout.startswith(f"/dev/zero: document is larger than {MIB} bytes")


@pytest.mark.parametrize("where", ["stdin", "file"])
@pytest.mark.parametrize("depth", [65, DEEP])
def test_check_refuses_a_document_nested_too_deep(contracts: Path, tmp_path: Path, where: str, depth: int) -> None:
    data = ("[" * depth + "]" * depth).encode()
    if where == "file":
        (tmp_path / "deep.json").write_bytes(data)
        result = _check(contracts, str(tmp_path / "deep.json"), "--json")
    else:
        result = _check(contracts, "-", "--json", input=data)
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert report["error"] == "document is nested more than 64 levels deep; flatten it"


def test_check_accepts_64_levels_and_its_limits_are_configurable(contracts: Path) -> None:
    assert _check(contracts, input=b"[" * 64 + b"]" * 64).exit_code == 0
    small = _check(contracts, input=b'"abcdefgh"', env={"JSON_CONTRACTS_MAX_DOCUMENT_BYTES": "5"})
    assert small.exit_code == 1
    assert "document is larger than 5 bytes" in small.stdout
    shallow = _check(contracts, input=b"[[[]]]", env={"JSON_CONTRACTS_MAX_DOCUMENT_DEPTH": "2"})
    assert shallow.stdout == "<stdin>: document is nested more than 2 levels deep; flatten it\n"
    bad = _check(contracts, input=b"{}", env={"JSON_CONTRACTS_MAX_DOCUMENT_DEPTH": "x"})
    assert bad.exit_code == 2
    assert bad.stderr == (
        "Error: JSON_CONTRACTS_MAX_DOCUMENT_DEPTH must be a whole number from 1 to 256, got 'x'; "
        "unset it for the default\n"
    )


# --- contract files ------------------------------------------------------------------------------------


def test_a_5_mib_contract_file_is_refused_by_its_size(make_contracts_dir: Any) -> None:
    folder = make_contracts_dir({"big.json": json.dumps({"schema": {}, "description": FIVE_MIB})})
    size = (folder / "big.json").stat().st_size
    [failure] = load_contracts(folder).failures
    assert (failure.code, failure.file) == ("JC013", "big.json")
    assert failure.message == f"Contract file exceeds size limit ({size} > 262144 bytes)"


def test_a_100000_deep_contract_file_is_refused_as_too_deep(make_contracts_dir: Any) -> None:
    folder = make_contracts_dir({"deep.json": '{"schema": {}, "x": ' + DEEP_TEXT + "}"})
    [failure] = load_contracts(folder).failures
    assert (failure.code, failure.file) == ("JC022", "deep.json")
    assert failure.message == (
        "Contract file is nested more than 256 levels deep; flatten it "
        "(move repeated schema parts into $defs, shorten deep examples)"
    )


def test_a_contract_nested_past_the_limit_is_refused_where_it_gets_too_deep(make_contracts_dir: Any) -> None:
    """300 levels: the JSON reader manages it, the limit does not let it through, and the finding
    points at the first value past the limit."""
    text = '{\n  "schema": {},\n  "examples": [{"input": "i", "output": ' + "[" * 300 + "]" * 300 + "}]\n}"
    folder = make_contracts_dir({"deep.json": text})
    [failure] = load_contracts(folder).failures
    assert failure.code == "JC022"
    assert failure.pointer == "/examples/0/output" + "/0" * 253
    assert (failure.line, failure.column) == (3, text.split("\n")[2].index("[[") + 1 + 253)


def test_a_contract_at_the_nesting_limit_loads_and_serves(make_contracts_dir: Any) -> None:
    folder = make_contracts_dir({"deep.json": {"schema": {"const": nested_list(254)}}})
    result = load_contracts(folder)
    assert result.ok
    assert list(result.contracts) == ["deep"]


@pytest.mark.parametrize(
    ("variable", "value", "content", "code"),
    [
        ("JSON_CONTRACTS_MAX_FILE_BYTES", "20", {"schema": {"type": "string"}}, "JC013"),
        ("JSON_CONTRACTS_MAX_SCHEMA_BYTES", "10", {"schema": {"type": "string"}}, "JC018"),
        (
            "JSON_CONTRACTS_MAX_EXAMPLES",
            "1",
            {"schema": {}, "examples": [{"input": "a", "output": 1}, {"input": "b", "output": 2}]},
            "JC017",
        ),
        ("JSON_CONTRACTS_MAX_SCHEMA_DEPTH", "2", {"schema": {"items": {"items": {}}}}, "JC019"),
        ("JSON_CONTRACTS_MAX_FILE_DEPTH", "3", {"schema": {"items": {"items": {}}}}, "JC022"),
    ],
)
def test_validate_applies_the_contract_limit_variables(
    tmp_path: Path, variable: str, value: str, content: dict[str, Any], code: str
) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "c.json").write_text(json.dumps(content), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["validate", "-c", str(folder)]).exit_code == 0
    limited = runner.invoke(main, ["validate", "-c", str(folder)], env={variable: value})
    assert limited.exit_code == 1
    assert f" {code} error " in limited.stdout


# --- HTTP (a real server process on loopback, with a token) -------------------------------------------------


@pytest.fixture
def http_port(tmp_path: Path) -> Iterator[int]:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "t.json").write_text('{"schema": {"type": "object"}}', encoding="utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    env = {**os.environ, "JSON_CONTRACTS_DIR": str(folder), "WATCH_CONTRACTS": "false", "API_AUTH_TOKEN": "t0ken"}
    env.pop("MCP_TRANSPORT", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "json_contracts", "serve", "--transport", "http", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(600):  # until it listens (a guard, not a measurement)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None:
                    raise AssertionError(process.communicate()[1]) from None
                threading.Event().wait(0.05)
        yield port
    finally:
        process.terminate()
        process.communicate(timeout=10)


def _post_text(port: int, body: str) -> tuple[int, str]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp",
        data=body.encode(),
        headers={
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "authorization": "Bearer t0ken",
            "mcp-protocol-version": "2025-11-25",
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_http_refuses_a_5_mib_body_and_bounds_every_argument(http_port: int) -> None:
    def call(arguments_text: str) -> str:
        return _tool_call_text(1, arguments_text)

    assert _declared_body_status(http_port, len(call(json.dumps({"contract": "t", "json": FIVE_MIB})))) == 413
    status, text = _post_text(http_port, call(json.dumps({"contract": "t", "json": "x" * (2 * MIB)})))
    assert status == 200
    assert wire_tool_error(json.loads(text)["result"]) == _size_message("json", 2 * MIB + 2)
    status, text = _post_text(http_port, call('{"contract": "t", "json": ' + "[" * 100 + "]" * 100 + "}"))
    assert wire_tool_error(json.loads(text)["result"]) == "json is nested more than 64 levels deep; flatten it"
    status, text = _post_text(http_port, call('{"contract": "t", "json": ' + DEEP_TEXT + "}"))
    assert status in (200, 400)
    assert "error" in json.loads(text)  # a JSON-RPC error, never a hang or a 500
    status, text = _post_text(http_port, call(json.dumps({"contract": "t", "json": {}})))
    assert json.loads(text)["result"]["structuredContent"]["valid"] is True


def _declared_body_status(port: int, size: int) -> int:
    """The status answering a POST that declares a ``size``-byte body, read before the body is sent.

    The SDK answers 413 from the declared length and closes the connection, so a client that sends
    the whole body first only sees the reset.
    """
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer t0ken\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Length: {size}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(head.encode())
        status_line = connection.makefile("rb").readline().decode()
    return int(status_line.split()[1])


def _tool_call_text(request_id: int, arguments_text: str) -> str:
    return (
        f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", '
        f'"params": {{"name": "validate_json", "arguments": {arguments_text}}}}}'
    )
