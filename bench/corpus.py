"""The corpus results table: schemas nobody here wrote, drawn from and tested as contracts.

Run: python bench/corpus.py [--quick] [--source suite|vendored|sample ...] [--no-hjs] [--no-test]
[--no-renovate] [--json FILE]

The corpus is tests/data/corpus/ (README.md there): hypothesis-jsonschema's JSON-Schema-Test-Suite
corpus ("suite"), the SchemaStore schemas check-jsonschema vendors ("vendored") and a sample of
SchemaStore ("sample"). Four parts, each printed as a markdown table:

1. Per source, ``from_schema`` judged as the corpus tests judge it (tests/corpus/corpus.py), with
   ``--draws`` documents per schema: drawn from, refused with a reason, crashes, invalid documents
   (the oracle: jsonschema with ECMA-262 patterns), false "unsatisfiable", failed health checks.
2. Side by side with hypothesis-jsonschema: "draw 50 documents" timed the same way on both sides
   (bench/corpus_hjs.py: a ``@given`` test, ``max_examples=50``, no database, derandomized, health
   checks suppressed, the whole run per schema), theirs in a separate venv (``--hjs-venv``, created
   on demand with the pins below: hypothesis-jsonschema 0.23.1 needs Hypothesis 6.170.9 or older),
   ours in this one, alternating in chunks of schemas; medians over the schemas both draw from.
3. ``json-contracts test`` at the default budget (50 examples, default timeout) per SchemaStore
   contract, each a fresh process on a folder of its one contract: median and max seconds, how many
   over 30 s, and pass/fail/inconclusive per check.
4. renovate.json (2.2 MB, the renovate-sized schema) as a contract with raised size limits:
   ``json-contracts test`` seconds and the child's peak RSS.

``--quick`` takes a few schemas of each source, ``--max-examples 10`` for part 3 and no renovate.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.corpus: the corpus and its oracle
from _common import load_average, machine

from tests.corpus.corpus import (
    RENOVATE,
    Case,
    contract_eligible,
    contract_name,
    draw,
    problems,
    run_test,
    schemastore_cases,
    suite_cases,
    write_contracts,
)

ROOT = Path(__file__).resolve().parent.parent
#: The benchmark venv for hypothesis-jsonschema: 0.23.1 crashes on object schemas from Hypothesis
#: 6.170.10 on (``'many' object has no attribute 'more'``); 6.170.9 is the newest it runs with.
HJS_PINS = ["hypothesis==6.170.9", "hypothesis-jsonschema==0.23.1"]
SOURCES = ("suite", "vendored", "sample")
#: Raised limits for renovate.json (2.2 MB on disk, 1.3 MB compact).
RENOVATE_LIMITS = {
    "JSON_CONTRACTS_MAX_FILE_BYTES": str(8 << 20),
    "JSON_CONTRACTS_MAX_SCHEMA_BYTES": str(8 << 20),
    "JSON_CONTRACTS_MAX_FOLDER_BYTES": str(64 << 20),
}


def hjs_python(venv: Path) -> Path | None:
    """The benchmark venv's Python, created with :data:`HJS_PINS` if missing; None if that fails."""
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"creating {venv} with {' '.join(HJS_PINS)} ...", file=sys.stderr)
        made = subprocess.run([sys.executable, "-m", "venv", str(venv)], check=False)
        pip = [str(python), "-m", "pip", "install", "--quiet", *HJS_PINS]
        if made.returncode or subprocess.run(pip, check=False).returncode:
            print(f"hypothesis-jsonschema: skipped, could not build {venv}", file=sys.stderr)
            return None
    return python


