"""Fuzzing the two byte-level entry points: ``json-contracts check`` stdin and contract files.

``check`` with any bytes on stdin exits 0, 1 or 2 with no traceback, whatever the format. The
loader, given any bytes as a contract file (random bytes, JSON of any shape, a real contract with
bytes flipped, cut or inserted), returns its own findings and never raises; whatever does load
can then be linted, served and validated against without an exception.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import event, given
from hypothesis import strategies as st

from json_contracts._json.text import dumps
from json_contracts.agent.payloads import contract_payload, repair_payload, resource_payload, validation_payload
from json_contracts.cli import main
from json_contracts.contracts.loading import load_contracts
from json_contracts.findings.catalogue import CATALOGUE
from json_contracts.lint import lint_result
from tests.support.hardening import MIB, fuzz, json_values, nested_list

TICKET: dict[str, Any] = {
    "description": "A ticket.",
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "required": ["title", "priority"],
        "properties": {
            "title": {"type": "string", "minLength": 3, "pattern": "^[A-Z]"},
            "priority": {"type": "string", "enum": ["low", "high"]},
            "tags": {"type": "array", "items": {"type": "string", "format": "email"}, "uniqueItems": True},
            "due": {"type": "string", "format": "date"},
        },
        "patternProperties": {"^x-": {"type": "integer", "maximum": 10}},
    },
    "examples": [{"input": "printer down", "output": {"title": "Printer down", "priority": "high"}}],
}
TICKET_TEXT = json.dumps(TICKET, indent=2)

# --- json-contracts check: any bytes on stdin ------------------------------------------------------

_documents = st.one_of(
    st.binary(max_size=300),
    json_values.map(lambda v: json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass")),
    json_values.map(lambda v: json.dumps(v).encode()),  # lone surrogates as \ud800 escapes
    st.builds(
        lambda extra: json.dumps({"title": "Printer", "priority": "low", **extra}).encode(),
        st.dictionaries(st.text(max_size=8), json_values, max_size=4),
    ),
    st.sampled_from(
        [
            b"",
            b"\xef\xbb\xbf{}",
            b"\xff\xfe{\x00}\x00",
            b'{"title": "\\ud800"}',
            b'{"\\udc00": 1}',
            b"NaN",
            b"[1e999999]",
            b"9" * 5000,
            b"[" * 100_000 + b"]" * 100_000,
            b'"' + b"x" * (2 * MIB) + b'"',
        ]
    ),
)


def test_check_answers_any_bytes_on_stdin_with_an_exit_code_and_no_traceback(tmp_path: Path) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "ticket.json").write_text(TICKET_TEXT, encoding="utf-8")
    runner = CliRunner()

    @fuzz(80)
    @given(document=_documents, fmt=st.sampled_from(["text", "json", "github", "sarif"]))
    def check(document: bytes, fmt: str) -> None:
        result = runner.invoke(main, ["check", "ticket", "-", "-c", str(folder), "--format", fmt], input=document)
        assert result.exit_code in (0, 1, 2), (result.exit_code, result.output[-500:], result.exception)
        event(f"exit {result.exit_code}")
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert "Traceback" not in result.output + result.stderr
        if fmt in ("json", "sarif"):
            json.loads(result.stdout)  # machine-readable output stays JSON

    check()


# --- contract files: any bytes ---------------------------------------------------------------------

_schema_keywords = st.sampled_from(
    [
        *("type", "properties", "items", "$ref", "$defs", "pattern", "enum", "const", "format", "allOf", "anyOf"),
        *("not", "if", "then", "minimum", "maxLength", "required", "additionalProperties", "$schema", "$id"),
        "$dynamicRef",
    ]
)
_schemas = st.recursive(
    st.one_of(st.booleans(), st.dictionaries(_schema_keywords, json_values, max_size=3)),
    lambda inner: st.dictionaries(
        _schema_keywords,
        st.one_of(inner, st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner)),
        max_size=4,
    ),
    max_leaves=12,
)
_contracts = st.fixed_dictionaries(
    {"schema": _schemas},
    optional={
        "description": json_values,
        "rules": st.one_of(st.lists(st.text(max_size=20), max_size=3), json_values),
        "examples": st.lists(st.fixed_dictionaries({"input": json_values, "output": json_values}), max_size=3),
        "operations": st.one_of(st.dictionaries(st.sampled_from(["create", "edit", "x"]), json_values), json_values),
        "name": json_values,
    },
)


@st.composite
def _mutated_ticket(draw: st.DrawFn) -> bytes:
    """The valid ticket's text with a few bytes flipped, cut out or inserted."""
    data = bytearray(TICKET_TEXT.encode())
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["flip", "cut", "insert"]))
        if action == "flip":
            data[position] = draw(st.integers(0, 255))
        elif action == "cut":
            del data[position : position + draw(st.integers(1, 40))]
        else:
            data[position:position] = draw(st.binary(min_size=1, max_size=8))
        if not data:
            break
    return bytes(data)


_files = st.one_of(
    st.binary(max_size=400),
    _contracts.map(lambda c: json.dumps(c, ensure_ascii=False).encode("utf-8", "surrogatepass")),
    _contracts.map(lambda c: json.dumps(c).encode()),
    _mutated_ticket(),
    st.sampled_from(
        [
            b"[" * 100_000 + b"]" * 100_000,
            json.dumps({"schema": {}, "examples": [{"input": "", "output": nested_list(300)}]}).encode(),
            b'{"schema": {"const": 1e999999}}',
            b'{"schema": {"description": "\\ud800"}}',
            b'{"schema": {}, "rules": [NaN]}',
        ]
    ),
)


def test_the_loader_turns_any_bytes_into_findings_and_never_raises(tmp_path: Path) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    path = folder / "fuzzed.json"

    @fuzz(100)
    @given(content=_files)
    def load(content: bytes) -> None:
        path.write_bytes(content)
        result = load_contracts(folder)  # never raises: that is the first half of the check
        assert len(result.failures) + len(result.contracts) == 1
        event("loaded" if result.contracts else result.failures[0].code)  # --hypothesis-show-statistics
        for finding in result.failures:
            assert finding.code in CATALOGUE
            assert finding.file == "fuzzed.json"
            assert finding.message
            json.dumps(finding.message).encode("utf-8")  # printable and sendable
        for contract in result.contracts.values():
            lint_result(result, set())
            dumps(contract_payload(contract)).encode("utf-8")
            dumps(resource_payload(contract)).encode("utf-8")
            documents: list[Any] = [None, {}, [], "x", {"title": "Printer", "priority": "low"}, nested_list(60)]
            for document in documents:
                dumps(validation_payload(contract, document, max_errors=100))
                dumps(repair_payload(contract, document, max_errors=100))

    load()
