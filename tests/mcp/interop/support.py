"""What the interop tests share: installing the pinned Node clients, a contracts folder from the
starter set, real servers on stdio and HTTP, and runners for each client.

The Node clients come from ``package-lock.json`` through ``npm ci``, once per checkout and again
whenever the lockfile changes; the install is the only step that needs the network. A missing
``npm`` or a failed install fails the tests with npm's output: a skipped interop suite would look
like a passing one.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.mcp import TOKEN, http_env, http_server

HERE = Path(__file__).parent
NODE_MODULES = HERE / "node_modules"
LOCKFILE = HERE / "package-lock.json"
#: Written into node_modules after a successful install: the lockfile's hash it was installed from.
STAMP = NODE_MODULES / ".json-contracts-lock-sha256"
INSPECTOR = NODE_MODULES / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build" / "index.js"
NPM_CI = ["ci", "--no-audit", "--no-fund", "--omit=optional", "--omit=dev"]

#: How long a client run may take before the test fails (a hang, not slowness, should trip it).
RUN_TIMEOUT = 120
#: JSON_CONTRACTS_PATTERN_TIMEOUT for the servers: a call to the ``slow`` contract with
#: :data:`SLOW_DOCUMENT` takes this long, which is what the cancellation tests abort.
SLOW_SECONDS = 3
SLOW_CONTRACT = {
    "description": "A pattern only the backtracking engine can run; the right input makes it slow.",
    "schema": {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)+\\1$"}}},
}
SLOW_DOCUMENT = {"code": "a" * 40 + "!"}
#: A contract with both operations disabled, for the tools' refusals.
NO_OPS_CONTRACT = {
    "operations": {"create": {"enabled": False}, "edit": {"enabled": False}},
    "schema": {"type": "object"},
}


# --- the Node clients ---------------------------------------------------------------------------------


@contextmanager
def _install_lock() -> Iterator[None]:
    """Hold an exclusive lock on a file beside the lockfile, so xdist workers install once."""
    with (HERE / ".npm-install.lock").open("a+b") as handle:
        if sys.platform == "win32":
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield  # released when the handle closes


def _lock_hash() -> str:
    return hashlib.sha256(LOCKFILE.read_bytes()).hexdigest()


def _installed() -> bool:
    return STAMP.is_file() and STAMP.read_text(encoding="utf-8").strip() == _lock_hash() and INSPECTOR.is_file()


def install_node_clients() -> Path:
    """``node_modules``, installed by ``npm ci`` when missing or older than the lockfile.

    Fails (never skips) with npm's output when npm is missing or the install fails.
    """
    with _install_lock():
        if _installed():
            return NODE_MODULES
        npm = shutil.which("npm")
        if npm is None or shutil.which("node") is None:
            pytest.fail("the interop tests need Node.js 20+ and npm on PATH to install their clients", pytrace=False)
        process = subprocess.run([npm, *NPM_CI], cwd=HERE, capture_output=True, text=True, timeout=600, check=False)
        if process.returncode != 0 or not INSPECTOR.is_file():
            pytest.fail(
                f"npm {' '.join(NPM_CI)} failed in {HERE} (exit {process.returncode}):\n"
                f"{process.stdout}\n{process.stderr}",
                pytrace=False,
            )
        STAMP.write_text(_lock_hash() + "\n", encoding="utf-8")
        return NODE_MODULES


# --- servers --------------------------------------------------------------------------------------------


def json_contracts_command() -> str:
    """The ``json-contracts`` script of the environment running the tests, as a host would launch it."""
    scripts = Path(sys.executable).parent
    for name in ("json-contracts", "json-contracts.exe"):
        if (scripts / name).is_file():
            return str(scripts / name)
    found = shutil.which("json-contracts")
    assert found, f"no json-contracts script beside {sys.executable} or on PATH"
    return found


def server_env(folder: Path, **extra: str) -> dict[str, str]:
    """What a stdio server needs beyond the inherited environment: its folder, no watching, a slow bound."""
    return {
        "JSON_CONTRACTS_DIR": str(folder),
        "WATCH_CONTRACTS": "false",
        "JSON_CONTRACTS_PATTERN_TIMEOUT": str(SLOW_SECONDS),
        **extra,
    }


def make_folder(folder: Path) -> Path:
    """The starter contracts (``json-contracts init``), :data:`SLOW_CONTRACT` as ``slow`` and ``no-ops``."""
    subprocess.run(
        [sys.executable, "-m", "json_contracts", "init", "--contracts", str(folder)],
        check=True,
        capture_output=True,
        timeout=RUN_TIMEOUT,
    )
    (folder / "slow.json").write_text(json.dumps(SLOW_CONTRACT, indent=2), encoding="utf-8")
    (folder / "no-ops.json").write_text(json.dumps(NO_OPS_CONTRACT, indent=2), encoding="utf-8")
    return folder


def contract_names(folder: Path) -> list[str]:
    """The names the server serves for ``folder``: its ``*.json`` files, sorted (case aside, as the
    server's ``localeCompare`` order sorts these lowercase names)."""
    return sorted((path.stem for path in folder.glob("*.json")), key=str.lower)


@dataclass(frozen=True)
class HttpServer:
    port: int
    folder: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"


def start_http(folder: Path, **extra: str) -> AbstractContextManager[tuple[int, subprocess.Popen[bytes]]]:
    """A real ``serve --transport http`` over ``folder`` with the bearer token (a context manager)."""
    return http_server(
        http_env(folder, API_AUTH_TOKEN=TOKEN, JSON_CONTRACTS_PATTERN_TIMEOUT=str(SLOW_SECONDS), **extra)
    )


# --- clients --------------------------------------------------------------------------------------------


def drive(node_modules: Path, scenario: dict[str, Any]) -> dict[str, Any]:
    """Run ``driver.mjs`` (the TypeScript SDK client) on ``scenario`` and return its report.

    ``node_modules`` is the installed clients (taking it makes the caller depend on the install).
    """
    process = subprocess.run(
        ["node", str(HERE / "driver.mjs")],
        input=json.dumps(scenario),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        cwd=HERE,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    report: dict[str, Any] = json.loads(process.stdout)
    assert "Traceback" not in report.get("stderr", ""), report["stderr"]
    return report


def stdio_scenario(folder: Path, steps: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    """A driver scenario that launches ``json-contracts serve`` on stdio, as a host configures it."""
    env = server_env(folder, **options.pop("env", {}))
    return {
        "transport": "stdio",
        "command": json_contracts_command(),
        "args": ["serve"],
        "env": env,
        "steps": steps,
        **options,
    }


def http_scenario(
    url: str, steps: list[dict[str, Any]], *, token: str | None = TOKEN, scheme: str = "Bearer", **options: Any
) -> dict[str, Any]:
    headers = {} if token is None else {"Authorization": f"{scheme} {token}"}
    return {"transport": "http", "url": url, "headers": headers, "steps": steps, **options}


@dataclass(frozen=True)
class InspectorRun:
    returncode: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def inspect(node_modules: Path, tmp_path: Path, *args: str) -> InspectorRun:
    """Run the MCP Inspector's CLI mode (``mcp-inspector --cli …``) with its home and catalog in ``tmp_path``.

    Its 15 s default connect timeout is raised: a server starting on a loaded machine is slow, not broken.
    """
    home = {"HOME": str(tmp_path), "USERPROFILE": str(tmp_path)}
    env = {**os.environ, **home, "MCP_CATALOG_PATH": str(tmp_path / "inspector-catalog.json")}
    process = subprocess.run(
        ["node", str(INSPECTOR), "--cli", "--connect-timeout", str(RUN_TIMEOUT * 1000 // 2), *args],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    return InspectorRun(process.returncode, process.stdout, process.stderr)
