"""Time "draw N documents" per schema with one library: run by bench/corpus.py, once per side.

    python bench/corpus_hjs.py --library hjs|ours JOB.json

``JOB.json`` is ``{"draws": 50, "seconds": 60, "schemas": [[id, schema], ...]}``. For each schema it
prints one JSON line: ``{"id", "outcome": "drawn"|"error"|"timeout", "seconds", "error"}``. Both
sides run this same harness: a ``@given`` test with ``max_examples=draws``, no database,
derandomized, every health check suppressed, no deadline, generate phase only; ``seconds`` is the
whole run of that test, building the strategy included. ``hjs`` is hypothesis-jsonschema (this file
then needs only the standard library, Hypothesis and hypothesis-jsonschema, so it runs in the
benchmark venv with the older Hypothesis it needs); ``ours`` is ``json_contracts.testing.from_schema``.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings


class _OutOfTime(BaseException):
    """From the alarm; a BaseException so Hypothesis does not treat it as a failing example."""


def _ring(signum: int, frame: FrameType | None) -> None:
    raise _OutOfTime


def _library(name: str) -> Callable[[Any], Any]:
    if name == "hjs":
        from hypothesis_jsonschema import from_schema as theirs

        return theirs
    from json_contracts.testing import from_schema as ours

    return ours


def time_one(from_schema: Callable[[Any], Any], schema: Any, draws: int, seconds: float) -> dict[str, Any]:
    """One schema: build the strategy and run a ``@given`` test of ``draws`` examples."""
    began = time.perf_counter()
    # The alarm repeats every half second until cleared: an exception raised where it is swallowed
    # (a garbage-collector callback) is raised again at the next chance.
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.5)
    try:

        @settings(
            max_examples=draws,
            database=None,
            derandomize=True,
            deadline=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(from_schema(schema))
        def run(document: Any) -> None:
            pass

        run()
    except _OutOfTime:
        return {"outcome": "timeout", "seconds": time.perf_counter() - began, "error": f"over {seconds:g} s"}
    except Exception as exc:
        if time.perf_counter() - began >= seconds:  # the alarm, wrapped by Hypothesis (FlakyStrategyDefinition)
            return {"outcome": "timeout", "seconds": time.perf_counter() - began, "error": f"over {seconds:g} s"}
        return {
            "outcome": "error",
            "seconds": time.perf_counter() - began,
            "error": f"{type(exc).__name__}: {exc}"[:300],
        }
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return {"outcome": "drawn", "seconds": time.perf_counter() - began, "error": ""}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", choices=["hjs", "ours"], required=True)
    parser.add_argument("job")
    args = parser.parse_args()
    with open(args.job, encoding="utf-8") as handle:
        job = json.load(handle)
    from_schema = _library(args.library)
    signal.signal(signal.SIGALRM, _ring)
    for name, schema in job["schemas"]:
        result = time_one(from_schema, schema, int(job["draws"]), float(job["seconds"]))
        sys.stdout.write(json.dumps({"id": name, **result}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
