"""Hypothesis strategies for documents valid against a contract's schema (public API).

``hypothesis-jsonschema`` 0.23.1 crashes on every object schema with Hypothesis >= 6.170.10 and
reads 2020-12 keywords as draft-07, so containers (objects, arrays, ``$ref`` recursion with a
depth bound) and compositions are built here on Hypothesis's public API; it is used only for
leaf values (strings with ``pattern``/``format``, numbers with bounds and ``multipleOf``),
which still work. Every sample is re-checked by the contract's own validator before it is
yielded, so an approximation in the generator can cost time, never correctness. What the
filter rejects is counted in :class:`SampleStats`, with the schema keyword to blame.

Built, not filtered, wherever the schema says what is allowed: an untyped schema draws every
JSON type its keywords leave possible (a type whose keywords cannot hold drops out); a property
whose schema is empty (``false``, ``not: {}``) is never drawn; a ``oneOf`` branch carries the
cheap negation of the others, an ``else`` that of its ``if``; ``not`` of a type, ``const`` or
``enum`` narrows the types or values drawn; optional keys are chosen so the closure under
``dependentRequired``/``dependencies`` fits ``maxProperties``; numbers stay within what JSON text
round-trips. Each node is flattened once (references followed at the base URI the builder tracks
through embedded ``$id`` resources, ``allOf`` merged) and checked locally only by the keywords
it does not build (see ``_BUILT``), so a big schema costs its size, once; :func:`from_contract`
builds one tree per contract and depth, which every check of that contract draws from.

    >>> from hypothesis import given
    >>> @given(from_contract(contract))
    ... def test_consumer_accepts_contract_json(document): ...
"""

from __future__ import annotations

import base64
import math
import re
import sys
import threading
import weakref
from collections import Counter
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import hypothesis.strategies as st
from hypothesis import provisional
from hypothesis_jsonschema import from_schema as _leaf_from_schema

from json_contracts._json.pointers import escape_pointer_segment, lookup
from json_contracts._json.text import canonical
from json_contracts.contracts.model import Contract
from json_contracts.errors import InvalidInputError
from json_contracts.findings import Finding
from json_contracts.schema import budget
from json_contracts.schema.budget import validation_timeout
from json_contracts.schema.checking import check_schema
from json_contracts.schema.compiled import CompiledSchema, compile_schema
from json_contracts.schema.dialects import LIBRARY_DIALECTS, detect_library_dialect
from json_contracts.schema.patterns import matches as pattern_matches
from json_contracts.schema.patterns import property_schemas
from json_contracts.schema.vocabulary import DRAFT4, DRAFT6, DRAFT202012, item_schemas
from json_contracts.testing._regex import python_pattern
from json_contracts.testing.harness import check_time, time_left
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
#: Up to this many optional properties, each is drawn or not; past it, at most this many are drawn
#: (each equally likely), so a wide object does not carry half its hundred properties every time.
_OPTIONAL_KEYS = 8
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


#: Every character UTF-8 can write (all but the surrogates), named by category. Hypothesis's
#: ``codec="utf-8"`` (the default of ``text``, ``from_regex`` and hypothesis-jsonschema) means the same
#: set, but builds it by encoding all 1.1 million code points (~1 s) in every process whose storage
#: folder does not keep the table, and ``test --no-database`` keeps none.
_UTF8 = st.characters(exclude_categories=["Cs"])


def _text(max_size: int, min_size: int = 0) -> st.SearchStrategy[str]:
    return st.text(_UTF8, min_size=min_size, max_size=max_size)


def _no_surrogate(value: Any) -> bool:
    return not isinstance(value, str) or not any("\ud800" <= c <= "\udfff" for c in value)


def _leaf(schema: dict[str, Any], *, allow_x00: bool, custom_formats: Any = None) -> st.SearchStrategy[Any]:
    """hypothesis-jsonschema's strategy for a leaf (a string or number schema) without its codec scan:
    its strings are then drawn from every code point, so the rare lone surrogate (~0.3 % of strings)
    is dropped here."""
    strategy = _leaf_from_schema(schema, custom_formats=custom_formats, allow_x00=allow_x00, codec=None)
    return strategy.filter(_no_surrogate) if schema.get("type") == "string" else strategy


