"""Golden data in tests/data: outputs of the TypeScript server and Ajv, and the SARIF 2.1.0 schema.

Read as bytes and decoded as UTF-8, so a file's exact text (line endings, a raw U+2028) survives.
See tests/data for what each file holds and docs/reference/compatibility.md for what must match.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data"

#: The canonical texts and hashes the TypeScript server computed for a few probe values (JSON lines).
HASH_PROBES = DATA / "hash-probes.jsonl"

#: The SARIF 2.1.0 JSON schema (OASIS), vendored with its licence.
SARIF_SCHEMA = DATA / "sarif" / "sarif-schema-2.1.0.json"


def golden_text(name: str) -> str:
    """The text of ``tests/data/<name>``."""
    return (DATA / name).read_bytes().decode("utf-8")


def golden_json(name: str) -> Any:
    """The JSON value in ``tests/data/<name>``."""
    return json.loads(golden_text(name))
