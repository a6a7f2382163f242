"""The --json reports of validate and lint, as dicts."""

from __future__ import annotations

import json
from pathlib import Path

from json_contracts.contracts.loading import load_contracts
from json_contracts.lint import lint_result
from json_contracts.reporting.reports import lint_report


def test_lint_warning_paths_write_digit_keys_as_they_stand(tmp_path: Path) -> None:
    # A field named "01" is reported at $[01], as before the reports moved; it once became $[1].
    contract = {"01": True, "schema": {"type": "string"}, "examples": [{"input": "i", "output": "x"}]}
    (tmp_path / "c.json").write_text(json.dumps(contract), encoding="utf-8")
    result = load_contracts(tmp_path)

    report = lint_report(result, lint_result(result), strict=False)

    paths = {warning["path"] for warning in report["warnings"]}
    assert "$[01]" in paths
