"""Every answer is bounded like its inputs: a hostile document or contract cannot blow an answer up.

Indentation grows with depth, an error path repeats a long key, a repair repeats a whole enum:
each turned a 1 MiB argument (or a 256 KiB contract) into tens or hundreds of megabytes. Here
each worst case is sent through the real SDK client and the answer on the wire is measured.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import subprocess
import threading
import time
import tracemalloc
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
from jsonschema import Draft202012Validator

from json_contracts._json.text import dumps
from json_contracts.agent.payloads import PRETTY_ALLOWANCE, _indentation, answer_json
from json_contracts.mcp.outputs import output_schema
from tests.support.mcp import ServeFactory, http_env, http_server

MIB = 1024 * 1024
#: An answer may be a few times its largest argument (1 MiB), never tens of times.
ANSWER_BOUND = 6 * MIB
#: The per-call memory bound SECURITY.md states.
CALL_PEAK_BOUND = 48 * MIB

ENUM = [f"value-{i:05d}-" + "x" * 90 for i in range(1000)]  # about 100 KB of allowed values
FILES: dict[str, Any] = {
    "ticket.json": {
        "schema": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
        }
    },
    "open.json": {"schema": {"type": "array"}},
    "strict.json": {
        "schema": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": False}}
    },
    "choices.json": {"schema": {"type": "object", "properties": {"e": {"type": "array", "items": {"enum": ENUM}}}}},
}


def nested_numbers(depth: int, size: int) -> list[Any]:
    """About ``size`` bytes of zeros, ``depth`` arrays deep: the worst case for 2-space indentation."""
    document: list[Any] = [0] * (size // 2)
    for _ in range(depth - 1):
        document = [document]
    return document


def wire_size(result: types.CallToolResult | types.GetPromptResult | types.ReadResourceResult) -> int:
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode())


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _call(serve: ServeFactory, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
    served = serve(FILES)

    async def main() -> types.CallToolResult:
        async with served.client() as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(main)


def test_indentation_is_counted_exactly() -> None:
    values: list[Any] = [
        {"a": [1, 2, {"b": []}], "c": {}, "d": {"e": {"f": [[], [1]]}}},
        [[[["x"]]], {"k": None}],
        nested_numbers(30, 200),
    ]
    for value in values:
        assert _indentation(value, 10**9) == len(dumps(value)) - len(dumps(value, indent=None))


def test_ordinary_answers_keep_the_two_space_text() -> None:
    document = {f"field{i}": {"name": f"n{i}", "tags": ["a", "b"]} for i in range(5000)}  # ~250 KB, 3 deep
    assert answer_json(document) == dumps(document)
    small_but_deep = nested_numbers(60, 400)  # indentation adds under 64 KiB: still the TypeScript layout
    assert answer_json(small_but_deep) == dumps(small_but_deep)
    assert len(dumps(small_but_deep)) - len(dumps(small_but_deep, indent=None)) < PRETTY_ALLOWANCE


def test_a_repair_echo_of_a_deeply_nested_megabyte_is_a_bounded_answer(serve: ServeFactory) -> None:
    # Before: 67 MB on the wire (the echo pretty-printed 62 levels deep) and 200 MiB at peak.
    document = nested_numbers(63, MIB - 4096)
    result = _call(serve, "get_repair_contract", {"contract": "ticket", "invalidJson": document})

    assert result.structured_content is not None
    assert result.structured_content["invalidJson"] == document
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert json.loads(text.text) == result.structured_content  # compact, the same JSON
    assert wire_size(result) < ANSWER_BOUND


def test_a_valid_deeply_nested_megabyte_is_echoed_within_the_bound(serve: ServeFactory) -> None:
    document = nested_numbers(63, MIB - 4096)
    result = _call(serve, "validate_json", {"contract": "open", "json": document})

    assert result.structured_content == {"valid": True, "contract": "open", "json": document, "errors": []}
    assert wire_size(result) < ANSWER_BOUND


def test_errors_under_a_very_long_key_are_cut_to_the_budget_with_a_note(serve: ServeFactory) -> None:
    # Before: 1,000 errors each quoting the 500,000-character key in its path, 954 MB on the wire.
    document = {"k" * 500_000: {f"x{i}": 0 for i in range(1000)}}
    served = serve(FILES)

    async def main() -> tuple[types.CallToolResult, int]:
        async with served.client() as client:
            await client.call_tool("status", {})
            gc.collect()
            tracemalloc.start()
            try:
                result = await client.call_tool("validate_json", {"contract": "strict", "json": document})
                return result, tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()

    result, peak = anyio.run(main)
    assert result.structured_content is not None
    errors = result.structured_content["errors"]
    assert 1 <= len(errors) - 1 < 1000
    assert errors[0]["path"] == "/" + "k" * 500_000 + "/x0"
    assert errors[-1] == {
        "path": "",
        "message": f"must NOT have more than {len(errors) - 1} errors; fix these and validate again",
        "keyword": "maxErrors",
    }
    assert wire_size(result) < ANSWER_BOUND
    assert peak < CALL_PEAK_BOUND, f"peak {peak / MIB:.1f} MiB"


def test_repairs_and_hints_that_repeat_a_large_enum_are_cut_with_a_note(serve: ServeFactory) -> None:
    # Before: 1,000 repairs each carrying the 100 KB enum, and 1,000 hints each listing it.
    result = _call(serve, "get_repair_contract", {"contract": "choices", "invalidJson": {"e": ["z"] * 1000}})

    payload = result.structured_content
    assert payload is not None
    assert wire_size(result) < ANSWER_BOUND
    assert len(payload["validationErrors"]) == 1000  # the errors themselves are all listed
    assert payload["repairs"][0]["allowed"] == ENUM
    assert payload["repairs"][-1]["keyword"] == "maxErrors"
    assert payload["repairs"][-1]["message"].startswith(f"{1001 - len(payload['repairs'])} more repairs not listed")
    assert "more hints not listed" in payload["instructions"][-1]
    Draft202012Validator(output_schema("get-repair-contract-result")).validate(payload)


def test_the_repair_prompt_and_resources_with_deep_values_stay_bounded(serve: ServeFactory) -> None:
    deep_example = {"input": "x", "output": nested_numbers(250, 150_000)}  # a contract from a pull request
    deep = {"schema": {"type": "array"}, "examples": [deep_example]}
    files = {**FILES, "deep.json": json.dumps(deep, separators=(",", ":"))}  # compact: under 256 KiB
    served = serve(files)
    document = json.dumps(nested_numbers(63, MIB - 4096), separators=(",", ":"))

    async def main() -> tuple[types.GetPromptResult, types.ReadResourceResult, types.CallToolResult]:
        async with served.client() as client:
            prompt = await client.get_prompt("repair_contract_prompt", {"contract": "ticket", "invalidJson": document})
            resource = await client.read_resource("json-contract://deep")
            contract = await client.call_tool("read_contract", {"contract": "deep"})
            return prompt, resource, contract

    prompt, resource, contract = anyio.run(main)
    # Before: 65 MB, 49 MB and 49 MB.
    assert wire_size(prompt) < ANSWER_BOUND
    assert wire_size(resource) < ANSWER_BOUND
    assert wire_size(contract) < ANSWER_BOUND
    text = prompt.messages[0].content
    assert isinstance(text, types.TextContent)
    assert "Invalid JSON:\n" + document + "\n" in text.text


def test_the_repair_echo_peaks_under_the_stated_memory_bound(serve: ServeFactory) -> None:
    document = nested_numbers(63, MIB - 4096)
    served = serve(FILES)

    async def main() -> int:
        async with served.client() as client:
            await client.call_tool("status", {})
            gc.collect()
            tracemalloc.start()
            try:
                await client.call_tool("get_repair_contract", {"contract": "ticket", "invalidJson": document})
                return tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()

    peak = anyio.run(main)
    assert peak < CALL_PEAK_BOUND, f"peak {peak / MIB:.1f} MiB"  # before: 203 MiB


# --- a busy handler holds neither the other clients nor a shutdown (a real HTTP server) -------------

_BUSY_HANDLERS = """\
import time
import json_contracts.mcp.handlers as handlers

