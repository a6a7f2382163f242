"""What each hostile input costs the CLI: wall time and peak memory, this tree against another.

Run: python bench/hostile_inputs.py [--before PATH] [--timeout 60] [--memory-gib 4] [--only NAME ...]

Each case writes a small contracts folder (and a document) that a red team sent, runs one real
`json-contracts` command on it in a fresh process and records the wall time, the child's peak
RSS (`os.wait4`) and how it ended. Every child runs under an address-space limit (`--memory-gib`)
and is killed at `--timeout` seconds, so a case that used to run for hours or take gigabytes
shows as "killed" or "out of memory" instead of taking the machine with it.

With `--before PATH` (the `src` folder of another checkout, e.g. a `git worktree` of an older
commit) every case also runs against that tree, alternating, by putting it first on PYTHONPATH:
the table then shows both side by side from one run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine

SCRIPT = Path(sys.executable).parent / "json-contracts"


@dataclass(frozen=True)
class Outcome:
    seconds: float
    peak_mib: float
    ended: str


def _contract(folder: Path, name: str, schema: Any, **fields: Any) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps({"description": "x", "schema": schema, **fields}), encoding="utf-8")


def _property(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": ["v"], "properties": {"v": schema}}


def _check_case(schema: dict[str, Any], value: Any) -> Callable[[Path], list[str]]:
    def build(work: Path) -> list[str]:
        _contract(work / "c", "hostile", _property(schema))
        (work / "doc.json").write_text(json.dumps({"v": value}), encoding="utf-8")
        return ["check", "hostile", str(work / "doc.json"), "-c", str(work / "c")]

    return build


def _test_case(schema: Any) -> Callable[[Path], list[str]]:
    def build(work: Path) -> list[str]:
        _contract(work / "c", "hostile", schema)
        return ["test", "-c", str(work / "c"), "--max-examples", "1", "--no-database"]

    return build


def _lint_diamond(work: Path) -> list[str]:
    defs: dict[str, Any] = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 4} for i in range(20)}
    defs["d20"] = {"type": "string"}
    example = {"input": "x", "output": "s"}
    _contract(work / "c", "diamond", {"$ref": "#/$defs/d0", "$defs": defs}, examples=[example])
    return ["lint", "-c", str(work / "c")]


def _long_patterns(work: Path) -> list[str]:
    pattern = "^(" + "|".join(["a"] * 4_000) + ")+$"  # nine of these: a 73 KB contract
    properties = {f"p{i}": {"type": "string", "pattern": pattern} for i in range(9)}
    _contract(work / "c", "long", {"type": "object", "properties": properties})
    return ["lint", "-c", str(work / "c")]


def _folder(work: Path) -> list[str]:
    schema = {"type": "object", "properties": {"text": {"type": "string"}}}
    examples = [{"input": f"ask {i}", "output": {"text": "y" * 5_000}} for i in range(45)]
    text = json.dumps({"description": "x", "schema": schema, "examples": examples})  # about 225 KB
    folder = work / "c"
    folder.mkdir(parents=True)
    for i in range(150):
        (folder / f"copy-{i:03}.json").write_text(text, encoding="utf-8")
    return ["lint", "-c", str(folder)]


_REGEX_SNIPPET = """
import json_contracts.schema.validation as v
from json_contracts.schema.compiled import compile_schema
compiled = compile_schema({"type": "string", "format": "regex"}, "2020-12")
for n in range(80):
    list(v.iter_errors(compiled, "(a|b)" + str(n) * 4000 + "[x-z]{1,3}" * 20000))
