"""How long a ``ping`` waits while a long ``validate_json`` is being worked on.

Run: python bench/ping_under_load.py [--ts PATH] [--runs 10] [--entries 26000] [--no-http] [--before SRC]

One folder with one contract (a log of entries, bench/_common.LOG_CONTRACT) and one valid document
of ``--entries`` short entries: about 1 MiB compact, just under the servers' 1 MiB argument
limit, which takes our server about a second to validate. Transports, interleaved run by run:

* ``ours stdio`` — the venv's ``json-contracts serve`` over its pipes;
* ``ours http``  — ``json-contracts serve --transport http`` on 127.0.0.1 (a bearer token set),
  the validation on one keep-alive connection and the pings on another (skip with ``--no-http``);
* ``ts stdio``   — the TypeScript server 0.1.3 (``--ts PATH``, its build folder), which answers
  on one thread: its pings are expected to wait for the validation;
* with ``--before SRC``: ``ours-before stdio``, our server from another tree's ``src/`` (``PYTHONPATH``).

Each run writes the ``validate_json`` request, then, from ``--delay`` seconds later until the
validation is answered, sends a ``ping``, waits for its answer, sleeps ``--interval`` and sends the
next. A ping counts as under load when it was sent before the validation's answer arrived; its
latency is from the write to its answer. Figures: the validation's round trip (median), how many
pings were under load, their latency (median, p90, max), the first and the last ping of each run
apart (median, max: the first meets the request being read, the last the answer being written)
and the max of those in between, and an idle ping before any load (median of 20). Every answer is
checked: the ping's empty result and the validation's verdict.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import shlex
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (
    LOG_CONTRACT,
    PROTOCOL,
    BadAnswer,
    StdioPeer,
    check_verdict,
    load_average,
    machine,
    ours_command,
    quantile_ms,
    request_line,
    server_env,
    ts_command,
    validate_params,
)

TOKEN = "bench-" + os.urandom(8).hex()
TARGET_MS = 50.0
WAIT = 120.0  # seconds any one answer may take before the run stops as hung


def document(entries: int) -> dict[str, Any]:
    return {"entries": [{"t": "2026-12-01T10:00:00Z", "msg": "ok"}] * entries}


def check_pong(reply: dict[str, Any], request_id: int) -> None:
    if reply.get("id") != request_id or reply.get("result") != {}:
        raise BadAnswer(f"ping {request_id}: expected an empty result, got {str(reply)[:300]}")


@dataclass
class Figures:
    name: str
    validations: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)  # under load
    first: list[float] = field(default_factory=list)  # the first ping of each run
    last: list[float] = field(default_factory=list)  # the last one (when a run had two or more)
    middle: list[float] = field(default_factory=list)  # the others
    idle: list[float] = field(default_factory=list)
    answered_first: int = 0  # pings under load answered before the validation


class Transport:
    """One live server: a validation in flight, pings beside it."""

    def start_validation(self, request_id: int, body: bytes) -> None:
        raise NotImplementedError

    def validation_answer(self, timeout: float) -> tuple[float, bytes] | None:
        """(arrival time, answer) once the validation is answered, else None after ``timeout``."""
        raise NotImplementedError

    def ping(self, request_id: int) -> tuple[float, float]:
        """Send a ping and wait for its answer (checked): (send time, answer time)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class StdioTransport(Transport):
    def __init__(self, name: str, command: list[str], folder: Path, **env: str) -> None:
        self.peer = StdioPeer(name, command, server_env(folder, watch=False, **env))
        self.peer.handshake()
        self.answers: queue.Queue[tuple[float, bytes]] = queue.Queue()
        self.pongs: queue.Queue[tuple[float, bytes]] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        """Timestamp each answer as it arrives; a short line is a ping's answer, a long one the validation's."""
        stdout = self.peer.process.stdout
        assert stdout
        while True:
            try:
                line = stdout.readline()
            except (OSError, ValueError):  # closed as the run ends
                line = b""
            if not line:  # the server exited: whoever waits on an answer is told at once
                self.pongs.put((time.perf_counter(), b""))
                self.answers.put((time.perf_counter(), b""))
                return
            (self.pongs if len(line) < 200 else self.answers).put((time.perf_counter(), line))

    def start_validation(self, request_id: int, body: bytes) -> None:
        self.peer.send(body)

    def validation_answer(self, timeout: float) -> tuple[float, bytes] | None:
        try:
            arrived, line = self.answers.get(timeout=timeout)
        except queue.Empty:
            return None
        if not line:
            raise self.peer.failure("closed stdout before answering the validation")
        return arrived, line

    def ping(self, request_id: int) -> tuple[float, float]:
        sent = time.perf_counter()
        self.peer.send(request_line(request_id, "ping"))
        try:
            arrived, line = self.pongs.get(timeout=WAIT)
        except queue.Empty:
            raise self.peer.failure(f"ping {request_id}: no answer within {WAIT:.0f} s") from None
        if not line:
            raise self.peer.failure(f"closed stdout before answering ping {request_id}")
        try:
            check_pong(json.loads(line), request_id)
        except BadAnswer as error:
            raise self.peer.failure(str(error)) from None
        return sent, arrived

    def close(self) -> None:
        self.peer.close(10)
        self.peer.kill()


