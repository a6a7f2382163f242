"""Why a document does not validate, as text a person reads in a failed test.

``assert_valid_json`` in the pytest plugin raises with this text: every error with its path, how
to repair it (with the values a missing field may take), and the document (cut after a screenful).
"""

from __future__ import annotations

from typing import Any

from json_contracts._json.text import dumps
from json_contracts.agent.repair import document_hints
from json_contracts.contracts.model import Contract
from json_contracts.schema.validation import ErrorRecord

__all__ = ["invalid_document_text"]

_MAX_DOCUMENT_LINES = 40  # a failure message shows at most this much of the document


def invalid_document_text(contract: Contract, document: Any, errors: list[ErrorRecord]) -> str:
    """Why a document does not validate: the errors, the repair hints, then the document."""
    lines = [f"document does not validate against {contract.name}: {len(errors)} error(s)"]
    lines += [f"  {e['path'] or '/'} {e['message']} ({e['keyword']})" for e in errors]
    hints = document_hints(contract.schema, errors, document)
    if hints:
        lines += ["How to repair:", *(f"  - {hint}" for hint in hints)]
    try:
        shown = dumps(document).splitlines()
    except (TypeError, AttributeError, ValueError):  # not a JSON value (a set, an int key): show it as Python
        shown = repr(document).splitlines()
    if len(shown) > _MAX_DOCUMENT_LINES:
        shown = [*shown[:_MAX_DOCUMENT_LINES], f"... ({len(shown) - _MAX_DOCUMENT_LINES} more lines)"]
    return "\n".join([*lines, "document:", *("  " + line for line in shown)])
