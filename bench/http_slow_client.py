"""One slow client among many over HTTP: does a ~1 s ``validate_json`` slow everyone else down?

Run: python bench/http_slow_client.py [--clients 49] [--seconds 10] [--rounds 2] [--json]

Starts ``json-contracts serve --transport http`` on 127.0.0.1 (a free port, ``API_AUTH_TOKEN`` set,
watching off) over two contracts: ``ticket`` (a small object) and ``slow`` (an array whose items
must match one of 40 patterns). ``--clients`` well-behaved keep-alive connections send
``validate_json`` of a small ticket back to back, alternating a valid and an invalid one. In the
"with the slow client" phases, one more connection sends, back to back, a 31 KB array of 2,200
strings that each match only the 40th pattern: about 1 s of validation per call, all of it Python
work in a worker thread. Phases alternate (alone, with, alone, with, ...) on the same server, so
both figures come from one run on the same machine state.

Figures: the well-behaved clients' latency p50/p99/max (send to last byte) and requests/s per
phase, the p99 ratio (with / alone), and the slow client's calls and median seconds. Every answer
is checked (HTTP 200, a result, ``valid`` as expected); anything else counts as an error. The
clients share the machine's cores with the server. Loopback only; nothing leaves the machine.

On Linux it also reports, per phase, the CPU the server's event loop thread and its other threads
(the workers) used, in cores (``/proc/<pid>/task``), and the load average at the end: one
interpreter serves everyone, so the others' throughput follows the event loop's share of it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import free_port, machine, start_http_server

TOKEN = "bench-token-" + os.urandom(8).hex()
PATTERNS = 40
SLOW_ITEMS = 2_200
CONTRACTS: dict[str, Any] = {
    "ticket": {
        "schema": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"summary": {"type": "string", "maxLength": 80}, "severity": {"enum": ["low", "high"]}},
            "required": ["summary", "severity"],
        }
    },
    "slow": {
        "schema": {
            "type": "array",
            "items": {"anyOf": [{"type": "string", "pattern": f"^k{i}-[a-z]+-{i}$"} for i in range(PATTERNS)]},
        }
    },
}
VALID = {"summary": "Login broken", "severity": "high"}
INVALID = {"summary": "x" * 200, "severity": "whenever"}
SLOW = [f"k{PATTERNS - 1}-{'abcdefgh'[i % 8] * 3}-{PATTERNS - 1}" for i in range(SLOW_ITEMS)]


def request_bytes(port: int, request_id: int, contract: str, document: Any) -> bytes:
    call = {"name": "validate_json", "arguments": {"contract": contract, "json": document}}
    body = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": call}).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> tuple[int, bytes]:
    """Send one request on a keep-alive connection and read its whole answer."""
    writer.write(request)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = next(int(x.split(":", 1)[1]) for x in lines[1:] if x.lower().startswith("content-length:"))
    return status, await reader.readexactly(length)


def valid_answer(status: int, body: bytes) -> bool | None:
    """``valid`` from a ``validate_json`` answer, or None when it is not a proper answer."""
    if status != 200:
        return None
    result = json.loads(body).get("result") or {}
    if result.get("isError"):
        return None
    return bool((result.get("structuredContent") or {}).get("valid"))


async def well_behaved(port: int, number: int, until: float, samples: list[float], errors: list[str]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    requests = [request_bytes(port, number * 2 + k, "ticket", doc) for k, doc in enumerate((VALID, INVALID))]
    turn = 0
    try:
        while time.monotonic() < until:
            started = time.perf_counter()
            status, body = await exchange(reader, writer, requests[turn])
            samples.append(time.perf_counter() - started)
            if valid_answer(status, body) is not (turn == 0):
                errors.append(f"{status} {body[:120]!r}")
            turn ^= 1
    finally:
        writer.close()


async def slow_client(port: int, stop: asyncio.Event, seconds: list[float], errors: list[str]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = request_bytes(port, 1, "slow", SLOW)
    try:
        while not stop.is_set():
            started = time.perf_counter()
            status, body = await exchange(reader, writer, request)
            seconds.append(time.perf_counter() - started)
            if valid_answer(status, body) is not True:
                errors.append(f"slow: {status} {body[:120]!r}")
    finally:
        writer.close()


def thread_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds so far of the main thread (the event loop) and of all other threads; zeros off Linux."""
    tasks = Path(f"/proc/{pid}/task")
    if not tasks.is_dir():
        return 0.0, 0.0
    loop = others = 0.0
    for task in tasks.iterdir():
        try:
            fields = (task / "stat").read_text(encoding="ascii").rpartition(")")[2].split()
        except OSError:  # the thread ended while being read
            continue
        used = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        if task.name == str(pid):
            loop += used
        else:
            others += used
    return loop, others


