"""The ``json-contracts`` command line (click). Each command: parse, call the engine, render."""

from __future__ import annotations

import os
import re
import sys
from typing import Any

import click

from json_contracts.cli.commands import check, init, lint, serve, start_server, validate
from json_contracts.cli.diff_command import diff
from json_contracts.cli.options import colour_from_environment
from json_contracts.cli.test_command import test

__all__ = ["INTERRUPTED_EXIT_CODE", "main"]

#: 128 + SIGINT, what a shell reports for a command stopped with Ctrl-C.
INTERRUPTED_EXIT_CODE = 130

_EXTRA_ARGUMENT = re.compile(r"Got unexpected extra argument \((?P<argument>[^ )]+)\)")


def _usage_hint(exc: click.UsageError, group: click.Group) -> str:
    """What to type instead, for the two usage slips a folder name invites.

    ``json-contracts -c DIR`` puts a command's option before the command; ``json-contracts test
    notes`` names the folder as an argument, which only ``-c`` takes.
    """
    if isinstance(exc, click.NoSuchOption) and exc.ctx is not None and exc.ctx.command is group:
        return " Options go after the command, as in json-contracts serve -c DIR."
    extra = _EXTRA_ARGUMENT.search(exc.format_message())
    command = exc.ctx.command if exc.ctx is not None else None
    takes_folder = command is not None and any("--contracts" in getattr(p, "opts", ()) for p in command.params)
    if extra and takes_folder and os.path.isdir(extra["argument"]):
        return f" {extra['argument']} is a folder: name the contracts folder with -c {extra['argument']}."
    return ""


class _Group(click.Group):
    """A group whose usage errors are one line (``Error: …``) and exit 2, and Ctrl-C exits 130.

    Colour follows ``NO_COLOR`` and ``FORCE_COLOR`` (:func:`colour_from_environment`) for every
    command: the context's ``color`` is what ``click.echo`` and the progress bar consult.
    """

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        kwargs.setdefault("color", colour_from_environment())
        try:
            return super().main(*args, **kwargs)
        except click.UsageError as exc:
            message = exc.format_message()
            hint = _usage_hint(exc, self)
            if hint:
                message = message.rstrip(".") + "." + hint
            click.echo(f"Error: {message}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):  # click turns Ctrl-C into Abort
                click.echo("Interrupted.", err=True)
                sys.exit(INTERRUPTED_EXIT_CODE)
            click.echo("Aborted!", err=True)
            sys.exit(1)
        except KeyboardInterrupt:  # Ctrl-C outside click's own handling (while an error is shown)
            click.echo("\nInterrupted.", err=True)
            sys.exit(INTERRUPTED_EXIT_CODE)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with its whole first sentence: click's default cuts them at about 45 characters."""
        rows = [
            (name, command.get_short_help_str(limit=300))
            for name in self.list_commands(ctx)
            if (command := self.get_command(ctx, name)) is not None and not command.hidden
        ]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=_Group, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="json-contracts", prog_name="json-contracts")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Contracts for JSON written by AI agents: validate, lint and check them in CI.

    With no command, starts the MCP server on stdio (see `serve`); options such as -c go after a
    command.
    """
    if ctx.invoked_subcommand is None:  # no command: serve MCP over stdio, as the TypeScript server does
        start_server()


main.add_command(init)
main.add_command(validate)
main.add_command(lint)
main.add_command(check)
main.add_command(test)
main.add_command(diff)
main.add_command(serve)
