"""Checking a schema before it is compiled: depth, meta-schema, ``$ref`` targets and ``$ref`` loops.

Every problem is a :class:`~json_contracts.findings.Finding` whose pointer is inside the schema
(the loader places it in the contract file). References never leave the contract: one that
points elsewhere is a problem, never a fetch.
"""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import referencing.exceptions

from json_contracts._json.pointers import escape_pointer_segment, pointer_from_parts
from json_contracts._json.values import nested_too_deep
from json_contracts.findings import Code, Finding
from json_contracts.schema.compiled import META_SCHEMAS, SPECIFICATIONS, dialect_resources
from json_contracts.schema.dialects import meta_errors, schema_problem
from json_contracts.schema.meta_messages import join_sentences, meta_problems
from json_contracts.schema.patterns import regex_problem
from json_contracts.schema.vocabulary import DRAFT4, iter_subschemas

__all__ = ["References", "check_schema", "is_regex_valid", "schema_references"]


# $recursiveRef (2019-09, library only) is always "#": the resource it is in, unless a dynamic
# anchor rebinds it.
_REF_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")
# A schema with hundreds of problems gets the first few, in file order: the message stays readable.
_MAX_SENTENCES = 20


def _ref_hint(ref: str, schema: dict[str, Any]) -> str:
    """Why a reference is not followed, and what to write instead.

    A reference outside the contract is never fetched. A local one that names nothing is most
    often a slip between ``#/definitions/`` and ``#/$defs/`` or a misspelt name, so the closest
    place that exists is suggested.
    """
    if ref.startswith(("http://", "https://", "file:", "//")):
        return "; remote references are never fetched: copy the schema into $defs"
    if not ref.startswith("#"):
        return "; only references inside this contract (#...) are followed: copy the schema into $defs"
    targets = [
        f"#/{group}/{escape_pointer_segment(name)}"
        for group in ("$defs", "definitions")
        if isinstance(schema.get(group), dict)
        for name in schema[group]
    ]
    names = {target.rsplit("/", 1)[-1]: target for target in targets}
    close = difflib.get_close_matches(ref.rsplit("/", 1)[-1], list(names), n=1, cutoff=0.75)
    if close:
        return f"; did you mean {names[close[0]]}?"
    if targets:
        return f"; point it at a schema of this contract, such as {targets[0]}"
    return '; put the schema it names under "$defs" and point at it as #/$defs/<name>'


_SAME_INSTANCE = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies")
_KINDS = {list: "an array", str: "a string", int: "a number", float: "a number", type(None): "null"}


Parts = tuple[str | int, ...]


def _places(schema: Any) -> dict[int, Parts]:
    """Where every object and array in ``schema`` is (its path segments), by identity, found without recursion.

    A reference may point anywhere in the schema, not only at a keyword's sub-schema, so a loop is
    named by the place it reaches, whatever the reference's spelling.
    """
    places: dict[int, Parts] = {}
    stack: list[tuple[Parts, Any]] = [((), schema)]
    while stack:
        parts, value = stack.pop()
        if id(value) in places:
            continue
        places[id(value)] = parts
        if isinstance(value, dict):
            stack.extend(((*parts, key), sub) for key, sub in value.items())
        elif isinstance(value, list):
            stack.extend(((*parts, i), sub) for i, sub in enumerate(value))
    return places


