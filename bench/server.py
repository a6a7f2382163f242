"""MCP server costs over real stdio: start-up, validate_json round trips, exit, memory.

Run: python bench/server.py [--starts 10] [--calls 1000]

* start: spawn `json-contracts` → `initialize` answered → `tools/list` answered (median of N);
* round trip: sequential `tools/call validate_json` on the starter support-ticket contract,
  alternating a valid and an invalid document (median and p99 over N calls);
* exit: stdin closed → process gone, with watching on (the original never exits here);
* peak RSS of the server process after the round trips (from /proc, VmHWM).

Raw newline-delimited JSON-RPC over pipes, so the client's own cost stays out of the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _message(request_id: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        body["params"] = params
    return (json.dumps(body) + "\n").encode()


INITIALIZE = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
VALID = {"summary": "Users cannot log in after the SSO update", "severity": "critical", "category": "authentication"}
INVALID = {"summary": "x", "severity": "urgent"}


class Server:
    def __init__(self, folder: Path, watch: bool) -> None:
        env = dict(os.environ, JSON_CONTRACTS_DIR=str(folder), WATCH_CONTRACTS="true" if watch else "false")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "json_contracts"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )

    def ask(self, request_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self.process.stdin
        assert self.process.stdout
        self.process.stdin.write(_message(request_id, method, params))
        self.process.stdin.flush()
        while True:
            reply: dict[str, Any] = json.loads(self.process.stdout.readline())
            if reply.get("id") == request_id:
                return reply

    def notify_initialized(self) -> None:
        assert self.process.stdin
        self.process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.process.stdin.flush()

    def peak_rss_mib(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text(encoding="utf-8")
        line = next(x for x in status.splitlines() if x.startswith("VmHWM:"))
        return int(line.split()[1]) / 1024

    def close(self) -> float:
        assert self.process.stdin
        started = time.perf_counter()
        self.process.stdin.close()
        self.process.wait(timeout=60)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--calls", type=int, default=1000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    try:
        subprocess.run(
            [sys.executable, "-m", "json_contracts", "init"], cwd=work, check=True, stdout=subprocess.DEVNULL
        )
        folder = work / "json-contracts"
        starts, exits = [], []
        for _ in range(args.starts):
            began = time.perf_counter()
            server = Server(folder, watch=True)
            server.ask(1, "initialize", INITIALIZE)
            server.notify_initialized()
            server.ask(2, "tools/list", {})
            starts.append(time.perf_counter() - began)
            exits.append(server.close())
        server = Server(folder, watch=True)
        server.ask(1, "initialize", INITIALIZE)
        server.notify_initialized()
        trips = []
        for i in range(args.calls):
            document = VALID if i % 2 else INVALID
            began = time.perf_counter()
            reply = server.ask(
                10 + i,
                "tools/call",
                {"name": "validate_json", "arguments": {"contract": "support-ticket", "json": document}},
            )
            trips.append(time.perf_counter() - began)
            assert "result" in reply, reply
        rss = server.peak_rss_mib()
        server.close()
        trips.sort()
        cpu = platform.processor() or platform.machine()
        print(f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}")
        print(
            f"start (spawn -> tools/list answered), median of {args.starts}: {statistics.median(starts) * 1000:.0f} ms"
        )
        print(f"exit after stdin closes (watching), median of {args.starts}: {statistics.median(exits) * 1000:.0f} ms")
        print(f"validate_json round trip, median of {args.calls}: {statistics.median(trips) * 1000:.2f} ms")
        print(f"validate_json round trip, p99 of {args.calls}: {trips[int(len(trips) * 0.99) - 1] * 1000:.2f} ms")
        print(f"peak RSS after the round trips: {rss:.0f} MiB")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
