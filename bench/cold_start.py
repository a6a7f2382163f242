"""Cold start of the CLI, each command a fresh process, as ratios measured in the same run.

Run: python bench/cold_start.py [--runs N] [--large-runs N]

* the starter set (8 contracts): `python -c pass`, importing the finding catalogue and the data
  model (pure data: no JSON Schema machinery may load), a script that only imports jsonschema and
  checks the same schemas and examples (bench/jsonschema_only.py, the floor for "our overhead"),
  `validate`, `lint --strict`, `check support-ticket doc.json` — interleaved, N runs each;
* a generated folder of 1,000 realistic contracts: `validate`, `lint`, and the jsonschema-only
  script — interleaved, fewer runs.

Medians are printed with their ratio to `python -c pass` and to the jsonschema-only script.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import generate_contracts, init_starters, machine

BENCH = Path(__file__).resolve().parent


def _time(cmd: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _measure(commands: dict[str, list[str]], runs: int, cwd: Path) -> dict[str, float]:
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            samples[name].append(_time(cmd, cwd))
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--large-runs", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    try:
        exe = [sys.executable, "-m", "json_contracts"]
        starters = init_starters(work)
        (work / "doc.json").write_text('{"summary": "x", "severity": "urgent"}', encoding="utf-8")
        only_jsonschema = [sys.executable, str(BENCH / "jsonschema_only.py")]
        small = _measure(
            {
                "python -c pass": [sys.executable, "-c", "pass"],
                "import the catalogue": [sys.executable, "-c", "import json_contracts.findings"],
                "import the data model": [sys.executable, "-c", "import json_contracts.contracts.model"],
                "jsonschema only": [*only_jsonschema, str(starters)],
                "validate": [*exe, "validate"],
                "lint --strict": [*exe, "lint", "--strict"],
                "check support-ticket": [*exe, "check", "support-ticket", "doc.json"],
            },
            args.runs,
            work,
        )
        large_folder = generate_contracts(work / "large", 1000)
        large = _measure(
            {
                "jsonschema only": [*only_jsonschema, str(large_folder)],
                "validate": [*exe, "validate", "-c", str(large_folder)],
                "lint": [*exe, "lint", "-c", str(large_folder)],
            },
            args.large_runs,
            work,
        )
        print(f"machine: {machine()}")
        print(f"command: python bench/cold_start.py --runs {args.runs} --large-runs {args.large_runs}")
        base, floor = small["python -c pass"], small["jsonschema only"]
        print(f"starter set, median of {args.runs} (interleaved)   ms   /python -c pass  /jsonschema only")
        for name, value in small.items():
            print(f"  {name:<24}{value * 1000:>9.0f}{value / base:>14.1f}{value / floor:>17.2f}")
        print(f"1,000 contracts, median of {args.large_runs} (interleaved)   s   /jsonschema only")
        for name, value in large.items():
            print(f"  {name:<24}{value:>9.2f}{value / large['jsonschema only']:>17.2f}")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
