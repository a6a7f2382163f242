"""One test per bug the hardening work found, each failing before its fix.

Lone surrogates and undecodable file names that no answer could carry, numbers JSON cannot
carry, request lines the SDK dropped (the client waited forever), nesting that crashed readers of
a loaded contract, and repair hints built in quadratic time.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from json_contracts.agent import repair
from json_contracts.agent.payloads import contract_payload, repair_payload, resource_payload
from json_contracts.contracts.loading import load_contracts
from json_contracts.lint import lint_result
from json_contracts.schema.validation import ErrorRecord
from tests.support.hardening import Served, nested_list, wire_peer
from tests.support.mcp import wire_tool_error

pytestmark = pytest.mark.anyio
TICKET = "support-ticket"


def _line(request_id: Any, method: str, params_text: str) -> str:
    return f'{{"jsonrpc": "2.0", "id": {json.dumps(request_id)}, "method": "{method}", "params": {params_text}}}'


def _tool_line(request_id: Any, name: str, arguments_text: str) -> str:
    return _line(request_id, "tools/call", f'{{"name": "{name}", "arguments": {arguments_text}}}')


# --- answers that could not be sent -------------------------------------------------------------------


async def test_a_contract_with_a_lone_surrogate_no_longer_breaks_listing_for_every_client(serve: Any) -> None:
    """Before: it loaded, and list_contracts/status failed to serialise for everyone (error code 0)."""
    served: Served = serve(
        {"support-ticket.json": {"schema": {}}, "bad.json": '{"description": "bad \\ud800", "schema": {}}'},
        allow_invalid=True,
    )
    [failure] = served.store.failures
    assert failure.code == "JC014"
    assert failure.message.startswith("Invalid JSON: string at line 1, column 17 holds a lone surrogate (\\ud800)")
    async with wire_peer(served) as peer:
        await peer.initialize()
        listed = await peer.request(1, "tools/call", {"name": "list_contracts", "arguments": {}})
        status = await peer.request(2, "tools/call", {"name": "status", "arguments": {}})
    assert [c["name"] for c in listed["result"]["structuredContent"]["contracts"]] == ["support-ticket"]
    assert status["result"]["structuredContent"]["failures"][0]["file"] == "bad.json"


async def test_a_file_name_that_is_not_utf8_no_longer_breaks_status(serve: Any) -> None:
    """Before: the name's surrogate escapes reached the answer, which could not be serialised."""
    served: Served = serve({"support-ticket.json": {"schema": {}}}, allow_invalid=True)
    (served.folder / "caf\udce9.json".encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")).write_text(
        "{}"
    )
    served.store.reload()
    async with wire_peer(served) as peer:
        await peer.initialize()
        status = await peer.request(1, "tools/call", {"name": "status", "arguments": {}})
    [failure] = status["result"]["structuredContent"]["failures"]
    assert failure == {
        "file": "caf\ufffd.json",
        "message": "Invalid contract name: caf\ufffd",
        "line": 1,
        "column": 1,
        "code": "JC011",
    }


@pytest.mark.parametrize(
    ("arguments_text", "message"),
    [
        (
            '{"contract": "support-ticket", "json": {"a": ["\\ud800"]}}',
            "json has a lone surrogate (\\ud800) at /a/0, which is not Unicode text; send valid UTF-8",
        ),
        (
            '{"contract": "support-ticket", "json": {"\\udc00": 1}}',
            "json has a key with a lone surrogate (\\udc00) at /, which is not Unicode text; send valid UTF-8",
        ),
        (
            '{"contract": "support-ticket", "json": {"n": 1e999999}}',
            "json has a number at /n too large for a JSON number (a double); send a smaller number",
        ),
        (
            '{"contract": "support-ticket", "json": [' + "9" * 5000 + "]}",
            "json has a number at /0 too large for a JSON number (a double); send a smaller number",
        ),
        (
            '{"contract": "support-ticket", "json": {"n": NaN}}',
            "json has NaN at /n, which is not a JSON number; send a number or null",
        ),
    ],
    ids=["surrogate-value", "surrogate-key", "1e999999", "5000-digits", "nan"],
)
async def test_values_json_cannot_carry_are_refused_by_name_not_dropped(
    served: Served, arguments_text: str, message: str
) -> None:
    """Before: the SDK's parser dropped these lines (no answer ever), or the handler crashed on infinity."""
    async with wire_peer(served) as peer:
        await peer.initialize()
        answer = await peer.send_and_wait(7, _tool_line(7, "validate_json", arguments_text))
        assert wire_tool_error(answer["result"]) == message
        assert (await peer.request(8, "ping"))["result"] == {}


