"""Kill ``json-contracts init`` with SIGKILL at chosen or random points (run by tests/cli/test_cli_init_kill.py).

``python -P init_kill_harness.py BASE MODE COUNT SEED`` imports the CLI once, then forks one child
per run; each child runs ``init --contracts BASE/run-NNNN``. In ``steps`` mode child *k* kills itself
just before its *k*-th file operation in that folder (open, link, rename, remove, chmod, as the
audit hooks report them), until a child gets through; in ``random`` mode the parent kills each
child after a random delay up to a little longer than an init takes. One JSON line per run on
stdout: ``{"folder", "killed"}``. ``-P`` keeps this folder (tests/support, which has an ``mcp.py``)
off sys.path. POSIX only (fork).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

from json_contracts.cli import main

_FILE_EVENTS = {"open", "os.link", "os.rename", "os.remove", "os.chmod", "os.mkdir"}


def _child(folder: Path, kill_before: int | None) -> None:
    """Run init in this (forked) process; never returns."""
    seen = 0

    def hook(event: str, args: tuple[Any, ...]) -> None:
        nonlocal seen
        if event in _FILE_EVENTS and args and str(args[0]).startswith(str(folder)):
            if seen == kill_before:
                os.kill(os.getpid(), signal.SIGKILL)
            seen += 1

    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    if kill_before is not None:
        sys.addaudithook(hook)
    try:
        main(["init", "--contracts", str(folder)])
    finally:
        os._exit(0)


def _run(folder: Path, kill_before: int | None = None, kill_after: float | None = None) -> bool:
    """One init in a forked child; True if it was killed."""
    pid = os.fork()
    if pid == 0:
        _child(folder, kill_before)
    if kill_after is not None:
        time.sleep(kill_after)
        os.kill(pid, signal.SIGKILL)  # harmless if it has already finished
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status)


def main_harness(base: Path, mode: str, count: int, seed: int) -> None:
    chooser = random.Random(seed)
    started = time.perf_counter()
    _run(base / "run-timing")  # how long one whole init takes here
    whole = time.perf_counter() - started
    for n in range(count):
        folder = base / f"run-{n:04}"
        if mode == "steps":
            killed = _run(folder, kill_before=n)
        else:
            killed = _run(folder, kill_after=chooser.uniform(0, whole * 1.2))
        sys.stdout.write(json.dumps({"folder": str(folder), "killed": killed}) + "\n")
        sys.stdout.flush()
        if mode == "steps" and not killed:
            break  # every step has had its turn


if __name__ == "__main__":
    main_harness(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
