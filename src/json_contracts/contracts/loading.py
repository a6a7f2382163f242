"""Loading a contracts folder: every file checked, every problem kept as a value.

One broken file never hides the others: :func:`load_contracts` returns the contracts that
loaded and a :class:`~json_contracts.findings.Finding` per failure, in the TypeScript server's order
(duplicates first, then files in collation order). The folder as a whole has a budget of files and
bytes, checked before any file is opened: the files past it are refused by name (:func:`_past_budget`).
Only regular ``*.json`` files directly in the folder are read, opened without following links;
anything else is reported and skipped.
A file that fails only because an example output does not validate is not loaded, but its built
contract is kept in ``schema_checked`` for lint, and when a schema mistake is the proven cause the
failure's hint names it (:func:`_schema_cause`).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from json_contracts._json.hashing import sha256_of
from json_contracts._json.pointers import (
    escape_pointer_segment,
    lookup,
    pointer_from_parts,
    pointer_parts,
    resolve_local_ref,
)
from json_contracts._json.reading import parse_json, syntax_hint
from json_contracts._json.text import array_index, display_text, dumps
from json_contracts._json.values import first_too_deep, nested_too_deep
from json_contracts.contracts.limits import Limits
from json_contracts.contracts.model import Contract, LoadResult, SourceFile
from json_contracts.contracts.names import collation_key, is_safe_name, name_from_filename, name_rule_hint
from json_contracts.contracts.shape import normalise_operations, shape_issues, without_proto_keys
from json_contracts.errors import JsonParseError, JsonTooDeepError, LoadError
from json_contracts.findings import Code, Finding, Severity
from json_contracts.schema.authoring import (
    crossed_bounds,
    known_keywords,
    object_like,
    property_schema_beside,
    undefined_required,
)
from json_contracts.schema.checking import check_schema
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.dialects import detect_dialect
from json_contracts.schema.meta_messages import join_sentences
from json_contracts.schema.validation import ErrorRecord, describe_errors, iter_errors

__all__ = ["Limits", "contract_from_text", "load_contracts", "load_contracts_strict"]


class _Failed(Exception):
    """A per-file step failed; carries the finding.

    ``schema_checked`` is the contract as built when only an example output failed (every check
    before that passed): it is not loaded, but lint can still read its schema.
    """

    def __init__(self, finding: Finding, schema_checked: Contract | None = None) -> None:
        super().__init__(finding.message)
        self.finding = finding
        self.schema_checked = schema_checked


def _finding(
    code: Code,
    message: str,
    path: Path,
    *,
    source: SourceFile | None = None,
    pointer: str = "",
    severity: Severity = "error",
    file: str | None = None,
    contract: str | None = None,
    hint: str | None = None,
) -> Finding:
    line, column = source.position(pointer) if source is not None else (1, 1)
    return Finding(
        code=code,
        severity=severity,
        message=display_text(message),
        file=display_text(file or path.name),
        path=path,
        pointer=pointer,
        line=line,
        column=column,
        contract=contract,
        hint=display_text(hint) if hint else None,
    )


def _list_directory(directory: Path, result: LoadResult) -> list[str] | None:
    """Candidate file names; skipped entries become warnings. None when the folder is missing."""
    names: list[str] = []
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.is_symlink():
                    if entry.name.lower().endswith(".json"):
                        result.warnings.append(
                            _finding(
                                Code.SKIPPED_ENTRY,
                                f"Skipped symbolic link {entry.name}; contracts are read only from "
                                "regular files inside the folder, so copy the file here instead",
                                directory / entry.name,
                                severity="warning",
                            )
                        )
                    continue
                if not entry.name.endswith(".json"):
                    if entry.name.lower().endswith(".json") and entry.is_file(follow_symlinks=False):
                        result.warnings.append(
                            _finding(
                                Code.SKIPPED_ENTRY,
                                f"Skipped {entry.name}: contract files must end in lower-case .json; rename it",
                                directory / entry.name,
                                severity="warning",
                            )
                        )
                    continue
                if not entry.is_file(follow_symlinks=False):
                    kind = "folder" if entry.is_dir(follow_symlinks=False) else "special file"
                    result.warnings.append(
                        _finding(
                            Code.SKIPPED_ENTRY,
                            f"Skipped {entry.name}: it is a {kind}, not a regular file",
                            directory / entry.name,
                            severity="warning",
                        )
                    )
                    continue
                names.append(entry.name)
    except FileNotFoundError:
        return None
    return sorted(names, key=collation_key)


def _past_budget(root: Path, names: list[str], limits: Limits) -> dict[str, Finding]:
    """The files past the folder's budget (``limits.max_folder_files``, ``limits.max_folder_bytes``), each
    with the finding that refuses it.

    Counted in ``names``' order (the load order) from sizes on disk, before any file is opened:
    the first files that fit are loaded, and from the first that does not, every later one is
    refused by name, so which files load never depends on the listing's order. A file over its
    own size limit is refused on its own and uses none of the budget, since it is never read.
    """
    sizes: dict[str, int] = {}
    for filename in names:
        try:
            size = os.lstat(root / filename).st_size
        except OSError:  # gone since the listing: reading it reports that
            size = 0
        if size <= limits.max_file_bytes:
            sizes[filename] = size
    count = total = 0
    stopped: str | None = None
    past: list[str] = []
    for filename, size in sizes.items():
        if stopped is None and count + 1 > limits.max_folder_files:
            stopped = "files"
        elif stopped is None and total + size > limits.max_folder_bytes:
            stopped = "bytes"
        if stopped is None:
            count, total = count + 1, total + size
        else:
            past.append(filename)
    if stopped == "files":
        variable = "JSON_CONTRACTS_MAX_FOLDER_FILES"
        figure = f"{root} holds {len(sizes)} contract files, over the folder limit of {limits.max_folder_files}"
    else:
        variable = "JSON_CONTRACTS_MAX_FOLDER_BYTES"
        figure = (
            f"the contract files of {root} come to {sum(sizes.values())} bytes, over the folder limit of "
            f"{limits.max_folder_bytes} bytes"
        )
    hint = f"raise {variable}, or move some contracts to another folder"
    return {
        filename: _finding(
            Code.FOLDER_OVER_BUDGET,
            f"Contract file not loaded: {figure} ({variable}); from {past[0]} on, in name order, files are not read",
            root / filename,
            contract=name_from_filename(filename),
            hint=hint,
        )
        for filename in past
    }


def _read_text(path: Path, limits: Limits) -> str:
    """Read a regular file without following links or blocking on special files."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _Failed(_finding(Code.PATH_ESCAPE, f"Path escapes contracts directory: {path}", path)) from exc
        raise _Failed(_finding(Code.UNREADABLE_FILE, f"Cannot read contract file: {exc.strerror}", path)) from exc
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):  # replaced by something else after the listing
            raise _Failed(
                _finding(Code.UNREADABLE_FILE, f"Cannot read contract file: {path.name} is not a regular file", path)
            )
        if info.st_size > limits.max_file_bytes:
            raise _Failed(
                _finding(
                    Code.FILE_TOO_LARGE,
                    f"Contract file exceeds size limit ({info.st_size} > {limits.max_file_bytes} bytes)",
                    path,
                )
            )
        try:
            data = handle.read(limits.max_file_bytes + 1)
        except OSError as exc:  # an I/O error is this file's failure, never the whole load's
            raise _Failed(_finding(Code.UNREADABLE_FILE, f"Cannot read contract file: {exc.strerror}", path)) from exc
    if len(data) > limits.max_file_bytes:  # the file grew after fstat
        raise _Failed(
            _finding(
                Code.FILE_TOO_LARGE,
                f"Contract file exceeds size limit ({len(data)} > {limits.max_file_bytes} bytes)",
                path,
            )
        )
    return data.decode("utf-8", errors="replace")


