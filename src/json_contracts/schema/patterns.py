"""ECMA-262 ``pattern`` matching whose time is bounded for every pattern, and whose memory is bounded.

Two engines, chosen per pattern, never per guess about how risky it looks:

* **RE2, in process, linear time.** :mod:`~json_contracts.schema.ecma_linear` rewrites every
  pattern whose ECMA-262 (Unicode mode, as Ajv uses) meaning RE2 can express exactly; such a
  pattern takes time proportional to the text, whatever its shape (``^(?<w>a+)+$``,
  ``\\S+@\\S+\\.\\S+`` on a 1 MiB value: milliseconds).
* **regress, in a killable worker process.** Everything else (lookarounds, backreferences, counts
  over 1,000, …) needs a backtracking engine, and a backtracking match cannot be stopped inside a
  thread, so it runs in a worker that is killed when it overruns :func:`pattern_timeout` seconds.
  One document's validation shares one such budget (:func:`time_budget`): once a runaway match has
  spent it, the document's remaining worker matches are refused at once, so a thousand hostile
  values cost one bound, not a thousand. A match that runs out raises :class:`PatternTimeout`,
  which the validator reports as an error on that value.

``regress`` stays the syntax authority: a pattern is compiled by it first and a pattern it refuses
raises its error unchanged. Patterns longer than :data:`IN_PROCESS_LIMIT` characters are compiled
in the worker, since ``regress`` takes quadratic time on long alternations and overflows the stack
(a crash of the whole process) on some 100 KB patterns. Compiled patterns are kept in a
fixed-size LRU cache; :func:`regex_problem` (``format: "regex"``, schema checks) keeps nothing.

Lone surrogates: RE2 reads them as code points, so texts holding one stay on the linear path (a
pattern using ``\\p{…}`` excepted); ``regress`` cannot read them, so for the worker's patterns such
a value raises :class:`PatternNotChecked` rather than guessing.

``JSON_CONTRACTS_PATTERN_TIMEOUT`` (seconds, default 1) sets the bound; any other value than a
positive number is refused with an error naming the variable.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import regress
from re2 import _re2  # the binding itself: re2.compile's wrapper costs 20 µs a search, this 1 µs

from json_contracts._env import positive_seconds
from json_contracts.schema.ecma_linear import translate

__all__ = [
    "CACHE_SIZE",
    "DEFAULT_PATTERN_TIMEOUT",
    "IN_PROCESS_LIMIT",
    "PatternNotChecked",
    "PatternTimeout",
    "matches",
    "pattern_timeout",
    "property_schemas",
    "regex_problem",
    "search",
    "time_budget",
]


DEFAULT_PATTERN_TIMEOUT = 1.0
#: Compiled patterns kept (contract patterns: a folder rarely has more distinct ones).
CACHE_SIZE = 512
#: Longer patterns are compiled by ``regress`` only in the worker (see the module docstring).
IN_PROCESS_LIMIT = 1000
# RE2's memory per pattern (program and matching caches); a pattern needing more takes the worker.
_RE2_MAX_MEMORY = 2 << 20


def pattern_timeout(environ: Mapping[str, str] | None = None) -> float:
    """The time bound in seconds: ``JSON_CONTRACTS_PATTERN_TIMEOUT``, or 1.

    Raises:
        EnvironmentVariableError: the variable is set to something other than a positive number.
    """
    environ = os.environ if environ is None else environ
    return positive_seconds(environ, "JSON_CONTRACTS_PATTERN_TIMEOUT", DEFAULT_PATTERN_TIMEOUT)


class PatternNotChecked(Exception):
    """A value could not be checked against a pattern; ``reason`` says why, for the error message."""

    def __init__(self, pattern: str, reason: str) -> None:
        super().__init__(f"pattern {pattern!r} was not checked: {reason}")
        self.pattern = pattern
        self.reason = reason


class PatternTimeout(PatternNotChecked):
    """Matching a pattern in the worker took longer than :func:`pattern_timeout`."""

    def __init__(self, pattern: str, seconds: float) -> None:
        super().__init__(pattern, f"it did not finish within {seconds:g} s")
        self.seconds = seconds


# The worker. A request is a line "OP PATTERN_BYTES TEXT_BYTES" and the two UTF-8 payloads (OP m:
# match, c: compile only); the answer is one line: 1, 0, or ! and the error as a JSON string. Only
# matched patterns are cached, bounded in number and in total length.
_WORKER = """
import json, sys, regress
read, write = sys.stdin.buffer, sys.stdout.buffer
cache, cached_chars = {}, 0
while header := read.readline():
    op, pattern_size, text_size = header.split()
    pattern = read.read(int(pattern_size)).decode("utf-8", "surrogatepass")
    text = read.read(int(text_size)).decode("utf-8", "surrogatepass")
    try:
        regex = cache.get(pattern) or regress.Regex(pattern, "u")
        if op == b"m" and pattern not in cache:
            if len(cache) >= 32 or cached_chars + len(pattern) > 1 << 20:
                cache, cached_chars = {}, 0
            cache[pattern], cached_chars = regex, cached_chars + len(pattern)
        answer = b"1" if op == b"c" or regex.find(text) is not None else b"0"
    except Exception as exc:
        answer = b"!" + json.dumps(str(exc)).encode()
    write.write(answer + b"\\n")
    write.flush()
