"""Validating documents: error records ``{path, message, keyword}`` with Ajv's messages.

An :data:`ErrorRecord` is the JSON object ``validate_json`` answers with, typed. Messages come
from :func:`json_contracts.schema.ajv.message_of`; ``anyOf``/``oneOf`` failures list their
branches' errors first, as Ajv does. One generator (:func:`iter_errors`) backs :func:`validate`
and :func:`is_valid`. Each document gets one CPU deadline (:mod:`json_contracts.schema.budget`):
a document that runs out of time ends its list with a ``timeout`` record and is never valid.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypedDict

import referencing.exceptions
from jsonschema import ValidationError

from json_contracts.schema.ajv import message_of
from json_contracts.schema.budget import (
    TIMEOUT_KEYWORD,
    ValidationTimeout,
    finish,
    start,
    timeout_record_message,
    validation_timeout,
)
from json_contracts.schema.compiled import CompiledSchema, error_pointer
from json_contracts.schema.patterns import pattern_timeout, time_budget

__all__ = [
    "MAX_ERRORS_KEYWORD",
    "TIMEOUT_KEYWORD",
    "ErrorRecord",
    "ValidationResult",
    "count_errors",
    "error_records",
    "is_valid",
    "iter_errors",
    "timed_out",
    "too_many_errors",
    "validate",
]


class ErrorRecord(TypedDict):
    """One validation error as it travels: the JSON object ``validate_json`` lists in ``errors``.

    ``path`` is a JSON pointer into the document (``""`` for the root), ``message`` Ajv's
    English, ``keyword`` the JSON Schema keyword that failed (or ``false schema``, ``depth``,
    ``maxErrors``, ``timeout``, ``$ref`` for the records json-contracts adds).
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


def timed_out(seconds: float) -> ErrorRecord:
    """The record that ends the list of a document not fully checked within ``seconds``.

    It is an error, not a note: the document is invalid, since what was not checked may be wrong.
    """
    return {"path": "", "message": timeout_record_message(seconds), "keyword": TIMEOUT_KEYWORD}


def _is_timeout(record: ErrorRecord) -> bool:
    return record["keyword"] == TIMEOUT_KEYWORD and record["path"] == ""


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


def iter_errors(
    compiled: CompiledSchema, instance: Any, *, limit: int | None = None, timeout: float | None = None
) -> Iterator[ErrorRecord]:
    """Every error of ``instance`` (at most ``limit + 1`` of them), in Ajv's order; never raises for any JSON value.

    With a ``limit``, validation stops once it is passed: a hostile document with 100,000 errors
    costs what one with ``limit`` errors costs. Validation stops after ``timeout`` seconds (default
    ``JSON_CONTRACTS_VALIDATION_TIMEOUT``): the errors found so far come first, then
    :func:`timed_out`.

    Raises:
        EnvironmentVariableError: ``timeout`` is None and the variable holds a bad value.
    """
    seconds = validation_timeout() if timeout is None else timeout
    pattern_seconds = min(pattern_timeout(), seconds)  # risky patterns: one bound inside the document's
    records: list[ErrorRecord] = []
    token = start(seconds)
    try:  # nothing is yielded before finish(): the caller's code never runs under this deadline
        with time_budget(pattern_seconds):
            # Records, not jsonschema's errors, are kept: an error object holds about ten times
            # the memory, and a 1 MiB document can have 100,000 errors.
            for error in compiled.validator.iter_errors(instance):
                records.extend(_record(e) for e in _flatten([error]))
                if limit is not None and len(records) > limit:
                    break
    except ValidationTimeout as exc:
        records.append(timed_out(exc.seconds))
    except RecursionError:
        records = [_TOO_DEEP]
    except referencing.exceptions.Unresolvable as exc:
        records = [{"path": "", "message": f"can't resolve reference {exc}", "keyword": "$ref"}]
    except BaseException as exc:
        # rpds (under referencing) turns a RecursionError inside its Rust code into a pyo3
        # PanicException, which is not an Exception subclass; anything else propagates.
        if type(exc).__name__ != "PanicException":
            raise
        records = [_TOO_DEEP]
    finally:
        finish(token)
    yield from records


def is_valid(compiled: CompiledSchema, instance: Any, *, timeout: float | None = None) -> bool:
    """True when ``instance`` has no errors (validation stops at the first; running out of time is one)."""
    return next(iter_errors(compiled, instance, limit=0, timeout=timeout), None) is None


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


def validate(
    compiled: CompiledSchema, instance: Any, *, max_errors: int | None = None, timeout: float | None = None
) -> ValidationResult:
    """Validate ``instance``; the errors are the TypeScript server's records, in its order.

    With ``max_errors``, at most that many are listed, then one :func:`too_many_errors` record
    (the TypeScript server lists every error; a received document is bounded here, see ``limits``).
    A document not fully checked within ``timeout`` seconds (:func:`iter_errors`) ends with the
    :func:`timed_out` record, which the cap never drops.
    """
    errors = list(iter_errors(compiled, instance, limit=max_errors, timeout=timeout))
    ending = [errors.pop()] if errors and _is_timeout(errors[-1]) else []
    if max_errors is not None and len(errors) > max_errors:
        errors = [*errors[:max_errors], too_many_errors(max_errors)]
    errors += ending
    return ValidationResult(valid=not errors, errors=errors)


def describe_errors(errors: Iterable[ErrorRecord]) -> str:
    """``/path: message (keyword); …`` — how load and edit errors quote validation errors."""
    return "; ".join(f"{e['path'] or '/'}: {e['message']} ({e['keyword']})" for e in errors)