def json_values(max_leaves: int = 6) -> st.SearchStrategy[Any]:
    """Any JSON value (what ``true`` and ``{}`` allow): JSON-safe numbers, no NaN, no -0."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-_SAFE_INT, _SAFE_INT)
        | st.floats(allow_nan=False, allow_infinity=False).map(lambda x: x + 0.0)
        | _text(12)
    )
    return st.recursive(
        scalars,
        lambda children: st.lists(children, max_size=3) | st.dictionaries(_text(8), children, max_size=3),
        max_leaves=max_leaves,
    )


_ANY: st.SearchStrategy[Any] | None = None


def _any_value() -> st.SearchStrategy[Any]:
    """:func:`json_values`, built once: one strategy object lets Hypothesis reuse what it learnt of it."""
    global _ANY
    if _ANY is None:
        _ANY = json_values()
    return _ANY


def _plain(name: str) -> st.SearchStrategy[Any]:
    """Any (small) value of the JSON type ``name``."""
    if name == "null":
        return st.none()
    if name == "boolean":
        return st.booleans()
    if name in ("number", "integer"):
        numbers = st.integers(-_SAFE_INT, _SAFE_INT)
        return (
            numbers
            if name == "integer"
            else numbers | st.floats(allow_nan=False, allow_infinity=False).map(_json_number)
        )
    if name == "string":
        return _text(12)
    if name == "array":
        return st.lists(_any_value(), max_size=3)
    return st.dictionaries(_text(8), _any_value(), max_size=3)


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
        "password": _text(16),
        "binary": _text(16),
        "iso-time": st.times().map(lambda t: t.isoformat() + "Z"),
        "iso-date-time": st.datetimes().map(lambda d: d.isoformat() + "Z"),
        "json-pointer-uri-fragment": st.lists(st.from_regex(r"\A[a-z0-9]{0,6}\Z", alphabet=_UTF8), max_size=3).map(
            lambda parts: "#" + "".join("/" + p for p in parts)
        ),
    }


def _ascii_formats() -> dict[str, st.SearchStrategy[str]]:
    """Our own strategies for the formats whose hypothesis-jsonschema strategies draw domain names.

    Those come from Hypothesis's ``provisional.domains()`` and ``emails()``, whose regular
    expression has no alphabet: the first draw in a fresh ``.hypothesis`` folder scans the whole
    UTF-8 codec (about 1 s), which fails an app's own ``@given`` test on Hypothesis's ``too_slow``
    health check on a busy CI runner. These draw the same shapes in ASCII, with no scan.
    """
    label = st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12)
    tld = st.sampled_from(["com", "org", "net", "io", "dev", "example"])
    domain = st.tuples(st.lists(label, min_size=1, max_size=3), tld).map(lambda t: ".".join([*t[0], t[1]]))
    email = st.tuples(st.lists(label, min_size=1, max_size=2), domain).map(lambda t: ".".join(t[0]) + "@" + t[1])
    url = domain.map("https://{}".format)
    return {
        "email": email,
        "idn-email": email,
        "hostname": domain,
        "idn-hostname": domain,
        **dict.fromkeys(("uri", "uri-reference", "iri", "iri-reference", "uri-template"), url),
    }


_FORMATS: dict[str, st.SearchStrategy[str]] | None = None
_ASCII_FORMATS = _ascii_formats()
_STRING_KEYS = ("minLength", "maxLength", "pattern", "format")
_NUMBER_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_OBJECT_KEYS = ("properties", "required", "additionalProperties", "patternProperties", "propertyNames",
                "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "dependencies",
                "unevaluatedProperties")  # fmt: skip
_ARRAY_KEYS = ("items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains", "minItems",
               "maxItems", "uniqueItems", "unevaluatedItems")  # fmt: skip
_ALL_TYPES = ("null", "boolean", "number", "string", "array", "object")
#: A pattern (as Python reads it) that names NUL: strings are drawn without NUL unless one does.
_NUL = re.compile(r"\\(?:0(?![0-9])|x00|u0000|U00000000|c@)|\x00")
_KEYS_OF = {"object": _OBJECT_KEYS, "array": _ARRAY_KEYS, "string": _STRING_KEYS, "number": _NUMBER_KEYS}
#: Internal marker the builder adds for ``not: {type: integer}`` on numbers: draw only fractions.
_FRACTIONAL = "x-json-contracts-fractional"
# Keywords the builder reproduces by construction once a node is flattened (references followed,
# allOf merged, branches chosen); a node's local filter checks only the others. The final gate
# (the whole schema's validator) still checks every document, so this list costs time, never
# soundness, if it is wrong.
_BUILT = {"type", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
          "properties", "required", "additionalProperties", "patternProperties", "maxProperties", "items",
          "prefixItems", "additionalItems", "minItems", "maxItems", "dependentRequired", "title", "description",
          "default", "examples", "$comment", "$id", "id", "$schema", "$defs", "definitions", "$anchor",
          "$dynamicAnchor", "$recursiveAnchor", "readOnly", "writeOnly", "deprecated", "anyOf", "if", "then",
          "else", "enum", "const", "$ref", "$recursiveRef", "$dynamicRef", "allOf", PENDING, _FRACTIONAL,
          "contentMediaType", "contentEncoding", "contentSchema", "$vocabulary"}  # fmt: skip
# Keywords whose meaning depends on the keywords beside them (and on in-place applicators): a node
# that has one is checked by its whole validator, never by a part of it.
_WHOLE_NODE = ("unevaluatedProperties", "unevaluatedItems")
_NESTING = 4  # how deep the static emptiness test looks into required properties and contains
_RESOURCE_ID = ("$id", "id")


class _Builder:
    """Builds one strategy per (schema node, base URI, recursion depth), sharing the cache across the tree.

    The dialect decides how the builder reads a node: ``items`` arrays with ``additionalItems``
    (draft-04 to 2019-09), ``$ref`` hiding its siblings (draft-04 to draft-07), boolean
    ``exclusiveMinimum``/``exclusiveMaximum`` and ``id`` (draft-04).
    """

    def __init__(self, root: Any, compiled: CompiledSchema, max_depth: int, stats: SampleStats | None = None) -> None:
        self.root = root
        self.compiled = compiled
        self.max_depth = max_depth
        #: Where the filters count: this tree's own stats (``from_schema``), or, for a tree shared by
        #: the checks of a contract, the stats of the draw under way (:data:`_STATS`).
        self.stats = stats
        #: Keywords asking for more than MAX_DRAWN_SIZE, noted once when their node is built and
        #: handed to the stats of every draw from this tree (see :func:`_counted_into`).
        self.too_large: dict[tuple[str, str], int] = {}
        dialect = compiled.dialect
        self.items_array = dialect != DRAFT202012  # items: [..] + additionalItems before 2020-12
        self.ref_alone = dialect in _REF_ALONE  # a $ref's siblings are ignored in draft-04 and draft-06
        self.draft4 = dialect == DRAFT4
        self.root_base = compiled.root_base
        self._cache: dict[tuple[int, str, int], st.SearchStrategy[Any]] = {}
        self._validators: dict[tuple[int, str], Any] = {}
        self._empty: dict[tuple[int, str], bool] = {}
        self._flat: dict[tuple[int, str], tuple[Any, str, int, bool]] = {}
        self._branches: dict[tuple[int, str, int, str], Any] = {}
        self._keep: list[Any] = []  # merged nodes stay alive so their ids stay unique

    # -- references and base URIs ----------------------------------------------------------------

    def _base_of(self, node: Any, base: str) -> str:
        """The base URI inside ``node`` (its ``$id``, or draft-04 ``id``, joined to ``base``)."""
        if not isinstance(node, dict) or not any(isinstance(node.get(k), str) for k in _RESOURCE_ID):
            return base
        return self.compiled.base_of(node, base)

    def _resolve(self, ref: str, base: str) -> tuple[Any, str] | None:
        """The node ``ref`` names and the base URI inside it, or None when it is not in this schema."""
        return self.compiled.resolve(ref, base)

    def _validator(self, node: Any, base: str) -> Any:
        """The validator of ``node`` read at ``base``, built once per node (building copies the node)."""
        key = (id(node), base)
        found = self._validators.get(key)
        if found is None:
            self._keep.append(node)
            found = self._validators[key] = self.compiled.for_subschema(node, base)
        return found

    # -- filters ---------------------------------------------------------------------------------

    def record(self, ok: bool, blame: tuple[str, str] | None) -> None:
        stats = self.stats or _STATS.get()
        if stats is None:
            check_time()  # as SampleStats.record does: a filter rejecting everything still stops on time
        else:
            stats.record(ok, blame)

    def checked(
        self, strategy: st.SearchStrategy[Any], node: Any, pointer: str, base: str = ""
    ) -> st.SearchStrategy[Any]:
        """``strategy`` filtered by the real validator of ``node`` (counted in the stats)."""
        validator = self._validator(node, base)

        def accept(value: Any) -> bool:
            error = _first_error(validator, value)
            if isinstance(error, tuple):
                self.record(False, (error[0], pointer))
                return False
            if error is None:
                self.record(True, None)
                return True
            where = pointer + "".join("/" + escape_pointer_segment(p) for p in error.relative_schema_path)
            self.record(False, (str(error.validator), where))
            return False

        return strategy.filter(_Test(accept))

    # -- nodes -----------------------------------------------------------------------------------

    def build(self, node: Any, pointer: str, depth: int = 0, base: str | None = None) -> st.SearchStrategy[Any]:
        base = self.root_base if base is None else base
        key = (id(node), base, depth)
        found = self._cache.get(key)
        if found is None:
            self._keep.append(node)
            found = self._cache[key] = st.deferred(lambda: self._build(node, pointer, depth, base))
        return found

    def flatten(self, node: Any, base: str, depth: int = 0) -> tuple[Any, str, int, bool]:
        """``node`` with its ``$ref`` chain and ``allOf`` merged in, simplified; the base URI inside it;
        the depth (counting ``$ref`` hops); and whether every reference was followed."""
        key = (id(node), base)
        cached = self._flat.get(key)
        if cached is not None:
            flat, inner, hops, followed = cached
            return flat, inner, depth + hops, followed
        start = depth
        followed = True
        base = self._base_of(node, base)
        for _ in range(64):
            if not isinstance(node, dict):
                break
            ref = node.get("$ref")
            if not isinstance(ref, str) and isinstance(node.get("$recursiveRef"), str):
                ref = node["$recursiveRef"]  # 2019-09: read as "$ref": "#" (no $recursiveAnchor rebinding)
            if not isinstance(ref, str) and isinstance(node.get("$dynamicRef"), str):
                ref = node["$dynamicRef"]  # read as its static target; the filter has the last word
            if isinstance(ref, str):
                found = self._resolve(ref, base)
                rest = {k: v for k, v in node.items() if k not in ("$ref", "$recursiveRef", "$dynamicRef")}
                if found is None:  # not in this schema: generate broadly, the filter decides
                    followed = False
                    node = rest or True
                    continue
                target, target_base = found
                if self.ref_alone:
                    rest = {}
                if target_base != base and rest:
                    followed = False  # siblings read at another base: the filter decides
                node, base, depth = merge(target, rest), self._base_of(target, target_base), depth + 1
                self._keep.append(node)
                continue
            if isinstance(node.get("allOf"), list):
                parts = node["allOf"]
                node = {k: v for k, v in node.items() if k != "allOf"}
                for part in parts:
                    if isinstance(part, dict) and any(k in part for k in ("$ref", "$id", "id", "$recursiveRef")):
                        flat, part_base, _, part_followed = self.flatten(part, base)
                        followed = followed and part_followed and part_base == base
                        part = flat
                    node = merge(node, part)
                self._keep.append(node)
                continue
            if isinstance(node, dict) and node.get(PENDING) and not any(k in node for k in ("anyOf", "oneOf", "if")):
                parts = node[PENDING]
                node = {k: v for k, v in node.items() if k != PENDING}
                for part in parts:
                    node = merge(node, part)
                self._keep.append(node)
                continue
            break
        node = self._simplify(node, base)
        if isinstance(node, dict) and any(isinstance(node.get(k), str) for k in _RESOURCE_ID):
            # ``base`` is the base inside the node from here on: a ``$id`` left in it (the root's, merged
            # beside a root ``$ref``) would move every branch merged from it to that URI again, where
            # the compiled schema may know no ``#/definitions/...`` (SchemaStore's bosh-deploy-config).
            node = {k: v for k, v in node.items() if not (k in _RESOURCE_ID and isinstance(v, str))}
        self._keep.append(node)
        self._flat[key] = (node, base, depth - start, followed)
        return node, base, depth, followed

    def _simplify(self, node: Any, base: str) -> Any:
        """``not`` of simple schemas and ``enum``/``const`` turned into what they leave (see :func:`_negate`)."""
        if not isinstance(node, dict):
            return node
        if "not" in node:
            node = dict(node)
            rest = _absorb_not(node, node.pop("not"))
            if rest is False:
                return False
            if rest is not True:
                node["not"] = rest
        choices = [node["const"]] if "const" in node else node.get("enum")
        if isinstance(choices, list) and any(k not in ("enum", "const", *_IGNORED_KEYS) for k in node):
            others = {k: v for k, v in node.items() if k not in ("enum", "const", PENDING)}
            validator = self._validator(others, base)  # judge each listed value now, once
            kept = [v for v in choices if validator.is_valid(v)]
            pending = node.get(PENDING)
            node = {"enum": kept}
            if pending:
                node[PENDING] = pending
        return node

    def is_empty(self, node: Any, base: str, nesting: int = 0) -> bool:
        """Whether no value can match ``node``, as far as a cheap look proves it (never wrongly True)."""
        if node is False:
            return True
        if not isinstance(node, dict) or nesting > _NESTING:
            return False
        key = (id(node), base)
        if key in self._empty:
            return self._empty[key]
        self._empty[key] = False  # a cycle through references proves nothing
        flat, inner, _, _ = self.flatten(node, base)
        result = self._flat_is_empty(flat, inner, nesting)
        self._empty[key] = result
        return result

    def _flat_is_empty(self, flat: Any, base: str, nesting: int) -> bool:
        if flat is False:
            return True
        if not isinstance(flat, dict):
            return False
        choices = [flat["const"]] if "const" in flat else flat.get("enum")
        if isinstance(choices, list) and not choices:
            return True
        for key in ("anyOf", "oneOf"):
            branches = flat.get(key)
            if isinstance(branches, list) and all(
                self.is_empty(self._branch(flat, key, i, base), base, nesting + 1) for i in range(len(branches))
            ):
                return True
        if "const" in flat or "enum" in flat:
            return False
        return not any(self._type_possible(name, flat, base, nesting) for name in _types_of(flat))

    def _branch(self, flat: dict[str, Any], key: str, index: int, base: str) -> Any:
        """Branch ``index`` of ``flat``'s ``anyOf``/``oneOf`` with the facts of the rest of ``flat`` it
        could contradict: the types, the required keys, and the rest's schemas for the properties
        the branch names. An ``else``'s "key missing" beside a ``then`` requiring the key is empty
        although the branch alone is not. Only those facts are merged, not the whole node: merging
        every branch with all of its node multiplied the work on schemas full of ``anyOf``."""
        cache_key = (id(flat), key, index, base)
        found = self._branches.get(cache_key)
        if found is None:
            branch = self._at(flat[key][index], base)
            found = merge(_facts(flat, branch), branch) if isinstance(branch, dict) else branch
            self._keep.extend((flat, found))
            self._branches[cache_key] = found
        return found

    def _type_possible(self, name: str, node: dict[str, Any], base: str, nesting: int) -> bool:
        """Whether ``node``'s keywords for type ``name`` can hold at all (a cheap, one-sided test)."""
        if name in ("integer", "number"):
            low, low_open = _bound(_numbers_of(node, self.draft4), "minimum", "exclusiveMinimum", max)
            high, high_open = _bound(_numbers_of(node, self.draft4), "maximum", "exclusiveMaximum", min)
            if low is not None and high is not None and (low > high or (low == high and (low_open or high_open))):
                return False
            fractional = bool(node.get(_FRACTIONAL))
            if name == "integer" and low is not None and high is not None and math.floor(high) < math.ceil(low):
                return False
            step = node.get("multipleOf")
            return not (fractional and isinstance(step, int | float) and float(step).is_integer())
        if name == "string":
            low_len, high_len = _count(node, "minLength", 0), _count(node, "maxLength", None)
            return high_len is None or low_len <= high_len
        if name == "array":
            return self._array_possible(node, base, nesting)
        if name == "object":
            return self._object_possible(node, base, nesting)
        return name in ("null", "boolean")

    def _array_possible(self, node: dict[str, Any], base: str, nesting: int) -> bool:
        low, high = _count(node, "minItems", 0), _count(node, "maxItems", None)
        if high is not None and low > high:
            return False
        prefix, rest = item_schemas(node, self.items_array)
        if self.is_empty(rest, base, nesting + 1) and low > len(prefix):
            return False
        if any(self.is_empty(sub, base, nesting + 1) for sub in prefix[:low]):
            return False
        contains = node.get("contains")
        min_contains = _count(node, "minContains", 1)
        return not (
            contains is not None
            and min_contains > 0
            and (self.is_empty(contains, base, nesting + 1) or (high is not None and min_contains > high))
        )

    def _object_possible(self, node: dict[str, Any], base: str, nesting: int) -> bool:
        required = _required(node)
        high = _count(node, "maxProperties", None)
        if high is not None and (len(required) > high or _count(node, "minProperties", 0) > high):
            return False
        return not any(self.is_empty(self._property_schema(node, key), base, nesting + 1) for key in required)

    def _property_schema(self, node: dict[str, Any], key: str) -> Any:
        """The schema a property named ``key`` must match: its ``properties`` entry and every matching
        ``patternProperties`` entry, or ``additionalProperties`` when neither names it."""
        parts = property_schemas(node, key, additional=False)
        if not parts:
            additional = node.get("additionalProperties", True)
            if additional is True and node.get("unevaluatedProperties") is False:
                additional = False
            return additional
        schema = parts[0]
        for extra in parts[1:]:
            schema = merge(schema, extra)
        self._keep.append(schema)
        return schema

    def _build(self, original: Any, pointer: str, depth: int, base: str) -> st.SearchStrategy[Any]:
        check_time()  # Hypothesis builds the whole tree at the first draw: a huge one must stop on time too
        if depth > self.max_depth + 4:
            return st.nothing()  # a required recursion that never bottoms out
        node, inner, depth, followed = self.flatten(original, base, depth)
        if node is True:
            return _any_value()
        if node is False or not isinstance(node, dict):
            return st.nothing()
        if self.is_empty(original, base):
            return st.nothing()
        strategy = self._combinators(node, pointer, depth, inner)
        if strategy is None:
            strategy = self._typed(node, pointer, depth, inner)
        if not followed or any(k in node for k in _WHOLE_NODE):
            return self.checked(strategy, original, pointer, base)
        residual = {k: v for k, v in node.items() if k not in _BUILT}
        if residual:
            if "minContains" in residual or "maxContains" in residual:
                residual["contains"] = node.get("contains", True)
            if "uniqueItems" in residual and "minItems" in node:
                residual["minItems"] = node["minItems"]  # dropping repeats can leave an array too short
            self._keep.append(residual)
            return self.checked(strategy, residual, pointer, inner)
        return strategy

    def _combinators(self, node: dict[str, Any], pointer: str, depth: int, base: str) -> st.SearchStrategy[Any] | None:
        """A choice of branches for ``anyOf``/``oneOf``/``if``; each branch merged with the rest of the node."""
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            if isinstance(branches, list) and branches:
                rest = {k: v for k, v in node.items() if k != key}
                options: list[st.SearchStrategy[Any]] = []
                seen: dict[int, Any] = {}  # branch -> its merged node: equal branches share one strategy
                for i, branch in enumerate(branches):
                    target = self._at(branch, base)
                    merged = seen.get(id(target)) if key == "anyOf" else None
                    if merged is None:
                        merged = seen[id(target)] = merge(rest, target)
                    if key == "oneOf":  # kept only if it fails the others: say so where cheap
                        for j, other in enumerate(branches):
                            if j != i and merged is not False:
                                merged = merge(merged, _negate(self._at(other, base), merged))
                    option = self.build(merged, f"{pointer}/{key}/{i}", depth, base)
                    if not any(option is known for known in options):  # Hypothesis flattens nested
                        options.append(option)  # one_of branches: repeats would double at every level
                return st.one_of(options)
        if "if" in node:
            rest = {k: v for k, v in node.items() if k not in ("if", "then", "else")}
            condition = self._at(node["if"], base)
            then_branch = merge(merge(rest, condition), self._at(node.get("then", True), base))
            failing = _negate(condition, rest, by_parts=True)
            else_branch = merge(merge(rest, failing), self._at(node.get("else", True), base))
            return st.one_of(
                self.build(then_branch, f"{pointer}/then", depth, base),
                self.build(else_branch, f"{pointer}/else", depth, base),
            )
        if "const" in node:
            return st.just(node["const"])
        if isinstance(node.get("enum"), list):
            return st.sampled_from(node["enum"]) if node["enum"] else st.nothing()
        return None

    def _at(self, sub: Any, base: str) -> Any:
        """``sub`` ready to merge into a node read at ``base``: flattened when it is a reference or resource."""
        if isinstance(sub, dict) and any(k in sub for k in ("$ref", "$id", "id", "$recursiveRef", "$dynamicRef")):
            flat, inner, _, followed = self.flatten(sub, base)
            if followed and inner == base:
                return flat
        return sub

    def _typed(self, node: dict[str, Any], pointer: str, depth: int, base: str) -> st.SearchStrategy[Any]:
        possible = [name for name in _types_of(node) if self._type_possible(name, node, base, 0)]
        if "type" in node:
            options = [self._of_type(name, node, pointer, depth, base) for name in possible]
            return st.one_of(options) if options else st.nothing()
        # Untyped: every type is allowed, each with its own keywords. The types the keywords are
        # about get half the draws, so an object schema mostly draws objects; the others are drawn
        # small, as any value of that type (no keyword of theirs is there to read).
        mentioned = [name for name in possible if any(k in node for k in _KEYS_OF.get(name, ()))]
        if len(possible) == len(_ALL_TYPES) and not mentioned:
            return _any_value()
        first = [self._of_type(name, node, pointer, depth, base) for name in mentioned]
        others = [_plain(name) for name in possible if name not in mentioned]
        if not first or not others:
            return st.one_of(first + others) if first + others else st.nothing()
        return st.one_of(st.one_of(first), st.one_of(others))

    def _of_type(self, name: str, node: dict[str, Any], pointer: str, depth: int, base: str) -> st.SearchStrategy[Any]:
        if name == "null":
            return st.none()
        if name == "boolean":
            return st.booleans()
        if name in ("integer", "number"):
            return self._number(name, node, pointer)
        if name == "string":
            return self._string(node, pointer)
        if name == "object":
            return self._object(node, pointer, depth, base)
        if name == "array":
            return self._array(node, pointer, depth, base)
        return st.nothing()

    # -- leaves (hypothesis-jsonschema) ----------------------------------------------------------

    def _number(self, name: str, node: dict[str, Any], pointer: str) -> st.SearchStrategy[Any]:
        leaf = _numbers_of(node, self.draft4)
        if isinstance(leaf.get("multipleOf"), bool) or leaf.get("multipleOf", 1) <= 0:
            leaf.pop("multipleOf", None)  # not a usable step (the schema check refuses it): the filter decides
        safe = _within_safe_integers(leaf)  # integers beyond 2**53 - 1 change when JSON text is read back
        if safe is None:
            integers: st.SearchStrategy[Any] = st.nothing()
        else:
            hostile = _hostile_multiples("integer", safe)
            if hostile is None:
                hostile = _leaf({"type": "integer", **safe}, allow_x00=False)
            integers = hostile
        if name == "integer":
            return integers
        # A whole multipleOf makes hypothesis-jsonschema's numbers whole: keep those within 2**53 too.
        shape = safe if "multipleOf" in leaf and safe is not None else leaf
        hostile = _hostile_multiples("number", shape)
        if hostile is None:
            hostile = _leaf({"type": "number", **shape}, allow_x00=False)
        floats = hostile.map(_json_number)
        if node.get(_FRACTIONAL):  # not: {type: integer}: a whole number moves half a step, if it fits
            low, low_open = _bound(leaf, "minimum", "exclusiveMinimum", max)
            high, high_open = _bound(leaf, "maximum", "exclusiveMaximum", min)

            def inside(x: float) -> bool:
                q = Fraction(x)
                above = low is None or (q > low if low_open else q >= low)
                return above and (high is None or (q < high if high_open else q <= high))

            def halved(x: float) -> float:
                if not math.isfinite(x) or not x.is_integer():
                    return x
                if abs(x) >= 2**52:  # every float is whole there: its leading digits below 2**50, plus a half
                    moved = math.copysign(math.floor(math.ldexp(abs(math.frexp(x)[0]), 50)) + 0.5, x)
                    return moved if inside(moved) else x
                return x + 0.5 if inside(x + 0.5) else x - 0.5

            # Most unbounded floats Hypothesis draws are past 2**52, where every float is whole; a whole
            # number within 2**53 plus a half is a fraction near the middle of the range instead.
            plain = {k: v for k, v in (_within_safe_integers(leaf, 2**50) or {}).items() if k != "multipleOf"}
            halves = _leaf({"type": "integer", **plain}, allow_x00=False).map(_plus_half)
            return self._counted(
                st.one_of(halves, floats.map(halved)), lambda x: _fractional(x) and inside(x), ("not", f"{pointer}/not")
            )
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
        if "maxLength" in lengths:
            lengths["maxLength"] = min(lengths["maxLength"], max(lengths.get("minLength", 0), MAX_DRAWN_SIZE))
        pattern = node.get("pattern")
        if isinstance(pattern, str):
            translated = python_pattern(pattern)
            if translated is not None:
                leaf["pattern"] = translated
        if isinstance(node.get("format"), str) and not ("pattern" in leaf and _anchored(pattern)):
            # A pattern anchored at both ends says more than a format (a format drawn first almost never
            # matches ``^https?://(a|b)\\.json$``); the node's filter checks the format it leaves out.
            leaf["format"] = node["format"]
        shaped = "pattern" in leaf or "format" in leaf
        if not shaped:
            leaf.update(lengths)  # plain text is drawn at the right length; shaped text is filtered below
        nul = "pattern" in leaf and _NUL.search(leaf["pattern"]) is not None  # drawn only where asked for
        own = _ASCII_FORMATS.get(leaf["format"]) if "format" in leaf and "pattern" not in leaf else None
        strategy: st.SearchStrategy[Any] = (
            own if own is not None else _leaf(leaf, custom_formats=_FORMATS, allow_x00=nul)
        )
        if shaped and lengths:
            low, high = lengths.get("minLength", 0), node.get("maxLength")
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
        self.too_large[(keyword, f"{pointer}/{keyword}")] = value
        if self.stats is not None:
            with self.stats._lock:
                self.stats.too_large[(keyword, f"{pointer}/{keyword}")] = value
        return True

    def _counted(
        self, strategy: st.SearchStrategy[Any], test: Callable[[Any], bool], blame: tuple[str, str]
    ) -> st.SearchStrategy[Any]:
        def accept(value: Any) -> bool:
            ok = test(value)
            self.record(ok, None if ok else blame)
            return ok

        return strategy.filter(_Test(accept))

    # -- containers (our own) --------------------------------------------------------------------

    def _object(self, node: dict[str, Any], pointer: str, depth: int, base: str) -> st.SearchStrategy[Any]:
        properties: dict[str, Any] = node["properties"] if isinstance(node.get("properties"), dict) else {}
        patterns: dict[str, Any] = node["patternProperties"] if isinstance(node.get("patternProperties"), dict) else {}
        required = _required(node)
        dependent = _dependent_required(node)
        dependent_properties = _dependent_properties(node)
        min_props = _count(node, "minProperties", 0)
        max_props = _count(node, "maxProperties", None)
        if self._too_large(node, "minProperties", pointer):
            return st.nothing()
        shallow = depth >= self.max_depth
        forbidden = {key for key in properties if self.is_empty(self._property_schema(node, key), base)}
        closure = _closure(required, dependent)
        if forbidden & set(closure) or (max_props is not None and len(closure) > max_props):
            return st.nothing()
        optional = [k for k in properties if k not in closure and k not in forbidden]
        forbidden_patterns = [pat for pat, sub in patterns.items() if self.is_empty(sub, base)]
        names = self._key_names(node, patterns, pointer, forbidden_patterns, base)
        values: dict[str, st.SearchStrategy[Any]] = {}

        def allowed(key: str) -> bool:
            return key not in forbidden and not any(_matches(pat, key) for pat in forbidden_patterns)

        def value_for(key: str) -> st.SearchStrategy[Any]:
            if key not in values:
                schema = self._property_schema(node, key)
                for extra in dependent_properties.get(key, []):
                    schema = merge(schema, extra)
                where = f"{pointer}/properties/{escape_pointer_segment(key)}" if key in properties else pointer
                values[key] = self.build(schema, where, depth, base)
            return values[key]

        def add(keys: list[str], key: str) -> bool:
            """Add ``key`` and what depends on it, if all of that fits ``maxProperties`` and none is forbidden."""
            grown = _closure([*keys, key], dependent)
            if (max_props is not None and len(grown) > max_props) or not all(allowed(k) for k in grown):
                return False
            keys[:] = grown
            return True

        def objects(draw: Any) -> dict[str, Any]:
            check_time()
            keys = list(closure)
            if shallow:
                pass
            elif len(optional) <= _OPTIONAL_KEYS:
                for key in optional:
                    if key not in keys and draw(st.booleans()):
                        add(keys, key)
            else:  # a wide object (a hundred optional properties): a few of them, each as likely
                for _ in range(draw(st.integers(0, _OPTIONAL_KEYS))):
                    key = optional[draw(st.integers(0, len(optional) - 1))]
                    if key not in keys:
                        add(keys, key)
            for key in optional:  # minProperties: declared properties first
                if len(keys) >= min_props:
                    break
                if key not in keys:
                    add(keys, key)
            wanted = max(min_props - len(keys), 0)
            if names is not None and (wanted or not shallow):
                room = max(_EXTRA_KEYS, wanted) if max_props is None else max(max_props - len(keys), 0)
                low = min(wanted, room)
                count = draw(st.integers(low, max(low, min(room, _EXTRA_KEYS))))
                for _ in range(count * 3):  # a few tries per key: drawn names may repeat
                    if count <= 0:
                        break
                    key = draw(names)
                    if key not in keys and allowed(key) and add(keys, key):
                        count -= 1
            if not keys:
                draw(st.just(None))  # Hypothesis warns about a composite that never draws
            return {key: draw(value_for(key)) for key in keys}

        return _composed(objects)

    def _key_names(
        self, node: dict[str, Any], patterns: dict[str, Any], pointer: str, forbidden: list[str], base: str
    ) -> st.SearchStrategy[str] | None:
        """Names for keys beyond ``properties``, or None when none may be added."""
        options: list[st.SearchStrategy[str]] = []
        for pat in patterns:
            translated = python_pattern(pat)
            if translated is not None and pat not in forbidden:
                options.append(st.from_regex(translated, alphabet=_UTF8).filter(_matcher(pat)))
        additional = (
            self._property_schema(node, "\x00-no-such-key") if not patterns else node.get("additionalProperties", True)
        )
        if node.get("unevaluatedProperties") is False and "additionalProperties" not in node:
            additional = False
        if not self.is_empty(additional, base):
            names = node.get("propertyNames")
            if isinstance(names, dict):
                options.append(self.build({"type": "string", **names}, f"{pointer}/propertyNames", 0, base))
            elif names is not False:
                options.append(
                    st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), min_size=1, max_size=8)
                )
        return st.one_of(options) if options else None

    def _array(self, node: dict[str, Any], pointer: str, depth: int, base: str) -> st.SearchStrategy[list[Any]]:
        prefix, rest = item_schemas(node, self.items_array)
        if self.items_array:
            prefix_key = "items"
            rest_where = f"{pointer}/additionalItems" if isinstance(node.get("items"), list) else f"{pointer}/items"
        else:
            prefix_key, rest_where = "prefixItems", f"{pointer}/items"
        if rest is True and node.get("unevaluatedItems") is False:
            rest = False
        min_items = _count(node, "minItems", 0)
        max_items = _count(node, "maxItems", None)
        contains = node.get("contains")
        min_contains = _count(node, "minContains", 1)
        if self._too_large(node, "minItems", pointer) or (
            contains is not None and self._too_large(node, "minContains", pointer)
        ):
            return st.nothing()
        if self.is_empty(rest, base):
            rest = False
        shallow = depth >= self.max_depth
        upper = min_items if shallow else min_items + _EXTRA_ITEMS
        upper = min(upper, max_items) if max_items is not None else upper
        if rest is False:
            upper = min(upper, len(prefix))
        prefix_strategies = [
            self.build(sub, f"{pointer}/{prefix_key}/{i}", depth, base) for i, sub in enumerate(prefix)
        ]
        rest_strategy = self.build(rest, rest_where, depth, base)
        contains_strategy = (
            self.build(merge(rest, self._at(contains, base)), f"{pointer}/contains", depth, base)
            if contains is not None
            else None
        )
        # A second ``contains`` (two allOf parts, SchemaStore's kya) waits in PENDING: one item each.
        more_contains = [
            self.build(merge(rest, self._at(part["contains"], base)), f"{pointer}/contains", depth, base)
            for part in node.get(PENDING, [])
            if isinstance(part, dict) and list(part) == ["contains"]
        ]
        # A contains item that does not fit after the prefix (maxItems, or no items beyond it) takes a
        # prefix position instead, drawn from that position's schema and contains together.
        in_prefix = [
            self.build(merge(sub, self._at(contains, base)), f"{pointer}/contains", depth, base) for sub in prefix
        ] if contains is not None and min_contains > 0 else []  # fmt: skip
        wanted = (min_contains if contains_strategy is not None and min_contains > 0 else 0) + len(more_contains)
        unique = node.get("uniqueItems") is True

        def arrays(draw: Any) -> list[Any]:
            size = draw(st.integers(min(min_items, upper), max(min_items, upper)))
            result = [draw(s) for s in prefix_strategies[:size]]
            room = 0 if rest is False else wanted if max_items is None else max(max_items - len(result), 0)
            needed = [contains_strategy] * (min_contains if contains_strategy is not None and min_contains > 0 else 0)
            for strategy in (needed + more_contains)[:room]:
                result.append(draw(strategy))
            if wanted > room and in_prefix:  # the rest goes into prefix positions (one contains item)
                while len(result) < min(len(prefix), max_items if max_items is not None else len(prefix)):
                    result.append(draw(prefix_strategies[len(result)]))
                if result:
                    result[0] = draw(in_prefix[0])
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

        return _composed(arrays)


