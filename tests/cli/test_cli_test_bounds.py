"""``json-contracts test`` on hostile contracts, in a real process held to a memory and a time bound.

Before: ``maxLength: 1e9`` took 2.9 GB at five documents per check (a crash under 1.5 GB);
``minItems: 100000`` ran for over 90 s (11 minutes on a quiet machine) and then called the schema
unsatisfiable; a check that raised a Rust panic (a BaseException) ended the whole run with a
traceback and no result for any contract; there was no time budget.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.hostile import Ran, run_bounded

MEMORY_LIMIT = 1536 * 2**20  # address space for the child: far less than a 1e9-character string costs
SECONDS = 120.0  # the killing bound; the runs take a few seconds

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS and ru_maxrss in KiB are Linux's")

TICKET = {"schema": {"type": "object", "properties": {"t": {"type": "string"}}, "required": ["t"]}}


def _value(schema: dict[str, Any]) -> dict[str, Any]:
    return {"schema": {"type": "object", "properties": {"v": schema}, "required": ["v"]}}


def _run(cwd: Path, *args: str, env: dict[str, str] | None = None) -> Ran:
    """The installed script under the memory limit; killed past SECONDS; its own peak RSS (wait4)."""
    unset = ("CI", "JSON_CONTRACTS_DIR", "JSON_CONTRACTS_TEST_TIMEOUT", "FORCE_COLOR")
    return run_bounded(["test", *args], cwd=cwd, timeout=SECONDS, env=env, address_space=MEMORY_LIMIT, unset=unset)


def _folder(tmp_path: Path, contracts: dict[str, dict[str, Any]]) -> Path:
    folder = tmp_path / "contracts"
    folder.mkdir()
    for name, contract in contracts.items():
        (folder / f"{name}.json").write_text(json.dumps(contract), encoding="utf-8")
    return folder


def test_a_huge_max_length_costs_no_memory(tmp_path: Path) -> None:
    _folder(tmp_path, {"long": _value({"type": "string", "maxLength": 1_000_000_000}), "ticket": TICKET})

    run = _run(tmp_path, "-c", "contracts", "--max-examples", "5", "--seed", "1", "--no-database")

    assert run.returncode == 0, run.stdout + run.stderr
    assert run.peak_mib < 700, run.peak_mib  # 2.9 GB before
    assert "not built, over 100,000 characters or items: string too long (maxLength 1000000000 at /v)" in run.stdout
    assert "Traceback" not in run.stderr


def test_a_huge_min_items_is_inconclusive_quickly_not_unsatisfiable(tmp_path: Path) -> None:
    _folder(tmp_path, {"many": _value({"type": "array", "minItems": 100_000}), "ticket": TICKET})

    run = _run(tmp_path, "-c", "contracts", "--max-examples", "1", "--seed", "1", "--no-database", "--json")

    assert run.returncode == 0, run.stdout + run.stderr  # inconclusive does not fail the run
    assert run.seconds < 60  # over 90 s before (11 minutes on a quiet machine)
    report = json.loads(run.stdout)
    assert report["ok"] is True
    assert report["counts"] == {"passed": 6, "failed": 0, "skipped": 2, "inconclusive": 4}
    satisfiable = next(r for r in report["results"] if r["contract"] == "many" and r["check"] == "satisfiable")
    assert satisfiable["outcome"] == "inconclusive"
    assert "minItems 100000 at /properties/v/minItems asks for more than the 1,000 items" in satisfiable["message"]
    assert satisfiable["pointer"] == "/schema/properties/v/minItems"
    assert satisfiable["line"] == 1
    assert satisfiable["column"] > 1


def test_inconclusive_checks_are_warnings_in_text_and_github_output(tmp_path: Path) -> None:
    _folder(tmp_path, {"many": _value({"type": "string", "minLength": 10_000_000})})

    text = _run(tmp_path, "-c", "contracts", "--max-examples", "1", "--seed", "1", "--no-database")
    github = _run(
        tmp_path, "-c", "contracts", "--max-examples", "1", "--seed", "1", "--no-database", "--format", "github"
    )

    assert text.returncode == github.returncode == 0, text.stdout + github.stdout
    assert "crashed" not in text.stdout  # InvalidArgument from Hypothesis before
    lines = text.stdout.splitlines()
    assert any(
        line.startswith("warn contracts/many.json:1:") and "JC201 warning satisfiable: " in line for line in lines
    )
    assert lines[-1] == "6 check(s) on 1 contract(s): 1 passed, 0 failed, 1 skipped, 4 inconclusive (seed 1)."
    assert "::warning file=contracts/many.json" in github.stdout


def test_the_time_budget_ends_a_slow_contract_as_inconclusive(tmp_path: Path) -> None:
    # Thirty keys drawn one random name at a time: a search of about 100 s.
    _folder(tmp_path, {"slow": _value({"type": "object", "minProperties": 30}), "ticket": TICKET})

    run = _run(tmp_path, "-c", "contracts", "--max-examples", "200", "--seed", "3", "--no-database", "--timeout", "3")

    assert run.returncode == 0, run.stdout + run.stderr
    assert run.seconds < 60
    assert "the contract's time budget (3 s) ran out" in run.stdout
    assert "pass ticket samples-valid" in run.stdout  # the other contract gets its own budget


def test_the_time_budget_variable_is_read_and_a_bad_value_is_a_usage_error(tmp_path: Path) -> None:
    _folder(tmp_path, {"slow": _value({"type": "object", "minProperties": 30})})

    bad = _run(tmp_path, "-c", "contracts", env={"JSON_CONTRACTS_TEST_TIMEOUT": "soon"})
    good = _run(tmp_path, "-c", "contracts", "--max-examples", "200", "--seed", "3", "--no-database",
                env={"JSON_CONTRACTS_TEST_TIMEOUT": "2"})  # fmt: skip

    assert bad.returncode == 2
    assert "JSON_CONTRACTS_TEST_TIMEOUT must be a positive number of seconds, got 'soon'" in bad.stderr
    assert good.returncode == 0, good.stdout + good.stderr
    assert "the contract's time budget (2 s) ran out" in good.stdout


_PANIC = '''
"""Makes one contract's samples-valid check raise what a Rust panic raises: no Exception."""
import json_contracts.testing.checks as checks

class PanicException(BaseException):
    pass

_real = checks._CHECKS["samples-valid"]

def _panicking(contract, options):
    if contract.name == "crash":
        raise PanicException("called `Option::unwrap()` on a `None` value")
    return _real(contract, options)

checks._CHECKS["samples-valid"] = _panicking
'''


def test_a_panic_in_one_contract_loses_no_other_result(tmp_path: Path) -> None:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(_PANIC, encoding="utf-8")
    _folder(tmp_path, {"crash": TICKET, "ticket": TICKET})
    path = os.pathsep.join(filter(None, [str(hooks), os.environ.get("PYTHONPATH")]))

    args = ("-c", "contracts", "--max-examples", "3", "--seed", "1", "--no-database")

    run = _run(tmp_path, *args, env={"PYTHONPATH": path})
    report = json.loads(_run(tmp_path, *args, "--json", env={"PYTHONPATH": path}).stdout)

    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert (
        "FAIL contracts/crash.json:1:1: JC202 error samples-valid: the check itself crashed (PanicException: "
        "called `Option::unwrap()` on a `None` value) on contract 'crash'"
    ) in run.stdout
    assert "pass crash hashes" in run.stdout
    assert "pass ticket samples-valid" in run.stdout
    assert report["ok"] is False
    assert report["counts"] == {"passed": 9, "failed": 1, "skipped": 2}
