"""The ``common-mistakes`` directive: the corpus of contract-author mistakes, with what the tool prints.

In a MyST page::

    ```{common-mistakes} ../../tests/data/mistakes/corpus.toml
    ```

renders one section per group of the corpus and, in it, one section per mistake: the file as
written (the wrong snippet), the lines ``json-contracts lint`` prints for it, and the fix in words.
The printed lines are not copied into the corpus: the directive writes each file into a scratch
folder and runs the loader and the lint rules on it while the site is built, so the page always
shows the current wording. The test suite (``tests/mistakes/``) holds the same corpus to its
promise: every line names the place, the field and the fix.

The build fails (a warning, under ``--fail-on-warning``) when the corpus cannot be read.
"""

from __future__ import annotations

import re
import tempfile
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes  # type: ignore[import-untyped]  # docutils ships no type information
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import ExtensionMetadata

from json_contracts import errors
from json_contracts._json.reading import parse_json
from json_contracts.contracts.loading import load_contracts
from json_contracts.lint import lint_result
from json_contracts.reporting.text import finding_text, sort_findings

__all__ = ["CommonMistakesDirective", "setup"]

FOLDER = "json-contracts"
_PAGES = "json_contracts_common_mistakes_pages"  # BuildEnvironment attribute: documents using the directive
_BOM = "\ufeff"
_CODE_SPAN = re.compile(r"`([^`]+)`")


def _inline(text: str) -> list[Any]:
    """Text with Markdown code spans (```x```) as docutils nodes."""
    parts: list[Any] = []
    position = 0
    for match in _CODE_SPAN.finditer(text):
        if match.start() > position:
            parts.append(nodes.Text(text[position : match.start()]))
        parts.append(nodes.literal(match.group(1), match.group(1)))
        position = match.end()
    if position < len(text):
        parts.append(nodes.Text(text[position:]))
    return parts


def _paragraph(*children: Any) -> Any:
    paragraph = nodes.paragraph()
    paragraph.extend(children)
    return paragraph


def _literal(text: str, language: str) -> Any:
    block = nodes.literal_block(text, text)
    block["language"] = language
    return block


def _printed(entry: dict[str, Any]) -> str:
    """What ``json-contracts lint`` prints about the entry's file: its lines with the entry's code
    and its ``also_code`` (every line about the file when none has them)."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        folder = root / FOLDER
        folder.mkdir()
        name = entry.get("file") or f"{entry['id']}.json"
        text = (_BOM if entry.get("bom") else "") + entry["contract"]
        (folder / name).write_bytes(text.encode("utf-8"))
        result = load_contracts(folder)
        findings = sort_findings(result.failures + lint_result(result))
        codes = {entry["code"], entry.get("also_code")}
        lines = [finding_text(f, root) for f in findings if f.code in codes]
        return "\n".join(lines or [finding_text(f, root) for f in findings])


def _is_json(text: str) -> bool:
    try:
        parse_json(text)
    except errors.JsonParseError:
        return False
    return True


class CommonMistakesDirective(SphinxDirective):
    """``{common-mistakes} CORPUS``: a section per group and per mistake of a corpus file (TOML)."""

    required_arguments: ClassVar[int] = 1
    optional_arguments: ClassVar[int] = 0
    has_content: ClassVar[bool] = False

    def run(self) -> list[Any]:
        _, path = self.env.relfn2path(self.arguments[0].strip())
        self.env.note_dependency(path)
        _pages(self.env).add(self.env.docname)
        try:
            entries = tomllib.loads(Path(path).read_text(encoding="utf-8"))["mistake"]
        except (OSError, tomllib.TOMLDecodeError, KeyError) as exc:
            raise self.error(f"common-mistakes: cannot read the corpus {path}: {exc}") from exc
        groups: dict[str, list[dict[str, Any]]] = {}
        for entry in entries:
            groups.setdefault(entry["group"], []).append(entry)
        return [self._group(title, members) for title, members in groups.items()]

    def _section(self, anchor: str, *title: Any) -> Any:
        section = nodes.section(ids=[anchor], names=[anchor])
        section += nodes.title("", "", *title)
        self.state.document.note_implicit_target(section, section)
        return section

    def _group(self, title: str, entries: list[dict[str, Any]]) -> Any:
        section = self._section(nodes.make_id(title), nodes.Text(title))
        for entry in entries:
            section += self._mistake(entry)
        return section

    def _mistake(self, entry: dict[str, Any]) -> Any:
        section = self._section(f"mistake-{entry['id']}", *_inline(entry["title"]))
        name = entry.get("file") or f"{entry['id']}.json"
        text = entry["contract"]
        section += _paragraph(nodes.Text("Written in "), nodes.literal(name, f"{FOLDER}/{name}"), nodes.Text(":"))
        if entry.get("bom"):
            section += _paragraph(nodes.Text("(The file starts with a byte order mark, which no editor shows.)"))
        section += _literal(text.rstrip("\n"), "json" if _is_json(text) else "text")
        section += _paragraph(nodes.literal("json-contracts lint", "json-contracts lint"), nodes.Text(" prints:"))
        section += _literal(_printed(entry), "text")
        section += _paragraph(nodes.strong("Fix:", "Fix:"), nodes.Text(" "), *_inline(entry["explain"]))
        return section


def _pages(env: BuildEnvironment) -> set[str]:
    """The documents that use the directive; kept on the environment so incremental builds remember."""
    found: set[str] | None = getattr(env, _PAGES, None)
    if found is None:
        found = set()
        setattr(env, _PAGES, found)
    return found


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _pages(env).discard(docname)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment) -> None:
    _pages(env).update(set(docnames) & _pages(other))


def _always_outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Rebuild the pages every time: what the tool prints depends on the whole engine, not on one file."""
    return sorted(_pages(env) - removed)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("common-mistakes", CommonMistakesDirective)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-get-outdated", _always_outdated)
    return {"version": "1", "env_version": 1, "parallel_read_safe": True, "parallel_write_safe": True}