async def phase(port: int, clients: int, seconds: float, with_slow: bool, tally: dict[str, Any]) -> None:
    stop = asyncio.Event()
    slow = asyncio.create_task(slow_client(port, stop, tally["slow_seconds"], tally["errors"])) if with_slow else None
    if slow is not None:
        await asyncio.sleep(0.2)  # its first call is being validated when the others start
    until = time.monotonic() + seconds
    key = "with" if with_slow else "alone"
    started, (loop_before, others_before) = time.perf_counter(), thread_cpu(tally["pid"])
    await asyncio.gather(*(well_behaved(port, n, until, tally[key], tally["errors"]) for n in range(clients)))
    tally[f"{key}_elapsed"] += time.perf_counter() - started
    loop_after, others_after = thread_cpu(tally["pid"])
    tally[f"{key}_loop_cpu"] = tally.get(f"{key}_loop_cpu", 0.0) + loop_after - loop_before
    tally[f"{key}_others_cpu"] = tally.get(f"{key}_others_cpu", 0.0) + others_after - others_before
    stop.set()
    if slow is not None:
        await slow  # its last call finishes before the next phase starts


def figures(samples: list[float], elapsed: float) -> dict[str, float]:
    ordered = sorted(samples)

    def at(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(len(ordered) * p))] * 1000

    return {
        "requests": len(ordered),
        "per_second": round(len(ordered) / elapsed, 1),
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p99_ms": round(at(0.99), 2),
        "max_ms": round(ordered[-1] * 1000, 2),
    }


async def drive(port: int, pid: int, clients: int, seconds: float, rounds: int) -> dict[str, Any]:
    tally: dict[str, Any] = {"alone": [], "with": [], "slow_seconds": [], "errors": [], "alone_elapsed": 0.0}
    tally.update(with_elapsed=0.0, pid=pid)
    warm: dict[str, Any] = {"alone": [], "errors": [], "alone_elapsed": 0.0, "slow_seconds": [], "pid": pid}
    await phase(port, clients, 1.0, False, warm)
    for _ in range(rounds):
        await phase(port, clients, seconds, False, tally)
        await phase(port, clients, seconds, True, tally)
    alone = figures(tally["alone"], tally["alone_elapsed"])
    beside = figures(tally["with"], tally["with_elapsed"])
    for row, key in ((alone, "alone"), (beside, "with")):
        row["loop_cores"] = round(tally[f"{key}_loop_cpu"] / tally[f"{key}_elapsed"], 2)
        row["worker_cores"] = round(tally[f"{key}_others_cpu"] / tally[f"{key}_elapsed"], 2)
    return {
        "machine": machine(),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "clients": clients,
        "seconds_per_phase": seconds,
        "rounds": rounds,
        "alone": alone,
        "with_slow_client": beside,
        "p99_ratio": round(beside["p99_ms"] / alone["p99_ms"], 2),
        "slow_calls": len(tally["slow_seconds"]),
        "slow_median_s": round(statistics.median(tally["slow_seconds"]), 2) if tally["slow_seconds"] else None,
        "errors": len(tally["errors"]),
        "error_examples": tally["errors"][:3],
    }


def run(clients: int, seconds: float, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "json-contracts"
        folder.mkdir()
        for name, body in CONTRACTS.items():
            (folder / f"{name}.json").write_text(json.dumps(body), encoding="utf-8")
        port = free_port()
        process = start_http_server(folder, port, TOKEN, watch=False)
        try:
            return asyncio.run(drive(port, process.pid, clients, seconds, rounds))
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=49, help="well-behaved clients (default 49)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase (default 10)")
    parser.add_argument("--rounds", type=int, default=2, help="alone/with pairs of phases (default 2)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()
    result = run(options.clients, options.seconds, options.rounds)
    if options.json:
        print(json.dumps(result, indent=2))
        return
    print(result["machine"])
    print(
        f"{result['clients']} well-behaved clients, validate_json of a small ticket; "
        f"{result['rounds']} x {result['seconds_per_phase']:g} s per phase\n"
    )
    print(
        f"| {'phase':<28} | {'requests':>8} | {'req/s':>7} | {'p50 ms':>7} | {'p99 ms':>7} | {'max ms':>7} "
        f"| {'loop cores':>10} | {'worker cores':>12} |"
    )
    print(f"|{'-' * 30}|{'-' * 10}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 12}|{'-' * 14}|")
    for label, key in (("alone", "alone"), ("with the slow client", "with_slow_client")):
        row = result[key]
        print(
            f"| {label:<28} | {row['requests']:>8} | {row['per_second']:>7.1f} | {row['p50_ms']:>7.2f} "
            f"| {row['p99_ms']:>7.2f} | {row['max_ms']:>7.1f} | {row['loop_cores']:>10.2f} "
            f"| {row['worker_cores']:>12.2f} |"
        )
    print(f"\np99 with / alone: {result['p99_ratio']:.2f}; load average at the end: {result['load_average']}")
    print(f"slow client: {result['slow_calls']} calls, median {result['slow_median_s']} s each")
    print(f"errors: {result['errors']}" + (f" e.g. {result['error_examples']}" if result["errors"] else ""))


if __name__ == "__main__":
    main()
