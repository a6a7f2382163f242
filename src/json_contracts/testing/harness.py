"""Running one property with Hypothesis, quietly, and getting back the shrunk counterexample.

The checks run outside any test framework (CLI, Action) as well as inside pytest, so they
drive ``@given`` directly: no deadline, health checks off (heavy filtering is measured and
reported by the checks themselves), and Hypothesis's own printing silenced. A failure returns
the minimal document instead of raising. The example database is used only when the caller
names its folder (:class:`RunOptions`), and :func:`hypothesis_storage` says where Hypothesis
keeps its other files, so nothing lands in ``.hypothesis/`` unasked.
"""

from __future__ import annotations

import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, reporting, seed, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import Unsatisfiable

from json_contracts._env import text
from json_contracts.testing.results import RunOptions

__all__ = [
    "CACHE_FOLDER",
    "CheckFailure",
    "Exploration",
    "OutOfTime",
    "RunOptions",
    "check_time",
    "explore",
    "hypothesis_storage",
    "storage_folder",
]

#: json-contracts' cache, in the folder a run starts from; Hypothesis's files go to its ``hypothesis/``.
CACHE_FOLDER = ".json-contracts-cache"
_CACHE_GITIGNORE = "# Created by json-contracts: a cache, never committed.\n*\n"
_interrupted = threading.Event()  # a Ctrl-C seen during a run, until the run it stops is over
_deadline: ContextVar[float | None] = ContextVar("json_contracts_deadline", default=None)


