"""examples/pytest-app passes: the app's tests and its contracts' items, serially and under xdist."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "pytest-app"


@pytest.mark.slow  # a whole app's pytest session in a subprocess, serially and under xdist
@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_the_example_app_passes(tmp_path: Path, workers: list[str]) -> None:
    app = tmp_path / "app"
    shutil.copytree(EXAMPLE, app, ignore=shutil.ignore_patterns(".hypothesis", "__pycache__", ".pytest_cache"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER", "CI")}

    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "--json-contracts-max-examples", "10",
         *workers],
        cwd=app, env=env, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip

    assert done.returncode == 0, done.stdout + done.stderr
    passed = {line.split()[1] for line in done.stdout.splitlines() if line.startswith("PASSED ")}  # -rA summary
    assert {
        "json-contracts/support-ticket.json::load",
        "json-contracts/support-ticket.json::edit.example[2]",
        "json-contracts/expense-report.json::hashes",
        "tests/test_tickets.py::test_every_example_ticket_is_routed[edit.example[2]]",
        "tests/test_tickets.py::test_any_valid_ticket_round_trips_and_keeps_the_contract",
    } <= passed
    assert re.search(r"\b44 passed\b", done.stdout)


ROOT = Path(__file__).parents[2]
_SET_UP = re.compile(r"```toml\n(\[tool\.pytest\.ini_options\]\n.*?)```", re.DOTALL)


@pytest.mark.parametrize(
    "readme",
    ["examples/pytest-app/README.md", "pytest_plugin/README.md", "README.md"],
    ids=["example", "plugin", "top"],
)
def test_the_set_up_a_readme_shows_runs_the_example_app(tmp_path: Path, readme: str) -> None:
    """Following the README: its pytest settings, alone, as the example app's pyproject.toml."""
    match = _SET_UP.search((ROOT / readme).read_text(encoding="utf-8"))
    assert match, f"{readme} shows no [tool.pytest.ini_options] block"
    app = tmp_path / "app"
    shutil.copytree(EXAMPLE, app, ignore=shutil.ignore_patterns(".hypothesis", "__pycache__", ".pytest_cache"))
    (app / "pyproject.toml").write_text(match[1], encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER", "CI")}

    # -P: as the `pytest` command, which (unlike `python -m pytest`) does not put the app on sys.path
    done = subprocess.run(
        [sys.executable, "-P", "-m", "pytest", "-p", "no:cacheprovider", "-q", "--json-contracts-no-hypothesis"],
        cwd=app, env=env, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip

    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\b34 passed, 10 skipped\b", done.stdout), done.stdout  # the contracts' items ran too
