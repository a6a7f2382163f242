"""A per-document CPU deadline for validation, whatever the schema asks for.

Each keyword is made linear in the document where it can be, but a schema can still multiply
work (a wide ``anyOf`` on every item, a ``$ref`` that descends the whole document at each level),
so the validation of one document also runs against a clock. The validator classes built in
:mod:`json_contracts.schema.compiled` call :func:`check` before every keyword that descends
(and before ``enum``, ``format`` and ``pattern``), and our own keywords call it inside their long
loops; once the document has used :func:`validation_timeout` seconds of CPU time, :func:`check`
raises :class:`ValidationTimeout` and :func:`json_contracts.schema.validation.iter_errors` ends
the error list with a ``timeout`` record, so a document that ran out of time is never reported
valid. CPU time, not wall time: a busy machine slows a document down but never fails it.

The clock is cooperative: one keyword's own work between two checks is not interrupted, which is
why every keyword and format check is kept linear in the value it reads. Risky ``pattern``
matches keep their own bound (``JSON_CONTRACTS_PATTERN_TIMEOUT``, wall time in a worker process,
:func:`json_contracts.schema.patterns.time_budget`), never longer than this one.

``JSON_CONTRACTS_VALIDATION_TIMEOUT`` (seconds, default 10) sets the deadline; any other value than
a positive number is refused with an error naming the variable.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Any

from json_contracts._env import positive_seconds

__all__ = [
    "DEFAULT_VALIDATION_TIMEOUT",
    "TIMEOUT_KEYWORD",
    "Cancellation",
    "ValidationTimeout",
    "bounded",
    "cancellable",
    "check",
    "deadline",
    "finish",
    "remaining",
    "start",
    "timeout_record_message",
    "validation_timeout",
]

#: CPU seconds one document's validation may take when ``JSON_CONTRACTS_VALIDATION_TIMEOUT`` is
#: unset. The slowest 1 MiB document measured against the starter contracts and this project's
#: own (an array grown to 1 MiB, 1,000 errors) took 2.5 s; ten leaves room for costlier schemas.
DEFAULT_VALIDATION_TIMEOUT = 10.0

#: The keyword of the record that ends the error list of a document that ran out of time.
TIMEOUT_KEYWORD = "timeout"

_VARIABLE = "JSON_CONTRACTS_VALIDATION_TIMEOUT"


_PARSED: dict[str | None, float] = {}  # raw value -> seconds: read for every document, parsed once


def validation_timeout(environ: Mapping[str, str] | None = None) -> float:
    """The per-document deadline in seconds: ``JSON_CONTRACTS_VALIDATION_TIMEOUT``, or 10.

    Raises:
        EnvironmentVariableError: the variable is set to something other than a positive number.
    """
    environ = os.environ if environ is None else environ
    raw = environ.get(_VARIABLE)
    seconds = _PARSED.get(raw)
    if seconds is None:
        seconds = positive_seconds(environ, "JSON_CONTRACTS_VALIDATION_TIMEOUT", DEFAULT_VALIDATION_TIMEOUT)
        if len(_PARSED) < 64:
            _PARSED[raw] = seconds
    return seconds


class ValidationTimeout(Exception):
    """The document's validation ran past its deadline (raised by :func:`check`)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"validation did not finish within {seconds:g} s")
        self.seconds = seconds


