"""Shared by the bench scripts: the machine line, a starter folder, a generated folder of N contracts."""

from __future__ import annotations

import json
import os
import platform
import random
import subprocess
import sys
from datetime import date
from pathlib import Path

STARTER = Path(__file__).resolve().parent.parent / "src" / "json_contracts" / "contracts" / "starter"


def machine() -> str:
    """``2026-12-01 · 2 cores, AMD EPYC …, Python 3.11.7`` — printed first by every script."""
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines() if "model name" in line]
        cpu = names[0] if names else cpu
    return f"{date.today().isoformat()} · {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}"


def init_starters(work: Path) -> Path:
    """``json-contracts init`` in ``work``; returns the folder."""
    subprocess.run([sys.executable, "-m", "json_contracts", "init"], cwd=work, check=True, stdout=subprocess.DEVNULL)
    return work / "json-contracts"


def generate_contracts(folder: Path, count: int, seed: int = 7) -> Path:
    """``count`` realistic contracts: the starters renamed, with varied descriptions, enums and limits."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    bases = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(STARTER.glob("*.json"))]
    for i in range(count):
        body = json.loads(json.dumps(bases[i % len(bases)]))
        body.pop("name", None)
        body["description"] = f"{body.get('description', '')} (variant {i})"
        schema = body["schema"]
        for prop in (schema.get("properties") or {}).values():
            if isinstance(prop, dict) and prop.get("type") == "string" and "maxLength" in prop:
                prop["maxLength"] = prop["maxLength"] + rng.randrange(0, 40)
        (folder / f"contract-{i:04d}.json").write_text(json.dumps(body, indent=2), encoding="utf-8")
    return folder
