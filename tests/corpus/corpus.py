"""The corpus and how it is judged, shared by the corpus tests and ``bench/corpus.py``.

Only the public API is exercised: :func:`json_contracts.testing.from_schema`, and
``json-contracts test --json`` in a subprocess on a folder of contracts that each wrap one schema.

The oracle for a drawn document is not our validator (the strategies already filter with it, so it
would only agree with itself): it is jsonschema's own validator for the schema's dialect, with one
change. ``pattern`` and ``patternProperties`` (and the ``additionalProperties`` and
``unevaluatedProperties`` that depend on them) are ECMA-262 regular expressions in every dialect,
which Python's ``re`` is not (``\\d`` matches Unicode digits, ``$`` a final newline, ``\\p{L}`` is
an error), so while the oracle runs, jsonschema's ``re.search`` is answered by ``regress``, an
ECMA-262 engine that none of the code under test reaches through this path. ``format`` is an
annotation for the oracle, as it is for jsonschema by default: our formats are Ajv's, stricter in
places, and the contracts' ``samples-valid`` check judges them with the contract's validator.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, SimpleNamespace
from typing import Any
from unittest import mock

import jsonschema._keywords
import jsonschema._legacy_keywords
import jsonschema._utils
import regress
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import FailedHealthCheck, Unsatisfiable
from jsonschema.validators import Draft202012Validator, validator_for
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable

from json_contracts import InvalidInputError
from json_contracts.testing import from_schema

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
VENDORED = CORPUS / "schemastore" / "vendored"
SAMPLE = CORPUS / "schemastore" / "sample"
SAMPLE_EXAMPLES = CORPUS / "schemastore" / "sample-examples"

#: The suite's schemas carry no ``$schema``: their name says the dialect, which we write in.
SUITE_DIALECTS = {
    "draft4": "http://json-schema.org/draft-04/schema#",
    "draft7": "http://json-schema.org/draft-07/schema#",
}
#: Documents drawn per schema by the tests (derandomized): the suite's schemas are small, SchemaStore's
#: are not (the corpus tests must stay within about 3 minutes on 2 workers).
DRAWS = 20
DRAWS_SCHEMASTORE = 10
#: Seconds one schema's draws may take before the test says so (generous: a loaded machine).
DRAW_SECONDS = 60.0
#: The renovate-sized schema: in the slow set only.
RENOVATE = "vendored/renovate.json"
#: Contract-eligible dialects (the TypeScript server's rule): draft-07, 2020-12, or no ``$schema``.
CONTRACT_DIALECTS = {"draft-07", "2020-12", "none"}

# A refusal is the schema's own problem when it names one, in the exact words the tool uses for it:
# another file (from_schema's refusal, or the loader's unresolvable reference to something that is
# not a local "#..." place), a size limit, or a pattern that is not ECMA-262. Any other refusal,
# including "can't resolve reference #/..." (a local reference the checker failed to follow), is
# reported.
_OWN_PROBLEM = re.compile(
    r"^the schema refers to another file: "
    r"|^Invalid JSON Schema: can't resolve reference (?!#)\S+ from id \S+; (remote references are never fetched"
    r"|only references inside this contract \(#\.\.\.\) are followed)"
    r"|^Contract (file|schema) exceeds size limit \("
    r"|must match format \"regex\" \([^)]*\); write the pattern as an ECMA-262 regular expression",
)


def dialect_of(schema: Any) -> str:
    """``draft-04``, ``draft-06``, ``draft-07``, ``2019-09``, ``2020-12``, ``none`` or ``other``."""
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if not isinstance(declared, str):
        return "none"
    for mark in ("draft-04", "draft-06", "draft-07", "2019-09", "2020-12"):
        if mark in declared:
            return mark
    return "other"


# --- the data ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One schema of the corpus: ``source`` is suite, vendored or sample; ``name`` is unique within it."""

    source: str
    name: str
    schema: Any
    #: ground truth: True (a document exists), False (none does)
    satisfiable: bool = True
    #: a document known valid, for a satisfiable schema the suite lists as "invalid"
    witness: Any = None
    has_witness: bool = False
    examples: tuple[Any, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.source}/{self.name}"

    @property
    def dialect(self) -> str:
        return dialect_of(self.schema)

    @property
    def size(self) -> int:
        return len(json.dumps(self.schema, separators=(",", ":"), ensure_ascii=False).encode())


