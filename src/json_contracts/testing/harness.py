"""Running one property with Hypothesis, quietly, and getting back the shrunk counterexample.

The checks run outside any test framework (CLI, Action) as well as inside pytest, so they
drive ``@given`` directly: no example database (runs leave nothing on disk), no deadline,
health checks off (heavy filtering is measured and reported by the checks themselves), and
Hypothesis's own printing silenced. A failure returns the minimal document instead of raising.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, given, reporting, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from json_contracts.testing.results import RunOptions

__all__ = ["CheckFailure", "Exploration", "RunOptions", "explore"]


class CheckFailure(AssertionError):
    """A property does not hold; ``details`` are the lines that explain the counterexample."""

    def __init__(self, message: str, details: list[str] | None = None, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.details = details or []
        self.pointer = pointer


@dataclass
class Exploration:
    """What one run found: how many values were tried, and the shrunk failure if any."""

    examples: int = 0
    failure: CheckFailure | None = None
    counterexample: Any = None
    unsatisfiable: bool = False


def explore(strategy: st.SearchStrategy[Any], body: Callable[[Any], None], options: RunOptions) -> Exploration:
    """Run ``body`` on values drawn from ``strategy``; a :class:`CheckFailure` is shrunk and returned."""
    outcome = Exploration()
    last: list[Any] = []

    def test(value: Any) -> None:
        outcome.examples += 1
        try:
            body(value)
        except CheckFailure:
            last.append(value)  # the final call Hypothesis makes is the shrunk example
            raise

    wrapped = settings(
        max_examples=options.max_examples,
        database=None,
        deadline=None,
        derandomize=options.derandomize,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        report_multiple_bugs=False,
        print_blob=False,
    )(given(strategy)(test))
    if options.seed is not None and not options.derandomize:
        wrapped = seed(options.seed)(wrapped)
    with reporting.with_reporter(lambda _message: None):
        try:
            wrapped()
        except CheckFailure as failure:
            outcome.failure = failure
            outcome.counterexample = last[-1] if last else None
        except Unsatisfiable:
            outcome.unsatisfiable = True
    return outcome
