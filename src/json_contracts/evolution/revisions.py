"""The contracts folder as a Git revision has it, read with ``git`` without touching the work tree.

The folder's files at the revision are listed (``git ls-tree``) and read in one ``git cat-file
--batch`` process, written to a temporary folder and loaded there by the same loader as every
other folder, so names, limits and load errors follow the same rules. A revision that does not
exist or a folder outside a Git repository is a :class:`RevisionError` whose message says what to
do; a revision without the folder is an empty folder with a warning (the change that adds the first
contracts breaks nobody).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from json_contracts.contracts.limits import Limits
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import LoadResult
from json_contracts.errors import JsonContractsError
from json_contracts.findings import Code, Finding

__all__ = ["RevisionError", "load_revision"]

_GIT_TIMEOUT = 120  # seconds for one git command: a huge repository, never a hang


class RevisionError(JsonContractsError):
    """The folder cannot be read at that revision (not a repository, unknown revision, no folder there)."""


def _git(args: list[str], cwd: Path, *, data: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, input=data, capture_output=True, timeout=_GIT_TIMEOUT, check=False
        )
    except FileNotFoundError as exc:
        raise RevisionError("git is not installed or not on PATH; install it, or compare with another folder") from exc
    except subprocess.TimeoutExpired as exc:
        raise RevisionError(f"git {args[0]} took longer than {_GIT_TIMEOUT} s") from exc
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RevisionError(message[-1] if message else f"git {args[0]} failed")
    return done.stdout


def _existing(folder: Path) -> Path:
    """The folder, or its nearest existing parent (the folder may be new in the work tree)."""
    for candidate in (folder, *folder.parents):
        if candidate.is_dir():
            return candidate
    return Path.cwd()


def load_revision(folder: Path, revision: str, limits: Limits | None = None) -> tuple[LoadResult, str]:
    """The contracts of ``folder`` as ``revision`` has them, and a label (``REV:path``) for messages.

    Raises:
        RevisionError: not a Git repository, an unknown revision, or no such folder at it.
    """
    folder = Path(os.path.abspath(folder))
    here = _existing(folder)
    try:
        top = Path(_git(["rev-parse", "--show-toplevel"], here).decode("utf-8", "replace").strip())
    except RevisionError as exc:
        raise RevisionError(
            f"{folder} is not in a Git repository ({exc}); compare with another folder instead of a revision"
        ) from exc
    try:
        commit = _git(["rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"], top).decode().strip()
    except RevisionError:
        raise RevisionError(
            f"unknown revision {revision!r}; name a branch, tag or commit (in a shallow CI checkout, fetch it "
            "first: git fetch --depth=1 origin <branch>)"
        ) from None
    relative = os.path.relpath(os.path.realpath(folder), os.path.realpath(top)).replace(os.sep, "/")
    label = f"{revision}:{relative}"
    listing = _git(["ls-tree", "-z", commit, "--", f"{relative}/"], top)
    entries = [entry for entry in listing.split(b"\0") if entry]
    if not entries:  # the change that brings the first contracts: every contract is new, none breaks
        result = LoadResult(directory=folder, missing_directory=True)
        message = (
            f"{revision} has no folder {relative}, so every contract counts as added; if it should have one, "
            "check the revision or the folder's path"
        )
        result.warnings.append(
            Finding(code=Code.MISSING_DIRECTORY, severity="warning", message=message, file=label, line=0, column=0)
        )
        return result, label
    blobs: list[tuple[str, str]] = []
    for entry in entries:
        meta, _, path = entry.partition(b"\t")
        mode, kind, sha = meta.decode().split(" ")
        name = path.decode("utf-8", "surrogateescape").rsplit("/", 1)[-1]
        if kind == "blob" and mode in ("100644", "100755"):
            blobs.append((name, sha))
    contents = _read_blobs([sha for _, sha in blobs], top)
    with tempfile.TemporaryDirectory(prefix="json-contracts-base-") as scratch:
        root = Path(scratch) / (folder.name or "contracts")
        root.mkdir()
        for (name, _), data in zip(blobs, contents, strict=True):
            try:
                (root / name).write_bytes(data)
            except (OSError, UnicodeEncodeError):  # a name this system cannot hold: the loader never sees it
                continue
        result = load_contracts(root, limits)
    return result, label


def _read_blobs(shas: list[str], top: Path) -> list[bytes]:
    """Every blob's bytes, from one ``git cat-file --batch``."""
    if not shas:
        return []
    out = _git(["cat-file", "--batch"], top, data=("\n".join(shas) + "\n").encode())
    contents: list[bytes] = []
    position = 0
    for _ in shas:
        header_end = out.index(b"\n", position)
        size = int(out[position:header_end].split(b" ")[2])
        start = header_end + 1
        contents.append(out[start : start + size])
        position = start + size + 1  # the newline after each object
    return contents
