"""The ``json-contracts`` command line (click). Each command: parse, call the engine, render."""

from __future__ import annotations

import click

from json_contracts.cli.commands import check, init, lint, validate

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="json-contracts", prog_name="json-contracts")
def main() -> None:
    """Contracts for JSON written by AI agents: validate, lint and check them in CI."""


main.add_command(init)
main.add_command(validate)
main.add_command(lint)
main.add_command(check)
