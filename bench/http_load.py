"""HTTP load: concurrent clients calling ``validate_json`` against a real token-gated HTTP server.

Run: python bench/http_load.py [--clients 50] [--seconds 30] [--json]

Starts ``json-contracts serve --transport http`` on 127.0.0.1 (a free port, ``API_AUTH_TOKEN``
set, watching on, the starter contracts), then runs ``--clients`` keep-alive connections from one
asyncio process, each sending ``tools/call validate_json`` requests back to back for
``--seconds``, alternating a valid and an invalid support ticket. Every answer is checked: HTTP
200, a JSON-RPC result, no ``isError``, and ``valid`` as expected for the document sent; anything
else counts as an error, by kind.

Figures: requests, errors, requests/s, latency p50/p90/p99/max (send to last byte), and the
server's resident memory (VmRSS) idle before the first request, after a 1 s warm-up ("start"),
half way and at the end; memory is flat when start, middle and end agree. The client is a
minimal HTTP/1.1 writer/reader on raw sockets so that its own cost stays small; it shares the
machine's cores with the server. Loopback only; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import free_port, init_starters, machine, start_http_server

TOKEN = "bench-token-" + os.urandom(8).hex()
VALID = {
    "summary": "Users cannot log in after SSO update",
    "severity": "critical",
    "category": "authentication",
    "affected_users": "all_users",
    "tags": ["sso", "login"],
}
INVALID = {"summary": "x" * 200, "severity": "whenever"}


def rss_mib(pid: int) -> float:
    """The process's resident set size now (Linux ``/proc``), in MiB."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    return int(next(x for x in status.splitlines() if x.startswith("VmRSS:")).split()[1]) / 1024


def request_bytes(port: int, request_id: int, document: dict[str, Any]) -> bytes:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": "validate_json", "arguments": {"contract": "support-ticket", "json": document}},
        }
    ).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"MCP-Protocol-Version: 2025-11-25\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One HTTP/1.1 response: status and body (Content-Length or chunked)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    if "content-length" in headers:
        return status, await reader.readexactly(int(headers["content-length"]))
    body = b""
    while True:  # chunked
        size = int((await reader.readuntil(b"\r\n")).strip(), 16)
        chunk = await reader.readexactly(size + 2)
        if size == 0:
            return status, body
        body += chunk[:-2]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    warm: bool = False  # latencies count only after the warm-up


def check(status: int, body: bytes, request_id: int, expect_valid: bool) -> str | None:
    """What is wrong with one answer, or None."""
    if status != 200:
        return f"HTTP {status}"
    try:
        message = json.loads(body)
    except ValueError:
        return "unreadable body"
    if message.get("id") != request_id:
        return "answer to another request"
    if "result" not in message:
        return f"JSON-RPC error {message.get('error', {}).get('code')}"
    result = message["result"]
    if result.get("isError"):
        return "isError"
    if result.get("structuredContent", {}).get("valid") is not expect_valid:
        return "wrong verdict"
    return None


async def client(port: int, number: int, deadline: float, tally: Tally) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request_id = number * 10_000_000
    try:
        while time.perf_counter() < deadline:
            request_id += 1
            expect_valid = request_id % 2 == 0
            data = request_bytes(port, request_id, VALID if expect_valid else INVALID)
            started = time.perf_counter()
            try:
                writer.write(data)
                await writer.drain()
                status, body = await read_response(reader)
            except (OSError, asyncio.IncompleteReadError) as exc:
                tally.errors[f"connection: {type(exc).__name__}"] += 1
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                continue
            elapsed = time.perf_counter() - started
            problem = check(status, body, request_id, expect_valid)
            if problem:
                tally.errors[problem] += 1
            elif tally.warm:
                tally.latencies.append(elapsed)
    finally:
        writer.close()


async def drive(port: int, pid: int, clients: int, seconds: float) -> dict[str, Any]:
    tally = Tally()
    rss = {"idle": rss_mib(pid)}
    warm_up = min(1.0, seconds / 5)
    began = time.perf_counter()
    deadline = began + warm_up + seconds
    tasks = [asyncio.create_task(client(port, n, deadline, tally)) for n in range(clients)]
    await asyncio.sleep(warm_up)
    tally.warm = True
    measured_from = time.perf_counter()
    rss["start"] = rss_mib(pid)
    await asyncio.sleep(seconds / 2)
    rss["middle"] = rss_mib(pid)
    await asyncio.gather(*tasks)
    measured = time.perf_counter() - measured_from
    rss["end"] = rss_mib(pid)
    latencies = sorted(tally.latencies)

    def percentile(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else 0.0

    return {
        "clients": clients,
        "seconds": seconds,
        "requests": len(latencies),
        "errors": sum(tally.errors.values()),
        "error_kinds": dict(tally.errors),
        "requests_per_second": len(latencies) / measured,
        "latency_ms": {
            "p50": percentile(0.50),
            "p90": percentile(0.90),
            "p99": percentile(0.99),
            "max": latencies[-1] * 1000 if latencies else 0.0,
            "mean": statistics.fmean(latencies) * 1000 if latencies else 0.0,
        },
        "rss_mib": rss,
    }


def run(clients: int, seconds: float) -> dict[str, Any]:
    """Start a server, load it, stop it; the figures as a dict."""
    with tempfile.TemporaryDirectory(prefix="json-contracts-http-load-") as work:
        folder = init_starters(Path(work))
        port = free_port()
        log = Path(work) / "server-stderr.txt"
        with log.open("wb") as stderr:
            server = start_http_server(folder, port, TOKEN, watch=True, stderr=stderr)
            try:
                figures = asyncio.run(drive(port, server.pid, clients, seconds))
            finally:
                server.terminate()
                server.wait(timeout=30)
        figures["server_exit"] = server.returncode
        figures["server_stderr_lines"] = len(log.read_text(encoding="utf-8", errors="replace").splitlines())
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    figures = run(args.clients, args.seconds)
    if args.json:
        sys.stdout.write(json.dumps(figures) + "\n")
        return
    latency = figures["latency_ms"]
    rss = figures["rss_mib"]
    lines = [
        machine(),
        f"{figures['clients']} clients x {figures['seconds']:g} s, validate_json over HTTP with a bearer token",
        f"requests {figures['requests']}, errors {figures['errors']} {figures['error_kinds'] or ''}".rstrip(),
        f"requests/s {figures['requests_per_second']:.0f}",
        f"latency ms: p50 {latency['p50']:.1f}, p90 {latency['p90']:.1f}, p99 {latency['p99']:.1f}, "
        f"max {latency['max']:.1f}, mean {latency['mean']:.1f}",
        f"server RSS MiB: idle {rss['idle']:.1f}, start {rss['start']:.1f}, middle {rss['middle']:.1f}, "
        f"end {rss['end']:.1f}",
    ]
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
