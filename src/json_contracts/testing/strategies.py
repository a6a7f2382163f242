"""Hypothesis strategies for documents valid against a contract's schema (public API).

``hypothesis-jsonschema`` 0.23.1 crashes on every object schema with Hypothesis >= 6.170.10 and
reads 2020-12 keywords as draft-07, so containers (objects, arrays, ``$ref`` recursion with a
depth bound) and compositions are built here on Hypothesis's public API; it is used only for
leaf values (strings with ``pattern``/``format``, numbers with bounds and ``multipleOf``),
which still work. Every sample is re-checked by the contract's own validator before it is
yielded, so an approximation in the generator can cost time, never correctness. What the
filter rejects is counted in :class:`SampleStats`, with the schema keyword to blame.

    >>> from hypothesis import given
    >>> @given(from_contract(contract))
    ... def test_consumer_accepts_contract_json(document): ...
"""

from __future__ import annotations

import base64
import math
import sys
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import hypothesis.strategies as st
from hypothesis import provisional
from hypothesis_jsonschema import from_schema as _leaf_from_schema

from json_contracts._json.pointers import escape_pointer_segment, resolve_local_ref
from json_contracts.contracts.model import Contract
from json_contracts.errors import InvalidInputError
from json_contracts.findings import Finding
from json_contracts.schema.checking import check_schema
from json_contracts.schema.compiled import CompiledSchema, compile_schema
from json_contracts.schema.dialects import detect_dialect
from json_contracts.schema.patterns import search as pattern_search
from json_contracts.schema.vocabulary import DRAFT7
from json_contracts.testing._regex import python_pattern
from json_contracts.testing.harness import check_time
from json_contracts.testing.merge import PENDING, merge

__all__ = [
    "MAX_DRAWN_SIZE",
    "SampleStats",
    "blame_message",
    "for_subschema",
    "from_contract",
    "from_contract_lazily",
    "from_schema",
    "json_values",
]

_SAFE_INT = 2**53 - 1  # integers beyond this lose precision in the agent's JSON parser
_EXTRA_KEYS = 3  # at most this many keys beyond the declared ones
_EXTRA_ITEMS = 4  # arrays grow at most this far beyond minItems when maxItems is open
#: The largest length, item count or property count a schema's number can ask the generator for
#: (minLength, minItems, minContains, minProperties). Hypothesis draws each document from a buffer
#: of about 8,000 choices, so far larger values can never be drawn, and a search for them runs
#: for minutes before giving up; past this the node draws nothing and the checks say which
#: keyword asked too much (:attr:`SampleStats.too_large`), never that the schema is unsatisfiable.
MAX_DRAWN_SIZE = 1_000
_MAX_MULTIPLIER = 2**64  # multipleOf multipliers beyond this overflow a float in hypothesis-jsonschema


