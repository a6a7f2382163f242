"""Fuzzing every MCP tool, ``resources/read`` and every prompt with arbitrary JSON arguments.

Through the in-memory SDK client (the arguments an SDK can send: wrong types, missing and extra
keys, huge and deep values, odd Unicode, lone surrogates) and through the wire-level peer (any
JSON-RPC ``params`` as text lines, parsed the way stdio parses them). Every call must get a well
formed answer that a real transport could send, the server must keep answering, and memory
must stay bounded. Examples are derandomised: the same few hundred calls every run.
"""

from __future__ import annotations

import gc
import itertools
import json
import tracemalloc
from typing import Any

import anyio
import mcp.types as types
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from mcp import MCPError

from json_contracts._json.text import dumps
from json_contracts.mcp.tools import PROMPT_NAMES, TOOL_NAMES, argument_names
from tests.support.hardening import (
    MIB,
    Served,
    arguments_for,
    fuzz,
    json_values,
    open_portal,
    texts,
    wire_peer,
    wire_safe,
)

#: Peak traced memory of one hostile call (1 MiB arguments, 80,000 errors, a repair echoing an
#: 80,000-key document; 27 MiB measured), and what may stay behind after the batch (0.03 MiB measured).
CALL_PEAK_BOUND = 48 * MIB
BATCH_GROWTH_BOUND = 8 * MIB

_TOOL_KEYS = {name: list(argument_names(name)) for name in TOOL_NAMES}
_PROMPT_KEYS = {name: list(argument_names(name)) for name in PROMPT_NAMES}


def check_tool_answer(result: types.CallToolResult) -> None:
    """A result (never a protocol error): when it failed, only the text ``{"error": …}`` (no structured
    content, which would have to match the outputSchema); else text equal to the structured copy."""
    wire_safe(result)
    assert isinstance(result, types.CallToolResult)
    assert len(result.content) == 1
    assert isinstance(result.content[0], types.TextContent)
    text = result.content[0].text
    if result.is_error:
        assert result.structured_content is None
        parsed = json.loads(text)
        assert isinstance(parsed, dict)
        assert set(parsed) == {"error"}
        message = parsed["error"]
        assert isinstance(message, str)
        assert message
        assert "Traceback" not in message
        assert text == dumps(parsed)
    else:
        structured = result.structured_content
        assert isinstance(structured, dict)
        assert text == dumps(structured)


def sdk_can_send(arguments: Any) -> bool:
    """Whether the SDK client can encode these arguments at all (it cannot encode a lone surrogate in a key)."""
    try:
        types.CallToolRequestParams(name="x", arguments=arguments).model_dump(by_alias=True, mode="json")
    except (ValueError, TypeError):
        return False
    return True


def check_error(error: MCPError) -> None:
    """A JSON-RPC error a client can read: a code and a one-line-or-more message, no traceback."""
    assert isinstance(error.error.code, int)
    assert isinstance(error.error.message, str)
    assert error.error.message
    assert "Traceback" not in error.error.message
    wire_safe(error.error)


@pytest.mark.parametrize("tool", [*TOOL_NAMES, "no_such_tool"])
def test_every_tool_answers_arbitrary_arguments_and_the_server_stays_up(served: Served, tool: str) -> None:
    keys = _TOOL_KEYS.get(tool, ["contract", "json"])
    before = served.service.call("list_contracts", {}).data
    with open_portal() as portal, portal.wrap_async_context_manager(served.client()) as client:

        @fuzz(15)
        @given(arguments=arguments_for(keys))
        def call(arguments: dict[str, Any]) -> None:
            assume(sdk_can_send(arguments))  # what the SDK client cannot encode, the wire fuzz sends
            check_tool_answer(portal.call(client.call_tool, tool, arguments))

        call()
        status = portal.call(client.call_tool, "status", {})
    assert not status.is_error
    assert served.service.call("list_contracts", {}).data == before  # nothing a call sent changed what is served


def test_every_prompt_answers_arbitrary_string_arguments(served: Served) -> None:
    """Prompt arguments are strings over MCP: any text, JSON of any value, huge and deep JSON text."""
    values = st.one_of(
        texts,
        json_values.map(lambda v: json.dumps(v, ensure_ascii=False)),
        st.sampled_from(["[" * 100_000 + "]" * 100_000, "x" * (2 * MIB), '"\\ud800"', "1e999999", "NaN", "{}"]),
    )
    keys = st.sampled_from(sorted({k for ks in _PROMPT_KEYS.values() for k in ks} | {"extra", "__proto__"}))
    with open_portal() as portal, portal.wrap_async_context_manager(served.client()) as client:

        @fuzz(40)
        @given(
            name=st.sampled_from([*PROMPT_NAMES, "no_such_prompt"]),
            arguments=st.one_of(
                st.dictionaries(keys, values, max_size=5),
                st.builds(lambda a: {"contract": "support-ticket", **a}, st.dictionaries(keys, values, max_size=4)),
            ),
        )
        def get(name: str, arguments: dict[str, str]) -> None:
            assume(sdk_can_send(arguments))
            try:
                result = portal.call(client.get_prompt, name, arguments)
            except MCPError as error:
                check_error(error)
                return
            wire_safe(result)
            assert isinstance(result.messages[0].content, types.TextContent)

        get()
        assert not portal.call(client.call_tool, "status", {}).is_error


