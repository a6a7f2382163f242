"""Looking for a witness: a document one version of a schema accepts and the other rejects.

``json-contracts diff`` proves a breaking change with a concrete document: drawn from the
version that accepts it (optionally narrowed to the place a static rule points at), judged by the
other version's validator, and shrunk by Hypothesis to the smallest such document. A drawn
document is kept only when the source version's own validator accepts it, so a narrowing that
went too far can cost time, never a false witness. ``accept`` lets the caller say which rejected
documents count: the focused search asks for the errors its change explains, the broad search for
errors no change already proven explains.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from json_contracts.contracts.model import Contract
from json_contracts.errors import InvalidInputError
from json_contracts.schema.compiled import CompiledSchema
from json_contracts.schema.validation import ErrorRecord, is_valid, iter_errors
from json_contracts.testing.harness import CheckFailure, explore
from json_contracts.testing.results import RunOptions
from json_contracts.testing.strategies import from_contract, from_schema

__all__ = ["Accept", "Search", "find_witness", "witness_errors"]

_MAX_ERRORS = 20  # the errors a witness carries: enough to read, never a flood

#: Whether a document the target rejects, with these errors, is the witness the caller looks for.
Accept = Callable[[Any, list[ErrorRecord]], bool]


@dataclass(frozen=True)
class Search:
    """What one search found: the shrunk witness and its errors (None when there is none), and how
    many documents were tried."""

    document: Any
    errors: list[ErrorRecord]
    tried: int
    found: bool


def witness_errors(target: CompiledSchema, document: Any) -> list[ErrorRecord]:
    """The target's errors for a document, as many as a witness carries."""
    return list(iter_errors(target, document, limit=_MAX_ERRORS))[:_MAX_ERRORS]


def find_witness(
    source: Contract,
    target: CompiledSchema,
    options: RunOptions,
    *,
    schema: dict[str, Any] | None = None,
    accept: Accept | None = None,
) -> Search:
    """A document valid against ``source`` (drawn from ``schema``, a narrowed copy of its schema,
    when given) that ``target`` rejects, and that ``accept`` takes; shrunk. None found in
    ``options.max_examples`` documents is a search that found nothing.

    A narrowed schema that cannot be drawn from (the static rule's guess does not fit the
    schema) is a search that found nothing, never an error.
    """
    try:
        strategy = from_contract(source) if schema is None else from_schema(schema, dialect=source.dialect)
    except InvalidInputError:
        return Search(None, [], 0, False)
    if schema is not None:
        strategy = strategy.filter(lambda document: is_valid(source.compiled, document))

    def body(document: Any) -> None:
        errors = witness_errors(target, document)
        if errors and (accept is None or accept(document, errors)):
            raise CheckFailure("the other version rejects this document")

    outcome = explore(strategy, body, options)
    if outcome.failure is None:
        return Search(None, [], outcome.examples, False)
    document = outcome.counterexample
    return Search(document, witness_errors(target, document), outcome.examples, True)
