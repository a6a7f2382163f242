"""Property checks that prove a contract sound: what ``json-contracts test`` and the pytest plugin run.

Each check has a stable id (reused as a pytest item id) and a finding code:

==================  =====  =========================================================================
``satisfiable``     JC201  at least one document exists (static proof first, then a search)
``samples-valid``   JC202  drawn documents validate, also after a JSON text round trip, and the
                           generator needs no heavy filtering (the keyword to blame is named)
``examples``        JC203  every example output, and every edit example's ``currentJson``, validates
``repair-hints``    JC204  a broken document gets a hint and a repair per error, and following the
                           repairs makes it valid again
``edit``            JC205  for a valid ``currentJson`` the edit payload builds and an unchanged
                           document validates
``hashes``          JC206  key order and whitespace never change ``contractHash``/``schemaHash``
==================  =====  =========================================================================

Results are data (:class:`CheckResult`); adapters render them. A check that cannot decide is
``inconclusive``, with the reason: the contract's time budget ran out (:attr:`RunOptions.time_budget`),
or a keyword asks for a value larger than the checks build (:data:`MAX_DRAWN_SIZE`,
:data:`MAX_BUILT_SIZE`). A check that crashes, whatever it raised, is a failed result naming the
exception; the other checks and contracts still run.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from json_contracts._json.reading import parse_json
from json_contracts._json.text import dumps
from json_contracts.agent.payloads import edit_payload, validation_payload
from json_contracts.agent.repair import field_hints, repairs
from json_contracts.contracts.limits import Limits
from json_contracts.contracts.loading import contract_from_text
from json_contracts.contracts.model import Contract
from json_contracts.errors import JsonContractsError, LoadError
from json_contracts.findings import Code
from json_contracts.findings.catalogue import CHECK_CODES
from json_contracts.lint import lint_contract
from json_contracts.schema.validation import ErrorRecord, validate
from json_contracts.testing.harness import CheckFailure, Exploration, OutOfTime, explore
from json_contracts.testing.mutations import MAX_BUILT_SIZE, Mutation, apply_repairs, mutations
from json_contracts.testing.results import (
    CHECK_IDS,
    CheckResult,
    ExampleRef,
    Outcome,
    RunOptions,
    document_lines,
    error_lines,
    example_refs,
    run_example,
)
from json_contracts.testing.strategies import (
    MAX_DRAWN_SIZE,
    SampleStats,
    blame_message,
    for_subschema,
    from_contract,
)

__all__ = [
    "CHECK_CODES",
    "CHECK_IDS",
    "CheckResult",
    "ExampleRef",
    "Outcome",
    "RunOptions",
    "example_refs",
    "run_check",
    "run_checks",
    "run_example",
]

HEAVY_FILTERING = 0.5  # more than this share of candidates rejected fails samples-valid
_MAX_CRASH_MESSAGE = 500  # characters of a crashing exception's message quoted in the result


def _count(number: int, singular: str, plural: str) -> str:
    """``1 example validates``, ``2 examples validate``: a message a person reads must agree with its number."""
    return f"{number} {singular if number == 1 else plural}"


# --- the checks --------------------------------------------------------------------------------------


def _satisfiable(contract: Contract, options: RunOptions) -> CheckResult:
    static = [f for f in lint_contract(contract) if f.code == Code.UNSATISFIABLE_SCHEMA]
    if static:
        return CheckResult(contract.name, "satisfiable", "failed", static[0].message, static[0].pointer)
    stats = SampleStats()
    outcome = explore(
        from_contract(contract, stats=stats, max_depth=options.max_depth),
        _stop_at_first,
        replace(options, max_examples=max(options.max_examples, 100)),
    )
    if outcome.failure is not None:
        return CheckResult(
            contract.name,
            "satisfiable",
            "passed",
            "a valid document exists",
            details=tuple(document_lines("found", outcome.counterexample)),
            examples=outcome.examples,
        )
    if (too_large := _too_large(contract, "satisfiable", stats, outcome)) is not None:
        return too_large
    return CheckResult(
        contract.name,
        "satisfiable",
        "failed",
        f"no valid document found ({blame_message(stats)}); the schema is unsatisfiable there, or too narrow to sample",
        _schema_pointer(stats),
        examples=outcome.examples,
        rejected_share=stats.rejected_share,
    )


def _stop_at_first(_document: Any) -> None:
    raise CheckFailure("found")  # ends the search at the first valid document (shrunk to a small one)


def _schema_pointer(stats: SampleStats) -> str:
    blamed = stats.most_blamed()
    return "/schema" + blamed[1] if blamed else "/schema"


def _too_large(contract: Contract, check: str, stats: SampleStats, outcome: Exploration) -> CheckResult | None:
    """Inconclusive when no document was drawn and a keyword asked for more than the generator
    draws: saying the schema is unsatisfiable, or that nothing could be drawn, would be false."""
    if not stats.too_large or stats.accepted:
        return None
    (keyword, pointer), value = next(iter(stats.too_large.items()))
    unit = {"minLength": "characters", "minProperties": "properties"}.get(keyword, "items")
    message = (
        f"no document could be drawn: {keyword} {value} at {pointer} asks for more than the "
        f"{MAX_DRAWN_SIZE:,} {unit} the checks draw, so this check cannot decide (the schema may well be "
        "satisfiable); a smaller bound makes the contract testable"
    )
    return CheckResult(contract.name, check, "inconclusive", message, "/schema" + pointer, examples=outcome.examples)


def _samples_valid(contract: Contract, options: RunOptions) -> CheckResult:
    stats = SampleStats()

    def body(document: Any) -> None:
        result = validate(contract.compiled, document)
        if not result.valid:
            raise CheckFailure("a drawn document does not validate", error_lines(contract, result.errors))
        reread = parse_json(json.dumps(document, ensure_ascii=False))
        again = validate(contract.compiled, reread)
        if not again.valid:
            raise CheckFailure(
                "a valid document no longer validates once written as JSON text and read back",
                error_lines(contract, again.errors),
            )

    outcome = explore(from_contract(contract, stats=stats, max_depth=options.max_depth), body, options)
    share = stats.rejected_share

    def result(outcome_: Outcome, message: str, pointer: str = "", details: list[str] | None = None) -> CheckResult:
        return CheckResult(contract.name, "samples-valid", outcome_, message, pointer, tuple(details or ()),
                           outcome.examples, share)  # fmt: skip

    if outcome.failure is not None:
        details = document_lines("document", outcome.counterexample) + outcome.failure.details
        return result("failed", outcome.failure.message, "/schema", details + _cut_short(outcome))
    if (too_large := _too_large(contract, "samples-valid", stats, outcome)) is not None:
        return too_large
    if outcome.unsatisfiable or outcome.examples == 0:
        return result("failed", f"no document could be drawn: {blame_message(stats)}", _schema_pointer(stats))
    if share > HEAVY_FILTERING:
        # What the schema says is allowed is built, not filtered; what is left is a keyword whose
        # values are rare among those the rest of the schema allows, and that is the schema's to narrow.
        blamed = stats.most_blamed()
        culprit = f"{blamed[0]} at {blamed[1] or '/'}" if blamed else "one of its keywords"
        message = (
            f"sampling needs heavy filtering: the schema makes most candidates fail {culprit} "
            f"({round(share * 100)}% of drawn candidates were rejected; overlapping oneOf branches and a not that "
            "excludes most of its type do this); narrow it there"
        )
        return result("failed", message, _schema_pointer(stats))
    drawn = _count(outcome.examples, "drawn document validates", "drawn documents validate")
    return result("passed", f"{drawn} ({round(share * 100)}% of candidates filtered)")


#: Failing parts of examples named in the ``examples`` check's message, at most; the rest are counted.
_MAX_NAMED_FAILURES = 5


def _cut_short(outcome: Exploration) -> list[str]:
    """A line saying the counterexample was not shrunk all the way, when time ran out first."""
    if not outcome.cut_short:
        return []
    return ["note: the time budget ran out while shrinking, so this document may not be the smallest"]


def _failed_part(ref: ExampleRef, result: CheckResult) -> str:
    """Which part of which example failed (``currentJson of operations.edit.examples[0]``), read off
    the failure's pointer: an edit example can fail by its ``currentJson`` as well as its output."""
    part = result.pointer[len(ref.pointer) + 1 :].split("/", 1)[0] or "output"
    return f"{part} of {ref.label}[{ref.index}]"


