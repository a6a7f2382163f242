"""Short runs of bench/server.py and bench/ping_under_load.py against real servers.

The figures themselves are in bench/README.md; these check what must hold on any machine: the
scripts run, print their tables, skip the TypeScript server by name when no build is given, and
refuse to report figures for a server that answers wrongly (a server that skips the work must not
look fast). They assert no timing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"

# A stand-in for a TypeScript server build (``<folder>/dist/index.js``) that speaks the protocol
# but answers every validate_json with {"valid": true} without looking at the document.
LIAR = """
const lines = require("readline").createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  let result = {};
  if (message.method === "initialize") {
    result = { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} },
               serverInfo: { name: "liar", version: "0" } };
  } else if (message.method === "tools/list") {
    result = { tools: Array.from({ length: 8 }, (_, i) => ({ name: "t" + i, inputSchema: { type: "object" } })) };
  } else if (message.method === "tools/call") {
    const payload = { valid: true };
    result = { content: [{ type: "text", text: JSON.stringify(payload) }], structuredContent: payload };
  }
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\\n");
});
"""


def run_bench(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.mark.slow  # spawns our server a few times
def test_server_bench_without_a_build_measures_ours_and_says_why_ts_is_skipped() -> None:
    process = run_bench("server.py", "--starts", "1", "--calls", "10", "--pipelined", "10")

    assert process.returncode == 0, process.stderr
    assert "ts: skipped, no --ts PATH given" in process.stderr
    assert "npm ci && npm run build" in process.stderr
    assert "| figure | ours |" in process.stdout
    assert "peak RSS (VmHWM)" in process.stdout
    assert "round trip, small documents, p99" in process.stdout
    assert "Traceback" not in process.stderr


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="needs node for the stand-in server")
def test_server_bench_refuses_figures_for_a_server_that_answers_without_validating(tmp_path: Path) -> None:
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "index.js").write_text(LIAR, encoding="utf-8")

    process = run_bench("server.py", "--ts", str(tmp_path), "--starts", "1", "--calls", "10", "--pipelined", "10")

    assert process.returncode != 0
    assert "a wrong answer, no figures: ts: request" in process.stderr
    assert "expected valid=False" in process.stderr
    assert "| figure |" not in process.stdout


@pytest.mark.slow
def test_server_bench_names_a_missing_build() -> None:
    process = run_bench(
        "server.py", "--ts", "/nonexistent/ts-build", "--starts", "1", "--calls", "2", "--pipelined", "2"
    )

    assert process.returncode == 0, process.stderr
    assert "ts: skipped, no /nonexistent/ts-build/dist/index.js" in process.stderr


@pytest.mark.slow  # our server over stdio and over HTTP, each validating a large document
def test_ping_under_load_answers_every_ping_and_prints_its_table() -> None:
    process = run_bench("ping_under_load.py", "--runs", "2", "--entries", "5000", "--delay", "0")

    assert process.returncode == 0, process.stderr
    assert "| ours stdio |" in process.stdout
    assert "| ours http |" in process.stdout
    assert "Traceback" not in process.stderr
