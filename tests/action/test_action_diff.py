"""The Action's ``command: diff``: the base revision (input, or the pull request's), fetched when the
checkout lacks it, and the breaking changes as annotations, summary and counts.

The whole Action runs in the simulated runner on a real Git repository in the workspace; the base
step (``action/base.sh``) also runs alone with a fake event file, since the simulated runner sets no
``GITHUB_EVENT_*`` variables. The shallow checkout is a ``--depth 1`` clone of a local bare "origin",
as actions/checkout leaves one by default.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.action.test_action import parse_annotations
from tests.support.action import RunAction, position
from tests.support.gha_runner import REPO, parse_output_file
from tests.support.history import due_required, git, git_environment, note_optional
from tests.support.samples import TICKET

BASE_SH = REPO / "action" / "base.sh"


def write_ticket(folder: Path, contract: dict[str, Any]) -> Path:
    """``json-contracts/ticket.json`` in ``folder`` (2-space JSON, as people write it)."""
    path = folder / "json-contracts" / "ticket.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(contract, indent=2) + "\n", encoding="utf-8")
    return path


def commit_all(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repo(workspace: Path) -> str:
    """The workspace as a Git repository whose one commit holds TICKET; returns that commit."""
    git(workspace, "init", "-q")
    write_ticket(workspace, TICKET)
    return commit_all(workspace, "base")


# --- the whole Action -------------------------------------------------------------------------------


def test_a_breaking_change_fails_with_an_annotation_the_summary_and_the_counts(
    run_action: RunAction, workspace: Path, repo: str
) -> None:
    path = write_ticket(workspace, due_required())

    run = run_action({"command": "diff", "base": repo, "args": "--max-examples 20"})

    assert run.returncode == 1, run.stderr
    found = parse_annotations(run.step("run").stdout)
    required = [a for a in found if a["title"] == "JC410"]
    assert [(a["level"], a["file"]) for a in required] == [("error", "json-contracts/ticket.json")]
    assert required[0]["message"].startswith('"due" is now required')
    assert "witness: " in required[0]["message"]
    text = path.read_text(encoding="utf-8")
    assert (int(required[0]["line"]), int(required[0]["col"])) == position(text, "[")  # /schema/required
    assert f"json-contracts diff --contracts json-contracts --format github --base {repo} --summary " in (
        run.step("run").stderr
    )
    assert int(run.outputs["errors"]) >= 1
    summary = run.step("run").summary
    assert summary.startswith("### json-contracts diff")
    assert "| ticket |" in summary
    assert "breaking" in summary


def test_a_compatible_change_passes_with_zero_errors(run_action: RunAction, workspace: Path, repo: str) -> None:
    write_ticket(workspace, note_optional())

    run = run_action({"command": "diff", "base": repo, "args": "--max-examples 20"})

    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["errors"] == "0"
    assert [a["title"] for a in parse_annotations(run.step("run").stdout)] == ["JC413"]  # forward: info only


def test_the_mode_input_is_passed_as_mode(run_action: RunAction, workspace: Path, repo: str) -> None:
    write_ticket(workspace, note_optional())

    run = run_action({"command": "diff", "base": repo, "mode": "forward", "args": "--max-examples 20"})

    assert run.returncode == 1
    assert f"--base {repo} --mode forward --summary " in run.step("run").stderr
    [found] = [a for a in parse_annotations(run.step("run").stdout) if a["level"] == "error"]
    assert found["title"] == "JC413"


def test_a_branch_name_is_a_base_too(run_action: RunAction, workspace: Path, repo: str) -> None:
    git(workspace, "checkout", "-q", "-b", "feature")
    write_ticket(workspace, due_required())
    commit_all(workspace, "feature")

    run = run_action({"command": "diff", "base": "main", "args": "--max-examples 20"})

    assert run.returncode == 1
    assert "JC410" in run.step("run").stdout


def test_a_shallow_checkout_fetches_the_base_commit_and_diffs_against_it(
    run_action: RunAction, workspace: Path, tmp_path: Path
) -> None:
    origin, head = _shallow_clone_of_two_commits(tmp_path, workspace)
    base = git(origin, "rev-parse", "HEAD~1")

    run = run_action({"command": "diff", "base": base, "args": "--max-examples 20"})

    assert run.step("base").returncode == 0, run.step("base").stdout + run.step("base").stderr
    assert f"fetching it: git fetch --no-tags --depth=1 origin {base}" in run.step("base").stderr
    assert run.step("base").outputs == {"revision": base}
    assert run.returncode == 1  # the head commit made due required
    assert "JC410" in run.step("run").stdout
    assert git(workspace, "rev-parse", "HEAD") == head  # the work tree is where it was


def test_without_a_base_outside_a_pull_request_the_step_fails_before_installing(
    run_action: RunAction, workspace: Path, repo: str
) -> None:
    run = run_action({"command": "diff"})

    assert run.returncode == 2
    [line] = run.step("base").stdout.splitlines()
    assert line == (
        "::error title=json-contracts::command diff needs a base revision: set the base input (a branch, tag or "
        "commit); it defaults to the pull request's base commit only on pull_request events, and this run's "
        "event is 'none'"
    )
    assert run.step("install").returncode is None  # skipped: nothing was installed for nothing
    assert run.outputs == {"errors": "", "warnings": "", "info": ""}


@pytest.mark.parametrize(
    ("inputs", "step", "message"),
    [
        ({"base": "main"}, "base", "the base input is for command: diff, not lint"),
        ({"mode": "full"}, "run", "the base and mode inputs are for command: diff, not lint"),
        ({"command": "diff", "base": "HEAD", "mode": "sideways"}, "run",
         "mode must be backward, forward, full or none, not 'sideways'"),
        ({"command": "diff", "base": "--upload-pack=touch pwned"}, "base",
         "base must be a branch, tag or commit, not '--upload-pack=touch pwned'"),
    ],
)  # fmt: skip
def test_base_and_mode_values_the_action_cannot_use_are_refused(
    run_action: RunAction, workspace: Path, repo: str, inputs: dict[str, str], step: str, message: str
) -> None:
    run = run_action(inputs)

    assert run.returncode == 2
    assert run.step(step).stdout == f"::error title=json-contracts::{message}\n"
    assert not list(workspace.glob("pwned*"))


# --- the base step alone, with a pull request's event ----------------------------------------------------


def run_base_step(
    workspace: Path, tmp_path: Path, *, event: Any = None, event_name: str = "pull_request", base: str = ""
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """action/base.sh as the runner starts it, with ``event`` as the event file; returns the run and its outputs."""
    output = tmp_path / "base-output"
    output.write_text("", encoding="utf-8")
    event_file = tmp_path / "event.json"
    event_file.write_text(json.dumps(event if event is not None else {}), encoding="utf-8")
    env = {
        **git_environment(tmp_path),
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_EVENT_NAME": event_name,
        "GITHUB_EVENT_PATH": str(event_file),
        "JC_COMMAND": "diff",
        "JC_BASE": base,
    }
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(BASE_SH)],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done, parse_output_file(output.read_text(encoding="utf-8"))


def pull_request(base_sha: str) -> dict[str, Any]:
    """The parts of a pull_request event the step reads (GitHub's payload has many more)."""
    return {"action": "opened", "number": 7, "pull_request": {"base": {"ref": "main", "sha": base_sha}}}


@pytest.mark.parametrize("event_name", ["pull_request", "pull_request_target"])
def test_on_a_pull_request_the_base_is_the_base_commit_of_the_event(
    workspace: Path, tmp_path: Path, repo: str, event_name: str
) -> None:
    write_ticket(workspace, due_required())
    commit_all(workspace, "head")

    done, outputs = run_base_step(workspace, tmp_path, event=pull_request(repo), event_name=event_name)

    assert done.returncode == 0, done.stdout + done.stderr
    assert outputs == {"revision": repo}
    assert "fetching" not in done.stderr  # the commit is in the checkout


def test_the_base_input_wins_over_the_event(workspace: Path, tmp_path: Path, repo: str) -> None:
    write_ticket(workspace, due_required())
    head = commit_all(workspace, "head")

    done, outputs = run_base_step(workspace, tmp_path, event=pull_request(repo), base=head)

    assert done.returncode == 0, done.stderr
    assert outputs == {"revision": head}


@pytest.mark.parametrize(
    "event",
    [{}, {"pull_request": {"base": {}}}, {"pull_request": {"base": {"sha": "main; touch pwned"}}}, "not an object"],
)
def test_an_event_without_a_base_commit_is_a_clear_error(
    workspace: Path, tmp_path: Path, repo: str, event: Any
) -> None:
    done, outputs = run_base_step(workspace, tmp_path, event=event)

    assert done.returncode == 2
    assert done.stdout == (
        "::error title=json-contracts::cannot read pull_request.base.sha from the event file "
        f"'{tmp_path / 'event.json'}'; set the base input\n"
    )
    assert outputs == {}
    assert not list(workspace.glob("pwned*"))


def test_a_push_event_needs_the_base_input(workspace: Path, tmp_path: Path, repo: str) -> None:
    done, _ = run_base_step(workspace, tmp_path, event={"ref": "refs/heads/main"}, event_name="push")

    assert done.returncode == 2
    assert done.stdout.startswith("::error title=json-contracts::command diff needs a base revision: set the base")
    assert done.stdout.endswith("and this run's event is 'push'\n")


def test_a_workspace_that_is_no_repository_is_named(workspace: Path, tmp_path: Path) -> None:
    done, _ = run_base_step(workspace, tmp_path, base="main")

    assert done.returncode == 2
    assert done.stdout.startswith(f"::error title=json-contracts::cannot read a Git repository in {workspace} (")
    assert done.stdout.endswith("; check it out with actions/checkout before this step\n")


def _shallow_clone_of_two_commits(tmp_path: Path, workspace: Path) -> tuple[Path, str]:
    """A bare "origin" with TICKET, then due required, cloned one commit deep into the workspace.

    Returns the origin and its head. The clone goes through file:// so that --depth applies, as
    actions/checkout's fetch-depth: 1 does.
    """
    source = tmp_path / "source"
    source.mkdir()
    git(source, "init", "-q")
    write_ticket(source, TICKET)
    commit_all(source, "base")
    write_ticket(source, due_required())
    head = commit_all(source, "head")
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(source), str(origin))
    git(workspace, "clone", "-q", "--depth", "1", origin.as_uri(), ".")
    return origin, head


