"""Keys ``str.isdigit`` calls digits but no JSON pointer reads as an array index (``²``, ``01``, thousands of
digits), through the real command: findings and exit codes, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import RunCli, RunScript

LONG_DIGITS = "1" * 5000  # int() refuses 4,300 digits or more

SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["²"],
    "properties": {
        "²": {"type": "object", "required": ["a"], "properties": {"a": {"type": "string", "maxLength": 4}}},
        "01": {"type": "integer", "maximum": 9},
        LONG_DIGITS: {"enum": ["x", "y"]},
    },
    "additionalProperties": False,
}
EXAMPLE = {"²": {"a": "ok"}, "01": 1, LONG_DIGITS: "x"}


def write_contract(workdir: Path) -> None:
    folder = workdir / "contracts"
    folder.mkdir()
    contract = {"description": "Digit-like keys.", "schema": SCHEMA, "examples": [{"input": "i", "output": EXAMPLE}]}
    (folder / "digits.json").write_text(json.dumps(contract), encoding="utf-8")


def test_check_reports_errors_under_digit_like_keys(run_script: RunScript, workdir: Path) -> None:
    write_contract(workdir)
    (workdir / "doc.json").write_text(json.dumps({"²": {"a": 5}, "01": 10, LONG_DIGITS: "z"}), encoding="utf-8")

    done = run_script("check", "digits", "doc.json", "-c", "contracts")

    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stdout[-2000:]
    assert "type /²/a must be string" in done.stdout
    assert "maximum /01 must be <= 9" in done.stdout
    assert f"enum /{LONG_DIGITS} must be equal to one of the allowed values" in done.stdout
    assert f"  - Set /{LONG_DIGITS} to one of: x, y." in done.stdout
    assert done.stdout.splitlines()[-1] == "doc.json does not validate against digits: 3 error(s)."


def test_validate_lint_and_test_pass_a_contract_with_digit_like_property_names(run_cli: RunCli, workdir: Path) -> None:
    write_contract(workdir)

    for args in (["validate"], ["lint"], ["test", "--max-examples", "5"]):
        result = run_cli(*args, "-c", "contracts", env={"CI": "true"})  # an exception would raise here
        assert result.exit_code == 0, (args, result.stdout[-2000:])
    assert "6 passed, 0 failed" in result.stdout


def test_diff_proves_a_change_under_digit_like_property_names(run_script: RunScript, workdir: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("diff --base needs git")
    env = {"GIT_CEILING_DIRECTORIES": str(workdir.parent), "CI": "true"}

    def git(*args: str) -> None:
        identity = ["-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
        run_env = {**os.environ, **env}
        subprocess.run(["git", *identity, *args], cwd=workdir, check=True, capture_output=True, timeout=60, env=run_env)

    folder = workdir / "json-contracts"
    folder.mkdir()
    path = folder / "digits.json"
    path.write_text(json.dumps({"description": "Digit-like keys.", "schema": SCHEMA}), encoding="utf-8")
    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "one")
    narrower = json.loads(json.dumps(SCHEMA))
    narrower["properties"][LONG_DIGITS] = {"enum": ["x"]}
    narrower["properties"]["²"]["properties"]["a"]["maxLength"] = 2
    path.write_text(json.dumps({"description": "Digit-like keys.", "schema": narrower}), encoding="utf-8")

    done = run_script("diff", "--base", "HEAD", "--max-examples", "20", env=env)

    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.returncode == 1, done.stdout[-3000:]
    assert f'JC416 error enum value "y" was removed at /properties/{LONG_DIGITS}' in done.stdout
    assert "JC418 error maxLength at /properties/²/properties/a is now 2 (was 4)" in done.stdout
