"""SchemaStore schemas (the 26 check-jsonschema vendors and a sample of 223), as nobody here wrote them.

Each schema is drawn from with the public ``from_schema`` (10 documents, judged as in ``test_suite.py``), and each
one a contract may hold (draft-07, 2020-12 or no ``$schema``) is wrapped as a contract and run
through ``json-contracts test --json`` (the real CLI, many contracts per subprocess): every check
passes, or is inconclusive, or the file is refused for the schema's own problem (a size limit,
another file). The default run takes 30 of them (``fast_ids``); the rest are ``slow``. A failure
names the schema, the check and its message. ``test`` runs at ``--max-examples 10`` on the default
subset and 5 on the rest, ``--timeout 30`` per contract: the whole corpus stays within the CI limit.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.corpus.corpus import (
    DRAWS_SCHEMASTORE,
    TEST_MAX_EXAMPLES_SLOW,
    Case,
    contract_eligible,
    contract_name,
    contract_problems,
    draw,
    fast_ids,
    problems,
    schemastore_cases,
    session_reports,
)

CASES = schemastore_cases()
FAST = [c for c in CASES if c.id in fast_ids()]
REST = [c for c in CASES if c.id not in fast_ids()]
FAST_CONTRACTS = [c for c in FAST if contract_eligible(c)]
REST_CONTRACTS = [c for c in REST if contract_eligible(c)]


def _ids(cases: list[Case]) -> list[str]:
    return [c.id for c in cases]


@pytest.fixture(scope="session")
def reports_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the xdist workers of one session share (each worker's base is a sub-folder of it)."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "corpus-test-reports"


def _check_draws(case: Case) -> None:
    drawn = draw(case.schema, count=DRAWS_SCHEMASTORE)
    found = problems(case, drawn)
    assert not found, f"{case.id} ({case.dialect}, {drawn.outcome}): " + " || ".join(found)


def _check_contract(case: Case, reports: dict[str, Any]) -> None:
    found = contract_problems(case, reports[contract_name(case)])
    assert not found, f"{case.id} as contract {contract_name(case)}: " + " || ".join(found)


@pytest.mark.parametrize("case", FAST, ids=_ids(FAST))
def test_schemastore_schema_is_drawn_from_soundly(case: Case) -> None:
    _check_draws(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", REST, ids=_ids(REST))
def test_every_schemastore_schema_is_drawn_from_soundly(case: Case) -> None:
    _check_draws(case)


@pytest.mark.parametrize("case", FAST_CONTRACTS, ids=_ids(FAST_CONTRACTS))
def test_schemastore_contract_passes_json_contracts_test(case: Case, reports_cache: Path) -> None:
    _check_contract(case, session_reports(FAST_CONTRACTS, reports_cache, "fast"))


@pytest.mark.slow
@pytest.mark.parametrize("case", REST_CONTRACTS, ids=_ids(REST_CONTRACTS))
def test_every_schemastore_contract_passes_json_contracts_test(case: Case, reports_cache: Path) -> None:
    _check_contract(case, session_reports(REST_CONTRACTS, reports_cache, "rest", TEST_MAX_EXAMPLES_SLOW))


def test_the_report_judge_flags_failures_and_accepts_inconclusive_and_own_problems() -> None:
    """What ``contract_problems`` makes of a ``test --json`` report, for one contract."""
    case = Case("sample", "x.json", {"type": "object"})
    name = contract_name(case)

    def report(outcome: str = "passed", **extra: Any) -> dict[str, Any]:
        result = {"contract": name, "check": "samples-valid", "outcome": outcome, "message": "m", "code": "JC202"}
        return {"results": [result], "loadFailures": [], **extra}

    assert contract_problems(case, report()) == []
    assert contract_problems(case, report("inconclusive")) == []
    assert contract_problems(case, report("failed"))[0].startswith("samples-valid: JC202 m")
    size = {"code": "JC013", "message": "Contract file exceeds size limit (1 > 0 bytes)", "file": f"d/{name}.json"}
    assert contract_problems(case, {"results": [], "loadFailures": [{**size, "contract": None}]}) == []
    odd = {"code": "JC016", "message": "Invalid contract shape: x", "contract": name}
    assert contract_problems(case, {"results": [], "loadFailures": [odd]}) == [
        "load refused: JC016 Invalid contract shape: x"
    ]
    unresolved = "Invalid JSON Schema: can't resolve reference {} from id #; remote references are never fetched"

    def refused(message: str) -> dict[str, Any]:
        return {"results": [], "loadFailures": [{"code": "JC019", "message": message, "contract": name}]}

    assert contract_problems(case, refused(unresolved.format("a.json#/x"))) == []  # another file: its own problem
    local = unresolved.format("#/definitions/x")  # a local place the checker could not follow: reported
    assert contract_problems(case, refused(local)) == [f"load refused: JC019 {local}"]
    assert contract_problems(case, {"results": [], "loadFailures": []}) == ["neither tested nor refused"]
    assert "crashed" in contract_problems(case, {"crashed": "exit 1"})[0]
