"""The plugin's settings, read from pytest options and ini; cheap, because it runs in every pytest.

Nothing here imports the engine unless the plugin is enabled: pytest loads the plugin in every
run of an environment that has json-contracts installed, most of which never use it.
"""

from __future__ import annotations

import argparse
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from json_contracts.pytest_plugin.registry import ContractRegistry

__all__ = ["DEFAULT_MAX_EXAMPLES", "PluginOptions", "PluginState", "active_state", "add_options", "read_options"]

DEFAULT_MAX_EXAMPLES = 50  # RunOptions' default: what `json-contracts test` spends per check
SEED_KEY = "json_contracts_seed"  # in xdist's workerinput: every worker draws with the controller's seed


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def add_options(parser: pytest.Parser) -> None:
    """Register the command-line options and the ini key."""
    group = parser.getgroup("json-contracts", "json-contracts: contract files as test items")
    group.addoption(
        "--json-contracts",
        dest="json_contracts_dir",
        metavar="DIR",
        help="test the contracts in DIR (one item per check); overrides the json_contracts_dir ini key",
    )
    group.addoption(
        "--json-contracts-max-examples",
        type=_positive_int,
        metavar="N",
        help=f"documents each property check tries (default {DEFAULT_MAX_EXAMPLES})",
    )
    group.addoption(
        "--json-contracts-no-hypothesis",
        action="store_true",
        help="skip the property checks (satisfiable, samples-valid, repair-hints, edit, hashes)",
    )
    group.addoption(
        "--json-contracts-strict",
        action="store_true",
        help="lint warnings fail (as [tool.json-contracts] strict = true does)",
    )
    group.addoption(
        "--json-contracts-seed",
        type=_seed,
        metavar="N",
        help="seed the property checks (default: random, printed in the header; fixed order when CI is set)",
    )
    parser.addini(
        "json_contracts_dir",
        "folder of contract files to test, relative to the ini file (enables the json-contracts plugin)",
        type="string",
        default="",
    )


@dataclass(frozen=True)
class PluginOptions:
    """What the user asked for; ``seed`` None with ``derandomize`` means a fixed, seedless order."""

    directory: Path
    max_examples: int = DEFAULT_MAX_EXAMPLES
    hypothesis: bool = True
    strict: bool = False
    seed: int | None = None
    derandomize: bool = False
    ignore: frozenset[str] = frozenset()


def _running_on_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def read_options(config: pytest.Config) -> PluginOptions | None:
    """The enabled plugin's options, or None when neither ``--json-contracts`` nor the ini key is set.

    Raises:
        pytest.UsageError: the folder does not exist, or ``[tool.json-contracts]`` is malformed.
    """
    given = config.getoption("json_contracts_dir")
    if given:
        directory, origin = Path(config.invocation_params.dir, given), "--json-contracts"
    else:
        ini = str(config.getini("json_contracts_dir")).strip()
        if not ini:
            return None
        base = config.inipath.parent if config.inipath else config.rootpath
        directory, origin = Path(base, ini), f"json_contracts_dir ({config.inipath or 'ini'})"
    directory = Path(os.path.abspath(directory))  # as the loader names files: absolute, links kept
    if not directory.is_dir():
        raise pytest.UsageError(f"{origin}: contracts folder {directory} does not exist")

    from json_contracts.config import ConfigError, load_settings  # enabled: the engine may load now

    try:
        settings = load_settings(directory)
    except ConfigError as exc:
        raise pytest.UsageError(str(exc)) from None
    seed: int | None = config.getoption("json_contracts_seed")
    workerinput = getattr(config, "workerinput", None)  # set by pytest-xdist in its workers
    derandomize = False
    if seed is None and isinstance(workerinput, dict) and SEED_KEY in workerinput:
        seed = workerinput[SEED_KEY]
        derandomize = seed is None
    elif seed is None and _running_on_ci():
        derandomize = True
    elif seed is None:
        seed = random.randrange(2**32)
    return PluginOptions(
        directory=directory,
        max_examples=config.getoption("json_contracts_max_examples") or DEFAULT_MAX_EXAMPLES,
        hypothesis=not config.getoption("json_contracts_no_hypothesis"),
        strict=bool(config.getoption("json_contracts_strict")) or settings.strict,
        seed=seed,
        derandomize=derandomize,
        ignore=settings.ignore,
    )


@dataclass
class PluginState:
    """One enabled session: its options and the folder, loaded on first use and then shared."""

    options: PluginOptions
    _registry: ContractRegistry | None = field(default=None, repr=False)

    def registry(self) -> ContractRegistry:
        if self._registry is None:
            from json_contracts.pytest_plugin.registry import ContractRegistry

            self._registry = ContractRegistry.load(self.options.directory)
        return self._registry


# Enabled sessions, innermost last (pytester runs sessions inside sessions); helpers that take a
# contract *name* look it up in the innermost one.
_ACTIVE: list[PluginState] = []


def push_state(state: PluginState) -> None:
    _ACTIVE.append(state)


def pop_state(state: PluginState) -> None:
    if state in _ACTIVE:
        _ACTIVE.remove(state)


def active_state() -> PluginState | None:
    return _ACTIVE[-1] if _ACTIVE else None