class _Deadline:
    """A budget of CPU seconds for the current thread, checked against the wall clock.

    Reading the thread's CPU clock is a system call; the monotonic clock is nearly free. So
    :func:`check` compares the monotonic clock with ``at``, the moment the budget would be spent
    if the thread had the processor to itself, and only when that moment has passed reads the CPU
    clock: either the budget is spent, or the machine was busy and ``at`` moves on by what is
    left. A loaded machine (other processes, other threads) slows a document down, but never
    makes it run out of time sooner.
    """

    __slots__ = ("at", "cpu_at", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        now = _clock()
        self.at = now + seconds
        self.cpu_at = _cpu_start(now) + seconds

    def left(self) -> float:
        """CPU seconds left, after moving ``at`` to match them."""
        now = _clock()
        cpu = _cpu_clock()
        _SAMPLE.taken = (now, cpu)
        left = self.cpu_at - cpu
        self.at = now + left
        return left

    def spend(self) -> None:
        """Leave no time: the next :func:`check` raises (a cancellation, from any thread)."""
        self.cpu_at = float("-inf")
        self.at = float("-inf")


_CURRENT: ContextVar[_Deadline | None] = ContextVar("json_contracts_validation_deadline", default=None)

#: How old the thread's last CPU-clock reading may be and still start a deadline. Reading the
#: thread's CPU clock is a system call: 1.2 µs on the project's quiet 2-core virtual machine, but
#: 35 µs while both cores were busy (a third of a small ``validate_json`` call), so back-to-back
#: documents share one reading.
_SAMPLE_AGE = 0.05
_SAMPLE = threading.local()  # .taken: (monotonic, thread CPU) of the last reading in this thread


def _cpu_start(now: float) -> float:
    """The thread's CPU clock for a deadline starting at ``now``, never earlier than the truth.

    A reading less than :data:`_SAMPLE_AGE` old stands in for a new one, moved on by the wall time
    since it was taken (the thread cannot have used more CPU than that): the budget then counts
    from at most 50 ms of CPU later than it should, so a document gets at most 50 ms more than its
    budget and never less.
    """
    taken: tuple[float, float] | None = getattr(_SAMPLE, "taken", None)
    if taken is not None and now - taken[0] <= _SAMPLE_AGE:
        return taken[1] + (now - taken[0])
    cpu = _cpu_clock()
    _SAMPLE.taken = (now, cpu)
    return cpu


class Cancellation:
    """A handle another thread uses to end work it no longer wants (a cancelled MCP request).

    Work run inside :func:`cancellable` registers every deadline it starts here; :meth:`cancel`
    spends them all at once, so the work stops at its next :func:`check` as if out of time, and
    deadlines started afterwards begin spent. It costs the checks nothing: they read the same
    two numbers as before.
    """

    __slots__ = ("_deadlines", "cancelled")

    def __init__(self) -> None:
        self.cancelled = False
        self._deadlines: list[_Deadline] = []

    def cancel(self) -> None:
        """End the work at its next check (safe from any thread, more than once)."""
        self.cancelled = True
        for spent in list(self._deadlines):
            spent.spend()

    def _register(self, started: _Deadline) -> None:
        if self.cancelled:
            started.spend()
        self._deadlines.append(started)


_CANCELLATION: ContextVar[Cancellation | None] = ContextVar("json_contracts_cancellation", default=None)


@contextmanager
def cancellable(handle: Cancellation) -> Iterator[None]:
    """Run the block so that ``handle.cancel()`` from another thread stops its validations."""
    token = _CANCELLATION.set(handle)
    try:
        yield
    finally:
        _CANCELLATION.reset(token)


_clock = time.monotonic
_cpu_clock = time.thread_time


def start(seconds: float) -> Token[_Deadline | None]:
    """Start a deadline ``seconds`` from now; hand the token to :func:`finish` (in a ``finally``).

    A deadline started inside another that has less time left keeps that one, so validating an
    example inside a larger job never extends the job's own deadline. (The pair costs less than
    :func:`deadline`, and it runs once per validated document.)
    """
    outer = _CURRENT.get()
    if outer is not None and outer.left() <= seconds:
        return _CURRENT.set(outer)
    started = _Deadline(seconds)
    handle = _CANCELLATION.get()
    if handle is not None:
        handle._register(started)
    return _CURRENT.set(started)


def finish(token: Token[_Deadline | None]) -> None:
    """End the deadline :func:`start` returned ``token`` for."""
    _CURRENT.reset(token)


@contextmanager
def deadline(seconds: float | None = None) -> Iterator[None]:
    """Give the work inside the block ``seconds`` (default :func:`validation_timeout`); nested
    blocks keep the earlier end (:func:`start`).

    Raises:
        EnvironmentVariableError: ``seconds`` is None and the variable holds a bad value.
    """
    token = start(validation_timeout() if seconds is None else seconds)
    try:
        yield
    finally:
        finish(token)


def check() -> None:
    """Raise :class:`ValidationTimeout` once the current deadline has passed; cheap, call it often.

    Outside a :func:`deadline` block it does nothing (a validator used directly, e.g. by lint on
    a contract's own values, is bounded by the contract limits instead).
    """
    current = _CURRENT.get()
    if current is not None and _clock() > current.at and current.left() <= 0:
        raise ValidationTimeout(current.seconds)


#: A jsonschema keyword function: (validator, value, instance, schema) -> errors (or None).
Keyword = Callable[[Any, Any, Any, Any], Any]


def bounded(keyword: Keyword) -> Keyword:
    """``keyword`` with a deadline :func:`check` before it runs (the check is inlined: it runs
    before every keyword of every document, so it costs two lookups and a clock read)."""

    def bounded_keyword(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        current = _CURRENT.get()
        if current is not None and _clock() > current.at and current.left() <= 0:
            raise ValidationTimeout(current.seconds)
        return keyword(validator, value, instance, schema)

    bounded_keyword.__name__ = getattr(keyword, "__name__", "keyword")
    bounded_keyword.__doc__ = keyword.__doc__
    return bounded_keyword


def remaining() -> float | None:
    """CPU seconds left before the current deadline (at least 0), or None outside a block."""
    current = _CURRENT.get()
    return None if current is None else max(0.0, current.left())


def timeout_record_message(seconds: float) -> str:
    """Ajv-style wording for the record that ends a list cut by the deadline."""
    return (
        f"must be checked within {seconds:g} s of CPU time; the document was not fully checked and may hold "
        f"more errors: send a smaller document, or raise {_VARIABLE}"
    )
