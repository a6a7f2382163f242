"""No network and no filesystem outside the folder.

Remote ``$ref`` (http, https, file:), absolute and relative paths in ``$ref``, ``$dynamicRef``,
symbolic links to files outside the folder, ``..`` in contract names and in ``json-contract://``
URIs: each is refused with a message that names the file and the field, and nothing outside the
folder is opened. A listener on 127.0.0.1 proves that loading, linting, validating, serving and
property-checking contracts that point at it never connect.
"""

from __future__ import annotations

import builtins
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from mcp import MCPError

from json_contracts.agent.payloads import repair_payload, validation_payload
from json_contracts.cli import main
from json_contracts.contracts.loading import load_contracts
from json_contracts.lint import lint_result
from json_contracts.testing.checks import run_check
from json_contracts.testing.results import RunOptions
from tests.support.hardening import Served
from tests.support.mcp import assert_tool_error, error_message

SECRET = {"description": "outside the folder", "schema": {"type": "object"}}


@pytest.fixture
def listener() -> Iterator[str]:
    """A listening socket on a random loopback port; yields its URL and fails the test if anyone connected."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.setblocking(False)
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}"
        try:
            connection, peer = server.accept()  # a completed handshake waits in the backlog
        except BlockingIOError:
            return
        connection.close()
        pytest.fail(f"a connection to the listener was made from {peer}")
    finally:
        server.close()


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The real paths of every file opened (successfully) while the test runs."""
    seen: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        handle = real_open(file, *args, **kwargs)
        if isinstance(file, (str, bytes, os.PathLike)):
            seen.append(os.fsdecode(os.path.realpath(file)))
        return handle

    def spy_os_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        fd = real_os_open(path, *args, **kwargs)
        seen.append(os.fsdecode(os.path.realpath(path)))
        return fd

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    return seen


def _failures_by_file(folder: Path) -> dict[str, Any]:
    result = load_contracts(folder)
    return {f.file: f for f in result.failures}


# --- the listener: nothing connects --------------------------------------------------------------------


def test_contracts_that_name_a_loopback_listener_never_connect_to_it(
    make_contracts_dir: Any, listener: str, tmp_path: Path
) -> None:
    folder = make_contracts_dir(
        {
            "ref.json": {"schema": {"$ref": f"{listener}/schema.json"}},
            "nested-ref.json": {"schema": {"properties": {"a": {"$ref": f"{listener}/a.json#/$defs/x"}}}},
            "dynamic-ref.json": {"schema": {"$dynamicRef": f"{listener}/meta#meta"}},
            "schema-uri.json": {"schema": {"$schema": f"{listener}/draft-07/schema#"}},
            "id-relative-ref.json": {"schema": {"$id": f"{listener}/root.json", "items": {"$ref": "item.json"}}},
            "draft7-ref.json": {
                "schema": {"$schema": "http://json-schema.org/draft-07/schema#", "items": {"$ref": f"{listener}/i"}}
            },
            # Loads: its $id only names it, and its $ref resolves inside it.
            "id-only.json": {
                "schema": {
                    "$id": f"{listener}/ticket.json",
                    "type": "object",
                    "properties": {"link": {"type": "string", "format": "uri"}, "next": {"$ref": "#"}},
                },
                "examples": [{"input": "x", "output": {"link": f"{listener}/x", "next": {}}}],
            },
        }
    )
    result = load_contracts(folder)
    lint_result(result, set())
    failures = {f.file: f for f in result.failures}
    assert sorted(failures) == [
        "draft7-ref.json",
        "dynamic-ref.json",
        "id-relative-ref.json",
        "nested-ref.json",
        "ref.json",
        "schema-uri.json",
    ]
    assert failures["ref.json"].pointer == "/schema/$ref"
    assert failures["ref.json"].message == (
        f"Invalid JSON Schema: can't resolve reference {listener}/schema.json from id #; "
        "remote references are never fetched: copy the schema into $defs"
    )
    assert failures["dynamic-ref.json"].pointer == "/schema/$dynamicRef"
    assert failures["schema-uri.json"].pointer == "/schema/$schema"
    assert failures["schema-uri.json"].message.startswith(f"Invalid JSON Schema: unknown $schema URI {listener}/")
    assert failures["id-relative-ref.json"].message.startswith(
        f"Invalid JSON Schema: can't resolve reference item.json from id {listener}/root.json"
    )
    contract = result.contracts["id-only"]
    for document in ({"link": f"{listener}/y", "next": {"next": {}}}, {"next": {"link": 5}}, f"{listener}/z"):
        validation_payload(contract, document)
        repair_payload(contract, document)
    for check in ("satisfiable", "samples-valid", "examples", "repair-hints"):
        run_check(contract, check, RunOptions(max_examples=10, derandomize=True))
    checked = CliRunner().invoke(
        main, ["check", "id-only", "-", "-c", str(folder)], input=json.dumps({"link": listener})
    )
    assert checked.exit_code == 0, checked.output


