"""The floor without the SDK: a newline-delimited JSON-RPC loop over stdin/stdout calling our engine.

Answers ``initialize``, ``tools/list`` (empty) and ``tools/call validate_json`` with the same
payload as the real server, so the difference to bench/server.py's figures is the SDK's cost.
"""

from __future__ import annotations

import json
import os
import sys

from json_contracts._json.text import dumps
from json_contracts.agent.payloads import validation_payload
from json_contracts.contracts.loading import load_contracts


def main() -> None:
    contracts = load_contracts(os.environ["JSON_CONTRACTS_DIR"]).contracts
    out = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        if "id" not in request:
            continue
        method = request["method"]
        if method == "initialize":
            result = {"protocolVersion": request["params"]["protocolVersion"], "capabilities": {"tools": {}},
                      "serverInfo": {"name": "bare-pipe", "version": "0"}}  # fmt: skip
        elif method == "tools/call":
            arguments = request["params"]["arguments"]
            payload = validation_payload(contracts[arguments["contract"]], arguments["json"])
            result = {"content": [{"type": "text", "text": dumps(payload)}], "structuredContent": payload}
        else:
            result = {"tools": []}
        out.write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
