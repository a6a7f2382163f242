"""No code execution from contracts: contracts that try are loaded, linted, served, validated and
property-checked, and a marker file that any of the attempts would create never appears.

A contract is data to json-contracts: strings are never evaluated, imported or unpickled, YAML is
never read, ``pattern`` is an ECMA-262 regular expression run by ``regress`` (never ``eval``), and
``format`` names only pick one of a fixed set of checkers. A static test keeps it that way.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from json_contracts._json.text import dumps
from json_contracts.agent.payloads import contract_payload, repair_payload, validation_payload
from json_contracts.agent.prompts import render_json_prompt, render_repair_prompt
from json_contracts.cli import main
from json_contracts.contracts.loading import load_contracts
from json_contracts.lint import lint_result
from json_contracts.testing.checks import run_check
from json_contracts.testing.results import RunOptions
from tests.support.hardening import Served

SRC = Path(__file__).resolve().parents[2] / "src" / "json_contracts"


def _as_regex_match(python: str) -> str:
    """A text the Python code matches when read as a regular expression: its groups' parentheses dropped."""
    return python.replace("(", "").replace(")", "")


def _hostile_contracts(marker: Path) -> dict[str, Any]:
    """Contracts whose strings would create ``marker`` if anything evaluated them."""
    shell = f"touch {marker}"
    python = f"__import__('os').system('{shell}')"
    yaml = f"!!python/object/apply:os.system [{json.dumps(shell)}]"
    return {
        "yaml-tags.json": {
            "description": yaml,
            "rules": [yaml, f"{{{{ {python} }}}}", f"${{{python}}}", f"`{shell}`", f"$({shell})"],
            "schema": {
                "type": "object",
                "title": yaml,
                "$comment": python,
                "x-python": python,
                "properties": {"cmd": {"type": "string", "default": yaml, "examples": [python]}},
            },
            "examples": [{"input": yaml, "output": {"cmd": python}}],
        },
        "pattern-code.json": {
            "schema": {
                "type": "object",
                "properties": {"a": {"type": "string", "pattern": python}},
                "patternProperties": {python: {"type": "string"}},
                "propertyNames": {"pattern": "^(?:a|b|__import__.*)$"},
            },
            "examples": [{"input": "x", "output": {"a": _as_regex_match(python)}}],
        },
        "format-code.json": {
            "schema": {"type": "string", "format": python},
            "examples": [{"input": "x", "output": "anything"}],
        },
        "prototype-keys.json": {
            "schema": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "__proto__": {"type": "object", "properties": {"admin": {"const": True}}},
                    "constructor": {"type": "string"},
                    "prototype": {"type": "string"},
                    "__class__": {"type": "string"},
                },
                "required": ["constructor"],
            },
            "examples": [{"input": "x", "output": {"__proto__": {"admin": True}, "constructor": "Object"}}],
        },
        "python-ref.json": {"schema": {"$ref": "python:os.system"}},
        "eval-ref.json": {"schema": {"$defs": {"x": {}}, "$ref": f"#/$defs/{python}"}},
    }