def _examples(contract: Contract, options: RunOptions) -> CheckResult:
    refs = example_refs(contract)
    if not refs:
        return CheckResult(contract.name, "examples", "skipped", "the contract has no examples", "/examples")
    failures = [(ref, r) for ref, r in ((ref, run_example(contract, ref)) for ref in refs) if r.outcome == "failed"]
    if failures:
        parts = [_failed_part(ref, result) for ref, result in failures]
        named = ", ".join(parts[:_MAX_NAMED_FAILURES])
        if len(parts) > _MAX_NAMED_FAILURES:
            named += f" and {len(parts) - _MAX_NAMED_FAILURES} more"
        count = f"{len(failures)} of {_count(len(refs), 'example', 'examples')}"
        if len(failures) == 1:
            message = f"{named} does not validate against the schema ({count})"
        else:
            message = f"{named} do not validate against the schema ({count}; the first is shown)"
        return replace(failures[0][1], check="examples", message=message)
    message = _count(len(refs), "example validates", "examples validate")
    return CheckResult(contract.name, "examples", "passed", message, examples=len(refs))


def _repair_hints(contract: Contract, options: RunOptions) -> CheckResult:
    strategy = st.data()
    stats = SampleStats()
    documents = from_contract(contract, stats=stats, max_depth=options.max_depth)
    subschemas: dict[Hashable, st.SearchStrategy[Any]] = {}
    tried: list[str] = []
    drawn: list[None] = []  # one entry per valid document drawn: none means nothing could be mutated
    too_large: dict[str, None] = {}  # mutations left out as larger than MAX_BUILT_SIZE, in order

    def body(data: st.DataObject) -> None:
        document = data.draw(documents, label="document")
        drawn.append(None)
        candidates = mutations(contract.schema, document)
        too_large.update(dict.fromkeys(candidates.too_large))
        if not candidates:
            return
        mutation: Mutation = data.draw(st.sampled_from(candidates), label="mutation")
        mutant = mutation.apply(document)
        result = validate(contract.compiled, mutant)
        if result.valid:
            return  # another keyword allows it (e.g. an anyOf branch): nothing to repair
        tried.append(mutation.kind)

        def fill(node: Any) -> Any:
            key = _node_key(node)
            if key not in subschemas:
                subschemas[key] = for_subschema(contract, node, max_depth=options.max_depth)
            return data.draw(subschemas[key], label="repair value")

        current, errors = mutant, result.errors
        for _round in range(3):  # a model gets the hints again if its first fix was incomplete
            _require_guidance(contract, errors, mutation, mutant)
            current = apply_repairs(contract.schema, current, repairs(contract.schema, errors), fill)
            errors = validate(contract.compiled, current).errors
            if not errors:
                return
        details = (
            document_lines("broken document", mutant)
            + error_lines(contract, validate(contract.compiled, mutant).errors)
            + document_lines("after following the repairs", current)
            + error_lines(contract, errors)
        )
        raise CheckFailure(
            f"following the repairs for '{mutation.kind}' at {mutation.path or '/'} does not make the document valid",
            details,
        )

    outcome = explore(strategy, body, options)
    if outcome.failure is not None:
        failure = outcome.failure
        return CheckResult(contract.name, "repair-hints", "failed", failure.message, failure.pointer or "/schema",
                           tuple(failure.details + _cut_short(outcome)), outcome.examples)  # fmt: skip
    if not drawn and (result := _too_large(contract, "repair-hints", stats, outcome)) is not None:
        return result
    if not drawn:  # e.g. an unsatisfiable schema: saying no mutation broke anything would mislead
        message = "no valid document could be drawn to break (the schema looks unsatisfiable; see satisfiable)"
        return CheckResult(contract.name, "repair-hints", "skipped", message, examples=outcome.examples)
    left_out = f"; not built, over {MAX_BUILT_SIZE:,} characters or items: {', '.join(too_large)}" if too_large else ""
    if not tried and too_large:
        message = f"no mutation could be built to break a drawn document{left_out}"
        return CheckResult(contract.name, "repair-hints", "inconclusive", message, "/schema", examples=outcome.examples)
    if not tried:
        message = "no mutation made a drawn document invalid"
        return CheckResult(contract.name, "repair-hints", "skipped", message, examples=outcome.examples)
    repaired = _count(len(tried), "broken document repaired", "broken documents repaired")
    message = f"{repaired} ({', '.join(sorted(set(tried)))}){left_out}"
    return CheckResult(contract.name, "repair-hints", "passed", message, examples=outcome.examples)


