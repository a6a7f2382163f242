"""Drawing documents from a schema in tests, and judging them in the schema's own dialect."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, given, settings

from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.dialects import detect_library_dialect
from json_contracts.schema.validation import is_valid
from json_contracts.testing import SampleStats, from_schema


def draw_documents(schema: Any, count: int = 60, stats: SampleStats | None = None) -> list[Any]:
    """Up to ``count`` documents from the public ``from_schema``, derandomized, health checks off."""
    drawn: list[Any] = []

    @settings(max_examples=count, database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])  # fmt: skip
    @given(from_schema(schema, stats=stats))
    def collect(document: Any) -> None:
        drawn.append(document)

    collect()
    return drawn


def valid_in_own_dialect(schema: dict[str, Any], document: Any) -> bool:
    """Whether ``document`` is valid against ``schema`` read in the dialect its ``$schema`` names."""
    dialect = detect_library_dialect(schema)
    assert isinstance(dialect, str)
    return is_valid(compile_schema(schema, dialect), document)
