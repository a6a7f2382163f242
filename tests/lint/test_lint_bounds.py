"""Lint's walks over ``$ref`` graphs are linear in the schema, however often a schema is referenced.

Before: the example-coverage rules (JC121, JC130, JC131) re-followed each ``$ref`` at every level,
so a chain of 20 ``$defs`` each referring three times to the next took 47 s and four times hours;
the proofs that validate a value against a sub-schema (JC121's enum proof, JC116, JC117) ran the
validator down every path of an ``allOf`` diamond (30 s at 18 levels, doubling with each level).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from json_contracts.contracts.loading import load_contracts
from json_contracts.lint import lint_contract
from json_contracts.lint._context import Linter, data_nodes, validation_within
from tests.support.cli import script_path

LEVELS = 30


def diamond(fan: str, levels: int = LEVELS, width: int = 3, **top: Any) -> dict[str, Any]:
    """``n0`` refers ``width`` times to ``n1``, which refers ``width`` times to ``n2``... (``width**levels`` paths)."""
    defs: dict[str, Any] = {}
    names = "abcdefgh"[:width]
    for level in range(levels):
        refs = [{"$ref": f"#/$defs/n{level + 1}"} for _ in names]
        if fan == "properties":
            defs[f"n{level}"] = {"type": "object", "properties": dict(zip(names, refs, strict=True))}
        elif fan == "items":
            defs[f"n{level}"] = {"type": "array", "prefixItems": refs}
        else:
            defs[f"n{level}"] = {fan: refs}
    defs[f"n{levels}"] = {"type": "string", "enum": ["x", "y"]}
    return {"$ref": "#/$defs/n0", "$defs": defs, **top}


def _contract(schema: dict[str, Any], *outputs: Any) -> dict[str, Any]:
    examples = [{"input": f"request {i}", "output": output} for i, output in enumerate(outputs)]
    return {
        "description": "A diamond.",
        "schema": schema,
        "examples": examples,
        "operations": {"edit": {"enabled": False}},
    }


def _load(tmp_path: Path, contract: dict[str, Any]) -> Linter:
    folder = tmp_path / "json-contracts"
    folder.mkdir()
    (folder / "diamond.json").write_text(json.dumps(contract), encoding="utf-8")
    result = load_contracts(folder)
    assert result.failures == [], [f.message for f in result.failures]
    return Linter(result.contracts["diamond"])


def _schema_objects(schema: Any) -> int:
    count, stack = 0, [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            count += 1
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


@pytest.mark.parametrize("fan", ["properties", "items", "allOf", "anyOf", "oneOf"])
def test_the_data_walk_visits_each_schema_object_a_bounded_number_of_times(tmp_path: Path, fan: str) -> None:
    schema = diamond(fan)
    document: Any = {"a": {"b": {"c": {}}}} if fan == "properties" else ([["x"], []] if fan == "items" else "x")
    linter = _load(tmp_path, _contract({"$defs": schema["$defs"], "$ref": "#/$defs/n0"}))

    empty = list(data_nodes(linter))
    shown = list(data_nodes(linter, [document]))

    objects = _schema_objects(schema)
    assert len(empty) <= objects  # without documents, each schema object once
    assert len(shown) <= 4 * objects  # with one, once more per place of the document it describes
    places = {parts for parts, _, _ in empty}
    assert ("$defs", f"n{LEVELS}") in places  # the walk still reaches the bottom of the chain


@pytest.mark.parametrize("fan", ["properties", "items", "allOf", "anyOf"])
def test_lint_of_a_thirty_level_diamond_finishes(tmp_path: Path, fan: str) -> None:
    document: Any = {"a": {"b": {}}} if fan == "properties" else ([[], [[]]] if fan == "items" else "x")
    # Loading validates the example, and the validator itself follows all 3**30 paths of an allOf.
    contract = _contract(diamond(fan), *([] if fan == "allOf" else [document]))
    linter = _load(tmp_path, contract)

    started = time.monotonic()
    findings = lint_contract(linter.contract)

    assert time.monotonic() - started < 20  # before: hours (47 s at 20 levels of three references)
    codes = {f.code for f in findings}
    assert "JC130" in codes or fan == "allOf"  # no example shows the last enum's "y"


def test_the_coverage_rule_still_gathers_values_through_shared_schemas(tmp_path: Path) -> None:
    shared = {"type": "string", "enum": ["x", "y", "z"]}
    schema = {
        "type": "object",
        "properties": {"first": {"$ref": "#/$defs/s"}, "second": {"$ref": "#/%24defs/s"}},
        "required": ["first", "second"],
        "$defs": {"s": shared},
    }
    linter = _load(tmp_path, _contract(schema, {"first": "x", "second": "y"}))

    [finding] = [f for f in lint_contract(linter.contract) if f.code == "JC130"]

    assert finding.message.startswith('No example shows enum value(s) "z"')


def test_a_validation_too_large_to_run_is_estimated_not_run(tmp_path: Path) -> None:
    linter = _load(tmp_path, _contract(diamond("allOf", levels=LEVELS)))
    root = linter.contract.schema

    assert not validation_within(linter, root, "x", limit=100_000)
    assert validation_within(linter, root["$defs"][f"n{LEVELS - 5}"], "x", limit=100_000)  # 3**5 paths
    assert validation_within(linter, {"properties": {"a": {"type": "string"}}}, {"a": "x", "b": 2}, limit=10)


@pytest.mark.parametrize("top", [{"enum": ["x"]}, {"default": "x"}, {"examples": ["x", "y"]}])
def test_proofs_that_validate_a_value_skip_a_diamond_instead_of_running_it(tmp_path: Path, top: dict[str, Any]) -> None:
    linter = _load(tmp_path, _contract(diamond("allOf", levels=LEVELS, **top)))

    started = time.monotonic()
    findings = lint_contract(linter.contract)

    assert time.monotonic() - started < 20  # before: 30 s at 18 levels, twice as long for each level more
    assert not [f for f in findings if f.code in ("JC116", "JC117", "JC121")]  # nothing proven, nothing claimed


def test_the_cli_lints_a_diamond_contract_in_bounded_time(tmp_path: Path) -> None:
    folder = tmp_path / "json-contracts"
    folder.mkdir()
    schema = diamond("properties", width=4)
    (folder / "diamond.json").write_text(json.dumps(_contract(schema, {"a": {"b": {}}})), encoding="utf-8")
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("GITHUB_ACTIONS", None)

    ran = subprocess.run(
        [str(script_path()), "lint", "-c", str(folder), "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,  # before: over 300 s (killed) at 20 levels of four references
        check=False,
    )

    assert ran.returncode in (0, 1), ran.stdout[-2000:] + ran.stderr[-2000:]  # 1: warnings under strict
    report = json.loads(ran.stdout)
    assert "Traceback" not in ran.stderr
    assert any(f["code"] == "JC131" for f in report["findings"]), ran.stdout[:2000]
