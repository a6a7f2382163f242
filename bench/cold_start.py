"""Cold start of the CLI: `json-contracts validate` on the starter set vs `python -c pass`.

Run: python bench/cold_start.py [--runs N]. Each command is started afresh N times, alternating,
and the medians are reported with their ratio. Also times `lint` and `check` for reference.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _time(cmd: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    try:
        exe = [sys.executable, "-m", "json_contracts"]
        subprocess.run([*exe, "init"], cwd=work, check=True, stdout=subprocess.DEVNULL)
        (work / "doc.json").write_text('{"summary": "x", "severity": "urgent"}', encoding="utf-8")
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "validate": [*exe, "validate"],
            "lint --strict": [*exe, "lint", "--strict"],
            "check support-ticket": [*exe, "check", "support-ticket", "doc.json"],
        }
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, cmd in commands.items():
                samples[name].append(_time(cmd, work))
        base = statistics.median(samples["python -c pass"])
        print(f"{'command':<24}{'median ms':>10}{'ratio':>8}   ({args.runs} runs each, alternating)")
        for name, values in samples.items():
            median = statistics.median(values)
            print(f"{name:<24}{median * 1000:>10.1f}{median / base:>8.1f}")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
