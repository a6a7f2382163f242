"""``init`` writes every starter file with the mode of a new file, whatever it replaces.

Before: ``init --force`` over a starter name copied the mode of what was there, following a symbolic
link to do so, so a link to a setuid program (or a file a hostile pull request made executable)
gave a setuid or executable starter contract. Now each file is written ``0o644`` minus the umask,
the link itself is replaced, and its target is left as it was.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import script_path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes and symbolic links")

UMASK = 0o002  # group-writable by default, so 0o644 and 0o666 minus it differ


def _init(workdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "JSON_CONTRACTS_DIR"}
    return subprocess.run(
        ["sh", "-c", f'umask {UMASK:03o} && exec "$0" "$@"', str(script_path()), "init", "--json", *args],
        capture_output=True,
        text=True,
        cwd=workdir,
        env=env,
        timeout=60,
        check=False,
    )


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_force_over_a_link_to_a_setuid_file_writes_a_plain_file_and_leaves_the_target(tmp_path: Path) -> None:
    target = tmp_path / "outside" / "tool"
    target.parent.mkdir()
    target.write_text("#!/bin/sh\n", encoding="utf-8")
    target.chmod(0o4755)
    folder = tmp_path / "json-contracts"
    folder.mkdir()
    (folder / "support-ticket.json").symlink_to(target)

    ran = _init(tmp_path, "--force")

    assert ran.returncode == 0, ran.stderr
    assert "support-ticket.json" in json.loads(ran.stdout)["copied"]
    written = folder / "support-ticket.json"
    assert not written.is_symlink()
    assert _mode(written) == 0o644 & ~UMASK  # before: 0o4755, the link target's
    assert _mode(target) == 0o4755
    assert target.read_text(encoding="utf-8") == "#!/bin/sh\n"
    assert json.loads(written.read_text(encoding="utf-8"))["schema"]


@pytest.mark.parametrize("old_mode", [0o755, 0o600, 0o666, 0o2775])
def test_force_over_a_regular_file_does_not_keep_its_mode(tmp_path: Path, old_mode: int) -> None:
    folder = tmp_path / "json-contracts"
    folder.mkdir()
    old = folder / "support-ticket.json"
    old.write_text("{}", encoding="utf-8")
    old.chmod(old_mode)

    ran = _init(tmp_path, "--force")

    assert ran.returncode == 0, ran.stderr
    assert _mode(old) == 0o644 & ~UMASK


def test_new_files_get_the_same_mode(tmp_path: Path) -> None:
    ran = _init(tmp_path)

    assert ran.returncode == 0, ran.stderr
    written = sorted((tmp_path / "json-contracts").iterdir())
    assert written
    assert {path.name: _mode(path) for path in written} == {path.name: 0o644 & ~UMASK for path in written}
