"""The hostile-input suite: generated contracts and documents a red team would try, each within a bound.

Every test draws its inputs (``tests/support/hostile.py``) and runs the real entry point: the
installed CLI in a subprocess, the MCP server over stdio with a well-behaved request between the
hostile ones, and the pytest plugin in a subprocess. Each states its bound on wall time and on the
child's peak memory; the bounds are generous for a loaded CI box and far below what the inputs
cost before they were bounded (hours, gigabytes). ``slow`` runs draw more examples.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from tests.support.hardening import FUZZ
from tests.support.hostile import (
    Hostile,
    Ran,
    control_texts,
    hostile_pattern_cases,
    huge_number_schemas,
    ref_graph,
    ref_graphs,
    run_bounded,
    write_contract,
)

#: The bound every CLI run in this suite is held to (seconds, MiB of peak RSS).
SECONDS = 90.0
MEGABYTES = 1024.0
#: The time budget `test` is given per contract here (its default, 120 s, is beyond SECONDS): the
#: run must end within it plus start-up, as an honest result or "inconclusive".
BUDGET = 30
_TEST = ["test", "-c", "json-contracts", "--no-database", "--timeout", str(BUDGET)]
#: For ref graphs, whose deep fan-outs make every check run to its budget (validation itself is
#: exponential there): a shorter one proves the same bound at a third of the suite's time.
_TEST_SHORT = ["test", "-c", "json-contracts", "--no-database", "--timeout", "10"]

# No shrinking: one failing run can cost the whole bound, and the inputs are already small.
_NO_SHRINK = settings(FUZZ, phases=[Phase.explicit, Phase.reuse, Phase.generate])
_FEW = settings(_NO_SHRINK, max_examples=4)
_MORE = settings(_NO_SHRINK, max_examples=12)
# Each generated test runs a few examples by default and more under the slow marker.
_FEW_AND_MORE = pytest.mark.parametrize(
    "settings_", [pytest.param(_FEW, id="few"), pytest.param(_MORE, id="more", marks=pytest.mark.slow)]
)
TempPaths = pytest.TempPathFactory

# Our own GitHub annotations: "::error file=…" and the like. Anything else starting a line with
# "::" or "##[" would be read by GitHub's runner as a command.
_OURS = re.compile(r"^::(error|warning|notice) (file|title)=")
# Characters that act on a terminal or reorder what it shows, raw in a text output.
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _assert_sane(ran: Ran, *, codes: tuple[int, ...] = (0, 1)) -> None:
    """No traceback, no panic, an exit code of ours, and within the suite's bounds."""
    both = ran.stdout + ran.stderr
    assert ran.returncode in codes, both[-3000:]
    assert "Traceback (most recent call last)" not in both, both[-3000:]
    assert "panicked at" not in both, both[-3000:]
    assert "PanicException" not in both, both[-3000:]
    assert ran.seconds < SECONDS
    assert ran.peak_mib < MEGABYTES, f"peak RSS {ran.peak_mib:.0f} MiB"


def _assert_no_commands(ran: Ran) -> None:
    for channel in (ran.stdout, ran.stderr):
        for line in channel.splitlines():
            assert not line.startswith("##["), line
            assert not line.startswith("::") or _OURS.match(line), line


def _pattern_contract(folder: Path, case: Hostile) -> Path:
    schema = {
        "type": "object",
        "properties": {"v": {"type": "string", "pattern": case.pattern}},
        "patternProperties": {case.pattern: {"type": "string"}},
    }
    return write_contract(folder / "json-contracts", "hostile", schema)


def _check(tmp: Path, document: Any, *extra: str) -> Ran:
    path = tmp / "document.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return run_bounded(
        ["check", "hostile", str(path), "-c", str(tmp / "json-contracts"), *extra], cwd=tmp, timeout=SECONDS
    )


# --- patterns ---------------------------------------------------------------------------------------


