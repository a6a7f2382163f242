"""`json-contracts test` on the starter set: wall time at the default budget, and filtering per contract.

Run: python bench/checks.py [--runs N] [--max-examples N]. Each run is a fresh process
(`json-contracts test --json`, random seed); the median wall time is reported, then per contract
the share of drawn candidates the validator filter rejected (from the samples-valid check) and
each check's outcome. Also times one `python -c pass` run per round for scale.
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
from _common import machine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-examples", type=int, default=50)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    try:
        exe = [sys.executable, "-m", "json_contracts"]
        subprocess.run([*exe, "init"], cwd=work, check=True, stdout=subprocess.DEVNULL)
        times: list[float] = []
        baseline: list[float] = []
        reports = []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            baseline.append(time.perf_counter() - start)
            start = time.perf_counter()
            done = subprocess.run(
                [*exe, "test", "--json", "--max-examples", str(args.max_examples)],
                cwd=work, env=env, capture_output=True, text=True, check=False,
            )  # fmt: skip
            times.append(time.perf_counter() - start)
            reports.append(json.loads(done.stdout))
        print(f"machine: {machine()}")
        print(f"json-contracts test, 8 starter contracts, --max-examples {args.max_examples}: "
              f"median {statistics.median(times):.2f} s over {args.runs} runs "
              f"(python -c pass {statistics.median(baseline) * 1000:.0f} ms)")  # fmt: skip
        last = reports[-1]
        print(f"outcomes (last run): {last['counts']}")
        for result in last["results"]:
            if result["check"] == "samples-valid":
                share = result.get("rejectedShare", 0.0) * 100
                print(f"  {result['contract']:<22} filtered {share:5.1f}% of drawn candidates")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
