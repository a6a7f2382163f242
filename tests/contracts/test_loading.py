"""Loading a contracts folder: the per-file pipeline, its messages (the TypeScript server's) and positions."""

from __future__ import annotations

import builtins
import json
import os
import socket
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from json_contracts._json.reading import line_column
from json_contracts.contracts.loading import Limits, load_contracts, load_contracts_strict
from json_contracts.contracts.model import LoadResult
from json_contracts.errors import LoadError
from json_contracts.findings import Code, Finding

MakeDir = Callable[..., Path]
OBJECT: dict[str, Any] = {"schema": {"type": "object"}}


def _only_failure(result: LoadResult) -> Finding:
    assert len(result.failures) == 1, [f.message for f in result.failures]
    return result.failures[0]


def _load_single(make_contracts_dir: MakeDir, filename: str, content: Any) -> LoadResult:
    return load_contracts(make_contracts_dir({filename: content}))


def _position(text: str, needle: str) -> tuple[int, int]:
    return line_column(text, text.index(needle))


# --- what is read -------------------------------------------------------------------------------


def test_every_valid_file_loads_under_its_file_name(make_contracts_dir: MakeDir, support_ticket_file: Any) -> None:
    folder = make_contracts_dir({"support-ticket.json": support_ticket_file, "good.json": OBJECT})
    result = load_contracts(folder)
    assert result.ok
    assert sorted(result.contracts) == ["good", "support-ticket"]
    assert [c.name for c in result.sorted_contracts()] == ["good", "support-ticket"]
    assert result.directory == folder
    assert result.warnings == []


def test_the_name_field_is_ignored_in_favour_of_the_file_name(make_contracts_dir: MakeDir) -> None:
    result = _load_single(make_contracts_dir, "support-ticket.json", {"name": "ignored-name", **OBJECT})
    assert list(result.contracts) == ["support-ticket"]


def test_relative_folder_is_resolved_against_the_working_directory(
    make_contracts_dir: MakeDir, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_contracts_dir({"good.json": OBJECT})
    monkeypatch.chdir(folder.parent)
    result = load_contracts(folder.name)
    assert result.directory == folder
    assert list(result.contracts) == ["good"]


def test_files_not_ending_in_lowercase_json_are_not_contracts(make_contracts_dir: MakeDir) -> None:
    folder = make_contracts_dir(
        {
            "good.json": OBJECT,
            "x.JSON": "not json",
            "x.json.bak": "not json",
            "x.jsonc": "not json",
            "README.md": "# notes",
            "LICENSE.md": "MIT",
        }
    )
    result = load_contracts(folder)
    assert result.ok
    assert list(result.contracts) == ["good"]


def test_missing_folder_is_an_empty_successful_load_with_a_warning(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    result = load_contracts(missing)
    assert result.ok
    assert result.contracts == {}
    assert result.missing_directory
    [warning] = result.warnings
    assert (warning.code, warning.severity) == ("JC002", "warning")
    assert warning.message == f"Contracts directory does not exist; no contracts loaded from {missing}"
    assert warning.hint == (
        "create it with json-contracts init (it writes starter contracts there), or name the folder that holds "
        "your contracts with -c DIR or JSON_CONTRACTS_DIR"
    )


def test_a_file_given_as_the_folder_is_a_failure(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "contracts.json"
    not_a_folder.write_text("{}", encoding="utf-8")
    result = load_contracts(not_a_folder)
    assert not result.ok
    failure = _only_failure(result)
    assert failure.code == "JC003"
    assert failure.severity == "error"
    assert str(not_a_folder) in failure.message
    with pytest.raises(LoadError):
        load_contracts_strict(not_a_folder)


def test_a_subdirectory_named_like_a_contract_is_skipped_with_a_warning(make_contracts_dir: MakeDir) -> None:
    folder = make_contracts_dir({"good.json": OBJECT})
    (folder / "x.json").mkdir()
    (folder / "x.json" / "inner.json").write_text(json.dumps(OBJECT), encoding="utf-8")
    result = load_contracts(folder)
    assert result.ok
    assert list(result.contracts) == ["good"]
    [warning] = result.warnings
    assert (warning.code, warning.severity, warning.file) == ("JC001", "warning", "x.json")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_named_like_a_contract_is_skipped_without_blocking(make_contracts_dir: MakeDir) -> None:
    folder = make_contracts_dir({"good.json": OBJECT})
    os.mkfifo(folder / "pipe.json")
    result = load_contracts(folder)
    assert result.ok
    assert list(result.contracts) == ["good"]
    [warning] = result.warnings
    assert (warning.code, warning.file) == ("JC001", "pipe.json")


@pytest.fixture
def opened_paths(monkeypatch: pytest.MonkeyPatch) -> list[str | bytes]:
    """Every path opened through os.open or open() during the test, resolved."""
    opened: list[str | bytes] = []
    real_os_open, real_open = os.open, builtins.open

    def spy_os_open(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(os.path.realpath(path))
        return real_os_open(path, *args, **kwargs)

    def spy_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, bytes, os.PathLike)):
            opened.append(os.path.realpath(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy_os_open)
    monkeypatch.setattr(builtins, "open", spy_open)
    return opened


def test_symlinks_are_skipped_with_a_warning_and_their_targets_are_never_read(
    make_contracts_dir: MakeDir, opened_paths: list[str | bytes]
) -> None:
    outside = make_contracts_dir({"secret.json": OBJECT}, dirname="outside")
    folder = make_contracts_dir({"good.json": OBJECT, "inside-target.txt": json.dumps(OBJECT)})
    (folder / "outside-link.json").symlink_to(outside / "secret.json")
    (folder / "inside-link.json").symlink_to(folder / "inside-target.txt")
    (folder / "dangling.json").symlink_to(folder / "nowhere.json")

    result = load_contracts(folder)

    assert result.ok
    assert list(result.contracts) == ["good"]
    assert sorted(w.file for w in result.warnings) == ["dangling.json", "inside-link.json", "outside-link.json"]
    assert {w.code for w in result.warnings} == {"JC001"}
    assert all("symbolic link" in w.message for w in result.warnings)
    assert str((outside / "secret.json").resolve()) not in opened_paths
    assert str((folder / "inside-target.txt").resolve()) not in opened_paths
    assert str((folder / "good.json").resolve()) in opened_paths


# --- step 1: the name ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filename", "message"),
    [
        (".json", "Invalid contract name: "),
        ("bad name.json", "Invalid contract name: bad name"),
        ("-dash.json", "Invalid contract name: -dash"),
        ("_x.json", "Invalid contract name: _x"),
        ("a..b.json", "Invalid contract name: a..b"),
        ("café.json", "Invalid contract name: café"),
    ],
)
def test_invalid_file_names_fail_before_the_file_is_read(
    make_contracts_dir: MakeDir, filename: str, message: str
) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, filename, "{ not even json"))
    assert failure.message == message
    assert failure.file == filename
    assert failure.code == "JC011"


