"""Shared by the bench scripts: the machine line, a starter folder, a generated folder of N contracts,
and what the MCP server benchmarks share (the servers' commands, a stdio peer, answer checks)."""

from __future__ import annotations

import json
import os
import platform
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import IO, Any

STARTER = Path(__file__).resolve().parent.parent / "src" / "json_contracts" / "contracts" / "starter"


def machine() -> str:
    """``2026-12-01 · 2 cores, AMD EPYC …, Python 3.11.7`` — printed first by every script."""
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines() if "model name" in line]
        cpu = names[0] if names else cpu
    return f"{date.today().isoformat()} · {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}"


def init_starters(work: Path) -> Path:
    """``json-contracts init`` in ``work``; returns the folder."""
    subprocess.run([sys.executable, "-m", "json_contracts", "init"], cwd=work, check=True, stdout=subprocess.DEVNULL)
    return work / "json-contracts"


def generate_contracts(folder: Path, count: int, seed: int = 7) -> Path:
    """``count`` realistic contracts: the starters renamed, with varied descriptions, enums and limits."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    bases = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(STARTER.glob("*.json"))]
    for i in range(count):
        body = json.loads(json.dumps(bases[i % len(bases)]))
        body.pop("name", None)
        body["description"] = f"{body.get('description', '')} (variant {i})"
        schema = body["schema"]
        for prop in (schema.get("properties") or {}).values():
            if isinstance(prop, dict) and prop.get("type") == "string" and "maxLength" in prop:
                prop["maxLength"] = prop["maxLength"] + rng.randrange(0, 40)
        (folder / f"contract-{i:04d}.json").write_text(json.dumps(body, indent=2), encoding="utf-8")
    return folder


# --- the MCP server benchmarks (bench/server.py, bench/ping_under_load.py) ------------------------

#: A log of entries: the contract the large-document figures validate against.
LOG_CONTRACT: dict[str, Any] = {
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
#: A protocol revision both our server and the TypeScript server 0.1.3 (SDK 1.29) negotiate.
PROTOCOL = "2025-11-25"
INITIALIZE: dict[str, Any] = {
    "protocolVersion": PROTOCOL,
    "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"},
}
TS_BUILD_HELP = (
    "build it outside this repository: git clone https://github.com/json-contracts/json-contracts, "
    "check out release 0.1.3, `npm ci && npm run build`, then pass --ts <that folder>"
)


def ours_command() -> list[str]:
    """The venv's ``json-contracts serve``, as a host runs it (the console script next to this Python)."""
    script = Path(sys.executable).with_name("json-contracts")
    return [str(script), "serve"] if script.exists() else [sys.executable, "-m", "json_contracts", "serve"]


def ts_command(build: str | None) -> tuple[list[str] | None, str]:
    """``node <build>/dist/index.js``, or None and why the TypeScript server is skipped."""
    if build is None:
        return None, f"ts: skipped, no --ts PATH given ({TS_BUILD_HELP})"
    path = Path(build)
    index = path if path.is_file() else path / "dist" / "index.js"
    if not index.is_file():
        return None, f"ts: skipped, no {index} ({TS_BUILD_HELP})"
    node = shutil.which("node")
    if node is None:
        return None, "ts: skipped, `node` is not on PATH"
    return [node, str(index)], f"ts: {index}"


def server_env(folder: Path, *, watch: bool, **extra: str) -> dict[str, str]:
    """The environment both servers read: the folder, watching, and nothing inherited that changes them."""
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN", "DEBUG"}}
    env.update(JSON_CONTRACTS_DIR=str(folder), WATCH_CONTRACTS="true" if watch else "false", **extra)
    return env


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (at the time of asking)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_http_server(
    folder: Path, port: int, token: str, *, watch: bool, stderr: int | IO[bytes] = subprocess.DEVNULL
) -> subprocess.Popen[bytes]:
    """``json-contracts serve --transport http`` on ``port`` with ``token``, once it accepts connections.

    ``stderr`` is where its log lines go (a file the caller reads afterwards, or nowhere).
    """
    command = [sys.executable, "-m", "json_contracts", "serve", "--transport", "http", "--port", str(port)]
    env = server_env(folder, watch=watch, API_AUTH_TOKEN=token)
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            if process.poll() is not None:
                raise SystemExit(
                    f"the server exited at start; run it by hand to see why: {' '.join(command)}"
                ) from None
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the server did not start listening within 60 s")