class CheckFailure(AssertionError):
    """A property does not hold; ``details`` are the lines that explain the counterexample."""

    def __init__(self, message: str, details: list[str] | None = None, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.details = details or []
        self.pointer = pointer


class OutOfTime(BaseException):
    """The running check's time budget ran out (:attr:`RunOptions.deadline`); ``examples`` were tried.

    A BaseException, as KeyboardInterrupt is, so that Hypothesis ends the run where it is instead
    of taking it for the property failing and shrinking it; :func:`explore` keeps a failure found
    before it, and the check that catches it reports ``inconclusive``.
    """

    def __init__(self, examples: int = 0) -> None:
        super().__init__(f"out of time after {examples} documents")
        self.examples = examples


def check_time() -> None:
    """Raise :class:`OutOfTime` when the running exploration's deadline has passed (one clock read).

    :func:`explore` calls it before each example; the strategies' filters call it too, so a search
    that rejects every candidate (and never reaches an example) still stops on time. Outside an
    exploration with a deadline (an app's own ``@given`` test) it does nothing.
    """
    if _past(_deadline.get()):
        raise OutOfTime


@dataclass
class Exploration:
    """What one run found: how many values were tried, and the shrunk failure if any.

    ``cut_short``: the time budget ran out while the failure was being shrunk, so the
    counterexample is a real one but maybe not the smallest.
    """

    examples: int = 0
    failure: CheckFailure | None = None
    counterexample: Any = None
    unsatisfiable: bool = False
    cut_short: bool = False


def explore(strategy: st.SearchStrategy[Any], body: Callable[[Any], None], options: RunOptions) -> Exploration:
    """Run ``body`` on values drawn from ``strategy``; a :class:`CheckFailure` is shrunk and returned.

    With ``options.database`` (and not derandomised), documents that failed in earlier runs of
    the same body and ``database_key`` are tried first, and a new failure is saved for the next.

    Raises:
        OutOfTime: ``options.deadline`` passed before any failure was found (``examples`` says how
            many documents were tried); one found before it is returned, shrunk as far as time allowed.
    """
    outcome = Exploration()
    last: list[tuple[Any, CheckFailure]] = []

    def test(value: Any) -> None:
        if _interrupted.is_set():  # a Ctrl-C that Python dropped (see _interrupts_kept) stops the run here
            raise KeyboardInterrupt
        check_time()
        outcome.examples += 1
        try:
            body(value)
        except CheckFailure as failure:
            last.append((value, failure))  # the final call Hypothesis makes is the shrunk example
            raise

    database = None
    phases = [Phase.explicit, Phase.generate, Phase.shrink]
    if options.database is not None and not options.derandomize:
        database = DirectoryBasedExampleDatabase(options.database)
        phases.insert(1, Phase.reuse)
        # Every check runs this same inner function, so its source alone would give every check
        # of every contract one key, and each would replay (then discard) the others' documents.
        # Hypothesis's own way to tell such cases apart (pytest parametrisation) is this digest.
        body_name = f"{getattr(body, '__module__', '')}.{getattr(body, '__qualname__', type(body).__name__)}"
        test.__dict__["_hypothesis_internal_add_digest"] = f"{options.database_key}\0{body_name}".encode()
    wrapped = given(strategy)(test)
    if options.seed is not None and not options.derandomize:
        wrapped = seed(options.seed)(wrapped)
    # Applied after @seed, whose own settings would turn the database off: a seed fixes the drawn
    # documents, and saved failures are still tried first (the docs say so; --no-database opts out).
    wrapped = settings(
        max_examples=options.max_examples,
        database=database,
        deadline=None,
        derandomize=options.derandomize,
        suppress_health_check=list(HealthCheck),
        phases=phases,
        report_multiple_bugs=False,
        print_blob=False,
    )(wrapped)
    token = _deadline.set(options.deadline)
    try:
        with reporting.with_reporter(lambda _message: None), _interrupts_kept():
            check_time()  # a budget already spent runs nothing
            wrapped()
    except CheckFailure as failure:
        outcome.failure = failure
        outcome.counterexample = last[-1][0] if last else None
    except Unsatisfiable:
        outcome.unsatisfiable = True
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:
        # Stopped mid-draw, Hypothesis may report its own inconsistency (a flaky strategy) rather
        # than OutOfTime itself: past the deadline, whatever it raised is the budget running out.
        if not _past(options.deadline):
            raise
        if not last:
            raise OutOfTime(outcome.examples) from None
        outcome.counterexample, outcome.failure = last[-1]  # the smallest failing document so far
        outcome.cut_short = True
    finally:
        _deadline.reset(token)
    return outcome


def time_left() -> float | None:
    """Seconds before the running exploration's deadline (at least 0), or None outside one."""
    deadline = _deadline.get()
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() > deadline


@contextmanager
def _interrupts_kept() -> Iterator[None]:
    """Ctrl-C stops a run even when it lands in Hypothesis's garbage-collection callback.

    Python raises KeyboardInterrupt wherever the main thread happens to be; inside a ``gc``
    callback (Hypothesis times every collection) it is printed as "Exception ignored" and dropped,
    and the run would go on. So the signal is also remembered, raised again at the next example,
    and the dropped one is not printed. Only where Python's own handler is in place (the main
    thread, nobody else's handler), so a host's handling of the signal is never replaced.
    """
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return

    def on_interrupt(signum: int, frame: Any) -> None:
        _interrupted.set()
        raise KeyboardInterrupt

    def unraisable(record: Any) -> None:
        if not issubclass(record.exc_type, KeyboardInterrupt):
            previous_hook(record)

    previous_hook = sys.unraisablehook
    signal.signal(signal.SIGINT, on_interrupt)
    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.unraisablehook = previous_hook
        dropped = _interrupted.is_set()
        _interrupted.clear()
    if dropped:  # dropped after the last example: nothing raised it again, so stop here
        raise KeyboardInterrupt


@contextmanager
def hypothesis_storage(directory: Path | None) -> Iterator[Path]:
    """Hypothesis keeps its files (its caches; ``examples/`` when that is the database) in ``directory``.

    Without this, Hypothesis writes ``.hypothesis/`` in the working directory even with no example
    database. ``None`` gives a temporary folder, removed afterwards, so the run leaves nothing on
    disk. The setting is process-wide: it is handed back to Hypothesis's own default (its
    ``HYPOTHESIS_STORAGE_DIRECTORY`` variable, else ``.hypothesis/``) on the way out.
    """
    with ExitStack() as stack:
        if directory is None:
            directory = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="json-contracts-hypothesis-")))
        set_hypothesis_home_dir(directory)
        try:
            yield directory
        finally:
            set_hypothesis_home_dir(None)


def storage_folder(base: Path, environ: Mapping[str, str]) -> Path | None:
    """Where Hypothesis keeps its files for a run started from ``base``; the example database is its ``examples/``.

    ``$HYPOTHESIS_STORAGE_DIRECTORY`` when set (Hypothesis's own variable), else
    ``base/.json-contracts-cache/hypothesis``. The cache folder is created with a ``.gitignore`` of
    its own, as pytest's and ruff's are, so nobody has to add it to theirs. None when it cannot
    be created (a read-only checkout): the caller then keeps nothing.
    """
    chosen = text(environ, "HYPOTHESIS_STORAGE_DIRECTORY")
    if chosen:
        return Path(chosen)
    cache = base / CACHE_FOLDER
    try:
        cache.mkdir()
    except FileExistsError:
        pass
    except OSError:
        return None
    else:
        with suppress(OSError):
            (cache / ".gitignore").write_text(_CACHE_GITIGNORE, encoding="utf-8")
    return cache / "hypothesis"
