"""The plugin's command-line options and ini key: all the plugin registers while it is off.

pytest loads the plugin in every run of an environment that has json-contracts installed, most
of which never use it, so this module (imported at load) only declares options; reading them
into a session is :mod:`pytest_json_contracts.session`'s job.
"""

from __future__ import annotations

import argparse

import pytest

__all__ = ["DEFAULT_MAX_EXAMPLES", "SEED_KEY", "TIMEOUT_INI", "add_options", "enabled", "positive_seconds"]

DEFAULT_MAX_EXAMPLES = 50  # RunOptions' default: what `json-contracts test` spends per check
SEED_KEY = "json_contracts_seed"  # in xdist's workerinput: every worker draws with the controller's seed
TIMEOUT_INI = "json_contracts_timeout"


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def positive_seconds(text: str) -> float:
    """A positive, finite number of seconds (``30``, ``2.5``), as the option and the ini key take it."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _revision(text: str) -> str:
    if not text.strip() or text.startswith("-"):
        raise argparse.ArgumentTypeError(f"expected a Git revision (a branch, tag or commit), got {text!r}")
    return text


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
        "--json-contracts-no-database",
        action="store_true",
        help="remember nothing between runs (default: a document that made a property check fail is saved "
        "in .json-contracts-cache/ and tried first the next time)",
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
    group.addoption(
        "--json-contracts-timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="seconds the property checks of one contract may take together; past it they are skipped as "
        f"inconclusive (default: the {TIMEOUT_INI} ini key, else $JSON_CONTRACTS_TEST_TIMEOUT, else 120)",
    )
    group.addoption(
        "--json-contracts-base",
        type=_revision,
        metavar="REF",
        help="also give each contract that changed since the Git revision REF a ::compat item, which fails "
        "on a change that breaks its compatibility mode, as json-contracts diff --base REF does",
    )
    parser.addini(
        "json_contracts_dir",
        "folder of contract files to test, relative to the ini file (enables the json-contracts plugin)",
        type="string",
        default="",
    )
    parser.addini(
        TIMEOUT_INI,
        "seconds the property checks of one contract may take together (as --json-contracts-timeout)",
        type="string",
        default="",
    )


def enabled(config: pytest.Config) -> bool:
    """Whether a contracts folder is named (option or ini); cheap, so an off plugin stays cheap."""
    return bool(config.getoption("json_contracts_dir") or str(config.getini("json_contracts_dir")).strip())
