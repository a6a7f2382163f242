"""Our MCP server and the TypeScript server 0.1.3 side by side over real stdio, in one run.

Run: python bench/server.py --ts PATH [--starts 20] [--calls 2000] [--pipelined 2000]
                            [--unwatched] [--baselines]

Servers, each spawned as fresh processes and driven in raw newline-delimited JSON-RPC over pipes
(the client's own cost stays out of the figures; answers are parsed after the clock stops):

* ``ours`` — the venv's ``json-contracts serve``, the starter set plus a log contract, watching on;
* ``ts``   — the TypeScript server (``node PATH/dist/index.js``), same folder, watching on; skipped
  with a message when ``--ts`` is not given or holds no build;
* with ``--unwatched``: ``ours-unwatched`` and ``ts-unwatched``, the same with
  ``WATCH_CONTRACTS=false``, to show what watching costs;
* with ``--baselines``: ``bare-sdk`` (bench/bare_sdk_server.py, the SDK's low-level Server with one
  trivial tool that does not validate) and ``bare-pipe`` (bench/bare_pipe_server.py, a plain loop
  over stdin calling our engine, no SDK).

Both servers get the same bytes and negotiate the same protocol revision (2025-11-25). Every
answer is checked (the id, a result, no ``isError``, the verdict in ``structuredContent`` and in
the text), so a broken server cannot look fast; the first answer to each document must also be the
same from every server that validates, or the run says which differ.

Figures, interleaved (start-ups alternate; round trips run in alternating blocks on servers kept
alive side by side): start (spawn → ``initialize`` → ``tools/list`` answered, median of N); the
first ``validate_json`` after it; exit after stdin closes (a server still running 10 s later is
killed and reported so); after 5 uncounted calls per document, ``validate_json`` round trips (N
sequential calls alternating a small valid and a small invalid support ticket: median and p99),
the same for a 100 KiB log (N/10 calls, valid and invalid reported apart); pipelined throughput
(N requests written at once, calls per second to the last answer, median of 3 rounds); peak RSS
(VmHWM) after all of it. Printed as a markdown table with ours ÷ ts for each figure and the
issue's targets.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (
    LOG_CONTRACT,
    BadAnswer,
    StdioPeer,
    check_verdict,
    init_starters,
    load_average,
    machine,
    ours_command,
    peak_rss_mib,
    quantile_ms,
    request_line,
    server_env,
    ts_command,
    validate_params,
)

BENCH = Path(__file__).resolve().parent
BLOCK = 100  # round trips per turn before the next server's turn
TIMES = "\N{MULTIPLICATION SIGN}"
WARM_UP = 5  # calls per document before the round trips are counted
EXIT_WAIT = 10.0  # seconds a server gets to exit after stdin closes; once it misses, it is killed at once


@dataclass(frozen=True)
class Document:
    label: str
    contract: str
    body: Any
    valid: bool

    def line(self, request_id: int) -> bytes:
        return request_line(request_id, "tools/call", validate_params(self.contract, self.body))


def documents() -> tuple[list[Document], list[Document]]:
    """The small documents (valid, invalid) and the 100 KiB ones (valid, invalid)."""
    entry = {"t": "2026-12-01T10:00:00Z", "msg": "x" * 70}
    small = [
        Document(
            "small valid",
            "support-ticket",
            {"summary": "Users cannot log in after SSO", "severity": "critical", "category": "bug"},
            True,
        ),
        Document("small invalid", "support-ticket", {"summary": "x", "severity": "urgent"}, False),
    ]
    large = [
        Document("100 KiB valid", "bench-log", {"entries": [entry] * 1100}, True),
        Document("100 KiB invalid", "bench-log", {"entries": [*([entry] * 1099), {"t": "yesterday", "msg": 5}]}, False),
    ]
    return small, large


@dataclass
class Kind:
    """One server under test and everything measured of it."""

    name: str
    command: list[str]
    watch: bool
    validates: bool = True  # bare-sdk answers {"valid": true} to everything
    pythonpath: str | None = None  # another tree's src/ ahead of the installed package
    starts: list[float] = field(default_factory=list)
    first_calls: list[float] = field(default_factory=list)  # the first validate_json after start
    exits: list[float] = field(default_factory=list)
    stays: bool = False  # did not exit within EXIT_WAIT after stdin closed
    small: dict[str, list[float]] = field(default_factory=dict)
    large: dict[str, list[float]] = field(default_factory=dict)
    throughput: list[float] = field(default_factory=list)
    rss: float = 0.0
    first_answers: dict[str, dict[str, Any]] = field(default_factory=dict)

    def spawn(self, folder: Path) -> StdioPeer:
        extra = {"PYTHONPATH": self.pythonpath} if self.pythonpath else {}
        return StdioPeer(self.name, self.command, server_env(folder, watch=self.watch, **extra))


class Session:
    """A live server and the next request id to use."""

    def __init__(self, kind: Kind, folder: Path, peer: StdioPeer | None = None) -> None:
        self.kind = kind
        if peer is None:
            peer = kind.spawn(folder)
            peer.handshake()
        self.peer = peer
        self.next_id = 100

    def trip(self, document: Document) -> float:
        """One ``validate_json`` round trip, timed from the write to the answer's last byte, then checked."""
        request_id = self.next_id
        self.next_id += 1
        line = document.line(request_id)
        began = time.perf_counter()
        self.peer.send(line)
        answer = self.peer.read_line()
        elapsed = time.perf_counter() - began
        try:
            payload = check_verdict(json.loads(answer), request_id, document.valid if self.kind.validates else None)
        except BadAnswer as error:
            raise self.peer.failure(str(error)) from None
        self.kind.first_answers.setdefault(document.label, payload)
        return elapsed

    def pipelined(self, count: int, small: list[Document]) -> float:
        """``count`` requests written at once (from a thread); calls per second to the last answer."""
        first = self.next_id
        self.next_id += count
        data = b"".join(small[i % 2].line(first + i) for i in range(count))
        writer = threading.Thread(target=self.peer.send, args=(data,))
        began = time.perf_counter()
        writer.start()
        answers = [self.peer.read_line() for _ in range(count)]
        elapsed = time.perf_counter() - began
        writer.join()
        by_id = {reply.get("id"): reply for reply in map(json.loads, answers)}
        for i in range(count):
            valid = small[i % 2].valid if self.kind.validates else None
            try:
                check_verdict(by_id.get(first + i, {}), first + i, valid)
            except BadAnswer as error:
                raise self.peer.failure(str(error)) from None
        return count / elapsed