def test_an_invalid_name_has_a_hint_with_the_rule_and_a_valid_name(make_contracts_dir: MakeDir) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "über.json", OBJECT))
    assert failure.message == "Invalid contract name: über"
    assert failure.hint == (
        "a contract name (the file name without .json) uses only ASCII letters, digits, '.', '_' and '-', starts "
        "with a letter or digit, and never contains '..'; rename the file, e.g. to uber.json"
    )


# --- step 3: file size --------------------------------------------------------------------------


def _contract_text_of_size(size: int) -> str:
    head, tail = '{"schema":{"type":"object"},"description":"', '"}'
    return head + "x" * (size - len(head) - len(tail)) + tail


def test_a_file_of_exactly_256_kib_loads(make_contracts_dir: MakeDir) -> None:
    text = _contract_text_of_size(262144)
    assert len(text.encode()) == 262144
    assert list(_load_single(make_contracts_dir, "big.json", text).contracts) == ["big"]


def test_a_file_one_byte_over_256_kib_fails_with_its_size(make_contracts_dir: MakeDir) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "big.json", _contract_text_of_size(262145)))
    assert failure.message == "Contract file exceeds size limit (262145 > 262144 bytes)"
    assert failure.code == "JC013"


def test_the_file_size_limit_can_be_lowered_in_library_use(make_contracts_dir: MakeDir) -> None:
    folder = make_contracts_dir({"good.json": '{"schema":{}}'})
    failure = _only_failure(load_contracts(folder, Limits(max_file_bytes=5)))
    assert failure.message == "Contract file exceeds size limit (13 > 5 bytes)"


# --- step 4: JSON text --------------------------------------------------------------------------


def test_broken_json_fails_with_the_parse_position(make_contracts_dir: MakeDir) -> None:
    text = '{\n  "schema": {\n    "type": "object",\n  }\n}\n'
    failure = _only_failure(_load_single(make_contracts_dir, "broken.json", text))
    assert failure.message.startswith("Invalid JSON: ")
    assert failure.code == "JC014"
    assert (failure.line, failure.column) == _position(text, "}")


@pytest.mark.parametrize(
    ("text", "needle", "hint"),
    [
        (
            '{\n  "schema": {"type": "object",}\n}\n',
            "}\n}",
            "remove the comma at line 2, column 30: JSON allows no comma after the last member of an object",
        ),
        (
            '{\n  "schema": {"type": "object"}\n  "rules": []\n}\n',
            '"rules"',
            'a comma is missing: add "," after the value that ends at line 2, column 30',
        ),
        ("{\n  'schema': {}\n}\n", "'schema'", "JSON strings use double quotes: write \"schema\" instead of 'schema'"),
        (
            '{\n  // the ticket\n  "schema": {}\n}\n',
            "//",
            'JSON has no comments: remove the comment at line 2, column 3 (a note can go in a "description")',
        ),
        ("{\n  schema: {}\n}\n", "schema", 'keys are strings in double quotes: write "schema"'),
        (
            '{"schema": {"pattern": "^\\d+$"}}',
            "\\d",
            '"\\d" is not a JSON escape: write "\\\\d" for a backslash '
            '(a regular expression\'s \\d is "\\\\d" in JSON)',
        ),
        ('{"schema": {"additionalProperties": False}}', "False", "JSON literals are lower case: write false"),
        (
            '{"schema": {"type": "object"}',
            None,
            "the text ends before the JSON value does: add } for the { at line 1, column 1",
        ),
    ],
)
def test_json_syntax_slips_have_a_hint_saying_the_fix_and_where(
    make_contracts_dir: MakeDir, text: str, needle: str | None, hint: str
) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "slip.json", text))
    assert failure.code == "JC014"
    assert failure.message.startswith("Invalid JSON: ")
    assert failure.hint == hint
    if needle is not None:  # the parser's own position is kept: where it stopped
        assert (failure.line, failure.column) == _position(text, needle)


def test_a_file_starting_with_a_byte_order_mark_is_rejected(make_contracts_dir: MakeDir) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "bom.json", b'\xef\xbb\xbf{"schema":{}}'))
    assert failure.message.startswith("Invalid JSON: ")
    assert (failure.line, failure.column) == (1, 1)