@functools.cache
def suite_cases() -> tuple[Case, ...]:
    """hypothesis-jsonschema's corpus: the satisfiable dict, then the "invalid" one judged here.

    Its second dict holds schemas it cannot draw from; ``suite-witnesses.json`` names the ones a
    document satisfies all the same (each witness is checked by the oracle in the tests).
    """
    satisfiable, invalid = json.loads((CORPUS / "suite.json").read_text(encoding="utf-8"))
    witnesses = json.loads((CORPUS / "suite-witnesses.json").read_text(encoding="utf-8"))
    cases = [Case("suite", name, _with_dialect(name, schema)) for name, schema in satisfiable.items()]
    for name, schema in invalid.items():
        known = name in witnesses
        cases.append(
            Case(
                "suite",
                name,
                _with_dialect(name, schema),
                satisfiable=known,
                witness=witnesses.get(name),
                has_witness=known,
            )
        )
    return tuple(cases)


def _with_dialect(name: str, schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    return {"$schema": SUITE_DIALECTS[name.split("/", 1)[0]], **schema}


@functools.cache
def schemastore_cases() -> tuple[Case, ...]:
    """The vendored schemas, then the sample, each with the sample's SchemaStore test documents."""
    cases = []
    for source, folder in (("vendored", VENDORED), ("sample", SAMPLE)):
        for path in sorted(folder.glob("*.json")):
            examples_file = SAMPLE_EXAMPLES / path.name
            examples = json.loads(examples_file.read_text(encoding="utf-8")) if examples_file.exists() else []
            schema = json.loads(path.read_text(encoding="utf-8"))
            cases.append(Case(source, path.name, schema, examples=tuple(examples)))
    return tuple(cases)


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@functools.cache
def fast_ids() -> frozenset[str]:
    """The SchemaStore schemas of the default run: 30 of them, chosen deterministically.

    Every vendored schema up to 64 KiB (compact), then sampled ones up to 64 KiB in the order of the
    SHA-256 of their name, until there are 30.
    """
    small = [c for c in schemastore_cases() if c.size <= 65_536 and c.id != RENOVATE]
    chosen = [c.id for c in small if c.source == "vendored"]
    chosen += sorted((c.id for c in small if c.source == "sample"), key=_hash)[: 30 - len(chosen)]
    return frozenset(chosen)


# --- the oracle ----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def _ecma(pattern: str) -> Any:
    return regress.Regex(pattern, "u")


def _ecma_search(pattern: str, string: str) -> bool:
    return _ecma(pattern).find(string) is not None


_ECMA_RE = SimpleNamespace(search=_ecma_search)


def _no_network(uri: str) -> Resource[Any]:
    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]


#: Offline: the official meta-schemas (jsonschema's own registry) and nothing fetched.
_OFFLINE = Registry(retrieve=_no_network)  # type: ignore[call-arg]


@contextlib.contextmanager
def _ecma_patterns() -> Iterator[None]:
    with (
        mock.patch.object(jsonschema._keywords, "re", _ECMA_RE),
        mock.patch.object(jsonschema._utils, "re", _ECMA_RE),
        mock.patch.object(jsonschema._legacy_keywords, "re", _ECMA_RE),
    ):
        yield


def oracle_errors(schema: Any, document: Any) -> list[str]:
    """Why jsonschema (ECMA-262 patterns, offline) rejects ``document``; empty when it accepts it."""
    cls = validator_for(schema, default=Draft202012Validator)
    validator = cls(schema, registry=_OFFLINE)
    try:
        with _ecma_patterns():
            return [f"{e.json_path}: {e.message}"[:300] for e in validator.iter_errors(document)]
    except Unresolvable as exc:
        return [f"the oracle cannot resolve a reference offline: {exc}"]
    except regress.RegressError as exc:
        return [f"a pattern is not ECMA-262: {exc}"]


# --- drawing -------------------------------------------------------------------------------------


class _OutOfTime(BaseException):
    """Raised by the alarm: a BaseException, so Hypothesis does not take it for a failing example."""


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: FrameType | None) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, ring)
    # Repeats every half second until cleared: raised where it is swallowed (a garbage-collector
    # callback), it is raised again at the next chance.
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.5)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Drawn:
    """What ``from_schema`` did with one schema.

    ``outcome``: drawn, refused (InvalidInputError), unsatisfiable (Hypothesis found nothing),
    health-check, crash (anything else raised), or timeout.
    """

    outcome: str
    documents: list[Any] = field(default_factory=list)
    message: str = ""
    seconds: float = 0.0
    #: warnings raised while drawing (a Hypothesis deprecation is a problem too), the same in the
    #: tests, where pytest would turn them into errors, and in the benchmark, where it would not
    warned: list[str] = field(default_factory=list)


