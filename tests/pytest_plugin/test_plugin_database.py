"""The property-check items' example database: in ``.json-contracts-cache/``, as ``json-contracts test`` keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.plugin import ContractsWriter
from tests.support.samples import BAD_REPAIR

#: Only the check that fails on BAD_REPAIR: a failure to save and replay.
RUN = ("-p", "no:cacheprovider", "--json-contracts", "json-contracts", "json-contracts/repair.json::repair-hints")
DATABASE = Path(".json-contracts-cache", "hypothesis", "examples")


@pytest.fixture(autouse=True)
def _default_storage(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hypothesis's own variable would move the database; these tests look at the default place."""
    monkeypatch.delenv("HYPOTHESIS_STORAGE_DIRECTORY", raising=False)


def _details(result: pytest.RunResult) -> list[str]:
    """The failure's report: the finding line, the shrunk document, its errors and hints."""
    return [
        line for line in result.outlines if line.startswith(("json-contracts/repair.json:", "  ", "error:", "hint:"))
    ]


def test_a_failing_document_is_saved_in_the_cache_folder_and_tried_first_next_time(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"repair.json": BAD_REPAIR})

    first = pytester.runpytest(*RUN, "--json-contracts-max-examples", "15", "--json-contracts-seed", "7")
    # One document, another seed: on its own that draw does not fail (the last run shows it) ...
    again = pytester.runpytest(*RUN, "--json-contracts-max-examples", "1", "--json-contracts-seed", "8")
    alone = pytester.runpytest(*RUN, "--json-contracts-max-examples", "1", "--json-contracts-seed", "8",
                               "--json-contracts-no-database")  # fmt: skip

    first.assert_outcomes(failed=1)
    again.assert_outcomes(failed=1)  # ... but the saved failure is tried first
    alone.assert_outcomes(passed=1)
    assert _details(again) == _details(first)  # the very document that failed, already shrunk
    assert (pytester.path / DATABASE).is_dir()
    assert not (pytester.path / ".hypothesis" / "examples").exists()  # never the user's own database
    cache_ignore = (pytester.path / ".json-contracts-cache" / ".gitignore").read_text(encoding="utf-8")
    assert cache_ignore.splitlines()[-1] == "*"  # Git never sees it


@pytest.mark.parametrize("how", ["--json-contracts-no-database", "CI"])
def test_no_database_and_derandomised_runs_keep_nothing(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    write_contracts({"repair.json": BAD_REPAIR})
    if how == "CI":
        monkeypatch.setenv("CI", "true")  # derandomised: results never depend on an earlier run

    result = pytester.runpytest(*RUN, "--json-contracts-max-examples", "15", *([how] if how != "CI" else []))

    result.assert_outcomes(failed=1)
    assert not (pytester.path / ".json-contracts-cache").exists()
    assert not (pytester.path / ".hypothesis" / "examples").exists()


def test_hypothesis_storage_directory_moves_the_database(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_contracts({"repair.json": BAD_REPAIR})
    monkeypatch.setenv("HYPOTHESIS_STORAGE_DIRECTORY", str(pytester.path / "elsewhere"))

    result = pytester.runpytest(*RUN, "--json-contracts-max-examples", "15", "--json-contracts-seed", "7")

    result.assert_outcomes(failed=1)
    assert (pytester.path / "elsewhere" / "examples").is_dir()
    assert not (pytester.path / ".json-contracts-cache").exists()
