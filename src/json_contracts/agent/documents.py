"""Checking one received document against a contract: what ``json-contracts check`` reports.

The document arrives as bytes (a file or stdin, read with a bound by the adapter). It is
refused when it is too large, not JSON, nested too deeply or holds what JSON cannot carry;
otherwise it is validated, and each error becomes a :class:`~json_contracts.findings.Finding`
at the line and column of the offending value, with its repair hint. Adapters only render.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from json_contracts._json.reading import SourceMap, parse_json, syntax_hint
from json_contracts._json.values import document_problem, nested_too_deep
from json_contracts.agent.payloads import validation_payload
from json_contracts.agent.repair import document_hints, repairs
from json_contracts.contracts.limits import DocumentLimits
from json_contracts.contracts.model import Contract
from json_contracts.errors import JsonParseError, JsonTooDeepError
from json_contracts.findings import Code, Finding
from json_contracts.schema.validation import MAX_ERRORS_KEYWORD, ErrorRecord

__all__ = ["DocumentCheck", "check_document"]


@dataclass(frozen=True)
class DocumentCheck:
    """What checking one document found.

    ``refusal`` is set when the document could not be checked at all (then ``payload`` is None);
    otherwise ``payload`` is the ``validate_json`` answer, ``findings`` has one finding per error
    (``keyword`` names the JSON Schema keyword), and ``hints`` and ``repairs`` say how to fix it.
    ``cut`` says the error list stopped at the limit (``JSON_CONTRACTS_MAX_ERRORS``): the payload
    then ends with a note saying so, which is not an error and has no finding.
    """

    contract: str
    label: str
    refusal: Finding | None = None
    payload: dict[str, Any] | None = None
    findings: list[Finding] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    repairs: list[dict[str, Any]] = field(default_factory=list)
    cut: bool = False

    @property
    def valid(self) -> bool:
        return self.payload is not None and bool(self.payload["valid"])


def _refused(
    contract: Contract,
    label: str,
    path: Path | None,
    code: Code,
    message: str,
    line: int = 1,
    column: int = 1,
    *,
    hint: str | None = None,
) -> DocumentCheck:
    finding = Finding(
        code=code,
        severity="error",
        message=message,
        file=label,
        path=path,
        line=line,
        column=column,
        contract=contract.name,
        hint=hint,
    )
    return DocumentCheck(contract.name, label, refusal=finding)


def check_document(
    contract: Contract, data: bytes, *, label: str, path: Path | None = None, limits: DocumentLimits | None = None
) -> DocumentCheck:
    """Check ``data`` (at most ``limits.max_bytes + 1`` bytes of the document) against ``contract``."""
    limits = limits or DocumentLimits()
    if len(data) > limits.max_bytes:
        message = (
            f"document is larger than {limits.max_bytes} bytes, the limit; check a smaller document "
            "or raise JSON_CONTRACTS_MAX_DOCUMENT_BYTES"
        )
        return _refused(contract, label, path, Code.DOCUMENT_OVER_LIMIT, message)
    text = data.decode("utf-8", errors="replace")
    try:
        value = parse_json(text)
    except JsonTooDeepError:
        return _refused(contract, label, path, Code.DOCUMENT_OVER_LIMIT, nested_too_deep("document", limits.max_depth))
    except JsonParseError as exc:
        message = f"Invalid JSON: {exc.message}"
        hint = syntax_hint(text, exc.offset)
        return _refused(contract, label, path, Code.DOCUMENT_NOT_JSON, message, exc.line, exc.column, hint=hint)
    problem = document_problem(value, max_bytes=limits.max_bytes, max_depth=limits.max_depth, name="document")
    if problem is not None:
        return _refused(contract, label, path, Code.DOCUMENT_OVER_LIMIT, problem)
    payload = validation_payload(contract, value, max_errors=limits.max_errors, max_bytes=limits.max_bytes)
    errors: list[ErrorRecord] = payload["errors"]
    source = SourceMap(text)
    findings: list[Finding] = []
    cut = bool(errors) and errors[-1]["keyword"] == MAX_ERRORS_KEYWORD
    listed = errors[:-1] if cut else errors
    for error in listed:
        line, column = source.position(error["path"], key=error["keyword"] == "additionalProperties")
        hint = document_hints(contract.schema, [error], value)[0]
        findings.append(
            Finding(
                code=Code.DOCUMENT_INVALID,
                severity="error",
                message=f"{error['path'] or '/'} {error['message']}. {hint}",
                file=label,
                path=path,
                pointer=error["path"],
                line=line,
                column=column,
                contract=contract.name,
                keyword=error["keyword"],
            )
        )
    return DocumentCheck(
        contract.name,
        label,
        payload=payload,
        findings=findings,
        hints=document_hints(contract.schema, listed, value),
        repairs=repairs(contract.schema, listed, max_bytes=limits.max_bytes),
        cut=cut,
    )