def draw(schema: Any, count: int = DRAWS, seconds: float = DRAW_SECONDS) -> Drawn:
    """``count`` documents from ``from_schema(schema)``: derandomized, no database, no shrinking.

    Every health check is on except ``too_slow``, which measures time and would flake on a loaded
    machine (the time bound here is ``seconds``, and the benchmark measures speed).
    """
    documents: list[Any] = []
    began = time.perf_counter()
    caught: list[warnings.WarningMessage] = []

    def result(outcome: str, message: str = "") -> Drawn:
        warned = sorted({f"{w.category.__name__}: {w.message}"[:300] for w in caught})
        return Drawn(outcome, documents, message, time.perf_counter() - began, warned)

    try:
        with _alarm(seconds), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            strategy = from_schema(schema)

            @settings(
                max_examples=count,
                derandomize=True,
                database=None,
                deadline=None,
                phases=[Phase.generate],
                suppress_health_check=[HealthCheck.too_slow],
            )
            @given(strategy)
            def collect(document: Any) -> None:
                documents.append(document)

            collect()
    except _OutOfTime:
        return result("timeout", f"drew {len(documents)} of {count} documents in {seconds:g} s")
    except Exception as exc:
        if time.perf_counter() - began >= seconds:  # the alarm, wrapped by Hypothesis (FlakyStrategyDefinition)
            return result("timeout", f"drew {len(documents)} of {count} documents in {seconds:g} s")
        return _classified(exc, result)
    return result("drawn")


def _classified(exc: Exception, result: Callable[[str, str], Drawn]) -> Drawn:
    """refused (InvalidInputError), unsatisfiable, health-check, or crash (anything else)."""
    if isinstance(exc, InvalidInputError):
        return result("refused", str(exc))
    if isinstance(exc, Unsatisfiable):
        return result("unsatisfiable", str(exc).splitlines()[0])
    if isinstance(exc, FailedHealthCheck):
        return result("health-check", " ".join(str(exc).split())[:300])
    return result("crash", f"{type(exc).__name__}: {exc}"[:500])


def own_problem(message: str) -> bool:
    """Whether a refusal names the schema's own problem (another file, a limit, a pattern)."""
    return bool(_OWN_PROBLEM.search(message))


def problems(case: Case, drawn: Drawn) -> list[str]:
    """What is wrong with ``drawn`` for ``case``: an empty list when all is well.

    A satisfiable schema must be drawn from, or refused for its own problem; an unsatisfiable one
    may be refused or found empty; no schema may crash or yield a document the oracle rejects.
    """
    found = []
    for index, document in enumerate(drawn.documents):
        errors = oracle_errors(case.schema, document)
        if errors:
            shown = json.dumps(document, ensure_ascii=False)[:300]
            found.append(f"invalid document #{index}: {shown}: {'; '.join(errors[:3])}")
            break
    found += [f"warning: {warned}" for warned in drawn.warned]
    if drawn.outcome == "crash":
        found.append(f"crash: {drawn.message}")
    elif drawn.outcome == "timeout":
        found.append(f"timeout: {drawn.message}")
    elif case.satisfiable:
        if drawn.outcome == "unsatisfiable":
            found.append(f"false unsatisfiable: {drawn.message}")
        elif drawn.outcome == "health-check":
            found.append(f"health check failed: {drawn.message}")
        elif drawn.outcome == "refused" and not own_problem(drawn.message):
            found.append(f"refused without naming the schema's own problem: {drawn.message}")
    return found


# --- as contracts, through the CLI ---------------------------------------------------------------


def contract_eligible(case: Case) -> bool:
    return isinstance(case.schema, dict) and case.dialect in CONTRACT_DIALECTS


