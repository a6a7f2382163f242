"""What `json-contracts diff` costs: breaking changes in every starter, nothing changed, and 10 of 1,000.

Run: python bench/diff.py [--runs 3] [--size 1000] [--changed 10]

Each figure is the median wall time of a whole `json-contracts diff --against OLD -c NEW --json`
process (derandomised with CI=true, as in CI, at the default 100 documents per search):

* starters, 2 breaks each — the 8 starters against copies in which one optional field is made
  required and one enum value removed in each contract (or only the first where a contract has
  no enum): every break must be proven by a witness;
* starters, unchanged      — the same folder on both sides: no search at all (the report's
  `unchanged` count is checked);
* N contracts, 10 changed  — a generated folder of N realistic contracts against a copy in which
  10 of them got the same two breaks.

The script checks what it measures: the expected codes are found, each with a witness.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import STARTER, generate_contracts, machine

_REQUIRED_ADDED = "JC410"
_ENUM_VALUE_REMOVED = "JC416"


def _first(node: Any, test: Any, path: tuple[str, ...] = ()) -> tuple[tuple[str, ...], dict[str, Any]] | None:
    """The first object schema (pre-order through properties and items) for which ``test`` holds."""
    if not isinstance(node, dict):
        return None
    if test(node):
        return path, node
    for name, sub in (node.get("properties") or {}).items():
        found = _first(sub, test, (*path, "properties", name))
        if found:
            return found
    items = node.get("items")
    return _first(items, test, (*path, "items")) if isinstance(items, dict) else None


def _break(body: dict[str, Any]) -> set[str]:
    """Make one optional field required and remove one enum value; the codes that must be reported."""
    schema = body["schema"]
    codes: set[str] = set()

    def optional(node: dict[str, Any]) -> bool:
        return set(node.get("properties") or {}) - set(node.get("required") or []) != set()

    found = _first(schema, optional)
    if found:
        node = found[1]
        name = sorted(set(node["properties"]) - set(node.get("required") or []))[0]
        node["required"] = [*(node.get("required") or []), name]
        codes.add(_REQUIRED_ADDED)
    enum = _first(schema, lambda n: isinstance(n.get("enum"), list) and len(n["enum"]) > 1)
    if enum:
        enum[1]["enum"] = enum[1]["enum"][:-1]
        codes.add(_ENUM_VALUE_REMOVED)
    return codes


def _drop_invalid_examples(body: dict[str, Any]) -> None:
    """Leave out the examples the broken schema rejects, so the new version still loads (the old
    examples are still checked against it: that is JC440's job)."""
    from json_contracts.contracts.loading import contract_from_text
    from json_contracts.errors import LoadError

    while True:
        try:
            contract_from_text("bench", json.dumps(body), Path("bench.json"))
            return
        except LoadError as error:
            pointer = error.problems[0].pointer.split("/")  # /examples/0/output/... or /operations/edit/examples/1/...
            group = body if pointer[1] == "examples" else body["operations"][pointer[2]]
            index = int(pointer[2] if pointer[1] == "examples" else pointer[4])
            del group["examples"][index]


def _broken_copy(source: Path, target: Path, names: list[str]) -> dict[str, set[str]]:
    shutil.copytree(source, target)
    expected = {}
    for name in names:
        path = target / f"{name}.json"
        body = json.loads(path.read_text(encoding="utf-8"))
        expected[name] = _break(body)
        _drop_invalid_examples(body)
        path.write_text(json.dumps(body, indent=2), encoding="utf-8")
    return expected


def _diff(old: Path, new: Path) -> tuple[float, dict[str, Any]]:
    env = {**os.environ, "CI": "true"}
    command = [sys.executable, "-m", "json_contracts", "diff", "--against", str(old), "-c", str(new), "--json"]
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"diff failed ({done.returncode}): {done.stderr}")
    return elapsed, json.loads(done.stdout)


def _check(report: dict[str, Any], expected: dict[str, set[str]]) -> None:
    """Every expected break is reported as a confirmed change with a witness."""
    by_name = {c["name"]: c for c in report["contracts"]}
    for name, codes in expected.items():
        changes = by_name[name]["changes"]
        proven = {c["code"] for c in changes if c["witness"] is not None}
        missing = codes - proven
        if missing:
            raise SystemExit(f"{name}: no witness for {sorted(missing)}: {json.dumps(changes)[:400]}")


def _median(runs: int, old: Path, new: Path, expected: dict[str, set[str]]) -> tuple[float, dict[str, Any]]:
    times, report = [], {}
    for _ in range(runs):
        elapsed, report = _diff(old, new)
        times.append(elapsed)
    _check(report, expected)
    return statistics.median(times), report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--changed", type=int, default=10)
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        starters = work / "starters"
        shutil.copytree(STARTER, starters)
        names = sorted(p.stem for p in starters.glob("*.json"))
        expected = _broken_copy(starters, work / "starters-broken", names)
        seconds, report = _median(args.runs, starters, work / "starters-broken", expected)
        breaking = sum(c["verdict"] == "breaking" for c in report["contracts"])
        print(f"starters, 2 breaks each: {seconds:.2f} s ({breaking} of {len(names)} contracts breaking, "
              f"{sum(len(c) for c in expected.values())} breaks proven)")  # fmt: skip
        seconds, report = _median(args.runs, starters, starters, {})
        print(f"starters, unchanged: {seconds:.2f} s ({report['unchanged']} unchanged, no search)")
        generated = generate_contracts(work / "generated", args.size)
        chosen = sorted(p.stem for p in generated.glob("*.json"))[:: max(args.size // args.changed, 1)][: args.changed]
        expected = _broken_copy(generated, work / "generated-broken", chosen)
        seconds, report = _median(args.runs, generated, work / "generated-broken", expected)
        print(f"{args.size} contracts, {len(chosen)} changed: {seconds:.2f} s "
              f"({len(report['contracts'])} reported, {report['unchanged']} unchanged)")  # fmt: skip


if __name__ == "__main__":
    main()
