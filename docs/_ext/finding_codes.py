"""The ``finding-codes`` directive: the table of finding codes, read from the catalogue at build time.

In a MyST page::

    ```{finding-codes} lint
    ```

renders one row per code of that family (``load``, ``lint``, ``check`` or ``document``): the code,
its name (the SARIF rule name), its default severity and its summary, straight from
:data:`json_contracts.findings.CATALOGUE`. A new code therefore appears on the rules page without
editing it. Each code cell is a link target (``jc104``), so other pages can point at a code with
``{ref}`JC104 <jc104>```.

The build fails (a warning, under ``--fail-on-warning``) when the argument is not a family, and when
a family of the catalogue is rendered on no page, so a new family cannot go unlisted either.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, get_args

from docutils import nodes  # type: ignore[import-untyped]  # docutils ships no type information
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import ExtensionMetadata

from json_contracts.findings import CATALOGUE, CodeInfo, Family
from json_contracts.findings import catalogue as catalogue_module

__all__ = ["FindingCodesDirective", "setup"]

FAMILIES: tuple[str, ...] = get_args(Family)
_RENDERED = "json_contracts_rendered_families"  # BuildEnvironment attribute: docname -> families shown there
_HEADINGS = ("Code", "Name", "Severity", "Summary")
_WIDTHS = (10, 28, 10, 52)

logger = logging.getLogger(__name__)


def _rendered(env: BuildEnvironment) -> dict[str, set[str]]:
    """Which families each document renders; kept on the environment so incremental builds remember."""
    found: dict[str, set[str]] | None = getattr(env, _RENDERED, None)
    if found is None:
        found = {}
        setattr(env, _RENDERED, found)
    return found


def _paragraph(*children: Any) -> Any:
    paragraph = nodes.paragraph()
    paragraph.extend(children)
    return paragraph


def _row(cells: Iterable[Any]) -> Any:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += cell if isinstance(cell, nodes.Element) else _paragraph(nodes.Text(str(cell)))
        row += entry
    return row


class FindingCodesDirective(SphinxDirective):
    """``{finding-codes} FAMILY``: a table of every catalogue code of one family."""

    required_arguments: ClassVar[int] = 1
    optional_arguments: ClassVar[int] = 0
    has_content: ClassVar[bool] = False

    def run(self) -> list[Any]:
        family = self.arguments[0].strip()
        if family not in FAMILIES:
            raise self.error(f"finding-codes: unknown family {family!r}; use one of {', '.join(FAMILIES)}")
        # Rebuild the page whenever the catalogue changes.
        self.env.note_dependency(catalogue_module.__file__)
        _rendered(self.env).setdefault(self.env.docname, set()).add(family)
        infos = [info for info in CATALOGUE.values() if info.family == family]

        table = nodes.table(classes=["finding-codes"])
        group = nodes.tgroup(cols=len(_HEADINGS))
        table += group
        for width in _WIDTHS:
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row(_HEADINGS)
        group += head
        body = nodes.tbody()
        body.extend(_row(self._cells(info)) for info in infos)
        group += body
        return [table]

    def _cells(self, info: CodeInfo) -> list[Any]:
        code = str(info.code)
        anchor = code.lower()
        target = nodes.target("", "", ids=[anchor], names=[anchor])
        self.state.document.note_explicit_target(target, target)
        return [
            _paragraph(target, nodes.strong(code, code)),
            _paragraph(nodes.literal(info.name, info.name)),
            info.severity,
            info.summary,
        ]


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _rendered(env).pop(docname, None)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment) -> None:
    mine = _rendered(env)
    for docname, families in _rendered(other).items():
        if docname in docnames:
            mine[docname] = set(families)


def _check_every_family_listed(app: Sphinx, env: BuildEnvironment) -> None:
    shown = {family for families in _rendered(env).values() for family in families}
    for family in sorted({info.family for info in CATALOGUE.values()} - shown):
        logger.warning(
            "finding codes of family %r appear on no page; add a ```{finding-codes} %s``` block to "
            "docs/reference/rules.md",
            family,
            family,
        )


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_directive("finding-codes", FindingCodesDirective)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-check-consistency", _check_every_family_listed)
    return {"version": "1", "env_version": 1, "parallel_read_safe": True, "parallel_write_safe": True}