@pytest.fixture
def marker(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "executed.marker"
    yield path
    assert not path.exists(), "a contract executed code"


def test_hostile_contracts_load_lint_and_validate_as_plain_data(make_contracts_dir: Any, marker: Path) -> None:
    folder = make_contracts_dir(_hostile_contracts(marker))
    result = load_contracts(folder)
    assert sorted(result.contracts) == ["format-code", "pattern-code", "prototype-keys", "yaml-tags"]
    assert {f.file: f.code for f in result.failures} == {"eval-ref.json": "JC019", "python-ref.json": "JC019"}
    findings = {(f.contract, f.code) for f in lint_result(result, set())}
    assert ("format-code", "JC118") in findings  # an unknown format is reported, never run
    for contract in result.contracts.values():
        dumps(contract_payload(contract))
        render_json_prompt(contract, "x", {"__proto__": {"polluted": True}})
        render_repair_prompt(contract, {"cmd": "x"}, [])
        for document in ({"cmd": "x"}, {"a": "__import__('os')"}, {"__proto__": {"admin": False}}, "x", None):
            validation_payload(contract, document)
            repair_payload(contract, document)
    yaml = result.contracts["yaml-tags"]
    assert yaml.description == f"!!python/object/apply:os.system [{json.dumps(f'touch {marker}')}]"


def test_a_pattern_written_as_python_is_only_a_regular_expression(make_contracts_dir: Any, marker: Path) -> None:
    contract = load_contracts(make_contracts_dir(_hostile_contracts(marker))).contracts["pattern-code"]
    python = f"__import__('os').system('touch {marker}')"
    assert validation_payload(contract, {"a": _as_regex_match(python)})["valid"] is True  # a regex match...
    assert validation_payload(contract, {"a": python})["errors"][0]["keyword"] == "pattern"  # ...not a program
    key = _as_regex_match(python)  # a key patternProperties matches: its value must be a string
    assert [e["keyword"] for e in validation_payload(contract, {key: 5})["errors"]] == ["type"]


def test_prototype_keys_are_ordinary_properties_and_leave_nothing_behind(make_contracts_dir: Any, marker: Path) -> None:
    contract = load_contracts(make_contracts_dir(_hostile_contracts(marker))).contracts["prototype-keys"]
    fresh = validation_payload(contract, {})
    polluted = validation_payload(contract, {"__proto__": {"admin": False}, "constructor": 5, "extra": 1})
    assert [(e["path"], e["keyword"]) for e in polluted["errors"]] == [
        ("/extra", "additionalProperties"),
        ("/__proto__/admin", "const"),
        ("/constructor", "type"),
    ]
    assert validation_payload(contract, {}) == fresh  # no state survives a document
    assert validation_payload(contract, {"constructor": "x"})["valid"] is True


@pytest.mark.anyio
async def test_hostile_contracts_served_over_mcp_execute_nothing(serve: Any, marker: Path) -> None:
    served: Served = serve(_hostile_contracts(marker), allow_invalid=True)
    async with served.client() as client:
        for name in ("yaml-tags", "pattern-code", "format-code", "prototype-keys"):
            assert not (await client.call_tool("read_contract", {"contract": name})).is_error
            await client.read_resource(f"json-contract://{name}")
            await client.get_prompt("json_contract_prompt", {"contract": name, "input": "x", "context": "{}"})
            await client.call_tool(
                "get_json_contract", {"contract": name, "input": "x", "context": {"__proto__": {"x": 1}}}
            )
            await client.call_tool("validate_json", {"contract": name, "json": {"__proto__": {"admin": True}}})
            await client.call_tool("get_repair_contract", {"contract": name, "invalidJson": "!!python/object:x"})
        status = await client.call_tool("status", {})
    assert {f["file"] for f in (status.structured_content or {})["failures"]} == {"eval-ref.json", "python-ref.json"}


def test_the_property_checks_draw_from_hostile_contracts_without_running_them(
    make_contracts_dir: Any, marker: Path
) -> None:
    result = load_contracts(make_contracts_dir(_hostile_contracts(marker)))
    options = RunOptions(max_examples=10, derandomize=True)
    for contract in result.contracts.values():
        for check in ("satisfiable", "samples-valid", "examples"):
            assert run_check(contract, check, options).outcome in ("passed", "failed", "skipped")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"schema": {"maximum": 1e999999}}', "number 1e999999 at line 1, column 24 is too large for a JSON number"),
        ('{"schema": {"const": NaN}}', "NaN is not valid JSON at line 1, column 22; use a number or null"),
        ('{"schema": {"const": -Infinity}}', "-Infinity is not valid JSON at line 1, column 22; use a number or null"),
        ('{"schema": {"const": "\\ud800"}}', "string at line 1, column 22 holds a lone surrogate (\\ud800)"),
    ],
)
def test_numbers_and_strings_json_cannot_carry_are_invalid_json_naming_the_place(
    make_contracts_dir: Any, text: str, message: str
) -> None:
    [failure] = load_contracts(make_contracts_dir({"c.json": text})).failures
    assert failure.code == "JC014"
    assert failure.message.startswith(f"Invalid JSON: {message}")


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (b"[1e999999]", "<stdin>:1:2: invalid JSON: number 1e999999 at line 1, column 2 is too large"),
        (b"NaN", "<stdin>:1:1: invalid JSON: NaN is not valid JSON at line 1, column 1; use a number or null"),
        (b'{"\\udc00": 1}', "<stdin>:1:2: invalid JSON: string at line 1, column 2 holds a lone surrogate (\\udc00)"),
    ],
)
def test_check_refuses_what_json_cannot_carry_naming_the_place(tmp_path: Path, document: bytes, message: str) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "any.json").write_text('{"schema": {"additionalProperties": false}}', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "any", "-", "-c", str(folder)], input=document)
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout.startswith(message)


# --- the code itself: nothing that evaluates, imports or deserialises by name --------------------------

_FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "execfile", "import_module"}
_FORBIDDEN_MODULES = {"pickle", "marshal", "shelve", "yaml", "dill", "cloudpickle", "jsonpickle", "ruamel"}
#: import_module with a fixed table of module names: the package's lazy public API.
_IMPORT_MODULE_ALLOWED = {"__init__.py"}


def test_the_source_has_no_eval_exec_pickle_or_yaml() -> None:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            called = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None
            allowed = called == "import_module" and path.relative_to(SRC).as_posix() in _IMPORT_MODULE_ALLOWED
            if called in _FORBIDDEN_CALLS and not allowed:
                problems.append(f"{path.relative_to(SRC)}:{getattr(node, 'lineno', 0)} calls {called}")
            if isinstance(node, ast.Import):
                names = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                names = {(node.module or "").split(".")[0]}
            else:
                continue
            for name in names & _FORBIDDEN_MODULES:
                problems.append(f"{path.relative_to(SRC)}:{getattr(node, 'lineno', 0)} imports {name}")
    assert problems == []
