"""The official TypeScript SDK client (1.32) on stdio and streamable HTTP: what agent hosts built
on it see. One client session per transport runs every tool, resource and prompt request; the
tests below each judge one part of its report.

``callTool`` in this client checks ``structuredContent`` against the tool's ``outputSchema``
itself, so a tool error must reach it as an ``isError`` result its check lets through.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.interop.support import (
    SLOW_DOCUMENT,
    SLOW_SECONDS,
    contract_names,
    drive,
    http_scenario,
    stdio_scenario,
)
from tests.support.mcp import TOOL_NAMES

TRANSPORTS = ["stdio", "http"]
#: The TypeScript SDK's SUPPORTED_PROTOCOL_VERSIONS (1.32.2), newest first.
TS_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"]
#: The handshake revisions the server speaks; any other offer is answered with the newest.
SERVER_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]


def _ticket(folder: Path) -> dict[str, Any]:
    """A valid support ticket: the starter contract's own create example."""
    contract = json.loads((folder / "support-ticket.json").read_text(encoding="utf-8"))
    output: dict[str, Any] = contract["operations"]["create"]["examples"][0]["output"]
    return output


def _steps(folder: Path) -> dict[str, dict[str, Any]]:
    """Every request of the session, by label (the report keeps their order)."""
    ticket = _ticket(folder)

    def call(name: str, **arguments: Any) -> dict[str, Any]:
        return {"op": "callTool", "name": name, "arguments": arguments}

    return {
        "list_contracts": call("list_contracts"),
        "list_contracts/extra-key": call("list_contracts", extra=1),
        "read_contract": call("read_contract", contract="support-ticket"),
        "read_contract/unknown": call("read_contract", contract="nope"),
        "get_json_contract": call("get_json_contract", contract="support-ticket", input="Login is broken"),
        "get_json_contract/disabled": call("get_json_contract", contract="no-ops", input="x"),
        "get_edit_contract": call("get_edit_contract", contract="support-ticket", currentJson=ticket, input="Raise it"),
        "get_edit_contract/invalid-current": call(
            "get_edit_contract", contract="support-ticket", currentJson={}, input="Raise it"
        ),
        "validate_json/valid": call("validate_json", contract="support-ticket", json=ticket),
        "validate_json/invalid": call("validate_json", contract="support-ticket", json={}),
        "validate_json/missing-json": call("validate_json", contract="support-ticket"),
        "get_repair_contract": call("get_repair_contract", contract="support-ticket", invalidJson={}),
        "get_repair_contract/bad-name": call("get_repair_contract", contract="../x", invalidJson={}),
        "status": call("status"),
        "status/extra-key": call("status", extra=1),
        "reload_contracts": call("reload_contracts"),
        "reload_contracts/extra-key": call("reload_contracts", extra=1),
        "unknown-tool": call("nope"),
        "resources/list": {"op": "listResources"},
        "resources/templates/list": {"op": "listResourceTemplates"},
        "resources/read": {"op": "readResource", "uri": "json-contract://support-ticket"},
        "resources/read/unknown": {"op": "readResource", "uri": "json-contract://nope"},
        "resources/read/bad-scheme": {"op": "readResource", "uri": "file:///etc/passwd"},
        "resources/read/bad-name": {"op": "readResource", "uri": "json-contract://..%2fx"},
        "prompts/list": {"op": "listPrompts"},
        "prompts/get": {
            "op": "getPrompt",
            "name": "json_contract_prompt",
            "arguments": {"contract": "support-ticket", "input": "Login is broken"},
        },
        "prompts/get/missing-arguments": {"op": "getPrompt", "name": "json_contract_prompt", "arguments": {}},
        "prompts/get/unknown": {"op": "getPrompt", "name": "nope", "arguments": {}},
        "ping": {"op": "ping"},
        # Cancellation last: abort a call that takes SLOW_SECONDS, then watch past its end.
        "cancelled": {
            "op": "abortedCall",
            "name": "validate_json",
            "arguments": {"contract": "slow", "json": SLOW_DOCUMENT},
            "abortAfterMs": 500,
            "watchMs": SLOW_SECONDS * 1000 + 2000,
        },
        "after-cancel/ping": {"op": "ping"},
        "after-cancel/status": call("status"),
    }


def _scenario(
    request: pytest.FixtureRequest, transport: str, folder: Path, steps: list[dict[str, Any]], **options: Any
) -> dict[str, Any]:
    if transport == "stdio":
        return stdio_scenario(folder, steps, **options)
    http = request.getfixturevalue("http")
    return http_scenario(http.url, steps, **options)


