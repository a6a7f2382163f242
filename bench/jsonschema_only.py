"""The floor for a cold `validate`: import jsonschema, check each contract's schema against its
meta-schema, build its validator and validate its example outputs. Nothing else.

Run: python bench/jsonschema_only.py FOLDER
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema


def main() -> None:
    for path in sorted(Path(sys.argv[1]).glob("*.json")):
        body = json.loads(path.read_text(encoding="utf-8"))
        schema = body["schema"]
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        cls.check_schema(schema)
        validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
        groups = [body.get("examples", [])] + [op.get("examples", []) for op in body.get("operations", {}).values()]
        for group in groups:
            for example in group:
                validator.is_valid(example.get("output"))


if __name__ == "__main__":
    main()
