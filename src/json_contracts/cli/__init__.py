"""The ``json-contracts`` command line (click). Each command: parse, call the engine, render."""

from __future__ import annotations

import sys
from typing import Any

import click

from json_contracts.cli.commands import check, init, lint, serve, start_server, validate
from json_contracts.cli.test_command import test

__all__ = ["main"]


class _Group(click.Group):
    """A group whose usage errors are one line (``Error: …``) and exit 2."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.UsageError as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)


@click.group(cls=_Group, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="json-contracts", prog_name="json-contracts")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Contracts for JSON written by AI agents: validate, lint and check them in CI.

    With no command, starts the MCP server on stdio (see `serve`).
    """
    if ctx.invoked_subcommand is None:  # no command: serve MCP over stdio, as the TypeScript server does
        start_server()


main.add_command(init)
main.add_command(validate)
main.add_command(lint)
main.add_command(check)
main.add_command(test)
main.add_command(serve)
