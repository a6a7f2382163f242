"""contractHash and schemaHash are the TypeScript server's, byte for byte (see docs/reference/compatibility.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from json_contracts._json.hashing import sha256_of
from json_contracts._json.reading import parse_json
from json_contracts._json.text import canonical
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import Contract
from tests.support.golden import HASH_PROBES

# split("\n"), not splitlines(): a probe holds a raw U+2028, which splitlines() treats as a line break.
_PROBES = [json.loads(line) for line in HASH_PROBES.read_text(encoding="utf-8").split("\n") if line.strip()]

GOOD_CONTRACT_HASH = "sha256:b71df876b66cc1774520b688f52e87d576489240f0da788833b232858fa579aa"
OBJECT_SCHEMA_HASH = "sha256:a2c799262a3ce3c19ef5cdd983bf3d12b43ab3c426227091b909dcb7054738c0"


def test_the_probe_file_holds_every_probe_of_the_original() -> None:
    assert [p["case"] for p in _PROBES] == [
        "hash-key-order",
        "hash-unicode",
        "hash-numbers",
        "hash-nested-empty",
        "hash-key-sort-codeunits",
    ]


@pytest.mark.parametrize("probe", _PROBES, ids=[p["case"] for p in _PROBES])
def test_probe_value_reproduces_the_original_canonical_text_and_hash(probe: dict[str, str]) -> None:
    value = parse_json(probe["canonical"])
    assert canonical(value) == probe["canonical"]
    assert sha256_of(value) == probe["hash"]


@pytest.mark.parametrize("probe", _PROBES, ids=[p["case"] for p in _PROBES])
def test_probe_hash_does_not_depend_on_the_key_order_of_the_document(probe: dict[str, str]) -> None:
    def reverse(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: reverse(value[k]) for k in reversed(list(value))}
        if isinstance(value, list):
            return [reverse(v) for v in value]
        return value

    assert sha256_of(reverse(parse_json(probe["canonical"]))) == probe["hash"]


def test_hash_numbers_probe_rounds_big_integers_and_prints_js_numbers() -> None:
    document = '{"small": 1e-7, "neg": -0, "i": 1.0, "frac": 0.1, "f": 1.5, "e": 1e21, "big": 12345678901234567890}'
    probe = next(p for p in _PROBES if p["case"] == "hash-numbers")
    assert canonical(parse_json(document)) == probe["canonical"]
    assert sha256_of(parse_json(document)) == probe["hash"]


def test_hash_is_sha256_of_the_utf8_canonical_text() -> None:
    assert sha256_of({}) == "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
    assert sha256_of({"type": "object"}) == OBJECT_SCHEMA_HASH


def _load(folder: Path) -> dict[str, Contract]:
    result = load_contracts(folder)
    assert result.failures == []
    return result.contracts


def test_minimal_good_contract_has_the_original_contract_and_schema_hash(
    make_contracts_dir: Callable[..., Path],
) -> None:
    good = _load(make_contracts_dir({"good.json": '{"schema":{"type":"object"}}'}))["good"]
    assert good.contract_hash == GOOD_CONTRACT_HASH
    assert good.schema_hash == OBJECT_SCHEMA_HASH


def test_contract_hash_ignores_formatting_unknown_fields_the_name_field_and_an_empty_description(
    make_contracts_dir: Callable[..., Path],
) -> None:
    variants = {
        "good.json": '{\r\n  "schema" : { "type" : "object" }\r\n}\r\n',
    }
    folders = [
        make_contracts_dir(variants, dirname="a"),
        make_contracts_dir(
            {"good.json": {"schema": {"type": "object"}, "x-owner": "team", "$comment": 1}}, dirname="b"
        ),
        make_contracts_dir({"good.json": {"name": "something-else", "schema": {"type": "object"}}}, dirname="c"),
        make_contracts_dir({"good.json": {"description": "", "schema": {"type": "object"}}}, dirname="d"),
        make_contracts_dir({"good.json": {"rules": [], "examples": [], "schema": {"type": "object"}}}, dirname="e"),
    ]
    assert {_load(folder)["good"].contract_hash for folder in folders} == {GOOD_CONTRACT_HASH}


def test_contract_hash_covers_description_operations_and_extra_operation_keys(
    make_contracts_dir: Callable[..., Path],
) -> None:
    base: dict[str, Any] = {"schema": {"type": "object"}}
    contents = [
        {**base, "description": "d"},
        {**base, "rules": ["r"]},
        {**base, "operations": {"create": {"enabled": False}}},
        {**base, "operations": {"create": {"note": "kept"}}},
        {**base, "operations": {"custom": {}}},
        {**base, "examples": [{"input": "i", "output": {}}]},
    ]
    hashes = {
        _load(make_contracts_dir({"good.json": content}, dirname=f"v{i}"))["good"].contract_hash
        for i, content in enumerate(contents)
    }
    assert len(hashes) == len(contents)
    assert GOOD_CONTRACT_HASH not in hashes


def test_contract_hash_is_the_hash_of_the_public_body(support_ticket: Contract) -> None:
    body = support_ticket.public_body()
    assert list(body) == ["name", "description", "rules", "operations", "schema", "examples"]
    assert support_ticket.contract_hash == sha256_of(body)
    assert support_ticket.schema_hash == sha256_of(support_ticket.schema)


def test_schema_hash_does_not_depend_on_the_key_order_of_the_schema(support_ticket_schema: dict[str, Any]) -> None:
    assert sha256_of(support_ticket_schema) == sha256_of(dict(reversed(list(support_ticket_schema.items()))))
