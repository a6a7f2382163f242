"""``[tool.json-contracts]`` settings: found upward from a folder, and refused with a clear message."""

from __future__ import annotations

from pathlib import Path

import pytest

from json_contracts.errors import JsonContractsError
from json_contracts.evolution.model import MODES
from json_contracts.lint.config import (
    COMPATIBILITY_MODES,
    ConfigError,
    Settings,
    find_pyproject,
    load_settings,
    parse_codes,
)


def _project(tmp_path: Path, body: str) -> tuple[Path, Path]:
    """A pyproject.toml with ``body`` and a nested folder below it."""
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(body, encoding="utf-8")
    nested = tmp_path / "src" / "deep"
    nested.mkdir(parents=True)
    return pyproject, nested


def test_ignore_and_strict_are_read_from_the_nearest_pyproject_above_a_folder(tmp_path: Path) -> None:
    pyproject, nested = _project(tmp_path, '[tool.json-contracts]\nignore = ["jc104", " JC131 "]\nstrict = true\n')

    settings = load_settings(nested)

    assert settings == Settings(ignore=frozenset({"JC104", "JC131"}), strict=True, source=pyproject)


def test_the_nearest_pyproject_wins_even_without_a_json_contracts_table(tmp_path: Path) -> None:
    _project(tmp_path, "[tool.json-contracts]\nstrict = true\n")
    inner = tmp_path / "src" / "deep" / "pyproject.toml"
    inner.write_text('[project]\nname = "inner"\n', encoding="utf-8")

    assert find_pyproject(inner.parent) == inner
    assert load_settings(inner.parent) == Settings(source=inner)


def test_compatibility_and_its_overrides_are_read(tmp_path: Path) -> None:
    pyproject, nested = _project(
        tmp_path,
        '[tool.json-contracts]\ncompatibility = "full"\n\n'
        '[tool.json-contracts.compatibility-overrides]\nsupport-ticket = "none"\nchart = "forward"\n',
    )

    settings = load_settings(nested)

    assert settings == Settings(
        source=pyproject, compatibility="full", compatibility_overrides={"support-ticket": "none", "chart": "forward"}
    )


def test_compatibility_defaults_to_backward_with_no_overrides(tmp_path: Path) -> None:
    _, nested = _project(tmp_path, "[tool.json-contracts]\nstrict = true\n")

    settings = load_settings(nested)

    assert (settings.compatibility, dict(settings.compatibility_overrides)) == ("backward", {})


def test_the_compatibility_modes_are_the_engines() -> None:
    assert COMPATIBILITY_MODES == MODES


def test_no_pyproject_means_default_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "a"
    folder.mkdir()
    monkeypatch.setattr("json_contracts.lint.config.find_pyproject", lambda start: None)

    assert load_settings(folder) == Settings(ignore=frozenset(), strict=False, source=None)


def test_an_empty_table_gives_defaults_and_names_its_source(tmp_path: Path) -> None:
    pyproject, nested = _project(tmp_path, "[tool.json-contracts]\n")

    assert load_settings(nested) == Settings(source=pyproject)


def test_find_pyproject_skips_a_folder_named_pyproject_toml(tmp_path: Path) -> None:
    pyproject, nested = _project(tmp_path, "[tool.json-contracts]\n")
    (nested / "pyproject.toml").mkdir()

    assert find_pyproject(nested) == pyproject


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[tool.json-contracts]\nignor = ["JC104"]\n',
            "[tool.json-contracts] has unknown key(s) ignor; use ignore, strict, compatibility or "
            "compatibility-overrides",
        ),
        (
            '[tool.json-contracts]\nignore = "JC104"\n',
            '[tool.json-contracts] ignore must be a list of codes, e.g. ignore = ["JC131"]',
        ),
        ("[tool.json-contracts]\nignore = [104]\n", "[tool.json-contracts] ignore must be a list of codes"),
        ('[tool.json-contracts]\nstrict = "yes"\n', "[tool.json-contracts] strict must be true or false"),
        (
            '[tool.json-contracts]\nignore = ["JC999"]\n',
            "[tool.json-contracts] ignore: unknown code 'JC999'; known codes are JC001-JC443, "
            "listed in docs/reference/rules.md",
        ),
        ("[tool]\njson-contracts = 1\n", "[tool.json-contracts] must be a table"),
        (
            '[tool.json-contracts]\ncompatibility = "bakward"\n',
            "[tool.json-contracts] compatibility must be one of backward, forward, full or none, got 'bakward'",
        ),
        (
            "[tool.json-contracts]\ncompatibility = true\n",
            "[tool.json-contracts] compatibility must be one of backward, forward, full or none, got a bool",
        ),
        (
            '[tool.json-contracts]\ncompatibility-overrides = "full"\n',
            "[tool.json-contracts.compatibility-overrides] must be a table of contract name = mode, "
            'e.g. support-ticket = "full"',
        ),
        (
            '[tool.json-contracts.compatibility-overrides]\nsupport-ticket = "both"\n',
            "[tool.json-contracts.compatibility-overrides] support-ticket must be one of backward, forward, full "
            "or none, got 'both'",
        ),
        (
            '[tool.json-contracts.compatibility-overrides]\n"support ticket" = "full"\n',
            "[tool.json-contracts.compatibility-overrides] key 'support ticket' is not a contract name "
            "(the file name without .json)",
        ),
        ("this is [not toml\n", "cannot read [tool.json-contracts]: "),
    ],
)
def test_a_malformed_table_is_refused_with_a_message_naming_the_file(tmp_path: Path, body: str, message: str) -> None:
    pyproject, nested = _project(tmp_path, body)

    with pytest.raises(ConfigError) as caught:
        load_settings(nested)

    assert str(caught.value).startswith(f"{pyproject}: {message}")
    assert isinstance(caught.value, JsonContractsError)


def test_a_tool_key_that_is_not_a_table_is_refused_with_a_config_error(tmp_path: Path) -> None:
    pyproject, nested = _project(tmp_path, "tool = 1\n")

    with pytest.raises(ConfigError) as caught:
        load_settings(nested)

    assert str(caught.value) == f"{pyproject}: tool must be a table ([tool.json-contracts])"


def test_parse_codes_normalises_case_and_spaces_and_skips_empty_items() -> None:
    assert parse_codes([" jc104", "", "JC131 ", "JC104"], "--ignore") == frozenset({"JC104", "JC131"})


def test_parse_codes_names_where_an_unknown_code_came_from() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_codes(["JC104", "JC1O4"], "--ignore")

    assert str(caught.value) == (
        "--ignore: unknown code 'JC1O4'; known codes are JC001-JC443, listed in docs/reference/rules.md"
    )