@pytest.fixture(scope="module", params=TRANSPORTS)
def session(request: pytest.FixtureRequest, node_modules: Path, folder: Path) -> dict[str, Any]:
    """One TypeScript client session over one transport; ``steps`` maps each label to its outcome."""
    steps = _steps(folder)
    report = drive(node_modules, _scenario(request, request.param, folder, list(steps.values())))
    assert report["connected"], report
    assert len(report["steps"]) == len(steps)
    labelled = dict(zip(steps, report["steps"], strict=True))
    return {**report, "steps": labelled, "folder": folder, "transport": request.param}


def _value(session: dict[str, Any], label: str) -> Any:
    outcome = session["steps"][label]
    assert outcome["ok"], f"{label}: {outcome['error']}"
    return outcome["value"]


def _error(session: dict[str, Any], label: str) -> dict[str, Any]:
    outcome = session["steps"][label]
    assert not outcome["ok"], f"{label} succeeded: {outcome['value']}"
    error: dict[str, Any] = outcome["error"]
    return error


def _tool_result(session: dict[str, Any], label: str) -> Any:
    """A successful tool call's structured result, after checking the text carries the same JSON."""
    value = _value(session, label)
    assert not value.get("isError"), f"{label}: {value['content']}"
    assert json.loads(value["content"][0]["text"]) == value["structuredContent"]
    return value["structuredContent"]


def _tool_error(session: dict[str, Any], label: str) -> str:
    """A tool error as the caller receives it: an ``isError`` result whose text is ``{"error": …}``."""
    value = _value(session, label)
    assert value.get("isError") is True, f"{label}: {value}"
    message: str = json.loads(value["content"][0]["text"])["error"]
    return message


def _zod_paths(message: str) -> list[list[Any]]:
    return [issue["path"] for issue in json.loads(message)]


# --- initialize ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("offer", TS_VERSIONS)
def test_initialize_negotiates_each_version_the_ts_client_offers(
    request: pytest.FixtureRequest, node_modules: Path, folder: Path, transport: str, offer: str
) -> None:
    scenario = _scenario(
        request, transport, folder, [{"op": "callTool", "name": "status", "arguments": {}}], offer=offer
    )

    report = drive(node_modules, scenario)

    assert report["connected"], report.get("error")
    assert report["offered"] == offer
    assert report["protocolVersion"] == (offer if offer in SERVER_VERSIONS else SERVER_VERSIONS[-1])
    assert report["serverInfo"]["name"] == "json-contracts"
    capabilities = report["capabilities"]
    assert set(capabilities) >= {"tools", "resources", "prompts"}
    assert [tool["name"] for tool in report["tools"]] == TOOL_NAMES
    # Every later request carries the negotiated version (on HTTP as MCP-Protocol-Version) and is served.
    [status] = report["steps"]
    assert status["ok"], status
    assert status["value"]["structuredContent"]["server"] == "json-contracts"


# --- tools -----------------------------------------------------------------------------------------------


def test_the_tools_list_carries_every_tool_with_its_schemas(session: dict[str, Any]) -> None:
    tools = {tool["name"]: tool for tool in session["tools"]}
    assert list(tools) == TOOL_NAMES
    for tool in tools.values():
        assert tool["inputSchema"]["type"] == "object"
        assert tool["outputSchema"]["type"] == "object"


def test_valid_calls_of_every_tool_return_structured_results(session: dict[str, Any]) -> None:
    folder: Path = session["folder"]
    names = contract_names(folder)
    ticket = _ticket(folder)

    listed = _tool_result(session, "list_contracts")
    assert [summary["name"] for summary in listed["contracts"]] == names
    assert _tool_result(session, "read_contract")["contract"] == "support-ticket"
    created = _tool_result(session, "get_json_contract")
    assert (created["operation"], created["input"]) == ("create", "Login is broken")
    edited = _tool_result(session, "get_edit_contract")
    assert (edited["operation"], edited["currentJson"]) == ("edit", ticket)
    assert _tool_result(session, "validate_json/valid") == {
        "valid": True,
        "contract": "support-ticket",
        "json": ticket,
        "errors": [],
    }
    assert _tool_result(session, "get_repair_contract")["repairs"]
    status = _tool_result(session, "status")
    assert (status["server"], status["loaded"]) == ("json-contracts", len(names))
    assert _tool_result(session, "reload_contracts") == {"loaded": len(names), "contracts": names}


def test_an_invalid_document_is_a_result_not_a_tool_error(session: dict[str, Any]) -> None:
    report = _tool_result(session, "validate_json/invalid")
    assert report["valid"] is False
    assert {error["path"] for error in report["errors"]} >= {"/summary", "/severity", "/category"}