"""


def _format_regex(work: Path) -> list[str]:
    return ["--python", _REGEX_SNIPPET]


CASES: dict[str, tuple[str, Callable[[Path], list[str]]]] = {
    "email pattern, 80,000 chars": (
        "check",
        _check_case({"type": "string", "pattern": "\\S+@\\S+\\.\\S+"}, "a" * 80_000),
    ),
    "email pattern, 1 MiB": ("check", _check_case({"type": "string", "pattern": "\\S+@\\S+\\.\\S+"}, "a" * 1_000_000)),
    "named group ^(?<w>a+)+$": ("check", _check_case({"type": "string", "pattern": "^(?<w>a+)+$"}, "a" * 40 + "!")),
    "uri-template, 1 MB": ("check", _check_case({"type": "string", "format": "uri-template"}, "{" * 1_000_000)),
    "enum of 250 on 200,000 items": (
        "check",
        _check_case({"type": "array", "items": {"enum": list(range(250))}}, [249] * 200_000),
    ),
    "80 distinct format-regex values": ("engine", _format_regex),
    "73 KB of patterns (JC120 analysis)": ("lint", _long_patterns),
    "502-byte $ref diamond": ("lint", _lint_diamond),
    "maxLength 1e9": ("test", _test_case(_property({"type": "string", "maxLength": 1_000_000_000}))),
    "minItems 100,000": ("test", _test_case({"type": "array", "minItems": 100_000})),
    "multipleOf 1e-300": ("test", _test_case(_property({"type": "number", "multipleOf": 1e-300}))),
    "minLength 1e7": ("test", _test_case(_property({"type": "string", "minLength": 10_000_000}))),
    "$ref loop #/%24defs/a": ("test", _test_case({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/%24defs/a"}}})),
    "150 files of 225 KB": ("lint", _folder),
}


def _run(args: list[str], tree: Path | None, timeout: float, memory_gib: float) -> Outcome:
    env = dict(os.environ)
    env.pop("GITHUB_ACTIONS", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    command = [sys.executable, "-c", args[1]] if args[0] == "--python" else [str(SCRIPT), *args]
    limit = int(memory_gib * 1024**3)

    def bound() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    started = time.monotonic()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, preexec_fn=bound
    )
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [
        threading.Thread(target=lambda: out.append(process.stdout.read() if process.stdout else b"")),
        threading.Thread(target=lambda: err.append(process.stderr.read() if process.stderr else b"")),
    ]
    for reader in readers:
        reader.start()
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        process.kill()

    timer = threading.Timer(timeout, kill)
    timer.start()
    _, status, usage = os.wait4(process.pid, 0)
    timer.cancel()
    for reader in readers:
        reader.join()
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()
    seconds = time.monotonic() - started
    code = os.waitstatus_to_exitcode(status)
    text = b"".join(err).decode("utf-8", "replace")
    if killed.is_set():
        ended = f"killed at {timeout:g} s"
    elif "MemoryError" in text or "memory allocation" in text:
        ended = f"out of memory ({memory_gib:g} GiB)"
    elif "Traceback" in text or "panicked" in text:
        ended = f"crashed (exit {code})"
    elif b"itself crashed" in b"".join(out):
        ended = f"a check crashed (exit {code})"
    elif b"inconclusive" in b"".join(out):
        ended = f"inconclusive (exit {code})"
    else:
        ended = f"exit {code}"
    return Outcome(seconds, usage.ru_maxrss / 1024, ended)


def _cell(outcome: Outcome) -> str:
    return f"{outcome.seconds:.2f} s, {outcome.peak_mib:.0f} MiB, {outcome.ended}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the src folder of another checkout to run side by side")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--memory-gib", type=float, default=4.0)
    parser.add_argument("--only", nargs="*", help="case names to run (substring match)")
    options = parser.parse_args()
    print(f"{machine()}; timeout {options.timeout:g} s, address space {options.memory_gib:g} GiB per run")
    header = "| case | command | this tree |" + (" before |" if options.before else "")
    print(header)
    print("|---|---|---|" + ("---|" if options.before else ""))
    for name, (command, build) in CASES.items():
        if options.only and not any(word in name for word in options.only):
            continue
        with tempfile.TemporaryDirectory() as scratch:
            args = build(Path(scratch))
            after = _run(args, None, options.timeout, options.memory_gib)
            row = f"| {name} | {command} | {_cell(after)} |"
            if options.before:
                row += f" {_cell(_run(args, options.before, options.timeout, options.memory_gib))} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