class _RefGraph:
    """Every schema object the validator can reach, each ``$ref`` resolved as the validator resolves it.

    Resolution goes through the same ``referencing`` registry the validator uses (percent-decoding,
    ``~0``/``~1``, ``$id`` bases, ``$anchor``), so a loop is found however it is spelt. Objects are
    known by identity: a reference into a place no keyword owns (``#/$defs/x/notAKeyword``) reaches
    an object the keyword walk never meets, which is then walked too. Each object is walked once,
    so the work is linear in the schema's size however often it is referenced.
    """

    def __init__(self, schema: dict[str, Any], dialect: str, *, meta_schemas: bool = False) -> None:
        self.schema = schema
        self.spec = SPECIFICATIONS[dialect]
        self.id_keyword = "id" if dialect == DRAFT4 else "$id"
        self.root = self.spec.create_resource(schema)
        # Crawled once, so each $anchor or $id lookup is a dictionary read, not a walk of the schema;
        # every resource read in the contract's dialect, as the validator reads it.
        registry, self.originals = dialect_resources(schema, dialect)
        if meta_schemas:  # the official meta-schemas, bundled: the schema's own resources win
            registry = META_SCHEMAS.combine(registry)
        self.resolver = registry.resolver(base_uri=self.root.id() or "")
        self.places = _places(schema)
        self.targets: dict[int, list[Any]] = {}  # id -> what its $ref and $dynamicRef resolve to
        self.nodes: dict[int, dict[str, Any]] = {}  # every schema object walked, in walk order
        # id -> what the validator applies to the same value: (target, the keyword that refers to it or None)
        self.edges: dict[int, list[tuple[dict[str, Any], str | None]]] = {}

    def pointer(self, node: Any) -> str:
        return pointer_from_parts(self.places.get(id(node), ()))

    def walk(self) -> Finding | None:
        """Walk from the root, then from every referenced object not yet walked; the first reference
        the validator could not follow is the problem."""
        pending: deque[tuple[dict[str, Any], Any]] = deque([(self.schema, self.resolver)])
        while pending:
            start, resolver = pending.popleft()
            if id(start) in self.nodes:
                continue
            stack: list[tuple[Any, Any, bool]] = [(start, resolver, False)]
            while stack:
                node, resolver, below = stack.pop()
                if not isinstance(node, dict) or id(node) in self.nodes:
                    continue
                if below and isinstance(node.get(self.id_keyword), str):
                    resolver = resolver.in_subresource(self.spec.create_resource(node))
                self.nodes[id(node)] = node
                edges = self.edges.setdefault(id(node), [])
                for keyword in _REF_KEYWORDS:  # $dynamicRef resolves like $ref when no dynamic anchor rebinds it
                    ref = node.get(keyword)
                    if not isinstance(ref, str):
                        continue
                    resolved, problem = self._follow(node, keyword, ref, resolver)
                    if problem is not None:
                        return problem
                    target = self.originals.get(id(resolved.contents), resolved.contents)
                    self.targets.setdefault(id(node), []).append(target)
                    if isinstance(target, dict):
                        edges.append((target, keyword))
                        if id(target) not in self.nodes:
                            pending.append((target, resolved.resolver))
                children = list(iter_subschemas(node))
                edges.extend(
                    (sub, None) for parts, sub in children if parts[0] in _SAME_INSTANCE and isinstance(sub, dict)
                )
                stack.extend((sub, resolver, True) for _, sub in reversed(children))
        return None

    def _follow(self, node: dict[str, Any], keyword: str, ref: str, resolver: Any) -> tuple[Any, Finding | None]:
        """What ``ref`` resolves to (contents and the resolver there), or why the validator could not follow it."""
        where = self.pointer(node) + "/" + keyword
        try:
            resolved = resolver.lookup(ref)
        except (referencing.exceptions.Unresolvable, ValueError, TypeError, LookupError):
            # ValueError: a name where a pointer steps into an array (#/allOf/x), which the validator cannot read.
            base = self.root.id() or "#"
            message = f"Invalid JSON Schema: can't resolve reference {ref} from id {base}{_ref_hint(ref, self.schema)}"
            return None, schema_problem(message, where)
        if isinstance(resolved.contents, (dict, bool)):
            return resolved, None
        kind = _KINDS.get(type(resolved.contents), "a value")
        return None, schema_problem(
            f"Invalid JSON Schema: reference {ref} points at {kind}, not a schema; point it at a schema "
            "(an object, true or false), such as one under $defs",
            where,
        )

    def cycle(self) -> Finding | None:
        """A loop of references and keywords that apply to the same value, never consuming any of it.

        Validation of such a schema never ends (``{"not": {"$ref": "#"}}``); recursion through
        ``properties`` or ``items`` reads a smaller part of the document each time and is fine.
        """
        state: dict[int, int] = {}  # 1 = on the current path, 2 = done
        for start in self.nodes.values():
            if id(start) in state:
                continue
            stack: list[tuple[dict[str, Any], Iterator[tuple[dict[str, Any], str | None]]]] = [
                (start, iter(self.edges.get(id(start), ())))
            ]
            state[id(start)] = 1
            while stack:
                node, pending = stack[-1]
                step = next(pending, None)
                if step is None:
                    state[id(node)] = 2
                    stack.pop()
                    continue
                following, keyword = step
                if state.get(id(following)) == 1:
                    pointer = self.pointer(node)
                    if keyword is not None:
                        pointer += "/" + keyword
                    elif "$ref" in node:
                        pointer += "/$ref"
                    return schema_problem(
                        f"Invalid JSON Schema: {keyword or '$ref'} cycle through #{self.pointer(following)} never "
                        "reaches properties or items, so validation would never end; make the recursion go "
                        "through a property or an item",
                        pointer,
                    )
                if id(following) not in state and id(following) in self.nodes:
                    state[id(following)] = 1
                    stack.append((following, iter(self.edges.get(id(following), ()))))
        return None


