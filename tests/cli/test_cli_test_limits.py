"""``json-contracts test`` under raised ``JSON_CONTRACTS_MAX_*`` limits: every check, ``hashes`` included,
works on the contract the run loaded (``hashes`` reloads it, and must not fall back to the defaults)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.cli import RunScript


def big_contract() -> dict[str, Any]:
    """About 200 KiB of schema (over the 128 KiB default) and 60 examples (over the default 50)."""
    properties = {f"field{i:04d}": {"type": "string", "description": "d" * 150} for i in range(1100)}
    schema = {"type": "object", "properties": properties, "required": ["field0000"]}
    examples = [{"input": f"i{i}", "output": {"field0000": f"v{i}"}} for i in range(60)]
    return {"description": "A large schema.", "schema": schema, "examples": examples}


def test_hashes_reloads_the_contract_under_the_raised_limits_the_run_loaded_it_with(
    run_script: RunScript, workdir: Path
) -> None:
    folder = workdir / "contracts"
    folder.mkdir()
    text = json.dumps(big_contract())
    assert 200_000 < len(text) < 262_144  # within the default file limit; over the schema and example limits
    (folder / "big.json").write_text(text, encoding="utf-8")
    raised = {"JSON_CONTRACTS_MAX_SCHEMA_BYTES": "400000", "JSON_CONTRACTS_MAX_EXAMPLES": "100", "CI": "true"}

    refused = run_script("test", "-c", "contracts", "--check", "hashes", env={"CI": "true"})
    assert refused.returncode != 0
    assert "exceed limit (60 > 50)" in refused.stdout  # the defaults do refuse it

    done = run_script("test", "-c", "contracts", "--check", "hashes", "--max-examples", "3", env=raised)

    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "pass big hashes: hashes stable across" in done.stdout