def test_a_pull_request_base_missing_from_a_shallow_checkout_is_fetched(workspace: Path, tmp_path: Path) -> None:
    origin, _ = _shallow_clone_of_two_commits(tmp_path, workspace)
    base = git(origin, "rev-parse", "HEAD~1")
    missing = subprocess.run(["git", "cat-file", "-e", f"{base}^{{commit}}"], cwd=workspace, check=False)
    assert missing.returncode != 0  # the checkout holds only the head commit

    done, outputs = run_base_step(workspace, tmp_path, event=pull_request(base))

    assert done.returncode == 0, done.stdout + done.stderr
    assert f"json-contracts: {base} is not in the checkout; fetching it" in done.stderr
    assert outputs == {"revision": base}
    assert git(workspace, "cat-file", "-t", base) == "commit"


def test_a_base_that_cannot_be_fetched_says_to_set_fetch_depth_0(workspace: Path, tmp_path: Path) -> None:
    _shallow_clone_of_two_commits(tmp_path, workspace)
    unknown = "1" * 40

    done, outputs = run_base_step(workspace, tmp_path, event=pull_request(unknown))

    assert done.returncode == 2
    assert done.stdout == (
        f"::error title=json-contracts::cannot fetch the base revision {unknown} from origin; "
        "set fetch-depth: 0 on actions/checkout so the checkout has it\n"
    )  # one line; git's own words are on stderr
    assert "not our ref" in done.stderr
    assert outputs == {}
