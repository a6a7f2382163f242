"""Contract quality rules: the TypeScript server's four warnings plus deeper checks, each with a code.

Every rule is a small generator of :class:`~json_contracts.findings.Finding` for one contract,
pointing at the offending place in the file; :data:`RULES` runs them in a fixed order. Codes and
severities are in :mod:`json_contracts.findings.catalogue`; messages end with what to do. The
rules live by family: :mod:`._original` (JC101-JC104), :mod:`._spelling` (JC110, JC111, JC118,
JC122), :mod:`._fields` (JC124-JC126: operation and example fields that do nothing),
:mod:`._values` (JC112-JC117), :mod:`._patterns` (JC120), :mod:`._satisfiable` (JC121) and
:mod:`._examples` (JC123, JC130-JC134). A proof one rule reports (a value of the wrong type, crossed
bounds, an unsatisfiable schema) is written once and reused by the rules that must not ask for
what it proves impossible. ``[tool.json-contracts]`` settings are read by :mod:`.config`.
"""

from __future__ import annotations

from collections.abc import Iterable

from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, Rule
from json_contracts.lint._examples import (
    rule_duplicate_examples,
    rule_edit_example_states,
    rule_edit_examples,
    rule_example_coverage,
)
from json_contracts.lint._fields import (
    rule_ignored_operation_fields,
    rule_unknown_example_fields,
    rule_unknown_operation_fields,
)
from json_contracts.lint._original import rule_no_examples, rule_original_schema_warnings
from json_contracts.lint._patterns import rule_patterns
from json_contracts.lint._satisfiable import rule_unsatisfiable
from json_contracts.lint._spelling import (
    rule_name_matches_file,
    rule_unknown_fields,
    rule_unknown_format,
    rule_unknown_keywords,
)
from json_contracts.lint._values import (
    own_value_rule,
    rule_contradictory_bounds,
    rule_duplicate_enum,
    rule_enum_types,
    rule_required_defined,
)

__all__ = ["RULES", "lint_contract", "lint_result"]

RULES: tuple[Rule, ...] = (
    rule_no_examples,
    rule_original_schema_warnings,
    rule_unknown_fields,
    rule_unknown_operation_fields,
    rule_unknown_example_fields,
    rule_ignored_operation_fields,
    rule_name_matches_file,
    rule_unknown_keywords,
    rule_required_defined,
    rule_enum_types,
    rule_duplicate_enum,
    rule_contradictory_bounds,
    own_value_rule(Code.INVALID_DEFAULT, "default", many=False),
    own_value_rule(Code.INVALID_SCHEMA_EXAMPLE, "examples", many=True),
    rule_unknown_format,
    rule_patterns,
    rule_unsatisfiable,
    rule_duplicate_examples,
    rule_example_coverage,
    rule_edit_examples,
    rule_edit_example_states,
)


def lint_contract(contract: Contract, ignore: Iterable[str] = ()) -> list[Finding]:
    """Every finding for one loaded contract, minus ignored codes, in rule order."""
    ignored = set(ignore)
    linter = Linter(contract)
    return [f for rule in RULES for f in rule(linter) if f.code not in ignored]


def lint_result(result: LoadResult, ignore: Iterable[str] = ()) -> list[Finding]:
    """The folder's load warnings (e.g. a skipped link), then every loaded contract's findings.

    Contracts come in sorted order; ignored codes are left out everywhere.
    """
    ignored = set(ignore)
    findings = [f for f in result.warnings if f.code not in ignored]
    return findings + [f for contract in result.sorted_contracts() for f in lint_contract(contract, ignored)]
