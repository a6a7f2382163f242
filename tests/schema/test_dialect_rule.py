"""One rule: the contract's dialect decides every validator the engine builds.

jsonschema's ``evolve`` (behind every ``descend``) picks its own stock class for a sub-schema that
carries ``$schema``; that class matches ``pattern`` with Python's ``re`` (``\\d`` takes Arabic-Indic
digits, ``\\p{L}`` crashes) and has none of the Ajv keywords. Whatever a sub-schema declares, the
class stays ours.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from json_contracts.schema.checking import check_schema
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.validation import validate
from json_contracts.schema.vocabulary import DRAFT7, DRAFT202012
from tests.support.cli import script_path

D7 = "http://json-schema.org/draft-07/schema#"
D2020 = "https://json-schema.org/draft/2020-12/schema"
D4 = "http://json-schema.org/draft-04/schema#"
ARABIC_INDIC_12 = "\u0661\u0662"


def _behind_a_plain_place(pattern: str, declared: str = D2020) -> dict[str, Any]:
    """A schema whose ``a`` refers to a sub-schema kept under a name no keyword owns, declaring ``$schema``."""
    return {
        "$schema": D2020,
        "type": "object",
        "properties": {"a": {"$ref": "#/x"}},
        "x": {"$schema": declared, "type": "string", "pattern": pattern},
    }


@pytest.mark.parametrize("declared", [D2020, D7, D4])
def test_a_referenced_sub_schema_declaring_schema_keeps_ecma_digits(declared: str) -> None:
    schema = _behind_a_plain_place("^\\d+$", declared)
    assert check_schema(schema, DRAFT202012) is None
    compiled = compile_schema(schema, DRAFT202012)

    result = validate(compiled, {"a": ARABIC_INDIC_12})

    assert result.errors == [{"path": "/a", "message": 'must match pattern "^\\d+$"', "keyword": "pattern"}]
    assert validate(compiled, {"a": "12"}).valid


def test_a_referenced_sub_schema_declaring_schema_matches_unicode_properties_without_crashing() -> None:
    compiled = compile_schema(_behind_a_plain_place("^\\p{L}+$"), DRAFT202012)

    assert validate(compiled, {"a": "Zoë"}).valid
    assert validate(compiled, {"a": "x1"}).errors == [
        {"path": "/a", "message": 'must match pattern "^\\p{L}+$"', "keyword": "pattern"}
    ]


def test_a_self_reference_one_level_down_is_held_to_ecma_digits() -> None:
    schema = {
        "$schema": D2020,
        "type": "object",
        "properties": {"a": {"type": "string", "pattern": "^\\d+$"}, "self": {"$ref": "#"}},
    }
    compiled = compile_schema(schema, DRAFT202012)

    assert not validate(compiled, {"self": {"a": ARABIC_INDIC_12}}).valid
    assert not validate(compiled, {"self": {"self": {"a": ARABIC_INDIC_12}}}).valid


@pytest.mark.parametrize("dialect", [DRAFT7, DRAFT202012])
@pytest.mark.parametrize("declared", [D7, D2020, D4, "https://json-schema.org/draft/2019-09/schema"])
def test_evolve_keeps_the_contract_dialect_class(dialect: str, declared: str) -> None:
    compiled = compile_schema({"type": "object"}, dialect)
    validator_class = type(compiled.validator)

    evolved = compiled.validator.evolve(schema={"$schema": declared, "pattern": "^\\d+$"})

    assert type(evolved) is validator_class
    assert not evolved.is_valid(ARABIC_INDIC_12)


@pytest.mark.parametrize("dialect", [DRAFT7, DRAFT202012])
def test_the_ajv_keywords_apply_behind_a_declared_schema(dialect: str) -> None:
    """Ajv's wording (one error per missing property, with the property in the path) one level down."""
    declared = D2020 if dialect == DRAFT7 else D7
    schema = {"properties": {"a": {"$ref": "#/x"}}, "x": {"$schema": declared, "required": ["b", "c"]}}
    compiled = compile_schema(schema, dialect)

    assert validate(compiled, {"a": {}}).errors == [
        {"path": "/a/b", "message": "must have required property 'b'", "keyword": "required"},
        {"path": "/a/c", "message": "must have required property 'c'", "keyword": "required"},
    ]


def test_check_through_the_cli_reports_the_digits_one_level_down(tmp_path: Path) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    contract = {
        "description": "Codes.",
        "schema": _behind_a_plain_place("^\\d+$"),
        "operations": {"edit": {"enabled": False}},
        "examples": [{"input": "twelve", "output": {"a": "12"}}],
    }
    (folder / "codes.json").write_text(json.dumps(contract, indent=2), encoding="utf-8")
    (tmp_path / "doc.json").write_text(json.dumps({"a": ARABIC_INDIC_12}), encoding="utf-8")

    run = subprocess.run(
        [str(script_path()), "check", "codes", "doc.json", "-c", "contracts"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=tmp_path,
        env={**{k: v for k, v in os.environ.items() if k != "JSON_CONTRACTS_DIR"}, "NO_COLOR": "1"},
        timeout=60,
        check=False,
    )

    assert run.returncode == 1, run.stdout + run.stderr
    assert 'pattern /a must match pattern "^\\d+$"' in run.stdout
    assert "Traceback" not in run.stderr


# --- the checker reads references as the validator does -------------------------------------------


def test_an_anchor_only_another_dialect_defines_is_refused_when_checked() -> None:
    """A draft-07 contract has no ``$anchor``, whatever an embedded resource declares: the checker
    refuses the reference the validator could never follow (it loaded, then failed every document)."""
    schema = {
        "$schema": D7,
        "definitions": {"r": {"$schema": D2020, "$id": "http://example.com/r", "$defs": {"a": {"$anchor": "a"}}}},
        "properties": {"x": {"$ref": "http://example.com/r#a"}},
    }

    found = check_schema(schema, DRAFT7)

    assert found is not None
    assert found.pointer == "/properties/x/$ref"
    assert "can't resolve reference http://example.com/r#a" in found.message


def test_references_into_a_resource_declaring_another_dialect_still_resolve() -> None:
    schema = {
        "$schema": D2020,
        "$defs": {
            "r": {"$schema": D7, "$id": "http://example.com/r", "$defs": {"a": {"$anchor": "a", "type": "string"}}}
        },
        "properties": {"x": {"$ref": "http://example.com/r#a"}, "y": {"$ref": "http://example.com/r#/$defs/a"}},
    }

    assert check_schema(schema, DRAFT202012) is None
    compiled = compile_schema(schema, DRAFT202012)
    assert validate(compiled, {"x": "s", "y": "t"}).valid
    assert not validate(compiled, {"x": 1}).valid
