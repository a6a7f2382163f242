"""Environment variables: one set of readers, where an empty value is unset and a bad one is named."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from json_contracts._env import (
    EmptyFolderOptionError,
    choice,
    ci_is_set,
    contracts_folder,
    flag,
    positive_seconds,
    shared_flag,
    text,
    whole_number,
)
from json_contracts.cli import main
from json_contracts.errors import EnvironmentVariableError
from json_contracts.mcp.settings import SettingsError, settings_from_env


def _refused(name: str, raw: str, accepted: str) -> str:
    return f"{name} must be {accepted}, got {raw!r}; unset it for the default"


def test_an_empty_variable_counts_as_unset_for_every_reader() -> None:
    empty = {"V": ""}
    assert text(empty, "V") is None
    assert whole_number(empty, "V", 7) == 7
    assert positive_seconds(empty, "V", 1.5) == 1.5
    assert flag(empty, "V", True) is True
    assert choice(empty, "V", "stdio", ("stdio", "http")) == "stdio"
    assert shared_flag(empty, "V") is False
    assert ci_is_set(empty | {"CI": ""}) is False


@pytest.mark.parametrize(("raw", "value"), [("5", 5), (" 262_144 ", 262144), ("64", 64)])
def test_whole_numbers_allow_spaces_and_underscores(raw: str, value: int) -> None:
    assert whole_number({"N": raw}, "N", 1, maximum=262144) == value


@pytest.mark.parametrize("raw", ["0", "-1", "1e3", "²", "lots"])
def test_a_bad_whole_number_is_refused_naming_the_variable(raw: str) -> None:
    with pytest.raises(EnvironmentVariableError) as raised:
        whole_number({"N": raw}, "N", 1)
    assert str(raised.value) == _refused("N", raw, "a whole number of at least 1")


def test_a_whole_number_over_its_ceiling_says_the_range() -> None:
    with pytest.raises(EnvironmentVariableError) as raised:
        whole_number({"PORT": "70000"}, "PORT", 3000, maximum=65535)
    assert str(raised.value) == _refused("PORT", "70000", "a whole number from 1 to 65535")


@pytest.mark.parametrize(("raw", "value"), [("1", True), ("TRUE", True), (" yes", True), ("on", True),
                                            ("0", False), ("False", False), ("no", False), ("OFF", False)])  # fmt: skip
def test_flags_read_the_usual_words_in_any_case(raw: str, value: bool) -> None:
    assert flag({"F": raw}, "F", not value) is value


@pytest.mark.parametrize("raw", ["maybe", "2", "enabled", "y"])
def test_any_other_flag_value_is_refused_naming_the_variable(raw: str) -> None:
    with pytest.raises(EnvironmentVariableError) as raised:
        flag({"WATCH_CONTRACTS": raw}, "WATCH_CONTRACTS", True)
    assert str(raised.value) == _refused("WATCH_CONTRACTS", raw, "one of 1, true, yes, on or 0, false, no, off")


@pytest.mark.parametrize(("raw", "value"), [("1", True), ("true", True), ("express:*", False), ("0", False)])
def test_a_flag_other_tools_share_is_never_refused(raw: str, value: bool) -> None:
    assert shared_flag({"DEBUG": raw}, "DEBUG") is value


@pytest.mark.parametrize(("raw", "value"), [("true", True), ("1", True), ("woodpecker", True), ("0", False),
                                            ("false", False), ("No", False), ("off", False), ("", False)])  # fmt: skip
def test_ci_is_whatever_the_ci_system_says_except_the_false_words(raw: str, value: bool) -> None:
    assert ci_is_set({"CI": raw}) is value


def test_choices_are_read_in_lower_case_and_others_refused() -> None:
    assert choice({"T": " HTTP "}, "T", "stdio", ("stdio", "http")) == "http"
    with pytest.raises(EnvironmentVariableError) as raised:
        choice({"MCP_TRANSPORT": "sse"}, "MCP_TRANSPORT", "stdio", ("stdio", "http"))
    assert str(raised.value) == _refused("MCP_TRANSPORT", "sse", "stdio or http")


@pytest.mark.parametrize(("raw", "value"), [("0.5", 0.5), ("2", 2.0)])
def test_seconds_are_positive_numbers(raw: str, value: float) -> None:
    assert positive_seconds({"S": raw}, "S", 1.0) == value


@pytest.mark.parametrize("raw", ["0", "-1", "soon", "inf", "nan"])
def test_other_seconds_are_refused(raw: str) -> None:
    with pytest.raises(EnvironmentVariableError):
        positive_seconds({"S": raw}, "S", 1.0)


def test_the_contracts_folder_is_the_option_then_the_variable_then_the_default() -> None:
    assert contracts_folder("mine", {"JSON_CONTRACTS_DIR": "theirs"}) == "mine"
    assert contracts_folder(None, {"JSON_CONTRACTS_DIR": "theirs"}) == "theirs"
    assert contracts_folder(None, {"JSON_CONTRACTS_DIR": ""}) == "json-contracts"
    with pytest.raises(EmptyFolderOptionError):
        contracts_folder("  ", {})


def test_the_server_does_not_stop_for_another_tools_debug_value(tmp_path: Path) -> None:
    # DEBUG=express:* is a Node convention; refusing it would stop the server in such shells.
    assert settings_from_env({"DEBUG": "express:*"}, contracts=str(tmp_path)).debug is False
    assert settings_from_env({"DEBUG": "1"}, contracts=str(tmp_path)).debug is True
    with pytest.raises(SettingsError, match="WATCH_CONTRACTS must be one of"):
        settings_from_env({"WATCH_CONTRACTS": "maybe"}, contracts=str(tmp_path))


def test_serve_with_an_empty_contracts_option_is_a_usage_error_like_every_command() -> None:
    # It used to fall back to $JSON_CONTRACTS_DIR silently.
    result = CliRunner().invoke(main, ["serve", "--contracts", ""])
    assert result.exit_code == 2
    assert result.stderr == "Error: --contracts needs a folder path; leave it out to use $JSON_CONTRACTS_DIR\n"
