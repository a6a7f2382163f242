"""ECMA-262 ``pattern`` matching with a time bound for patterns that can backtrack catastrophically.

``regress`` is a backtracking engine with no step limit, and a thread cannot be stopped, so a
pattern such as ``^(a+)+$`` against forty ``a`` and a ``!`` would hold the validator (and the
MCP server's event loop) for hours. Patterns that :func:`~json_contracts.schema.regex_safety.backtracking_risk`
flags (the same analysis as lint JC120) are therefore matched in a small worker process that is
killed when it overruns :func:`pattern_timeout` seconds; every other pattern is matched in
process, at full speed. A match that times out raises :class:`PatternTimeout`, which the
validator reports as an error on that value. One document's validation shares one bound
(:func:`time_budget`): once a runaway match has spent it, the document's remaining risky checks
are refused at once, so a thousand hostile values cost one bound, not a thousand.

``JSON_CONTRACTS_PATTERN_TIMEOUT`` (seconds, default 1) sets the bound; any other value than a
positive number is refused with an error naming the variable.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import IO, Any

from json_contracts._env import positive_seconds
from json_contracts.schema.formats import ecma_regex
from json_contracts.schema.regex_safety import backtracking_risk

__all__ = ["DEFAULT_PATTERN_TIMEOUT", "PatternTimeout", "pattern_timeout", "search", "time_budget"]


DEFAULT_PATTERN_TIMEOUT = 1.0


def pattern_timeout(environ: Mapping[str, str] | None = None) -> float:
    """The time bound in seconds: ``JSON_CONTRACTS_PATTERN_TIMEOUT``, or 1.

    Raises:
        EnvironmentVariableError: the variable is set to something other than a positive number.
    """
    environ = os.environ if environ is None else environ
    return positive_seconds(environ, "JSON_CONTRACTS_PATTERN_TIMEOUT", DEFAULT_PATTERN_TIMEOUT)


# The worker: one JSON line in ([pattern, text]), one line out (true, false, or an error string).
_WORKER = """
import json, sys, regress
cache = {}
for line in sys.stdin:
    pattern, text = json.loads(line)
    try:
        regex = cache.get(pattern) or cache.setdefault(pattern, regress.Regex(pattern, "u"))
        answer = regex.find(text) is not None
    except Exception as exc:
        answer = str(exc)
    sys.stdout.write(json.dumps(answer) + "\\n")
    sys.stdout.flush()
"""


class PatternTimeout(Exception):
    """Matching a backtracking-prone pattern took longer than :func:`pattern_timeout`."""

    def __init__(self, pattern: str, seconds: float) -> None:
        super().__init__(f"pattern {pattern!r} did not finish within {seconds:g} s")
        self.pattern = pattern
        self.seconds = seconds


class _Worker:
    """A killable matcher process, started on first use and replaced after a timeout."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._answers: queue.Queue[str] = queue.Queue()

    def _start(self) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, "-c", _WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="surrogatepass",
        )
        answers: queue.Queue[str] = queue.Queue()
        assert process.stdout is not None
        threading.Thread(target=_pump, args=(process.stdout, answers), daemon=True).start()
        self._answers = answers
        return process

    def search(self, pattern: str, text: str, timeout: float) -> bool:
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = self._start()
            process = self._process
            assert process.stdin is not None
            process.stdin.write(json.dumps([pattern, text]) + "\n")
            process.stdin.flush()
            try:
                answer: Any = json.loads(self._answers.get(timeout=timeout))
            except queue.Empty:
                self.stop()  # killing it is the only way to stop a runaway backtracking match
                raise PatternTimeout(pattern, timeout) from None
        if isinstance(answer, bool):
            return answer
        raise ValueError(f"pattern {pattern!r} failed in the matcher: {answer}")

    def stop(self) -> None:
        """Kill the worker and close its pipes (a new one starts on the next risky match)."""
        process, self._process = self._process, None
        if process is None:
            return
        process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def _pump(stream: IO[str], answers: queue.Queue[str]) -> None:
    for line in stream:
        answers.put(line)


_GUARD = _Worker()
atexit.register(_GUARD.stop)


@lru_cache(maxsize=4096)
def _is_risky(pattern: str) -> bool:
    return backtracking_risk(pattern) is not None


_BUDGET: ContextVar[list[float] | None] = ContextVar("json_contracts_pattern_budget", default=None)


@contextmanager
def time_budget(seconds: float | None = None) -> Iterator[None]:
    """Bound the time all risky matches inside the block take together (one document's validation),
    so a document with a thousand hostile keys costs one time bound, not a thousand."""
    token = _BUDGET.set([pattern_timeout() if seconds is None else seconds])
    try:
        yield
    finally:
        _BUDGET.reset(token)


def search(pattern: str, text: str, *, timeout: float | None = None) -> bool:
    """Whether ``pattern`` (ECMA-262, Unicode mode) matches anywhere in ``text``.

    Raises:
        PatternTimeout: a backtracking-prone pattern ran past the time bound (or the block's
            :func:`time_budget` is spent).
        regress.RegressError: the pattern is not a valid ECMA-262 regular expression.
    """
    compiled = ecma_regex(pattern)
    if not _is_risky(pattern):
        return compiled.find(text) is not None
    limit = pattern_timeout() if timeout is None else timeout
    budget = _BUDGET.get()
    if budget is not None:
        if budget[0] <= 0:
            raise PatternTimeout(pattern, limit)
        limit = min(limit, budget[0])
    started = time.monotonic()
    try:
        return _GUARD.search(pattern, text, limit)
    finally:
        if budget is not None:
            budget[0] -= time.monotonic() - started
