"""What the generator costs a fresh process: no scan of all of Unicode before the first document."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from json_contracts.testing import from_schema

_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from hypothesis import HealthCheck, given, settings
    from hypothesis.internal import charmap
    from json_contracts.testing import from_schema, json_values

    schema = json.loads(sys.argv[1])
    drawn = []

    @settings(max_examples=30, database=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(from_schema(schema), json_values())
    def collect(document, value):
        drawn.append([document, value])

    collect()
    text = json.dumps(drawn, ensure_ascii=False)
    lone = sum(0xD800 <= ord(c) <= 0xDFFF for c in text)
    print(json.dumps({"scans": charmap.intervals_from_codec.cache_info().currsize, "drawn": len(drawn), "lone": lone}))
    """
)


def test_drawing_strings_never_scans_unicode_for_a_codec(tmp_path: Path) -> None:
    """Hypothesis builds its UTF-8 character table by encoding all 1.1 million code points (~1 s) in
    every process whose storage folder does not keep it (``test --no-database`` keeps nothing): a
    one-property contract spent half its ``test`` run there. Characters are named by category instead."""
    schema = {
        "type": "object",
        "properties": {
            "s": {"type": "string", "maxLength": 5},
            "n": {"type": "number", "minimum": 1},
            "p": {"type": "string", "format": "password"},
            "t": {"type": "string", "minLength": 1},
            "any": {},
            "code": {"type": "string", "pattern": "^[a-z]+\\d$"},
            "tags": {
                "type": "object",
                "patternProperties": {"^x-": {"type": "integer"}},
                "additionalProperties": False,
            },
        },
        "propertyNames": {"maxLength": 4},
        "required": ["s", "n", "p", "t", "any", "code"],
    }
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, json.dumps(schema)],
        capture_output=True,
        text=True,
        env={"HYPOTHESIS_STORAGE_DIRECTORY": str(tmp_path / "hypothesis"), "PATH": ""},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["drawn"] >= 20
    assert answer["scans"] == 0
    assert answer["lone"] == 0  # UTF-8 cannot write a lone surrogate: none is drawn


def test_building_a_wide_schema_reads_no_source_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hypothesis reads the source of each function given to ``@composite`` (to warn about an unused
    ``draw``) and of each plain function given to ``filter`` on numbers (to look for bounds it could
    build in): about a millisecond each, so a strategy per object node and a filter per number node
    cost most of a big schema's first draws. The generator gives it nothing to read."""
    reads: list[str] = []
    real = inspect.getsource

    def counting(obj: Any) -> str:
        if str(getattr(obj, "__module__", "")).startswith("json_contracts"):
            reads.append(getattr(obj, "__qualname__", repr(obj)))
        return real(obj)

    monkeypatch.setattr(inspect, "getsource", counting)
    node = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 0, "multipleOf": 3, "not": {"const": 6}},
            "list": {"type": "array", "items": {"type": "integer", "maximum": 9, "not": {"minimum": 5, "maximum": 6}}},
        },
        "required": ["n", "list"],
    }
    schema = {"type": "object", "properties": {f"p{i}": {**node, "title": str(i)} for i in range(30)}}
    drawn: list[Any] = []

    @settings(max_examples=20, database=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(from_schema(schema))
    def collect(document: Any) -> None:
        drawn.append(document)

    collect()
    assert len(drawn) == 20
    assert reads == []
