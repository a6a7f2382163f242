"""The enabled plugin's session: options read from pytest, the seed, and the loaded folder.

Imported only once a contracts folder is named (see :func:`~pytest_json_contracts.options.enabled`).
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from json_contracts.errors import EnvironmentVariableError
from json_contracts.lint.config import ConfigError, load_settings
from json_contracts.testing.results import DEFAULT_TIME_BUDGET, derandomize_by_default, time_budget_from
from pytest_json_contracts.options import DEFAULT_MAX_EXAMPLES, SEED_KEY, TIMEOUT_INI, positive_seconds

if TYPE_CHECKING:
    from pytest_json_contracts.baseline import Baseline
    from pytest_json_contracts.registry import ContractRegistry

__all__ = ["PluginOptions", "PluginState", "read_options"]


@dataclass(frozen=True)
class PluginOptions:
    """What the user asked for; ``seed`` None with ``derandomize`` means a fixed, seedless order.

    ``cache_base`` is the folder whose ``.json-contracts-cache/`` keeps the example database (pytest's
    rootdir, where ``json-contracts test`` run from the project keeps it too); None keeps none:
    ``--json-contracts-no-database``, or a derandomised run, whose results must not depend on earlier runs.
    ``base`` is ``--json-contracts-base`` (None: no ``::compat`` items); ``compatibility`` and
    ``compatibility_overrides`` are ``[tool.json-contracts]``'s modes, as ``json-contracts diff`` reads them.
    ``time_budget`` is the seconds one contract's property checks may take together in this process.
    """

    directory: Path
    max_examples: int = DEFAULT_MAX_EXAMPLES
    hypothesis: bool = True
    strict: bool = False
    seed: int | None = None
    derandomize: bool = False
    ignore: frozenset[str] = frozenset()
    cache_base: Path | None = None
    base: str | None = None
    compatibility: str = "backward"
    compatibility_overrides: Mapping[str, str] = field(default_factory=dict)
    time_budget: float = DEFAULT_TIME_BUDGET


def _time_budget(config: pytest.Config) -> float:
    """``--json-contracts-timeout``, else the ini key, else ``$JSON_CONTRACTS_TEST_TIMEOUT``, else the default.

    Raises:
        pytest.UsageError: the ini key or the variable is not a positive number of seconds.
    """
    given: float | None = config.getoption("json_contracts_timeout")
    if given is not None:
        return given
    ini = str(config.getini(TIMEOUT_INI)).strip()
    try:
        return positive_seconds(ini) if ini else time_budget_from(os.environ)
    except argparse.ArgumentTypeError as exc:
        raise pytest.UsageError(f"{TIMEOUT_INI} ({config.inipath or 'ini'}): {exc}") from None
    except EnvironmentVariableError as exc:
        raise pytest.UsageError(str(exc)) from None


def read_options(config: pytest.Config) -> PluginOptions:
    """The options of a session whose folder is named by ``--json-contracts`` or the ini key.

    Raises:
        pytest.UsageError: the folder does not exist, ``[tool.json-contracts]`` is malformed, or the time
            budget (option, ini key or variable) is not a positive number of seconds.
    """
    given = config.getoption("json_contracts_dir")
    if given:
        directory, origin = Path(config.invocation_params.dir, given), "--json-contracts"
    else:
        ini = str(config.getini("json_contracts_dir")).strip()
        base = config.inipath.parent if config.inipath else config.rootpath
        directory, origin = Path(base, ini), f"json_contracts_dir ({config.inipath or 'ini'})"
    directory = Path(os.path.abspath(directory))  # as the loader names files: absolute, links kept
    if not directory.is_dir():
        raise pytest.UsageError(f"{origin}: contracts folder {directory} does not exist")

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
    elif seed is None and derandomize_by_default(os.environ):
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
        cache_base=None if derandomize or config.getoption("json_contracts_no_database") else config.rootpath,
        base=config.getoption("json_contracts_base"),
        compatibility=settings.compatibility,
        compatibility_overrides=settings.compatibility_overrides,
        time_budget=_time_budget(config),
    )


@dataclass
class PluginState:
    """One enabled session: its options and the folder, loaded on first use and then shared.

    ``baseline`` is the ``--json-contracts-base`` revision's folder, loaded at start-up
    (:meth:`load_baseline`), so that a revision Git does not know stops the run before it starts.
    """

    options: PluginOptions
    _registry: ContractRegistry | None = field(default=None, repr=False)
    baseline: Baseline | None = field(default=None, repr=False)
    spent: dict[str, float] = field(default_factory=dict, repr=False)  # seconds of checks so far, by contract

    def load_baseline(self) -> None:
        """Read the base revision's folder, once per session; a no-op without ``--json-contracts-base``.

        Raises:
            pytest.UsageError: the revision or the folder cannot be read (the message says why).
        """
        if self.options.base is None or self.baseline is not None:
            return
        from pytest_json_contracts.baseline import Baseline, as_mode

        where = "[tool.json-contracts]"
        overrides = {
            name: as_mode(mode, f"{where} compatibility-overrides {name}")
            for name, mode in self.options.compatibility_overrides.items()
        }
        mode = as_mode(self.options.compatibility, f"{where} compatibility")
        self.baseline = Baseline.load(self.options.directory, self.options.base, mode, overrides)

    def registry(self) -> ContractRegistry:
        if self._registry is None:
            from pytest_json_contracts.registry import ContractRegistry

            self._registry = ContractRegistry.load(self.options.directory)
        return self._registry

    @cached_property
    def database(self) -> Path | None:
        """The example database's folder for the property checks, or None to keep none.

        Decided when the first property check runs, so a run that has none (``-k lint``,
        ``--collect-only``) creates no cache folder. The folder is named in each check's options,
        never set as Hypothesis's storage directory: that is process-wide, and would move the
        database of the user's own Hypothesis tests too.
        """
        if self.options.cache_base is None:
            return None
        from json_contracts.testing.harness import storage_folder  # imports Hypothesis

        storage = storage_folder(self.options.cache_base, os.environ)
        return None if storage is None else storage / "examples"
