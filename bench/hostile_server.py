"""A hostile client beside a well-behaved one: the real server over HTTP and stdio.

Over HTTP, one client calls ``validate_json`` on a small document in a loop, first alone, then
while a hostile client sends its worst documents (a 1 MiB value for the catastrophic pattern
``^(a+)+$``, a 1 MiB document nested 63 levels deep, a 1 MiB repair echo); the well-behaved
client's p50/p99 are printed for both, with the hostile answers' sizes. Then the hostile client
makes ``--calls`` cheaper hostile calls (deep, long keys, thousands of errors, a repeated enum,
unusable ids) over HTTP and over stdio, and the server's RSS is sampled every ``--calls / 10``
calls: it must stay flat. The default run takes about three minutes.

    python bench/hostile_server.py [--calls 10000] [--good 300]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine

MIB = 1024 * 1024
ENUM = [f"value-{i:05d}-" + "x" * 90 for i in range(200)]  # 20 KB of allowed values
CONTRACTS: dict[str, Any] = {
    "ticket": {
        "schema": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"summary": {"type": "string"}, "severity": {"enum": ["low", "high"]}},
            "required": ["summary", "severity"],
        }
    },
    "evil": {"schema": {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}}}},
    "strict": {"schema": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": False}}},
    "nest": {"schema": {"anyOf": [{"type": "number"}, {"type": "array", "items": {"$ref": "#"}}]}},
    "choices": {"schema": {"type": "object", "properties": {"e": {"type": "array", "items": {"enum": ENUM}}}}},
}
GOOD = {"summary": "Login broken", "severity": "high"}


def nested(depth: int, size: int) -> list[Any]:
    document: list[Any] = [0] * (size // 2)
    for _ in range(depth - 1):
        document = [document]
    return document


def call(request_id: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": tool, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def worst_calls() -> list[tuple[str, dict[str, Any]]]:
    """The hostile client's worst documents, each just under the 1 MiB argument limit."""
    evil = {"contract": "evil", "json": {"code": "a" * (MIB - 100) + "!"}}
    deep = {"contract": "nest", "json": nested(63, MIB - 4096)}
    echo = {"contract": "ticket", "invalidJson": nested(63, MIB - 4096)}
    return [
        ("catastrophic pattern, 1 MiB value", call(0, "validate_json", evil)),
        ("1 MiB nested 63 deep, valid", call(0, "validate_json", deep)),
        ("1 MiB repair echo, 63 deep", call(0, "get_repair_contract", echo)),
    ]


def cheap_hostile_lines() -> list[bytes]:
    """Hostile calls cheap enough to make thousands of: the same shapes, a few KiB each."""
    calls = [
        call(0, "get_repair_contract", {"contract": "ticket", "invalidJson": nested(63, 400)}),
        call(0, "validate_json", {"contract": "strict", "json": {"k" * 5_000: {f"x{i}": 0 for i in range(50)}}}),
        call(0, "validate_json", {"contract": "ticket", "json": {f"k{i}": 0 for i in range(100)}}),
        call(0, "get_repair_contract", {"contract": "choices", "invalidJson": {"e": ["z"] * 5}}),
        call(0, "validate_json", {"contract": "evil", "json": {"code": "a" * 40 + "!"}}),
    ]
    lines = [json.dumps(c).encode() for c in calls]
    lines += [b'{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"status"}}']
    lines += [b'{"jsonrpc":"2.0","id":null,"method":"ping"}']
    return lines


def write_folder(root: Path) -> Path:
    folder = root / "json-contracts"
    folder.mkdir()
    for name, body in CONTRACTS.items():
        (folder / f"{name}.json").write_text(json.dumps(body), encoding="utf-8")
    return folder


