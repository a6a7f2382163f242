"""Random schemas from a grammar of every supported keyword: drawing from them never crashes."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from json_contracts.errors import InvalidInputError
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.dialects import detect_dialect
from json_contracts.schema.validation import is_valid
from json_contracts.testing.harness import RunOptions, explore
from json_contracts.testing.strategies import from_schema

_LEAF = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["string", "integer", "number", "boolean", "null"])},
        optional={
            "minLength": st.integers(0, 5),
            "maxLength": st.integers(0, 5),
            "pattern": st.sampled_from(["^a+$", r"\d", "^[A-Z]{2}$", "(x|y)*", r"\p{L}"]),
            "format": st.sampled_from(["date", "email", "uuid", "uri", "ipv4", "hostname", "date-time", "duration"]),
            "minimum": st.integers(-3, 3),
            "maximum": st.integers(-3, 3),
            "exclusiveMinimum": st.integers(-3, 3),
            "multipleOf": st.sampled_from([1, 2, 0.5, 0.1]),
            "enum": st.lists(st.one_of(st.integers(-2, 2), st.text(max_size=2)), min_size=1, max_size=3),
            "const": st.integers(0, 2),
        },
    ),
    st.booleans(),
)


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    names = st.sampled_from(["a", "b", "c"])
    return st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("object")},
            optional={
                "properties": st.dictionaries(names, children, max_size=3),
                "required": st.lists(st.sampled_from(["a", "b", "c", "d"]), unique=True, max_size=3),
                "additionalProperties": st.one_of(st.booleans(), children),
                "patternProperties": st.dictionaries(st.sampled_from(["^x", r"^y-\d$"]), children, max_size=1),
                "propertyNames": st.just({"maxLength": 3}),
                "minProperties": st.integers(0, 3),
                "maxProperties": st.integers(0, 3),
                "dependentRequired": st.just({"a": ["b"]}),
                "dependentSchemas": st.dictionaries(st.just("a"), children, max_size=1),
                "unevaluatedProperties": st.booleans(),
            },
        ),
        st.fixed_dictionaries(
            {"type": st.just("array")},
            optional={
                "items": st.one_of(children, st.booleans()),
                "prefixItems": st.lists(children, max_size=2),
                "minItems": st.integers(0, 3),
                "maxItems": st.integers(0, 3),
                "uniqueItems": st.booleans(),
                "contains": children,
                "minContains": st.integers(0, 2),
                "maxContains": st.integers(0, 2),
                "unevaluatedItems": st.booleans(),
            },
        ),
        st.fixed_dictionaries(
            {},
            optional={
                "allOf": st.lists(children, min_size=1, max_size=2),
                "anyOf": st.lists(children, min_size=1, max_size=2),
                "oneOf": st.lists(children, min_size=1, max_size=2),
                "not": children,
                "if": children,
                "then": children,
                "else": children,
            },
        ),
    )


SCHEMAS = st.recursive(_LEAF, _containers, max_leaves=6)


@settings(max_examples=40, database=None, deadline=None, suppress_health_check=list(HealthCheck),
          phases=[Phase.generate])  # fmt: skip
@given(SCHEMAS)
def test_any_schema_draws_only_valid_documents_or_nothing(schema: Any) -> None:
    try:
        strategy = from_schema(schema)
    except InvalidInputError:
        return  # refused up front with a message: fine
    schema_dict = schema if isinstance(schema, dict) else {}
    dialect = detect_dialect(schema_dict)
    assert isinstance(dialect, str)
    compiled = compile_schema(schema_dict, dialect) if schema is not False else None
    drawn: list[Any] = []
    explore(strategy, drawn.append, RunOptions(max_examples=5, derandomize=True))
    if compiled is not None:
        assert all(is_valid(compiled, document) for document in drawn)
    else:
        assert drawn == []
