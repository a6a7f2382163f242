"""Fixtures for the hardening suite: servers over fresh folders, as ``tests/mcp`` builds them."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from hardening_support import CONTRACT_FILES, Served

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
    """Build a server over a fresh folder holding ``files`` (default: the MCP suite's contracts)."""
    counter = iter(range(1_000))

    def build(files: Mapping[str, Any] | None = None, *, allow_invalid: bool = False, **settings: Any) -> Served:
        folder = make_contracts_dir(
            copy.deepcopy(dict(CONTRACT_FILES if files is None else files)), dirname=f"contracts-{next(counter)}"
        )
        store = ContractStore.open(folder, allow_invalid=allow_invalid)
        tools = Tools(store, ServerSettings(store.directory, **{"watch": False, **settings}))
        return Served(folder, store, tools, build_server(tools))

    return build


@pytest.fixture
def served(serve: ServeFactory) -> Served:
    return serve()