_original = handlers.ContractService.call


def _busy(self, name, arguments):
    # A document that takes a while to check: {"hold": seconds} of pure-Python work, holding the
    # interpreter as a slow validation does (the pattern and CPU bounds cut real ones short).
    document = (arguments or {}).get("json")
    if isinstance(document, dict) and isinstance(document.get("hold"), (int, float)):
        end = time.monotonic() + document["hold"]
        while time.monotonic() < end:
            pass
    return _original(self, name, arguments)


handlers.ContractService.call = _busy
"""


@pytest.fixture
def busy_server(tmp_path: Path, make_contracts_dir: Any) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A real ``json-contracts serve`` over HTTP whose ``validate_json`` works ``json.hold`` seconds first."""
    folder = make_contracts_dir(FILES)
    site = tmp_path / "busy-site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(_BUSY_HANDLERS, encoding="utf-8")
    env = http_env(folder, PYTHONPATH=os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])))
    with http_server(env) as started:
        yield started


def _validate(port: int, document: Any, timeout: float) -> dict[str, Any]:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "validate_json", "arguments": {"contract": "strict", "json": document}},
    }
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "accept": "application/json, text/event-stream"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def _in_background(port: int, document: Any) -> threading.Thread:
    def call() -> None:
        with contextlib.suppress(OSError):  # the server may be stopped under it
            _validate(port, document, timeout=300)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    time.sleep(1.0)  # the busy call has arrived and is being worked on
    return thread


def test_a_busy_call_does_not_stall_another_client(busy_server: tuple[int, subprocess.Popen[bytes]]) -> None:
    # Before: handlers ran on the event loop, so the second client waited the whole 30 s.
    port, _ = busy_server
    busy = _in_background(port, {"hold": 30})

    answer = _validate(port, {"a": {}}, timeout=20)  # a guard against a hang, not a speed check

    assert answer["result"]["structuredContent"]["valid"] is True
    assert busy.is_alive()  # answered while the busy call was still being worked on


def test_sigterm_stops_the_http_server_while_a_call_is_busy(busy_server: tuple[int, subprocess.Popen[bytes]]) -> None:
    # Before: the event loop was held by the call, so SIGTERM took effect only after its 120 s.
    port, process = busy_server
    _in_background(port, {"hold": 120})

    process.send_signal(signal.SIGTERM)

    process.wait(timeout=20)  # the shutdown grace is 5 s; TimeoutExpired here is the bug
