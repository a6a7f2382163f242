"""What a decoded JSON value is: its depth, checked without recursion and without building a pointer per value."""

from __future__ import annotations

import tracemalloc
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from json_contracts._json.pointers import escape_pointer_segment
from json_contracts._json.values import first_too_deep

_JSON = st.recursive(
    st.none() | st.integers() | st.text(max_size=3),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.sampled_from(["a", "b/", "~c"]), children),
    max_leaves=30,
)


def _eagerly(value: Any, limit: int) -> str | None:
    """The obvious walk, building every pointer: the reference the cheaper walk must agree with."""
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        node, pointer, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > limit:
                return pointer
            items = node.items() if isinstance(node, dict) else enumerate(node)
            stack.extend((child, f"{pointer}/{escape_pointer_segment(key)}", depth + 1) for key, child in items)
    return None


@settings(max_examples=300, derandomize=True)
@given(value=_JSON, limit=st.integers(0, 6))
def test_the_first_too_deep_place_is_the_one_the_obvious_walk_finds(value: Any, limit: int) -> None:
    assert first_too_deep(value, limit) == _eagerly(value, limit)


def test_a_hostile_file_costs_memory_for_its_path_not_a_pointer_per_value() -> None:
    # A long key above many siblings: a pointer built for every value (as the obvious walk does)
    # takes about 230 MB here; only the current path needs keeping.
    key = "k" * 10_000
    value: dict[str, Any] = {key: [0] * 20_000 + [{"x": [[[[[]]]]]}]}
    tracemalloc.start()
    try:
        pointer = first_too_deep(value, 5)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert pointer == f"/{key}/20000/x/0/0"  # the root is level 1; [[[[[]]]]] goes to level 7
    assert peak < 8 * 1024 * 1024
