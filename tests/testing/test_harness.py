"""The quiet ``@given`` run: the example database it keeps when asked, where Hypothesis's files go, Ctrl-C."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from json_contracts.testing.harness import CheckFailure, explore, hypothesis_storage, storage_folder
from json_contracts.testing.results import RunOptions


def _over_ten(value: int) -> None:
    if value > 10:
        raise CheckFailure("too big")


def _also_over_ten(value: int) -> None:
    if value > 10:
        raise CheckFailure("too big")


def _saved(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()] if folder.exists() else []


def test_a_failure_is_saved_and_replayed_first_by_a_seeded_run_of_the_same_key(tmp_path: Path) -> None:
    database = tmp_path / "examples"
    options = RunOptions(max_examples=100, seed=1, database=database, database_key="ticket")

    first = explore(st.integers(), _over_ten, options)
    again = explore(st.integers(), _over_ten, RunOptions(max_examples=100, seed=2, database=database,
                                                         database_key="ticket"))  # fmt: skip

    assert (first.counterexample, again.counterexample) == (11, 11)
    assert _saved(database)
    assert again.examples < first.examples  # found at once: the saved document came first


def test_each_key_and_each_check_replays_only_its_own_documents(tmp_path: Path) -> None:
    database = tmp_path / "examples"
    explore(st.integers(), _over_ten, RunOptions(max_examples=100, seed=1, database=database, database_key="ticket"))

    other_contract = explore(st.just(0), _over_ten, RunOptions(max_examples=5, seed=1, database=database,
                                                               database_key="note"))  # fmt: skip
    other_check = explore(st.just(0), _also_over_ten, RunOptions(max_examples=5, seed=1, database=database,
                                                                 database_key="ticket"))  # fmt: skip
    same = explore(st.integers(), _over_ten, RunOptions(max_examples=1, seed=3, database=database,
                                                        database_key="ticket"))  # fmt: skip

    assert (other_contract.failure, other_check.failure) == (None, None)
    assert same.counterexample == 11  # still saved: the other runs did not replay, and so drop, it


def test_a_derandomised_run_never_uses_the_database(tmp_path: Path) -> None:
    database = tmp_path / "examples"

    outcome = explore(st.integers(), _over_ten, RunOptions(max_examples=100, derandomize=True, database=database))

    assert outcome.counterexample == 11
    assert _saved(database) == []


def test_without_a_database_folder_nothing_is_saved(tmp_path: Path) -> None:
    with hypothesis_storage(tmp_path / "home") as home:
        outcome = explore(st.integers(), _over_ten, RunOptions(max_examples=100, seed=1))

    assert outcome.counterexample == 11
    assert not (home / "examples").exists()


def test_hypothesis_storage_none_is_a_temporary_folder_removed_afterwards() -> None:
    with hypothesis_storage(None) as home:
        assert home.is_dir()
        explore(st.text(), lambda _text: None, RunOptions(max_examples=5, seed=1))

    assert not home.exists()


@pytest.fixture
def python_sigint_handler() -> Iterator[None]:
    """Python's own SIGINT handler, as in a plain process (a pytest-xdist worker may have another)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _InterruptedWhileCollected:
    """Ctrl-C arriving while this object is garbage-collected: Python prints and drops the exception."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)


@pytest.mark.usefixtures("python_sigint_handler")
def test_a_ctrl_c_that_python_drops_still_stops_the_run() -> None:
    seen: list[Any] = []

    def body(value: Any) -> None:
        seen.append(value)
        if len(seen) == 1:
            _InterruptedWhileCollected()  # collected at once: the interrupt lands in __del__ and is dropped

    with pytest.raises(KeyboardInterrupt):
        explore(st.integers(), body, RunOptions(max_examples=1000, seed=1))

    assert len(seen) == 1  # the next example did not run
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # and the handler is Python's again


def test_the_storage_folder_is_the_cache_folder_with_its_own_gitignore(tmp_path: Path) -> None:
    folder = storage_folder(tmp_path, {})

    assert folder == tmp_path / ".json-contracts-cache" / "hypothesis"
    assert (tmp_path / ".json-contracts-cache" / ".gitignore").read_text(encoding="utf-8").endswith("\n*\n")


def test_hypothesis_storage_directory_wins_and_an_unwritable_base_keeps_nothing(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")

    assert storage_folder(tmp_path, {"HYPOTHESIS_STORAGE_DIRECTORY": "/elsewhere"}) == Path("/elsewhere")
    assert storage_folder(tmp_path / "a-file", {}) is None  # cannot be created: the run keeps nothing
    assert not (tmp_path / ".json-contracts-cache").exists()
