"""A short run of bench/http_load.py: concurrent clients over token-gated HTTP on loopback.

The 30-second, 50-client version and its figures are in bench/README.md; this one (10 clients for
3 s) checks what must hold whatever the machine: every answer right, memory not growing. It
asserts no latency or throughput.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "http_load.py"


@pytest.mark.slow  # a real server under load for several seconds
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory from /proc")
def test_ten_clients_for_three_seconds_get_every_answer_right_and_memory_stays_flat() -> None:
    process = subprocess.run(
        [sys.executable, str(BENCH), "--clients", "10", "--seconds", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    figures = json.loads(process.stdout)
    rss = figures["rss_mib"]

    assert figures["errors"] == 0, figures["error_kinds"]
    assert figures["requests"] > 0
    assert rss["end"] <= 2 * rss["idle"], rss  # generous: only a runaway leak doubles it in 3 s
    assert figures["server_stderr_lines"] == 1  # the "Serving MCP over HTTP" line, no traceback