@pytest.mark.anyio
async def test_the_server_serving_a_contract_with_a_loopback_id_never_connects(serve: Any, listener: str) -> None:
    served: Served = serve(
        {"t.json": {"schema": {"$id": f"{listener}/t", "items": {"$ref": "#/$defs/i"}, "$defs": {"i": {}}}}}
    )
    async with served.client() as client:
        valid = await client.call_tool(
            "validate_json", {"contract": "t", "json": [f"{listener}/a", {"$ref": listener}]}
        )
        await client.call_tool("get_repair_contract", {"contract": "t", "invalidJson": {"$ref": f"{listener}/b"}})
        await client.read_resource("json-contract://t")
    assert (valid.structured_content or {})["valid"] is True


# --- files: $ref to paths, file: URIs, symbolic links ---------------------------------------------------


@pytest.mark.parametrize(
    ("ref", "hint"),
    [
        ("file:///etc/passwd", "remote references are never fetched"),
        ("FILE_URI", "remote references are never fetched"),
        ("/etc/passwd", "only references inside this contract (#...) are followed"),
        ("../secret.json", "only references inside this contract (#...) are followed"),
        ("./secret.json#/schema", "only references inside this contract (#...) are followed"),
        ("secret.json", "only references inside this contract (#...) are followed"),
        ("python:os.system", "only references inside this contract (#...) are followed"),
    ],
)
def test_refs_to_files_are_refused_naming_the_file_and_field_and_never_opened(
    make_contracts_dir: Any, opened: list[str], ref: str, hint: str
) -> None:
    outside = make_contracts_dir({"secret.json": SECRET}, dirname="outside")
    if ref == "FILE_URI":
        ref = (outside / "secret.json").as_uri()
    folder = make_contracts_dir({"secret.json": SECRET, "uses.json": {"schema": {"properties": {"a": {"$ref": ref}}}}})
    failure = _failures_by_file(folder)["uses.json"]
    assert failure.code == "JC019"
    assert failure.pointer == "/schema/properties/a/$ref"
    assert (failure.line, failure.column) == (5, 17)
    assert (
        failure.message
        == f"Invalid JSON Schema: can't resolve reference {ref} from id #; {hint}: copy the schema into $defs"
    )
    assert str((outside / "secret.json").resolve()) not in opened
    assert "/etc/passwd" not in opened
    assert opened.count(str((folder / "secret.json").resolve())) == 1  # read once, as a contract of its own


def test_a_symbolic_link_to_a_file_outside_is_skipped_and_never_read(
    make_contracts_dir: Any, opened: list[str]
) -> None:
    outside = make_contracts_dir({"secret.json": SECRET}, dirname="outside")
    folder = make_contracts_dir({"good.json": {"schema": {}}})
    (folder / "secret.json").symlink_to(outside / "secret.json")
    (folder / "dir.json").symlink_to(outside, target_is_directory=True)
    result = load_contracts(folder)
    assert list(result.contracts) == ["good"]
    assert {w.file: w.code for w in result.warnings} == {"dir.json": "JC001", "secret.json": "JC001"}
    assert result.warnings[0].message.startswith("Skipped symbolic link ")
    assert str((outside / "secret.json").resolve()) not in opened


