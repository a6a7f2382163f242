"""``contractHash`` and ``schemaHash``: SHA-256 of canonical JSON, identical to the TypeScript server's."""

from __future__ import annotations

import hashlib
from typing import Any

from json_contracts._json.text import canonical

__all__ = ["sha256_of"]


def sha256_of(value: Any) -> str:
    """``sha256:<hex>`` of the canonical JSON text of ``value`` encoded as UTF-8."""
    text = canonical(value).encode("utf-8", "surrogatepass")
    return "sha256:" + hashlib.sha256(text).hexdigest()
