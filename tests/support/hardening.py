"""Helpers for the hardening suite: hostile values, a server kept open across Hypothesis examples,
and checks that an answer is well formed and could be sent over a real transport.

The MCP helpers (served contracts, the wire-level peer) come from ``tests.support.mcp``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.support.mcp import CONTRACT_FILES, Served, WirePeer, nested_list, wire_peer

__all__ = [
    "CONTRACT_FILES",
    "FUZZ",
    "MIB",
    "Served",
    "WirePeer",
    "arguments_for",
    "fuzz",
    "hostile_values",
    "json_values",
    "nested_list",
    "open_portal",
    "texts",
    "wire_peer",
    "wire_safe",
]

MIB = 1024 * 1024

#: Derandomised and without deadlines: the same examples every run, and a slow CI box never fails.
FUZZ = settings(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

# Strings an agent (or an attacker) may send: any code point, lone surrogates, controls, bidi
# marks, the BOM, names that look like paths or contract names, and keys that mean something
# to other languages.
_ODD = [
    "",
    "\ud800",
    "\udfff",
    "a\udc80b",
    "\x00",
    "\u202e",
    "\ufeff",
    "\U0001f600",
    "e\u0301",
    "../etc/passwd",
    "..",
    "support-ticket",
    "no-ops",
    "patch-edit",
    "Support-Ticket",
    "support-ticket\n",
    "json-contract://support-ticket",
    "json-contract://../x",
    "__proto__",
    "constructor",
    "$ref",
    "%2e%2e%2f",
    "x" * 300,
]
_EVERY_CATEGORY: list[Any] = ["Cs", "Cc", "Cf", "Co", "Cn", "Zs", "L", "M", "N", "P", "S"]  # "Cs": lone surrogates
texts = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(categories=_EVERY_CATEGORY), max_size=20),
    st.sampled_from(_ODD),
)
_numbers = st.one_of(
    st.integers(),
    st.integers(min_value=2**53, max_value=2**80),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 1e308, -1e-308, 2**53 + 1, 10**400]),
)
_leaves = st.one_of(st.none(), st.booleans(), _numbers, texts)
_keys = st.one_of(texts, st.sampled_from(["contract", "json", "input", "context", "__proto__", "constructor"]))
json_values = st.recursive(
    _leaves,
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(_keys, children, max_size=5)),
    max_leaves=25,
)
_big = st.sampled_from(
    [
        "x" * (MIB + 10),  # just over the default document limit
        nested_list(65),  # just over the depth limit
        nested_list(250),  # about as deep as the SDK client can serialise
        {"a": [1.5] * 20_000},  # wide
        float("inf"),
        float("nan"),
    ]
)
hostile_values = st.one_of(json_values, _big)


def fuzz(max_examples: int) -> settings:
    """:data:`FUZZ` with a number of examples."""
    return settings(FUZZ, max_examples=max_examples)


def arguments_for(keys: list[str]) -> st.SearchStrategy[Any]:
    """Tool arguments: the tool's own keys with any values, some missing, some extra, or no object at all."""
    own = st.fixed_dictionaries({}, optional=dict.fromkeys(keys, hostile_values))
    extra = st.dictionaries(_keys, json_values, max_size=3)
    return st.one_of(
        st.builds(lambda a, b: {**b, **a}, own, extra),
        own,
        st.builds(lambda a: {**a, "contract": "support-ticket"}, own),
    )


def wire_safe(model: Any) -> str:
    """The JSON text a transport would send for ``model``; fails the test if it cannot be sent."""
    text: str = model.model_dump_json(by_alias=True, exclude_none=True)
    text.encode("utf-8")
    return text


def is_json_value(value: Any) -> bool:
    """True for a value JSON text can carry (finite numbers, Unicode strings)."""
    try:
        json.dumps(value, allow_nan=False).encode("utf-8")
    except (ValueError, TypeError, RecursionError):
        return False
    return not (isinstance(value, float) and not math.isfinite(value))


@contextmanager
def open_portal() -> Iterator[BlockingPortal]:
    """An event loop in a thread, so a sync Hypothesis test can keep one client open for every example."""
    with start_blocking_portal(backend="asyncio") as portal:
        yield portal
