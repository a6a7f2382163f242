"""The agent side of json-contracts: ask for a contract, let a model write JSON, validate, repair.

    python examples/python-client/agent_loop.py [CONTRACTS_DIR] [CONTRACT]

It starts `json-contracts` over stdio with the official MCP client and runs the loop an agent
should follow. The model call is a placeholder, `call_your_model`: replace it with your model
(any provider). The stand-in here returns a deliberately flawed first draft and then fixes it
using only the repair contract, so the whole loop runs offline against the starter contracts.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client


def call_your_model(payload: dict[str, Any]) -> Any:
    """PLACEHOLDER: send the payload (instructions, schema, rules, examples, input) to your model.

    Return the JSON value it wrote. This stand-in fakes a model so the example runs offline:
    for a create payload it returns the first example's output with one required field
    removed and one value spoiled; for a repair payload it applies the machine-readable
    ``repairs`` to the invalid JSON.
    """
    if "invalidJson" in payload:
        return _apply_repairs(payload["invalidJson"], payload["repairs"])
    draft = copy.deepcopy(payload["examples"][0]["output"])
    required = payload["schema"].get("required", [])
    if required:
        draft.pop(required[0], None)
    draft["unexpected_field"] = True
    return draft


def _apply_repairs(document: Any, repairs: list[dict[str, Any]]) -> Any:
    fixed = copy.deepcopy(document)
    for repair in repairs:
        parts = [p.replace("~1", "/").replace("~0", "~") for p in repair["path"].split("/")[1:]]
        if not parts:
            continue
        parent = fixed
        for part in parts[:-1]:
            parent = parent[int(part)] if isinstance(parent, list) else parent[part]
        key = parts[-1]
        if repair["action"] == "remove" and isinstance(parent, dict):
            parent.pop(key, None)
        elif repair["action"] in ("add", "replace", "set-type"):
            parent[key] = _a_value(repair)
    return fixed


def _a_value(repair: dict[str, Any]) -> Any:
    if repair.get("allowed"):
        return repair["allowed"][0]
    defaults = {
        "string": "unknown",
        "integer": 0,
        "number": 0,
        "boolean": False,
        "array": [],
        "object": {},
        "null": None,
    }
    return defaults.get((repair.get("types") or ["string"])[0], "unknown")


async def run(contracts_dir: str, contract: str) -> bool:
    env = dict(os.environ, JSON_CONTRACTS_DIR=contracts_dir, WATCH_CONTRACTS="false")
    server = StdioServerParameters(command=sys.executable, args=["-m", "json_contracts"], env=env)
    async with Client(stdio_client(server)) as client:
        create = await client.call_tool(
            "get_json_contract",
            {"contract": contract, "input": "Urgent: nobody can log in since this morning.", "context": {}},
        )
        document = call_your_model(create.structured_content or {})
        for attempt in range(1, 4):
            report = (
                await client.call_tool("validate_json", {"contract": contract, "json": document})
            ).structured_content
            assert report is not None
            if report["valid"]:
                print(f"attempt {attempt}: valid")
                print(json.dumps(document, indent=2, ensure_ascii=False))
                return True
            print(f"attempt {attempt}: {len(report['errors'])} error(s); asking for a repair contract")
            repair = await client.call_tool(
                "get_repair_contract",
                {"contract": contract, "invalidJson": document, "validationErrors": report["errors"]},
            )
            document = call_your_model(repair.structured_content or {})
    return False


def main() -> None:
    contracts_dir = sys.argv[1] if len(sys.argv) > 1 else "json-contracts"
    contract = sys.argv[2] if len(sys.argv) > 2 else "support-ticket"
    sys.exit(0 if anyio.run(run, contracts_dir, contract) else 1)


if __name__ == "__main__":
    main()