"""


class _WorkerDied(Exception):
    """The worker ended without answering (``regress`` crashed on the request)."""


class _Worker:
    """A killable ``regress`` process, started on first use and replaced after a timeout or a crash."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None

    def ask(self, op: bytes, pattern: str, text: str, timeout: float) -> bytes:
        """The worker's answer line (without its newline).

        Raises:
            TimeoutError: no answer within ``timeout`` seconds (the worker was killed).
            _WorkerDied: the worker ended without answering.
        """
        deadline = time.monotonic() + timeout
        pattern_bytes = pattern.encode("utf-8", "surrogatepass")
        text_bytes = text.encode("utf-8", "surrogatepass")
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = subprocess.Popen(
                    [sys.executable, "-c", _WORKER],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                )
            process = self._process
            assert process.stdin is not None
            assert process.stdout is not None
            try:
                process.stdin.write(b"%s %d %d\n" % (op, len(pattern_bytes), len(text_bytes)))
                process.stdin.write(pattern_bytes)
                process.stdin.write(text_bytes)
                process.stdin.flush()
                return self._answer(process.stdout.fileno(), deadline)
            except (TimeoutError, _WorkerDied, OSError) as exc:
                self.stop()  # killing it is the only way to stop a runaway backtracking match
                if isinstance(exc, OSError) and not isinstance(exc, TimeoutError):
                    raise _WorkerDied from exc
                raise

    @staticmethod
    def _answer(fd: int, deadline: float) -> bytes:
        received = b""
        while not received.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise TimeoutError
            chunk = os.read(fd, 65536)
            if not chunk:
                raise _WorkerDied
            received += chunk
        return received[:-1]

    def stop(self) -> None:
        """Kill the worker and close its pipes (a new one starts on the next request)."""
        process, self._process = self._process, None
        if process is None:
            return
        process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


_GUARD = _Worker()
atexit.register(_GUARD.stop)


_BUDGET: ContextVar[list[float] | None] = ContextVar("json_contracts_pattern_budget", default=None)


@contextmanager
def time_budget(seconds: float | None = None) -> Iterator[None]:
    """Bound the time all worker requests inside the block take together (one document's
    validation), so a document with a thousand hostile keys costs one time bound, not a thousand."""
    token = _BUDGET.set([pattern_timeout() if seconds is None else seconds])
    try:
        yield
    finally:
        _BUDGET.reset(token)


def _in_worker(op: bytes, pattern: str, text: str, timeout: float | None) -> bytes:
    """Ask the worker, within the time bound and the block's budget.

    Raises:
        PatternTimeout: past the bound, or the budget was already spent.
        _WorkerDied: the worker crashed on the request.
    """
    limit = pattern_timeout() if timeout is None else timeout
    budget = _BUDGET.get()
    if budget is not None:
        if budget[0] <= 0:
            raise PatternTimeout(pattern, limit)
        limit = min(limit, budget[0])
    started = time.monotonic()
    try:
        return _GUARD.ask(op, pattern, text, limit)
    except TimeoutError:
        raise PatternTimeout(pattern, limit) from None
    finally:
        if budget is not None:
            budget[0] -= time.monotonic() - started


