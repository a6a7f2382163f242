"""The architecture's rules, checked: layers and library ownership (import-linter), a light data
model, one catalogue of codes, and the public API the README promises."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
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
        ("contracts/model.py", "import jsonschema", "jsonschema, referencing, regress and re2 stay in the schema"),
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


def _string_constants(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every string constant of a module that is not a docstring (docstrings may name codes)."""
    docstrings = {
        id(body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and (body := node.body)
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def test_no_finding_code_is_written_outside_the_catalogue() -> None:
    # In any string the code builds (a literal, a message, a part of an f-string), not only a whole
    # "JC104": a message that names a code takes it from the catalogue.
    code = re.compile(r"\bJC\d{3}\b")
    catalogue = PACKAGE / "findings" / "catalogue.py"
    places = [
        f"{path.relative_to(REPO)}:{line}"
        for path in sorted([*PACKAGE.rglob("*.py"), *(REPO / "pytest_plugin" / "src").rglob("*.py")])
        if path != catalogue
        for line, value in _string_constants(ast.parse(path.read_text(encoding="utf-8")))
        if code.search(value)
    ]
    assert places == []


def test_every_public_name_resolves_and_nothing_else_is_offered() -> None:
    for name in json_contracts.__all__:
        assert getattr(json_contracts, name) is not None, name
    assert dir(json_contracts) == sorted(json_contracts.__all__)
    with pytest.raises(AttributeError):
        _ = json_contracts.loading  # internal modules are not public names


def test_the_public_api_is_exactly_what_the_readme_promises() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- public-api -->", 2)[1]
    promised = set(re.findall(r"`([A-Za-z_]+)`", section))
    assert promised == set(json_contracts.__all__)
