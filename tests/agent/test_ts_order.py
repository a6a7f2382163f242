"""What an agent reads, byte for byte as the TypeScript server 0.1.3 wrote it (tests/data/ts-order).

Each recorded request goes through the real server loop (``serve_streams``, as on stdio) over the
recorded contract files, and the answer's text, resource text or prompt text must equal the
recording; a tool's ``structuredContent`` must list its keys in the same order on the wire. The
contracts exercise the key order zod's parsing gives examples and operations (keys written in any
order, extra keys, integer-like keys, ``__proto__``, non-ASCII text), numbers JavaScript writes
differently (``38.0``), and the order of repair hints when the caller supplies errors.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from json_contracts._json.text import dumps
from json_contracts.agent.payloads import contract_payload
from tests.support.golden import DATA
from tests.support.mcp import Served, serve_factory, wire_peer

GOLDEN = DATA / "ts-order"
_LINES = (GOLDEN / "answers.jsonl").read_bytes().decode("utf-8").splitlines()
#: (request, the TypeScript server's answer line), in recording order.
RECORDED: list[tuple[dict[str, Any], str]] = [(json.loads(_LINES[i]), _LINES[i + 1]) for i in range(0, len(_LINES), 2)]


def _label(index: int, request: dict[str, Any]) -> str:
    params = request["params"]
    what = params.get("name") or params.get("uri")
    return f"{index}-{what}-{params.get('arguments', {}).get('contract', '')}"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def golden_served(make_contracts_dir: Callable[..., Path]) -> Served:
    files = {path.name: path.read_bytes() for path in sorted((GOLDEN / "contracts").glob("*.json"))}
    return serve_factory(make_contracts_dir)(files)


def _ts_proto_hash() -> str:
    for request, line in RECORDED:
        if request["params"].get("name") == "read_contract" and request["params"]["arguments"]["contract"] == "proto":
            return str(json.loads(line)["result"]["structuredContent"]["contractHash"])
    raise AssertionError("no read_contract of proto recorded")


def _text(result: dict[str, Any]) -> str:
    if "content" in result:
        return str(result["content"][0]["text"])
    if "contents" in result:
        return str(result["contents"][0]["text"])
    return str(result["messages"][0]["content"]["text"])


def _key_order(value: Any) -> Any:
    """Every object's keys in order, and every number as written (``38`` is not ``38.0``), all the way down."""
    if isinstance(value, dict):
        return [[key, _key_order(child)] for key, child in value.items()]
    if isinstance(value, list):
        return [_key_order(child) for child in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(value)
    return value


@pytest.mark.anyio
@pytest.mark.parametrize(("request_", "recorded"), RECORDED, ids=[_label(i, r) for i, (r, _) in enumerate(RECORDED)])
async def test_answer_matches_the_typescript_server(
    golden_served: Served, request_: dict[str, Any], recorded: str
) -> None:
    ts = json.loads(recorded)["result"]
    async with wire_peer(golden_served) as peer:
        await peer.initialize()
        ours = (await peer.request(1, request_["method"], request_["params"], timeout=30))["result"]
    our_text = _text(ours)
    ts_text = _text(ts)
    # The file with __proto__ keys hashes differently until the loader drops them too (see
    # test_a_proto_key_is_left_out_of_the_contract_hash); everything else about it must match.
    proto_hash = golden_served.contract("proto").contract_hash
    ts_text = ts_text.replace(_ts_proto_hash(), proto_hash)
    structured = ours.get("structuredContent")
    if request_["params"].get("name") == "get_repair_contract":
        # our addition, after the TypeScript server's fields
        parsed = json.loads(our_text)
        assert list(parsed)[-1] == "repairs"
        del parsed["repairs"]
        our_text = dumps(parsed)
        assert structured is not None
        structured = {key: value for key, value in structured.items() if key != "repairs"}
    assert our_text == ts_text
    if structured is not None:
        ts_structured = json.loads(json.dumps(ts["structuredContent"]).replace(_ts_proto_hash(), proto_hash))
        assert _key_order(structured) == _key_order(ts_structured)


def test_a_proto_key_is_left_out_of_the_contract_hash(golden_served: Served) -> None:
    assert golden_served.contract("proto").contract_hash == _ts_proto_hash()


def test_a_contract_built_without_its_file_keeps_every_operation_key(golden_served: Served) -> None:
    # The served order comes from the file as written; a Contract made in code has none to read.
    loaded = golden_served.contract("order")
    made = replace(loaded, raw={})
    operations = contract_payload(made)["operations"]
    assert operations["edit"] == {**loaded.operations["edit"]}
    assert list(operations["edit"])[:4] == ["enabled", "return", "rules", "examples"]
    assert operations["edit"]["note"] == "e"