def regex_problem(pattern: str, *, timeout: float | None = None) -> str | None:
    """None when ``pattern`` is a valid ECMA-262 regex (Unicode mode), else ``regress``'s reason.

    Nothing is cached, so a document's ``format: "regex"`` strings cost no lasting memory. A
    pattern over :data:`IN_PROCESS_LIMIT` characters is compiled in the worker, within the time
    bound (and the block's :func:`time_budget`); one that cannot be compiled in time, or that
    crashes ``regress``, is reported as a problem.
    """
    if len(pattern) <= IN_PROCESS_LIMIT:
        try:
            regress.Regex(pattern, "u")
        except regress.RegressError as exc:
            return str(exc)
        except UnicodeEncodeError:
            return "it holds a lone surrogate, which the regex engine cannot read"
        return None
    try:
        answer = _in_worker(b"c", pattern, "", timeout)
    except PatternTimeout as exc:
        return f"it could not be compiled within {exc.seconds:g} s; shorten it"
    except _WorkerDied:
        return "the regex engine (regress) crashed compiling it; shorten it or split it into several patterns"
    return None if answer == b"1" else str(json.loads(answer[1:]))


@dataclass(frozen=True, slots=True)
class _Compiled:
    """How one valid pattern is matched: RE2 (``linear``), else the worker."""

    linear: Any  # re2._re2.RE2 (the binding has no type information)
    surrogate_exact: bool


_UNANCHORED = _re2.RE2.Anchor.UNANCHORED


@lru_cache(maxsize=CACHE_SIZE)
def _compiled(pattern: str) -> _Compiled:
    problem = regex_problem(pattern)
    if problem is not None:
        raise regress.RegressError(problem)
    translated = translate(pattern)
    if translated is None:
        return _Compiled(None, surrogate_exact=False)
    options = _re2.RE2.Options()
    options.never_capture = True
    options.log_errors = False
    options.max_mem = _RE2_MAX_MEMORY
    linear = _re2.RE2(translated.source.encode("ascii"), options)
    return _Compiled(linear if linear.ok() else None, translated.surrogate_exact)


def _code_points_as_utf8(text: str) -> bytes:
    """UTF-8 with each lone surrogate written as its own code point (RE2 reads it as one), after
    joining the pairs a Python string may hold separately, as JavaScript would read them."""
    joined = text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")
    return joined.encode("utf-8", "surrogatepass")


def search(pattern: str, text: str, *, timeout: float | None = None) -> bool:
    """Whether ``pattern`` (ECMA-262, Unicode mode) matches anywhere in ``text``.

    Raises:
        PatternTimeout: a worker match ran past the time bound (or the block's :func:`time_budget`
            is spent).
        PatternNotChecked: ``text`` holds a lone surrogate and only ``regress`` could match.
        regress.RegressError: the pattern is not a valid ECMA-262 regular expression.
    """
    compiled = _compiled(pattern)
    try:
        data: bytes | None = text.encode()
    except UnicodeEncodeError:
        data = None
    if compiled.linear is not None:
        if data is None and compiled.surrogate_exact:
            data = _code_points_as_utf8(text)
        if data is not None:
            return bool(compiled.linear.Match(_UNANCHORED, data, 0, len(data))[0][0] >= 0)
    if data is None:
        raise PatternNotChecked(pattern, "the value holds a lone surrogate, which the regex engine cannot read")
    try:
        answer = _in_worker(b"m", pattern, text, timeout)
    except _WorkerDied:
        raise PatternNotChecked(pattern, "the regex engine (regress) crashed") from None
    if answer in (b"1", b"0"):
        return answer == b"1"
    raise ValueError(f"pattern {pattern!r} failed in the matcher: {json.loads(answer[1:])}")


def matches(pattern: str, text: str) -> bool:
    """:func:`search` for code that only steers (which sub-schema a key falls under, where to look):
    a pattern that cannot answer (invalid, out of time, a lone surrogate) does not match; the
    validator reports those problems itself.
    """
    try:
        return search(pattern, text)
    except Exception:  # regress.RegressError, PatternTimeout, PatternNotChecked, a worker failure
        return False


def property_schemas(node: dict[str, Any], name: str, *, additional: bool = True) -> list[Any]:
    """The sub-schemas of object schema ``node`` that a property called ``name`` must match: its
    ``properties`` entry and every ``patternProperties`` entry whose pattern :func:`matches` it, or,
    when none names it, ``additionalProperties`` if ``node`` has one (and ``additional`` asks)."""
    properties, patterns = node.get("properties"), node.get("patternProperties")
    found = [properties[name]] if isinstance(properties, dict) and name in properties else []
    if isinstance(patterns, dict):
        found += [sub for pattern, sub in patterns.items() if isinstance(pattern, str) and matches(pattern, name)]
    if not found and additional and "additionalProperties" in node:
        found.append(node["additionalProperties"])
    return found
