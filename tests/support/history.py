"""Contract history for the ``diff`` tests of the Action and the plugin: git in a test folder, and
two changed versions of the ticket sample (one breaking backward, one breaking forward)."""

from __future__ import annotations

import copy
import os
import subprocess
from pathlib import Path
from typing import Any

from tests.support.samples import TICKET

__all__ = ["due_required", "git", "git_environment", "note_optional"]


def git_environment(home: Path) -> dict[str, str]:
    """This process's environment without any GIT_ variable, with a throwaway identity and no system configuration."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(HOME=str(home), GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")  # fmt: skip
    return env


def git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd`` (branch main, unsigned commits); its stdout, stripped. Fails the test when git fails."""
    command = ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args]
    done = subprocess.run(
        command, cwd=cwd, env=git_environment(cwd), capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def due_required() -> dict[str, Any]:
    """TICKET with a new required field: the old documents lack it (a backward break, JC410 and JC440)."""
    ticket = copy.deepcopy(TICKET)
    ticket["schema"]["properties"]["due"] = {"type": "string", "format": "date"}
    ticket["schema"]["required"].append("due")
    for example in ticket["examples"]:
        example["output"]["due"] = "2030-01-01"
    return ticket


def note_optional() -> dict[str, Any]:
    """TICKET with a new optional field in its closed object: compatible backward, a forward break (JC413)."""
    ticket = copy.deepcopy(TICKET)
    ticket["schema"]["properties"]["note"] = {"type": "string"}
    ticket["examples"][0]["output"]["note"] = "on the second floor"
    return ticket