def _patterns_bounded(tmp: Path, case: Hostile) -> None:
    _pattern_contract(tmp, case)
    for args in (["validate", "-c", "json-contracts"], ["lint", "-c", "json-contracts", "--format", "github"]):
        _assert_sane(run_bounded(args, cwd=tmp, timeout=SECONDS))
    # The value and an object key carry the attack string; the document is within the 1 MiB limit.
    ran = _check(tmp, {"v": case.value, case.value[:1000]: "x"})
    _assert_sane(ran)


@pytest.mark.parametrize(
    "settings_", [pytest.param(_FEW, id="few"), pytest.param(_MORE, id="more", marks=pytest.mark.slow)]
)
def test_catastrophic_and_polynomial_patterns_are_bounded(
    tmp_path_factory: pytest.TempPathFactory, settings_: settings
) -> None:
    @settings_
    @given(case=hostile_pattern_cases())
    def run(case: Hostile) -> None:
        _patterns_bounded(tmp_path_factory.mktemp("pattern"), case)

    run()


# --- $ref graphs ------------------------------------------------------------------------------------


def _graph_bounded(tmp: Path, schema: dict[str, Any]) -> None:
    write_contract(tmp / "json-contracts", "hostile", schema)
    loaded = run_bounded(["validate", "-c", "json-contracts"], cwd=tmp, timeout=SECONDS)
    _assert_sane(loaded)
    _assert_sane(run_bounded(["lint", "-c", "json-contracts"], cwd=tmp, timeout=SECONDS))
    _assert_sane(run_bounded([*_TEST_SHORT, "--max-examples", "3"], cwd=tmp, timeout=SECONDS))
    if loaded.returncode == 0:  # a document that fails every branch of a 2**depth fan-out
        _assert_sane(_check(tmp, {"a": 1, "b": [1, 2], "x": None}))


@pytest.mark.parametrize(
    "settings_", [pytest.param(_FEW, id="few"), pytest.param(_MORE, id="more", marks=pytest.mark.slow)]
)
def test_ref_graphs_that_fan_out_or_loop_are_bounded(
    tmp_path_factory: pytest.TempPathFactory, settings_: settings
) -> None:
    @settings_
    @given(schema=ref_graphs())
    def run(schema: dict[str, Any]) -> None:
        _graph_bounded(tmp_path_factory.mktemp("graph"), schema)

    run()


@pytest.mark.parametrize("spelling", ["#/$defs/n0", "#/%24defs/n0", "#/$defs/n%30", "#/$defs/n0/notAKeyword"])
def test_a_loop_that_never_reads_the_document_is_a_load_error_however_spelt(tmp_path: Path, spelling: str) -> None:
    n0: dict[str, Any] = {"anyOf": [{"$ref": "#/$defs/n1"}], "notAKeyword": {"$ref": "#/$defs/n1"}}
    schema = {"$ref": "#/$defs/n0", "$defs": {"n0": n0, "n1": {"$ref": spelling}}}
    write_contract(tmp_path / "json-contracts", "hostile", schema)
    ran = run_bounded(["validate", "-c", "json-contracts"], cwd=tmp_path, timeout=SECONDS)
    _assert_sane(ran, codes=(1,))
    assert "JC019" in ran.stdout + ran.stderr


# --- schema numbers ---------------------------------------------------------------------------------


def _numbers_bounded(tmp: Path, schema: dict[str, Any]) -> None:
    write_contract(tmp / "json-contracts", "hostile", schema)
    ran = run_bounded([*_TEST, "--max-examples", "3"], cwd=tmp, timeout=SECONDS)
    _assert_sane(ran)
    assert "itself crashed" not in ran.stdout + ran.stderr, ran.stdout[-2000:]


@pytest.mark.parametrize(
    "settings_", [pytest.param(_FEW, id="few"), pytest.param(_MORE, id="more", marks=pytest.mark.slow)]
)
def test_schema_numbers_do_not_set_the_cost_of_test(
    tmp_path_factory: pytest.TempPathFactory, settings_: settings
) -> None:
    @settings_
    @given(schema=huge_number_schemas())
    def run(schema: dict[str, Any]) -> None:
        _numbers_bounded(tmp_path_factory.mktemp("numbers"), schema)

    run()


