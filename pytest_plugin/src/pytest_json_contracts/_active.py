"""Which pytest session the helpers answer for: the innermost one running in this process.

pytester runs sessions inside sessions, and the helpers that take a contract *name*
(``assert_valid_json("support-ticket", ...)``, ``contract_documents``) must use the innermost
session's folder, or fail when the plugin is off in it, even if an outer session has a folder.
Every configured session is pushed here, enabled or not; importing this module is free.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_json_contracts.session import PluginState

__all__ = ["innermost", "pop", "push"]

# One entry per configured session, innermost last: its state, or None where the plugin is off.
_SESSIONS: list[tuple[object, PluginState | None]] = []


def push(config: object, state: PluginState | None) -> None:
    _SESSIONS.append((config, state))


def pop(config: object) -> None:
    for index in range(len(_SESSIONS) - 1, -1, -1):
        if _SESSIONS[index][0] is config:
            del _SESSIONS[index]
            return


def innermost() -> PluginState | None:
    """The innermost session's state, or None when there is none or the plugin is off in it."""
    return _SESSIONS[-1][1] if _SESSIONS else None