def measure(kinds: list[Kind], folder: Path, args: argparse.Namespace) -> None:
    small, large = documents()
    for i in range(args.starts):
        for kind in kinds[i % len(kinds) :] + kinds[: i % len(kinds)]:
            began = time.perf_counter()
            peer = kind.spawn(folder)
            try:
                tools = peer.handshake()
                kind.starts.append(time.perf_counter() - began)
                expected = 1 if kind.name == "bare-sdk" else 0 if kind.name == "bare-pipe" else 8
                if tools != expected:
                    raise peer.failure(f"tools/list listed {tools} tools, expected {expected}")
                kind.first_calls.append(Session(kind, folder, peer).trip(small[0]))
                if kind.stays:
                    continue  # killed in `finally`: waiting again would only add EXIT_WAIT per start
                took = peer.close(EXIT_WAIT)
                if took is None:
                    kind.stays = True
                else:
                    kind.exits.append(took)
            finally:
                peer.kill()
    sessions: list[Session] = []
    try:
        for kind in kinds:
            sessions.append(Session(kind, folder))
        for session in sessions:
            for document in [*small, *large] * WARM_UP:
                session.trip(document)  # not counted: first compilations, caches, the JIT
        for kind in kinds:
            kind.small = {d.label: [] for d in small}
            kind.large = {d.label: [] for d in large}
        for phase, docs, calls, block in (
            ("small", small, args.calls, BLOCK),
            ("large", large, max(20, args.calls // 10), 10),
        ):
            done = 0
            turn = 0
            while done < calls:
                size = min(block, calls - done)
                for session in sessions[turn % len(sessions) :] + sessions[: turn % len(sessions)]:
                    figures = session.kind.small if phase == "small" else session.kind.large
                    for j in range(size):
                        document = docs[(done + j) % 2]
                        figures[document.label].append(session.trip(document))
                done += size
                turn += 1
        for turn in range(3):
            for session in sessions[turn % len(sessions) :] + sessions[: turn % len(sessions)]:
                session.kind.throughput.append(session.pipelined(args.pipelined, small))
        for session in sessions:
            session.kind.rss = peak_rss_mib(session.peer.process.pid)
            if not session.kind.stays:
                session.peer.close(EXIT_WAIT)
    finally:
        for session in sessions:
            session.peer.kill()


def report(kinds: list[Kind], args: argparse.Namespace, ts_note: str, load_before: str) -> None:
    by_name = {kind.name: kind for kind in kinds}
    ours, ts = by_name["ours"], by_name.get("ts")
    bases = [k for k in (ts, by_name.get("ours-before")) if k is not None]  # the ratio columns
    command = ["python", "bench/server.py"]
    if args.ts:
        command += ["--ts", args.ts]
    if args.before:
        command += ["--before", args.before]
    command += ["--starts", str(args.starts), "--calls", str(args.calls), "--pipelined", str(args.pipelined)]
    command += ["--unwatched"] * args.unwatched + ["--baselines"] * args.baselines
    print(f"machine: {machine()}")
    print(f"command: {shlex.join(command)}")
    print(f"load average (1, 5, 15 min): {load_before} before, {load_average()} after")
    print(ts_note)
    small_calls = len(ours.small["small valid"]) * 2
    large_calls = len(ours.large["100 KiB valid"])

    def both(kind: Kind) -> list[float]:
        return kind.small["small valid"] + kind.small["small invalid"]

    rows: list[tuple[str, Any, str, str]] = [  # label, figure of a kind, unit, target ratio
        (f"start: spawn → `initialize` → `tools/list`, median of {args.starts}",
         lambda k: statistics.median(k.starts) * 1000, "ms", "≤ 0.7"),
        (f"first `validate_json` after start (small, valid), median of {args.starts}",
         lambda k: statistics.median(k.first_calls) * 1000, "ms", ""),
        (f"`validate_json` round trip, small documents, median of {small_calls}",
         lambda k: quantile_ms(both(k)), "ms", "≤ 1.0"),
        ("round trip, small documents, p99", lambda k: quantile_ms(both(k), 0.99), "ms", "≤ 1.0"),
        (f"round trip, 100 KiB valid, median of {large_calls}",
         lambda k: quantile_ms(k.large["100 KiB valid"]), "ms", ""),
        (f"round trip, 100 KiB invalid, median of {large_calls}",
         lambda k: quantile_ms(k.large["100 KiB invalid"]), "ms", ""),
        (f"pipelined: {args.pipelined} requests written at once, median of 3 (higher is better)",
         lambda k: statistics.median(k.throughput), "calls/s", ""),
        ("exit after stdin closes, median", lambda k: None if k.stays else statistics.median(k.exits) * 1000, "ms", ""),
        ("peak RSS (VmHWM) after all the calls", lambda k: k.rss, "MiB", "≤ 0.7"),
    ]  # fmt: skip
    head = ["figure", *(k.name for k in kinds), *(f"ours ÷ {k.name}" for k in bases)]
    if ts:
        head.append("target (ours ÷ ts)")
    print()
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for label, figure, unit, target in rows:
        cells = [label]
        for kind in kinds:
            value = figure(kind)
            if value is None:
                cells.append(f"none within {EXIT_WAIT:.0f} s (killed)")
            else:
                cells.append(f"{value:.2f} {unit}" if value < 10 else f"{value:,.0f} {unit}")
        mine = figure(ours)
        ratios = [mine / theirs if mine is not None and theirs is not None else None for theirs in map(figure, bases)]
        cells += ["—" if ratio is None else f"{ratio:.2f}" for ratio in ratios]
        if ts:
            met = ""
            if target and ratios[0] is not None:
                met = f"{target} {TIMES} ({'met' if ratios[0] <= float(target.split()[1]) else 'not met'})"
            cells.append(met)
        print("| " + " | ".join(cells) + " |")
    print()
    print("Per document (ms, median / p99):")
    print()
    print("| document | " + " | ".join(k.name for k in kinds) + " |")
    print("|" + "---|" * (len(kinds) + 1))
    for label in (*ours.small, *ours.large):
        cells = []
        for kind in kinds:
            values = kind.small.get(label) or kind.large[label]
            cells.append(f"{quantile_ms(values):.2f} / {quantile_ms(values, 0.99):.2f}")
        print(f"| {label} | " + " | ".join(cells) + " |")
    validating = [k for k in kinds if k.validates and k.name != "ours"]
    for other in validating:
        differ = [label for label, payload in ours.first_answers.items() if other.first_answers.get(label) != payload]
        verdict = "the same" if not differ else "DIFFERENT for " + ", ".join(differ)
        print(f"\nanswers of ours and {other.name}: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ts", metavar="PATH", help="a build of the TypeScript server 0.1.3 (its folder or index.js)")
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--calls", type=int, default=2000, help="small-document round trips per server")
    parser.add_argument("--pipelined", type=int, default=2000)
    parser.add_argument("--before", metavar="SRC", help="also run our server from another tree's src/ (ours-before)")
    parser.add_argument("--unwatched", action="store_true", help="also run each server with watching off")
    parser.add_argument("--baselines", action="store_true", help="also run bare-sdk and bare-pipe")
    args = parser.parse_args()
    if min(args.starts, args.calls, args.pipelined) < 1:
        parser.error("--starts, --calls and --pipelined must be at least 1")
    ts, ts_note = ts_command(args.ts)
    kinds = [Kind("ours", ours_command(), watch=True)]
    if ts:
        kinds.append(Kind("ts", ts, watch=True))
    if args.before:
        if not (Path(args.before) / "json_contracts" / "__init__.py").is_file():
            parser.error(f"--before {args.before}: no json_contracts package there")
        kinds.append(Kind("ours-before", ours_command(), watch=True, pythonpath=str(Path(args.before).resolve())))
    if args.unwatched:
        kinds.append(Kind("ours-unwatched", ours_command(), watch=False))
        if ts:
            kinds.append(Kind("ts-unwatched", ts, watch=False))
    if args.baselines:
        kinds.append(Kind("bare-sdk", [sys.executable, str(BENCH / "bare_sdk_server.py")], True, validates=False))
        kinds.append(Kind("bare-pipe", [sys.executable, str(BENCH / "bare_pipe_server.py")], True))
    if not ts:
        print(ts_note, file=sys.stderr)
    load_before = load_average()
    work = Path(tempfile.mkdtemp())
    try:
        folder = init_starters(work)
        (folder / "bench-log.json").write_text(json.dumps(LOG_CONTRACT), encoding="utf-8")
        measure(kinds, folder, args)
    except BadAnswer as error:
        raise SystemExit(f"a wrong answer, no figures: {error}") from None
    finally:
        shutil.rmtree(work)
    report(kinds, args, ts_note, load_before)


if __name__ == "__main__":
    main()
