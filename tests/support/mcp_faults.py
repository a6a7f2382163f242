"""The fault tests' contracts and the editor that changes them on disk while a server answers.

Every version of a contract says its number in its description, its rule, its schema
(``maximum``) and its example, so an answer that mixes two versions (or comes from a
half-written file) cannot pass for one. :func:`edit_burst` runs in a process of its own, as an
editor or ``git`` would: ``python -P mcp_faults.py FOLDER STEPS SEED`` (test_mcp_faults.py runs this
file by its path; ``-P`` keeps tests/support, which has an ``mcp.py``, off the script's sys.path).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from json_contracts.contracts.loading import contract_from_text

STABLE = [f"stable-{i}" for i in range(4)]  # edited in place, never removed: calls must never fail
CHURN = ["churn-a", "churn-b", "churn-c"]  # deleted, recreated and renamed: "not found" is allowed
CHURN_BODY = {"schema": {"type": "object"}}


def versioned(name: str, version: int) -> dict[str, Any]:
    return {
        "description": f"{name} version {version}",
        "rules": [f"version {version}"],
        "schema": {
            "type": "object",
            "properties": {"n": {"type": "integer", "maximum": version}},
            "required": ["n"],
        },
        "examples": [{"input": "x", "output": {"n": version}}],
    }


def contract_text(body: dict[str, Any]) -> str:
    return json.dumps(body, indent=2) + "\n"


def hashes(folder: Path, name: str, body: dict[str, Any]) -> tuple[str, str]:
    contract = contract_from_text(name, contract_text(body), folder / f"{name}.json")
    return contract.contract_hash, contract.schema_hash


class Versions:
    """Every version the editor process may write, with its hashes: the only answers allowed."""

    def __init__(self, folder: Path, steps: int) -> None:
        last = steps // len(STABLE) + 1
        self.known = {
            (name, version): hashes(folder, name, versioned(name, version))
            for name in STABLE
            for version in range(1, last + 1)
        }
        self.churn_hashes = {name: hashes(folder, name, CHURN_BODY) for name in CHURN}


def seed_files() -> dict[str, Any]:
    files = {f"{name}.json": contract_text(versioned(name, 1)) for name in STABLE}
    files["churn-a.json"] = files["churn-b.json"] = contract_text(CHURN_BODY)
    return files


def edit_burst(folder: Path, steps: int, seed: int) -> None:
    """Edit the folder the ways editors, git and tools do (run in its own process, as they are)."""
    chooser = random.Random(seed)
    versions = dict.fromkeys(STABLE, 1)
    for step in range(steps):
        name = STABLE[step % len(STABLE)]
        versions[name] += 1
        path = folder / f"{name}.json"
        text = contract_text(versioned(name, versions[name]))
        how = chooser.choice(["atomic", "half", "plain", "broken-then-fixed"])
        if how == "atomic":  # write elsewhere, then rename over: what git and careful editors do
            temporary = folder / f".{name}.json.swp"
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, path)
        elif how == "half":  # truncate, half the text, a pause, the rest: a reader may see the half
            with path.open("w", encoding="utf-8") as handle:
                handle.write(text[: len(text) // 2])
                handle.flush()
                time.sleep(chooser.uniform(0, 0.02))
                handle.write(text[len(text) // 2 :])
        elif how == "plain":
            path.write_text(text, encoding="utf-8")
        else:  # a broken save that stays long enough for the watcher to load it, then the fix
            path.write_text(text[:-20], encoding="utf-8")
            time.sleep(chooser.uniform(0.1, 0.2))
            path.write_text(text, encoding="utf-8")
        if step % 4 == 0:  # churn: one file deleted or recreated, another renamed back and forth
            a, b, c = (folder / f"{churn}.json" for churn in CHURN)
            if a.exists():
                a.unlink()
            else:
                a.write_text(contract_text(CHURN_BODY), encoding="utf-8")
            if b.exists():
                os.rename(b, c)
            elif c.exists():
                os.rename(c, b)
        time.sleep(chooser.uniform(0, 0.006))


if __name__ == "__main__":
    edit_burst(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