async def test_names_echoed_in_errors_are_sent_escaped(served: Served) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        tool = await peer.send_and_wait(1, _tool_line(1, "validate\\ud800", "{}"))
        uri = await peer.send_and_wait(2, _line(2, "resources/read", '{"uri": "json-contract://x\\ud800"}'))
        prompt = await peer.send_and_wait(3, _line(3, "prompts/get", '{"name": "p\\udfff"}'))
    assert wire_tool_error(tool["result"]) == "Unknown tool: validate\\ud800"
    assert uri["error"]["message"] == "Invalid contract name: x\\ud800"
    assert prompt["error"]["message"] == "Unknown prompt: p\\udfff"


# --- request lines the SDK dropped -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "code", "message"),
    [
        (_line(5, "prompts/get", "[]"), -32600, "Invalid request: params: Input should be an object"),
        (_line(5, "tools/call", '"text"'), -32600, "Invalid request: params: Input should be an object"),
        ('{"jsonrpc": "2.0", "id": 5, "method": 7}', -32600, "Invalid request: method: Input should be a valid string"),
        ('{"jsonrpc": "2.0", "id": 5, "method": "ping", }', -32700, "Parse error: the request is not JSON ("),
        ('{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": ', -32700, "Parse error: "),
    ],
    ids=["params-array", "params-string", "method-number", "trailing-comma", "cut-off"],
)
async def test_a_request_with_an_id_that_cannot_be_read_gets_an_error_not_silence(
    served: Served, line: str, code: int, message: str
) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        answer = await peer.send_and_wait(5, line)
        assert answer["error"]["code"] == code
        assert answer["error"]["message"].startswith(message)
        assert (await peer.request(6, "ping"))["result"] == {}


# --- a loaded contract whose readers crashed --------------------------------------------------------------


def test_values_nested_950_deep_in_a_contract_no_longer_load_and_crash_its_readers(make_contracts_dir: Any) -> None:
    """Before: the file loaded (the JSON reader manages ~990 levels), then lint, read_contract, the
    resource and repair hints raised RecursionError. Now the file is refused at load (JC022)."""
    deep = "[" * 950 + "]" * 950  # as text: serialising it would itself hit the recursion limit
    folder = make_contracts_dir(
        {
            "const.json": '{"schema": {"const": ' + deep + "}}",
            "example.json": '{"schema": {}, "examples": [{"input": "x", "output": ' + deep + "}]}",
            "fine.json": {"schema": {"const": nested_list(200)}},
        }
    )
    result = load_contracts(folder)
    assert {f.file: f.code for f in result.failures} == {"const.json": "JC022", "example.json": "JC022"}
    lint_result(result, set())
    contract = result.contracts["fine"]
    contract_payload(contract)
    resource_payload(contract)
    repair_payload(contract, [1])


# --- quadratic repair hints --------------------------------------------------------------------------


def test_repair_hints_are_de_duplicated_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: each hint was compared with every earlier one (``hint not in hints``): a 1 MiB document
    with 90,000 errors took half a minute in get_repair_contract. Counting comparisons, not seconds."""
    comparisons = 0

    class Hint(str):
        __slots__ = ()

        def __eq__(self, other: object) -> bool:
            nonlocal comparisons
            comparisons += 1
            return str.__eq__(self, other)

        def __hash__(self) -> int:
            return str.__hash__(self)

    monkeypatch.setattr(repair, "_hint", lambda schema, error: Hint(f"Remove extra field {error['path']}."))
    errors: list[ErrorRecord] = [
        {"path": f"/k{i}", "message": "m", "keyword": "additionalProperties"} for i in range(2000)
    ]
    hints = repair.field_hints({}, errors + errors[:10])
    assert len(hints) == 2000
    assert comparisons < 100  # quadratic: about two million
