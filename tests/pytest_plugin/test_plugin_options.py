"""Enabling the plugin (option, ini), its options, seeds, and runs under pytest-xdist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.plugin import FAST, TINY_IDS, ContractsWriter
from tests.support.samples import BAD_REPAIR, UNSATISFIABLE, tiny

PYPROJECT = """
[tool.pytest.ini_options]
testpaths = ["tests"]
json_contracts_dir = "json-contracts"
"""


def _app(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    """A project with ``testpaths = ["tests"]``, one app test and one contract."""
    write_contracts({"tiny.json": tiny()})
    pytester.makepyprojecttoml(PYPROJECT)
    tests = pytester.mkdir("tests")
    (tests / "test_app.py").write_text("def test_app():\n    pass\n", encoding="utf-8")


def test_the_ini_key_enables_the_plugin_and_a_bare_run_adds_the_folder_to_testpaths(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    _app(pytester, write_contracts)

    result = pytester.runpytest("--collect-only", "-q", *FAST)

    assert [line for line in result.outlines if "::" in line] == [
        "tests/test_app.py::test_app",
        *(f"json-contracts/tiny.json::{name}" for name in TINY_IDS),
    ]


def test_paths_named_on_the_command_line_run_alone(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    _app(pytester, write_contracts)

    only_tests = pytester.runpytest("tests", "--collect-only", "-q", *FAST)
    one_item = pytester.runpytest("json-contracts/tiny.json::edit.example[0]", *FAST)

    assert [line for line in only_tests.outlines if "::" in line] == ["tests/test_app.py::test_app"]
    one_item.assert_outcomes(passed=1)


def test_the_ini_path_is_relative_to_the_ini_file(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, monkeypatch: pytest.MonkeyPatch
) -> None:
    _app(pytester, write_contracts)
    subfolder = pytester.mkdir("tests/sub")
    monkeypatch.chdir(subfolder)  # json_contracts_dir is not under the working directory

    result = pytester.runpytest("../../json-contracts", "--collect-only", "-q", *FAST)

    assert len([line for line in result.outlines if "::" in line]) == len(TINY_IDS)


def test_a_bare_run_in_a_sub_folder_runs_only_that_folder(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, monkeypatch: pytest.MonkeyPatch
) -> None:
    _app(pytester, write_contracts)
    monkeypatch.chdir(pytester.path / "tests")  # the user chose this folder; the ini key does not add more

    result = pytester.runpytest("--collect-only", "-q", *FAST)

    assert [line for line in result.outlines if "::" in line] == ["tests/test_app.py::test_app"]


def test_the_command_line_folder_wins_over_the_ini_key(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    _app(pytester, write_contracts)
    write_contracts({"other.json": tiny()}, folder="other")

    result = pytester.runpytest("--json-contracts", "other", "other", "--collect-only", "-q", *FAST)

    assert {line.split("::")[0] for line in result.outlines if "::" in line} == {"other/other.json"}


def test_without_a_folder_the_plugin_collects_nothing(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"tiny.json": tiny()})

    result = pytester.runpytest("-p", "no:cacheprovider")

    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "json-contracts:" not in result.stdout.str()  # no header line either


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--json-contracts", "missing"), "ERROR: --json-contracts: contracts folder */missing does not exist"),
        (("--json-contracts-max-examples", "0"), "*--json-contracts-max-examples: expected at least 1, got 0"),
        (("--json-contracts-seed", "x"), "*--json-contracts-seed: expected a whole number, got 'x'"),
    ],
)
def test_bad_options_are_usage_errors(pytester: pytest.Pytester, args: tuple[str, ...], message: str) -> None:
    result = pytester.runpytest(*args)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_a_malformed_json_contracts_table_is_a_usage_error(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"tiny.json": tiny()})
    pytester.makepyprojecttoml('[tool.json-contracts]\nignore = ["JC999"]\n')

    result = pytester.runpytest("--json-contracts", "json-contracts")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: *pyproject.toml: [[]tool.json-contracts] ignore: unknown code 'JC999'*"])


def test_no_hypothesis_skips_the_property_checks_with_the_reason(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"tiny.json": tiny()})

    result = pytester.runpytest("--json-contracts", "json-contracts", "--json-contracts-no-hypothesis", "-rs", *FAST)

    result.assert_outcomes(passed=5, skipped=5)
    reason = re.compile(
        r"SKIPPED \[(\d)\] json-contracts/tiny.json:\d+: property checks are off \(--json-contracts-no-hypothesis\)"
    )
    assert sum(int(m[1]) for m in map(reason.fullmatch, result.outlines) if m) == 5  # grouped by line


def test_a_given_seed_is_printed_and_repeats_the_run(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"repair.json": BAD_REPAIR})
    args = (
        "--json-contracts",
        "json-contracts",
        *FAST,
        "--json-contracts-seed",
        "7",
        "--json-contracts-max-examples",
        "30",
    )

    first, second = pytester.runpytest(*args), pytester.runpytest(*args)

    first.stdout.fnmatch_lines(["json-contracts: json-contracts (30 examples per check, --json-contracts-seed 7)"])
    first.stdout.fnmatch_lines(["seed 7: repeat with --json-contracts-seed 7"])
    assert _report(first)
    assert _report(first) == _report(second)


def _report(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if line.startswith(("json-contracts/repair.json:", "  ", "error:"))]


def test_on_ci_the_checks_are_derandomised(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_contracts({"unsat.json": UNSATISFIABLE})
    monkeypatch.setenv("CI", "true")

    result = pytester.runpytest("--json-contracts", "json-contracts", *FAST)

    result.stdout.fnmatch_lines(["json-contracts: json-contracts (10 examples per check, derandomised (CI))"])
    result.assert_outcomes(failed=2, passed=3, skipped=2)
    assert "seed" not in result.stdout.str().split("FAILURES")[1]


@pytest.mark.slow  # two whole pytest sessions in subprocesses, one under xdist
def test_xdist_workers_collect_the_same_items_and_share_the_seed(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"tiny.json": tiny(), "unsat.json": UNSATISFIABLE, "broken.json": "{"})
    args = ("--json-contracts", "json-contracts", *FAST, "-rf")

    serial = pytester.runpytest_subprocess(*args)
    parallel = pytester.runpytest_subprocess(*args, "-n", "2")

    outcomes = {"passed": len(TINY_IDS) + 3, "failed": 3, "skipped": 2 + 6}
    serial.assert_outcomes(**outcomes)
    parallel.assert_outcomes(**outcomes)
    seed = re.search(r"--json-contracts-seed (\d+)\)", parallel.stdout.str())
    assert seed is not None
    assert parallel.stdout.str().count(f"seed {seed[1]}: repeat with --json-contracts-seed {seed[1]}") == 2
    failed = sorted(line.split()[1] for line in parallel.outlines if line.startswith("FAILED "))
    assert failed == ["json-contracts/broken.json::load", "json-contracts/unsat.json::samples-valid",
                      "json-contracts/unsat.json::satisfiable"]  # fmt: skip


def test_every_option_is_on_the_reference_page_and_in_the_readme(pytester: pytest.Pytester) -> None:
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "reference" / "pytest-plugin.md").read_text(encoding="utf-8")
    readme = (root / "pytest_plugin" / "README.md").read_text(encoding="utf-8")

    options = set(re.findall(r"(?<![\w-])--json-contracts[\w-]*", pytester.runpytest("--help").stdout.str()))

    assert "--json-contracts-no-database" in options
    assert [option for option in sorted(options) if f"`{option}" not in page] == []
    assert [option for option in sorted(options) if f"`{option}" not in readme] == []
