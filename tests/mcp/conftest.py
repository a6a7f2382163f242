"""Fixtures for the in-memory MCP tests (helpers and contract data live in ``mcp_support``)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from mcp_support import CONTRACT_FILES, MODES, Served

from json_contracts.mcp_server.handlers import Tools
from json_contracts.mcp_server.server import build_server
from json_contracts.mcp_server.settings import ServerSettings
from json_contracts.store import ContractStore

ServeFactory = Callable[..., Served]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def serve(make_contracts_dir: Callable[..., Path]) -> ServeFactory:
    """Build a server over a fresh folder holding ``files`` (default :data:`CONTRACT_FILES`)."""
    counter = iter(range(1_000))

    def build(files: Mapping[str, Any] | None = None, **settings: Any) -> Served:
        folder = make_contracts_dir(
            copy.deepcopy(dict(CONTRACT_FILES if files is None else files)), dirname=f"contracts-{next(counter)}"
        )
        store = ContractStore.open(folder)
        tools = Tools(store, ServerSettings(store.directory, **{"watch": False, **settings}))
        return Served(folder, store, tools, build_server(tools))

    return build


@pytest.fixture
def served(serve: ServeFactory) -> Served:
    return serve()


@pytest.fixture(params=list(MODES))
def mode(request: pytest.FixtureRequest) -> str:
    """Both protocol eras the SDK speaks: ``modern`` (2026-07-28) and ``legacy`` (2025 handshake)."""
    return str(request.param)
