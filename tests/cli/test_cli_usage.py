"""Usage slips a newcomer makes with the folder, and the command list of ``--help``."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import RunCli


def test_a_folder_given_as_an_argument_is_told_to_use_c(run_cli: RunCli, workdir: Path) -> None:
    (workdir / "notes").mkdir()

    result = run_cli("test", "notes")

    assert result.exit_code == 2
    assert result.stderr == (
        "Error: Got unexpected extra argument (notes). notes is a folder: name the contracts folder with -c notes.\n"
    )


def test_an_extra_argument_that_is_no_folder_gets_clicks_message_alone(run_cli: RunCli, workdir: Path) -> None:
    result = run_cli("lint", "nothing-here")

    assert result.exit_code == 2
    assert result.stderr == "Error: Got unexpected extra argument (nothing-here)\n"


def test_an_option_before_the_command_says_where_options_go(run_cli: RunCli, workdir: Path) -> None:
    result = run_cli("-c", "notes")

    assert result.exit_code == 2
    assert result.stderr.endswith("Options go after the command, as in json-contracts serve -c DIR.\n")


def test_help_lists_every_command_with_its_whole_first_sentence(run_cli: RunCli) -> None:
    result = run_cli("--help", env={"COLUMNS": "80"})

    assert result.exit_code == 0
    commands = " ".join(result.stdout.split("Commands:", 1)[1].split())
    assert "..." not in commands
    assert "against CONTRACT; print errors and repair hints." in commands
    assert "satisfiable, samples valid, examples, repair hints, edit, hashes." in commands