@st.composite
def _composed(draw: Any, make: Callable[[Any], Any]) -> Any:
    """``make(draw)``: one ``@composite`` for every node. Hypothesis reads the source of each function
    it decorates (~1 ms), so a decorator per object or array node would cost a big schema seconds."""
    return make(draw)


class _Test:
    """A filter predicate Hypothesis does not read: given a plain function, ``filter`` on numbers
    parses its source looking for bounds to build in (~1 ms per filter); ours never has any."""

    __slots__ = ("test",)

    def __init__(self, test: Callable[[Any], bool]) -> None:
        self.test = test

    def __call__(self, value: Any) -> bool:
        return self.test(value)


_REF_ALONE = (DRAFT4, DRAFT6)  # Ajv, and so our draft-07, applies a $ref's siblings
_IGNORED_KEYS = ("title", "description", "default", "examples", "$comment", "$id", "$schema", "$anchor", "readOnly",
                 "writeOnly", "deprecated", PENDING)  # fmt: skip


def _types_of(node: dict[str, Any]) -> list[str]:
    """The types ``node`` allows: its ``type``, or every JSON type when it has none."""
    declared = node.get("type")
    names = [declared] if isinstance(declared, str) else declared if isinstance(declared, list) else list(_ALL_TYPES)
    result = [n for n in names if isinstance(n, str)]
    if "number" in result and "integer" in result:
        result.remove("integer")  # numbers already draw integers
    return result


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _count(node: dict[str, Any], key: str, default: Any) -> Any:
    value = node.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _required(node: dict[str, Any]) -> list[str]:
    required = node.get("required")
    return list(dict.fromkeys(k for k in required if isinstance(k, str))) if isinstance(required, list) else []


