"""Options shared by several commands, and turning them into settings."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("text", "json", "github")


def contracts_dir(value: str | None) -> Path:
    """``--contracts`` > ``$JSON_CONTRACTS_DIR`` (an empty value counts as unset) > ``./json-contracts``."""
    if value is not None and not value.strip():
        raise click.UsageError("--contracts needs a folder path; leave it out to use $JSON_CONTRACTS_DIR")
    chosen = value or os.environ.get("JSON_CONTRACTS_DIR") or "json-contracts"
    return Path(os.path.abspath(chosen))


def common_options(func: F) -> F:
    """``-c/--contracts``, ``--json`` and ``--format``."""
    func = click.option(
        "--format",
        "output_format",
        type=click.Choice(FORMATS),
        default=None,
        help="Output format: text (default), json, or github (workflow annotations).",
    )(func)
    func = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON (same as --format json).")(
        func
    )
    func = click.option(
        "-c",
        "--contracts",
        "contracts",
        metavar="DIR",
        default=None,
        help="Contracts directory (default: $JSON_CONTRACTS_DIR or ./json-contracts).",
    )(func)
    return func


def output_format(as_json: bool, chosen: str | None) -> str:
    if as_json and chosen not in (None, "json"):
        raise click.UsageError("--json and --format cannot disagree; use one of them")
    return "json" if as_json else chosen or "text"
