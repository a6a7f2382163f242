"""One finding: a problem at a place in a file, with a code from the catalogue.

Every layer reports problems as :class:`Finding` values (a contract that did not load, a lint
rule, a failed property check, a document ``check`` refuses), so every renderer (text, JSON,
GitHub annotations, SARIF, the job summary, the pytest plugin) handles one shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from json_contracts.findings.catalogue import Code

__all__ = ["SEVERITY_RANK", "Finding", "Severity"]

Severity = Literal["error", "warning", "info"]
SEVERITY_RANK: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True, kw_only=True)
class Finding:
    """One problem found in a file, pointing at the offending place.

    ``code`` is always a catalogue code, whatever found the problem; for a document that fails
    validation, ``keyword`` names the JSON Schema keyword that failed (``required``, ``enum``, …).
    ``file`` is the label shown for the file (its name, or several names joined for a duplicate
    group); ``path`` is the file on disk; ``pointer`` a JSON pointer into it. ``lint_path`` is the
    ``$.schema…`` path lint findings have always carried in ``lint --json``. ``line`` and
    ``column`` are 1-based; 0 means the finding is about a folder, not a place in a file.
    ``hint`` says what to do when ``message`` does not: load messages keep the TypeScript
    server's wording (the MCP server reports them as they are), and the hint names the field and
    the fix for people (``reporting.text.finding_message`` joins the two).
    """

    code: Code
    severity: Severity
    message: str
    file: str = ""
    path: Path | None = None
    pointer: str = ""
    line: int = 1
    column: int = 1
    contract: str | None = None
    lint_path: str | None = None
    keyword: str | None = None
    hint: str | None = None