def _numbers_of(node: dict[str, Any], draft4: bool) -> dict[str, Any]:
    """A node's numeric keywords in draft-06 form (draft-04's boolean exclusive bounds rewritten)."""
    leaf: dict[str, Any] = {k: node[k] for k in _NUMBER_KEYS if _is_number(node.get(k))}
    for side in ("Minimum", "Maximum"):
        flag = node.get("exclusive" + side)
        if isinstance(flag, bool):
            bound = leaf.pop(side.lower(), None)
            if flag and bound is not None and draft4:
                leaf["exclusive" + side] = bound
            elif bound is not None:
                leaf[side.lower()] = bound
    return leaf


def _json_number(value: Any) -> Any:
    """A drawn number as JSON text carries it: never -0, and a whole number beyond 2**53 as the float
    JavaScript reads (the filter then judges that number, the one an agent would see)."""
    if isinstance(value, float):
        return value + 0.0
    return float(value) if abs(value) > _SAFE_INT else value


def _within_safe_integers(leaf: dict[str, Any], limit: int = _SAFE_INT) -> dict[str, Any] | None:
    """``leaf``'s bounds narrowed to +-``limit`` (2**53 - 1), or None when they leave no room there."""
    safe = dict(leaf)
    for inclusive, exclusive, edge, tighter in (
        ("minimum", "exclusiveMinimum", -limit, max),
        ("maximum", "exclusiveMaximum", limit, min),
    ):
        given = [safe[k] for k in (inclusive, exclusive) if k in safe]
        if not given or tighter([*given, edge]) == edge:
            safe.pop(exclusive, None)
            safe[inclusive] = edge
    low = safe.get("minimum", safe.get("exclusiveMinimum", -limit))
    high = safe.get("maximum", safe.get("exclusiveMaximum", limit))
    return None if low > limit or high < -limit or low > high else safe