def contract_name(case: Case) -> str:
    """A contract name (``^[A-Za-z0-9][A-Za-z0-9._-]*$``) unique across sources."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "-", case.name.removesuffix(".json")).replace("..", ".")
    return f"{case.source}--{stem}"


def contract_for(case: Case) -> dict[str, Any]:
    """The contract wrapping ``case``'s schema: a description, and SchemaStore's test documents the
    oracle accepts as examples (so the ``examples`` check runs on real documents)."""
    body: dict[str, Any] = {
        "description": f"SchemaStore's {case.name}, wrapped by tests/corpus.",
        "schema": case.schema,
    }
    examples = [doc for doc in case.examples if not oracle_errors(case.schema, doc)]
    if examples:
        body["examples"] = [{"input": f"SchemaStore test document {i}", "output": d} for i, d in enumerate(examples)]
    return body


#: ``json-contracts test`` as the tests run it: a small budget (10 examples for the default subset, 5
#: for the rest, to keep the whole corpus within the CI limit), bounded time, derandomized.
TEST_MAX_EXAMPLES = 10
TEST_MAX_EXAMPLES_SLOW = 5
TEST_TIMEOUT = 30.0
CHUNK = 8


def run_test(
    folder: Path, *, max_examples: int | None, timeout: float | None, env: dict[str, str] | None = None
) -> Any:
    """``json-contracts test -c folder --json`` (derandomized, no database); its parsed report.

    A run that does not print a report (it crashed, or outlived every contract's time budget plus
    a minute) is ``{"crashed": why}``.
    """
    command = [sys.executable, "-m", "json_contracts", "test", "-c", str(folder), "--json", "--no-database"]
    if max_examples is not None:
        command += ["--max-examples", str(max_examples)]
    if timeout is not None:
        command += ["--timeout", str(timeout)]
    environment = {**os.environ, "CI": "true", **(env or {})}
    contracts = len(list(folder.glob("*.json")))
    limit = None if timeout is None else contracts * timeout + 60
    try:
        completed = subprocess.run(command, capture_output=True, text=True, env=environment, check=False, timeout=limit)
    except subprocess.TimeoutExpired:
        return {"crashed": f"did not finish within {limit:g} s ({contracts} contracts, --timeout {timeout:g})"}
    try:
        report: Any = json.loads(completed.stdout)
    except ValueError:
        last = [line for line in completed.stderr.splitlines() if line.strip()][-3:]
        return {"crashed": f"exit {completed.returncode}; stderr ends: {' / '.join(last)[-600:]}"}
    return report


def write_contracts(folder: Path, cases: list[Case]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for case in cases:
        text = json.dumps(contract_for(case), ensure_ascii=False)
        (folder / f"{contract_name(case)}.json").write_text(text, encoding="utf-8")
    return folder


def session_reports(
    cases: list[Case], cache: Path, label: str, max_examples: int = TEST_MAX_EXAMPLES
) -> dict[str, Any]:
    """Each contract's name -> the ``test --json`` report of the chunk it ran in; run once per session.

    The contracts run in chunks of :data:`CHUNK` per subprocess, two subprocesses at a time (the
    machine's two cores), so one crash or hang costs one chunk. Whichever xdist worker asks first
    runs them all under a file lock in ``cache`` (shared by the workers); the others wait and read.
    """
    cache.mkdir(parents=True, exist_ok=True)
    stored = cache / f"{label}.json"
    with (cache / f"{label}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stored.exists():
            chunks = [cases[i : i + CHUNK] for i in range(0, len(cases), CHUNK)]
            folders = [write_contracts(cache / label / f"chunk-{i:03d}", chunk) for i, chunk in enumerate(chunks)]
            with ThreadPoolExecutor(max_workers=2) as pool:
                reports = list(
                    pool.map(lambda f: run_test(f, max_examples=max_examples, timeout=TEST_TIMEOUT), folders)
                )
            by_name = {contract_name(c): report for chunk, report in zip(chunks, reports, strict=True) for c in chunk}
            stored.write_text(json.dumps(by_name), encoding="utf-8")
    result: dict[str, Any] = json.loads(stored.read_text(encoding="utf-8"))
    return result


def contract_problems(case: Case, report: Any) -> list[str]:
    """What ``test --json`` said was wrong with ``case``'s contract: failed checks, and load
    refusals that do not name the schema's own problem. Inconclusive checks are not problems."""
    if "crashed" in report:
        return [f"json-contracts test crashed: {report['crashed']}"]
    name = contract_name(case)
    found = []
    # A file refused before its contract is read (JC013, size) has no "contract", only its "file".
    refusals = [
        f
        for f in report.get("loadFailures", [])
        if f.get("contract") == name or Path(str(f.get("file"))).name == f"{name}.json"
    ]
    for failure in refusals:
        if not own_problem(failure.get("message", "")):
            found.append(f"load refused: {failure.get('code')} {failure.get('message')}")
    loaded = bool(refusals)
    results = [r for r in report.get("results", []) if r.get("contract") == name]
    if not results and not loaded:
        found.append("neither tested nor refused")
    for result in results:
        if result.get("outcome") == "failed":
            details = " | ".join(str(line) for line in result.get("details", [])[:6])
            found.append(f"{result.get('check')}: {result.get('code')} {result.get('message')}  [{details[:400]}]")
    return found
