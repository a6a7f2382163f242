"""Fixtures of the interop suite: the pinned Node clients, a contracts folder and an HTTP server per module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mcp.interop.support import HERE, HttpServer, install_node_clients, make_folder, start_http


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every interop test runs real servers and Node clients in subprocesses: all are ``slow``."""
    for item in items:
        if Path(str(item.path)).is_relative_to(HERE):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def node_modules() -> Path:
    """The Node clients of ``package-lock.json``, installed on first use (once across xdist workers)."""
    return install_node_clients()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One starter contracts folder per module, never changed; tests that change files make their own."""
    return make_folder(tmp_path_factory.mktemp("contracts"))


@pytest.fixture(scope="module")
def http(folder: Path) -> Iterator[HttpServer]:
    """One ``serve --transport http`` per module over :func:`folder`, with the bearer token, watching off."""
    with start_http(folder) as (port, _):
        yield HttpServer(port, folder)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
