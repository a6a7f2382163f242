"""Every finding code: its name, family, default severity and a one-line summary.

This is the one place a code is written. ``JC0xx`` are load problems (the contract is not
usable), ``JC1xx`` lint rules, ``JC2xx`` the property checks of ``json-contracts test``, and
``JC3xx`` documents that ``json-contracts check`` refuses, and ``JC4xx`` the changes
``json-contracts diff`` finds between two versions of a contract. Codes are stable: a rule may be
reworded, never renumbered. The docs' rules page (``docs/reference/rules.md``) is generated from
:data:`CATALOGUE`, and every code is a SARIF rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

__all__ = ["CATALOGUE", "CHECK_CODES", "Code", "CodeInfo", "Family"]

Family = Literal["load", "lint", "check", "document", "diff"]


class Code(StrEnum):
    """A finding code; its value (``"JC104"``) is what every output shows."""

    SKIPPED_ENTRY = "JC001"
    MISSING_DIRECTORY = "JC002"
    UNREADABLE_DIRECTORY = "JC003"
    EMPTY_DIRECTORY = "JC004"
    FOLDER_OVER_BUDGET = "JC005"
    DUPLICATE_NAME = "JC010"
    INVALID_NAME = "JC011"
    PATH_ESCAPE = "JC012"
    FILE_TOO_LARGE = "JC013"
    INVALID_JSON = "JC014"
    VERSION_FIELD = "JC015"
    INVALID_SHAPE = "JC016"
    TOO_MANY_EXAMPLES = "JC017"
    SCHEMA_TOO_LARGE = "JC018"
    INVALID_SCHEMA = "JC019"
    INVALID_EXAMPLE = "JC020"
    UNREADABLE_FILE = "JC021"
    NESTED_TOO_DEEP = "JC022"
    NO_EXAMPLES = "JC101"
    EMPTY_SCHEMA = "JC102"
    ADDITIONAL_PROPERTIES_TRUE = "JC103"
    ADDITIONAL_PROPERTIES_MISSING = "JC104"
    UNKNOWN_KEYWORD = "JC110"
    UNKNOWN_FIELD = "JC111"
    REQUIRED_NOT_DEFINED = "JC112"
    ENUM_TYPE_MISMATCH = "JC113"
    DUPLICATE_ENUM_VALUE = "JC114"
    CONTRADICTORY_BOUNDS = "JC115"
    INVALID_DEFAULT = "JC116"
    INVALID_SCHEMA_EXAMPLE = "JC117"
    UNKNOWN_FORMAT = "JC118"
    INVALID_PATTERN = "JC119"
    BACKTRACKING_PATTERN = "JC120"
    UNSATISFIABLE_SCHEMA = "JC121"
    NAME_MISMATCH = "JC122"
    DUPLICATE_EXAMPLE = "JC123"
    UNKNOWN_OPERATION_FIELD = "JC124"
    UNKNOWN_EXAMPLE_FIELD = "JC125"
    IGNORED_OPERATION_FIELD = "JC126"
    ENUM_VALUE_WITHOUT_EXAMPLE = "JC130"
    OPTIONAL_PROPERTY_WITHOUT_EXAMPLE = "JC131"
    EDIT_WITHOUT_EXAMPLES = "JC132"
    EDIT_EXAMPLE_INVALID_CURRENT_JSON = "JC133"
    EDIT_EXAMPLE_WITHOUT_CURRENT_JSON = "JC134"
    UNSATISFIABLE = "JC201"
    SAMPLES_DISAGREE = "JC202"
    EXAMPLE_INVALID = "JC203"
    REPAIR_HINTS_INSUFFICIENT = "JC204"
    EDIT_BROKEN = "JC205"
    HASH_UNSTABLE = "JC206"
    DOCUMENT_INVALID = "JC301"
    DOCUMENT_NOT_JSON = "JC302"
    DOCUMENT_OVER_LIMIT = "JC303"
    CONTRACT_REMOVED = "JC401"
    CONTRACT_ADDED = "JC402"
    CONTRACT_RENAMED = "JC403"
    REQUIRED_ADDED = "JC410"
    REQUIRED_REMOVED = "JC411"
    PROPERTY_REMOVED = "JC412"
    PROPERTY_ADDED = "JC413"
    TYPE_NARROWED = "JC414"
    TYPE_WIDENED = "JC415"
    ENUM_VALUE_REMOVED = "JC416"
    ENUM_VALUE_ADDED = "JC417"
    BOUND_TIGHTENED = "JC418"
    BOUND_LOOSENED = "JC419"
    PATTERN_CHANGED = "JC420"
    FORMAT_ADDED = "JC421"
    FORMAT_REMOVED = "JC422"
    ADDITIONAL_PROPERTIES_CLOSED = "JC423"
    ADDITIONAL_PROPERTIES_OPENED = "JC424"
    ITEMS_CHANGED = "JC425"
    BRANCH_REMOVED = "JC426"
    BRANCH_ADDED = "JC427"
    REF_CHANGED = "JC428"
    CONST_CHANGED = "JC429"
    ACCEPTED_BEFORE_REJECTED_NOW = "JC430"
    REJECTED_BEFORE_ACCEPTED_NOW = "JC431"
    OLD_EXAMPLE_REJECTED = "JC440"
    RULES_CHANGED = "JC441"
    DESCRIPTION_CHANGED = "JC442"
    OPERATIONS_CHANGED = "JC443"


@dataclass(frozen=True)
class CodeInfo:
    """What a code means: ``name`` (kebab-case, SARIF's rule name), family, default severity, summary."""

    code: Code
    name: str
    family: Family
    severity: Literal["error", "warning", "info"]
    summary: str


def _family(code: Code) -> Family:
    families: dict[str, Family] = {"0": "load", "1": "lint", "2": "check", "3": "document", "4": "diff"}
    return families[code.value[2]]


def _info(code: Code, severity: Literal["error", "warning", "info"], summary: str) -> CodeInfo:
    return CodeInfo(code, code.name.lower().replace("_", "-"), _family(code), severity, summary)


_ALL = [
    _info(Code.SKIPPED_ENTRY, "warning", "An entry in the folder is not a regular .json file and was not read."),
    _info(Code.MISSING_DIRECTORY, "warning", "The contracts folder does not exist."),
    _info(Code.UNREADABLE_DIRECTORY, "error", "The contracts folder cannot be listed."),
    _info(Code.EMPTY_DIRECTORY, "warning", "The contracts folder holds no contract file."),
    _info(
        Code.FOLDER_OVER_BUDGET,
        "error",
        "The folder holds more contract files or bytes than its budget; the files past it were not read.",
    ),
    _info(Code.DUPLICATE_NAME, "error", "Two files differ only in letter case."),
    _info(Code.INVALID_NAME, "error", "The file name is not a safe contract name."),
    _info(Code.PATH_ESCAPE, "error", "The file resolves outside the contracts folder."),
    _info(Code.FILE_TOO_LARGE, "error", "The file is larger than 256 KiB."),
    _info(Code.INVALID_JSON, "error", "The file is not JSON."),
    _info(Code.VERSION_FIELD, "error", "The contract has a version field; Git versions contracts."),
    _info(Code.INVALID_SHAPE, "error", "A top-level field has the wrong shape."),
    _info(Code.TOO_MANY_EXAMPLES, "error", "More than 50 examples in all."),
    _info(Code.SCHEMA_TOO_LARGE, "error", "The schema is larger than 128 KiB."),
    _info(Code.INVALID_SCHEMA, "error", "The schema is not a usable draft-07 or 2020-12 JSON Schema."),
    _info(Code.INVALID_EXAMPLE, "error", "An example output does not validate against the schema."),
    _info(Code.UNREADABLE_FILE, "error", "The file cannot be read."),
    _info(Code.NESTED_TOO_DEEP, "error", "The file's JSON is nested more than 256 levels deep."),
    _info(Code.NO_EXAMPLES, "warning", "The contract has no examples."),
    _info(Code.EMPTY_SCHEMA, "warning", "A schema object is empty and accepts any value."),
    _info(Code.ADDITIONAL_PROPERTIES_TRUE, "warning", "An object schema allows any extra property."),
    _info(Code.ADDITIONAL_PROPERTIES_MISSING, "warning", "An object schema does not set additionalProperties:false."),
    _info(Code.UNKNOWN_KEYWORD, "warning", "A schema keyword is unknown to the dialect (often a typo)."),
    _info(Code.UNKNOWN_FIELD, "warning", "A top-level contract field is unknown and ignored."),
    _info(Code.REQUIRED_NOT_DEFINED, "warning", "A required property is not listed in properties."),
    _info(Code.ENUM_TYPE_MISMATCH, "error", "An enum or const value does not match the declared type."),
    _info(Code.DUPLICATE_ENUM_VALUE, "warning", "An enum lists the same value twice."),
    _info(Code.CONTRADICTORY_BOUNDS, "error", "A lower bound is above its upper bound."),
    _info(Code.INVALID_DEFAULT, "warning", "A default value does not validate against its own schema."),
    _info(Code.INVALID_SCHEMA_EXAMPLE, "warning", "A schema examples value does not validate against its own schema."),
    _info(Code.UNKNOWN_FORMAT, "warning", "A format name is not checked by the validator."),
    _info(Code.INVALID_PATTERN, "error", "A pattern is not a valid ECMA-262 regular expression."),
    _info(
        Code.BACKTRACKING_PATTERN,
        "warning",
        "A pattern can take exponential or polynomial time on a backtracking engine.",
    ),
    _info(Code.UNSATISFIABLE_SCHEMA, "error", "No JSON value can satisfy a schema."),
    _info(Code.NAME_MISMATCH, "warning", "The name field disagrees with the file name."),
    _info(Code.DUPLICATE_EXAMPLE, "warning", "Two examples are identical."),
    _info(
        Code.UNKNOWN_OPERATION_FIELD,
        "warning",
        "An operation has a field no tool reads, or a name that misspells create or edit (often a typo).",
    ),
    _info(
        Code.UNKNOWN_EXAMPLE_FIELD,
        "warning",
        "An example has a field no tool reads (often a typo), or a currentJson outside edit examples.",
    ),
    _info(
        Code.IGNORED_OPERATION_FIELD,
        "warning",
        "An operation field has no effect where it is (return outside edit, an edit returning json_patch, "
        "rules or examples of a disabled operation).",
    ),
    _info(Code.ENUM_VALUE_WITHOUT_EXAMPLE, "info", "No example shows an enum value."),
    _info(Code.OPTIONAL_PROPERTY_WITHOUT_EXAMPLE, "info", "No example shows an optional property."),
    _info(Code.EDIT_WITHOUT_EXAMPLES, "info", "The edit operation is enabled but has no examples."),
    _info(
        Code.EDIT_EXAMPLE_INVALID_CURRENT_JSON,
        "error",
        "An edit example's currentJson does not validate against the schema.",
    ),
    _info(Code.EDIT_EXAMPLE_WITHOUT_CURRENT_JSON, "warning", "An edit example has no currentJson to start from."),
    _info(Code.UNSATISFIABLE, "error", "No document satisfies the schema (json-contracts test: satisfiable)."),
    _info(
        Code.SAMPLES_DISAGREE,
        "error",
        "Drawn documents and the validator disagree, or sampling needs heavy filtering (test: samples-valid).",
    ),
    _info(Code.EXAMPLE_INVALID, "error", "An example output or edit currentJson does not validate (test: examples)."),
    _info(
        Code.REPAIR_HINTS_INSUFFICIENT,
        "error",
        "Following the repair hints does not fix a broken document (test: repair-hints).",
    ),
    _info(Code.EDIT_BROKEN, "error", "The edit payload cannot be built for a valid currentJson (test: edit)."),
    _info(Code.HASH_UNSTABLE, "error", "Key order or whitespace changes a contract's hashes (test: hashes)."),
    _info(
        Code.DOCUMENT_INVALID,
        "error",
        "A document does not validate against the contract (json-contracts check); the finding names the keyword.",
    ),
    _info(Code.DOCUMENT_NOT_JSON, "error", "A document given to json-contracts check is not JSON."),
    _info(
        Code.DOCUMENT_OVER_LIMIT,
        "error",
        "A document given to json-contracts check is too large, too deep or holds what JSON cannot carry.",
    ),
    _info(Code.CONTRACT_REMOVED, "error", "A contract was removed: agents and apps that ask for it break."),
    _info(Code.CONTRACT_ADDED, "info", "A contract was added."),
    _info(
        Code.CONTRACT_RENAMED,
        "error",
        "A contract was renamed (same schema, other name): callers of the old name break.",
    ),
    _info(Code.REQUIRED_ADDED, "error", "A field became required: documents without it are now rejected."),
    _info(Code.REQUIRED_REMOVED, "error", "A field is no longer required: consumers may now get documents without it."),
    _info(
        Code.PROPERTY_REMOVED,
        "error",
        "A property was removed from a closed object: documents that set it are rejected.",
    ),
    _info(Code.PROPERTY_ADDED, "error", "A property was added to a closed object: consumers may now get it."),
    _info(Code.TYPE_NARROWED, "error", "A type allows fewer kinds of value: documents with the others are rejected."),
    _info(Code.TYPE_WIDENED, "error", "A type allows more kinds of value: consumers may now get them."),
    _info(Code.ENUM_VALUE_REMOVED, "error", "An enum or const value was removed: documents that use it are rejected."),
    _info(Code.ENUM_VALUE_ADDED, "error", "An enum value was added: consumers may now get it."),
    _info(Code.BOUND_TIGHTENED, "error", "A bound was tightened: documents near the old bound are rejected."),
    _info(Code.BOUND_LOOSENED, "error", "A bound was loosened: consumers may now get values past the old bound."),
    _info(Code.PATTERN_CHANGED, "error", "A pattern changed: some strings are accepted by one version only."),
    _info(Code.FORMAT_ADDED, "error", "A format was added: strings that do not match it are rejected."),
    _info(Code.FORMAT_REMOVED, "error", "A format was removed: consumers may now get strings that do not match it."),
    _info(
        Code.ADDITIONAL_PROPERTIES_CLOSED,
        "error",
        "An object was closed (additionalProperties false): documents with other fields are rejected.",
    ),
    _info(Code.ADDITIONAL_PROPERTIES_OPENED, "error", "An object was opened: consumers may now get other fields."),
    _info(Code.ITEMS_CHANGED, "error", "An array's tuple was closed at another length (items, prefixItems)."),
    _info(Code.BRANCH_REMOVED, "error", "A branch of anyOf, oneOf or allOf was removed."),
    _info(Code.BRANCH_ADDED, "error", "A branch of anyOf, oneOf or allOf was added."),
    _info(Code.REF_CHANGED, "error", "A $ref points somewhere else."),
    _info(Code.CONST_CHANGED, "error", "A const value changed."),
    _info(
        Code.ACCEPTED_BEFORE_REJECTED_NOW,
        "error",
        "A document the old version accepted is rejected by the new one (found by search; no rule names the change).",
    ),
    _info(
        Code.REJECTED_BEFORE_ACCEPTED_NOW,
        "error",
        "A document the old version rejected is accepted by the new one (found by search; no rule names the change).",
    ),
    _info(
        Code.OLD_EXAMPLE_REJECTED, "error", "An example of the old version does not validate against the new schema."
    ),
    _info(Code.RULES_CHANGED, "info", "The contract's rules or an operation's rules changed."),
    _info(Code.DESCRIPTION_CHANGED, "info", "The contract's description changed."),
    _info(Code.OPERATIONS_CHANGED, "info", "An operation was enabled, disabled, or returns something else."),
]
CATALOGUE: dict[Code, CodeInfo] = {info.code: info for info in _ALL}

#: The property checks of ``json-contracts test`` (ids reused by the pytest plugin), in run order.
CHECK_CODES: dict[str, Code] = {
    "satisfiable": Code.UNSATISFIABLE,
    "samples-valid": Code.SAMPLES_DISAGREE,
    "examples": Code.EXAMPLE_INVALID,
    "repair-hints": Code.REPAIR_HINTS_INSUFFICIENT,
    "edit": Code.EDIT_BROKEN,
    "hashes": Code.HASH_UNSTABLE,
}