def test_a_file_swapped_for_a_link_after_the_listing_is_refused_not_followed(
    make_contracts_dir: Any, opened: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The time-of-check race: the listing saw a regular file, the open meets a link (O_NOFOLLOW)."""
    outside = make_contracts_dir({"secret.json": SECRET}, dirname="outside")
    folder = make_contracts_dir({})
    (folder / "raced.json").symlink_to(outside / "secret.json")
    monkeypatch.setattr("json_contracts.contracts.loading._list_directory", lambda directory, result: ["raced.json"])
    [failure] = load_contracts(folder).failures
    assert failure.code == "JC012"
    assert failure.file == "raced.json"
    assert failure.message == f"Path escapes contracts directory: {folder / 'raced.json'}"
    assert str((outside / "secret.json").resolve()) not in opened


# --- `..` in contract names and URIs -------------------------------------------------------------------

TRAVERSALS = ["../secret", "..", "a/../secret", "..\\secret", "%2e%2e%2fsecret", "/etc/passwd", "secret/..", ".secret"]


@pytest.fixture
def guarded(serve: Any, tmp_path: Path) -> Served:
    """A server whose folder has a valid ``secret.json`` one level up, where ``..`` would lead."""
    served: Served = serve()
    (served.folder.parent / "secret.json").write_text(json.dumps(SECRET), encoding="utf-8")
    return served


@pytest.mark.anyio
@pytest.mark.parametrize("name", TRAVERSALS)
async def test_tools_refuse_a_contract_name_with_a_path_naming_the_argument(
    guarded: Served, opened: list[str], name: str
) -> None:
    async with guarded.client() as client:
        result = await client.call_tool("read_contract", {"contract": name})
    message = error_message(result)
    assert_tool_error(result, message)  # text only: an error does not match the outputSchema
    issues = json.loads(message)
    assert {"code": "custom", "message": "contract must be a safe contract name", "path": ["contract"]} in issues
    assert not any("secret.json" in path for path in opened)


@pytest.mark.anyio
@pytest.mark.parametrize("name", TRAVERSALS)
async def test_prompts_refuse_a_contract_name_with_a_path(guarded: Served, name: str) -> None:
    async with guarded.client() as client:
        with pytest.raises(MCPError) as raised:
            await client.get_prompt("json_contract_prompt", {"contract": name, "input": "x"})
    assert '"message": "contract must be a safe contract name"' in raised.value.message
    assert raised.value.code == -32602  # invalid params


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("json-contract://../secret", "Invalid contract name: ../secret"),
        ("json-contract://support-ticket/../../secret", "Invalid contract name: support-ticket/../../secret"),
        ("json-contract://%2e%2e%2fsecret", "Invalid contract name: %2e%2e%2fsecret"),
        ("json-contract:///etc/passwd", "Invalid contract name: /etc/passwd"),
        ("json-contract://..", "Invalid contract name: .."),
        ("file:///etc/passwd", "Invalid resource URI scheme: file:///etc/passwd"),
        ("json-contract://secret#x", "Invalid resource URI: json-contract://secret#x"),
    ],
)
async def test_resource_uris_with_paths_are_refused_with_the_original_messages(
    guarded: Served, opened: list[str], uri: str, message: str
) -> None:
    async with guarded.client() as client:
        with pytest.raises(MCPError) as raised:
            await client.read_resource(uri)
    assert raised.value.message == message
    assert raised.value.code == -32602  # a malformed URI is invalid params in every era
    assert not any("secret.json" in path or path == "/etc/passwd" for path in opened)


@pytest.mark.parametrize("name", TRAVERSALS)
def test_check_refuses_a_contract_name_with_a_path(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (tmp_path / "secret.json").write_text(json.dumps(SECRET), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", name, "-", "-c", str(folder)], input="{}")
    assert result.exit_code == 2
    assert result.stderr == f"Error: Invalid contract name: {name}\n"


def test_contract_files_named_with_dots_are_refused_by_name(make_contracts_dir: Any) -> None:
    folder = make_contracts_dir({"a..b.json": SECRET, "..json": SECRET, ".hidden.json": SECRET})
    failures = _failures_by_file(folder)
    assert {file: f.message for file, f in failures.items()} == {
        "a..b.json": "Invalid contract name: a..b",
        "..json": "Invalid contract name: .",
        ".hidden.json": "Invalid contract name: .hidden",
    }
    assert {f.code for f in failures.values()} == {"JC011"}
