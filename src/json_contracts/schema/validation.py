"""Validating documents: error records ``{path, message, keyword}`` with Ajv's messages.

An :data:`ErrorRecord` is the JSON object ``validate_json`` answers with, typed. Messages come
from :func:`json_contracts.schema.ajv.message_of`; ``anyOf``/``oneOf`` failures list their
branches' errors first, as Ajv does. One generator (:func:`iter_errors`) backs :func:`validate`
and :func:`is_valid`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypedDict

import referencing.exceptions
from jsonschema import ValidationError

from json_contracts.schema.ajv import message_of
from json_contracts.schema.compiled import CompiledSchema, error_pointer
from json_contracts.schema.patterns import time_budget

__all__ = [
    "MAX_ERRORS_KEYWORD",
    "ErrorRecord",
    "ValidationResult",
    "count_errors",
    "error_records",
    "is_valid",
    "iter_errors",
    "too_many_errors",
    "validate",
]


class ErrorRecord(TypedDict):
    """One validation error as it travels: the JSON object ``validate_json`` lists in ``errors``.

    ``path`` is a JSON pointer into the document (``""`` for the root), ``message`` Ajv's
    English, ``keyword`` the JSON Schema keyword that failed (or ``false schema``, ``depth``,
    ``maxErrors``, ``$ref`` for the records json-contracts adds).
    """

    path: str
    message: str
    keyword: str


def _flatten(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    for error in errors:
        if error.validator in ("anyOf", "oneOf") and error.context:
            yield from _flatten(sorted(error.context, key=_branch_index))
        yield error


def _branch_index(error: ValidationError) -> int:
    path = error.relative_schema_path
    return path[0] if path and isinstance(path[0], int) else 0


def _record(error: ValidationError) -> ErrorRecord:
    keyword, message = message_of(error)
    return {"path": error_pointer(error), "message": message, "keyword": keyword}


def error_records(errors: Iterable[ValidationError]) -> list[ErrorRecord]:
    """Records for jsonschema errors, composite branches expanded before their composite."""
    return [_record(e) for e in _flatten(errors)]


_TOO_DEEP: ErrorRecord = {
    "path": "",
    "message": "must NOT be nested this deeply (the document or its schema recursion is too deep to check)",
    "keyword": "depth",
}


#: The keyword of the record that ends a list cut at the error limit (:func:`too_many_errors`).
MAX_ERRORS_KEYWORD = "maxErrors"


def too_many_errors(max_errors: int) -> ErrorRecord:
    """The record that ends a list cut at ``max_errors``: the agent fixes these and validates again.

    It travels with the errors (agents read one list), but it is a note, not an error: count
    with :func:`count_errors`.
    """
    return {
        "path": "",
        "message": f"must NOT have more than {max_errors} errors; fix these and validate again",
        "keyword": MAX_ERRORS_KEYWORD,
    }


def count_errors(errors: Iterable[ErrorRecord]) -> tuple[int, bool]:
    """How many real errors a list holds, and whether it was cut (it ends with the cap record).

    A list cut at 1,000 holds 1,000 errors and the cap record, which says there are more: "1000
    error(s), more not listed", never "1001 error(s)".
    """
    count, cut = 0, False
    for error in errors:
        if error["keyword"] == MAX_ERRORS_KEYWORD and error["path"] == "":
            cut = True
        else:
            count += 1
    return count, cut


def iter_errors(compiled: CompiledSchema, instance: Any, *, limit: int | None = None) -> Iterator[ErrorRecord]:
    """Every error of ``instance`` (at most ``limit + 1`` of them), in Ajv's order; never raises for any JSON value.

    With a ``limit``, validation stops once it is passed: a hostile document with 100,000 errors
    costs what one with ``limit`` errors costs.
    """
    records: list[ErrorRecord] = []
    try:
        with time_budget():  # risky patterns share one time bound per document
            # Records, not jsonschema's errors, are kept: an error object holds about ten times
            # the memory, and a 1 MiB document can have 100,000 errors.
            for error in compiled.validator.iter_errors(instance):
                records.extend(_record(e) for e in _flatten([error]))
                if limit is not None and len(records) > limit:
                    break
    except RecursionError:
        yield _TOO_DEEP
        return
    except referencing.exceptions.Unresolvable as exc:
        yield {"path": "", "message": f"can't resolve reference {exc}", "keyword": "$ref"}
        return
    except BaseException as exc:
        # rpds (under referencing) turns a RecursionError inside its Rust code into a pyo3
        # PanicException, which is not an Exception subclass; anything else propagates.
        if type(exc).__name__ != "PanicException":
            raise
        yield _TOO_DEEP
        return
    yield from records


def is_valid(compiled: CompiledSchema, instance: Any) -> bool:
    """True when ``instance`` has no errors."""
    return next(iter_errors(compiled, instance), None) is None


@dataclass(frozen=True)
class ValidationResult:
    """The outcome of validating one document; ``errors`` may end with the cap record."""

    valid: bool
    errors: list[ErrorRecord]

    @property
    def error_count(self) -> int:
        """The errors listed, without the cap record (:func:`count_errors`)."""
        return count_errors(self.errors)[0]

    @property
    def cut(self) -> bool:
        """Whether the list stopped at ``max_errors`` and more errors exist."""
        return count_errors(self.errors)[1]


def validate(compiled: CompiledSchema, instance: Any, *, max_errors: int | None = None) -> ValidationResult:
    """Validate ``instance``; the errors are the TypeScript server's records, in its order.

    With ``max_errors``, at most that many are listed, then one :func:`too_many_errors` record
    (the TypeScript server lists every error; a received document is bounded here, see ``limits``).
    """
    errors = list(iter_errors(compiled, instance, limit=max_errors))
    if max_errors is not None and len(errors) > max_errors:
        errors = [*errors[:max_errors], too_many_errors(max_errors)]
    return ValidationResult(valid=not errors, errors=errors)


def describe_errors(errors: Iterable[ErrorRecord]) -> str:
    """``/path: message (keyword); …`` — how load and edit errors quote validation errors."""
    return "; ".join(f"{e['path'] or '/'}: {e['message']} ({e['keyword']})" for e in errors)