def _plus_half(value: Any) -> float:
    return float(value) + 0.5


def _fractional(value: Any) -> bool:
    return isinstance(value, float) and not value.is_integer()


def _closure(keys: list[str], dependent: dict[str, list[str]]) -> list[str]:
    """``keys`` and every key they bring with them through ``dependentRequired``/``dependencies``."""
    result = list(dict.fromkeys(keys))
    pending = list(result)
    while pending:
        for needed in dependent.get(pending.pop(), []):
            if needed not in result:
                result.append(needed)
                pending.append(needed)
    return result


def _absorb_not(node: dict[str, Any], negated: Any) -> Any:
    """Apply ``not: negated`` to ``node`` where it narrows what the builder draws; what is left of it.

    ``not: {}`` empties the node; ``not: {type: X}`` removes X from its types (``integer`` from
    ``number`` leaves fractions); ``not: {enum/const}`` removes values from its ``enum``; a
    merged ``not: {anyOf: [...]}`` is each part in turn. Anything else stays for the filter.
    """
    if negated is True or negated == {}:
        return False
    if negated is False:
        return True
    if not isinstance(negated, dict):
        return negated
    keys = [k for k in negated if k not in _IGNORED_KEYS]
    if keys == ["anyOf"] and isinstance(negated["anyOf"], list):
        left = []
        for part in negated["anyOf"]:
            rest = _absorb_not(node, part)
            if rest is False:
                return False
            if rest is not True:
                left.append(rest)
        return True if not left else left[0] if len(left) == 1 else {"anyOf": left}
    if keys == ["type"]:
        removed = _types_of(negated)
        if "number" in removed:
            removed.append("integer")
        kept = [t for t in _types_of(node) if t not in removed]
        if "integer" in removed and "number" in kept:
            node[_FRACTIONAL] = True
        node["type"] = kept
        return bool(kept)
    if keys in (["const"], ["enum"]) and ("enum" in node or "const" in node):
        banned = [negated["const"]] if "const" in negated else negated.get("enum")
        if isinstance(banned, list):
            gone = {canonical(v) for v in banned}
            choices = [node.pop("const")] if "const" in node else node.pop("enum")
            node["enum"] = [v for v in choices if canonical(v) not in gone] if isinstance(choices, list) else []
            return True
    return negated