@dataclass
class SampleStats:
    """How many drawn candidates each filter accepted and rejected, and which keyword rejected them.

    ``blame`` counts ``(keyword, schema pointer)`` for every rejection; the most common entry
    names the keyword that makes a schema expensive (or impossible) to sample. ``too_large`` maps
    ``(keyword, schema pointer)`` to the number that asked for more than ``MAX_DRAWN_SIZE`` (1,000):
    that node drew nothing, so a search that found no document proves nothing about the schema.
    """

    accepted: int = 0
    rejected: int = 0
    blame: Counter[tuple[str, str]] = field(default_factory=Counter)
    too_large: dict[tuple[str, str], int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def rejected_share(self) -> float:
        total = self.accepted + self.rejected
        return self.rejected / total if total else 0.0

    def most_blamed(self) -> tuple[str, str] | None:
        """``(keyword, pointer into the schema)`` that rejected the most candidates."""
        return self.blame.most_common(1)[0][0] if self.blame else None

    def record(self, ok: bool, blame: tuple[str, str] | None) -> None:
        check_time()  # every candidate passes here, so a search that rejects them all still stops on time
        with self._lock:
            if ok:
                self.accepted += 1
            else:
                self.rejected += 1
                if blame:
                    self.blame[blame] += 1


def json_values(max_leaves: int = 6) -> st.SearchStrategy[Any]:
    """Any JSON value (what ``true`` and ``{}`` allow): JSON-safe numbers, no NaN, no -0."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-_SAFE_INT, _SAFE_INT)
        | st.floats(allow_nan=False, allow_infinity=False).map(lambda x: x + 0.0)
        | st.text(max_size=12)
    )
    return st.recursive(
        scalars,
        lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
        max_leaves=max_leaves,
    )


def _formats() -> dict[str, st.SearchStrategy[str]]:
    """Strategies for the formats the validator asserts that hypothesis-jsonschema lacks.

    Only names it does not know: overriding one of its standard formats makes it warn.
    """
    digits = st.integers(0, 99).map(str)
    return {
        "uuid": st.uuids().map(str),
        "url": provisional.urls(),
        "duration": st.tuples(digits, digits).map(lambda t: f"P{t[0]}DT{t[1]}H"),
        "byte": st.binary(max_size=12).map(lambda b: base64.b64encode(b).decode()),
        "password": st.text(max_size=16),
        "binary": st.text(max_size=16),
        "iso-time": st.times().map(lambda t: t.isoformat() + "Z"),
        "iso-date-time": st.datetimes().map(lambda d: d.isoformat() + "Z"),
        "json-pointer-uri-fragment": st.lists(st.from_regex(r"\A[a-z0-9]{0,6}\Z"), max_size=3).map(
            lambda parts: "#" + "".join("/" + p for p in parts)
        ),
    }


_FORMATS: dict[str, st.SearchStrategy[str]] | None = None
_STRING_KEYS = ("minLength", "maxLength", "pattern", "format")
_NUMBER_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_OBJECT_KEYS = ("properties", "required", "additionalProperties", "patternProperties", "propertyNames",
                "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "dependencies",
                "unevaluatedProperties")  # fmt: skip
_ARRAY_KEYS = ("items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains", "minItems",
               "maxItems", "uniqueItems", "unevaluatedItems")  # fmt: skip
# Keywords whose meaning the builder reproduces exactly; anything else gets a local filter.
_EXACT = {"type", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
          "properties", "required", "additionalProperties", "minProperties", "maxProperties", "items",
          "prefixItems", "additionalItems", "minItems", "maxItems", "dependentRequired", "title",
          "description", "default", "examples", "$comment", "$id", "$schema", "$defs", "definitions",
          "$anchor", "readOnly", "writeOnly", "deprecated"}  # fmt: skip


class _Builder:
    """Builds one strategy per (schema node, recursion depth), sharing the cache across the tree."""

    def __init__(self, root: Any, compiled: CompiledSchema, stats: SampleStats, max_depth: int) -> None:
        self.root = root
        self.compiled = compiled
        self.stats = stats
        self.max_depth = max_depth
        self.draft07 = compiled.dialect == DRAFT7
        self._cache: dict[tuple[int, int], st.SearchStrategy[Any]] = {}
        self._keep: list[Any] = []  # merged nodes stay alive so their ids stay unique

    # -- filters ---------------------------------------------------------------------------------

    def checked(self, strategy: st.SearchStrategy[Any], node: Any, pointer: str) -> st.SearchStrategy[Any]:
        """``strategy`` filtered by the real validator of ``node`` (counted in the stats)."""
        validator = self.compiled.for_subschema(node)

        def accept(value: Any) -> bool:
            try:
                error = next(iter(validator.iter_errors(value)), None)
            except RecursionError:
                self.stats.record(False, ("depth", pointer))
                return False
            if error is None:
                self.stats.record(True, None)
                return True
            where = pointer + "".join("/" + escape_pointer_segment(p) for p in error.relative_schema_path)
            self.stats.record(False, (str(error.validator), where))
            return False

        return strategy.filter(accept)

    # -- nodes -----------------------------------------------------------------------------------

    def build(self, node: Any, pointer: str, depth: int = 0) -> st.SearchStrategy[Any]:
        key = (id(node), depth)
        found = self._cache.get(key)
        if found is None:
            self._keep.append(node)
            found = self._cache[key] = st.deferred(lambda: self._build(node, pointer, depth))
        return found

    def _flatten(self, node: Any, depth: int) -> tuple[Any, int]:
        """``node`` with its ``$ref`` chain and ``allOf`` merged in; the depth counts ``$ref`` hops."""
        for _ in range(64):
            if not isinstance(node, dict):
                return node, depth
            if isinstance(node.get("$ref"), str):
                target = resolve_local_ref(self.root, node["$ref"])
                rest = {k: v for k, v in node.items() if k != "$ref"}
                if target is None:  # not a local pointer: generate broadly, the filter decides
                    return rest or True, depth
                if self.draft07:
                    rest = {}  # draft-07 ignores a $ref's siblings
                node, depth = merge(target, rest), depth + 1
                continue
            if isinstance(node.get("allOf"), list):
                parts = node["allOf"]
                node = {k: v for k, v in node.items() if k != "allOf"}
                for part in parts:
                    node = merge(node, part)
                continue
            if node.get(PENDING) and not any(k in node for k in ("anyOf", "oneOf", "if")):
                parts = node[PENDING]
                node = {k: v for k, v in node.items() if k != PENDING}
                for part in parts:
                    node = merge(node, part)
                continue
            return node, depth
        return node, depth

    def _build(self, original: Any, pointer: str, depth: int) -> st.SearchStrategy[Any]:
        if depth > self.max_depth + 4:
            return st.nothing()  # a required recursion that never bottoms out
        node, depth = self._flatten(original, depth)
        if node is True:
            return json_values()
        if node is False or not isinstance(node, dict):
            return st.nothing()
        self._keep.append(node)
        strategy = self._combinators(node, pointer, depth)
        if strategy is None:
            strategy = self._typed(node, pointer, depth)
        needs_filter = original is not node or any(k not in _EXACT for k in node)
        return self.checked(strategy, original, pointer) if needs_filter else strategy

    def _combinators(self, node: dict[str, Any], pointer: str, depth: int) -> st.SearchStrategy[Any] | None:
        """A choice of branches for ``anyOf``/``oneOf``/``if``; each branch merged with the rest of the node."""
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            if isinstance(branches, list) and branches:
                base = {k: v for k, v in node.items() if k != key}
                options = [
                    self.build(merge(base, branch), f"{pointer}/{key}/{i}", depth) for i, branch in enumerate(branches)
                ]
                return st.one_of(options)
        if "if" in node:
            base = {k: v for k, v in node.items() if k not in ("if", "then", "else")}
            then_branch = merge(merge(base, node["if"]), node.get("then", True))
            else_branch = merge(base, node.get("else", True))
            return st.one_of(
                self.build(then_branch, f"{pointer}/then", depth), self.build(else_branch, f"{pointer}/else", depth)
            )
        if "const" in node:
            return st.just(node["const"])
        if isinstance(node.get("enum"), list):
            return st.sampled_from(node["enum"]) if node["enum"] else st.nothing()
        return None

    def _typed(self, node: dict[str, Any], pointer: str, depth: int) -> st.SearchStrategy[Any]:
        declared = node.get("type")
        types = [declared] if isinstance(declared, str) else declared if isinstance(declared, list) else None
        if types is None:  # untyped: follow the keywords present, else anything
            inferred = [
                name
                for name, keys in (
                    ("object", _OBJECT_KEYS),
                    ("array", _ARRAY_KEYS),
                    ("string", _STRING_KEYS),
                    ("number", _NUMBER_KEYS),
                )
                if any(k in node for k in keys)
            ]
            if not inferred:
                return json_values()
            types = inferred
        options = [self._of_type(name, node, pointer, depth) for name in types if isinstance(name, str)]
        return st.one_of(options) if options else st.nothing()

    def _of_type(self, name: str, node: dict[str, Any], pointer: str, depth: int) -> st.SearchStrategy[Any]:
        if name == "null":
            return st.none()
        if name == "boolean":
            return st.booleans()
        if name in ("integer", "number"):
            return self._number(name, node)
        if name == "string":
            return self._string(node, pointer)
        if name == "object":
            return self._object(node, pointer, depth)
        if name == "array":
            return self._array(node, pointer, depth)
        return st.nothing()

    # -- leaves (hypothesis-jsonschema) ----------------------------------------------------------

    def _number(self, name: str, node: dict[str, Any]) -> st.SearchStrategy[Any]:
        leaf: dict[str, Any] = {k: node[k] for k in _NUMBER_KEYS if isinstance(node.get(k), int | float)}
        if isinstance(node.get("exclusiveMinimum"), bool) or isinstance(node.get("exclusiveMaximum"), bool):
            leaf = {k: v for k, v in leaf.items() if not k.startswith("exclusive")}  # draft-04 style: filtered
        if isinstance(leaf.get("multipleOf"), bool) or leaf.get("multipleOf", 1) <= 0:
            leaf.pop("multipleOf", None)  # not a usable step (the schema check refuses it): the filter decides
        integers = _hostile_multiples("integer", leaf)
        if integers is None:
            integers = _leaf_from_schema(
                {"type": "integer", "minimum": -_SAFE_INT, "maximum": _SAFE_INT, **leaf}, allow_x00=False
            )
        if name == "integer":
            return integers
        floats = _hostile_multiples("number", leaf)
        if floats is None:
            floats = _leaf_from_schema({"type": "number", **leaf}, allow_x00=False)
        return integers | floats

    def _string(self, node: dict[str, Any], pointer: str) -> st.SearchStrategy[Any]:
        global _FORMATS
        if _FORMATS is None:
            _FORMATS = _formats()
        leaf: dict[str, Any] = {"type": "string"}
        lengths = {k: node[k] for k in ("minLength", "maxLength") if isinstance(node.get(k), int)}
        if lengths.get("minLength", 0) > lengths.get("maxLength", lengths.get("minLength", 0)):
            return st.nothing()  # crossed bounds (lint JC115): no string fits, and Hypothesis would refuse them
        if self._too_large(node, "minLength", pointer):
            return st.nothing()
        pattern = node.get("pattern")
        if isinstance(pattern, str):
            translated = python_pattern(pattern)
            if translated is not None:
                leaf["pattern"] = translated
        if isinstance(node.get("format"), str):
            leaf["format"] = node["format"]
        shaped = "pattern" in leaf or "format" in leaf
        if not shaped:
            leaf.update(lengths)  # plain text is drawn at the right length; shaped text is filtered below
        strategy: st.SearchStrategy[Any] = _leaf_from_schema(leaf, custom_formats=_FORMATS, allow_x00=False)
        if shaped and lengths:
            low, high = lengths.get("minLength", 0), lengths.get("maxLength")
            keyword = "maxLength" if high is not None else "minLength"
            fits: Callable[[str], bool] = lambda s: low <= len(s) and (high is None or len(s) <= high)  # noqa: E731
            strategy = self._counted(strategy, fits, (keyword, f"{pointer}/{keyword}"))
        if isinstance(pattern, str):
            strategy = self._counted(strategy, _matcher(pattern), ("pattern", f"{pointer}/pattern"))
        return strategy

    def _too_large(self, node: dict[str, Any], keyword: str, pointer: str) -> bool:
        """Whether ``node``'s ``keyword`` asks for more than :data:`MAX_DRAWN_SIZE` (noted in the stats)."""
        value = node.get(keyword)
        if not isinstance(value, int) or isinstance(value, bool) or value <= MAX_DRAWN_SIZE:
            return False
        with self.stats._lock:
            self.stats.too_large[(keyword, f"{pointer}/{keyword}")] = value
        return True

    def _counted(
        self, strategy: st.SearchStrategy[Any], test: Callable[[Any], bool], blame: tuple[str, str]
    ) -> st.SearchStrategy[Any]:
        def accept(value: Any) -> bool:
            ok = test(value)
            self.stats.record(ok, None if ok else blame)
            return ok

        return strategy.filter(accept)

    # -- containers (our own) --------------------------------------------------------------------

    def _object(self, node: dict[str, Any], pointer: str, depth: int) -> st.SearchStrategy[dict[str, Any]]:
        properties: dict[str, Any] = node["properties"] if isinstance(node.get("properties"), dict) else {}
        patterns: dict[str, Any] = node["patternProperties"] if isinstance(node.get("patternProperties"), dict) else {}
        required = [k for k in node.get("required", []) if isinstance(k, str)]
        additional = node.get("additionalProperties", True)
        if node.get("unevaluatedProperties") is False and "additionalProperties" not in node:
            additional = False
        dependent = _dependent_required(node)
        dependent_properties = _dependent_properties(node)
        min_props = node.get("minProperties", 0) if isinstance(node.get("minProperties"), int) else 0
        max_props = node.get("maxProperties") if isinstance(node.get("maxProperties"), int) else None
        if self._too_large(node, "minProperties", pointer):
            return st.nothing()
        shallow = depth >= self.max_depth
        optional = [k for k in properties if k not in required]
        names = self._key_names(node, patterns, pointer, additional)
        values: dict[str, st.SearchStrategy[Any]] = {}

        def value_for(key: str) -> st.SearchStrategy[Any]:
            if key not in values:
                parts = [properties[key]] if key in properties else []
                parts += [sub for pat, sub in patterns.items() if _matches(pat, key)]
                parts += dependent_properties.get(key, [])
                if not parts:
                    parts = [additional]
                schema = parts[0]
                for extra in parts[1:]:
                    schema = merge(schema, extra)
                where = f"{pointer}/properties/{escape_pointer_segment(key)}" if key in properties else pointer
                values[key] = self.build(schema, where, depth)
            return values[key]

        @st.composite
        def objects(draw: Any) -> dict[str, Any]:
            check_time()
            keys = list(required)
            for key in optional:
                if not shallow and (max_props is None or len(keys) < max_props) and draw(st.booleans()):
                    keys.append(key)
            for key in optional:  # minProperties: declared properties first
                if len(keys) < min_props and key not in keys:
                    keys.append(key)
            wanted = max(min_props - len(keys), 0)
            if names is not None and (wanted or not shallow):
                room = max(_EXTRA_KEYS, wanted) if max_props is None else max(max_props - len(keys), 0)
                low = min(wanted, room)
                count = draw(st.integers(low, max(low, min(room, _EXTRA_KEYS))))
                for _ in range(count * 3):  # a few tries per key: drawn names may repeat
                    if count <= 0:
                        break
                    key = draw(names)
                    if key not in keys:
                        keys.append(key)
                        count -= 1
            pending = list(keys)
            while pending:  # dependentRequired closes over the chosen keys
                for needed in dependent.get(pending.pop(), []):
                    if needed not in keys:
                        keys.append(needed)
                        pending.append(needed)
            return {key: draw(value_for(key)) for key in keys}

        return objects()

    def _key_names(
        self, node: dict[str, Any], patterns: dict[str, Any], pointer: str, additional: Any
    ) -> st.SearchStrategy[str] | None:
        """Names for keys beyond ``properties``, or None when none may be added."""
        options: list[st.SearchStrategy[str]] = []
        for pat in patterns:
            translated = python_pattern(pat)
            if translated is not None:
                options.append(st.from_regex(translated).filter(_matcher(pat)))
        if additional is not False:
            names = node.get("propertyNames")
            if isinstance(names, dict):
                options.append(self.build({"type": "string", **names}, f"{pointer}/propertyNames"))
            else:
                options.append(st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=8))
        return st.one_of(options) if options else None

    def _array(self, node: dict[str, Any], pointer: str, depth: int) -> st.SearchStrategy[list[Any]]:
        if self.draft07:
            items = node.get("items", True)
            prefix = items if isinstance(items, list) else []
            rest = node.get("additionalItems", True) if isinstance(items, list) else items
            prefix_key = "items"
            rest_where = f"{pointer}/additionalItems" if isinstance(items, list) else f"{pointer}/items"
        else:
            prefix = node.get("prefixItems", []) if isinstance(node.get("prefixItems"), list) else []
            rest = node.get("items", True)
            prefix_key, rest_where = "prefixItems", f"{pointer}/items"
        if rest is True and node.get("unevaluatedItems") is False:
            rest = False
        min_items = node.get("minItems", 0) if isinstance(node.get("minItems"), int) else 0
        max_items = node.get("maxItems") if isinstance(node.get("maxItems"), int) else None
        contains = node.get("contains")
        min_contains = node.get("minContains", 1) if isinstance(node.get("minContains"), int) else 1
        if self._too_large(node, "minItems", pointer) or (
            contains is not None and self._too_large(node, "minContains", pointer)
        ):
            return st.nothing()
        shallow = depth >= self.max_depth
        upper = min_items if shallow else min_items + _EXTRA_ITEMS
        upper = min(upper, max_items) if max_items is not None else upper
        if rest is False:
            upper = min(upper, len(prefix))
        prefix_strategies = [self.build(sub, f"{pointer}/{prefix_key}/{i}", depth) for i, sub in enumerate(prefix)]
        rest_strategy = self.build(rest, rest_where, depth)
        contains_strategy = (
            self.build(merge(rest, contains), f"{pointer}/contains", depth) if contains is not None else None
        )
        unique = node.get("uniqueItems") is True

        @st.composite
        def arrays(draw: Any) -> list[Any]:
            size = draw(st.integers(min(min_items, upper), max(min_items, upper)))
            result = [draw(s) for s in prefix_strategies[:size]]
            if contains_strategy is not None and min_contains > 0 and rest is not False:
                result += [draw(contains_strategy) for _ in range(min_contains)]
            while len(result) < size:
                check_time()  # items are drawn unfiltered: a long array must still stop on time
                result.append(draw(rest_strategy))
            if unique:  # drop repeats; the node filter rejects an array left too short
                kept: list[Any] = []
                for value in result:
                    if not any(_same(value, other) for other in kept):
                        kept.append(value)
                result = kept
            return result

        return arrays()