# --- text that reaches outputs ------------------------------------------------------------------------

_COMMANDS = {
    "validate": ["validate", "-c", "json-contracts"],
    "lint": ["lint", "-c", "json-contracts"],
    "check": ["check", "hostile", "document.json", "-c", "json-contracts"],
    "test": [*_TEST, "--max-examples", "2"],
}


def _injected_contract(folder: Path, text: str, broken: bool) -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "description": text,
        "required": [text],
        "properties": {text: {"type": "string", "enum": [text], "description": text}},
    }
    contract: dict[str, Any] = {"rules": [text], "examples": [{"input": text, "output": {text: 1}}]}
    if broken:
        schema["properties"][text]["minLength"] = text  # a schema error whose message quotes the text
    write_contract(folder, "hostile", schema, description=text, **contract)


def _outputs_escaped(tmp: Path, text: str, command: str, output: str, broken: bool) -> None:
    _injected_contract(tmp / "json-contracts", text, broken)
    (tmp / "document.json").write_text(json.dumps({text: text, "x" + text: [text]}), encoding="utf-8")
    args = list(_COMMANDS[command])
    if output != "text":
        args += ["--format", output]
    args += ["--summary", str(tmp / "summary.md")]
    ran = run_bounded(args, cwd=tmp, timeout=SECONDS)
    _assert_sane(ran)
    _assert_no_commands(ran)
    if output in ("text", "github"):
        assert not _RAW_CONTROL.search(ran.stdout), ran.stdout[-1500:]
    assert not _RAW_CONTROL.search(ran.stderr), ran.stderr[-1500:]
    if output in ("json", "sarif") and ran.stdout.strip():  # check names a contract that did not load on stderr
        json.loads(ran.stdout)
    summary = (tmp / "summary.md").read_text(encoding="utf-8") if (tmp / "summary.md").exists() else ""
    assert not _RAW_CONTROL.search(summary), summary[-1500:]
    assert not any(line.startswith("::") for line in summary.splitlines())


@pytest.mark.parametrize(
    "settings_", [pytest.param(_FEW, id="few"), pytest.param(_MORE, id="more", marks=pytest.mark.slow)]
)
def test_contract_text_cannot_inject_commands_or_escapes(
    tmp_path_factory: pytest.TempPathFactory, settings_: settings
) -> None:
    @settings(settings_, max_examples=settings_.max_examples * 3)
    @given(
        text=control_texts(),
        command=st.sampled_from(sorted(_COMMANDS)),
        output=st.sampled_from(["text", "github", "json", "sarif"]),
        broken=st.booleans(),
    )
    def run(text: str, command: str, output: str, broken: bool) -> None:
        _outputs_escaped(tmp_path_factory.mktemp("text"), text, command, output, broken)

    run()


_ODD_NAMES = st.one_of(
    st.binary(min_size=1, max_size=12).filter(lambda b: b"/" not in b and b"\x00" not in b and b not in (b".", b"..")),
    st.sampled_from([b"bad\xff", b"\x1b[2J", b"::error::x", b"\xe2\x80\xae", b"a\nb", b"\r"]),
)


