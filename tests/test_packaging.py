"""The two distributions as users install them: what each wheel carries and registers.

json-contracts must carry the starter contracts and this project's own contracts (the MCP tools'
output schemas are read from them) and register no pytest plugin; pytest-json-contracts must
register the plugin and depend on json-contracts of the same version. The wheels are built
offline from this checkout, and the json-contracts wheel is unpacked and run on its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
OWN_CONTRACTS = sorted(path.name for path in (REPO / "json-contracts").glob("*.json"))


def _version(pyproject: Path) -> str:
    version: str = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    return version


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Both wheels, built from this checkout without network access or build isolation."""
    out = tmp_path_factory.mktemp("wheels")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", str(out), str(REPO), str(REPO / "pytest_plugin")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    built = {path.name.split("-")[0]: path for path in out.glob("*.whl")}
    assert set(built) == {"json_contracts", "pytest_json_contracts"}
    return built


def _metadata(wheel: Path) -> tuple[list[str], str, str]:
    """The wheel's file names, its entry_points.txt and its METADATA."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
        return names, archive.read(entry_points).decode(), archive.read(metadata).decode()


def test_both_distributions_carry_the_same_version_and_the_plugin_pins_the_engine_to_it() -> None:
    version = _version(REPO / "pyproject.toml")
    plugin = tomllib.loads((REPO / "pytest_plugin" / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert plugin["version"] == version
    assert f"json-contracts=={version}" in plugin["dependencies"]


def test_the_engine_wheel_carries_the_starters_and_this_projects_own_contracts(wheels: dict[str, Path]) -> None:
    names, _, _ = _metadata(wheels["json_contracts"])

    packaged = sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("json_contracts/_own_contracts/"))
    assert packaged == OWN_CONTRACTS
    starters = {n.rsplit("/", 1)[1] for n in names if n.startswith("json_contracts/contracts/starter/")}
    assert {"LICENSE.md", "support-ticket.json"} <= starters
    assert len([n for n in starters if n.endswith(".json")]) == 8
    assert "json_contracts/py.typed" in names


def test_the_engine_wheel_registers_the_command_and_no_pytest_plugin(wheels: dict[str, Path]) -> None:
    _, entry_points, _ = _metadata(wheels["json_contracts"])
    assert "json-contracts = json_contracts.cli:main" in entry_points
    assert "pytest11" not in entry_points


def test_the_plugin_wheel_registers_the_plugin_and_requires_the_same_engine(wheels: dict[str, Path]) -> None:
    names, entry_points, metadata = _metadata(wheels["pytest_json_contracts"])
    assert "[pytest11]\njson_contracts = pytest_json_contracts" in entry_points
    requires = Parser().parsestr(metadata).get_all("Requires-Dist") or []
    assert f"json-contracts=={_version(REPO / 'pyproject.toml')}" in requires
    assert "pytest_json_contracts/py.typed" in names
    assert not [n for n in names if n.startswith("json_contracts/")]


def test_an_installed_engine_reads_the_tools_output_schemas_from_its_own_copy(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    with zipfile.ZipFile(wheels["json_contracts"]) as archive:
        archive.extractall(tmp_path / "site")
    code = (
        "import json; from json_contracts.mcp.outputs import output_schema, own_contracts_folder; "
        "from json_contracts.mcp.tools import TOOLS; "
        "print(json.dumps([str(own_contracts_folder()), {t.name: sorted(output_schema(t.output)) for t in TOOLS}]))"
    )
    # The unpacked wheel comes first on the path, ahead of this checkout's editable install.
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)

    folder, schemas = json.loads(done.stdout)
    assert Path(folder) == tmp_path / "site" / "json_contracts" / "_own_contracts"
    assert len(schemas) == 8
    assert schemas["validate_json"] == ["additionalProperties", "properties", "required", "type"]
