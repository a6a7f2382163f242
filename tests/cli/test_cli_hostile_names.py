"""Hostile contract text and file names through the real command, in every format and channel.

A contract arrives in a pull request, and the CLI's output lands in a CI log (GitHub runs any line
that starts with ``::``, or holds ``##[``, as a command), in a terminal (escape sequences, bidi
overrides) and in a job summary (markdown). A folder may also hold a file whose name is not UTF-8.
Every command, in every format and with ``--summary`` and ``--counts``, must end normally and
print nothing that one of those readers would obey.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import script_path

#: Text that tries every trick: workflow commands on a new line (and the legacy ``##[`` form), an
#: OSC 52 clipboard write, a screen clear, a carriage-return overwrite, C1 CSI, DEL, bidi overrides,
#: a line separator, and markdown that would render a link, an image, HTML or a new table cell.
HOSTILE = (
    "\n::error::pwned\n::stop-commands::tok\x1b]52;c;aGk=\x07\x1b[2J\roverwritten\x9b31m\x7f"
    "\u202egnp.exe\u2066 ##[error]legacy \u2028::warning::sep [click](https://evil.example) "
    "![i](https://evil.example/i.png) <img src=x onerror=alert(1)> | cell"
)
#: The name of a file in the folder: a new line, then a command; and one whose name is a command.
FILE_NAMES = ["x\n::error::fname\x1b[31m.json", "::error::top.json", "\u202eevil.json"]
#: A file name whose bytes are not UTF-8 (Python lists it with a surrogate escape).
BAD_NAME = b"bad\xff.json"

#: A raw character no text output may carry: C0 but the line feed, DEL, C1, bidi controls, line separators.
_RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: One of our own annotations: a level, escaped properties (no `:` or `,`), then the message.
_OUR_ANNOTATION = re.compile(r"::(error|warning|notice) (?:[a-z]+=[^:,\r\n]*,)*title=[^:,\r\n]*::[^\r\n]*")
_COMMANDS = ("validate", "lint", "check", "test", "diff")
_FORMATS = ("text", "json", "github", "sarif")


def _hostile_contract(integer: bool) -> dict[str, Any]:
    """A contract that loads, with hostile text in every field lint and validation messages quote."""
    key = "k" + HOSTILE
    return {
        "description": "d" + HOSTILE,
        "rules": ["r" + HOSTILE],
        "schema": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                key: {"type": "string", "enum": ["v" + HOSTILE]},
                "n": {"type": "integer" if integer else "string"},
            },
            "required": [key, "n"],
        },
        "operations": {
            "create": {
                "enabled": True,
                "odd" + HOSTILE: 1,
                "examples": [
                    {
                        "input": "i" + HOSTILE,
                        "output": {key: "v" + HOSTILE, "n": 1 if integer else "1"},
                        "x" + HOSTILE: 2,
                    }
                ],
            }
        },
    }


def _folder(folder: Path, *, integer: bool) -> Path:
    folder.mkdir()
    (folder / "hostile.json").write_text(json.dumps(_hostile_contract(integer), indent=2), encoding="utf-8")
    for name in FILE_NAMES:
        (folder / name).write_text("{", encoding="utf-8")
    fd = os.open(os.fsencode(folder) + b"/" + BAD_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(b'{"description": "not utf-8 named"}')
    return folder


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """``new/`` (the contracts folder and working directory: file names start lines), ``old/`` and ``doc.json``."""
    _folder(tmp_path / "new", integer=True)
    _folder(tmp_path / "old", integer=False)
    document = {"k" + HOSTILE: "zz" + HOSTILE, "n": "x" + HOSTILE, "extra" + HOSTILE: 1}
    (tmp_path / "doc.json").write_text(json.dumps(document), encoding="utf-8")
    return tmp_path


def _arguments(command: str) -> list[str]:
    return {
        "validate": ["validate"],
        "lint": ["lint"],
        "check": ["check", "hostile", "../doc.json"],
        "test": ["test", "--max-examples", "3", "--seed", "1", "--no-database"],
        "diff": ["diff", "--against", "../old", "--max-examples", "5", "--seed", "1"],
    }[command]


def _run(folder: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("JSON_CONTRACTS_DIR", "FORCE_COLOR", "GITHUB_ACTIONS")}
    env["NO_COLOR"] = "1"
    return subprocess.run(
        [str(script_path()), *args, "-c", "."],
        capture_output=True,
        cwd=folder,
        env=env,
        timeout=300,
        check=False,
    )


def _lines(text: str) -> Iterator[str]:
    """Lines as the runner reads them: split at CR, LF or both."""
    yield from re.split(r"\r\n|\r|\n", text)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _assert_no_runner_command(text: str, *, annotations: bool) -> None:
    for line in _lines(text):
        assert "##[" not in line, line
        if line.lstrip().startswith("::"):
            assert annotations, line
            assert _OUR_ANNOTATION.fullmatch(line), line


@pytest.mark.parametrize("fmt", _FORMATS)
@pytest.mark.parametrize("command", _COMMANDS)
def test_no_output_of_any_command_can_be_hijacked_by_a_contract(hostile: Path, command: str, fmt: str) -> None:
    folder = hostile / "new"
    summary, counts = hostile / "summary.md", hostile / "counts.txt"

    done = _run(folder, *_arguments(command), "--format", fmt, "--summary", str(summary), "--counts", str(counts))

    stderr = done.stderr.decode("utf-8")  # valid UTF-8 whatever the file names
    stdout = done.stdout.decode("utf-8")
    assert "Traceback" not in stderr
    assert done.returncode == 1, stderr  # the broken files fail every command; none crashes
    _assert_no_runner_command(stderr, annotations=False)
    _assert_no_runner_command(stdout, annotations=fmt == "github")
    assert not _RAW_CONTROL.search(stderr)
    if fmt in ("text", "github"):
        assert not _RAW_CONTROL.search(stdout)
    else:
        parsed = json.loads(stdout)
        assert not _RAW_CONTROL.search(stdout)  # JSON escapes them, and still carries them
        strings = list(_strings(parsed))
        assert not any(re.search("[\ud800-\udfff]", s) for s in strings)
        # The original text, exactly: lint and check quote the contract and the document, diff's
        # report its witnesses; every output quotes the names of the files that did not load.
        quotes_contract = command in ("lint", "check") or (command, fmt) == ("diff", "json")
        original = HOSTILE if quotes_contract else FILE_NAMES[0].removesuffix(".json")
        assert any(original in s for s in strings)
    summary_text = summary.read_bytes().decode("utf-8")
    assert not _RAW_CONTROL.search(summary_text)
    assert not re.search(r"(?<!\\)(\]\(|<img|://evil)", summary_text)  # no link, image, HTML or autolink
    rows = [row for row in summary_text.splitlines() if row.startswith("|")]
    cells = {len(re.findall(r"(?<!\\)\|", row)) for row in rows}  # an unescaped | would make a new cell
    assert len(cells) <= 1, rows
    assert re.fullmatch(r"errors=\d+\nwarnings=\d+\ninfo=\d+\n", counts.read_text(encoding="utf-8"))


@pytest.mark.parametrize("fmt", _FORMATS)
def test_a_file_name_that_is_not_utf8_is_shown_as_its_bytes(hostile: Path, fmt: str) -> None:
    folder = hostile / "plain"
    folder.mkdir()
    fd = os.open(os.fsencode(folder) + b"/" + BAD_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(b"{}")
    summary = hostile / "summary.md"

    done = _run(folder, "validate", "--format", fmt, "--summary", str(summary))

    stdout = done.stdout.decode("utf-8")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr.decode("utf-8")
    if fmt == "sarif":
        [result] = json.loads(stdout)["runs"][0]["results"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad%FF.json"
    elif fmt == "json":
        assert json.loads(stdout)["findings"][0]["file"] == "bad\\xff.json"
    else:
        assert "bad\\xff.json" in stdout
    assert "bad\\\\xff.json" in summary.read_text(encoding="utf-8")  # the backslash escaped for markdown


@pytest.mark.parametrize("fmt", _FORMATS)
def test_check_names_a_contract_that_did_not_load_on_stderr_in_one_escaped_line(hostile: Path, fmt: str) -> None:
    folder = hostile / "new"
    broken = {"description": "b", "schema": {"type": "object", "properties": {"k" + HOSTILE: {"type": "nope"}}}}
    (folder / "broken.json").write_text(json.dumps(broken), encoding="utf-8")

    done = _run(folder, "check", "broken", "../doc.json", "--format", fmt)

    stderr = done.stderr.decode("utf-8")
    assert done.returncode == 1
    assert "Traceback" not in stderr
    [finding, advice] = stderr.splitlines()
    assert finding.startswith("broken.json:1:")
    assert "\\u000a::error::pwned\\u000a::stop-commands::tok\\u001b]52" in finding
    assert advice == "Contract broken did not load; fix it first (json-contracts validate)."
    _assert_no_runner_command(stderr, annotations=False)
    assert not _RAW_CONTROL.search(stderr)
