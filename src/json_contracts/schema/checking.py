"""Checking a schema before it is compiled: depth, meta-schema, ``$ref`` targets and ``$ref`` loops.

Every problem is a :class:`~json_contracts.findings.Finding` whose pointer is inside the schema
(the loader places it in the contract file). References never leave the contract: one that
points elsewhere is a problem, never a fetch.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

import referencing
import referencing.exceptions
import regress

from json_contracts._json.pointers import escape_pointer_segment, pointer_from_parts
from json_contracts._json.values import nested_too_deep
from json_contracts.findings import Code, Finding
from json_contracts.schema.compiled import OFFLINE_REGISTRY, SPECIFICATIONS
from json_contracts.schema.dialects import meta_errors, schema_problem
from json_contracts.schema.formats import ecma_regex
from json_contracts.schema.meta_messages import join_sentences, meta_problems
from json_contracts.schema.vocabulary import iter_subschemas

__all__ = ["check_schema", "is_regex_valid"]


_REF_KEYWORDS = ("$ref", "$dynamicRef")
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


def _unresolvable_refs(schema: dict[str, Any], dialect: str) -> Iterator[Finding]:
    spec = SPECIFICATIONS[dialect]
    root = referencing.Resource.from_contents(schema, default_specification=spec)
    registry = OFFLINE_REGISTRY.with_resource(root.id() or "", root)
    resolver = registry.resolver_with_root(root)

    def walk(node: Any, parts: tuple[str | int, ...], resolver: Any) -> Iterator[Finding]:
        if not isinstance(node, dict):
            return
        if parts and isinstance(node.get("$id"), str):
            resolver = resolver.in_subresource(referencing.Resource.from_contents(node, default_specification=spec))
        for keyword in _REF_KEYWORDS:  # $dynamicRef resolves like $ref when no dynamic anchor rebinds it
            ref = node.get(keyword)
            if not isinstance(ref, str):
                continue
            try:
                resolver.lookup(ref)
            except referencing.exceptions.Unresolvable:
                base = root.id() or "#"
                yield schema_problem(
                    f"Invalid JSON Schema: can't resolve reference {ref} from id {base}{_ref_hint(ref, schema)}",
                    pointer_from_parts((*parts, keyword)),
                )
        for sub_parts, sub in iter_subschemas(node):
            yield from walk(sub, parts + sub_parts, resolver)

    yield from walk(schema, (), resolver)


_SAME_INSTANCE = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies")


def _schema_nodes(schema: Any) -> dict[str, Any]:
    """Every schema object by JSON pointer, found without recursion."""
    nodes: dict[str, Any] = {}
    stack: list[tuple[str, Any]] = [("", schema)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, dict) and pointer not in nodes:
            nodes[pointer] = node
            stack.extend((pointer + pointer_from_parts(parts), sub) for parts, sub in iter_subschemas(node))
    return nodes


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


def _cycle_problem(schema: dict[str, Any]) -> Finding | None:
    """A ``$ref`` loop that returns to the same place without consuming any of the document.

    Validation of such a schema never ends (``{"not": {"$ref": "#"}}``); recursion through
    ``properties`` or ``items`` is fine and is not reported.
    """
    nodes = _schema_nodes(schema)

    def edges(pointer: str, node: dict[str, Any]) -> Iterator[str]:
        ref = node.get("$ref")
        if isinstance(ref, str) and (ref == "#" or ref.startswith("#/")):
            yield ref[1:]
        for parts, _ in iter_subschemas(node):
            if parts[0] in _SAME_INSTANCE:
                yield pointer + pointer_from_parts(parts)

    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    for start in nodes:
        if start in state:
            continue
        stack: list[tuple[str, Iterator[str]]] = [(start, edges(start, nodes[start]))]
        state[start] = 1
        while stack:
            pointer, pending = stack[-1]
            following = next(pending, None)
            if following is None:
                state[pointer] = 2
                stack.pop()
            elif following in nodes and state.get(following) == 1:
                return schema_problem(
                    f"Invalid JSON Schema: $ref cycle through #{following} never reaches properties or "
                    "items, so validation would never end; make the recursion go through a property or an item",
                    pointer + "/$ref" if "$ref" in nodes[pointer] else pointer,
                )
            elif following in nodes and following not in state:
                state[following] = 1
                stack.append((following, edges(following, nodes[following])))
    return None


def check_schema(schema: dict[str, Any], dialect: str, *, max_depth: int = 64) -> Finding | None:
    """Why ``schema`` cannot be compiled, or None.

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
    for problem in _unresolvable_refs(schema, dialect):
        return problem
    return _cycle_problem(schema)


def is_regex_valid(pattern: str) -> str | None:
    """None when ``pattern`` is valid ECMA-262, else the regex engine's reason."""
    try:
        ecma_regex(pattern)
    except regress.RegressError as exc:
        return str(exc)
    return None