def test_nan_in_a_contract_is_invalid_json(make_contracts_dir: MakeDir) -> None:
    text = '{"schema": {"type": "object", "maximum": NaN}}'
    failure = _only_failure(_load_single(make_contracts_dir, "nan.json", text))
    assert failure.message.startswith("Invalid JSON: ")
    assert (failure.line, failure.column) == _position(text, "NaN")


def test_invalid_utf8_loads_with_replacement_characters_and_hashes_them(make_contracts_dir: MakeDir) -> None:
    broken = make_contracts_dir({"good.json": b'{"description":"caf\xff","schema":{"type":"object"}}'}, dirname="a")
    replaced = make_contracts_dir({"good.json": '{"description":"caf\ufffd","schema":{"type":"object"}}'}, dirname="b")
    contract = load_contracts(broken).contracts["good"]
    assert contract.description == "caf\ufffd"
    assert contract.contract_hash == load_contracts(replaced).contracts["good"].contract_hash


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ('{"schema": {"type": "object", "properties": {"n": {"maximum": 1e400}}}}', "1e400"),
        ('{"schema": {"maximum": 1' + "0" * 400 + "}}", "1" + "0" * 400),
    ],
)
def test_a_number_too_large_for_a_double_fails_its_file_without_hiding_the_others(
    make_contracts_dir: MakeDir, text: str, literal: str
) -> None:
    result = load_contracts(make_contracts_dir({"good.json": OBJECT, "huge.json": text}))
    assert list(result.contracts) == ["good"]
    failure = _only_failure(result)
    assert failure.file == "huge.json"
    assert failure.message.startswith("Invalid JSON: ")
    assert (failure.line, failure.column) == _position(text, literal)


# --- step 5: version ----------------------------------------------------------------------------


@pytest.mark.parametrize("version", [None, 1, "1.0.0", {}])
def test_any_version_field_is_rejected(make_contracts_dir: MakeDir, version: Any) -> None:
    content = {"schema": {"type": "object"}, "version": version}
    text = json.dumps(content, indent=2)
    failure = _only_failure(_load_single(make_contracts_dir, "ver.json", text))
    assert failure.message == "Contract must not include a version field; use Git for versioning"
    assert failure.code == "JC015"
    assert (failure.line, failure.column) == _position(text, json.dumps(version))


def test_the_version_check_comes_before_the_shape_check(make_contracts_dir: MakeDir) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "ver.json", {"version": 2, "rules": "x"}))
    assert failure.message == "Contract must not include a version field; use Git for versioning"


# --- step 6: shape ------------------------------------------------------------------------------


def test_shape_issues_are_joined_in_field_order(make_contracts_dir: MakeDir) -> None:
    text = '{"rules":"x","examples":3}'
    failure = _only_failure(_load_single(make_contracts_dir, "shape.json", text))
    assert failure.message == (
        "Invalid contract shape: Expected array, received string, schema must be a JSON Schema object, "
        "Expected array, received number"
    )
    assert failure.code == "JC016"
    assert (failure.line, failure.column) == _position(text, '"x"')
    assert failure.hint == (
        '"rules" must be a list of strings: write "rules": ["x"]. every contract needs "schema": the JSON Schema its '
        'documents must satisfy, such as {"type": "object"}. "examples" must be a list of {"input": ..., '
        '"output": ...} objects, not the number 3'
    )


def test_a_missing_example_output_names_the_example_and_the_near_miss(make_contracts_dir: MakeDir) -> None:
    text = json.dumps({**OBJECT, "examples": [{"input": "hi", "outputs": {}}]}, indent=2)
    failure = _only_failure(_load_single(make_contracts_dir, "shape.json", text))
    assert failure.message == "Invalid contract shape: value is required"
    assert failure.hint == (
        'examples[0] has no "output" (it has "outputs": did you mean "output"?); every example needs "input" and '
        '"output"'
    )
    assert (failure.line, failure.column) == _position(text, '{\n      "input"')


def test_the_same_hint_for_two_issues_is_given_once(make_contracts_dir: MakeDir) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "shape.json", {**OBJECT, "examples": [{}]}))
    assert failure.message == "Invalid contract shape: value is required, value is required"
    assert failure.hint == 'examples[0] has no "input" and no "output"; every example needs "input" and "output"'


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ([], "Invalid contract shape: Expected object, received array"),
        (None, "Invalid contract shape: Expected object, received null"),
        ({}, "Invalid contract shape: schema must be a JSON Schema object"),
        ({"schema": []}, "Invalid contract shape: schema must be a JSON Schema object"),
        ({"schema": True}, "Invalid contract shape: schema must be a JSON Schema object"),
        ({"name": "", **OBJECT}, "Invalid contract shape: String must contain at least 1 character(s)"),
        ({"description": 5, **OBJECT}, "Invalid contract shape: Expected string, received number"),
        ({"rules": ["ok", 1], **OBJECT}, "Invalid contract shape: Expected string, received number"),
        ({"operations": True, **OBJECT}, "Invalid contract shape: Expected object, received boolean"),
        (
            {"operations": {"edit": {"enabled": "yes"}}, **OBJECT},
            "Invalid contract shape: Expected boolean, received string",
        ),
        (
            {"operations": {"edit": {"return": "patch"}}, **OBJECT},
            "Invalid contract shape: Invalid enum value. Expected 'full_object' | 'json_patch', received 'patch'",
        ),
        ({"examples": [{"input": "only input"}], **OBJECT}, "Invalid contract shape: value is required"),
        ({"examples": ["x"], **OBJECT}, "Invalid contract shape: Expected object, received string"),
    ],
)
def test_shape_messages_use_the_original_wording(make_contracts_dir: MakeDir, content: Any, message: str) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "shape.json", json.dumps(content)))
    assert failure.message == message