def test_tool_errors_reach_the_ts_caller_with_their_message(session: dict[str, Any]) -> None:
    # The client validates structuredContent against outputSchema: a tool error whose structured
    # copy breaks that schema never reaches the caller (-32602 "Structured content does not match").
    assert _tool_error(session, "read_contract/unknown") == "Contract not found: nope"
    assert _tool_error(session, "get_json_contract/disabled") == "Contract no-ops does not enable the create operation."
    assert _tool_error(session, "get_edit_contract/invalid-current").startswith(
        "currentJson does not validate against contract support-ticket: "
    )
    assert _tool_error(session, "unknown-tool") == "Unknown tool: nope"


def test_bad_arguments_reach_the_ts_caller_as_zod_issue_lists(session: dict[str, Any]) -> None:
    assert _zod_paths(_tool_error(session, "validate_json/missing-json")) == [["json"]]
    [issue] = json.loads(_tool_error(session, "get_repair_contract/bad-name"))
    assert (issue["path"], issue["message"]) == (["contract"], "contract must be a safe contract name")
    for label in ("list_contracts/extra-key", "status/extra-key", "reload_contracts/extra-key"):
        [issue] = json.loads(_tool_error(session, label))
        assert issue["code"] == "unrecognized_keys", label


# --- resources and prompts -----------------------------------------------------------------------------------


def test_resources_are_listed_and_read(session: dict[str, Any]) -> None:
    names = contract_names(session["folder"])
    listed = _value(session, "resources/list")["resources"]
    assert [(r["name"], r["uri"]) for r in listed] == [(name, f"json-contract://{name}") for name in names]
    [template] = _value(session, "resources/templates/list")["resourceTemplates"]
    assert (template["name"], template["uriTemplate"]) == ("json-contract", "json-contract://{name}")
    [content] = _value(session, "resources/read")["contents"]
    assert (content["uri"], content["mimeType"]) == ("json-contract://support-ticket", "application/json")
    assert json.loads(content["text"])["name"] == "support-ticket"


def test_an_unknown_resource_is_resource_not_found(session: dict[str, Any]) -> None:
    error = _error(session, "resources/read/unknown")
    assert error["code"] == -32002
    assert "Contract not found: nope" in error["message"]


def test_a_malformed_resource_uri_is_an_error_naming_it(session: dict[str, Any]) -> None:
    scheme = _error(session, "resources/read/bad-scheme")
    assert "Invalid resource URI scheme: file:///etc/passwd" in scheme["message"]
    name = _error(session, "resources/read/bad-name")
    assert "Invalid contract name: ..%2fx" in name["message"]
    # A URI the server cannot resolve is the caller's mistake, never "not found".
    assert scheme["code"] != -32002
    assert name["code"] != -32002


def test_prompts_are_listed_and_rendered(session: dict[str, Any]) -> None:
    prompts = [prompt["name"] for prompt in _value(session, "prompts/list")["prompts"]]
    assert prompts == ["json_contract_prompt", "edit_contract_prompt", "repair_contract_prompt"]
    [message] = _value(session, "prompts/get")["messages"]
    assert message["role"] == "user"
    assert message["content"]["text"].startswith("Convert the input into JSON.\n")
    assert "Contract: support-ticket" in message["content"]["text"]


def test_bad_prompt_arguments_are_invalid_params(session: dict[str, Any]) -> None:
    missing = _error(session, "prompts/get/missing-arguments")
    assert missing["code"] == -32602
    assert _zod_paths(missing["message"].removeprefix("MCP error -32602: ")) == [["contract"], ["input"]]
    unknown = _error(session, "prompts/get/unknown")
    assert unknown["code"] == -32602
    assert "Unknown prompt: nope" in unknown["message"]


# --- ping and cancellation --------------------------------------------------------------------------------


def test_ping_answers_empty(session: dict[str, Any]) -> None:
    assert _value(session, "ping") == {}


def test_an_aborted_call_is_cancelled_and_the_session_goes_on(session: dict[str, Any]) -> None:
    cancelled = _value(session, "cancelled")
    assert cancelled["settled"] == "rejected"
    assert cancelled["error"]["name"] == "AbortError" or "the user gave up" in cancelled["error"]["message"]
    assert cancelled["cancelSent"] is True
    if session["transport"] == "stdio":
        # The server drops a cancelled request: no answer arrives, even after the call would have ended.
        # (On stateless HTTP the SDK 1.32 client keeps the POST open and the notification comes on
        # another request; the late answer may arrive there, and the client ignores it.)
        assert cancelled["answered"] is False
    assert _value(session, "after-cancel/ping") == {}
    assert _tool_result(session, "after-cancel/status")["server"] == "json-contracts"
