"""What a red team would try, as Hypothesis strategies, and a bounded way to run the real CLI on it.

The strategies build contracts and documents, not fixed cases: catastrophic and polynomial
patterns with the string that makes a backtracking engine stall, ``$ref`` graphs that fan out or
loop (spelled every way a pointer can be), schema numbers far beyond any document, and text with
control characters and GitHub workflow commands for names, descriptions and rules.
:func:`run_bounded` runs a command in a subprocess and reports its wall time and peak memory, so a
test states its bound on both.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.support.cli import script_path

__all__ = [
    "Hostile",
    "Ran",
    "control_texts",
    "hostile_pattern_cases",
    "huge_number_schemas",
    "injected_lines",
    "ref_graph",
    "ref_graphs",
    "run_bounded",
    "write_contract",
]

# --- patterns -------------------------------------------------------------------------------------

# An atom of a pattern and a character it matches (the attack string repeats it).
_ATOMS: list[tuple[str, str]] = [
    ("a", "a"),
    ("\\w", "a"),
    ("\\d", "1"),
    (".", "a"),
    ("[a-z]", "b"),
    ("\\S", "x"),
    ("[^@]", "a"),
    ("(?:ab)", "ab"),
    ("\\p{L}", "é"),
    ("[\\s\\S]", " "),
]

# Shapes that take exponential time on a backtracking engine (``{0}`` is the atom).
_EXPONENTIAL = [
    "^({0}+)+$",
    "^(?<w>{0}+)+$",
    "^({0}|{0}{0})+$",
    "^({0}*)*$",
    "^(?:{0}+)*!?$",
    "^(?:{0}|{0}?)+$",
    "^({0}+){{2,}}$",
    "(.*{0}){{12}}",
]
# Shapes that take polynomial time (the e-mail pattern of many a contract among them).
_POLYNOMIAL = [
    "\\S+@\\S+\\.\\S+",
    "{0}+@",
    "^{0}*{0}*{0}*$",
    "{0}+{0}+{0}+!",
    "^(?:{0}+\\s?)*$",
]
# Shapes only a backtracking engine can run (lookarounds, back-references): they take the worker.
_BACKTRACKING_ONLY = [
    "^(?=({0}+)+$)",
    "^({0}+)\\1+!",
    "(?<=({0}+)+)!",
    "^(?!({0}|{0}{0})+$)",
]


@dataclass(frozen=True)
class Hostile:
    """A contract property's pattern and a value that drives a backtracking engine to its worst."""

    pattern: str
    value: str
    shape: str


def _case(shape: str, template: str, atom: tuple[str, str], length: int) -> Hostile:
    return Hostile(template.format(atom[0]), atom[1] * length + "!", shape)