@settings(_NO_SHRINK, max_examples=6)
@given(name=_ODD_NAMES, output=st.sampled_from(["text", "github", "json", "sarif"]))
def test_odd_file_names_never_crash_an_output(
    tmp_path_factory: pytest.TempPathFactory, name: bytes, output: str
) -> None:
    tmp = tmp_path_factory.mktemp("names")
    folder = tmp / "json-contracts"
    folder.mkdir()
    descriptor = os.open(os.fsencode(folder) + b"/" + name + b".json", os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(descriptor, json.dumps({"description": "x", "schema": {"type": "object"}}).encode())
    os.close(descriptor)
    for command in ("validate", "lint"):
        args = [command, "-c", "json-contracts", "--summary", str(tmp / "summary.md")]
        if output != "text":
            args += ["--format", output]
        ran = run_bounded(args, cwd=tmp, timeout=SECONDS)
        _assert_sane(ran)
        _assert_no_commands(ran)
        if output in ("json", "sarif"):
            json.loads(ran.stdout)


# --- the server: a well-behaved request between hostile ones ------------------------------------------


def _server_lines(case: Hostile, rounds: int) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    for number in range(rounds):
        lines.append(
            {
                "jsonrpc": "2.0",
                "id": 100 + number,
                "method": "tools/call",
                "params": {"name": "validate_json", "arguments": {"contract": "hostile", "json": {"v": case.value}}},
            }
        )
        lines.append({"jsonrpc": "2.0", "id": 200 + number, "method": "ping"})
    return lines


def _serve_hostile(tmp: Path, case: Hostile) -> None:
    _pattern_contract(tmp, case)
    env = {**os.environ, "JSON_CONTRACTS_DIR": str(tmp / "json-contracts"), "WATCH_CONTRACTS": "false"}
    for name in ("MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN"):
        env.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, "-m", "json_contracts"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    answered: dict[int, float] = {}

    def read() -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            message = json.loads(raw)
            if isinstance(message.get("id"), int):
                answered[message["id"]] = time.monotonic()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert process.stdin is not None
    rounds = 3
    sent = time.monotonic()
    for line in _server_lines(case, rounds):
        process.stdin.write((json.dumps(line) + "\n").encode())
    process.stdin.flush()
    deadline = sent + SECONDS
    while len(answered) < 1 + 2 * rounds and time.monotonic() < deadline:
        time.sleep(0.05)
    process.stdin.close()
    try:
        process.wait(timeout=30)
    finally:
        process.kill()
        process.wait()
        reader.join(timeout=10)
        stderr = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    assert sorted(answered) == [0, *range(100, 100 + rounds), *range(200, 200 + rounds)], stderr[-2000:]
    # Each ping waits at most for the hostile call before it: one document's time budget each.
    assert max(answered[200 + n] for n in range(rounds)) - sent < SECONDS / 2, stderr[-2000:]
    assert "Traceback" not in stderr, stderr[-2000:]


@settings(_NO_SHRINK, max_examples=3)
@given(case=hostile_pattern_cases(max_length=400_000))
def test_the_server_answers_every_request_while_hostile_documents_arrive(
    tmp_path_factory: TempPaths, case: Hostile
) -> None:
    _serve_hostile(tmp_path_factory.mktemp("serve"), case)


# --- the pytest plugin --------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_plugin_reports_every_hostile_contract_without_an_internal_error(tmp_path: Path) -> None:
    folder = tmp_path / "json-contracts"
    _pattern_contract(tmp_path, Hostile("^(\\w+)+$", "a" * 40 + "!", "exponential"))
    (folder / "hostile.json").rename(folder / "pattern.json")
    write_contract(folder, "graph", ref_graph(30, "anyOf", "#/%24defs/n0"))
    write_contract(folder, "numbers", {"type": "string", "maxLength": 10**9, "minLength": 10**8})
    write_contract(folder, "text", {"type": "object", "description": "\n::error::x\x1b[2J"})
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    started = time.monotonic()
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "--json-contracts", str(folder), "-p", "no:cacheprovider",
         "--json-contracts-max-examples", "3", "--json-contracts-no-database", "-q", "-rA"],
        cwd=tmp_path, capture_output=True, text=True, timeout=SECONDS * 3,
    )  # fmt: skip
    assert time.monotonic() - started < SECONDS * 3
    assert "INTERNALERROR" not in ran.stdout + ran.stderr, ran.stdout[-3000:]
    assert "Traceback (most recent call last)" not in ran.stdout, ran.stdout[-3000:]
    for name in ("pattern", "graph", "numbers", "text"):
        assert f"{name}.json" in ran.stdout or f"{name}::" in ran.stdout, ran.stdout[-3000:]
    assert ran.returncode in (0, 1), ran.stdout[-3000:]
    for line in ran.stdout.splitlines():
        assert not line.strip().startswith(("::", "##[")), line
    assert not _RAW_CONTROL.search(ran.stdout), ran.stdout[-3000:]
