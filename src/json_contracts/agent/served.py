"""A contract as the TypeScript server shows it to agents: the key order its parsing left.

The TypeScript server parsed each contract file with zod, which rebuilds every example and every
operation object: the keys it declares come first, in its declaration order (an example's
``input`` then ``output``; an operation's ``enabled``, ``return``, ``rules``, ``examples``), then
the other keys in the file's order, and a key named ``__proto__`` is dropped. Its operation
defaults are then added after what the file wrote. Being JavaScript objects, all of them then list
integer-like keys first, ascending, and a whole number written ``38.0`` is the number ``38``.
``read_contract``, the create, edit and repair payloads, the ``json-contract://`` resources and
the prompts all show the contract this way, in the text and in ``structuredContent`` alike (see
docs/reference/compatibility.md).

The loaded :class:`~json_contracts.contracts.model.Contract` keeps the file's own order (lint and
the finding positions read it); the served view is built once per loaded contract and shared.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from typing import Any

from json_contracts._json.text import format_number, js_key_order
from json_contracts.contracts.model import Contract

__all__ = ["ServedContract", "js_ordered", "served"]

_EXAMPLE_KEYS = ("input", "output")  # the keys zod declares for an example, in its order
_OPERATION_KEYS = ("enabled", "return", "rules", "examples")  # ... and for an operation
_DROPPED = "__proto__"  # zod never copies a key of this name into the object it builds


@dataclass(frozen=True)
class ServedContract:
    """The parts of a contract whose key order an agent sees, in the TypeScript server's order."""

    operations: dict[str, dict[str, Any]]
    schema: dict[str, Any]
    examples: list[Any]


def js_ordered(value: Any) -> Any:
    """``value`` with every object's keys in JavaScript's order (integer-like keys first, ascending).

    The text of an answer is written in that order anyway; this makes ``structuredContent``, which
    the SDK serialises in the dict's own order, agree. Returns ``value`` itself when nothing would
    move (nearly every document), found by one read-only pass.
    """
    return _reordered(value) if _out_of_js_order(value) else value


def _out_of_js_order(value: Any) -> bool:
    """Whether some object in ``value`` has an integer-like key after another key.

    Only a key starting with a digit can move, and the smallest key of an object says whether
    there is one (compared in C, not key by key), so a 1 MiB document costs one quick walk.
    """
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        if type(node) is dict:
            if node and min(node) < ":":  # some key sorts before ":", the character after "9"
                keys = list(node)
                if js_key_order(keys) != keys:
                    return True
            extend([child for child in node.values() if type(child) is dict or type(child) is list])
        elif type(node) is list:
            extend([child for child in node if type(child) is dict or type(child) is list])
    return False


def _reordered(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _reordered(value[key]) for key in js_key_order(value)}
    if isinstance(value, list):
        return [_reordered(child) for child in value]
    return value


def _as_javascript(value: Any) -> Any:
    """A copy of contract data as ``JSON.parse`` holds it: keys in JavaScript's order, and every
    whole number below 10**21 an integer, so ``38.0`` (or ``-0.0``) goes out as ``38`` (``0``)
    in ``structuredContent`` too. Built once per contract, so it may copy everything."""
    if isinstance(value, dict):
        return {key: _as_javascript(value[key]) for key in js_key_order(value)}
    if isinstance(value, list):
        return [_as_javascript(child) for child in value]
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(format_number(value))  # the digits JavaScript writes, beyond 2**53 too
    return value


def _example(example: Any) -> Any:
    """One example as zod's example shape rebuilds it: ``input``, ``output``, then the rest."""
    if not isinstance(example, dict):
        return _as_javascript(example)
    first = [key for key in _EXAMPLE_KEYS if key in example]
    rest = [key for key in example if key not in _EXAMPLE_KEYS and key != _DROPPED]
    return _as_javascript({key: example[key] for key in first + rest})


def _operation(normalised: dict[str, Any], written: Any) -> dict[str, Any]:
    """One operation: the declared keys the file wrote, its other keys, then the defaults added.

    ``written`` is the operation as the file wrote it (``None`` when it wrote none).
    """
    own = [key for key in written if key in normalised] if isinstance(written, dict) else []
    declared = [key for key in _OPERATION_KEYS if key in own]
    other = [key for key in own if key not in _OPERATION_KEYS and key != _DROPPED]
    added = [key for key in _OPERATION_KEYS if key in normalised and key not in own]
    order = declared + other + added
    # a contract built without its file (raw empty) still keeps every key it has
    order += [key for key in normalised if key not in order and key != _DROPPED]
    operation: dict[str, Any] = {}
    for key in order:
        value = normalised[key]
        operation[key] = [_example(e) for e in value] if key == "examples" and isinstance(value, list) else value
    return _as_javascript(operation)  # type: ignore[no-any-return]


def _build(contract: Contract) -> ServedContract:
    raw_operations = contract.raw.get("operations") if isinstance(contract.raw, dict) else None
    written = raw_operations if isinstance(raw_operations, dict) else {}
    operations = {
        name: _operation(operation, written.get(name))
        for name, operation in contract.operations.items()
        if name != _DROPPED
    }
    return ServedContract(
        operations=_as_javascript(operations),
        schema=_as_javascript(contract.schema),
        examples=[_example(example) for example in contract.examples],
    )


_VIEWS: weakref.WeakKeyDictionary[Contract, ServedContract] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()  # worker threads share the views


def served(contract: Contract) -> ServedContract:
    """The served view of ``contract``, built on first use and kept while the contract is loaded."""
    with _LOCK:
        view = _VIEWS.get(contract)
    if view is None:
        view = _build(contract)
        with _LOCK:
            view = _VIEWS.setdefault(contract, view)
    return view