def _negate(condition: Any, beside: Any, *, by_parts: bool = False) -> Any:
    """A schema for values that fail ``condition``, where a cheap exact (or narrower) one exists,
    else ``{"not": condition}`` for the filter. ``beside`` is the node it will be merged into. Object
    keywords hold for every value that is not an object, so only an object can fail them.

    ``by_parts`` (an ``else``) spells out the ways to fail an object condition as ``anyOf`` branches
    (:func:`_negate_object`). ``oneOf`` does not: each branch there is merged with the negation of
    every other one, and branches of branches multiply (SchemaStore's vega and function schemas took
    30 times longer to draw from); the filter rarely rejects there, as branches seldom overlap."""
    if condition is True or condition == {}:
        return False
    if condition is False:
        return True
    if not isinstance(condition, dict):
        return True
    keys = [k for k in condition if k not in _IGNORED_KEYS]
    if keys == ["required"] and isinstance(condition["required"], list):
        # Keys every object beside it has: its required ones and all that they bring along.
        taken = set(_closure(_required(beside), _dependent_required(beside))) if isinstance(beside, dict) else set()
        free = [k for k in condition["required"] if isinstance(k, str) and k not in taken]
        if not free:  # every value beside it that is an object has them all
            return False
        return {"type": "object", "properties": {free[0]: False}}  # one missing key suffices: the first free one
    if keys in (["type"], ["const"], ["enum"]):
        return {"not": {k: condition[k] for k in keys}}
    family = _family(keys)
    if family == "object" and _told_apart(condition, beside):
        return {"type": "object"}  # every object beside it fails condition; every other value passes it
    if by_parts and keys and set(keys) <= {"type", "properties", "required"} and _object_shape(condition):
        return _negate_object(condition, beside)
    if family is not None:  # only a value of that type can fail keywords about that type
        return {"type": family, "not": condition}
    return {"not": condition}


