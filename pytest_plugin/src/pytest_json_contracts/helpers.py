"""What app tests call: ``assert_valid_json`` and ``contract_documents``.

Importing this module is cheap (the plugin imports it at load time); the engine and Hypothesis
are imported when a helper is first called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from pytest_json_contracts import _active

if TYPE_CHECKING:
    from json_contracts.contracts.model import Contract
    from pytest_json_contracts.registry import ContractRegistry

__all__ = ["NOT_CONFIGURED", "assert_valid_json", "contract_documents", "session_registry"]

NOT_CONFIGURED = (
    "json-contracts: no contracts folder for this run; pass --json-contracts DIR or set "
    'json_contracts_dir = "json-contracts" in [tool.pytest.ini_options]'
)


def session_registry() -> ContractRegistry:
    """The enabled session's contracts (what the ``json_contracts`` fixture returns).

    Fails the calling test (``pytest.fail``) when no contracts folder is configured for this run.
    """
    state = _active.innermost()
    if state is None:
        pytest.fail(NOT_CONFIGURED, pytrace=False)
    return state.registry()


def _contract(contract: Contract | str) -> Contract:
    return session_registry()[contract] if isinstance(contract, str) else contract


def assert_valid_json(contract: Contract | str, document: Any) -> None:
    """Fail the test unless ``document`` validates against ``contract`` (a name or a loaded contract).

    The failure lists every error with its JSON path, the repair hints an agent would get, and
    the document.

    Raises:
        AssertionError: the document does not validate.
        KeyError: no contract of that name loaded.
    """
    __tracebackhide__ = True
    from pytest_json_contracts.registry import check_document

    problem = check_document(_contract(contract), document)
    if problem is not None:
        raise AssertionError(problem)


def contract_documents(contract: Contract | str, *, max_depth: int = 3) -> Any:
    """A Hypothesis strategy of documents valid against ``contract``, for ``@given``.

    A name is looked up when the first document is drawn, so the decorator can sit on a module-level
    test before the session has loaded the folder. Built on
    :func:`json_contracts.testing.strategies.from_contract`; every document is re-checked by the validator.
    """
    from json_contracts.testing.strategies import from_contract_lazily

    return from_contract_lazily(lambda: _contract(contract), max_depth=max_depth)
