"""A crash in one contract's item is a normal failure naming it; an inconclusive check is a skip.

Before: a Rust panic (pyo3's PanicException, a BaseException) in a property check escaped the
engine and pytest printed a raw traceback through the plugin; a crash in ``::lint`` or an example
did the same. Each run is a separate pytest process, so the patched engine stays in it.
"""

from __future__ import annotations

import pytest

from tests.support.plugin import FAST, ContractsWriter
from tests.support.samples import tiny

RUN = ("--json-contracts", "json-contracts", *FAST)

#: A conftest that makes contract "crash" raise what a Rust panic raises, in a check and in lint.
_PANIC_CONFTEST = """
import json_contracts.testing.checks as checks
import pytest_json_contracts.items as items


class PanicException(BaseException):
    pass


_real_check = checks._CHECKS["satisfiable"]
_real_lint = items.lint_contract


def _check(contract, options):
    if contract.name == "crash":
        raise PanicException("called `Option::unwrap()` on a `None` value")
    return _real_check(contract, options)


def _lint(contract, **kwargs):
    if contract.name == "crash":
        raise PanicException("lint panicked")
    return _real_lint(contract, **kwargs)


checks._CHECKS["satisfiable"] = _check
items.lint_contract = _lint
"""


def test_a_panic_fails_its_own_items_with_a_message_and_the_rest_still_run(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"crash.json": tiny(), "fine.json": tiny()})
    pytester.makeconftest(_PANIC_CONFTEST)

    result = pytester.runpytest_subprocess(*RUN, "-rf")

    result.assert_outcomes(failed=2, passed=18)
    output = result.stdout.str()
    assert "Traceback" not in output
    assert "pytest_json_contracts" not in output  # no frames of the plugin
    result.stdout.fnmatch_lines(
        [
            "*crash.json: crash::lint crashed (PanicException: lint panicked); the other checks ran on; "
            "please report this with the contract",
            "*json-contracts/crash.json:*: JC201 error satisfiable: the check itself crashed (PanicException: "
            "called `Option::unwrap()` on a `None` value) on contract 'crash'; please report this with the contract",
        ]
    )
    assert "FAILED json-contracts/fine.json" not in output


def test_an_inconclusive_check_is_skipped_with_its_reason(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    schema = {"type": "object", "properties": {"v": {"type": "array", "minItems": 100_000}}, "required": ["v"]}
    write_contracts({"many.json": {"schema": schema}})

    result = pytester.runpytest_subprocess(*RUN, "-rs", "-k", "satisfiable")

    result.assert_outcomes(skipped=1, deselected=6)
    result.stdout.fnmatch_lines(
        ["SKIPPED * inconclusive: no document could be drawn: minItems 100000 at /properties/v/minItems asks*"]
    )


def test_the_time_budget_makes_a_slow_contract_inconclusive(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    # Thirty keys drawn one random name at a time: a search of about 100 s.
    schema = {"type": "object", "properties": {"v": {"type": "object", "minProperties": 30}}, "required": ["v"]}
    write_contracts({"slow.json": {"schema": schema}})

    result = pytester.runpytest_subprocess(
        "--json-contracts", "json-contracts", "-p", "no:cacheprovider", "--json-contracts-max-examples", "200",
        "--json-contracts-seed", "3", "--json-contracts-timeout", "2", "-rs",
    )  # fmt: skip

    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["SKIPPED * inconclusive: the contract's time budget (2 s) ran out*"])


def test_the_time_budget_ini_key_and_a_bad_value(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    write_contracts({"tiny.json": tiny()})
    pytester.makeini("[pytest]\njson_contracts_timeout = soon\n")

    bad_ini = pytester.runpytest_subprocess(*RUN)
    bad_option = pytester.runpytest_subprocess(*RUN, "--json-contracts-timeout", "0")

    assert bad_ini.ret == pytest.ExitCode.USAGE_ERROR
    bad_ini.stderr.fnmatch_lines(["*json_contracts_timeout (*): expected a number of seconds, got 'soon'*"])
    assert bad_option.ret == pytest.ExitCode.USAGE_ERROR
    bad_option.stderr.fnmatch_lines(["*--json-contracts-timeout: expected a positive number of seconds, got '0'*"])
