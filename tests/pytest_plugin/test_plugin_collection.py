"""Collection: which items a contracts folder becomes, their ids, and where they point."""

from __future__ import annotations

import pytest

from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.starter import starter_files
from json_contracts.testing.checks import example_refs
from tests.support.plugin import FAST, TINY_IDS, ContractsWriter, position_of
from tests.support.samples import tiny


def _collected(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if "::" in line]


def test_a_contract_file_becomes_load_lint_one_item_per_example_and_the_checks(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"tiny.json": tiny()})

    result = pytester.runpytest("--json-contracts", "json-contracts", "--collect-only", "-q", *FAST)

    assert _collected(result) == [f"json-contracts/tiny.json::{name}" for name in TINY_IDS]


def test_the_starter_set_gives_every_example_of_every_group_in_file_order(pytester: pytest.Pytester) -> None:
    folder = pytester.mkdir("json-contracts")
    for file in starter_files():
        if file.name.endswith(".json"):
            (folder / file.name).write_bytes(file.read_bytes())

    result = pytester.runpytest("--json-contracts", "json-contracts", "--collect-only", "-q", *FAST)

    ids = _collected(result)
    ticket = [i.split("::")[1] for i in ids if i.startswith("json-contracts/support-ticket.json::")]
    assert ticket == ["load", "lint", *(f"example[{n}]" for n in range(5)), "create.example[0]",
                      *(f"edit.example[{n}]" for n in range(3)),
                      "satisfiable", "samples-valid", "repair-hints", "edit", "hashes"]  # fmt: skip
    contracts = load_contracts(folder).contracts
    assert len(contracts) == 8
    assert len(ids) == len(set(ids)) == 7 * 8 + sum(len(example_refs(c)) for c in contracts.values())


def test_ids_are_the_same_in_every_collection(pytester: pytest.Pytester, write_contracts: ContractsWriter) -> None:
    write_contracts({"b.json": tiny(), "a.json": tiny(), "c.json": tiny(examples=[])})
    args = ("--json-contracts", "json-contracts", "--collect-only", "-q", *FAST)

    first, second = _collected(pytester.runpytest(*args)), _collected(pytester.runpytest(*args))

    assert first == second
    assert [i.split("::")[0] for i in first if i.endswith("::load")] == [
        "json-contracts/a.json",
        "json-contracts/b.json",
        "json-contracts/c.json",
    ]


def test_a_file_that_does_not_load_keeps_load_and_the_checks_but_no_examples(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"broken.json": '{\n  "schema": {"type": "object",\n}\n'})

    result = pytester.runpytest("--json-contracts", "json-contracts", "--collect-only", "-q", *FAST)

    assert [i.split("::")[1] for i in _collected(result)] == [
        "load", "lint", "satisfiable", "samples-valid", "repair-hints", "edit", "hashes"
    ]  # fmt: skip


def test_only_json_files_directly_in_the_folder_are_collected(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    write_contracts({"tiny.json": tiny()})
    write_contracts({"other.json": tiny()}, folder="fixtures")
    write_contracts({"nested.json": tiny()}, folder="json-contracts/sub")
    (pytester.path / "json-contracts" / "README.md").write_text("notes\n", encoding="utf-8")

    result = pytester.runpytest("--json-contracts", "json-contracts", "--collect-only", "-q", *FAST)

    assert {i.split("::")[0] for i in _collected(result)} == {"json-contracts/tiny.json"}


def test_items_point_at_their_place_in_the_contract_file(
    pytester: pytest.Pytester, write_contracts: ContractsWriter
) -> None:
    folder = write_contracts({"tiny.json": tiny()})
    text = (folder / "tiny.json").read_text(encoding="utf-8").splitlines()

    found, _ = pytester.inline_genitems("--json-contracts", "json-contracts", *FAST)

    items = {item.name: item for item in found}
    path, line, label = items["edit.example[0]"].reportinfo()
    assert path == folder / "tiny.json"
    assert label == "tiny: edit.example[0]"  # heads the failure report
    assert line is not None
    assert text[line].strip() == "{"
    assert '"currentJson"' in text[line + 1]
    input_line = position_of(folder / "tiny.json", '"typo on the site"')[0]  # 1-based; its object opens above
    assert items["example[1]"].location == ("json-contracts/tiny.json", input_line - 2, "tiny: example[1]")
    assert '"schema"' in text[items["satisfiable"].location[1] or 0]


@pytest.mark.parametrize(
    ("ini", "option"),
    [
        ("", ("--json-contracts=../contracts",)),
        ("", ("--json-contracts", "../contracts")),  # pytest then takes ../contracts into its rootdir
        ('testpaths = ["."]\n', ("--json-contracts=../contracts",)),
    ],
    ids=["no-testpaths", "separate-argument", "testpaths"],
)
def test_a_folder_outside_the_project_is_collected_by_a_run_that_names_no_paths(
    pytester: pytest.Pytester,
    write_contracts: ContractsWriter,
    monkeypatch: pytest.MonkeyPatch,
    ini: str,
    option: tuple[str, ...],
) -> None:
    write_contracts({"tiny.json": tiny()}, folder="contracts")
    app = pytester.mkdir("app")
    (app / "pyproject.toml").write_text("[tool.pytest.ini_options]\n" + ini, encoding="utf-8")
    (app / "test_app.py").write_text("def test_app():\n    pass\n", encoding="utf-8")
    monkeypatch.chdir(app)  # the contracts are beside the project, not in it

    result = pytester.runpytest(*option, "--collect-only", "-q", *FAST)

    ids = _collected(result)
    assert ids[0].endswith("test_app.py::test_app")
    assert [i.split("::")[1] for i in ids[1:]] == TINY_IDS
    assert all(i.split("::")[0].endswith("tiny.json") for i in ids[1:])


def test_a_folder_outside_the_project_runs_its_items(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_contracts({"tiny.json": tiny()}, folder="contracts")
    app = pytester.mkdir("app")
    (app / "pyproject.toml").write_text("[tool.pytest.ini_options]\n", encoding="utf-8")
    monkeypatch.chdir(app)

    result = pytester.runpytest("--json-contracts=../contracts", "--json-contracts-no-hypothesis", *FAST)

    result.assert_outcomes(passed=5, skipped=5)
