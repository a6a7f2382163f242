"""Compiled validators: one per schema, cached, resolving ``$ref`` only inside the schema.

The registry refuses every retrieval, so a ``$ref`` to a URL or a file is never fetched (the
official meta-schemas, bundled with jsonschema, are the only resources a schema does not hold).
Every keyword of the validator classes used here checks the per-document deadline before it runs
(:mod:`json_contracts.schema.budget`), so no schema can hold a validation past it. The dialect
given to :func:`compile_schema` decides the class of every validator built from it, whatever
``$schema`` a sub-schema declares (:func:`json_contracts.schema.ajv.keep_dialect`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import referencing
import referencing.exceptions
import referencing.jsonschema
from jsonschema import ValidationError, validators
from jsonschema.protocols import Validator
from jsonschema_specifications import REGISTRY as META_SCHEMAS

from json_contracts._json.pointers import pointer_from_parts
from json_contracts.schema.ajv import VALIDATOR_CLASSES, ajv_ordered, keep_dialect
from json_contracts.schema.budget import bounded
from json_contracts.schema.formats import FORMAT_CHECKER
from json_contracts.schema.vocabulary import DRAFT4, DRAFT6, DRAFT7, DRAFT201909, DRAFT202012, iter_subschemas

__all__ = [
    "META_SCHEMAS",
    "OFFLINE_REGISTRY",
    "SPECIFICATIONS",
    "CompiledSchema",
    "compile_schema",
    "dialect_resources",
    "error_pointer",
]


def _schemas_only(spec: referencing.Specification[Any]) -> referencing.Specification[Any]:
    """``spec`` crawling only values that are schemas: referencing reads every value of a mixed
    ``dependencies`` map (``{"begin": {...}, "end": ["begin"]}``) as a schema, and raises on the list."""
    inner = spec.subresources_of

    def subresources_of(contents: Any) -> Iterator[Any]:
        return (each for each in inner(contents) if isinstance(each, dict | bool))

    return referencing.Specification(  # type: ignore[call-arg]  # attrs' generated __init__
        name=spec.name,
        id_of=spec.id_of,
        subresources_of=subresources_of,
        maybe_in_subresource=spec.maybe_in_subresource,
        anchors_in=lambda _self, contents: spec.anchors_in(contents),
    )


SPECIFICATIONS = {
    DRAFT4: _schemas_only(referencing.jsonschema.DRAFT4),
    DRAFT6: _schemas_only(referencing.jsonschema.DRAFT6),
    DRAFT7: _schemas_only(referencing.jsonschema.DRAFT7),
    DRAFT201909: _schemas_only(referencing.jsonschema.DRAFT201909),
    DRAFT202012: _schemas_only(referencing.jsonschema.DRAFT202012),
}


def _refuse(uri: str) -> referencing.Resource[Any]:
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


OFFLINE_REGISTRY: referencing.Registry[Any] = referencing.Registry(retrieve=_refuse)  # type: ignore[call-arg]

# What a failed lookup raises: nothing there (Unresolvable), or a pointer that steps into an
# array by a name or into a string (ValueError, TypeError, LookupError).
_LOOKUP_FAILURES = (referencing.exceptions.Unresolvable, ValueError, TypeError, LookupError)


# --- compiling ---------------------------------------------------------------------------------


# The keywords that can make one document cost more than one pass over it: they apply several
# sub-schemas (or one sub-schema again, through a reference) to the same value. Each checks the
# deadline before it runs; every other keyword applies at most one sub-schema per value, or none,
# and costs at most a pass over its own value, and our own loops over items and keys check the
# deadline every 64 turns. Leaving the clock out of those, the most frequent keywords, keeps its
# cost on small documents low.
_MULTIPLYING_KEYWORDS = frozenset({
    "$ref", "$dynamicRef", "$recursiveRef", "allOf", "anyOf", "oneOf", "not", "if", "dependentSchemas",
    "dependencies", "contains", "patternProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
})  # fmt: skip


def _bounded_class(cls: Any) -> Any:
    """``cls`` with the keywords that multiply work checking the deadline first."""
    keywords = {name: bounded(kw) if name in _MULTIPLYING_KEYWORDS else kw for name, kw in cls.VALIDATORS.items()}
    return keep_dialect(validators.extend(cls, validators=keywords))  # type: ignore[no-untyped-call]


_BOUNDED_CLASSES: dict[str, Any] = {dialect: _bounded_class(cls) for dialect, cls in VALIDATOR_CLASSES.items()}


@dataclass(frozen=True)
class _Index:
    """Where the compiled copy of each schema object is, and the other way round, by identity.

    Built on the first call that needs it (the loader and the server only validate), from one walk
    of the schema beside its copy.
    """

    copies: dict[int, tuple[Any, Any]]  # id(schema object) -> (it, its compiled copy)
    originals: dict[int, Any]  # id(compiled copy) -> the schema object (False for the false marker)

    @staticmethod
    def build(source: Any, ordered: Any) -> _Index:
        copies: dict[int, tuple[Any, Any]] = {}
        originals: dict[int, Any] = {}
        pending = [(source, ordered)]
        while pending:
            node, copy = pending.pop()
            originals[id(copy)] = node
            if not isinstance(node, dict) or id(node) in copies:
                continue
            copies[id(node)] = (node, copy)
            for parts, sub in iter_subschemas(node):
                target = copy
                try:
                    for part in parts:
                        target = target[part]
                except (KeyError, IndexError, TypeError):  # the caller changed the schema since: no copy known
                    continue
                pending.append((sub, target))
        return _Index(copies, originals)


@dataclass(frozen=True, eq=False)
class CompiledSchema:
    """A ready validator for one schema, built once and reused for every document.

    Bases are URIs as jsonschema joins them: ``root_base`` is the root's ``$id`` (``id`` in
    draft-04) or ``""``; a base passed to or returned by the methods below is the base that applies
    inside the sub-schema it goes with (its own ``$id`` already joined, as ``base_of`` does).
    """

    dialect: str
    validator: Validator
    source: Any = None  # the schema as the caller gave it (None: the validator's own copy)
    registry: referencing.Registry[Any] | None = field(default=None, repr=False)
    _lazy: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def root_base(self) -> str:
        """The base URI of the root schema: its ``$id`` (``id`` in draft-04), or ``""``."""
        return self.base_of(self._source, "")

    @property
    def _source(self) -> Any:
        return self.validator.schema if self.source is None else self.source

    def _index(self) -> _Index:
        index = self._lazy.get("index")
        if index is None:  # two threads may both build it; either result is the same
            index = self._lazy["index"] = _Index.build(self._source, self.validator.schema)
        return index

    def _registry(self) -> referencing.Registry[Any]:
        """Every resource a reference of this schema may reach: its own and the bundled meta-schemas."""
        if self.registry is not None:
            return self.registry
        registry = self._lazy.get("registry")
        if registry is None:
            registry = self._lazy["registry"] = META_SCHEMAS.combine(self._own_registry())
        return registry  # type: ignore[no-any-return]

    def for_subschema(self, node: Any, base_uri: str | None = None) -> Validator:
        """A validator for ``node``, a sub-schema of this schema, whose relative references resolve
        from ``base_uri`` (the base inside ``node``; None: the root's).

        A node of this schema is validated by its compiled copy (a dictionary lookup, no copy of
        its subtree); any other node is put in Ajv's order first.
        """
        found = self._index().copies.get(id(node)) if isinstance(node, dict) else None
        ordered = found[1] if found is not None and found[0] is node else ajv_ordered(node, self.dialect)
        if base_uri is None:
            return self.validator.evolve(schema=ordered)
        resolver = self._registry().resolver(base_uri=base_uri)
        return self.validator.evolve(schema=ordered, _resolver=resolver)

    def resolve(self, ref: str, base_uri: str | None = None) -> tuple[Any, str] | None:
        """The sub-schema ``ref`` names, seen from ``base_uri`` (None: the root's), and the base
        inside it; None when it names nothing this schema holds (another file or URL, a missing
        place, a value that is not a schema).

        Local JSON pointers, embedded ``$id`` resources (absolute or relative to the base),
        ``$anchor`` names and draft-07's ``$id: "#name"`` are followed, as the validator follows
        them. Never fetches. The sub-schema is the caller's own object (``False`` for a false one).
        """
        base = self.root_base if base_uri is None else base_uri
        resolver = self._own_registry().resolver(base_uri=base)
        try:
            resolved = resolver.lookup(ref)
        except _LOOKUP_FAILURES:
            return None
        contents = resolved.contents
        if not isinstance(contents, (dict, bool)):
            return None
        original = self._index().originals.get(id(contents), contents)
        return original, resolved.resolver._base_uri

    def base_of(self, node: Any, base_uri: str) -> str:
        """The base URI inside ``node``: its ``$id`` (draft-04: ``id``) joined onto ``base_uri``,
        or ``base_uri`` when it sets none (draft-06 and draft-07 read an ``$id`` that is only a
        fragment, or sits beside ``$ref``, as no base)."""
        if not isinstance(node, dict):
            return base_uri
        own = SPECIFICATIONS[self.dialect].create_resource(node).id()
        return base_uri if own is None else urljoin(base_uri, own)

    def _own_registry(self) -> referencing.Registry[Any]:
        """The resources of this schema alone: the bundled meta-schemas are not part of it."""
        registry = self._lazy.get("own")
        if registry is None:
            registry = self._lazy["own"] = _crawled(self.validator.schema, self.dialect)
        return registry


def _crawled(schema: Any, dialect: str) -> referencing.Registry[Any]:
    """A registry holding ``schema`` and every resource and anchor inside it, found once, read in
    ``dialect`` whatever ``$schema`` a resource declares (the compiled copy declares none).

    jsonschema's own registry holds the root alone and crawls the whole schema again at every
    lookup of an ``$id`` or an anchor that is not the root's.
    """
    root = SPECIFICATIONS[dialect].create_resource(schema)
    registry: referencing.Registry[Any] = OFFLINE_REGISTRY.with_resource(root.id() or "", root).crawl()
    return registry


def _declares_schema_below(schema: dict[str, Any]) -> bool:
    stack = [sub for _, sub in iter_subschemas(schema)]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "$schema" in node:
                return True
            stack.extend(sub for _, sub in iter_subschemas(node))
    return False


def dialect_resources(schema: dict[str, Any], dialect: str) -> tuple[referencing.Registry[Any], dict[int, Any]]:
    """Every resource and anchor of ``schema`` read in ``dialect``, as the compiled validator reads
    them, whatever ``$schema`` a sub-schema declares; and, when one declares it, the map from each
    object of the copy they were read from (by ``id``) back to the schema's own (else empty).

    ``referencing`` reads a resource in the dialect it declares: a checker using it directly
    accepted references the validator could never follow, and refused some it follows.
    """
    if not _declares_schema_below(schema):
        return _crawled(schema, dialect), {}
    ordered = ajv_ordered(schema, dialect)
    return _crawled(ordered, dialect), _Index.build(schema, ordered).originals


def error_pointer(error: ValidationError) -> str:
    """Where a jsonschema error is, as a JSON pointer into the instance (Ajv's ``instancePath``)."""
    return pointer_from_parts(error.absolute_path)


_CACHE: dict[tuple[str, str], CompiledSchema] = {}
_CACHE_LIMIT = 1024


def compile_schema(schema: dict[str, Any], dialect: str, *, cache_key: str | None = None) -> CompiledSchema:
    """A validator for an already checked schema; cached by ``cache_key`` (e.g. the schema hash).

    Safe from several threads (a server reloads off its event loop while library users load in
    theirs): every cache step is one dictionary operation, and an entry another thread evicted
    first is simply not there.
    """
    if cache_key is not None:
        cached = _CACHE.get((dialect, cache_key))
        if cached is not None:
            return cached
    cls = _BOUNDED_CLASSES[dialect]
    ordered = ajv_ordered(schema, dialect)
    own = _crawled(ordered, dialect)
    registry = META_SCHEMAS.combine(own)  # the schema's own resources win over a bundled meta-schema
    root_base = SPECIFICATIONS[dialect].create_resource(ordered).id() or ""
    validator = cls(
        ordered,
        format_checker=FORMAT_CHECKER,
        registry=registry,
        _resolver=registry.resolver(base_uri=root_base),
    )
    compiled = CompiledSchema(dialect, validator, source=schema, registry=registry, _lazy={"own": own})
    if cache_key is not None:
        while len(_CACHE) >= _CACHE_LIMIT:
            try:
                _CACHE.pop(next(iter(_CACHE)), None)
            except (StopIteration, RuntimeError):  # emptied, or resized while we looked, by another thread
                break
        _CACHE[(dialect, cache_key)] = compiled
    return compiled