def _build(name: str, source: SourceFile, data: Any, limits: Limits) -> Contract:
    """Steps 5-10 of the per-file pipeline on parsed data."""
    path = source.path

    def fail(code: Code, message: str, pointer: str = "", hint: str | None = None) -> _Failed:
        return _Failed(_finding(code, message, path, source=source, pointer=pointer, contract=name, hint=hint))

    deep = first_too_deep(data, limits.max_file_depth)
    if deep is not None:
        raise fail(Code.NESTED_TOO_DEEP, _nested_too_deep(limits), deep)
    if isinstance(data, dict) and "version" in data:
        raise fail(Code.VERSION_FIELD, "Contract must not include a version field; use Git for versioning", "/version")
    issues = shape_issues(data)
    if issues:
        message = "Invalid contract shape: " + ", ".join(issue.message for issue in issues)
        hint = join_sentences(issue.hint for issue in issues if issue.hint)
        raise fail(Code.INVALID_SHAPE, message, issues[0].pointer, hint)
    operations = normalise_operations(data.get("operations"))
    examples = without_proto_keys(data.get("examples", []))
    total = len(examples) + sum(len(op["examples"]) for op in operations.values())
    if total > limits.max_examples:
        raise fail(
            Code.TOO_MANY_EXAMPLES, f"Contract examples exceed limit ({total} > {limits.max_examples})", "/examples"
        )
    schema = data["schema"]
    schema_bytes = len(dumps(schema, indent=None).encode("utf-8", "surrogatepass"))
    if schema_bytes > limits.max_schema_bytes:
        raise fail(
            Code.SCHEMA_TOO_LARGE,
            f"Contract schema exceeds size limit ({schema_bytes} > {limits.max_schema_bytes} bytes)",
            "/schema",
        )
    dialect = detect_dialect(schema)
    problem = (
        dialect if isinstance(dialect, Finding) else check_schema(schema, dialect, max_depth=limits.max_schema_depth)
    )
    if problem is not None:
        raise fail(problem.code, problem.message, "/schema" + problem.pointer)
    assert isinstance(dialect, str)
    schema_hash = sha256_of(schema)
    compiled = compile_schema(schema, dialect, cache_key=schema_hash)
    description = data.get("description")
    contract = Contract(
        name=name,
        description=description if isinstance(description, str) and description else None,
        rules=list(data.get("rules", [])),
        operations=operations,
        schema=schema,
        examples=examples,
        schema_hash=schema_hash,
        dialect=dialect,
        compiled=compiled,
        source=source,
        raw=data,
    )
    for label, pointer_base, group in contract.all_examples():
        for i, example in enumerate(group):
            if not isinstance(example, dict) or "output" not in example:
                continue
            errors = list(iter_errors(compiled, example["output"]))
            if errors:
                where = f"{label}[{i}]"
                # A correct example can fail because of the schema: then the hint names the schema's line.
                advice = _advice(contract, example["output"], where, errors)
                failed = fail(
                    Code.INVALID_EXAMPLE,
                    f"Example output at {where} does not validate against contract schema: " + describe_errors(errors),
                    f"{pointer_base}/{i}/output{errors[0]['path']}",
                    advice,
                )
                failed.schema_checked = contract  # every step before this one passed: lint can read the schema
                raise failed
    return contract