def test_resources_read_answers_every_uri(served: Served) -> None:
    """Any URI: the scheme alone, ``..`` and separators, percent-escapes, odd Unicode (no lone surrogates:
    the SDK client cannot put them in its headers; the wire fuzz below sends those)."""
    uris = st.one_of(
        texts.filter(lambda t: t.isprintable() and all(not 0xD800 <= ord(c) <= 0xDFFF for c in t)),
        st.sampled_from(
            ["json-contract://", "json-contract://../x", "json-contract://a/../../b", "file:///etc/passwd"]
        ),
        st.sampled_from(["json-contract://%2e%2e%2fsecret", "json-contract://support-ticket?x", "JSON-CONTRACT://x"]),
        st.text(alphabet="abc./%?#-_:\\ ", max_size=30).map(lambda t: "json-contract://" + t),
    )
    with open_portal() as portal, portal.wrap_async_context_manager(served.client()) as client:

        @fuzz(40)
        @given(uri=uris)
        def read(uri: str) -> None:
            try:
                result = portal.call(client.read_resource, uri)
            except MCPError as error:
                check_error(error)
                return
            wire_safe(result)
            name = uri.removeprefix("json-contract://")
            assert name in served.store.contracts  # only a served contract is ever read

        read()


_METHODS = st.sampled_from(["tools/call", "prompts/get", "resources/read", "tools/list", "no/such/method"])
_PARAMS = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "name": st.one_of(st.sampled_from([*TOOL_NAMES, *PROMPT_NAMES]), json_values),
            "arguments": st.one_of(st.dictionaries(texts, json_values, max_size=4), json_values),
            "uri": st.one_of(texts.map(lambda t: "json-contract://" + t), json_values),
        },
    ),
)


@pytest.mark.anyio
async def test_arbitrary_json_rpc_params_on_the_wire_always_get_an_answer(served: Served) -> None:
    """Requests as JSON text lines (escaped, so lone surrogates arrive as ``\\ud800``): each gets a
    result or a JSON-RPC error with its id, and the server goes on answering pings."""
    examples: list[tuple[str, Any]] = []

    @fuzz(80)
    @given(method=_METHODS, params=_PARAMS)
    def collect(method: str, params: Any) -> None:
        examples.append((method, params))

    collect()
    ids = itertools.count(100)
    async with wire_peer(served) as peer:
        await peer.initialize()
        for method, params in examples:
            request_id = next(ids)
            line = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
            answer: dict[str, Any] | None = None
            with anyio.move_on_after(10):  # a guard against a hang, not a speed check
                answer = await peer.send_and_wait(request_id, line, timeout=10)
            assert answer is not None, f"no answer to {line[:500]}"
            assert ("result" in answer) != ("error" in answer), answer
            if "error" in answer:
                assert isinstance(answer["error"]["code"], int)
                assert "Traceback" not in answer["error"]["message"]
        assert (await peer.request("last", "ping"))["result"] == {}


def test_memory_stays_bounded_over_a_batch_of_hostile_calls(served: Served) -> None:
    """Each call's peak stays under :data:`CALL_PEAK_BOUND`; after the batch, nothing has piled up."""
    calls: list[tuple[str, dict[str, Any]]] = []

    @fuzz(40)
    @given(tool=st.sampled_from(TOOL_NAMES), data=st.data())
    def collect(tool: str, data: st.DataObject) -> None:
        arguments = data.draw(arguments_for(_TOOL_KEYS[tool]))
        calls.append((tool, {**arguments, "contract": "support-ticket"}))

    collect()
    calls = [(tool, arguments) for tool, arguments in calls if sdk_can_send(arguments)]
    big_document = {f"k{i}": 0 for i in range(80_000)}  # just under 1 MiB: 80,000 errors
    calls += [("validate_json", {"contract": "support-ticket", "json": big_document})] * 2
    calls += [("get_repair_contract", {"contract": "support-ticket", "invalidJson": big_document})] * 2
    calls += [("get_repair_contract", {"contract": "support-ticket", "invalidJson": {"k": "x" * (MIB - 20)}})] * 2
    with open_portal() as portal, portal.wrap_async_context_manager(served.client()) as client:
        portal.call(client.call_tool, "status", {})  # warm up: caches and the session
        gc.collect()
        tracemalloc.start()
        try:
            baseline = tracemalloc.get_traced_memory()[0]
            peaks = []
            for tool, arguments in calls:
                tracemalloc.reset_peak()
                start = tracemalloc.get_traced_memory()[0]
                check_tool_answer(portal.call(client.call_tool, tool, arguments))
                peaks.append(tracemalloc.get_traced_memory()[1] - start)
            gc.collect()
            growth = tracemalloc.get_traced_memory()[0] - baseline
        finally:
            tracemalloc.stop()
    assert max(peaks) < CALL_PEAK_BOUND, f"peak {max(peaks) / MIB:.1f} MiB"
    assert growth < BATCH_GROWTH_BOUND, f"{growth / MIB:.1f} MiB left behind after {len(calls)} calls"
