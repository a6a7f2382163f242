"""Writing a file so that no reader, and no crash, ever sees half of it.

The bytes go to a temporary file in the same folder (never named ``*.json``, so a watching server
or a ``validate`` run ignores it), are flushed to disk, and only then take the real name in one
step: ``os.link`` when an existing file must be kept (it fails, atomically, if the name is taken),
``os.replace`` when it may be overwritten. A process killed at any point leaves either no file or
the whole file, plus at worst a temporary that the next run removes. Every file gets the mode of a
new file (``0o644`` minus the umask), whatever was at its name before.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import sys
from pathlib import Path

__all__ = ["FILE_MODE", "TEMPORARY_PATTERN", "remove_stale_temporaries", "write_whole_file"]

#: ``.json-contracts-<pid>-<random>.<name>.tmp``: the writer's process id says whether it is still running.
TEMPORARY_PATTERN = re.compile(r"\.json-contracts-(?P<pid>\d+)-[0-9a-f]{8}\..+\.tmp")
#: The mode of every file written (before the umask): readable by all, writable by the owner.
FILE_MODE = 0o644
_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK, errno.ENOSYS}


def write_whole_file(path: Path, data: bytes, *, overwrite: bool) -> bool:
    """Put ``data`` at ``path`` all at once; False (and nothing written) if it exists and ``overwrite`` is off.

    Raises:
        OSError: the folder cannot be written.
    """
    temporary = path.with_name(f".json-contracts-{os.getpid()}-{secrets.token_hex(4)}.{path.name}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    # Always FILE_MODE minus the umask: never the mode of what the file replaces, which could be a
    # link to a setuid program or an executable a pull request planted under a starter's name.
    fd = os.open(temporary, flags, FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())  # on disk before it has the real name, in case the machine stops
        if overwrite:
            os.replace(temporary, path)  # replaces a symbolic link itself, never writes through it
            return True
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        except OSError as exc:
            if exc.errno not in _NO_HARD_LINKS:
                raise
            if os.path.lexists(path):  # a filesystem without hard links: check, then rename
                return False
            os.rename(temporary, path)
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, but belongs to someone else
        return True
    return True


def remove_stale_temporaries(folder: Path) -> None:
    """Delete temporaries left in ``folder`` by writers that were killed (never a running writer's)."""
    if sys.platform == "win32":  # signal 0 is not a liveness probe there; leave them
        return
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        found = TEMPORARY_PATTERN.fullmatch(entry.name)
        if found and entry.is_file(follow_symlinks=False) and not _running(int(found["pid"])):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
