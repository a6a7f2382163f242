"""The MCP Inspector's CLI mode (``mcp-inspector --cli``, 2.12) against a real server on stdio and
streamable HTTP: one command per method, as a developer runs it. Its JSON goes to stdout; a failure
is ``{"error": …}`` on stderr with exit code 1."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.interop.support import (
    InspectorRun,
    contract_names,
    inspect,
    json_contracts_command,
    server_env,
)
from tests.support.mcp import TOKEN

#: Each command the tests judge: its label, and the Inspector arguments after the target.
COMMANDS: dict[str, list[str]] = {
    "initialize": ["--method", "initialize"],
    "tools/list": ["--method", "tools/list"],
    "tools/call": [
        "--method",
        "tools/call",
        "--tool-name",
        "validate_json",
        "--tool-arg",
        "contract=support-ticket",
        'json={"summary": "Login broken", "severity": "high", "category": "bug"}',
    ],
    "tools/call/error": ["--method", "tools/call", "--tool-name", "read_contract", "--tool-arg", "contract=nope"],
    "resources/list": ["--method", "resources/list"],
    "resources/templates/list": ["--method", "resources/templates/list"],
    "resources/read": ["--method", "resources/read", "--uri", "json-contract://support-ticket"],
    "resources/read/unknown": ["--method", "resources/read", "--uri", "json-contract://nope"],
    "prompts/list": ["--method", "prompts/list"],
    "prompts/get": [
        "--method",
        "prompts/get",
        "--prompt-name",
        "json_contract_prompt",
        "--prompt-args",
        "contract=support-ticket",
        "input=Login is broken",
    ],
}


def _target(request: pytest.FixtureRequest, transport: str, folder: Path) -> list[str]:
    if transport == "stdio":
        env = [arg for key, value in server_env(folder).items() for arg in ("-e", f"{key}={value}")]
        return [*env, json_contracts_command(), "serve"]
    http = request.getfixturevalue("http")
    return [http.url, "--transport", "http", "--header", f"Authorization: Bearer {TOKEN}"]


@pytest.fixture(scope="module", params=["stdio", "http"])
def runs(
    request: pytest.FixtureRequest, node_modules: Path, folder: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, InspectorRun]:
    """Every command of :data:`COMMANDS` over one transport, run a few at a time."""
    target = _target(request, request.param, folder)
    home = tmp_path_factory.mktemp("inspector")
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {label: pool.submit(inspect, node_modules, home, *target, *args) for label, args in COMMANDS.items()}
        return {label: future.result() for label, future in futures.items()}


def _ok(runs: dict[str, InspectorRun], label: str) -> Any:
    run = runs[label]
    assert run.returncode == 0, f"{label}: exit {run.returncode}\n{run.stderr}"
    return run.json()


def test_the_inspector_connects_and_negotiates(runs: dict[str, InspectorRun]) -> None:
    initialized = _ok(runs, "initialize")
    assert initialized["serverInfo"]["name"] == "json-contracts"
    assert initialized["protocolVersion"] in {"2025-11-25", "2026-07-28"}
    assert set(initialized["capabilities"]) >= {"tools", "resources", "prompts"}


def test_the_inspector_lists_and_calls_tools(runs: dict[str, InspectorRun]) -> None:
    assert len(_ok(runs, "tools/list")["tools"]) == 8
    result = _ok(runs, "tools/call")
    assert result["structuredContent"]["valid"] is True
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]


def test_the_inspector_shows_a_tool_error_with_its_message(runs: dict[str, InspectorRun]) -> None:
    # The Inspector checks structuredContent against outputSchema too; an error must pass that check.
    run = runs["tools/call/error"]
    shown = run.stdout + run.stderr
    assert "Contract not found: nope" in shown, shown
    assert "data must have required property" not in shown


def test_the_inspector_lists_and_reads_resources(runs: dict[str, InspectorRun], folder: Path) -> None:
    listed = _ok(runs, "resources/list")["resources"]
    assert [resource["name"] for resource in listed] == contract_names(folder)
    [template] = _ok(runs, "resources/templates/list")["resourceTemplates"]
    assert template["uriTemplate"] == "json-contract://{name}"
    [content] = _ok(runs, "resources/read")["contents"]
    assert json.loads(content["text"])["name"] == "support-ticket"
    unknown = runs["resources/read/unknown"]
    assert unknown.returncode == 1
    assert "Contract not found: nope" in unknown.stderr


def test_the_inspector_lists_and_renders_prompts(runs: dict[str, InspectorRun]) -> None:
    prompts = [prompt["name"] for prompt in _ok(runs, "prompts/list")["prompts"]]
    assert prompts == ["json_contract_prompt", "edit_contract_prompt", "repair_contract_prompt"]
    [message] = _ok(runs, "prompts/get")["messages"]
    assert "Input:\nLogin is broken" in message["content"]["text"]


def test_the_inspector_without_the_token_is_refused(node_modules: Path, http: Any, tmp_path: Path) -> None:
    # --stored-auth-only: on a 401 the Inspector would otherwise start an interactive OAuth flow.
    args = ["--transport", "http", "--stored-auth-only", "--method", "tools/list"]
    run = inspect(node_modules, tmp_path, http.url, *args)
    assert run.returncode != 0
    assert json.loads(run.stderr)["error"]["code"] == "auth_required"
    assert "Send Authorization: Bearer <API_AUTH_TOKEN>." in run.stderr
