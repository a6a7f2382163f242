"""``--json-contracts-base REF``: a ``::compat`` item per contract that changed since REF, failing like
``json-contracts diff`` on a change that breaks the contract's compatibility mode."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.pytest_plugin.conftest import CommitProject
from tests.support.history import due_required, note_optional
from tests.support.plugin import ContractsWriter, position_of
from tests.support.samples import TICKET

#: Compat items run even without the property checks; these keep the other items quick.
QUICK = ("-p", "no:cacheprovider", "--json-contracts", "json-contracts", "--json-contracts-no-hypothesis")


REQUIRED_KEY = '"required": '
#: A contract whose schema no other sample shares (renames are matched by schema).
NAME: dict[str, Any] = {
    "schema": {"type": "string", "minLength": 1},
    "operations": {"edit": {"enabled": False}},
    "examples": [{"input": "who?", "output": "Ada"}],
}


def _compat_ids(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if line.endswith("::compat")]


def test_only_contracts_that_changed_get_a_compat_item(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, commit_project: CommitProject
) -> None:
    write_contracts({"same.json": TICKET, "changed.json": TICKET, "gone.json": NAME, "old-name.json": TICKET})
    (pytester.path / "json-contracts" / "old-name.json").write_text(
        json.dumps({**TICKET, "description": "Renamed later."}), encoding="utf-8"
    )
    commit_project()
    (pytester.path / "json-contracts" / "gone.json").unlink()
    (pytester.path / "json-contracts" / "old-name.json").rename(pytester.path / "json-contracts" / "new-name.json")
    write_contracts({"changed.json": note_optional(), "added.json": due_required()})

    result = pytester.runpytest(*QUICK, "--json-contracts-base", "main", "--collect-only", "-q")

    assert _compat_ids(result) == [
        "json-contracts/added.json::compat",
        "json-contracts/changed.json::compat",
        "json-contracts/new-name.json::compat",
        "json-contracts/gone.json::compat",  # removed: after the folder's files, under the name it had
    ]


def test_a_breaking_change_fails_with_the_findings_witnesses_and_hints_of_json_contracts_diff(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, commit_project: CommitProject
) -> None:
    write_contracts({"ticket.json": TICKET})
    commit_project()
    folder = write_contracts({"ticket.json": due_required()})

    result = pytester.runpytest(*QUICK, "--json-contracts-base", "main", "--json-contracts-seed", "3", "-k", "compat")

    result.assert_outcomes(failed=1)
    line, column = position_of(folder / "ticket.json", REQUIRED_KEY)  # the finding points at the list after it
    result.stdout.fnmatch_lines(
        [
            "*_ ticket: compat _*",
            "ticket: changed, backward, breaking",
            f"json-contracts/ticket.json:{line}:{column + len(REQUIRED_KEY)}: JC410 error "
            '"due" is now required at the root: documents without it are rejected; add the field as optional '
            "first, and make it required once every producer sends it",
            "  witness (accepted by old, rejected by new): {*}",
            "    /due must have required property 'due' (required)",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "json-contracts/ticket.json:*: JC440 error the old output of examples[[]0] does not validate against "
            "the new schema; if the old shape is still produced or stored, widen the schema",
            '  witness (accepted by old, rejected by new): {"title":"Printer down","priority":"high"}',
            "    /due must have required property 'due' (required)",
        ]
    )
    summary = next(line for line in result.outlines if "change(s) break backward compatibility" in line)
    assert re.fullmatch(
        r"\d+ change\(s\) break backward compatibility against main:json-contracts\. Make each change the safe way "
        r'its hint says; a deliberate break needs another mode for this contract: ticket = "none" in '
        r"\[tool\.json-contracts\.compatibility-overrides\]",
        summary,
    )
    result.stdout.fnmatch_lines(["seed 3: repeat with --json-contracts-seed 3"])
    assert "Traceback" not in result.stdout.str()


def test_a_compatible_change_passes_and_reports_its_changes_with_rP(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, commit_project: CommitProject
) -> None:
    write_contracts({"ticket.json": TICKET})
    commit_project()
    write_contracts({"ticket.json": note_optional()})

    result = pytester.runpytest(*QUICK, "--json-contracts-base", "main", "-k", "compat", "-rP")

    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            "*Captured json-contracts diff call*",
            "ticket: changed, backward, compatible",
            'json-contracts/ticket.json:*: JC413 info property "note" was added to the closed object at the root*',
        ]
    )


def test_the_mode_comes_from_the_json_contracts_table_and_its_overrides(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, commit_project: CommitProject
) -> None:
    write_contracts({"ticket.json": TICKET, "other.json": TICKET})
    commit_project()
    write_contracts({"ticket.json": note_optional(), "other.json": note_optional()})
    pytester.makepyprojecttoml(
        '[tool.json-contracts]\ncompatibility = "forward"\n\n'
        '[tool.json-contracts.compatibility-overrides]\nother = "backward"\n'
    )

    result = pytester.runpytest(*QUICK, "--json-contracts-base", "main", "-k", "compat", "-rf")

    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(
        [
            "ticket: changed, forward, breaking",
            'json-contracts/ticket.json:*: JC413 error property "note" was added to the closed object*',
            '  witness (accepted by new, rejected by old): {*"note"*}',
        ]
    )
    assert "FAILED json-contracts/ticket.json::compat" in result.stdout.str()


def test_a_removed_contract_fails_its_own_item(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, commit_project: CommitProject
) -> None:
    write_contracts({"ticket.json": TICKET, "gone.json": TICKET | {"description": "Soon gone."}})
    commit_project()
    (pytester.path / "json-contracts" / "gone.json").unlink()

    result = pytester.runpytest(*QUICK, "--json-contracts-base", "main", "-k", "compat")

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ gone: compat _*",
            "gone: removed, backward, breaking",
            "json-contracts/gone.json: JC401 error contract gone was removed: agents and apps that ask for it get "
            "'Contract not found'; keep the contract until no agent or app asks for it",
        ]
    )


def test_a_contract_whose_base_file_did_not_load_is_skipped_with_the_reason(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, commit_project: CommitProject
) -> None:
    write_contracts({"ticket.json": "{\n"})
    commit_project()
    write_contracts({"ticket.json": TICKET})

    result = pytester.runpytest(*QUICK, "--json-contracts-base", "main", "-k", "compat", "-rs")

    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(
        ["SKIPPED * ticket.json did not load in the base main:json-contracts (JC014), so it was not compared"]
    )


def test_a_file_that_does_not_load_now_gets_no_compat_item(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, commit_project: CommitProject
) -> None:
    write_contracts({"ticket.json": TICKET})
    commit_project()
    write_contracts({"ticket.json": "{\n"})

    result = pytester.runpytest(*QUICK, "--json-contracts-base", "main", "--collect-only", "-q")

    assert _compat_ids(result) == []  # ::load fails; `json-contracts diff` does not compare it either


def test_on_ci_the_search_is_derandomised_and_repeats(
    pytester: pytest.Pytester,
    write_contracts: ContractsWriter,
    commit_project: CommitProject,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_contracts({"ticket.json": TICKET})
    commit_project()
    write_contracts({"ticket.json": due_required()})
    monkeypatch.setenv("CI", "true")
    args = (*QUICK, "--json-contracts-base", "main", "-k", "compat")

    first, second = pytester.runpytest(*args), pytester.runpytest(*args)

    first.assert_outcomes(failed=1)
    witnesses = [line for line in first.outlines if line.startswith("  witness")]
    assert witnesses
    assert witnesses == [line for line in second.outlines if line.startswith("  witness")]
    assert "repeat with --json-contracts-seed" not in first.stdout.str()


def test_the_header_names_the_base(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, commit_project: CommitProject
) -> None:
    write_contracts({"ticket.json": TICKET})
    commit_project()

    result = pytester.runpytest(*QUICK, "--json-contracts-base", "HEAD", "--collect-only")

    assert "::compat" not in result.stdout.str()  # nothing changed since HEAD
    result.stdout.fnmatch_lines(["json-contracts: json-contracts (property checks off, compatibility against HEAD)"])


@pytest.mark.parametrize(
    ("base", "message"),
    [
        ("nope", "ERROR: --json-contracts-base nope: unknown revision 'nope'; name a branch, tag or commit*"),
        ("main~5", "ERROR: --json-contracts-base main~5: unknown revision 'main~5'*"),
    ],
)
def test_a_revision_git_does_not_know_is_a_usage_error(
    pytester: pytest.Pytester,
    write_contracts: ContractsWriter,
    commit_project: CommitProject,
    base: str,
    message: str,
) -> None:
    write_contracts({"ticket.json": TICKET})
    commit_project()

    result = pytester.runpytest(*QUICK, "--json-contracts-base", base)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert "Traceback" not in result.stderr.str()


def test_outside_git_is_a_usage_error_and_a_folder_missing_at_the_revision_is_empty(
    pytester: pytest.Pytester, write_contracts: ContractsWriter, commit_project: CommitProject
) -> None:
    write_contracts({"ticket.json": TICKET})
    outside = pytester.runpytest(*QUICK, "--json-contracts-base", "main")
    (pytester.path / "README.md").write_text("an app\n", encoding="utf-8")
    (pytester.path / "json-contracts" / "ticket.json").rename(pytester.path / "ticket.json")
    commit_project()  # the first commit has no contracts folder
    write_contracts({"ticket.json": TICKET})

    missing = pytester.runpytest(*QUICK, "--json-contracts-base", "main")

    assert outside.ret == pytest.ExitCode.USAGE_ERROR
    outside.stderr.fnmatch_lines(["ERROR: --json-contracts-base main: */json-contracts is not in a Git repository*"])
    # a base without the folder is the change that brings the first contracts: they are added, nothing breaks
    assert missing.ret == pytest.ExitCode.OK


@pytest.mark.parametrize("value", ["", "--upload-pack=x"])
def test_a_base_that_is_no_revision_is_refused_by_the_option(pytester: pytest.Pytester, value: str) -> None:
    result = pytester.runpytest(f"--json-contracts-base={value}")

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"*--json-contracts-base: expected a Git revision (a branch, tag or commit), got '{value}'"]
    )
