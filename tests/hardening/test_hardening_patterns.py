"""Every `pattern` is bounded in time, `format: "regex"` costs no lasting memory, odd text never crashes.

The hostile cases here stalled the validator for minutes to hours, or grew the process by hundreds
of megabytes, before patterns were matched by a linear-time engine (or the killable worker).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from json_contracts.contracts.loading import load_contracts
from json_contracts.schema.validation import validate

NAMED_GROUP = "^(?<w>a+)+$"  # exponential on a backtracking engine; JC120's analysis missed it
EMAIL = r"\S+@\S+\.\S+"  # polynomial: 60 s on 80,000 characters, hours on 1 MiB


def _check(folder: Path, document: object, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``json-contracts check`` on a document, as a user runs it."""
    path = tmp_path / "document.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "json_contracts", "check", "c", str(path), "-c", str(folder), "--format", "json"],
        capture_output=True, text=True, check=False, timeout=120, env={**os.environ, **env},
    )  # fmt: skip


def _folder(tmp_path: Path, schema: dict[str, object]) -> Path:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "c.json").write_text(json.dumps({"schema": schema}), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("pattern", "value"),
    [
        (NAMED_GROUP, "a" * 40 + "!"),
        (EMAIL, "a@" * 40_000),  # many "@", no ".": every start and every split is tried
    ],
    ids=["named-group", "email"],
)
def test_a_hostile_value_gets_its_verdict_at_once(tmp_path: Path, pattern: str, value: str) -> None:
    folder = _folder(tmp_path, {"type": "object", "properties": {"v": {"type": "string", "pattern": pattern}}})

    # Before: minutes (email) or hours (named group); the subprocess timeout (120 s) failed it.
    done = _check(folder, {"v": value}, tmp_path)

    assert done.returncode == 1, done.stderr
    errors = json.loads(done.stdout)["errors"]
    assert errors == [{"path": "/v", "message": f'must match pattern "{pattern}"', "keyword": "pattern"}]


def test_format_regex_strings_are_not_kept(tmp_path: Path) -> None:
    """80 distinct large regex strings used to stay compiled in a module cache (71 MB -> 751 MB)."""
    folder = _folder(tmp_path, {"type": "string", "format": "regex"})
    script = f"""
import resource
from pathlib import Path
from json_contracts.contracts.loading import load_contracts
from json_contracts.schema.validation import validate
from json_contracts.schema import patterns

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024

contract = load_contracts(Path({str(folder)!r})).contracts["c"]
assert validate(contract.compiled, "|".join("x0y" + str(j) for j in range(100))).valid  # warm up
start = rss()
for i in range(80):
    value = "|".join(f"x{{i}}y{{j}}" for j in range(400))  # 4 KB alternations, each one new
    assert validate(contract.compiled, value).valid
    assert validate(contract.compiled, ("(?:[a-z]" + str(i) + "){{2}}") * 7_000).valid  # 100 KB
print(rss() - start)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=300)

    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 16  # MB grown over 160 validations (measured: 0; before: 83)


def test_lone_surrogates_are_matched_or_reported_never_raised(tmp_path: Path) -> None:
    # Documents from files and the MCP tools cannot hold one; a library caller's Python strings can.
    folder = _folder(
        tmp_path,
        {
            "type": "object",
            "properties": {
                "any": {"type": "string", "pattern": "^.$"},
                "ascii": {"type": "string", "pattern": "^[a-z]+$"},
                "look": {"type": "string", "pattern": "^(?!b)"},
            },
        },
    )
    contract = load_contracts(folder).contracts["c"]

    # Before: UnicodeEncodeError out of validate().
    assert validate(contract.compiled, {"any": "\ud800", "ascii": "ab"}).valid
    assert validate(contract.compiled, {"any": "\ud83d\ude00"}).valid  # a pair is one code point
    errors = validate(contract.compiled, {"ascii": "a\udfff", "look": "x\ud800"}).errors
    assert [(e["path"], e["keyword"]) for e in errors] == [("/ascii", "pattern"), ("/look", "pattern")]
    assert errors[0]["message"] == 'must match pattern "^[a-z]+$"'
    assert errors[1]["message"] == (
        'could not be checked against pattern "^(?!b)": the value holds a lone surrogate, which the regex '
        "engine cannot read; send Unicode text"
    )