@pytest.mark.parametrize(("value", "received"), [(5, "number"), (None, "null"), (True, "boolean")])
def test_a_non_string_return_is_reported_as_a_type_problem(
    make_contracts_dir: MakeDir, value: Any, received: str
) -> None:
    content = {"operations": {"edit": {"return": value}}, **OBJECT}
    failure = _only_failure(_load_single(make_contracts_dir, "shape.json", content))
    assert failure.message == f"Invalid contract shape: Expected 'full_object' | 'json_patch', received {received}"


def test_examples_with_null_input_and_output_and_extra_keys_are_well_shaped(make_contracts_dir: MakeDir) -> None:
    content = {"schema": {}, "examples": [{"input": None, "output": None, "note": "kept"}]}
    contract = _load_single(make_contracts_dir, "nulls.json", content).contracts["nulls"]
    assert contract.examples == [{"input": None, "output": None, "note": "kept"}]


# --- step 7: number of examples -----------------------------------------------------------------

_EXAMPLE = {"input": "i", "output": {}}


def test_fifty_examples_across_all_groups_load(make_contracts_dir: MakeDir) -> None:
    content: dict[str, Any] = {
        **OBJECT,
        "examples": [_EXAMPLE] * 20,
        "operations": {"create": {"examples": [_EXAMPLE] * 10}, "edit": {"examples": [_EXAMPLE] * 10}},
    }
    content["operations"]["custom"] = {"examples": [_EXAMPLE] * 10}
    assert _load_single(make_contracts_dir, "fifty.json", content).ok


def test_fifty_one_examples_fail_even_when_spread_over_custom_operations(make_contracts_dir: MakeDir) -> None:
    content = {
        **OBJECT,
        "examples": [_EXAMPLE] * 20,
        "operations": {"edit": {"examples": [_EXAMPLE] * 20}, "custom": {"examples": [_EXAMPLE] * 11}},
    }
    failure = _only_failure(_load_single(make_contracts_dir, "many.json", content))
    assert failure.message == "Contract examples exceed limit (51 > 50)"
    assert failure.code == "JC017"


# --- step 8: schema size ------------------------------------------------------------------------


def _schema_of_compact_size(size: int, filler: str = "x") -> dict[str, Any]:
    schema = {"type": "object", "description": ""}
    base = len(json.dumps(schema, separators=(",", ":")).encode())
    count, rest = divmod(size - base, len(filler.encode()))
    schema["description"] = filler * count + "x" * rest
    assert len(json.dumps(schema, separators=(",", ":"), ensure_ascii=False).encode()) == size
    return schema


def test_a_schema_of_exactly_128_kib_compact_loads(make_contracts_dir: MakeDir) -> None:
    content = {"schema": _schema_of_compact_size(131072)}
    assert _load_single(make_contracts_dir, "big.json", json.dumps(content, indent=2)).ok


def test_a_schema_one_byte_over_128_kib_fails_with_its_compact_size(make_contracts_dir: MakeDir) -> None:
    content = {"schema": _schema_of_compact_size(131073)}
    failure = _only_failure(_load_single(make_contracts_dir, "big.json", content))
    assert failure.message == "Contract schema exceeds size limit (131073 > 131072 bytes)"
    assert failure.code == "JC018"


def test_schema_size_counts_utf8_bytes_not_characters(make_contracts_dir: MakeDir) -> None:
    content = {"schema": _schema_of_compact_size(131074, filler="é")}
    failure = _only_failure(_load_single(make_contracts_dir, "big.json", content))
    assert failure.message == "Contract schema exceeds size limit (131074 > 131072 bytes)"


# --- step 9: the JSON Schema --------------------------------------------------------------------


@pytest.mark.parametrize(
    "dialect",
    [
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-04/schema#",
        "http://json-schema.org/draft-06/schema#",
    ],
)
def test_unsupported_dialects_fail_with_the_original_message(make_contracts_dir: MakeDir, dialect: str) -> None:
    content = {"schema": {"$schema": dialect, "type": "object"}}
    failure = _only_failure(_load_single(make_contracts_dir, "old.json", content))
    assert failure.message == (
        f"Unsupported JSON Schema dialect: {dialect}. Supported dialects are draft-07 and 2020-12."
    )
    assert failure.code == "JC019"


def test_a_non_string_schema_dialect_fails(make_contracts_dir: MakeDir) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "odd.json", {"schema": {"$schema": 7}}))
    assert failure.message == "Invalid JSON Schema: $schema must be a string when present"


@pytest.mark.parametrize(
    "dialect",
    [
        "http://json-schema.org/draft-07/schema#",
        "http://json-schema.org/draft-07/schema",
        "https://json-schema.org/draft/2020-12/schema",
    ],
)
def test_draft_07_and_2020_12_schemas_load(make_contracts_dir: MakeDir, dialect: str) -> None:
    content = {"schema": {"$schema": dialect, "type": "object"}}
    assert _load_single(make_contracts_dir, "ok.json", content).ok


def test_a_schema_that_breaks_its_meta_schema_fails_and_points_at_the_keyword(make_contracts_dir: MakeDir) -> None:
    text = json.dumps({"schema": {"type": "definitely-not-a-json-schema-type"}}, indent=2)
    failure = _only_failure(_load_single(make_contracts_dir, "bad.json", text))
    assert failure.message.startswith("Invalid JSON Schema: ")
    assert failure.code == "JC019"
    assert (failure.line, failure.column) == _position(text, '"definitely')


def test_an_unresolvable_local_ref_fails(make_contracts_dir: MakeDir) -> None:
    content = {"schema": {"properties": {"a": {"$ref": "#/$defs/missing"}}}}
    failure = _only_failure(_load_single(make_contracts_dir, "ref.json", content))
    assert failure.message == (
        "Invalid JSON Schema: can't resolve reference #/$defs/missing from id #; put the schema it names under "
        '"$defs" and point at it as #/$defs/<name>'
    )