def _subschema(schema: Any, path: str) -> tuple[Any, str | None]:
    """The schema a document's value at ``path`` is checked by, through ``properties``, ``items`` and
    local ``$ref``s, with its pointer in the schema (None past an anchor, whose place is not known);
    ``(None, None)`` where that is not plain (a composition, a pattern)."""

    def followed(node: Any, pointer: str | None) -> tuple[Any, str | None]:
        for _ in range(8):  # a few $ref hops at most; a loop gives up
            ref = node.get("$ref") if isinstance(node, dict) else None
            if not isinstance(ref, str):
                return node, pointer
            node = resolve_local_ref(schema, ref)
            pointer = ref[1:] if ref == "#" or ref.startswith("#/") else None
        return None, None

    pointer: str | None
    node, pointer = followed(schema, "")
    for part in pointer_parts(path):
        if not isinstance(node, dict):
            return None, None
        properties = node.get("properties")
        if isinstance(properties, dict) and part in properties:
            below = None if pointer is None else f"{pointer}/properties/{escape_pointer_segment(part)}"
            node, pointer = followed(properties[part], below)
        elif array_index(part) is not None and isinstance(node.get("items"), dict):
            node, pointer = followed(node["items"], None if pointer is None else f"{pointer}/items")
        else:
            return None, None
    return node, pointer


def _advice(contract: Contract, output: Any, where: str, errors: list[ErrorRecord]) -> str | None:
    """JC020's hint: the schema mistakes proven to cause some errors, and what to fix in the example
    for the others (a schema cause never speaks for an error it does not explain)."""
    causes = [_schema_cause(contract, output, error) for error in errors]
    named = list(dict.fromkeys(cause for cause in causes if cause is not None))
    rest = [error for error, cause in zip(errors, causes, strict=True) if cause is None]
    if not named:
        return _example_hint(contract.schema, where, errors)
    if not rest:
        return "; ".join(named)
    other = _example_hint(contract.schema, where, rest) or (
        f"the output of {where} has {len(rest)} other error(s) to fix ({describe_errors(rest)})"
    )
    return "; ".join(named) + "; besides, " + other