class HttpTransport(Transport):
    """``json-contracts serve --transport http``: the validation on one connection, pings on another."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        command = [*ours_command(), "--transport", "http", "--port", str(self.port)]
        self.process = subprocess.Popen(
            command,
            env=server_env(folder, watch=False, API_AUTH_TOKEN=TOKEN),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.close()
                    raise BadAnswer("the HTTP server did not start listening within 60 s") from None
                time.sleep(0.05)
        self.pinger = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
        self.answers: queue.Queue[tuple[float, bytes]] = queue.Queue()

    def _post(self, connection: http.client.HTTPConnection, body: bytes) -> bytes:
        headers = {
            "Authorization": f"Bearer {TOKEN}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": PROTOCOL,
        }
        try:
            connection.request("POST", "/mcp", body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            raise BadAnswer(f"ours http: {error!r}") from None
        if response.status != 200:
            raise BadAnswer(f"HTTP {response.status}: {data[:300]!r}")
        return data

    def start_validation(self, request_id: int, body: bytes) -> None:
        # A fresh, connected ping connection each run: the server closes idle keep-alive connections
        # (uvicorn: after 5 s), and connecting is not part of a ping's latency.
        self.pinger.close()
        self.pinger = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
        self.pinger.connect()

        def post() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
            try:
                data = self._post(connection, body)
                self.answers.put((time.perf_counter(), data))
            except (OSError, BadAnswer) as error:
                self.answers.put((time.perf_counter(), json.dumps({"error": str(error)}).encode()))
            finally:
                connection.close()

        threading.Thread(target=post, daemon=True).start()

    def validation_answer(self, timeout: float) -> tuple[float, bytes] | None:
        try:
            return self.answers.get(timeout=timeout)
        except queue.Empty:
            return None

    def ping(self, request_id: int) -> tuple[float, float]:
        sent = time.perf_counter()
        data = self._post(self.pinger, request_line(request_id, "ping"))
        arrived = time.perf_counter()
        check_pong(json.loads(data), request_id)
        return sent, arrived

    def close(self) -> None:
        self.pinger.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def one_run(
    transport: Transport, figures: Figures, template: bytes, args: argparse.Namespace, ids: Iterator[int]
) -> None:
    """One validation (``template`` with id 0 replaced) with pings beside it, until it is answered."""
    request_id = next(ids)
    body = template.replace(b'"id":0,', f'"id":{request_id},'.encode(), 1)
    began = time.perf_counter()
    transport.start_validation(request_id, body)
    answer = transport.validation_answer(args.delay)
    pings: list[tuple[float, float]] = []
    while answer is None:
        pings.append(transport.ping(next(ids)))
        answer = transport.validation_answer(args.interval)
        if answer is None and time.perf_counter() - began > WAIT:
            raise BadAnswer(f"{figures.name}: the validation was not answered within {WAIT:.0f} s")
    arrived, line = answer
    try:
        check_verdict(json.loads(line), request_id, True)
    except BadAnswer as error:
        raise BadAnswer(f"{figures.name}: {error}") from None
    figures.validations.append(arrived - began)
    under = [(sent, got) for sent, got in pings if sent < arrived]
    figures.pings += [got - sent for sent, got in under]
    figures.answered_first += sum(got < arrived for _, got in under)
    if under:
        figures.first.append(under[0][1] - under[0][0])
    if len(under) > 1:
        figures.last.append(under[-1][1] - under[-1][0])
        figures.middle += [got - sent for sent, got in under[1:-1]]


def report(all_figures: list[Figures], args: argparse.Namespace, ts_note: str, load_before: str, size: int) -> None:
    command = ["python", "bench/ping_under_load.py"]
    if args.ts:
        command += ["--ts", args.ts]
    if args.before:
        command += ["--before", args.before]
    command += ["--runs", str(args.runs), "--entries", str(args.entries)] + ["--no-http"] * args.no_http
    print(f"machine: {machine()}")
    print(f"command: {shlex.join(command)}")
    print(f"load average (1, 5, 15 min): {load_before} before, {load_average()} after")
    print(ts_note)
    print(f"document: {args.entries} log entries, {size / 1024:.0f} KiB compact, valid")
    print()
    print(
        "| server | validation, median | pings under load | answered before the validation | ping median | p90 | "
        "max | first ping median / max | between, max | last ping median / max | idle ping median | "
        f"max ≤ {TARGET_MS:.0f} ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")

    def pair(values: list[float]) -> str:
        return f"{quantile_ms(values):.1f} / {max(values) * 1000:.1f} ms" if values else "—"

    for f in all_figures:
        if f.pings:
            between = f"{max(f.middle) * 1000:.1f} ms" if f.middle else "—"
            pings = (
                f"{quantile_ms(f.pings):.1f} ms | {quantile_ms(f.pings, 0.9):.1f} ms | {max(f.pings) * 1000:.1f} ms | "
                f"{pair(f.first)} | {between} | {pair(f.last)}"
            )
            met = "met" if max(f.pings) * 1000 <= TARGET_MS else "not met"
        else:
            pings, met = "— | — | — | — | — | —", "—"
        print(
            f"| {f.name} | {statistics.median(f.validations) * 1000:,.0f} ms | {len(f.pings)} | {f.answered_first} | "
            f"{pings} | {quantile_ms(f.idle):.2f} ms | {met} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ts", metavar="PATH", help="a build of the TypeScript server 0.1.3 (its folder or index.js)")
    parser.add_argument("--runs", type=int, default=10, help="validations per server")
    parser.add_argument("--entries", type=int, default=26000, help="log entries in the document (26000: 1016 KiB)")
    parser.add_argument("--delay", type=float, default=0.02, help="seconds from the validation to the first ping")
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between a ping's answer and the next")
    parser.add_argument("--no-http", action="store_true", help="leave out our server over HTTP")
    parser.add_argument("--before", metavar="SRC", help="also our server over stdio from another tree's src/")
    args = parser.parse_args()
    if args.runs < 1 or args.entries < 1 or args.delay < 0 or args.interval <= 0:
        parser.error("--runs and --entries must be at least 1, --delay at least 0, --interval above 0")
    ts, ts_note = ts_command(args.ts)
    if not ts:
        print(ts_note, file=sys.stderr)
    load_before = load_average()
    template = request_line(0, "tools/call", validate_params("bench-log", document(args.entries)))
    size = len(json.dumps(document(args.entries), separators=(",", ":")))
    work = Path(tempfile.mkdtemp())
    transports: list[tuple[Figures, Transport]] = []
    counter = iter(range(1000, 10**9))
    try:
        folder = work / "contracts"
        folder.mkdir()
        (folder / "bench-log.json").write_text(json.dumps(LOG_CONTRACT), encoding="utf-8")
        transports.append((Figures("ours stdio"), StdioTransport("ours stdio", ours_command(), folder)))
        if not args.no_http:
            transports.append((Figures("ours http"), HttpTransport(folder)))
        if ts:
            transports.append((Figures("ts stdio"), StdioTransport("ts stdio", ts, folder)))
        if args.before:
            before = str(Path(args.before).resolve())
            name = "ours-before stdio"
            transports.append((Figures(name), StdioTransport(name, ours_command(), folder, PYTHONPATH=before)))
        for figures, transport in transports:
            for _ in range(20):
                sent, got = transport.ping(next(counter))
                figures.idle.append(got - sent)
        for run in range(args.runs):
            for figures, transport in transports[run % len(transports) :] + transports[: run % len(transports)]:
                one_run(transport, figures, template, args, counter)
    except BadAnswer as error:
        raise SystemExit(f"a wrong answer, no figures: {error}") from None
    finally:
        for _, transport in transports:
            transport.close()
        shutil.rmtree(work)
    report([f for f, _ in transports], args, ts_note, load_before, size)


if __name__ == "__main__":
    main()