def _hostile_multiples(name: str, leaf: dict[str, Any]) -> st.SearchStrategy[Any] | None:
    """Multiples of a ``multipleOf`` hypothesis-jsonschema cannot draw, or None when it can.

    It draws a whole multiplier and multiplies; a tiny step (``1e-300``) between wide bounds, or a
    huge one (``1e300``) with an open bound, makes multipliers or products that overflow a float
    and crash the check. These are drawn as any number in the range, moved to the nearest multiple
    in exact fractions; integers are multiples of the step's numerator, the only multiples of the
    step that are whole. The node's filter still has the last word.
    """
    step_value = leaf.get("multipleOf")
    if step_value is None:
        return None
    step = Fraction(step_value)
    low, low_open = _bound(leaf, "minimum", "exclusiveMinimum", max)
    high, high_open = _bound(leaf, "maximum", "exclusiveMaximum", min)
    if name == "integer":
        low = Fraction(-_SAFE_INT) if low is None else max(low, Fraction(-_SAFE_INT))
        high = Fraction(_SAFE_INT) if high is None else min(high, Fraction(_SAFE_INT))
    largest = Fraction(sys.float_info.max)
    k_low, k_high = _multipliers(step, low, low_open, high, high_open)  # as hypothesis-jsonschema counts them
    hostile = any(k is not None and abs(k) > _MAX_MULTIPLIER for k in (k_low, k_high)) or (
        (k_low is None or k_high is None) and step * _MAX_MULTIPLIER > largest
    )
    if not hostile:
        return None
    if name == "integer":
        step = Fraction(step.numerator)
        k_low, k_high = _multipliers(step, low, low_open, high, high_open)
    bound = math.floor(largest / step)  # multipliers whose product is still a finite float
    least = -bound if k_low is None else max(k_low, -bound)
    most = bound if k_high is None else min(k_high, bound)
    if least > most:
        return st.nothing()

    def nearest_multiple(x: float) -> int | float:
        k = min(max(round(Fraction(x) / step), least), most)
        exact = k * step
        return int(exact) if name == "integer" else float(exact) + 0.0

    # A number drawn anywhere in the range, moved to the nearest multiple: spread like any number.
    return st.floats(float(least * step), float(most * step), allow_nan=False).map(nearest_multiple)