def test_local_refs_to_defs_and_definitions_load(make_contracts_dir: MakeDir) -> None:
    folder = make_contracts_dir(
        {
            "new.json": {"schema": {"$defs": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/s"}}}},
            "old.json": {
                "schema": {
                    "$schema": "http://json-schema.org/draft-07/schema#",
                    "definitions": {"s": {"type": "string"}},
                    "properties": {"a": {"$ref": "#/definitions/s"}},
                }
            },
        }
    )
    assert sorted(load_contracts(folder).contracts) == ["new", "old"]


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fail any attempt to reach the network; the returned list records each attempt."""
    attempts: list[str] = []

    def refuse(name: str) -> Callable[..., Any]:
        def blocked(*args: Any, **kwargs: Any) -> Any:
            attempts.append(name)
            raise AssertionError(f"network access attempted through {name}")

        return blocked

    monkeypatch.setattr(socket.socket, "connect", refuse("socket.connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("socket.connect_ex"))
    monkeypatch.setattr(socket, "create_connection", refuse("socket.create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("socket.getaddrinfo"))
    monkeypatch.setattr(urllib.request, "urlopen", refuse("urllib.request.urlopen"))
    return attempts


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "https://example.com/schemas/ticket.json"},
        {"properties": {"a": {"$ref": "http://example.com/a.json#/$defs/x"}}},
        {"$schema": "http://json-schema.org/draft-07/schema#", "items": {"$ref": "https://example.com/i.json"}},
    ],
)
def test_remote_refs_fail_to_load_without_touching_the_network(
    make_contracts_dir: MakeDir, no_network: list[str], schema: dict[str, Any]
) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "remote.json", {"schema": schema}))
    ref = json.dumps(schema).split('"$ref": "')[1].split('"')[0]
    assert failure.message.startswith(f"Invalid JSON Schema: can't resolve reference {ref} from id #")
    assert failure.code == "JC019"
    assert no_network == []


# --- step 10: examples validate -----------------------------------------------------------------


def test_an_invalid_example_output_fails_with_its_errors(make_contracts_dir: MakeDir, support_ticket_file: Any) -> None:
    support_ticket_file["examples"][0]["output"]["severity"] = "urgent"
    text = json.dumps(support_ticket_file, indent=2)
    failure = _only_failure(_load_single(make_contracts_dir, "support-ticket.json", text))
    assert failure.message == (
        "Example output at examples[0] does not validate against contract schema: "
        "/severity: must be equal to one of the allowed values (enum)"
    )
    assert failure.code == "JC020"
    assert (failure.line, failure.column) == _position(text, '"urgent"')


@pytest.mark.parametrize(
    ("schema", "output", "hint"),
    [
        (
            {"type": "object", "properties": {"s": {"enum": ["low", "high"]}}},
            {"s": "urgent"},
            'in the output of examples[0], /s must be one of "low", "high"; fix the example or the schema',
        ),
        (
            {"$defs": {"n": {"enum": [1, 2]}}, "type": "array", "items": {"$ref": "#/$defs/n"}},
            [1, 3],
            "in the output of examples[0], /1 must be one of 1, 2; fix the example or the schema",
        ),
        ({"const": "x"}, "y", 'in the output of examples[0], / must be "x"; fix the example or the schema'),
        (
            {"type": "object", "additionalProperties": False, "properties": {"a": {}}},
            {"a": 1, "b": 2},
            'remove "b" from the output of examples[0], or add it to the schema\'s "properties"',
        ),
        (  # the error is the object's and names no property: the hint used to say 'remove ""'
            {"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False},
            {"a": 1, "b": 2},
            "in the output of examples[0], the object at / has a property no part of the schema defines; "
            'remove it, or define it in "properties"',
        ),
        ({"type": "object", "required": ["a"]}, {}, None),
        ({"anyOf": [{"enum": [1]}, {"enum": [2]}]}, 3, None),
    ],
)
def test_an_invalid_example_output_has_a_hint_when_the_message_leaves_the_fix_out(
    make_contracts_dir: MakeDir, schema: dict[str, Any], output: Any, hint: str | None
) -> None:
    content = {"schema": schema, "examples": [{"input": "i", "output": output}]}
    failure = _only_failure(_load_single(make_contracts_dir, "ex.json", content))
    assert failure.code == "JC020"
    assert failure.hint == hint


def test_example_errors_at_the_root_print_a_slash_and_are_joined(make_contracts_dir: MakeDir) -> None:
    content: dict[str, Any] = {
        "schema": {"type": "object", "required": ["a", "b"]},
        "examples": [{"input": "i", "output": {}}, {"input": "i", "output": None}],
    }
    failure = _only_failure(_load_single(make_contracts_dir, "ex.json", content))
    assert failure.message == (
        "Example output at examples[0] does not validate against contract schema: "
        "/a: must have required property 'a' (required); /b: must have required property 'b' (required)"
    )
    content["examples"].reverse()
    failure = _only_failure(_load_single(make_contracts_dir, "ex.json", content))
    assert failure.message == (
        "Example output at examples[0] does not validate against contract schema: /: must be object (type)"
    )


@pytest.mark.parametrize(
    ("operations", "label"),
    [
        ({"create": {"examples": [{"input": "i", "output": 1}]}}, "operations.create.examples[0]"),
        (
            {"edit": {"examples": [{"input": "i", "output": {}}, {"input": "i", "output": 1}]}},
            "operations.edit.examples[1]",
        ),
        ({"zeta": {"examples": [{"input": "i", "output": 1}]}}, "operations.zeta.examples[0]"),
    ],
)
def test_operation_example_failures_name_their_group(
    make_contracts_dir: MakeDir, operations: dict[str, Any], label: str
) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "ops.json", {**OBJECT, "operations": operations}))
    assert failure.message == (
        f"Example output at {label} does not validate against contract schema: /: must be object (type)"
    )


def test_examples_are_checked_top_level_first_then_create_edit_and_custom_operations(
    make_contracts_dir: MakeDir,
) -> None:
    bad = [{"input": "i", "output": 1}]
    content: dict[str, Any] = {
        **OBJECT,
        "operations": {"zeta": {"examples": bad}, "edit": {"examples": bad}, "create": {"examples": bad}},
        "examples": bad,
    }
    labels = []
    for drop in ["examples", "create", "edit", "zeta"]:
        failure = _only_failure(_load_single(make_contracts_dir, "order.json", content))
        labels.append(failure.message.split(" does not")[0])
        if drop == "examples":
            content["examples"] = []
        else:
            content["operations"][drop]["examples"] = []
    assert labels == [
        "Example output at examples[0]",
        "Example output at operations.create.examples[0]",
        "Example output at operations.edit.examples[0]",
        "Example output at operations.zeta.examples[0]",
    ]


def test_example_position_points_into_the_operation(make_contracts_dir: MakeDir) -> None:
    content = {**OBJECT, "operations": {"edit": {"examples": [{"input": "i", "output": []}]}}}
    text = json.dumps(content, indent=2)
    failure = _only_failure(_load_single(make_contracts_dir, "ops.json", text))
    assert (failure.line, failure.column) == _position(text, "[]")


def test_example_position_is_right_for_an_operation_name_with_dots(make_contracts_dir: MakeDir) -> None:
    content = {**OBJECT, "operations": {"v1.summarise": {"examples": [{"input": "i", "output": []}]}}}
    text = json.dumps(content, indent=2)
    failure = _only_failure(_load_single(make_contracts_dir, "ops.json", text))
    assert failure.message.startswith("Example output at operations.v1.summarise.examples[0] does not validate")
    assert (failure.line, failure.column) == _position(text, "[]")


# --- step 10: a correct example failing because of the schema ---------------------------------------

#: An object whose "required" misspells the property "actionItems".
MISSPELT_REQUIRED: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"title": {"type": "string"}, "actionItems": {"type": "array", "items": {"type": "string"}}},
    "required": ["title", "actionitems"],
}
MINUTES = {"title": "Standup", "actionItems": ["Ana ships the fix"]}


def _example_of(schema: dict[str, Any], output: Any) -> str:
    return json.dumps({"schema": schema, "examples": [{"input": "i", "output": output}]}, indent=2)


def _line(text: str, needle: str) -> int:
    return _position(text, needle)[0]


def test_a_file_that_fails_only_on_an_example_keeps_its_contract_for_lint(make_contracts_dir: MakeDir) -> None:
    folder = make_contracts_dir(
        {
            "minutes.json": _example_of(MISSPELT_REQUIRED, MINUTES),
            "good.json": OBJECT,
            "badschema.json": {"schema": {"type": "strin"}, "examples": [{"input": "i", "output": 1}]},
        }
    )
    result = load_contracts(folder)

    assert [(f.file, f.code) for f in result.failures] == [("badschema.json", "JC019"), ("minutes.json", "JC020")]
    assert list(result.contracts) == ["good"]  # what loads, and so what is served, is unchanged
    assert list(result.schema_checked) == ["minutes"]
    kept = result.schema_checked["minutes"]
    assert (kept.name, kept.schema, kept.dialect) == ("minutes", MISSPELT_REQUIRED, "2020-12")
    with pytest.raises(LoadError):
        load_contracts_strict(folder)


@pytest.mark.parametrize(
    "content",
    [
        "{ nope",
        {"schema": {"type": "object"}, "rules": "x"},
        {"schema": {"type": "object"}, "examples": [{"input": "i", "output": 1}] * 51},
        {"schema": {"$ref": "#/$defs/missing"}, "examples": [{"input": "i", "output": 1}]},
    ],
    ids=["json", "shape", "limit", "schema"],
)
def test_a_file_that_fails_before_its_examples_keeps_nothing(make_contracts_dir: MakeDir, content: Any) -> None:
    result = _load_single(make_contracts_dir, "early.json", content)

    assert _only_failure(result).code != "JC020"
    assert result.schema_checked == {}


def test_a_required_name_properties_does_not_define_is_named_as_the_cause(make_contracts_dir: MakeDir) -> None:
    text = _example_of(MISSPELT_REQUIRED, MINUTES)

    failure = _only_failure(_load_single(make_contracts_dir, "minutes.json", text))

    assert failure.message == (  # the TypeScript server's message, unchanged
        "Example output at examples[0] does not validate against contract schema: "
        "/actionitems: must have required property 'actionitems' (required)"
    )
    assert failure.hint == (
        'the schema is the cause: "required" lists "actionitems", which "properties" does not define '
        f'(did you mean "actionItems"?), line {_line(text, chr(34) + "actionitems")} ({Code.REQUIRED_NOT_DEFINED})'
    )


def test_an_open_schema_is_the_cause_only_when_the_output_has_the_property_it_misspells(
    make_contracts_dir: MakeDir,
) -> None:
    schema = {**MISSPELT_REQUIRED, "additionalProperties": {"type": "string"}}
    with_it = _example_of(schema, {"title": "Standup", "actionItems": []})
    without_it = _example_of(schema, {"title": "Standup"})

    cause = _only_failure(load_contracts(make_contracts_dir({"with.json": with_it}, dirname="with"))).hint
    no_cause = _only_failure(load_contracts(make_contracts_dir({"without.json": without_it}, dirname="without"))).hint

    assert cause is not None
    assert cause.startswith('the schema is the cause: "required" lists "actionitems"')
    assert no_cause is None  # the output could add "actionitems": the example may be what is wrong


def test_crossed_bounds_are_named_as_the_cause_at_their_line_through_a_ref(make_contracts_dir: MakeDir) -> None:
    schema = {
        "$defs": {"tags": {"type": "array", "minItems": 100, "maxItems": 50}},
        "type": "object",
        "properties": {"tags": {"$ref": "#/$defs/tags"}},
    }
    text = _example_of(schema, {"tags": ["a", "b"]})

    failure = _only_failure(_load_single(make_contracts_dir, "bounds.json", text))

    assert failure.message.endswith("/tags: must NOT have fewer than 100 items (minItems)")
    assert failure.hint == (
        "the schema is the cause: minItems 100 is greater than maxItems 50, so no array satisfies both "
        f"(lower minItems or raise maxItems), line {_line(text, chr(34) + 'minItems')} ({Code.CONTRADICTORY_BOUNDS})"
    )


def test_crossed_bounds_of_another_keyword_are_not_the_cause(make_contracts_dir: MakeDir) -> None:
    schema = {"type": "string", "minLength": 5, "minimum": 10, "maximum": 1}

    failure = _only_failure(_load_single(make_contracts_dir, "short.json", _example_of(schema, "ab")))

    assert failure.message.endswith("/: must NOT have fewer than 5 characters (minLength)")
    assert failure.hint is None


def test_a_property_schema_beside_properties_is_named_as_the_cause(make_contracts_dir: MakeDir) -> None:
    schema = {"type": "object", "additionalProperties": False, "properties": {"city": {"type": "string"}}}
    text = _example_of({**schema, "street": {"type": "string"}}, {"city": "Springfield", "street": "Main St"})

    failure = _only_failure(_load_single(make_contracts_dir, "address.json", text))

    assert failure.message.endswith("/street: must NOT have additional properties (additionalProperties)")
    assert failure.hint == (
        'the schema is the cause: "street" is a property\'s schema written beside "properties", so '
        '"additionalProperties": false forbids it (move it into "properties"), '
        f"line {_line(text, chr(34) + 'street')} ({Code.UNKNOWN_KEYWORD})"
    )


@pytest.mark.parametrize(
    ("schema", "output"),
    [
        # a near-miss of a keyword that takes a schema: a typo of "items", not a property
        (
            {"type": "object", "additionalProperties": False, "properties": {}, "item": {"type": "string"}},
            {"item": "x"},
        ),
        # not a schema beside properties: the output adds a property the schema never mentions
        ({"type": "object", "additionalProperties": False, "properties": {"a": {}}}, {"a": 1, "street": "x"}),
    ],
)
def test_an_extra_property_without_a_misplaced_schema_keeps_the_example_hint(
    make_contracts_dir: MakeDir, schema: dict[str, Any], output: dict[str, Any]
) -> None:
    failure = _only_failure(_load_single(make_contracts_dir, "extra.json", _example_of(schema, output)))

    extra = next(name for name in output if name not in schema["properties"])
    assert failure.hint == f'remove "{extra}" from the output of examples[0], or add it to the schema\'s "properties"'


# --- pipeline order, duplicates and aggregation -------------------------------------------------


def test_the_first_failing_step_wins(make_contracts_dir: MakeDir) -> None:
    too_many = [_EXAMPLE] * 51
    huge_schema = _schema_of_compact_size(131073)
    folder = make_contracts_dir(
        {
            "a-shape-before-count.json": {"rules": "x", "examples": too_many},
            "b-count-before-size.json": {"schema": huge_schema, "examples": too_many},
            "c-size-before-dialect.json": {"schema": {**huge_schema, "$schema": "draft-04"}},
            "d-dialect-before-examples.json": {
                "schema": {"$schema": "draft-04"},
                "examples": [{"input": 1, "output": 1}],
            },
        }
    )
    messages = [f.message for f in load_contracts(folder).failures]
    assert [m.split(":")[0].split(" (")[0] for m in messages] == [
        "Invalid contract shape",
        "Contract examples exceed limit",
        "Contract schema exceeds size limit",
        "Unsupported JSON Schema dialect",
    ]


def test_files_differing_only_in_case_are_duplicates_reported_first_and_not_loaded(
    make_contracts_dir: MakeDir,
) -> None:
    folder = make_contracts_dir({"Dup.json": OBJECT, "dup.json": OBJECT, "a-broken.json": "{", "good.json": OBJECT})
    result = load_contracts(folder)
    assert list(result.contracts) == ["good"]
    assert [f.file for f in result.failures] == ["dup.json, Dup.json", "a-broken.json"]
    duplicate = result.failures[0]
    assert duplicate.message == "Duplicate contract name: dup.json, Dup.json"
    assert duplicate.code == "JC010"


def test_duplicates_are_found_before_names_are_checked(make_contracts_dir: MakeDir) -> None:
    folder = make_contracts_dir({"Bad Name.json": OBJECT, "bad name.json": OBJECT, "BAD NAME.json": OBJECT})
    failure = _only_failure(load_contracts(folder))
    assert failure.message == "Duplicate contract name: bad name.json, Bad Name.json, BAD NAME.json"


def test_one_broken_file_never_hides_the_others(make_contracts_dir: MakeDir) -> None:
    folder = make_contracts_dir(
        {
            "alpha.json": "{",
            "bravo.json": OBJECT,
            "charlie.json": {"version": 1, **OBJECT},
            "delta.json": OBJECT,
            "echo.json": {"schema": {"type": 5}},
        }
    )
    result = load_contracts(folder)
    assert sorted(result.contracts) == ["bravo", "delta"]
    assert [f.file for f in result.failures] == ["alpha.json", "charlie.json", "echo.json"]


def test_failures_aggregate_into_one_message_in_collation_order(make_contracts_dir: MakeDir) -> None:
    folder = make_contracts_dir(
        {
            "zeta.json": {"version": 1, **OBJECT},
            "Alpha.json": {"rules": "x", **OBJECT},
            "dup.json": OBJECT,
            "Dup.json": OBJECT,
            "good.json": OBJECT,
        }
    )
    expected = (
        "Failed to load JSON contracts: "
        "dup.json, Dup.json: Duplicate contract name: dup.json, Dup.json; "
        "Alpha.json: Invalid contract shape: Expected array, received string; "
        "zeta.json: Contract must not include a version field; use Git for versioning"
    )
    result = load_contracts(folder)
    assert result.failure_message() == expected
    with pytest.raises(LoadError) as caught:
        load_contracts_strict(folder)
    assert str(caught.value) == expected
    assert [(p.file, p.message) for p in caught.value.problems] == [(f.file, f.message) for f in result.failures]


def test_strict_loading_of_a_clean_folder_returns_the_result(make_contracts_dir: MakeDir) -> None:
    result = load_contracts_strict(make_contracts_dir({"good.json": OBJECT}))
    assert list(result.contracts) == ["good"]


def test_failures_name_the_contract_and_the_file_on_disk(make_contracts_dir: MakeDir) -> None:
    folder = make_contracts_dir({"ver.json": {"version": 1, **OBJECT}})
    failure = _only_failure(load_contracts(folder))
    assert (failure.file, failure.path, failure.contract, failure.severity) == (
        "ver.json",
        folder / "ver.json",
        "ver",
        "error",
    )


# --- normalisation ----------------------------------------------------------------------------


def _operations(make_contracts_dir: MakeDir, operations: Any) -> str:
    content = {**OBJECT} if operations is None else {**OBJECT, "operations": operations}
    contract = _load_single(make_contracts_dir, "ops.json", content).contracts["ops"]
    return json.dumps(contract.operations, separators=(",", ":"))


def test_a_file_without_operations_gets_create_and_edit_defaults(make_contracts_dir: MakeDir) -> None:
    assert _operations(make_contracts_dir, None) == (
        '{"create":{"enabled":true,"rules":[],"examples":[]},'
        '"edit":{"enabled":true,"return":"full_object","rules":[],"examples":[]}}'
    )


def test_existing_operation_keys_keep_their_place_and_defaults_are_appended(make_contracts_dir: MakeDir) -> None:
    normalised = _operations(make_contracts_dir, {"create": {"rules": ["Create rule."], "note": "kept"}})
    assert normalised.startswith('{"create":{"rules":["Create rule."],"note":"kept","enabled":true,"examples":[]},')


def test_operations_are_ordered_create_edit_then_custom_in_file_order(make_contracts_dir: MakeDir) -> None:
    normalised = json.loads(
        _operations(
            make_contracts_dir,
            {"zeta": {"x": 1}, "edit": {"enabled": False, "note": 1}, "alpha": {"return": "json_patch"}},
        )
    )
    assert list(normalised) == ["create", "edit", "zeta", "alpha"]
    assert list(normalised["edit"].items()) == [
        ("enabled", False),
        ("note", 1),
        ("return", "full_object"),
        ("rules", []),
        ("examples", []),
    ]
    assert normalised["zeta"] == {"x": 1, "enabled": True, "rules": [], "examples": []}
    assert list(normalised["alpha"]) == ["return", "enabled", "rules", "examples"]


def test_a_json_patch_edit_keeps_its_return(make_contracts_dir: MakeDir) -> None:
    normalised = json.loads(_operations(make_contracts_dir, {"edit": {"return": "json_patch"}}))
    assert normalised["edit"] == {"return": "json_patch", "enabled": True, "rules": [], "examples": []}
    assert "return" not in normalised["create"]


def test_empty_description_is_absent_and_rules_and_examples_default_to_empty(make_contracts_dir: MakeDir) -> None:
    contract = _load_single(make_contracts_dir, "d.json", {"description": "", **OBJECT}).contracts["d"]
    assert contract.description is None
    assert contract.rules == []
    assert contract.examples == []
    assert contract.schema == {"type": "object"}
    assert "description" not in contract.public_body()
    assert "description" not in contract.summary()


def test_unknown_top_level_fields_are_dropped(make_contracts_dir: MakeDir) -> None:
    contract = _load_single(make_contracts_dir, "x.json", {"x-owner": "me", **OBJECT}).contracts["x"]
    assert "x-owner" not in contract.public_body()


def test_a_schema_cause_speaks_only_for_the_errors_it_explains(make_contracts_dir: MakeDir) -> None:
    # The crossed bounds explain /s; /t is the example's own mistake, and the hint used to blame the schema alone.
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"s": {"type": "string", "minLength": 5, "maxLength": 1}, "t": {"type": "string", "enum": ["a"]}},
    }
    content = {"schema": schema, "examples": [{"input": "x", "output": {"t": "b", "s": "abc"}}]}

    failure = _only_failure(_load_single(make_contracts_dir, "ex.json", content))

    assert failure.code == "JC020"
    assert failure.hint is not None
    assert failure.hint.startswith("the schema is the cause: minLength 5 is greater than maxLength 1")
    assert failure.hint.endswith(
        '; besides, in the output of examples[0], /t must be one of "a"; fix the example or the schema'
    )
