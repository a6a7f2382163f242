"""The real script on a terminal (a pty): the progress line, colour, the server's hint, Ctrl-C.

Each of these depends on ``isatty()`` or on a signal, so each runs the installed script in a
process of its own, with the streams that matter on a pseudo-terminal (:mod:`tests.cli.terminal`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.cli.terminal import Terminal, screen
from tests.support.cli import RunScript, WriteContracts

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

ESCAPE = re.compile(r"\x1b\[")
PROGRESS = re.compile(r"testing  \[[#-]{20}\]  (\d+) of (\d+): (\S+)")
TEST_ARGS = ("test", "-c", "contracts", "--check", "examples", "--check", "hashes", "--max-examples", "5",
             "--seed", "3")  # fmt: skip


def _two_contracts(write_contracts: WriteContracts, ticket: dict[str, Any]) -> None:
    # The long name comes first, so the line for the second contract is shorter than the one it replaces.
    write_contracts({"a-contract-with-a-rather-long-name": ticket, "b": ticket})


# --- test: results stream, and an N-of-M line that never leaves text behind ------------------------


def test_test_streams_results_under_an_n_of_m_line_that_leaves_nothing_behind(
    write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path, run_script: RunScript
) -> None:
    _two_contracts(write_contracts, samples.TICKET)

    terminal = Terminal(*TEST_ARGS, cwd=workdir)
    status, _, _ = terminal.finish()
    piped = run_script(*TEST_ARGS)

    assert status == 0
    history: list[str] = []
    shown = screen(terminal.output, history=history)
    assert shown == piped.stdout.splitlines()  # what stays on screen is exactly the non-terminal output
    drawn = [line for line in history if line.startswith("testing")]
    assert drawn, "no progress line was drawn"
    for line in drawn:  # every state the line was in: exactly one well-formed line, nothing left over
        assert PROGRESS.fullmatch(line), line
    counters = [PROGRESS.fullmatch(line).groups()[:2] for line in drawn]  # type: ignore[union-attr]
    assert ("1", "2") in counters
    assert ("2", "2") in counters
    # streamed: the first contract's results are on the terminal before the second contract starts
    text = re.sub(r"\x1b\[[0-9;]*m", "", terminal.output.decode("utf-8"))  # colour off, as a reader sees it
    assert text.index("pass a-contract-with-a-rather-long-name hashes") < text.index("2 of 2: b")


def test_the_progress_line_is_only_drawn_on_a_terminal(
    write_contracts: WriteContracts, samples: SimpleNamespace, run_script: RunScript
) -> None:
    _two_contracts(write_contracts, samples.TICKET)

    piped = run_script(*TEST_ARGS)

    assert piped.returncode == 0
    assert piped.stderr == ""
    assert "testing" not in piped.stdout


def test_json_on_a_terminal_gets_the_progress_line_on_stderr_only(
    write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    _two_contracts(write_contracts, samples.TICKET)

    terminal = Terminal(*TEST_ARGS, "--json", cwd=workdir, on_terminal=("stderr",))
    status, stdout, _ = terminal.finish()

    assert status == 0
    assert stdout.startswith(b'{\n  "ok": true,')
    assert b"2 of 2: b" in terminal.output
    assert screen(terminal.output) == []  # and it is gone at the end


# --- colour ---------------------------------------------------------------------------------------


@pytest.fixture
def open_folder(write_contracts: WriteContracts, samples: SimpleNamespace) -> None:
    write_contracts({"open": samples.OPEN_OBJECT})


@pytest.mark.usefixtures("open_folder")
@pytest.mark.parametrize(
    ("env", "coloured"),
    [({}, True), ({"NO_COLOR": "1"}, False), ({"NO_COLOR": ""}, True), ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, False)],
    ids=["terminal", "no-color", "empty-no-color", "no-color-wins"],
)
def test_no_color_turns_colour_off_on_a_terminal(workdir: Path, env: dict[str, str], coloured: bool) -> None:
    terminal = Terminal("lint", "-c", "contracts", cwd=workdir, env=env)
    status, _, _ = terminal.finish()

    assert status == 0
    assert bool(ESCAPE.search(terminal.output.decode("utf-8"))) is coloured
    assert "JC104 warning" in "\n".join(screen(terminal.output))


@pytest.mark.usefixtures("open_folder")
@pytest.mark.parametrize(
    "args", [("lint", "-c", "contracts"), ("validate", "-c", "nowhere"), ("test", "-c", "nowhere")]
)
def test_force_color_colours_output_that_is_not_a_terminal(run_script: RunScript, args: tuple[str, ...]) -> None:
    forced = run_script(*args, env={"NO_COLOR": "", "FORCE_COLOR": "1"})
    plain = run_script(*args, env={"NO_COLOR": "", "FORCE_COLOR": ""})

    assert ESCAPE.search(forced.stdout)
    assert not ESCAPE.search(plain.stdout)
    assert re.sub(r"\x1b\[[0-9;]*m", "", forced.stdout) == plain.stdout


@pytest.mark.usefixtures("open_folder")
def test_force_color_never_colours_github_annotations_or_json(run_script: RunScript) -> None:
    for args in (("--format", "github"), ("--json",), ("--format", "sarif")):
        forced = run_script("lint", "-c", "contracts", *args, env={"NO_COLOR": "", "FORCE_COLOR": "1"})
        assert not ESCAPE.search(forced.stdout), args


# --- the server started by hand -------------------------------------------------------------------

PING = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n'


def test_bare_json_contracts_on_a_terminal_says_what_it_is_on_stderr(workdir: Path) -> None:
    (workdir / "json-contracts").mkdir()

    terminal = Terminal(cwd=workdir, on_terminal=("stdin",))
    terminal.type(PING)
    terminal.type(b"\x04")  # Ctrl-D: end of input, the server exits
    status, stdout, stderr = terminal.finish()

    assert status == 0
    assert stdout == b'{"jsonrpc":"2.0","id":1,"result":{}}\n'  # the protocol channel holds the protocol only
    assert stderr.decode("utf-8").splitlines()[0] == (
        "[json-contracts] info: this is the MCP server, waiting for a client on stdin (an agent host starts it); "
        "Ctrl-C stops it. For the commands, run json-contracts --help."
    )


def test_bare_json_contracts_for_a_host_writes_nothing_but_the_protocol(run_script: RunScript, workdir: Path) -> None:
    (workdir / "json-contracts").mkdir()

    process = run_script(input=PING.decode("utf-8"))

    assert process.returncode == 0
    assert process.stdout == '{"jsonrpc":"2.0","id":1,"result":{}}\n'
    assert process.stderr == ""


# --- Ctrl-C -----------------------------------------------------------------------------------------


def test_ctrl_c_during_test_exits_130_and_leaves_the_terminal_clean(
    write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"ticket": samples.TICKET})

    terminal = Terminal("test", "-c", "contracts", "--max-examples", "100000", cwd=workdir)
    terminal.wait_for(b"1 of 1: ticket")
    terminal.interrupt()
    status, _, _ = terminal.finish()

    assert status == 130
    shown = screen(terminal.output)
    assert shown[-1] == "Interrupted."
    assert not [line for line in shown if line.startswith("testing")]  # the progress line was taken away
    assert b"\x1b[?25h" in terminal.output  # and the cursor it hid is back
    assert b"Traceback" not in terminal.output  # not even a Ctrl-C that landed in Hypothesis's gc callback


def test_ctrl_c_while_check_waits_for_stdin_exits_130(
    write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"ticket": samples.TICKET})

    terminal = Terminal("check", "ticket", "-c", "contracts", cwd=workdir, on_terminal=("stdin", "stderr"))
    terminal.wait_for(b"end it with Ctrl-D")
    terminal.interrupt()
    status, stdout, _ = terminal.finish()

    assert status == 130
    assert stdout == b""
    assert screen(terminal.output)[-1] == "Interrupted."
    assert b"Aborted!" not in terminal.output
