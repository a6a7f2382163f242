"""Compiled validators: one per schema, cached, resolving ``$ref`` only inside the contract.

The registry refuses every retrieval, so a ``$ref`` to a URL or a file is never fetched. Every
keyword of the validator classes used here checks the per-document deadline before it runs
(:mod:`json_contracts.schema.budget`), so no schema can hold a validation past it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import referencing
import referencing.exceptions
import referencing.jsonschema
from jsonschema import ValidationError, validators
from jsonschema.protocols import Validator

from json_contracts._json.pointers import pointer_from_parts
from json_contracts.schema.ajv import VALIDATOR_CLASSES, ajv_ordered
from json_contracts.schema.budget import bounded
from json_contracts.schema.formats import FORMAT_CHECKER
from json_contracts.schema.vocabulary import DRAFT7, DRAFT202012

__all__ = ["OFFLINE_REGISTRY", "SPECIFICATIONS", "CompiledSchema", "compile_schema", "error_pointer"]

SPECIFICATIONS = {DRAFT7: referencing.jsonschema.DRAFT7, DRAFT202012: referencing.jsonschema.DRAFT202012}


def _refuse(uri: str) -> referencing.Resource[Any]:
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


OFFLINE_REGISTRY: referencing.Registry[Any] = referencing.Registry(retrieve=_refuse)  # type: ignore[call-arg]


# --- compiling ---------------------------------------------------------------------------------


# The keywords that can make one document cost more than one pass over it: they apply several
# sub-schemas (or one sub-schema again, through a reference) to the same value. Each checks the
# deadline before it runs; every other keyword applies at most one sub-schema per value, or none,
# and costs at most a pass over its own value, and our own loops over items and keys check the
# deadline every 64 turns. Leaving the clock out of those, the most frequent keywords, keeps its
# cost on small documents low.
_MULTIPLYING_KEYWORDS = frozenset({
    "$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "not", "if", "dependentSchemas", "dependencies",
    "contains", "patternProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
})  # fmt: skip


def _bounded_class(cls: Any) -> Any:
    """``cls`` with the keywords that multiply work checking the deadline first."""
    keywords = {name: bounded(kw) if name in _MULTIPLYING_KEYWORDS else kw for name, kw in cls.VALIDATORS.items()}
    return validators.extend(cls, validators=keywords)  # type: ignore[no-untyped-call]


_BOUNDED_CLASSES: dict[str, Any] = {dialect: _bounded_class(cls) for dialect, cls in VALIDATOR_CLASSES.items()}


@dataclass(frozen=True, eq=False)
class CompiledSchema:
    """A ready validator for one schema, built once and reused for every document."""

    dialect: str
    validator: Validator

    def for_subschema(self, node: Any) -> Validator:
        """A validator for a sub-schema of this schema (its ``$ref``s resolve against the root)."""
        return self.validator.evolve(schema=ajv_ordered(node, self.dialect))


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
    validator = cls(ajv_ordered(schema, dialect), format_checker=FORMAT_CHECKER, registry=OFFLINE_REGISTRY)
    compiled = CompiledSchema(dialect, validator)
    if cache_key is not None:
        while len(_CACHE) >= _CACHE_LIMIT:
            try:
                _CACHE.pop(next(iter(_CACHE)), None)
            except (StopIteration, RuntimeError):  # emptied, or resized while we looked, by another thread
                break
        _CACHE[(dialect, cache_key)] = compiled
    return compiled
