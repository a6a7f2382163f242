"""The real installed ``json-contracts`` script and ``python -m json_contracts`` in subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.cli import RunScript, WriteContracts

HEAVY = ("mcp", "hypothesis", "hypothesis_jsonschema", "pydantic")

_PROBE = """
import json, sys
from json_contracts.cli import main
sys.argv = ["json-contracts", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit as exit_:
    code = exit_.code
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {heavy!r})
sys.stdout.write("\\nPROBE " + json.dumps({{"code": code, "heavy": heavy}}) + "\\n")
"""


def test_init_then_lint_strict_in_an_empty_folder_exits_0(run_script: RunScript, workdir: Path) -> None:
    init = run_script("init")
    assert init.returncode == 0, init.stderr
    assert init.stdout.splitlines()[0] == f"Initialized starter contracts in {workdir / 'json-contracts'}."

    lint = run_script("lint", "--strict")

    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert lint.stdout.splitlines() == [
        f"Linted 8 contract(s) in {workdir / 'json-contracts'}.",
        "No lint findings.",
    ]
    assert lint.stderr == ""


def test_the_script_validates_and_fails_with_exit_1_and_located_lines(
    run_script: RunScript, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"old": samples.VERSIONED, "ticket": samples.TICKET})

    result = run_script("validate", "-c", "contracts")

    assert result.returncode == 1
    assert "contracts/old.json:" in result.stdout + result.stderr
    assert " JC015 error " in result.stdout + result.stderr
    assert "\x1b[" not in result.stdout + result.stderr  # no colour codes when not on a terminal


def test_the_script_checks_a_document_from_stdin(
    run_script: RunScript, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"ticket": samples.TICKET})

    good = run_script("check", "ticket", "-", "-c", "contracts", input='{"title": "Chair", "priority": "low"}')
    bad = run_script("check", "ticket", "-", "-c", "contracts", input='{"title": "C"}')

    assert (good.returncode, good.stdout) == (0, "<stdin> is valid against ticket.\n")
    assert bad.returncode == 1
    assert "How to repair:" in bad.stdout.splitlines()


def test_the_script_uses_json_contracts_dir_and_treats_an_empty_value_as_unset(
    run_script: RunScript, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    from_env = write_contracts({"a": samples.TICKET}, folder="from-env")
    default = write_contracts({"a": samples.TICKET, "b": samples.TICKET}, folder="json-contracts")

    with_env = run_script("validate", "--json", env={"JSON_CONTRACTS_DIR": "from-env"})
    empty = run_script("validate", "--json", env={"JSON_CONTRACTS_DIR": ""})

    assert json.loads(with_env.stdout)["contractsDir"] == str(from_env)
    assert json.loads(empty.stdout)["contractsDir"] == str(default)
    assert json.loads(empty.stdout)["loaded"] == 2


def test_a_usage_error_from_the_script_exits_2_with_one_line(run_script: RunScript) -> None:
    result = run_script("lint", "--bogus")

    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1


def test_python_dash_m_json_contracts_runs_the_same_cli(
    workdir: Path, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"ticket": samples.TICKET})

    result = subprocess.run(
        [sys.executable, "-m", "json_contracts", "validate", "-c", str(folder)],
        capture_output=True,
        text=True,
        cwd=workdir,
        timeout=60,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == f"Validated 1 contract(s) in {folder}."


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "-c", "contracts"],
        ["lint", "--strict", "-c", "contracts"],
        ["check", "ticket", "doc.json", "-c", "contracts"],
    ],
    ids=["validate", "lint", "check"],
)
def test_validate_lint_and_check_never_import_mcp_hypothesis_or_pydantic(
    workdir: Path, write_contracts: WriteContracts, samples: SimpleNamespace, args: list[str]
) -> None:
    write_contracts({"ticket": samples.TICKET})
    (workdir / "doc.json").write_text('{"title": "Chair", "priority": "low"}', encoding="utf-8")

    result = subprocess.run(
        [sys.executable, "-c", _PROBE.format(heavy=HEAVY), json.dumps(args)],
        capture_output=True,
        text=True,
        cwd=workdir,
        timeout=60,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    probe = json.loads(result.stdout.rsplit("PROBE ", 1)[1])
    assert probe == {"code": 0, "heavy": []}
