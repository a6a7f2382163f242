"""CPU per document is bounded through the real entry points: ``json-contracts check`` in a
subprocess and the MCP server's ``validate_json``.

Each case took from minutes to hours before: a schema whose ``$ref``s fan out (2**40 paths), a
250-value ``enum`` on 60,000 items, a 1 MiB ``uri-template`` value. Now the first is cut at
``JSON_CONTRACTS_VALIDATION_TIMEOUT`` with a ``timeout`` error and the others finish in well under
a second of work. The time bounds below are generous, for a loaded machine.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import script_path
from tests.support.hardening import Served

GENEROUS = 60.0  # seconds of wall time for a whole command; every case ran for minutes or hours


def _fan_out(levels: int) -> dict[str, Any]:
    """A 2 KB schema: each level an anyOf of two references to the next, 2**levels paths to ``v``."""
    defs: dict[str, Any] = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 2} for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    return {"type": "object", "properties": {"v": {"$ref": "#/$defs/d0"}}, "$defs": defs}


def _check(tmp_path: Path, schema: dict[str, Any], document: Any, **env: str) -> subprocess.CompletedProcess[str]:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "hostile.json").write_text(json.dumps({"description": "x", "schema": schema}), encoding="utf-8")
    (tmp_path / "doc.json").write_text(json.dumps(document), encoding="utf-8")
    environ = {**os.environ, **env}
    environ.pop("GITHUB_ACTIONS", None)
    return subprocess.run(
        [str(script_path()), "check", "hostile", str(tmp_path / "doc.json"), "-c", str(folder), "--json"],
        env=environ, capture_output=True, text=True, timeout=GENEROUS, check=False,
    )  # fmt: skip


def _keywords(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [error["keyword"] for error in json.loads(done.stdout)["errors"]]


def test_check_cuts_a_fanning_schema_at_the_deadline(tmp_path: Path) -> None:
    done = _check(tmp_path, _fan_out(40), {"v": 1}, JSON_CONTRACTS_VALIDATION_TIMEOUT="1")
    assert done.returncode == 1, done.stderr
    assert "must be checked within 1 s of CPU time; the document was not fully checked" in done.stdout
    assert _keywords(done) == ["timeout"]


def test_check_of_a_large_enum_on_many_items_is_quick(tmp_path: Path) -> None:
    # 250 nested values, 60,000 items equal to the last (0.8 MB): 270 s before, one deep
    # comparison per value per item.
    values = [[[[[[i]]]]] for i in range(250)]
    schema = {"type": "object", "properties": {"v": {"type": "array", "items": {"enum": values}}}}
    done = _check(tmp_path, schema, {"v": [values[-1]] * 60_000})
    assert done.returncode == 0, done.stdout + done.stderr


def test_check_of_a_1_mib_uri_template_is_quick(tmp_path: Path) -> None:
    # A million "{": the regex that split the template rescanned to the end from each one.
    schema = {"type": "object", "properties": {"v": {"type": "string", "format": "uri-template"}}}
    done = _check(tmp_path, schema, {"v": "{" * 1_000_000})
    assert done.returncode == 1, done.stderr
    assert _keywords(done) == ["format"]


@pytest.mark.parametrize("raw", ["soon", "0", "-5"])
def test_a_bad_deadline_variable_stops_check_naming_it(tmp_path: Path, raw: str) -> None:
    done = _check(tmp_path, {"type": "object"}, {}, JSON_CONTRACTS_VALIDATION_TIMEOUT=raw)
    assert done.returncode == 2
    assert done.stderr == (
        f"Error: JSON_CONTRACTS_VALIDATION_TIMEOUT must be a positive number of seconds, got {raw!r}; "
        "unset it for the default\n"
    )


@pytest.mark.anyio
async def test_validate_json_answers_a_fanning_schema_with_a_timeout_error(
    serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JSON_CONTRACTS_VALIDATION_TIMEOUT", "0.5")
    served: Served = serve({"hostile.json": {"description": "x", "schema": _fan_out(40)}})
    async with served.client() as client:
        result = await client.call_tool("validate_json", {"contract": "hostile", "json": {"v": 1}})
    answer = result.structured_content
    assert answer is not None
    assert answer["valid"] is False
    assert answer["errors"][-1]["keyword"] == "timeout"
    assert answer["errors"][-1]["message"].startswith("must be checked within 0.5 s of CPU time")