@dataclass(frozen=True)
class References:
    """What each ``$ref`` and ``$dynamicRef`` of a checked schema resolves to, as the validator resolves it.

    Lint follows references with it, so a walk over the schema and an estimate of a validation's
    work reach exactly what the validator would, however a reference is spelt.
    """

    targets: Mapping[int, Sequence[Any]]  # id(schema object) -> the schemas its references resolve to
    places: Mapping[int, Parts]  # id(object or array in the schema) -> its path segments

    def of(self, node: dict[str, Any]) -> Sequence[Any]:
        return self.targets.get(id(node), ())

    def parts(self, node: Any) -> Parts | None:
        return self.places.get(id(node))


def schema_references(schema: dict[str, Any], dialect: str) -> References:
    """The references of ``schema`` (one that passed :func:`check_schema`), resolved; linear in its size."""
    graph = _RefGraph(schema, dialect)
    graph.walk()
    return References(graph.targets, graph.places)


def _depth_problem(schema: Any, limit: int) -> Finding | None:
    stack: list[tuple[str, Any, int]] = [("", schema, 1)]
    while stack:
        pointer, node, depth = stack.pop()
        if depth > limit:
            message = nested_too_deep("sub-schemas", limit, "move repeated parts into $defs", verb="are")
            return schema_problem(f"Invalid JSON Schema: {message}", pointer)
        if isinstance(node, dict):
            stack.extend((pointer + pointer_from_parts(p), sub, depth + 1) for p, sub in iter_subschemas(node))
    return None


def check_schema(
    schema: dict[str, Any], dialect: str, *, max_depth: int = 64, meta_schemas: bool = False
) -> Finding | None:
    """Why ``schema`` cannot be compiled, or None.

    ``meta_schemas`` lets a ``$ref`` name an official meta-schema (``from_schema``: the validator
    reads them offline). A contract's check leaves it off, so the loader's verdicts stay the
    TypeScript server's.

    Meta-schema errors become one sentence per problem (:mod:`.meta_messages`) after the
    TypeScript server's ``Invalid JSON Schema:`` prefix, pointing at the first problem in the file.
    """
    problem = _depth_problem(schema, max_depth)
    if problem is not None:
        return problem
    try:
        errors = meta_errors(schema, dialect)
    except RecursionError:
        return schema_problem("Invalid JSON Schema: the schema is nested too deeply to check; flatten it")
    if errors:
        problems = meta_problems(schema, errors, dialect, is_regex_valid)
        shown = [p.sentence for p in problems[:_MAX_SENTENCES]]
        if len(problems) > _MAX_SENTENCES:
            shown.append(f"{len(problems) - _MAX_SENTENCES} more problems are not shown; fix these first")
        message = "Invalid JSON Schema: " + join_sentences(shown)
        first = problems[0]
        return schema_problem(message, first.pointer, Code.INVALID_PATTERN if first.regex else Code.INVALID_SCHEMA)
    graph = _RefGraph(schema, dialect, meta_schemas=meta_schemas)
    return graph.walk() or graph.cycle()


def is_regex_valid(pattern: str) -> str | None:
    """None when ``pattern`` is valid ECMA-262, else the regex engine's reason.

    A long pattern is compiled in the time-bounded worker: ``regress`` can crash the process on one.
    """
    return regex_problem(pattern)
