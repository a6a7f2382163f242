"""Findings made up for the reporting tests (annotations and summaries)."""

from __future__ import annotations

from typing import Any

from json_contracts.findings import Finding


def numbered_finding(severity: str = "error", number: int = 0, **changes: Any) -> Finding:
    """Finding ``number`` of a.json: a typical code for ``severity``, on line ``number + 1``, column 1."""
    fields: dict[str, Any] = {
        "code": {"error": "JC113", "warning": "JC104", "info": "JC130"}[severity],
        "severity": severity,
        "message": f"finding {number}",
        "file": "a.json",
        "line": number + 1,
        "column": 1,
    }
    fields.update(changes)
    return Finding(**fields)


def open_schema_finding(**changes: Any) -> Finding:
    """JC104 (the root schema is an open object) at support-ticket.json:3:13, with ``changes``."""
    fields: dict[str, Any] = {
        "code": "JC104",
        "severity": "warning",
        "message": "Object schema does not set additionalProperties:false.",
        "file": "support-ticket.json",
        "path": None,
        "pointer": "/schema",
        "line": 3,
        "column": 13,
        "contract": "support-ticket",
    }
    fields.update(changes)
    return Finding(**fields)