def hostile_pattern_cases(max_length: int = 200_000) -> st.SearchStrategy[Hostile]:
    """A catastrophic, polynomial or backtracking-only pattern and its attack string.

    Exponential shapes need only a few dozen characters; polynomial ones need many (up to
    ``max_length``), which is why a document's size limit alone bounds nothing.
    """
    atoms = st.sampled_from(_ATOMS)
    return st.one_of(
        st.builds(_case, st.just("exponential"), st.sampled_from(_EXPONENTIAL), atoms, st.integers(28, 64)),
        st.builds(
            _case,
            st.just("polynomial"),
            st.sampled_from(_POLYNOMIAL),
            atoms,
            st.integers(max_length // 4, max_length),
        ),
        st.builds(_case, st.just("backtracking-only"), st.sampled_from(_BACKTRACKING_ONLY), atoms, st.integers(28, 64)),
    )


# --- $ref graphs ---------------------------------------------------------------------------------

# Ways to spell a pointer to "#/$defs/n0"; the first is plain, the rest encode or detour.
_LOOP_SPELLINGS = [
    "#/$defs/n0",
    "#/%24defs/n0",
    "#/$defs/n%30",
    "#/%24%64efs/n0",
    "#/$defs/n0/allOf/0/..",  # not a pointer the validator can follow: must be a clean load error
    "#/$defs/n0/properties/x",
    "#/$defs/n0/notAKeyword",
]


def ref_graph(depth: int, fan: str, loop: str | None) -> dict[str, Any]:
    defs: dict[str, Any] = {}
    for level in range(depth):
        ref = {"$ref": f"#/$defs/n{level + 1}"}
        if fan == "properties":
            defs[f"n{level}"] = {"type": "object", "properties": {"a": ref, "b": dict(ref)}}
        else:
            defs[f"n{level}"] = {fan: [ref, dict(ref)]}
    defs[f"n{depth}"] = {"type": "string"} if loop is None else {"$ref": loop}
    # Places a loop may run through: a property's schema and a member no keyword owns.
    defs["n0"].setdefault("properties", {})["x"] = {"$ref": "#/$defs/n1"}
    defs["n0"]["notAKeyword"] = {"$ref": "#/$defs/n1"}
    return {"$ref": "#/$defs/n0", "$defs": defs}


def ref_graphs() -> st.SearchStrategy[dict[str, Any]]:
    """Schemas whose ``$ref`` graph fans out twice per level (2**depth paths) and may loop back."""
    return st.builds(
        ref_graph,
        st.integers(4, 40),
        st.sampled_from(["anyOf", "allOf", "properties"]),
        st.one_of(st.none(), st.sampled_from(_LOOP_SPELLINGS)),
    )


# --- schema numbers -------------------------------------------------------------------------------

_HUGE = [0, 1, 1e-300, 5e-324, 1e-9, 0.1, 1e7, 1e9, 2**31, 2**53 + 1, 10**30, 1e300]
_COUNTED = {
    "maxLength": "string",
    "minLength": "string",
    "minItems": "array",
    "maxItems": "array",
    "minProperties": "object",
    "maxProperties": "object",
    "multipleOf": "number",
    "minimum": "number",
    "maximum": "number",
    "exclusiveMinimum": "number",
}


def _with_number(keyword: str, value: float, also: str | None, also_value: float) -> dict[str, Any]:
    kind = _COUNTED[keyword]
    schema: dict[str, Any] = {"type": kind, keyword: value}
    if also is not None and _COUNTED[also] == kind and also != keyword:
        schema[also] = also_value
    if keyword in {"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"}:
        schema[keyword] = int(value) if value >= 1 else 0
    if also in schema and also in {"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"}:
        schema[also] = int(also_value) if also_value >= 1 else 0
    if keyword == "multipleOf" and value == 0:
        schema[keyword] = 1e-300
    return {"type": "object", "required": ["v"], "properties": {"v": schema}}


def huge_number_schemas() -> st.SearchStrategy[dict[str, Any]]:
    """A schema whose only odd thing is a number: a length, a count, a step or a bound."""
    keywords = st.sampled_from(sorted(_COUNTED))
    numbers = st.sampled_from(_HUGE)
    return st.builds(_with_number, keywords, numbers, st.one_of(st.none(), keywords), numbers)


# --- text for outputs ------------------------------------------------------------------------------

#: Lines that GitHub's runner, or a terminal, would act on if they reached a log or a screen raw.
injected_lines = [
    "\n::error::pwned",
    "\n::stop-commands::hijack",
    "\r\n::add-mask::secret",
    "\n::set-output name=x::y",
    "\n##[error]pwned",
    "\x1b]52;c;cHduZWQ=\x07",
    "\x1b[2J\x1b[H",
    "\x1b]8;;https://example.invalid\x07link\x1b]8;;\x07",
    "\u202eevil\u202c",
    "\u2028::error::after a line separator",
    "\x08\x08\x08ok",
    "\x00\x7f\x9b",
]


def control_texts() -> st.SearchStrategy[str]:
    """Ordinary words around something a log or a terminal would act on."""
    return st.builds(
        lambda before, bad, after: before + bad + after,
        st.text(alphabet="abc ", max_size=6),
        st.sampled_from(injected_lines),
        st.text(alphabet="xyz ", max_size=6),
    )


def write_contract(folder: Path, name: str, schema: dict[str, Any], **fields: Any) -> Path:
    """Write a minimal contract (description, schema, no examples unless given) as ``name.json``."""
    folder.mkdir(parents=True, exist_ok=True)
    contract = {"description": fields.pop("description", "A hostile contract."), "schema": schema, **fields}
    path = folder / f"{name}.json"
    path.write_text(json.dumps(contract, indent=2), encoding="utf-8")
    return path


# --- running the CLI within a bound ------------------------------------------------------------------


@dataclass(frozen=True)
class Ran:
    """A finished command: exit code, outputs, wall time in seconds and peak RSS in MiB."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_mib: float


def run_bounded(
    args: list[str],
    *,
    cwd: Path,
    timeout: float,
    env: dict[str, str] | None = None,
    stdin: bytes = b"",
    address_space: int | None = None,
    unset: tuple[str, ...] = (),
) -> Ran:
    """Run ``json-contracts ARGS`` and measure it; a run past ``timeout`` is killed and fails the test.

    Peak memory is the child's own ``ru_maxrss`` (``os.wait4``), so parallel tests do not mix.
    ``address_space`` (bytes) caps the child's memory with ``RLIMIT_AS``; ``unset`` names
    variables of this process the child must not inherit (``env`` is applied after them).
    """
    environ = {k: v for k, v in os.environ.items() if k not in {"GITHUB_ACTIONS", *unset}}
    environ.update(env or {})

    def limit() -> None:
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    started = time.monotonic()
    process = subprocess.Popen(
        [str(script_path()), *args],
        cwd=cwd,
        env=environ,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=limit,
    )
    outputs: dict[str, bytes] = {}

    def drain(name: str, stream: Any) -> None:
        outputs[name] = stream.read()

    readers = [
        threading.Thread(target=drain, args=("out", process.stdout)),
        threading.Thread(target=drain, args=("err", process.stderr)),
    ]
    for reader in readers:
        reader.start()
    assert process.stdin is not None
    with contextlib.suppress(BrokenPipeError):
        process.stdin.write(stdin)
    process.stdin.close()
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join()
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()
    seconds = time.monotonic() - started
    assert seconds < timeout, f"json-contracts {' '.join(args)} was killed after {timeout} s"
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return Ran(
        process.returncode,
        outputs["out"].decode("utf-8", "replace"),
        outputs["err"].decode("utf-8", "replace"),
        seconds,
        usage.ru_maxrss * scale / 1024 / 1024,
    )
