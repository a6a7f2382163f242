"""Looking for a witness: a document one version of a schema accepts and the other rejects.

``json-contracts diff`` proves a breaking change with a concrete document: drawn from the
version that accepts it (optionally narrowed to the place a static rule points at), judged by the
other version's validator, and shrunk by Hypothesis to the smallest such document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from json_contracts.contracts.model import Contract
from json_contracts.errors import InvalidInputError
from json_contracts.schema.compiled import CompiledSchema
from json_contracts.schema.validation import ErrorRecord, iter_errors
from json_contracts.testing.harness import CheckFailure, explore
from json_contracts.testing.results import RunOptions
from json_contracts.testing.strategies import from_contract, from_schema

__all__ = ["Search", "find_witness"]

_MAX_ERRORS = 20  # the errors a witness carries: enough to read, never a flood


@dataclass(frozen=True)
class Search:
    """What one search found: the shrunk witness and its errors (None when there is none), and how
    many documents were tried."""

    document: Any
    errors: list[ErrorRecord]
    tried: int
    found: bool


def find_witness(
    source: Contract,
    target: CompiledSchema,
    options: RunOptions,
    *,
    schema: dict[str, Any] | None = None,
) -> Search:
    """A document valid against ``source`` (or against ``schema``, a narrowed copy of its schema)
    that ``target`` rejects, shrunk; or none found in ``options.max_examples`` documents.

    A narrowed schema that cannot be drawn from (the static rule's guess does not fit the
    schema) is a search that found nothing, never an error.
    """
    try:
        strategy = from_contract(source) if schema is None else from_schema(schema, dialect=source.dialect)
    except InvalidInputError:
        return Search(None, [], 0, False)

    def body(document: Any) -> None:
        if next(iter_errors(target, document), None) is not None:
            raise CheckFailure("the other version rejects this document")

    outcome = explore(strategy, body, options)
    if outcome.failure is None:
        return Search(None, [], outcome.examples, False)
    document = outcome.counterexample
    errors = list(iter_errors(target, document, limit=_MAX_ERRORS))[:_MAX_ERRORS]
    return Search(document, errors, outcome.examples, True)