def _node_key(node: Any) -> Hashable:
    """A cache key for a node to draw a repair value from, by identity: ``value_schema`` gives the
    contract's own sub-schemas, or ``allOf``/``anyOf`` wrappers made afresh around them. Their JSON
    text would do too, but costs as much as the schema: a repair at the root writes all of it."""
    if isinstance(node, dict) and len(node) == 1:
        ((keyword, parts),) = node.items()
        if keyword in ("allOf", "anyOf") and isinstance(parts, list):
            return (keyword, tuple(_node_key(part) for part in parts))
    return id(node) if isinstance(node, dict | list) else (type(node).__name__, node)


def _require_guidance(contract: Contract, errors: list[ErrorRecord], mutation: Mutation, mutant: Any) -> None:
    """Every error has a hint and a repair naming its path."""
    planned = repairs(contract.schema, errors)
    for error in errors:
        if not field_hints(contract.schema, [error]):
            raise CheckFailure(f"error at {error['path'] or '/'} ({error['keyword']}) gets no hint")
        if not any(entry["path"] == error["path"] for entry in planned):
            details = document_lines("broken document", mutant) + error_lines(contract, errors)
            raise CheckFailure(f"error at {error['path'] or '/'} ({error['keyword']}) gets no repair", details)


def _edit(contract: Contract, options: RunOptions) -> CheckResult:
    edit = contract.operations["edit"]
    if not edit["enabled"]:
        return CheckResult(contract.name, "edit", "skipped", "the edit operation is disabled", "/operations")
    pointer = "/operations/edit"

    def body(document: Any) -> None:
        try:
            payload = edit_payload(contract, document, "Change nothing.")
        except JsonContractsError as exc:
            raise CheckFailure(f"the edit payload does not build for a valid currentJson: {exc}") from exc
        carried = payload["currentJson"]
        # Unchanged as the agent reads it: the same JSON text. The payload may hold a copy with
        # integer-like keys moved first, as the TypeScript server's JavaScript objects hold them.
        if carried is not document and dumps(carried, indent=None) != dumps(document, indent=None):
            raise CheckFailure("the edit payload does not carry currentJson unchanged")
        unchanged = validation_payload(contract, document)
        if not unchanged["valid"]:
            raise CheckFailure(
                "returning currentJson unchanged does not validate", error_lines(contract, unchanged["errors"])
            )

    # The payload is plain data around the document, so half the budget finds what the full one would.
    budget = replace(options, max_examples=max(1, options.max_examples // 2))
    stats = SampleStats()
    outcome = explore(from_contract(contract, stats=stats, max_depth=options.max_depth), body, budget)
    if outcome.failure is not None:
        details = document_lines("currentJson", outcome.counterexample) + outcome.failure.details + _cut_short(outcome)
        return CheckResult(contract.name, "edit", "failed", outcome.failure.message, pointer, tuple(details),
                           outcome.examples)  # fmt: skip
    if outcome.examples == 0 and (too_large := _too_large(contract, "edit", stats, outcome)) is not None:
        return too_large
    if outcome.examples == 0:
        return CheckResult(contract.name, "edit", "skipped", "no valid document could be drawn (see satisfiable)")
    message = f"edit payload built for {_count(outcome.examples, 'document', 'documents')}"
    return CheckResult(contract.name, "edit", "passed", message, examples=outcome.examples)


def _shuffled(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {k: _shuffled(value[k], rng) for k in keys}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


def _reload_limits(contract: Contract) -> Limits:
    """The limits the ``hashes`` check reloads a re-serialised contract under: the defaults, raised
    to the compact schema size and example count this contract already has.

    The contract loaded under the run's limits (``JSON_CONTRACTS_MAX_*`` may have raised them), and
    a new key order or spacing changes neither number, so the reload judges the hashes, never the
    limits. The depth limits' defaults are already their ceilings: a run can only lower them.
    """
    schema_bytes = len(dumps(contract.raw.get("schema"), indent=None).encode("utf-8", "surrogatepass"))
    examples = sum(len(group) for _label, _pointer, group in contract.all_examples())
    defaults = Limits()
    return replace(
        defaults,
        max_schema_bytes=max(defaults.max_schema_bytes, schema_bytes),
        max_examples=max(defaults.max_examples, examples),
    )


def _hashes(contract: Contract, options: RunOptions) -> CheckResult:
    if contract.source is None:
        return CheckResult(contract.name, "hashes", "skipped", "the contract has no source file")
    path = contract.source.path
    limits = _reload_limits(contract)
    # A seeded Random (drawn whole, not choice by choice): a layout after a failure is not shuffled at all.
    rng = st.randoms(use_true_random=True)
    layouts = st.tuples(rng, st.sampled_from([None, 0, 1, 2, 4, "\t"]), st.booleans())
    failures: list[str] = []

    def body(layout: tuple[random.Random, Any, bool]) -> None:
        if failures:
            return  # one failing layout says it all: no shrinking, no more reloads of a large file
        rng, indent, ascii_only = layout
        text = json.dumps(_shuffled(contract.raw, rng), indent=indent, ensure_ascii=ascii_only)
        try:
            again = contract_from_text(contract.name, text, path, limits)
        except LoadError as exc:
            failures.append(f"the re-serialised contract no longer loads: {exc}")
            return
        for name, before, after in (
            ("contractHash", contract.contract_hash, again.contract_hash),
            ("schemaHash", contract.schema_hash, again.schema_hash),
        ):
            if before != after:
                failures.append(f"{name} changed from {before} to {after} when only key order or spacing changed")
                return

    # Each layout reorders every key at once and reloads the whole file, so a few suffice. A failure
    # is recorded, not raised: the layout is what failed, and shrinking it would reload the file
    # hundreds of times (minutes for a 200 KiB contract) to show nothing more.
    outcome = explore(layouts, body, replace(options, max_examples=min(options.max_examples, 10)))
    if failures:
        return CheckResult(contract.name, "hashes", "failed", failures[0], examples=outcome.examples)
    message = f"hashes stable across {_count(outcome.examples, 'layout', 'layouts')}"
    return CheckResult(contract.name, "hashes", "passed", message, examples=outcome.examples)


_CHECKS: dict[str, Callable[[Contract, RunOptions], CheckResult]] = {
    "satisfiable": _satisfiable,
    "samples-valid": _samples_valid,
    "examples": _examples,
    "repair-hints": _repair_hints,
    "edit": _edit,
    "hashes": _hashes,
}


def run_check(contract: Contract, check: str, options: RunOptions | None = None) -> CheckResult:
    """Run one named check (see :data:`CHECK_IDS`) on one contract.

    Never raises for the contract's sake (only Ctrl-C and ``SystemExit`` go through): running out of
    ``options.deadline`` is ``inconclusive``, and any exception, even one that is no ``Exception``
    (a Rust panic in a compiled dependency), is a failed result naming it, so one contract can
    never cost the results of the others.
    """
    options = _with_deadline(options or RunOptions())
    if options.seed is None and not options.derandomize:
        options = replace(options, seed=random.randrange(2**32))  # printed on failure, to repeat the run
    try:
        result = _CHECKS[check](contract, options)
    except OutOfTime as stop:
        result = _out_of_time(contract, check, options, stop.examples)
    except RecursionError:
        result = CheckResult(contract.name, check, "failed", "the schema nests too deeply to draw documents from")
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a bug of ours (or a panic below us) must read as one, not as a traceback in CI
        result = CheckResult(contract.name, check, "failed", _crash_message(contract, exc))
    return replace(result, seed=options.seed if not options.derandomize else None,
                   source=contract.source.path if contract.source else None)  # fmt: skip


def _with_deadline(options: RunOptions) -> RunOptions:
    """``options`` with its deadline set from its time budget, counted from now, unless already set."""
    if options.time_budget is None or options.deadline is not None:
        return options
    return replace(options, deadline=time.monotonic() + options.time_budget)


def _out_of_time(contract: Contract, check: str, options: RunOptions, examples: int) -> CheckResult:
    budget = f"{options.time_budget:g} s" if options.time_budget is not None else "set"
    done = f"after {_count(examples, 'document', 'documents')}" if examples else "before it could try a document"
    message = (
        f"the contract's time budget ({budget}) ran out {done}; raise it with --timeout or "
        "JSON_CONTRACTS_TEST_TIMEOUT (pytest: --json-contracts-timeout), or lower --max-examples"
    )
    return CheckResult(contract.name, check, "inconclusive", message, examples=examples)


def _crash_message(contract: Contract, exc: BaseException) -> str:
    """``the check itself crashed (PanicException: ...) on contract 'x'``: one line, of bounded length."""
    text = " ".join(str(exc).split())
    if len(text) > _MAX_CRASH_MESSAGE:
        text = text[:_MAX_CRASH_MESSAGE] + f"... ({len(text) - _MAX_CRASH_MESSAGE} more characters)"
    detail = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return f"the check itself crashed ({detail}) on contract '{contract.name}'; please report this with the contract"


def run_checks(
    contract: Contract, options: RunOptions | None = None, checks: Iterable[str] = CHECK_IDS
) -> list[CheckResult]:
    """Run the named checks (all by default) on one contract, in :data:`CHECK_IDS` order, sharing
    one time budget (``options.time_budget``, counted from this call)."""
    shared = _with_deadline(options or RunOptions())
    return [run_check(contract, check, shared) for check in CHECK_IDS if check in set(checks)]