def _multipliers(
    step: Fraction, low: Fraction | None, low_open: bool, high: Fraction | None, high_open: bool
) -> tuple[int | None, int | None]:
    """The least and greatest whole ``k`` with ``k * step`` within the bounds (None: no bound)."""
    k_low = None if low is None else (math.floor(low / step) + 1 if low_open else math.ceil(low / step))
    k_high = None if high is None else (math.ceil(high / step) - 1 if high_open else math.floor(high / step))
    return k_low, k_high


def _bound(
    leaf: dict[str, Any], inclusive: str, exclusive: str, tighter: Callable[[list[Fraction]], Fraction]
) -> tuple[Fraction | None, bool]:
    """The tighter of a node's inclusive and exclusive bound on one side, and whether it is exclusive."""
    found: list[tuple[Fraction, bool]] = [
        (Fraction(leaf[key]), key == exclusive) for key in (inclusive, exclusive) if key in leaf
    ]
    if not found:
        return None, False
    value = tighter([v for v, _ in found])
    return value, any(v == value and is_open for v, is_open in found)


def _same(a: Any, b: Any) -> bool:
    """JSON equality (1 == 1.0, but True != 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return bool(a == b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _matcher(pattern: str) -> Callable[[str], bool]:
    return lambda key: _matches(pattern, key)


def _matches(pattern: str, key: str) -> bool:
    try:
        return pattern_search(pattern, key)
    except Exception:  # invalid, or ran past the time bound: not a match
        return False


def _dependent_required(node: dict[str, Any]) -> dict[str, list[str]]:
    """Keys each key brings with it: ``dependentRequired``, and the ``required`` of dependent schemas."""
    result: dict[str, list[str]] = {}
    for key in ("dependentRequired", "dependencies", "dependentSchemas"):
        mapping = node.get(key)
        if isinstance(mapping, dict):
            for trigger, needed in mapping.items():
                if isinstance(needed, dict):
                    needed = needed.get("required")
                if isinstance(needed, list):
                    result.setdefault(trigger, []).extend(n for n in needed if isinstance(n, str))
    return result


def _dependent_properties(node: dict[str, Any]) -> dict[str, list[Any]]:
    """Property schemas declared inside dependent schemas, by property name."""
    result: dict[str, list[Any]] = {}
    for key in ("dependentSchemas", "dependencies"):
        mapping = node.get(key)
        for dependent in mapping.values() if isinstance(mapping, dict) else []:
            properties = dependent.get("properties") if isinstance(dependent, dict) else None
            for name, sub in properties.items() if isinstance(properties, dict) else []:
                result.setdefault(name, []).append(sub)
    return result


def _whole(strategy: st.SearchStrategy[Any], compiled: CompiledSchema, stats: SampleStats) -> Any:
    """The final gate: only documents the contract's own validator accepts are yielded."""
    validator = compiled.validator

    def accept(value: Any) -> bool:
        try:
            error = next(iter(validator.iter_errors(value)), None)
        except RecursionError:
            stats.record(False, ("depth", ""))
            return False
        if error is not None:
            where = "".join("/" + escape_pointer_segment(p) for p in error.schema_path)
            stats.record(False, (str(error.validator), where))
        else:
            stats.record(True, None)
        return error is None

    return strategy.filter(accept)