def _facts(node: dict[str, Any], branch: dict[str, Any]) -> dict[str, Any]:
    """What of ``node`` a ``branch`` of it could contradict, cheaply: its ``type``, ``const``/``enum``,
    ``required``, and its ``properties`` entries for the keys ``branch`` names in its own."""
    facts: dict[str, Any] = {k: node[k] for k in ("type", "const", "enum", "required") if k in node}
    mine, theirs = node.get("properties"), branch.get("properties")
    named = [*(theirs if isinstance(theirs, dict) else ()), *_required(branch)]
    if isinstance(mine, dict) and named:
        facts["properties"] = {k: mine[k] for k in named if k in mine}
    return facts


def _object_shape(condition: dict[str, Any]) -> bool:
    """Whether ``condition``'s ``type``/``properties``/``required`` are well-formed enough to negate part by part."""
    required = condition.get("required", [])
    return (
        isinstance(condition.get("properties", {}), dict)
        and isinstance(required, list)
        and all(isinstance(k, str) for k in required)
        and isinstance(condition.get("type", "object"), str | list)
    )


def _property_beside(beside: Any, name: str) -> Any:
    """The ``properties`` entry ``beside`` has for ``name`` (what the negation of its part is merged into)."""
    if isinstance(beside, dict) and isinstance(beside.get("properties"), dict):
        return beside["properties"].get(name, True)
    return True


def _negate_object(condition: dict[str, Any], beside: Any) -> Any:
    """The values failing ``{type, properties, required}``, one ``anyOf`` branch per way to fail it.

    A value fails it when it is not of its type, or is an object missing one required key, or
    holds one property that fails its schema (negated the same way, so a nested
    ``{type: object, required: [k], properties: {k: {const: c}}}`` becomes: not an object, or k
    missing, or k there and not c). Each way is a branch of its own, so an ``else`` beside a
    ``then`` that rules one way out keeps the others, where one ``not`` filter lost every draw.
    Ways ``beside`` already rules out are left out: a wrong type when every type ``beside`` allows
    is the condition's, a missing key that every object ``beside`` has.
    """
    options: list[Any] = []
    if "type" in condition and not _within_types(beside, _types_of(condition)):
        options.append({"not": {"type": condition["type"]}})
    taken = set(_closure(_required(beside), _dependent_required(beside))) if isinstance(beside, dict) else set()
    options += [{"type": "object", "properties": {k: False}} for k in dict.fromkeys(condition.get("required", []))
                if k not in taken]  # fmt: skip
    for name, sub in condition.get("properties", {}).items():
        failing = _negate(sub, _property_beside(beside, name), by_parts=True)
        if failing is not False:
            options.append({"type": "object", "required": [name], "properties": {name: failing}})
    if not options:
        return False
    return options[0] if len(options) == 1 else {"anyOf": options}


def _within_types(schema: Any, types: list[str]) -> bool:
    """Whether every value ``schema`` allows is of one of ``types`` (as far as its ``type`` says)."""
    if not isinstance(schema, dict) or "type" not in schema:
        return False
    allowed = set(types) | ({"integer"} if "number" in types else set())
    return all(name in allowed for name in _types_of(schema))


def _family(keys: list[str]) -> str | None:
    """The one JSON type all of ``keys`` are about (``number`` for numeric keywords), or None."""
    for name, family in _KEYS_OF.items():
        if keys and all(k in family for k in keys):
            return name
    return None


def _told_apart(condition: dict[str, Any], beside: Any) -> bool:
    """Whether no object ``beside`` allows can match ``condition``: a property ``beside`` requires is
    held by ``const``/``enum`` to values ``condition`` does not allow there (a discriminator, as in
    ``{"type": {"const": "TextLine"}}`` against ``{"type": {"const": "ComboBox"}}``)."""
    if not isinstance(beside, dict):
        return False
    mine: dict[str, Any] = beside["properties"] if isinstance(beside.get("properties"), dict) else {}
    theirs: dict[str, Any] = condition["properties"] if isinstance(condition.get("properties"), dict) else {}
    for key in _required(beside):
        allowed, other = _listed(mine.get(key)), _listed(theirs.get(key))
        if (
            allowed is not None
            and other is not None
            and not {canonical(v) for v in allowed} & {canonical(v) for v in other}
        ):
            return True
    return False


def _listed(schema: Any) -> list[Any] | None:
    """The values ``schema`` allows when it lists them (``const`` or ``enum``), else None."""
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return [schema["const"]]
    return schema["enum"] if isinstance(schema.get("enum"), list) else None


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


def _anchored(pattern: Any) -> bool:
    """Whether an ECMA ``pattern`` is written to match the whole string (``^...$``)."""
    return (
        isinstance(pattern, str) and pattern.startswith("^") and pattern.endswith("$") and not pattern.endswith("\\$")
    )


def _matcher(pattern: str) -> Callable[[str], bool]:
    return lambda key: _matches(pattern, key)


def _matches(pattern: str, key: str) -> bool:
    return pattern_matches(pattern, key)  # invalid, or ran past the time bound: not a match


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


def _first_error(validator: Any, value: Any) -> Any:
    """The first error ``validator`` finds in ``value`` (None when valid), or ``("depth",)`` /
    ``("timeout",)`` when it could not finish.

    Validation runs under the CPU deadline of :mod:`json_contracts.schema.budget`: the time left
    of the running check (:func:`~json_contracts.testing.harness.time_left`), else the
    per-document timeout. A schema whose ``$ref``s fan out (2**36 ways through nested ``allOf``)
    makes one validation endless, and a filter that never returns never reaches the check's clock.
    """
    left = time_left()
    token = budget.start(validation_timeout() if left is None else min(left, validation_timeout()))
    try:
        return next(iter(validator.iter_errors(value)), None)
    except RecursionError:
        return ("depth",)
    except budget.ValidationTimeout:
        check_time()  # the check's own time is up: it ends as inconclusive
        return ("timeout",)
    finally:
        budget.finish(token)


