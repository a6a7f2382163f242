"""Which JSON Schema dialect a schema is written in, and whether it is valid against that dialect.

A contract is draft-07 or 2020-12 (the TypeScript server's choice, :func:`detect_dialect`). The
library also reads draft-04, draft-06 and 2019-09 for the schemas an app test brings
(:func:`detect_library_dialect`). A schema is checked against its dialect's official meta-schema,
bundled with jsonschema and never fetched, with our ``format: regex`` (ECMA-262).
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator, ValidationError

from json_contracts.findings import Code, Finding
from json_contracts.schema.ajv import META_VALIDATOR_CLASSES
from json_contracts.schema.compiled import OFFLINE_REGISTRY
from json_contracts.schema.formats import FORMAT_CHECKER
from json_contracts.schema.vocabulary import DRAFT4, DRAFT6, DRAFT7, DRAFT201909, DRAFT202012

__all__ = [
    "LIBRARY_DIALECTS",
    "detect_dialect",
    "detect_library_dialect",
    "flat_meta_schema_2020_12",
    "meta_errors",
    "schema_problem",
]

_META_URIS = {
    DRAFT7: {"http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"},
    DRAFT202012: {
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/schema#",
    },
}


def schema_problem(message: str, pointer: str = "", code: Code = Code.INVALID_SCHEMA) -> Finding:
    """Why a schema cannot be used, at ``pointer`` inside the schema; the loader places it in the file."""
    return Finding(code=code, severity="error", message=message, pointer=pointer)


def detect_dialect(schema: dict[str, Any]) -> str | Finding:
    """``draft-07`` or ``2020-12`` (the default, as in the TypeScript server), or why neither applies.

    The returned finding's pointer is inside the schema.
    """
    declared = schema.get("$schema")
    if declared is None and "$schema" not in schema:
        return DRAFT202012
    if not isinstance(declared, str):
        return schema_problem("Invalid JSON Schema: $schema must be a string when present", "/$schema")
    lowered = declared.lower()
    dialect = DRAFT7 if "draft-07" in lowered else DRAFT202012 if "2020-12" in lowered else None
    if dialect is None:
        return schema_problem(
            f"Unsupported JSON Schema dialect: {declared}. Supported dialects are draft-07 and 2020-12.",
            "/$schema",
        )
    if declared not in _META_URIS[dialect]:
        canonical_uri = sorted(_META_URIS[dialect])[0]
        return schema_problem(
            f"Invalid JSON Schema: unknown $schema URI {declared}; use {canonical_uri}",
            "/$schema",
        )
    return dialect


#: The dialects the library reads, each with the ``$schema`` URI it is usually declared by.
LIBRARY_DIALECTS: dict[str, str] = {
    DRAFT4: "http://json-schema.org/draft-04/schema#",
    DRAFT6: "http://json-schema.org/draft-06/schema#",
    DRAFT7: "http://json-schema.org/draft-07/schema#",
    DRAFT201909: "https://json-schema.org/draft/2019-09/schema",
    DRAFT202012: "https://json-schema.org/draft/2020-12/schema",
}
# Each URI without its scheme and its empty fragment: http and https, with or without "#", name the
# same dialect (jsonschema reads the spelling its meta-schema uses, with or without "#"; schemas
# in the wild use either scheme).
_LIBRARY_URIS = {uri.split("://", 1)[1].removesuffix("#"): dialect for dialect, uri in LIBRARY_DIALECTS.items()}


def detect_library_dialect(schema: dict[str, Any]) -> str | Finding:
    """The dialect of a schema handed to the library: one of :data:`LIBRARY_DIALECTS` (2020-12 without
    ``$schema``, as for contracts), or why none applies.

    The returned finding's pointer is inside the schema. Contracts keep :func:`detect_dialect`.
    """
    declared = schema.get("$schema")
    if declared is None and "$schema" not in schema:
        return DRAFT202012
    if not isinstance(declared, str):
        return schema_problem("Invalid JSON Schema: $schema must be a string when present", "/$schema")
    scheme, _, rest = declared.partition("://")
    dialect = _LIBRARY_URIS.get(rest.removesuffix("#")) if scheme in ("http", "https") else None
    if dialect is None:
        known = ", ".join(f"{name} ({uri})" for name, uri in LIBRARY_DIALECTS.items())
        return schema_problem(
            f"Unsupported JSON Schema dialect: {declared}. Supported dialects are {known}; "
            "set $schema to one of these URIs",
            "/$schema",
        )
    return dialect


def meta_errors(schema: dict[str, Any], dialect: str) -> list[ValidationError]:
    """The schema's errors against its dialect's meta-schema (pattern checks use ECMA-262).

    A 2020-12 schema is first checked against :func:`flat_meta_schema_2020_12`, which accepts
    exactly what the official meta-schema accepts about seven times faster; only a schema it
    rejects is walked again by the official one, for the errors in their usual order.
    """
    if dialect == DRAFT202012:
        flat = _META_VALIDATORS.get("flat")
        if flat is None:
            flat = _META_VALIDATORS["flat"] = Draft202012Validator(
                flat_meta_schema_2020_12(), format_checker=FORMAT_CHECKER
            )
        if flat.is_valid(schema):
            return []
    meta = _META_VALIDATORS.get(dialect)
    if meta is None:
        cls = META_VALIDATOR_CLASSES[dialect]
        meta = _META_VALIDATORS[dialect] = cls(
            cls.META_SCHEMA, format_checker=FORMAT_CHECKER, registry=OFFLINE_REGISTRY
        )
    return list(meta.iter_errors(schema))


_META_VALIDATORS: dict[str, Any] = {}
_META_2020_12 = "https://json-schema.org/draft/2020-12/"


def flat_meta_schema_2020_12() -> dict[str, Any]:
    """The 2020-12 meta-schema as one resource: its seven vocabularies' ``properties`` and
    ``$defs`` side by side, ``$dynamicRef: "#meta"`` as ``$ref: "#"``.

    The official one is an ``allOf`` of seven resources tied together by ``$dynamicRef``, which
    jsonschema resolves through URL joins at every level: 75% of a cold ``validate``. Validating a
    schema (not a meta-schema) never rebinds ``#meta``, so both accept the same schemas; a
    property test holds them to it.
    """
    from jsonschema_specifications import REGISTRY

    def local(node: Any) -> Any:
        if isinstance(node, dict):
            if node.get("$dynamicRef") == "#meta":
                return {"$ref": "#", **{k: local(v) for k, v in node.items() if k != "$dynamicRef"}}
            return {
                k: "#" + v.split("#", 1)[1] if k == "$ref" and isinstance(v, str) and "#/" in v else local(v)
                for k, v in node.items()
            }
        return [local(v) for v in node] if isinstance(node, list) else node

    root = REGISTRY.contents(_META_2020_12 + "schema")
    properties: dict[str, Any] = {}
    defs: dict[str, Any] = {}
    for vocabulary in [REGISTRY.contents(_META_2020_12 + part["$ref"]) for part in root["allOf"]] + [root]:
        for target, key in ((properties, "properties"), (defs, "$defs")):
            for name, sub in vocabulary.get(key, {}).items():
                if name in target:  # not so in 2020-12; a future revision must not merge silently
                    raise RuntimeError(f"2020-12 meta-schema: {key}/{name} defined twice")
                target[name] = local(sub)
    return {"type": ["object", "boolean"], "properties": properties, "$defs": defs}
