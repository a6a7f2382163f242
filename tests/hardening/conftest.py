"""Fixtures for the hardening suite: servers over fresh folders, as ``tests/mcp`` builds them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.hardening import Served
from tests.support.mcp import ServeFactory, serve_factory


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def serve(make_contracts_dir: Callable[..., Path]) -> ServeFactory:
    """Build a server over a fresh folder holding ``files`` (default: the MCP suite's contracts)."""
    return serve_factory(make_contracts_dir)


@pytest.fixture
def served(serve: ServeFactory) -> Served:
    return serve()
