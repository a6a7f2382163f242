"""The architecture's rules, checked: a stable public API and an engine free of adapters."""

from __future__ import annotations

import ast
from pathlib import Path

import json_contracts

PACKAGE = Path(json_contracts.__file__).parent
ADAPTER_LIBRARIES = {"click", "mcp", "pytest", "hypothesis", "hypothesis_jsonschema", "watchfiles"}


def _imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_every_name_in_the_public_api_exists() -> None:
    for name in json_contracts.__all__:
        assert hasattr(json_contracts, name), name


def test_the_public_api_is_exactly_what_the_readme_promises() -> None:
    assert {"load_contracts", "validate_json", "repair_payload", "lint_result"} <= set(json_contracts.__all__)


HYPOTHESIS_LAYER = {"strategies.py"}  # the public strategies, plus the checks/ package built on them


def test_engine_modules_import_no_adapter_library() -> None:
    engine = [p for p in PACKAGE.glob("*.py") if p.name not in {"__main__.py"}]
    assert len(engine) > 10
    for path in engine:
        allowed = {"hypothesis", "hypothesis_jsonschema"} if path.name in HYPOTHESIS_LAYER else set()
        assert not (_imported_roots(path) & (ADAPTER_LIBRARIES - allowed)), path.name


def test_only_the_hypothesis_layer_imports_hypothesis() -> None:
    for path in PACKAGE.rglob("*.py"):
        layer = path.name in HYPOTHESIS_LAYER or path.parent.name in {"checks", "pytest_plugin"}
        if not layer:
            assert not (_imported_roots(path) & {"hypothesis", "hypothesis_jsonschema"}), path


def test_engine_modules_never_import_an_adapter_package() -> None:
    for path in PACKAGE.glob("*.py"):
        if path.name == "__main__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        assert not [m for m in modules if m.startswith("json_contracts.cli")], path.name


def test_the_starter_contracts_ship_inside_the_package() -> None:
    names = sorted(p.name for p in (PACKAGE / "starter").iterdir())
    assert "LICENSE.md" in names
    assert len([n for n in names if n.endswith(".json")]) >= 8