def from_schema(
    schema: Any, *, stats: SampleStats | None = None, max_depth: int = 3, dialect: str | None = None
) -> st.SearchStrategy[Any]:
    """Documents valid against a draft-07 or 2020-12 ``schema``.

    ``max_depth`` bounds recursion through ``$ref``: past it, objects carry only their required
    keys and arrays their minimum length. Pass a :class:`SampleStats` to learn how much the
    validator filter rejected, and why.

    Raises:
        InvalidInputError: the schema is not a usable draft-07 or 2020-12 schema.
    """
    if schema is False:
        return st.nothing()
    if schema is True:
        schema_dict: dict[str, Any] = {}
    elif isinstance(schema, dict):
        schema_dict = schema
    else:
        raise InvalidInputError("schema must be a JSON object or a boolean")
    chosen = dialect or detect_dialect(schema_dict)
    if isinstance(chosen, Finding):
        raise InvalidInputError(chosen.message)
    problem = check_schema(schema_dict, chosen)
    if problem is not None:
        raise InvalidInputError(f"{problem.message} (at {problem.pointer or '/'})")
    compiled = compile_schema(schema_dict, chosen)
    return _strategy(schema_dict, compiled, stats or SampleStats(), max_depth)


def _strategy(schema: Any, compiled: CompiledSchema, stats: SampleStats, max_depth: int) -> st.SearchStrategy[Any]:
    builder = _Builder(schema, compiled, stats, max_depth)
    strategy: st.SearchStrategy[Any] = _whole(builder.build(schema, ""), compiled, stats)
    return strategy