def request_line(request_id: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body, separators=(",", ":")).encode() + b"\n"


def validate_params(contract: str, document: Any) -> dict[str, Any]:
    return {"name": "validate_json", "arguments": {"contract": contract, "json": document}}


class BadAnswer(AssertionError):
    """A server answered wrongly: the figures of a broken server are not reported."""


def check_verdict(reply: dict[str, Any], request_id: int, valid: bool | None) -> dict[str, Any]:
    """The ``validate_json`` answer to ``request_id`` with the expected verdict; its structured payload.

    ``valid=None`` checks only that it is a tool result (for a baseline that does not validate).
    Both forms are checked: ``structuredContent`` and the JSON text of ``content[0]``.
    """
    if reply.get("id") != request_id or "result" not in reply:
        raise BadAnswer(f"request {request_id}: expected a result, got {str(reply)[:300]}")
    result = reply["result"]
    payload = result.get("structuredContent")
    if result.get("isError") or not isinstance(payload, dict):
        raise BadAnswer(f"request {request_id}: a tool error or no structuredContent: {str(result)[:300]}")
    content = result.get("content") or [{}]
    text = json.loads(content[0].get("text", "null"))
    if valid is not None and (
        payload.get("valid") is not valid or not isinstance(text, dict) or text.get("valid") is not valid
    ):
        raise BadAnswer(f"request {request_id}: expected valid={valid}, got {str(result)[:300]}")
    return payload


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def peak_rss_mib(pid: int) -> float:
    """The process's peak resident set size (``VmHWM``), in MiB (Linux)."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    return int(next(x for x in status.splitlines() if x.startswith("VmHWM:")).split()[1]) / 1024


def quantile_ms(values: list[float], q: float = 0.5) -> float:
    """The ``q`` quantile (nearest rank) of durations in seconds, in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


class StdioPeer:
    """A server process spoken to in raw newline-delimited JSON-RPC over its pipes.

    The client side is kept minimal (one write and one ``readline`` per message) so that its own
    cost stays out of the figures; answers are parsed after the clock stops.
    """

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.name = name
        # A file, not a pipe: a pipe nobody reads could fill and stall the server. Closed by kill().
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, env=env
        )

    def failure(self, message: str) -> BadAnswer:
        """``message`` about this server, with the end of what it wrote on stderr."""
        self.stderr.seek(0, os.SEEK_END)
        self.stderr.seek(max(0, self.stderr.tell() - 800))
        tail = self.stderr.read().decode("utf-8", "replace").strip()
        return BadAnswer(f"{self.name}: {message}" + (f"\n  its stderr ends: {tail}" if tail else ""))

    def send(self, data: bytes) -> None:
        assert self.process.stdin
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read_line(self) -> bytes:
        assert self.process.stdout
        line = self.process.stdout.readline()
        if not line:
            try:
                code = self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = None
            raise self.failure(f"closed stdout (exit code {code})")
        return line

    def ask(self, request_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one request and wait for its answer, skipping notifications."""
        self.send(request_line(request_id, method, params))
        while True:
            reply: dict[str, Any] = json.loads(self.read_line())
            if "method" not in reply:
                if reply.get("id") != request_id:
                    raise self.failure(f"expected the answer to {request_id}, got {str(reply)[:300]}")
                return reply

    def handshake(self) -> int:
        """``initialize`` (checked), ``notifications/initialized``, ``tools/list``; the number of tools."""
        reply = self.ask(1, "initialize", INITIALIZE)
        if reply.get("result", {}).get("protocolVersion") != PROTOCOL:
            raise self.failure(f"initialize: {str(reply)[:300]}")
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        tools = self.ask(2, "tools/list", {}).get("result", {}).get("tools")
        if not isinstance(tools, list):
            raise self.failure("tools/list: no tool list")
        return len(tools)

    def close(self, timeout: float = 60) -> float | None:
        """Close stdin and wait for the exit: the seconds it took, or None (killed) after ``timeout``."""
        assert self.process.stdin
        began = time.perf_counter()
        self.process.stdin.close()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None
        return time.perf_counter() - began

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.stderr.close()
