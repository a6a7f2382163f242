"""Every finding code: its name, default severity and a one-line summary (for docs and SARIF).

``JC0xx`` are load problems (the contract is not usable), ``JC1xx`` lint rules, ``JC2xx``
the property checks of ``json-contracts test``. Codes are
stable: a rule may be reworded, never renumbered.
"""

from __future__ import annotations

from dataclasses import dataclass

from json_contracts.model import Severity

__all__ = ["CHECK_CODES", "CODES", "Code"]


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    severity: Severity
    summary: str


_ALL = [
    Code("JC001", "skipped-entry", "warning", "An entry in the folder is not a regular .json file and was not read."),
    Code("JC002", "missing-directory", "warning", "The contracts folder does not exist."),
    Code("JC003", "unreadable-directory", "error", "The contracts folder cannot be listed."),
    Code("JC010", "duplicate-name", "error", "Two files differ only in letter case."),
    Code("JC011", "invalid-name", "error", "The file name is not a safe contract name."),
    Code("JC012", "path-escape", "error", "The file resolves outside the contracts folder."),
    Code("JC013", "file-too-large", "error", "The file is larger than 256 KiB."),
    Code("JC014", "invalid-json", "error", "The file is not JSON."),
    Code("JC015", "version-field", "error", "The contract has a version field; Git versions contracts."),
    Code("JC016", "invalid-shape", "error", "A top-level field has the wrong shape."),
    Code("JC017", "too-many-examples", "error", "More than 50 examples in all."),
    Code("JC018", "schema-too-large", "error", "The schema is larger than 128 KiB."),
    Code("JC019", "invalid-schema", "error", "The schema is not a usable draft-07 or 2020-12 JSON Schema."),
    Code("JC020", "invalid-example", "error", "An example output does not validate against the schema."),
    Code("JC021", "unreadable-file", "error", "The file cannot be read."),
    Code("JC022", "nested-too-deep", "error", "The file's JSON is nested more than 256 levels deep."),
    Code("JC101", "no-examples", "warning", "The contract has no examples."),
    Code("JC102", "empty-schema", "warning", "A schema object is empty and accepts any value."),
    Code("JC103", "additional-properties-true", "warning", "An object schema allows any extra property."),
    Code(
        "JC104", "additional-properties-missing", "warning", "An object schema does not set additionalProperties:false."
    ),
    Code("JC110", "unknown-keyword", "warning", "A schema keyword is unknown to the dialect (often a typo)."),
    Code("JC111", "unknown-field", "warning", "A top-level contract field is unknown and ignored."),
    Code("JC112", "required-not-defined", "warning", "A required property is not listed in properties."),
    Code("JC113", "enum-type-mismatch", "error", "An enum or const value does not match the declared type."),
    Code("JC114", "duplicate-enum-value", "warning", "An enum lists the same value twice."),
    Code("JC115", "contradictory-bounds", "error", "A lower bound is above its upper bound."),
    Code("JC116", "invalid-default", "warning", "A default value does not validate against its own schema."),
    Code(
        "JC117",
        "invalid-schema-example",
        "warning",
        "A schema examples value does not validate against its own schema.",
    ),
    Code("JC118", "unknown-format", "warning", "A format name is not checked by the validator."),
    Code("JC119", "invalid-pattern", "error", "A pattern is not a valid ECMA-262 regular expression."),
    Code("JC120", "backtracking-pattern", "warning", "A pattern is prone to catastrophic backtracking."),
    Code("JC121", "unsatisfiable-schema", "error", "No JSON value can satisfy a schema."),
    Code("JC122", "name-mismatch", "warning", "The name field disagrees with the file name."),
    Code("JC123", "duplicate-example", "warning", "Two examples are identical."),
    Code("JC130", "enum-value-without-example", "info", "No example shows an enum value."),
    Code("JC131", "optional-property-without-example", "info", "No example shows an optional property."),
    Code("JC132", "edit-without-examples", "info", "The edit operation is enabled but has no examples."),
    Code("JC201", "unsatisfiable", "error", "No document satisfies the schema (json-contracts test: satisfiable)."),
    Code(
        "JC202",
        "samples-disagree",
        "error",
        "Drawn documents and the validator disagree, or sampling needs heavy filtering (test: samples-valid).",
    ),
    Code(
        "JC203", "example-invalid", "error", "An example output or edit currentJson does not validate (test: examples)."
    ),
    Code(
        "JC204",
        "repair-hints-insufficient",
        "error",
        "Following the repair hints does not fix a broken document (test: repair-hints).",
    ),
    Code("JC205", "edit-broken", "error", "The edit payload cannot be built for a valid currentJson (test: edit)."),
    Code("JC206", "hash-unstable", "error", "Key order or whitespace changes a contract's hashes (test: hashes)."),
]
CODES: dict[str, Code] = {c.code: c for c in _ALL}

# The property checks of ``json-contracts test`` (ids reused by the pytest plugin), in run order.
CHECK_CODES = {
    "satisfiable": "JC201",
    "samples-valid": "JC202",
    "examples": "JC203",
    "repair-hints": "JC204",
    "edit": "JC205",
    "hashes": "JC206",
}
