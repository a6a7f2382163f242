"""``json-contracts serve </dev/null``: input at its end at once, so the server ends at once, quietly.

What ``docker run`` without ``-i``, process managers and ``cmd </dev/null`` give the server. It used
to print an asyncio traceback (PermissionError) and never exit. stdout is a pipe, /dev/null or a
terminal (a pty).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.mcp import CONTRACT_FILES, contract_text

_BOUND = 20  # seconds: the bug hangs for ever; a healthy exit takes well under one


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN"}}
    env.update({"JSON_CONTRACTS_DIR": str(folder), "WATCH_CONTRACTS": "true"})
    return env


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name, content in CONTRACT_FILES.items():
        (tmp_path / name).write_text(contract_text(content), encoding="utf-8")
    return tmp_path


def _serve(folder: Path, stdout: int) -> tuple[int, str]:
    with open(os.devnull, "rb") as null:
        process = subprocess.Popen(
            [sys.executable, "-m", "json_contracts", "serve"],
            stdin=null,
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=_env(folder),
        )
        try:
            _, stderr = process.communicate(timeout=_BOUND)
        except subprocess.TimeoutExpired:
            process.kill()
            _, stderr = process.communicate()
            pytest.fail(f"the server did not exit within {_BOUND} s: {stderr.decode(errors='replace')}")
    return process.returncode, stderr.decode("utf-8", "replace")


@pytest.mark.parametrize("kind", ["pipe", "devnull"])
def test_serve_with_stdin_at_its_end_exits_zero_without_a_traceback(folder: Path, kind: str) -> None:
    if kind == "pipe":
        read, write = os.pipe()
        try:
            code, stderr = _serve(folder, write)
            os.close(write)
            write = -1
            with os.fdopen(read, "rb") as out:
                written = out.read()
        finally:
            if write >= 0:
                os.close(write)
        assert written == b""  # nothing was asked, so nothing is answered
    else:
        with open(os.devnull, "wb") as null:
            code, stderr = _serve(folder, null.fileno())
    assert code == 0, stderr
    assert "Traceback" not in stderr
    assert "Error" not in stderr


def test_serve_with_stdin_at_its_end_and_a_terminal_for_stdout_exits_zero(folder: Path) -> None:
    pty = pytest.importorskip("pty")  # POSIX only
    leader, follower = pty.openpty()
    try:
        began = time.monotonic()
        code, stderr = _serve(folder, follower)
    finally:
        os.close(follower)
        os.close(leader)
    assert code == 0, stderr
    assert "Traceback" not in stderr
    assert time.monotonic() - began < _BOUND
