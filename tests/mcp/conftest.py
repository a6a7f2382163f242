"""Fixtures for the in-memory MCP tests (helpers and contract data live in ``tests.support.mcp``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.mcp import MODES, Served, ServeFactory, serve_factory


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


@pytest.fixture(params=list(MODES))
def mode(request: pytest.FixtureRequest) -> str:
    """Both protocol eras the SDK speaks: ``modern`` (2026-07-28) and ``legacy`` (2025 handshake)."""
    return str(request.param)
