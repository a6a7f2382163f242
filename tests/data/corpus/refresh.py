"""Rebuild this folder from its sources (run by hand; the tests only read what it wrote).

    python tests/data/corpus/refresh.py --hjs HJS_REPO --schemastore SCHEMASTORE_REPO --vendor VENDOR_DIR

``HJS_REPO`` and ``SCHEMASTORE_REPO`` are Git directories (clones or bare mirrors) of
hypothesis-jsonschema and SchemaStore, read at ``HEAD`` with ``git show``; ``VENDOR_DIR`` is
``check_jsonschema/builtin_schemas/vendor`` of an installed check-jsonschema wheel. Every schema is
written compactly (no whitespace, key order and text kept): the same JSON in half the bytes. The
sample is chosen by the deterministic rule in README.md (:func:`choose_sample`), so the same
sources give the same files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

#: How many schemas of each dialect the sample takes (``None``: every one).
QUOTAS: dict[str, int | None] = {"draft-07": 130, "draft-04": 45, "2020-12": 35, "2019-09": None, "none": None}
#: Upper bounds of the size buckets (bytes of the source file), and each bucket's share of a quota.
BUCKETS = [(2_048, 0.2), (8_192, 0.3), (32_768, 0.3), (131_072, 0.15), (262_144, 0.05)]
#: Examples kept per sampled schema, from SchemaStore's ``src/test/<name>/``, at most this size each.
EXAMPLES_PER_SCHEMA = 3
EXAMPLE_MAX_BYTES = 8_192


def git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True).stdout


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


def dialect_of(schema: Any) -> str:
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if not isinstance(declared, str):
        return "none"
    for mark, name in (("draft-07", "draft-07"), ("draft-04", "draft-04"), ("draft-06", "draft-06")):
        if mark in declared:
            return name
    if "2019-09" in declared:
        return "2019-09"
    return "2020-12" if "2020-12" in declared else "other"


def _nodes(value: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(value, dict):
        yield pointer, value
        for key, item in value.items():
            yield from _nodes(item, f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nodes(item, f"{pointer}/{index}")


def _has_recursion(schema: Any) -> bool:
    """A local ``$ref`` cycle: a referenced sub-schema that reaches itself through ``$ref``s."""
    refs = [(where, node["$ref"]) for where, node in _nodes(schema) if isinstance(node.get("$ref"), str)]
    targets = {ref[1:] for _, ref in refs if ref.startswith("#")}
    edges: dict[str, set[str]] = {t: set() for t in targets}
    for where, ref in refs:
        if not ref.startswith("#"):
            continue
        for target in targets:
            if where == target or where.startswith(target + "/") or target == "":
                edges[target].add(ref[1:])
    seen: set[str] = set()
    stack: set[str] = set()

    def cyclic(node: str) -> bool:
        if node in stack:
            return True
        if node in seen:
            return False
        seen.add(node)
        stack.add(node)
        found = any(cyclic(nxt) for nxt in edges.get(node, ()))
        stack.discard(node)
        return found

    return any(cyclic(t) for t in sorted(targets))


def features(schema: Any) -> set[str]:
    """The shapes a schema shows, for the spread of the sample (names as in README.md)."""
    found: set[str] = set()
    for where, node in _nodes(schema):
        keys = set(node)
        found |= {k for k in ("oneOf", "anyOf", "not", "patternProperties", "contains", "propertyNames") if k in keys}
        if "if" in keys:
            found.add("if")
        if keys & {"dependencies", "dependentRequired", "dependentSchemas"}:
            found.add("dependencies")
        if keys & {"unevaluatedProperties", "unevaluatedItems"}:
            found.add("unevaluated")
        if isinstance(node.get("format"), str):
            found.add("format")
        if isinstance(node.get("pattern"), str):
            found.add("pattern")
        if isinstance(node.get("items"), list) or "prefixItems" in keys:
            found.add("tuple")
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref.startswith(("http://", "https://")):
                found.add("remote-ref")
            elif not ref.startswith("#"):
                found.add("id-ref")
        if where and isinstance(node.get("$id") or node.get("id"), str) and ("$id" in keys or "$ref" not in keys):
            found.add("embedded-id")
    if _has_recursion(schema):
        found.add("recursion")
    return found


def _hash(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


def choose_sample(candidates: dict[str, tuple[int, Any]]) -> list[str]:
    """The sample's file names: per dialect a quota spread over size buckets, then over features.

    Within a (dialect, bucket) group, candidates are considered in the order of the SHA-256 of their
    file name; each step takes the one whose features the selection so far holds least of (the sum
    of ``1 / (1 + times already chosen)`` over its features), the first in that order on a tie.
    """
    groups: dict[tuple[str, int], list[str]] = {}
    for name, (size, schema) in candidates.items():
        bucket = next((i for i, (limit, _) in enumerate(BUCKETS) if size <= limit), None)
        if bucket is None:
            continue
        groups.setdefault((dialect_of(schema), bucket), []).append(name)
    shapes = {name: features(schema) for name, (_, schema) in candidates.items()}
    chosen: list[str] = []
    counts: Counter[str] = Counter()
    for dialect, quota in QUOTAS.items():
        for bucket, (_, share) in enumerate(BUCKETS):
            pool = sorted(groups.get((dialect, bucket), []), key=_hash)
            take = len(pool) if quota is None else min(len(pool), round(quota * share))
            for _ in range(take):
                best = max(pool, key=lambda n: (sum(1 / (1 + counts[f]) for f in shapes[n]), -pool.index(n)))
                pool.remove(best)
                chosen.append(best)
                counts.update(shapes[best])
    return sorted(chosen)


def refresh_suite(hjs: Path) -> None:
    (HERE / "suite.json").write_bytes(git(hjs, "show", "HEAD:tests/corpus-suite-schemas.json"))
    (HERE / "LICENSES").mkdir(exist_ok=True)
    (HERE / "LICENSES" / "hypothesis-jsonschema.MPL-2.0.txt").write_bytes(git(hjs, "show", "HEAD:LICENSE"))


def refresh_vendored(vendor: Path) -> None:
    target = HERE / "schemastore" / "vendored"
    shutil.rmtree(target, ignore_errors=True)
    (target / "licenses").mkdir(parents=True)
    for path in sorted(vendor.glob("*.json")):
        (target / path.name).write_text(compact(json.loads(path.read_text(encoding="utf-8"))), encoding="utf-8")
    for path in sorted((vendor / "licenses").iterdir()):
        shutil.copyfile(path, target / "licenses" / path.name)
    shutil.copyfile(vendor / "README.md", target / "licenses" / "README.check-jsonschema.md")


def refresh_sample(repo: Path) -> list[str]:
    listing = git(repo, "ls-tree", "-r", "--name-only", "HEAD", "src/schemas/json/").decode().split("\n")
    candidates: dict[str, tuple[int, Any]] = {}
    seen: set[str] = set()
    for path in sorted(p for p in listing if p.endswith(".json")):
        try:  # a mirror may list its largest files without holding them
            raw = git(repo, "show", f"HEAD:{path}")
            schema = json.loads(raw.decode("utf-8-sig"))
        except (subprocess.CalledProcessError, UnicodeDecodeError, ValueError):
            continue
        if not isinstance(schema, dict):
            continue
        digest = hashlib.sha256(json.dumps(schema, sort_keys=True).encode()).hexdigest()
        if digest in seen:  # an exact duplicate of a file earlier in name order
            continue
        seen.add(digest)
        candidates[path.rsplit("/", 1)[1]] = (len(raw), schema)
    chosen = choose_sample(candidates)
    target = HERE / "schemastore" / "sample"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    tests = git(repo, "ls-tree", "-r", "--name-only", "HEAD", "src/test/").decode().split("\n")
    examples_dir = HERE / "schemastore" / "sample-examples"
    shutil.rmtree(examples_dir, ignore_errors=True)
    for name in chosen:
        (target / name).write_text(compact(candidates[name][1]), encoding="utf-8")
        stem = name.removesuffix(".json")
        kept = []
        for test_path in sorted(p for p in tests if p.startswith(f"src/test/{stem}/") and p.endswith(".json")):
            try:
                raw = git(repo, "show", f"HEAD:{test_path}")
                if len(raw) <= EXAMPLE_MAX_BYTES:
                    kept.append(json.loads(raw.decode("utf-8-sig")))
            except (subprocess.CalledProcessError, UnicodeDecodeError, ValueError):
                continue
            if len(kept) == EXAMPLES_PER_SCHEMA:
                break
        if kept:
            examples_dir.mkdir(exist_ok=True)
            (examples_dir / name).write_text(compact(kept), encoding="utf-8")
    (HERE / "LICENSES").mkdir(exist_ok=True)
    (HERE / "LICENSES" / "SchemaStore.Apache-2.0.txt").write_bytes(git(repo, "show", "HEAD:LICENSE"))
    (HERE / "LICENSES" / "SchemaStore.NOTICE.txt").write_bytes(git(repo, "show", "HEAD:NOTICE"))
    summary = {
        "commit": git(repo, "rev-parse", "HEAD").decode().strip(),
        "candidates": len(candidates),
        "dialects": dict(Counter(dialect_of(candidates[n][1]) for n in chosen)),
        "features": dict(sorted(Counter(f for n in chosen for f in features(candidates[n][1])).items())),
    }
    (HERE / "schemastore" / "sample-selection.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hjs", type=Path, required=True)
    parser.add_argument("--schemastore", type=Path, required=True)
    parser.add_argument("--vendor", type=Path, required=True)
    args = parser.parse_args()
    refresh_suite(args.hjs)
    refresh_vendored(args.vendor)
    chosen = refresh_sample(args.schemastore)
    print(f"suite, {len(list(args.vendor.glob('*.json')))} vendored, {len(chosen)} sampled")  # noqa: T201


if __name__ == "__main__":
    main()
