"""How the cost grows with the number of contracts: 1, 10, 100 and 1,000.

Run: python bench/scaling.py [--sizes 1,10,100,1000] [--runs 3]

For each size, a generated folder of realistic contracts (bench/_common.py) and, median of N:

* load     — `load_contracts` in a fresh process (parse, shape, meta-schema, compile, examples);
* lint     — `json-contracts lint` cold, whole process;
* start    — the MCP server from spawn to an answered `tools/list`;
* reload   — one file edited, then `ContractStore.reload()` in a warm process (only that file is
             rebuilt; the other files are read and compared).

Each figure is also printed per contract, so linear growth shows as a flat column.
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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import generate_contracts, machine

_LOAD = (
    "import sys, time; t = time.perf_counter(); from json_contracts.contracts.loading import load_contracts; "
    "r = load_contracts(sys.argv[1]); assert r.ok, r.failures; print(time.perf_counter() - t)"
)
_RELOAD = """
import sys, time
from pathlib import Path
from json_contracts.contracts.store import ContractStore
folder = Path(sys.argv[1])
store = ContractStore.open(folder)
target = sorted(folder.glob("*.json"))[0]
text = target.read_text(encoding="utf-8")
times = []
for i in range(5):
    target.write_text(text.replace("(variant", f"(edit {i}, variant"), encoding="utf-8")
    t = time.perf_counter()
    outcome = store.reload()
    times.append(time.perf_counter() - t)
    assert outcome.changed and not outcome.failures
target.write_text(text, encoding="utf-8")
print(sorted(times)[2])
"""


def _run(cmd: list[str], **kwargs: object) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, **kwargs)  # type: ignore[call-overload]
    return str(done.stdout)


def _start(folder: Path) -> float:
    env = dict(os.environ, JSON_CONTRACTS_DIR=str(folder), WATCH_CONTRACTS="false")
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "json_contracts"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    assert process.stdin
    assert process.stdout
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}}
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}
    process.stdin.write((json.dumps(request) + "\n").encode())
    process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    process.stdin.write(b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n')
    process.stdin.flush()
    while json.loads(process.stdout.readline()).get("id") != 2:
        pass
    elapsed = time.perf_counter() - began
    process.stdin.close()
    process.wait(timeout=60)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1,10,100,1000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    work = Path(tempfile.mkdtemp())
    try:
        print(f"machine: {machine()}")
        print(f"command: python bench/scaling.py --sizes {args.sizes} --runs {args.runs}")
        print(f"{'contracts':>9} | {'load s':>8} {'ms/c':>6} | {'lint s':>8} {'ms/c':>6} | "
              f"{'start s':>8} {'ms/c':>6} | {'reload s':>8} {'ms/c':>6}")  # fmt: skip
        for size in sizes:
            folder = generate_contracts(work / f"n{size}", size)
            load = statistics.median(float(_run([sys.executable, "-c", _LOAD, str(folder)])) for _ in range(args.runs))
            lint_times = []
            for _ in range(args.runs):
                began = time.perf_counter()
                subprocess.run([sys.executable, "-m", "json_contracts", "lint", "-c", str(folder)],
                               capture_output=True, check=False)  # fmt: skip
                lint_times.append(time.perf_counter() - began)
            lint = statistics.median(lint_times)
            start = statistics.median(_start(folder) for _ in range(args.runs))
            reload = float(_run([sys.executable, "-c", _RELOAD, str(folder)]))
            print(
                f"{size:>9} | {load:>8.3f} {load / size * 1000:>6.2f} | {lint:>8.3f} {lint / size * 1000:>6.2f} | "
                f"{start:>8.3f} {start / size * 1000:>6.2f} | {reload:>8.4f} {reload / size * 1000:>6.3f}"
            )
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
