"""Sample contracts and documents used by more than one test module, each defined once.

The values are shared module constants: a test that changes one must copy it first
(``copy.deepcopy``, or a fixture of ``tests/conftest.py`` that hands out copies). Small contracts
that exist to trigger one rule in one module stay in that module.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from json_contracts.schema.validation import ErrorRecord

# --- the support ticket -------------------------------------------------------------------------

#: The support-ticket schema (the one the starter's support-ticket.json is modelled on).
SUPPORT_TICKET_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "summary": {"type": "string", "maxLength": 80},
        "severity": {"type": "string", "enum": ["low", "medium", "high", "critical"]},
        "category": {"type": "string", "enum": ["authentication", "billing", "bug", "feature_request", "other"]},
    },
    "required": ["summary", "severity", "category"],
}

#: A ticket that satisfies :data:`SUPPORT_TICKET_SCHEMA`; the output of :data:`SUPPORT_TICKET`'s examples.
VALID_TICKET: dict[str, Any] = {
    "summary": "Users cannot log in after SSO update",
    "severity": "critical",
    "category": "authentication",
}

#: The contract behind the prompt texts in tests/data/prompt-*.txt (rendered by the TypeScript
#: server), read back from those texts: the MCP prompts and the prompt renderers must reproduce
#: them byte for byte from it. The edit example's keys are in the texts' order (input, output,
#: currentJson), so keep every string, list and key order exactly as it is.
SUPPORT_TICKET: dict[str, Any] = {
    "description": "Convert natural language into a support ticket object.",
    "rules": [
        "If the user says urgent, severity must be critical.",
        "Summary must be under 80 characters.",
        "Category must be authentication, billing, bug, feature_request, or other.",
    ],
    "operations": {
        "edit": {
            "rules": [
                "Start from currentJson.",
                "Apply only the user's requested change.",
                "Preserve all unspecified fields exactly.",
                "Return the complete updated JSON object.",
            ],
            "examples": [
                {
                    "input": "mark this as critical",
                    "output": VALID_TICKET,
                    "currentJson": {**VALID_TICKET, "severity": "high"},
                }
            ],
        }
    },
    "schema": SUPPORT_TICKET_SCHEMA,
    "examples": [{"input": "Urgent, users cannot log in after SSO update.", "output": VALID_TICKET}],
}

#: The arguments the golden prompt texts were rendered with.
SAMPLE_INPUT = "Urgent, users cannot log in after SSO update."
SAMPLE_CONTEXT: dict[str, Any] = {"source": "chat"}
SAMPLE_CURRENT: dict[str, Any] = {"summary": "Users cannot log in", "severity": "high", "category": "authentication"}

#: The validation error of a ticket whose severity is not one of the enum's values.
SEVERITY_ENUM: ErrorRecord = {
    "path": "/severity",
    "message": "must be equal to one of the allowed values",
    "keyword": "enum",
}

#: Another valid ticket: the document the payload tests echo back.
LOGIN_TICKET: dict[str, Any] = {
    "summary": "Login fails after SSO update",
    "severity": "high",
    "category": "authentication",
}


def make_support_ticket_file(
    schema: dict[str, Any] | None = None, document: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The support-ticket contract file with rules, operation rules and examples for payloads to echo.

    ``schema`` defaults to :data:`SUPPORT_TICKET_SCHEMA` and ``document`` (every example's
    output and the edit example's ``currentJson``) to :data:`LOGIN_TICKET`; both are copied.
    """
    chosen_schema = copy.deepcopy(SUPPORT_TICKET_SCHEMA if schema is None else schema)
    chosen_document = LOGIN_TICKET if document is None else document

    def ticket() -> dict[str, Any]:
        return copy.deepcopy(chosen_document)

    return {
        "description": "Convert natural language into a support ticket.",
        "rules": ["Keep summary short."],
        "operations": {
            "create": {"rules": ["Create rule."]},
            "edit": {
                "rules": ["Edit rule."],
                "examples": [{"currentJson": ticket(), "input": "Make it critical.", "output": ticket()}],
            },
        },
        "schema": chosen_schema,
        "examples": [{"input": "SSO login is broken.", "output": ticket()}],
    }


# --- a tiny ticket: a title and a priority --------------------------------------------------------