def _whole(strategy: st.SearchStrategy[Any], compiled: CompiledSchema, stats: SampleStats) -> st.SearchStrategy[Any]:
    """The final gate: only documents the contract's own validator accepts are yielded."""
    validator = compiled.validator

    def accept(value: Any) -> bool:
        error = _first_error(validator, value)
        if isinstance(error, tuple):
            stats.record(False, (error[0], ""))
            return False
        if error is not None:
            where = "".join("/" + escape_pointer_segment(p) for p in error.schema_path)
            stats.record(False, (str(error.validator), where))
        else:
            stats.record(True, None)
        return error is None

    return strategy.filter(_Test(accept))


def from_schema(
    schema: Any, *, stats: SampleStats | None = None, max_depth: int = 3, dialect: str | None = None
) -> st.SearchStrategy[Any]:
    """Documents valid against ``schema``: draft-04, draft-06, draft-07, 2019-09 or 2020-12, as its
    ``$schema`` says (2020-12 without one), or as ``dialect`` says.

    ``max_depth`` bounds recursion through ``$ref``: past it, objects carry only their required
    keys and arrays their minimum length. Pass a :class:`SampleStats` to learn how much the
    validator filter rejected, and why. The schema is checked and compiled once, here; the
    strategy reuses both for every document.

    Raises:
        InvalidInputError: the schema is not a usable schema of those dialects (the message names
            the problem and where: an unknown ``$schema``, a ``$ref`` to another file, a
            reference loop, an invalid ECMA-262 pattern).
    """
    if schema is False:
        return st.nothing()
    if schema is True:
        schema_dict: dict[str, Any] = {}
    elif isinstance(schema, dict):
        schema_dict = schema
    else:
        raise InvalidInputError("schema must be a JSON object or a boolean")
    if dialect is not None and dialect not in LIBRARY_DIALECTS:
        raise InvalidInputError(f"unknown dialect {dialect!r}: use one of {', '.join(LIBRARY_DIALECTS)}")
    chosen = dialect or detect_library_dialect(schema_dict)
    if isinstance(chosen, Finding):
        raise InvalidInputError(chosen.message)
    problem = check_schema(schema_dict, chosen, meta_schemas=True)  # a $ref to an official meta-schema resolves
    if problem is not None:
        raise InvalidInputError(_refusal(schema_dict, problem))
    compiled = compile_schema(schema_dict, chosen)
    stats = stats or SampleStats()
    return _strategy(_Builder(schema_dict, compiled, max_depth, stats), stats)


def _refusal(schema: dict[str, Any], problem: Finding) -> str:
    """Why ``from_schema`` refuses ``schema``: the schema check's message, said plainly for a reference
    to another file (the schema is not whole, so nothing it allows can be drawn)."""
    where = problem.pointer or "/"
    if where.endswith(("/$ref", "/$dynamicRef")):
        parent, _, keyword = where.rpartition("/")
        node = lookup(schema, parent)[1]
        ref = node.get(keyword) if isinstance(node, dict) else None
        if isinstance(ref, str) and not ref.startswith("#"):
            return (
                f"the schema refers to another file: {keyword} {ref!r} at {where} names a schema that is not in "
                "this one, and from_schema never fetches one; copy that schema into $defs (an embedded $id "
                f"resource is followed) and point at it ({problem.message})"
            )
    return f"{problem.message} (at {where})"


#: The stats the running draw counts into. The built tree is shared (one per contract and depth), so
#: its filters cannot hold a stats object of their own: each strategy handed out sets this around
#: its draws (:func:`_counted_into`).
_STATS: ContextVar[SampleStats | None] = ContextVar("json_contracts_sample_stats", default=None)


@st.composite
def _counted_into(draw: Any, builder: _Builder, strategy: st.SearchStrategy[Any], stats: SampleStats | None) -> Any:
    """``strategy``'s value, with every filter inside it counting into ``stats``."""
    token = _STATS.set(stats)
    try:
        return draw(strategy)
    finally:
        _STATS.reset(token)
        if stats is not None and builder.too_large:
            with stats._lock:
                stats.too_large.update(builder.too_large)


#: One built tree per contract and max_depth, for as long as the contract lives: the checks of a
#: contract (and each repair value) draw from the same strategies, validators and flattened nodes,
#: and Hypothesis keeps what it learnt of them. Keyed by the Contract object, never by its name.
_BUILT_TREES: weakref.WeakKeyDictionary[Contract, dict[int, _Builder]] = weakref.WeakKeyDictionary()
_TREES_LOCK = threading.Lock()


def _builder_of(contract: Contract, max_depth: int) -> _Builder:
    with _TREES_LOCK:
        trees = _BUILT_TREES.setdefault(contract, {})
        builder = trees.get(max_depth)
        if builder is None:
            builder = trees[max_depth] = _Builder(contract.schema, contract.compiled, max_depth)
        return builder


def _strategy(builder: _Builder, stats: SampleStats) -> st.SearchStrategy[Any]:
    root = builder.build(builder.root, "")
    if builder.stats is not None:  # a tree of its own: its filters count into its stats already
        return _whole(root, builder.compiled, stats)
    if root.is_empty:  # known before any draw (the satisfiable check need not search): keep it visible
        with stats._lock:
            stats.too_large.update(builder.too_large)
        return st.nothing()
    # Drawn inside a composite, not as the tree itself: Hypothesis explores a composite's choices
    # differently (small integers come less often), so a tree of its own is drawn bare.
    inner = _counted_into(builder, root, stats)
    strategy: st.SearchStrategy[Any] = _whole(inner, builder.compiled, stats)
    return strategy


def from_contract(contract: Contract, *, stats: SampleStats | None = None, max_depth: int = 3) -> Any:
    """Documents valid against ``contract``'s schema, checked by the contract's own validator.

    Every call for one contract and ``max_depth`` draws from one built tree; ``stats`` counts only
    this strategy's draws."""
    return _strategy(_builder_of(contract, max_depth), stats or SampleStats())


def from_contract_lazily(lookup: Callable[[], Contract], *, max_depth: int = 3) -> st.SearchStrategy[Any]:
    """:func:`from_contract` for a contract ``lookup()`` returns when the first document is drawn.

    Lets ``@given`` sit on a module-level test before the contracts are loaded (the pytest plugin's
    ``contract_documents("support-ticket")``).
    """
    return st.deferred(lambda: from_contract(lookup(), max_depth=max_depth))


def for_subschema(contract: Contract, node: Any, *, max_depth: int = 3) -> st.SearchStrategy[Any]:
    """Values valid against ``node``, a sub-schema of ``contract`` (its ``$ref``s resolve against the root)."""
    builder = _builder_of(contract, max_depth)
    base = builder.root_base  # a node of the root resource, or a new wrapper around such nodes
    return _counted_into(builder, builder.checked(builder.build(node, "", 0, base), node, "", base), None)


def blame_message(stats: SampleStats) -> str:
    """``"73% of drawn documents were rejected, mostly by pattern at /properties/zip/pattern"``."""
    share = round(stats.rejected_share * 100)
    blamed = stats.most_blamed()
    culprit = f", mostly by {blamed[0]} at {blamed[1] or '/'}" if blamed else ""
    return f"{share}% of drawn candidates were rejected{culprit}"
