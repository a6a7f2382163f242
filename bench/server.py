"""MCP server costs over real stdio, each as a ratio to baselines measured in the same run.

Run: python bench/server.py [--starts 20] [--calls 2000] [--pipelined 2000]

Servers compared (all spawned as fresh processes, driven with raw newline-delimited JSON-RPC
over pipes so the client's own cost stays out of the figures):

* ``ours``      — ``json-contracts`` on the starter set plus one log contract, watching on;
* ``bare-sdk``  — bench/bare_sdk_server.py: the SDK's low-level Server with one trivial tool;
* ``bare-pipe`` — bench/bare_pipe_server.py: a plain stdin/stdout loop calling our engine.

Figures: start (spawn → ``initialize`` → ``tools/list`` answered, median of N, interleaved);
``validate_json`` round trips (median and p99 over N sequential calls alternating a small valid
and a small invalid document, then N/10 alternating a 100 KiB valid and invalid one, reported
apart since validating 100 KiB is jsonschema's work, not the protocol's); pipelined throughput (N requests
written at once, calls per second until the last answer); exit after stdin closes; peak RSS
(VmHWM) after the round trips.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import init_starters, machine

BENCH = Path(__file__).resolve().parent
INITIALIZE = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
LOG_CONTRACT = {
    "description": "Bench: a log of entries.",
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "required": ["entries"],
        "properties": {
            "entries": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["t", "msg"],
                    "properties": {"t": {"type": "string", "format": "date-time"}, "msg": {"type": "string"}},
                },
            }
        },
    },
}


def _documents() -> list[tuple[str, dict[str, Any]]]:
    entry = {"t": "2026-12-01T10:00:00Z", "msg": "x" * 70}
    big_valid = {"entries": [entry] * 1100}
    big_invalid = {"entries": [*([entry] * 1099), {"t": "yesterday", "msg": 5}]}
    return [
        ("support-ticket", {"summary": "Users cannot log in after SSO", "severity": "critical", "category": "bug"}),
        ("support-ticket", {"summary": "x", "severity": "urgent"}),
        ("bench-log", big_valid),
        ("bench-log", big_invalid),
    ]


def _line(request_id: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        body["params"] = params
    return (json.dumps(body) + "\n").encode()


class Server:
    COMMANDS: ClassVar[dict[str, list[str]]] = {
        "ours": [sys.executable, "-m", "json_contracts"],
        "bare-sdk": [sys.executable, str(BENCH / "bare_sdk_server.py")],
        "bare-pipe": [sys.executable, str(BENCH / "bare_pipe_server.py")],
    }

    def __init__(self, kind: str, folder: Path) -> None:
        env = dict(os.environ, JSON_CONTRACTS_DIR=str(folder), WATCH_CONTRACTS="true")
        self.process = subprocess.Popen(
            self.COMMANDS[kind], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )

    def send(self, data: bytes) -> None:
        assert self.process.stdin
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.process.stdout
        message: dict[str, Any] = json.loads(self.process.stdout.readline())
        return message

    def ask(self, request_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.send(_line(request_id, method, params))
        while True:
            reply = self.read()
            if reply.get("id") == request_id:
                return reply

    def start(self) -> None:
        self.ask(1, "initialize", INITIALIZE)
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.ask(2, "tools/list", {})

    def peak_rss_mib(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text(encoding="utf-8")
        return int(next(x for x in status.splitlines() if x.startswith("VmHWM:")).split()[1]) / 1024

    def close(self) -> float:
        assert self.process.stdin
        began = time.perf_counter()
        self.process.stdin.close()
        self.process.wait(timeout=60)
        return time.perf_counter() - began


def _call(request_id: int, contract: str, document: Any) -> bytes:
    return _line(
        request_id, "tools/call", {"name": "validate_json", "arguments": {"contract": contract, "json": document}}
    )


def round_trips(server: Server, calls: int, documents: list[tuple[str, Any]]) -> list[float]:
    """Sequential calls cycling through ``documents``; the time of each, in order."""
    encoded = [_call(0, c, d) for c, d in documents]
    trips = []
    for i in range(calls):
        line = encoded[i % len(encoded)].replace(b'"id": 0', f'"id": {100 + i}'.encode(), 1)
        began = time.perf_counter()
        server.send(line)
        reply = server.read()
        trips.append(time.perf_counter() - began)
        assert reply.get("id") == 100 + i, reply
        assert "result" in reply, reply
    return trips


def pipelined(server: Server, calls: int) -> float:
    small = _documents()[0]
    lines = b"".join(_call(10_000 + i, *small) for i in range(calls))
    writer = threading.Thread(target=server.send, args=(lines,))
    began = time.perf_counter()
    writer.start()
    for _ in range(calls):
        server.read()
    elapsed = time.perf_counter() - began
    writer.join()
    return calls / elapsed


def _ms(values: list[float], q: float = 0.5) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--pipelined", type=int, default=2000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    kinds = list(Server.COMMANDS)
    try:
        folder = init_starters(work)
        (folder / "bench-log.json").write_text(json.dumps(LOG_CONTRACT), encoding="utf-8")
        starts: dict[str, list[float]] = {k: [] for k in kinds}
        exits: dict[str, list[float]] = {k: [] for k in kinds}
        for _ in range(args.starts):
            for kind in kinds:
                began = time.perf_counter()
                server = Server(kind, folder)
                server.start()
                starts[kind].append(time.perf_counter() - began)
                exits[kind].append(server.close())
        trips: dict[str, list[float]] = {}
        big: dict[str, list[float]] = {}
        throughput: dict[str, float] = {}
        rss: dict[str, float] = {}
        for kind in kinds:
            server = Server(kind, folder)
            server.start()
            trips[kind] = round_trips(server, args.calls, _documents()[:2])  # small valid, small invalid
            big[kind] = round_trips(server, max(20, args.calls // 10), _documents()[2:])  # 100 KiB valid, invalid
            throughput[kind] = pipelined(server, args.pipelined)
            rss[kind] = server.peak_rss_mib()
            server.close()
        print(f"machine: {machine()}")
        print(
            f"command: python bench/server.py --starts {args.starts} --calls {args.calls} --pipelined {args.pipelined}"
        )
        for kind in kinds:
            print(
                f"{kind:<10} start median {statistics.median(starts[kind]) * 1000:7.0f} ms | "
                f"small-document round trip median {_ms(trips[kind]):5.2f} ms p99 {_ms(trips[kind], 0.99):5.2f} ms | "
                f"pipelined {throughput[kind]:7.0f} calls/s | exit {statistics.median(exits[kind]) * 1000:5.0f} ms | "
                f"peak RSS {rss[kind]:5.1f} MiB"
            )
        ours_start = statistics.median(starts["ours"])
        print(f"ratio start ours/bare-sdk: {ours_start / statistics.median(starts['bare-sdk']):.2f}")
        for base in ("bare-sdk", "bare-pipe"):
            print(
                f"ratio round-trip median ours/{base}: {_ms(trips['ours']) / _ms(trips[base]):.2f}; "
                f"p99 {_ms(trips['ours'], 0.99) / _ms(trips[base], 0.99):.2f}; "
                f"throughput {throughput['ours'] / throughput[base]:.2f}"
            )
        for label, runs, index in (("small valid", trips, 0), ("small invalid", trips, 1),
                                   ("100 KiB valid", big, 0), ("100 KiB invalid", big, 1)):  # fmt: skip
            for kind in kinds:
                subset = runs[kind][index::2]
                print(f"  {label:<16}{kind:<10} median {_ms(subset):7.2f} ms  p99 {_ms(subset, 0.99):7.2f} ms")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
