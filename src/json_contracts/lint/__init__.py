"""Contract quality rules: the TypeScript server's four warnings plus deeper checks, each with a code.

Every rule is a small generator of :class:`~json_contracts.findings.Finding` for one contract,
pointing at the offending place in the file; :data:`RULES` runs them in a fixed order. Each rule
is declared with what it reads: :data:`SCHEMA_RULES` read the schema alone, so they also lint a
file whose only load error is an example output (a schema mistake is often why a correct example
fails); :data:`CONTRACT_RULES` read the examples, operations or top-level fields too. Codes and
severities are in :mod:`json_contracts.findings.catalogue`; messages end with what to do. The
rules live by family: :mod:`._original` (JC101-JC104), :mod:`._spelling` (JC110, JC111, JC118,
JC122), :mod:`._fields` (JC124-JC126: operation and example fields that do nothing),
:mod:`._values` (JC112-JC117), :mod:`._patterns` (JC120), :mod:`._satisfiable` (JC121) and
:mod:`._examples` (JC123, JC130-JC134). A proof one rule reports (a value of the wrong type, crossed
bounds, an unsatisfiable schema) is written once and reused by the rules that must not ask for
what it proves impossible. ``[tool.json-contracts]`` settings are read by :mod:`.config`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.contracts.names import collation_key
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

__all__ = ["CONTRACT_RULES", "RULES", "SCHEMA_RULES", "lint_contract", "lint_result"]

#: What a rule reads: ``schema`` rules read the schema alone, so they also run on a file that failed
#: only because an example output does not validate (``LoadResult.schema_checked``), whose schema
#: passed every load check; ``contract`` rules read the examples, operations or top-level fields too.
Scope = Literal["schema", "contract"]

#: Every rule, in the order findings come out, each with its scope (declared once, here).
_SCOPED_RULES: tuple[tuple[Rule, Scope], ...] = (
    (rule_no_examples, "contract"),
    (rule_original_schema_warnings, "schema"),
    (rule_unknown_fields, "contract"),
    (rule_unknown_operation_fields, "contract"),
    (rule_unknown_example_fields, "contract"),
    (rule_ignored_operation_fields, "contract"),
    (rule_name_matches_file, "contract"),
    (rule_unknown_keywords, "schema"),
    (rule_required_defined, "schema"),
    (rule_enum_types, "schema"),
    (rule_duplicate_enum, "schema"),
    (rule_contradictory_bounds, "schema"),
    (own_value_rule(Code.INVALID_DEFAULT, "default", many=False), "schema"),
    (own_value_rule(Code.INVALID_SCHEMA_EXAMPLE, "examples", many=True), "schema"),
    (rule_unknown_format, "schema"),
    (rule_patterns, "schema"),
    (rule_unsatisfiable, "schema"),
    (rule_duplicate_examples, "contract"),
    (rule_example_coverage, "contract"),
    (rule_edit_examples, "contract"),
    (rule_edit_example_states, "contract"),
)
RULES: tuple[Rule, ...] = tuple(rule for rule, _ in _SCOPED_RULES)
#: The rules that read the schema alone (JC102-JC104, JC110, JC112-JC118, JC120, JC121), in rule order.
SCHEMA_RULES: tuple[Rule, ...] = tuple(rule for rule, scope in _SCOPED_RULES if scope == "schema")
#: The rules that read examples, operations or top-level fields, in rule order.
CONTRACT_RULES: tuple[Rule, ...] = tuple(rule for rule, scope in _SCOPED_RULES if scope == "contract")


def _lint(contract: Contract, rules: Sequence[Rule], ignored: set[str]) -> list[Finding]:
    linter = Linter(contract)
    return [f for rule in rules for f in rule(linter) if f.code not in ignored]


def lint_contract(contract: Contract, ignore: Iterable[str] = ()) -> list[Finding]:
    """Every finding for one loaded contract, minus ignored codes, in rule order."""
    return _lint(contract, RULES, set(ignore))


def lint_result(result: LoadResult, ignore: Iterable[str] = ()) -> list[Finding]:
    """The folder's load warnings (e.g. a skipped link), then every loaded contract's findings.

    Contracts come in sorted order; ignored codes are left out everywhere. A file that failed only
    because an example output does not validate (``result.schema_checked``) takes its place in
    that order with the findings of the rules that read the schema alone: its examples are not
    linted (JC020 reports them), while its schema, often why a correct example fails, is.
    """
    ignored = set(ignore)
    findings = [f for f in result.warnings if f.code not in ignored]
    scoped = {name: (contract, RULES) for name, contract in result.contracts.items()}
    scoped.update((name, (contract, SCHEMA_RULES)) for name, contract in result.schema_checked.items())
    for name in sorted(scoped, key=collation_key):
        contract, rules = scoped[name]
        findings += _lint(contract, rules, ignored)
    return findings
