"""Every common mistake of the corpus, through the real ``json-contracts lint``: the output names the
file, line and column, the code, the field that is wrong and the fix.

The corpus is tests/data/mistakes/corpus.toml (read by :mod:`tests.mistakes.corpus`); the docs page
of common mistakes is built from it, so a mistake whose message stops saying the fix fails here
before the page shows it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from json_contracts.cli import main
from json_contracts.findings import CATALOGUE, Code
from tests.mistakes.corpus import Mistake, corpus
from tests.support.cli import script_path

MISTAKES = corpus()
FOLDER = "json-contracts"
#: The sections of the docs page, in order; every entry belongs to one.
GROUPS = (
    "JSON syntax",
    "Top-level fields",
    "Files and names",
    "Examples",
    "Operations",
    "Schema keywords",
    "Types and formats",
)


def _ids(mistake: Mistake) -> str:
    return mistake.id


def _write(folder: Path, mistake: Mistake) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / mistake.filename).write_bytes(mistake.text.encode("utf-8"))


def _location(mistake: Mistake) -> str:
    line, column = mistake.position
    return f"{FOLDER}/{mistake.filename}:{line}:{column}: {mistake.code} "


def _matching_lines(output: str, mistake: Mistake) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(_location(mistake))]


def _also_location(mistake: Mistake) -> str:
    line, column = mistake.also_position
    return f"{FOLDER}/{mistake.filename}:{line}:{column}: {mistake.also_code} "


def _assert_says_it(output: str, mistake: Mistake) -> None:
    lines = _matching_lines(output, mistake)
    assert lines, f"no {_location(mistake)!r} line in:\n{output}"
    assert any(mistake.field in line and mistake.fix in line for line in lines), (
        f"the field {mistake.field!r} and the fix {mistake.fix!r} are not both in:\n" + "\n".join(lines)
    )
    if mistake.also_code:
        also = [line for line in output.splitlines() if line.startswith(_also_location(mistake))]
        assert any(mistake.also_says in line for line in also), f"no {_also_location(mistake)!r} line in:\n{output}"


# --- the corpus itself ------------------------------------------------------------------------------


def test_the_corpus_holds_at_least_forty_distinct_mistakes() -> None:
    assert len(MISTAKES) >= 40
    assert len({m.id for m in MISTAKES}) == len(MISTAKES)
    assert len({m.filename for m in MISTAKES}) == len(MISTAKES)


@pytest.mark.parametrize("mistake", MISTAKES, ids=_ids)
def test_each_entry_is_complete(mistake: Mistake) -> None:
    assert Code(mistake.code) in CATALOGUE
    assert mistake.group in GROUPS
    assert mistake.filename.endswith(".json")
    assert not mistake.at or mistake.at in mistake.text
    assert all(text.strip() for text in (mistake.title, mistake.field, mistake.fix, mistake.explain))
    assert not mistake.needs or Code(mistake.needs) in CATALOGUE
    if mistake.also_code or mistake.also_at or mistake.also_says:
        assert Code(mistake.also_code) in CATALOGUE
        assert mistake.also_at in mistake.text
        assert mistake.also_says.strip()


# --- in-process: text and JSON ----------------------------------------------------------------------


@pytest.fixture
def lint_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``json-contracts lint ARGS`` in-process over a folder holding only the mistake's file."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JSON_CONTRACTS_DIR", raising=False)

    def run(mistake: Mistake, *args: str) -> Any:
        _write(tmp_path / FOLDER, mistake)
        return CliRunner().invoke(main, ["lint", "-c", FOLDER, *args], catch_exceptions=False)

    return run


@pytest.mark.parametrize("mistake", MISTAKES, ids=_ids)
def test_lint_names_the_place_the_code_the_field_and_the_fix(lint_one: Any, mistake: Mistake) -> None:
    result = lint_one(mistake)

    _assert_says_it(result.stdout, mistake)
    if CATALOGUE[Code(mistake.code)].severity == "error":  # an error fails lint; warnings only with --strict
        assert result.exit_code == 1


@pytest.mark.parametrize("mistake", MISTAKES, ids=_ids)
def test_lint_json_reports_the_same_finding_with_its_hint(lint_one: Any, mistake: Mistake) -> None:
    report = json.loads(lint_one(mistake, "--json").stdout)

    line, column = mistake.position
    found = [
        f
        for f in report["findings"]
        if (f["code"], f["file"], f["line"], f["column"])
        == (mistake.code, f"{FOLDER}/{mistake.filename}", line, column)
    ]
    assert found, report["findings"]
    said = [f"{f['message']}; {f['hint']}" if "hint" in f else f["message"] for f in found]
    assert any(mistake.field in text and mistake.fix in text for text in said), said
    if mistake.also_code:
        also = (mistake.also_code, f"{FOLDER}/{mistake.filename}", *mistake.also_position)
        assert any((f["code"], f["file"], f["line"], f["column"]) == also for f in report["findings"]), also


# --- the installed script, once over the whole corpus --------------------------------------------------


@pytest.fixture(scope="module")
def script_output(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The stdout of the real ``json-contracts lint`` over a folder holding every mistake's file."""
    workdir = tmp_path_factory.mktemp("mistakes")
    for mistake in MISTAKES:
        _write(workdir / FOLDER, mistake)
    env = {k: v for k, v in os.environ.items() if k != "JSON_CONTRACTS_DIR"}
    env.update({"NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"})
    completed = subprocess.run(
        [str(script_path()), "lint", "-c", FOLDER],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=workdir,
        env=env,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 1, completed.stderr  # the corpus holds errors
    return completed.stdout


@pytest.mark.parametrize("mistake", MISTAKES, ids=_ids)
def test_the_installed_script_says_the_same(script_output: str, mistake: Mistake) -> None:
    _assert_says_it(script_output, mistake)