def _schema_cause(contract: Contract, output: Any, error: ErrorRecord) -> str | None:
    """JC020's hint when a schema mistake, not the example, makes ``error`` (the output's first) certain.

    Proven causes only, each the fact a lint rule reports (:mod:`json_contracts.schema.authoring`),
    so the hint and the finding agree: a ``required`` name ``properties`` does not define (JC112),
    when ``additionalProperties: false`` leaves no object able to pass or the output has the
    property the name misspells; crossed bounds of the failing keyword (JC115); a property's schema
    written beside ``properties``, which ``additionalProperties: false`` then forbids (JC110). The
    hint names the schema's line. Otherwise None, and the usual hint about the example stands.
    """
    source = contract.source
    parts = pointer_parts(error["path"])
    keyword = error["keyword"]
    if source is None:
        return None
    if keyword == "required" and parts:  # the path ends with the missing name
        node, pointer = _subschema(contract.schema, pointer_from_parts(parts[:-1]))
        has, value = lookup(output, pointer_from_parts(parts[:-1]))
        for found in undefined_required(node) if isinstance(node, dict) and pointer is not None else ():
            if found.name != parts[-1]:
                continue
            if not found.closed and not (has and isinstance(value, dict) and found.meant in value):
                return None  # the output could still add it: the example may be what is wrong
            fix = f'did you mean "{found.meant}"?' if found.meant else 'add it to "properties" or remove it'
            line, _ = source.position(f"/schema{pointer}/required/{found.position}")
            return (
                f'the schema is the cause: "required" lists "{found.name}", which "properties" does not define '
                f"({fix}), line {line} ({Code.REQUIRED_NOT_DEFINED})"
            )
        return None
    if keyword == "additionalProperties" and parts:  # the path ends with the extra property's name
        node, pointer = _subschema(contract.schema, pointer_from_parts(parts[:-1]))
        name = parts[-1]
        if (
            isinstance(node, dict)
            and pointer is not None
            and node.get(keyword) is False
            and object_like(node)
            and property_schema_beside(node, name, known_keywords(contract.dialect))
        ):
            line, _ = source.position(f"/schema{pointer}/{escape_pointer_segment(name)}", key=True)
            return (
                f'the schema is the cause: "{name}" is a property\'s schema written beside "properties", so '
                f'"additionalProperties": false forbids it (move it into "properties"), line {line} '
                f"({Code.UNKNOWN_KEYWORD})"
            )
        return None
    node, pointer = _subschema(contract.schema, error["path"])
    for crossed in crossed_bounds(node) if isinstance(node, dict) and pointer is not None else ():
        if keyword in (crossed.low_key, crossed.high_key):
            line, _ = source.position(f"/schema{pointer}/{crossed.low_key}")
            return (
                f"the schema is the cause: {crossed.crossing}, so no {crossed.kind} satisfies both (lower "
                f"{crossed.low_key} or raise {crossed.high_key}), line {line} ({Code.CONTRADICTORY_BOUNDS})"
            )
    return None


def _example_hint(schema: Any, label: str, errors: list[ErrorRecord]) -> str | None:
    """What to write in the example, when the first error's message leaves it out (Ajv's enum and
    const messages do not list the values; an extra property's does not say it can be removed)."""
    first = errors[0]
    where = first["path"] or "/"
    node = _subschema(schema, first["path"])[0] if first["keyword"] in ("enum", "const") else None
    if isinstance(node, dict) and first["keyword"] == "const" and "const" in node:
        const = dumps(node["const"], indent=None)
        return f"in the output of {label}, {where} must be {const}; fix the example or the schema"
    if isinstance(node, dict) and isinstance(node.get("enum"), list) and node["enum"]:
        shown = ", ".join(dumps(value, indent=None) for value in node["enum"][:10])
        more = ", ..." if len(node["enum"]) > 10 else ""
        return f"in the output of {label}, {where} must be one of {shown}{more}; fix the example or the schema"
    if first["keyword"] == "unevaluatedProperties":  # the error is the object's; it names no property
        return (
            f"in the output of {label}, the object at {where} has a property no part of the schema defines; "
            'remove it, or define it in "properties"'
        )
    if first["keyword"] == "additionalProperties" and first["path"]:
        name = pointer_parts(first["path"])[-1]
        return f'remove "{name}" from the output of {label}, or add it to the schema\'s "properties"'
    return None


def _nested_too_deep(limits: Limits) -> str:
    fix = "flatten it (move repeated schema parts into $defs, shorten deep examples)"
    return nested_too_deep("Contract file", limits.max_file_depth, fix)


