"""The architecture's rules, checked: layers and library ownership (import-linter), a light data
model, one catalogue of codes, and the public API the README promises."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import json_contracts

REPO = Path(__file__).resolve().parents[1]
PACKAGE = Path(json_contracts.__file__).parent


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the project's contracts over the packages under ``root``."""
    paths = [str(root / "src"), str(root / "pytest_plugin" / "src")]
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run(
        [sys.executable, "-c", code, "--config", str(REPO / "pyproject.toml"), "--no-cache"],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": ":".join(paths), "PATH": ""},
        cwd=root,
    )


def test_the_import_contracts_hold() -> None:
    result = _lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "planted", "broken"),
    [
        ("findings/finding.py", "import click", "click belongs to the CLI"),
        ("testing/checks.py", "import click", "click belongs to the CLI"),
        ("schema/validation.py", "import hypothesis", "Hypothesis belongs to the property-check layer"),
        ("lint/_values.py", "import mcp", "The MCP SDK and its server stack belong to the MCP adapter"),
        ("reporting/text.py", "import pytest", "pytest belongs to the pytest plugin"),
        ("contracts/model.py", "import jsonschema", "jsonschema, referencing and regress stay in the schema layer"),
        ("schema/compiled.py", "import json_contracts.lint", "The engine is layered in data-flow order"),
        ("cli/render.py", "import json_contracts.lint._values", "Underscore modules are private"),
    ],
)
def test_a_planted_bad_import_breaks_its_contract(tmp_path: Path, module: str, planted: str, broken: str) -> None:
    for part in ("src", "pytest_plugin/src"):
        shutil.copytree(REPO / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "src" / "json_contracts" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{planted}  # planted by the test\n", encoding="utf-8")

    result = _lint_imports(tmp_path)

    assert result.returncode == 1, result.stdout
    assert "1 broken" in result.stdout
    broken_section = result.stdout.split("Broken contracts", 1)[1]
    assert broken in broken_section


@pytest.mark.parametrize(
    "module", ["json_contracts.findings", "json_contracts.contracts.model", "json_contracts.errors", "json_contracts"]
)
def test_the_data_model_and_the_catalogue_import_no_json_schema_machinery(module: str) -> None:
    code = (
        f"import sys, {module}; print(sorted(m for m in ('jsonschema', 'referencing', 'regress') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_no_finding_code_is_written_outside_the_catalogue() -> None:
    literal = re.compile(r"""["']JC\d{3}["']""")
    catalogue = PACKAGE / "findings" / "catalogue.py"
    places = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in sorted([*PACKAGE.rglob("*.py"), *(REPO / "pytest_plugin" / "src").rglob("*.py")])
        if path != catalogue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if literal.search(line)
    ]
    assert places == []


def test_every_name_in_the_public_api_exists() -> None:
    for name in json_contracts.__all__:
        assert getattr(json_contracts, name) is not None, name


def test_the_public_api_is_exactly_what_the_readme_promises() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- public-api -->", 2)[1]
    promised = set(re.findall(r"`([A-Za-z_]+)`", section))
    assert promised == set(json_contracts.__all__)


def test_the_starter_contracts_ship_inside_the_package() -> None:
    names = sorted(p.name for p in (PACKAGE / "contracts" / "starter").iterdir())
    assert "LICENSE.md" in names
    assert len([n for n in names if n.endswith(".json")]) >= 8