def from_contract(contract: Contract, *, stats: SampleStats | None = None, max_depth: int = 3) -> Any:
    """Documents valid against ``contract``'s schema, checked by the contract's own validator."""
    return _strategy(contract.schema, contract.compiled, stats or SampleStats(), max_depth)


def from_contract_lazily(lookup: Callable[[], Contract], *, max_depth: int = 3) -> st.SearchStrategy[Any]:
    """:func:`from_contract` for a contract ``lookup()`` returns when the first document is drawn.

    Lets ``@given`` sit on a module-level test before the contracts are loaded (the pytest plugin's
    ``contract_documents("support-ticket")``).
    """
    return st.deferred(lambda: from_contract(lookup(), max_depth=max_depth))


def for_subschema(contract: Contract, node: Any, *, max_depth: int = 3) -> st.SearchStrategy[Any]:
    """Values valid against ``node``, a sub-schema of ``contract`` (its ``$ref``s resolve against the root)."""
    builder = _Builder(contract.schema, contract.compiled, SampleStats(), max_depth)
    return builder.checked(builder.build(node, ""), node, "")


def blame_message(stats: SampleStats) -> str:
    """``"73% of drawn documents were rejected, mostly by pattern at /properties/zip/pattern"``."""
    share = round(stats.rejected_share * 100)
    blamed = stats.most_blamed()
    culprit = f", mostly by {blamed[0]} at {blamed[1] or '/'}" if blamed else ""
    return f"{share}% of drawn candidates were rejected{culprit}"
