"""Property checks and the Hypothesis strategies they draw from (the layer that imports Hypothesis).

Public for app tests: :func:`from_contract`, :func:`from_schema`, :func:`from_contract_lazily`,
:func:`json_values` and :class:`SampleStats`, which draw documents valid against a contract::

    from hypothesis import given
    from json_contracts.testing import from_contract

    @given(from_contract(contract))
    def test_my_app_accepts_every_valid_document(document): ...

Inside: :mod:`.results` (what a check reports, and the one-example check; no Hypothesis, so
listing and running examples never imports it), :mod:`.strategies` and :mod:`.merge` (drawing
documents), :mod:`.harness` (a quiet ``@given`` run), :mod:`.mutations` (breaking and repairing
documents), :mod:`.checks` (the six checks) and :mod:`.report` (the ``test --json`` report).
Names are imported on first use, so ``from json_contracts.testing.results import ...`` costs no
Hypothesis import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from json_contracts.testing.strategies import (
        SampleStats,
        from_contract,
        from_contract_lazily,
        from_schema,
        json_values,
    )

__all__ = ["SampleStats", "from_contract", "from_contract_lazily", "from_schema", "json_values"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from json_contracts.testing import strategies  # Hypothesis: imported on first use

        value = getattr(strategies, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'json_contracts.testing' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
