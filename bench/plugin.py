"""pytest plugin costs: what it adds to every pytest run while off, and how long its items take.

Run: python bench/plugin.py [--runs 15] [--item-runs 3] [--twin PATH]

* off: `pytest -q test_one.py` (one trivial test, no contracts folder configured) in
  - a *twin* virtual environment with exactly this one's packages except json-contracts
    (built with `pip freeze --exclude-editable`; `--twin` reuses one), i.e. not installed;
  - this environment, plugin loaded (the default) and blocked with `-p no:json_contracts`;
  alternating, each a fresh process, medians reported. `PYTHONDONTWRITEBYTECODE` is removed so
  bytecode (and pytest's rewritten-assert) caches work as on a developer machine; one warm-up each.
* import: `python -X importtime` of `pytest_json_contracts` after `import pytest`.
* items: `pytest --json-contracts json-contracts` on the 8 starter contracts at the default
  budget (50 examples per check, fixed seed), serial and with `-n 2`: wall time of the process
  and CPU time of it and its workers (the machine may be shared; CPU time shows the work).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _env() -> dict[str, str]:
    drop = ("PYTHONDONTWRITEBYTECODE", "PYTEST_ADDOPTS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "CI")
    return {k: v for k, v in os.environ.items() if k not in drop}


def _time(cmd: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=_env(), check=False, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout.decode()}")
    return elapsed


def _twin(path: Path | None, work: Path) -> Path:
    """A venv with this one's packages minus json-contracts; returns its python."""
    if path is not None and (path / "bin" / "python").exists():
        return path / "bin" / "python"
    target = path or work / "twin"
    freeze = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--exclude-editable"], check=True, capture_output=True, text=True
    ).stdout
    requirements = work / "requirements.txt"
    requirements.write_text(
        "\n".join(line for line in freeze.splitlines() if not line.lower().startswith("json-contracts")),
        encoding="utf-8",
    )
    subprocess.run([sys.executable, "-m", "venv", str(target)], check=True)
    subprocess.run([str(target / "bin" / "python"), "-m", "pip", "install", "-q", "-r", str(requirements)], check=True)
    return target / "bin" / "python"


def _import_ms(runs: int) -> float:
    code = "import pytest; import pytest_json_contracts"
    samples = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code], env=_env(), capture_output=True, text=True, check=True
        )
        rows = [line.split("|") for line in done.stderr.splitlines()]
        cumulative = next(int(row[1]) for row in rows if row[-1].strip() == "pytest_json_contracts")
        samples.append(cumulative / 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--item-runs", type=int, default=3)
    parser.add_argument("--twin", type=Path, help="reuse (or create at) this twin venv without json-contracts")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    try:
        project = work / "project"
        project.mkdir()
        (project / "test_one.py").write_text("def test_one():\n    pass\n", encoding="utf-8")
        twin = _twin(args.twin, work)
        pytest_args = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "test_one.py"]
        commands = {
            "not installed (twin venv)": [str(twin), *pytest_args],
            "installed, plugin off": [sys.executable, *pytest_args],
            "installed, -p no:json_contracts": [sys.executable, *pytest_args, "-p", "no:json_contracts"],
        }
        for cmd in commands.values():
            _time(cmd, project)  # warm-up: bytecode caches
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, cmd in commands.items():
                samples[name].append(_time(cmd, project))
        base = statistics.median(samples["not installed (twin venv)"])
        print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
        print(f"pytest -q test_one.py, median of {args.runs} alternating runs:")
        for name, values in samples.items():
            median = statistics.median(values)
            print(f"  {name:<34}{median * 1000:>8.1f} ms  {(median - base) * 1000:>+7.1f} ms vs not installed")
        print(f"import pytest_json_contracts after pytest: {_import_ms(args.runs):.1f} ms (median)")

        subprocess.run([sys.executable, "-m", "json_contracts", "init"], cwd=project, check=True, capture_output=True)
        items = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--json-contracts", "json-contracts",
                 "--json-contracts-seed", "0", "json-contracts"]  # fmt: skip
        for label, extra in (("serial", []), ("-n 2", ["-n", "2"])):
            runs, cpu = [], []
            for _ in range(args.item_runs):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                done = subprocess.run([*items, *extra], cwd=project, env=_env(), capture_output=True, text=True)
                runs.append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)  # xdist workers included: pytest waits for them
                cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
                summary = re.search(r"(\d+) passed", done.stdout)
                if done.returncode != 0 or summary is None:
                    raise SystemExit(done.stdout + done.stderr)
            print(
                f"8 starter contracts, {summary[1]} items, 50 examples per check, {label}: "
                f"{statistics.median(runs):.1f} s wall, {statistics.median(cpu):.1f} s CPU (median of {args.item_runs})"
            )
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