def env_for(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN"}}
    env.update({"JSON_CONTRACTS_DIR": str(folder), "WATCH_CONTRACTS": "false"})
    return env


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(port: int, body: bytes, timeout: float = 120) -> bytes:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp",
        data=body,
        headers={"content-type": "application/json", "accept": "application/json, text/event-stream"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return bytes(response.read())


def start_http(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    command = [sys.executable, "-m", "json_contracts", "serve", "--transport", "http", "--port", str(port)]
    process = subprocess.Popen(command, env=env_for(folder), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the HTTP server did not start")


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def good_latencies(port: int, count: int) -> list[float]:
    body = json.dumps(call(1, "validate_json", {"contract": "ticket", "json": GOOD})).encode()
    samples = []
    for _ in range(count):
        started = time.perf_counter()
        post(port, body)
        samples.append(time.perf_counter() - started)
    return samples


def http_phase(folder: Path, good: int, calls: int) -> None:
    process, port = start_http(folder)
    try:
        post(port, json.dumps(call(1, "status", {})).encode())
        alone = good_latencies(port, good)
        worst = [(label, json.dumps(body).encode()) for label, body in worst_calls()]
        sizes: dict[str, tuple[int, float]] = {}
        stop = threading.Event()

        def hostile() -> None:
            while not stop.is_set():
                for label, body in worst:
                    started = time.perf_counter()
                    answer = post(port, body)
                    sizes[label] = (len(answer), time.perf_counter() - started)
                    if stop.is_set():
                        return

        thread = threading.Thread(target=hostile, daemon=True)
        thread.start()
        time.sleep(0.5)
        beside = good_latencies(port, good)
        stop.set()
        thread.join(timeout=120)
        peak = rss_mib(process.pid)

        print("\nHTTP: the well-behaved client's validate_json (small document)")
        print(f"| {'run':<32} | {'calls':>6} | {'p50 ms':>7} | {'p99 ms':>7} |")
        print(f"|{'-' * 34}|{'-' * 8}|{'-' * 9}|{'-' * 9}|")
        for label, samples in (("alone", alone), ("beside the hostile client", beside)):
            p50, p99 = percentiles(samples)
            print(f"| {label:<32} | {len(samples):>6} | {p50:>7.1f} | {p99:>7.1f} |")
        print("\nHTTP: the hostile client's worst calls (last round)")
        print(f"| {'call':<32} | {'answer MiB':>10} | {'seconds':>7} |")
        print(f"|{'-' * 34}|{'-' * 12}|{'-' * 9}|")
        for label, (size, seconds) in sizes.items():
            print(f"| {label:<32} | {size / MIB:>10.2f} | {seconds:>7.2f} |")
        print(f"server RSS after the worst calls: {peak:.0f} MiB")
        rss_over_calls("HTTP", process.pid, calls, lambda line: post(port, line))
    finally:
        process.terminate()
        process.wait(timeout=30)


def rss_over_calls(label: str, pid: int, calls: int, send: Any) -> None:
    lines = cheap_hostile_lines()
    step = max(1, calls // 10)
    print(f"\n{label}: server RSS over {calls} cheaper hostile calls")
    print(f"| {'calls':>7} | {'RSS MiB':>8} | {'seconds':>7} |")
    print(f"|{'-' * 9}|{'-' * 10}|{'-' * 9}|")
    started = time.perf_counter()
    print(f"| {0:>7} | {rss_mib(pid):>8.1f} | {0.0:>7.1f} |")
    for i in range(1, calls + 1):
        send(lines[i % len(lines)])
        if i % step == 0:
            print(f"| {i:>7} | {rss_mib(pid):>8.1f} | {time.perf_counter() - started:>7.1f} |", flush=True)


def stdio_phase(folder: Path, calls: int) -> None:
    command = [sys.executable, "-m", "json_contracts"]
    process = subprocess.Popen(
        command, env=env_for(folder), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert process.stdin is not None
    assert process.stdout is not None
    initialize = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}},
    }
    process.stdin.write(json.dumps(initialize).encode() + b"\n")
    process.stdin.flush()
    process.stdout.readline()

    batch: list[bytes] = []

    def send(line: bytes) -> None:  # pipelined, 50 lines at a time; each line is answered once
        assert process.stdin is not None
        assert process.stdout is not None
        batch.append(line)
        if len(batch) == 50:
            process.stdin.write(b"".join(item + b"\n" for item in batch))
            process.stdin.flush()
            for _ in batch:
                process.stdout.readline()
            batch.clear()

    try:
        rss_over_calls("stdio", process.pid, calls, send)
    finally:
        process.stdin.close()
        process.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000, help="cheaper hostile calls per transport")
    parser.add_argument("--good", type=int, default=300, help="well-behaved calls per latency run")
    options = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as work:
        folder = write_folder(Path(work))
        http_phase(folder, options.good, options.calls)
        stdio_phase(folder, options.calls)


if __name__ == "__main__":
    main()