def contract_from_text(name: str, text: str, path: Path, limits: Limits | None = None) -> Contract:
    """One contract from its file text, through the same pipeline as a folder load.

    Raises:
        LoadError: the text does not make a valid contract (``problems`` holds the finding).
    """
    try:
        return _parse_and_build(name, path, text, limits or Limits())
    except _Failed as failed:
        raise LoadError(failed.finding.message, [failed.finding]) from None


def _parse_and_build(name: str, path: Path, text: str, limits: Limits) -> Contract:
    """Steps 4-10 of the per-file pipeline: parse the text, then build the contract."""
    try:
        data = parse_json(text)
    except JsonTooDeepError as exc:
        raise _Failed(_finding(Code.NESTED_TOO_DEEP, _nested_too_deep(limits), path, contract=name)) from exc
    except JsonParseError as exc:
        hint = syntax_hint(text, exc.offset)
        invalid = _finding(Code.INVALID_JSON, f"Invalid JSON: {exc.message}", path, contract=name, hint=hint)
        raise _Failed(replace(invalid, line=exc.line, column=exc.column)) from exc
    return _build(name, SourceFile(path, text), data, limits)


def load_contracts(
    directory: str | os.PathLike[str], limits: Limits | None = None, *, reuse: Mapping[str, Contract] | None = None
) -> LoadResult:
    """Load every contract in ``directory``; never raises for bad files (see ``failures``).

    ``reuse`` holds contracts loaded before (a reload): a file whose text is unchanged is not
    parsed, checked or compiled again, so a reload costs one read per file plus the work for
    the files that changed.
    """
    limits = limits or Limits()
    root = Path(os.path.abspath(directory))
    result = LoadResult(directory=root)
    try:
        names = _list_directory(root, result)
    except OSError as exc:
        result.failures.append(
            replace(
                _finding(
                    Code.UNREADABLE_DIRECTORY,
                    f"Cannot read contracts directory {root}: {exc.strerror}",
                    root,
                    file=str(root),
                ),
                line=0,
                column=0,
            )
        )
        return result
    if names is None:
        result.missing_directory = True
        missing = _finding(
            Code.MISSING_DIRECTORY,
            f"Contracts directory does not exist; no contracts loaded from {root}",
            root,
            severity="warning",
            file=str(root),
            hint="create it with json-contracts init (it writes starter contracts there), or name the folder "
            "that holds your contracts with -c DIR or JSON_CONTRACTS_DIR",
        )
        result.warnings.append(replace(missing, line=0, column=0))  # a folder has no line
        return result
    groups: dict[str, list[str]] = {}
    for filename in names:
        groups.setdefault(name_from_filename(filename).lower(), []).append(filename)
    duplicates = {f for group in groups.values() if len(group) > 1 for f in group}
    past_budget = _past_budget(root, [f for f in names if f not in duplicates], limits)
    for group in groups.values():
        if len(group) > 1:
            label = ", ".join(group)
            result.failures.append(
                _finding(Code.DUPLICATE_NAME, f"Duplicate contract name: {label}", root / group[0], file=label)
            )
    for filename in names:
        if filename in duplicates:
            continue
        if filename in past_budget:
            result.failures.append(past_budget[filename])
            continue
        path = root / filename
        name = name_from_filename(filename)
        try:
            if not is_safe_name(name):
                hint = name_rule_hint(name)
                raise _Failed(_finding(Code.INVALID_NAME, f"Invalid contract name: {name}", path, hint=hint))
            if path.parent != root:
                raise _Failed(_finding(Code.PATH_ESCAPE, f"Path escapes contracts directory: {path}", path))
            text = _read_text(path, limits)
            previous = reuse.get(name) if reuse else None
            if (
                previous is not None
                and previous.source is not None
                and (previous.source.path, previous.source.text) == (path, text)
            ):
                result.contracts[name] = previous
                continue
            result.contracts[name] = _parse_and_build(name, path, text, limits)
        except _Failed as failed:
            result.failures.append(failed.finding)
            if failed.schema_checked is not None:
                result.schema_checked[name] = failed.schema_checked
    return result


def load_contracts_strict(directory: str | os.PathLike[str], limits: Limits | None = None) -> LoadResult:
    """Load a folder, failing as a whole when any file fails (the TypeScript server's default).

    Raises:
        LoadError: with the aggregated message and every failure.
    """
    result = load_contracts(directory, limits)
    if not result.ok:
        raise LoadError(result.failure_message(), result.failures)
    return result