_TINY_TICKET_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["title", "priority"],
    "properties": {
        "title": {"type": "string", "minLength": 3},
        "priority": {"type": "string", "enum": ["low", "high"]},
    },
}

#: Lints clean: closed object, every enum value and optional property shown, edit disabled.
TICKET: dict[str, Any] = {
    "description": "A tiny ticket.",
    "schema": _TINY_TICKET_SCHEMA,
    "operations": {"edit": {"enabled": False}},
    "examples": [
        {"input": "printer is down", "output": {"title": "Printer down", "priority": "high"}},
        {"input": "new mouse please", "output": {"title": "New mouse", "priority": "low"}},
    ],
}

#: Lints clean; two top-level examples and one edit example; every property check passes.
TINY: dict[str, Any] = {
    "description": "A tiny ticket.",
    "schema": _TINY_TICKET_SCHEMA,
    "operations": {
        "edit": {
            "enabled": True,
            "examples": [
                {
                    "currentJson": {"title": "Printer down", "priority": "low"},
                    "input": "raise it",
                    "output": {"title": "Printer down", "priority": "high"},
                }
            ],
        }
    },
    "examples": [
        {"input": "printer is down", "output": {"title": "Printer down", "priority": "high"}},
        {"input": "typo on the site", "output": {"title": "Typo on the site", "priority": "low"}},
    ],
}


def tiny(**changes: Any) -> dict[str, Any]:
    """A deep copy of :data:`TINY` with top-level fields replaced."""
    return {**copy.deepcopy(TINY), **changes}


# --- contracts with one lint finding or one failing check -------------------------------------------

#: One warning: JC104 at the root schema (line 2, column 13 as the CLI tests write it).
OPEN_OBJECT: dict[str, Any] = {
    "schema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
    "operations": {"edit": {"enabled": False}},
    "examples": [{"input": "i", "output": {"a": "x"}}],
}

#: One info finding: JC131 (optional property ``b`` never shown).
UNSHOWN_OPTIONAL: dict[str, Any] = {
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "required": ["a"],
    },
    "operations": {"edit": {"enabled": False}},
    "examples": [{"input": "i", "output": {"a": "x"}}],
}

#: One lint error: JC113 (an integer in a string enum); no JC130, since 5 can never be shown.
WRONG_ENUM: dict[str, Any] = {
    "schema": {"type": "string", "enum": ["x", 5]},
    "operations": {"edit": {"enabled": False}},
    "examples": [{"input": "i", "output": "x"}],
}

#: Does not load: JC015.
VERSIONED: dict[str, Any] = {"version": "1.0.0", "schema": {"type": "string"}}

#: One lint error (JC113 on the 5), one warning (JC104 on the schema object) and two info findings.
BROKEN = """{
  "schema": {
    "type": "object",
    "properties": {"size": {"type": "string", "enum": ["s", 5, "m"]}},
    "required": ["size"]
  },
  "examples": [{"input": "small", "output": {"size": "s"}}]
}
"""

#: The repair-hints check fails: ``b`` must be 1 whenever ``a`` is present, but the hint for a
#: missing ``b`` only says "add it". Written by hand (the Action's test checks a position in it).
COUPLED_TEXT = """{
  "schema": {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
    "dependentSchemas": {"a": {"properties": {"b": {"const": 1}}}}
  },
  "operations": {"edit": {"enabled": false}}
}
"""

#: :data:`COUPLED_TEXT` as a value.
COUPLED: dict[str, Any] = json.loads(COUPLED_TEXT)

#: Following the hint for a missing ``b`` (add it) cannot work: ``dependentSchemas`` pins it to 1.
#: :data:`COUPLED` with a closed object, so it lints clean.
BAD_REPAIR: dict[str, Any] = {
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
        "dependentSchemas": {"a": {"properties": {"b": {"const": 1}}}},
    },
    "operations": {"edit": {"enabled": False}},
    "examples": [{"input": "x", "output": {"a": 1, "b": 1}}],
}

#: No document can satisfy it: the pattern needs 10 characters, maxLength allows 5.
UNSATISFIABLE: dict[str, Any] = {
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"code": {"type": "string", "pattern": "^a{10}$", "maxLength": 5}},
        "required": ["code"],
    },
    "operations": {"edit": {"enabled": False}},
    "examples": [],
}