def pick(source: str, quick: bool) -> list[Case]:
    cases = list(suite_cases()) if source == "suite" else [c for c in schemastore_cases() if c.source == source]
    if quick:
        cases = sorted(cases, key=lambda c: c.size)[:: max(1, len(cases) // (30 if source == "suite" else 8))]
    return cases


# --- 1. judged draws -----------------------------------------------------------------------------


def judged(cases: list[Case], draws: int) -> dict[str, Any]:
    """Outcomes (drawn, refused, ...) and problems (crash, invalid document, ...) counted per source."""
    outcomes: Counter[str] = Counter()
    found: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    examples: dict[str, str] = {}
    for case in cases:
        drawn = draw(case.schema, count=draws)
        outcomes[drawn.outcome] += 1
        if drawn.outcome == "refused":
            reasons[drawn.message.split(":")[0][:60]] += 1
        kinds = set()
        for problem in problems(case, drawn):
            kind = problem.split(":")[0].split(" #")[0]
            kinds.add(kind)
            examples.setdefault(kind, f"{case.id}: {problem[:200]}")
        found.update(kinds)
        found["sound" if not kinds else "unsound"] += 1
    return {
        "schemas": len(cases),
        "outcomes": dict(outcomes),
        "problems": dict(found),
        "refusals": dict(reasons.most_common(5)),
        "examples": examples,
    }


def print_judged(results: dict[str, dict[str, Any]], draws: int) -> None:
    print(f"\n## from_schema, {draws} documents per schema, judged by the oracle\n")
    print("| source | schemas | drawn from | refused | crashes | invalid documents | false unsatisfiable "
          "| health checks | timeouts | warnings | sound |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for source, r in results.items():
        o, p = r["outcomes"], r["problems"]
        print(f"| {source} | {r['schemas']} | {o.get('drawn', 0)} | {o.get('refused', 0)} | {p.get('crash', 0)} | "
              f"{p.get('invalid document', 0)} | {p.get('false unsatisfiable', 0)} | "
              f"{p.get('health check failed', 0)} | {p.get('timeout', 0)} | {p.get('warning', 0)} | "
              f"{p.get('sound', 0)} |")  # fmt: skip
    for source, r in results.items():
        if r["refusals"]:
            print(f"\n{source} refusals: " + "; ".join(f"{n} x {why}" for why, n in r["refusals"].items()))
        for kind, example in sorted(r["examples"].items()):
            print(f"- {source}, {kind}, e.g. {example}")


# --- 2. side by side with hypothesis-jsonschema --------------------------------------------------


#: Seconds per schema on each side before the alarm ends its draw (reported as a timeout), by default.
SIDE_SECONDS = 60


def _side(
    python: str, library: str, cases: list[Case], draws: int, work: Path, seconds: int
) -> dict[str, dict[str, Any]]:
    """Run bench/corpus_hjs.py for ``library`` over ``cases``; one result per schema.

    A schema whose line does not come within ``seconds`` plus 30 s (an alarm swallowed somewhere)
    is a timeout: the process is killed and started again on the schemas after it.
    """
    results: dict[str, dict[str, Any]] = {}
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    pending = list(cases)
    while pending:
        job = work / f"job-{library}.json"
        job.write_text(json.dumps({"draws": draws, "seconds": seconds, "schemas": [[c.id, c.schema] for c in pending]}))
        command = [python, str(ROOT / "bench" / "corpus_hjs.py"), "--library", library, str(job)]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        assert process.stdout is not None
        fd, buffered = process.stdout.fileno(), b""
        while pending:
            while b"\n" not in buffered:  # os.read, not readline: select must see every byte not yet read
                ready, _, _ = select.select([fd], [], [], seconds + 30)
                chunk = os.read(fd, 1 << 16) if ready else b""
                if not chunk:
                    break
                buffered += chunk
            if b"\n" not in buffered:
                process.kill()
                process.wait()
                killed = process.returncode < 0
                why = f"killed: no answer within {seconds + 30} s" if killed else f"exit {process.returncode}"
                outcome = "timeout" if killed else "error"
                results[pending.pop(0).id] = {"outcome": outcome, "seconds": 0.0, "error": why}
                break
            line, buffered = buffered.split(b"\n", 1)
            result = json.loads(line)
            results[result["id"]] = result
            pending.pop(0)
        else:
            process.wait()
    return results


def side_by_side(
    cases: list[Case], draws: int, theirs: Path, seconds: int = SIDE_SECONDS, chunk: int = 25
) -> dict[str, Any]:
    ours: dict[str, dict[str, Any]] = {}
    hjs: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for start in range(0, len(cases), chunk):
            part = cases[start : start + chunk]
            ours.update(_side(sys.executable, "ours", part, draws, Path(tmp), seconds))
            hjs.update(_side(str(theirs), "hjs", part, draws, Path(tmp), seconds))
    both = [c.id for c in cases if ours.get(c.id, {}).get("outcome") == "drawn"
            and hjs.get(c.id, {}).get("outcome") == "drawn"]  # fmt: skip
    result: dict[str, Any] = {
        "schemas": len(cases),
        "ours_drawn": sum(1 for r in ours.values() if r["outcome"] == "drawn"),
        "hjs_drawn": sum(1 for r in hjs.values() if r["outcome"] == "drawn"),
        "both": len(both),
        "hjs_errors": Counter(r["error"].split(":")[0] for r in hjs.values() if r["outcome"] != "drawn").most_common(3),
    }
    if both:
        mine = [ours[i]["seconds"] for i in both]
        their = [hjs[i]["seconds"] for i in both]
        result |= {
            "ours_median": statistics.median(mine),
            "hjs_median": statistics.median(their),
            "ratio_of_medians": statistics.median(mine) / statistics.median(their),
            "median_ratio": statistics.median(m / t for m, t in zip(mine, their, strict=True)),
        }
    return result


def print_side_by_side(results: dict[str, dict[str, Any]], draws: int) -> None:
    print(f"\n## Draw {draws} documents: ours beside hypothesis-jsonschema ({' '.join(HJS_PINS)})\n")
    print("| source | schemas | ours draws from | theirs draws from | both | ours median | theirs median "
          "| ours ÷ theirs (medians) | median of per-schema ratios |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for source, r in results.items():
        if "ours_median" in r:
            times = (f"{r['ours_median']:.3f} s | {r['hjs_median']:.3f} s | **{r['ratio_of_medians']:.2f} x** | "
                     f"{r['median_ratio']:.2f} x")  # fmt: skip
        else:
            times = "— | — | — | —"
        print(f"| {source} | {r['schemas']} | {r['ours_drawn']} | {r['hjs_drawn']} | {r['both']} | {times} |")
    for source, r in results.items():
        if r["hjs_errors"]:
            print(f"\n{source}, hypothesis-jsonschema's errors: " + "; ".join(f"{n} x {e}" for e, n in r["hjs_errors"]))


# --- 3. json-contracts test per contract ---------------------------------------------------------


def contract_runs(cases: list[Case], max_examples: int | None) -> list[dict[str, Any]]:
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            folder = write_contracts(Path(tmp) / contract_name(case), [case])
            began = time.perf_counter()
            report = run_test(folder, max_examples=max_examples, timeout=None)
            seconds = time.perf_counter() - began
            runs.append({"id": case.id, "seconds": seconds, "report": report})
    return runs


def print_contract_runs(runs: list[dict[str, Any]], max_examples: int | None) -> None:
    budget = "the default budget" if max_examples is None else f"--max-examples {max_examples}"
    tested = [r for r in runs if r["report"].get("results")]
    refused = [r for r in runs if not r["report"].get("results")]
    seconds = [r["seconds"] for r in tested]
    print(f"\n## json-contracts test at {budget}, one process per SchemaStore contract\n")
    if seconds:
        print(f"{len(runs)} contracts: {len(tested)} tested, {len(refused)} refused at load. Per tested contract: "
              f"median **{statistics.median(seconds):.2f} s**, max **{max(seconds):.1f} s** "
              f"({max(tested, key=lambda r: r['seconds'])['id']}), "
              f"{sum(1 for s in seconds if s > 30)} over 30 s.\n")  # fmt: skip
    outcomes: dict[str, Counter[str]] = {}
    messages: Counter[str] = Counter()
    for run in runs:
        for result in run["report"].get("results", []):
            outcomes.setdefault(result["check"], Counter())[result["outcome"]] += 1
            if result["outcome"] in {"failed", "inconclusive"}:
                messages[f"{result['check']} {result['outcome']}: {result['message'][:90]}"] += 1
        for failure in run["report"].get("loadFailures", []):
            messages[f"load: {failure['code']} {failure['message'][:90]}"] += 1
        if "crashed" in run["report"]:
            messages[f"crashed: {run['report']['crashed'][:90]}"] += 1
    print("| check | passed | failed | inconclusive | skipped |")
    print("|---|---|---|---|---|")
    for check, c in outcomes.items():
        print(f"| {check} | {c['passed']} | {c['failed']} | {c['inconclusive']} | {c['skipped']} |")
    if messages:
        print("\nMost frequent failures, inconclusive checks and refusals:\n")
        for message, n in messages.most_common(12):
            print(f"- {n} x {message}")


# --- 4. renovate ---------------------------------------------------------------------------------

_MEASURE = (
    "import json, resource, subprocess, sys, time\n"
    "began = time.perf_counter()\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
    "seconds = time.perf_counter() - began\n"
    "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(json.dumps({'seconds': seconds, 'maxrss_kib': rss, 'stdout': done.stdout, 'code': done.returncode}))\n"
)


def renovate(timeout: float | None) -> dict[str, Any]:
    """``json-contracts test`` on renovate.json with raised limits, in a fresh parent that reports the
    child's peak RSS (``RUSAGE_CHILDREN`` of a process that has no other child)."""
    case = next(c for c in schemastore_cases() if c.id == RENOVATE)
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_contracts(Path(tmp) / "renovate", [case])
        command = [sys.executable, "-m", "json_contracts", "test", "-c", str(folder), "--json", "--no-database"]
        if timeout is not None:
            command += ["--timeout", str(timeout)]
        env = {**os.environ, "CI": "true", **RENOVATE_LIMITS}
        done = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True, env=env,
                              check=True)  # fmt: skip
    measured: dict[str, Any] = json.loads(done.stdout)
    try:
        measured["report"] = json.loads(measured.pop("stdout"))
    except ValueError:
        measured["report"] = {}
    return measured


def print_renovate(measured: dict[str, Any]) -> None:
    report = measured["report"]
    outcomes = ", ".join(f"{r['check']} {r['outcome']}" for r in report.get("results", []))
    refused = "; ".join(f"{f['code']} {f['message'][:120]}" for f in report.get("loadFailures", []))
    limits = ", ".join(f"{k}={v}" for k, v in RENOVATE_LIMITS.items())
    print(f"\n## renovate.json as a contract, limits raised ({limits})\n")
    print(f"json-contracts test at the default budget: **{measured['seconds']:.1f} s**, peak RSS "
          f"**{measured['maxrss_kib'] / 1024:.0f} MiB**, exit {measured['code']}: "
          f"{outcomes or refused or 'no report'}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", action="append", choices=SOURCES, help="only this source (repeatable)")
    parser.add_argument("--quick", action="store_true", help="a few schemas per source, a small test budget")
    parser.add_argument("--draws", type=int, default=50, help="documents per schema in parts 1 and 2")
    parser.add_argument("--no-hjs", action="store_true", help="skip the side-by-side part")
    parser.add_argument("--no-test", action="store_true", help="skip json-contracts test per contract")
    parser.add_argument("--no-renovate", action="store_true", help="skip renovate.json with raised limits")
    parser.add_argument("--renovate-timeout", type=float, default=None, help="--timeout for renovate's run")
    parser.add_argument("--hjs-venv", type=Path, default=Path(tempfile.gettempdir()) / "hjs-venv")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--side-seconds", type=int, default=SIDE_SECONDS, help="per-schema bound in part 2")
    args = parser.parse_args()
    sources = args.source or list(SOURCES)
    cases = {source: pick(source, args.quick) for source in sources}
    print(f"machine: {machine()}; load average {load_average()}")
    print(f"command: python bench/corpus.py {' '.join(sys.argv[1:])}")
    figures: dict[str, Any] = {}

    figures["judged"] = {source: judged(cs, args.draws) for source, cs in cases.items()}
    print_judged(figures["judged"], args.draws)

    theirs = None if args.no_hjs else hjs_python(args.hjs_venv)
    if theirs is not None:
        figures["side_by_side"] = {
            source: side_by_side(cs, 50, theirs, args.side_seconds) for source, cs in cases.items()
        }
        print_side_by_side(figures["side_by_side"], 50)

    contracts = [
        c for s in ("vendored", "sample") for c in cases.get(s, []) if contract_eligible(c) and c.id != RENOVATE
    ]
    if contracts and not args.no_test:
        max_examples = 10 if args.quick else None
        runs = contract_runs(contracts, max_examples)
        figures["test"] = [{"id": r["id"], "seconds": r["seconds"], "report": r["report"]} for r in runs]
        print_contract_runs(runs, max_examples)

    if "vendored" in sources and not (args.quick or args.no_renovate):
        figures["renovate"] = renovate(args.renovate_timeout)
        print_renovate(figures["renovate"])
    print(f"\nload average at the end: {load_average()}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
