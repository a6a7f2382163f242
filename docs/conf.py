"""Sphinx configuration for the json-contracts documentation site.

Built strictly by ``scripts/check``::

    sphinx-build --fail-on-warning --keep-going --nitpicky --quiet --builder html docs docs/_build/html

so a broken link, a page missing from every toctree, an unknown cross-reference or a finding code
missing from the rules page fails the build. No extension here reaches the network: autodoc imports
the installed ``json_contracts`` package, and there is no intersphinx.
"""

from __future__ import annotations

import sys
from importlib.metadata import version as installed_version
from pathlib import Path

from docutils import nodes  # type: ignore[import-untyped]  # docutils ships no type information
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

# -- Project -----------------------------------------------------------------------------------------

project = "json-contracts"
author = "json-contracts contributors"
copyright = "json-contracts contributors"  # shown in the footer
release = installed_version("json-contracts")
version = ".".join(release.split(".")[:2])

# -- Sources -----------------------------------------------------------------------------------------

extensions = [
    "myst_parser",  # the pages are MyST Markdown
    "sphinx.ext.autodoc",  # the Python API page documents json_contracts.__all__
    "sphinx.ext.napoleon",  # the docstrings' Google-style "Raises:" sections
    "finding_codes",  # docs/_ext: the rules page's tables, from the finding catalogue
    "common_mistakes",  # docs/_ext: the common-mistakes page, from the corpus the tests check
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
nitpicky = True  # every cross-reference must resolve (also --nitpicky in scripts/check)

# MyST: local links are checked (a link to a missing page or anchor is a warning, so a failure),
# and headings down to ### get GitHub-style anchors, so `commands.md#check` works.
myst_all_links_external = False
myst_heading_anchors = 3
myst_enable_extensions = ["deflist"]  # "term\n: definition" lists

# -- Python API (autodoc + napoleon) ------------------------------------------------------------------

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = False
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False

# Names the public API is documented under (json_contracts.X) but defined in an internal module
# (json_contracts.contracts.model.Contract): a signature that mentions the internal path links to
# the public entry (see _public_name below).
_PUBLIC = {
    "json_contracts.agent.payloads.validation_payload": "json_contracts.validate_json",
}

# Types that cannot resolve without intersphinx (no network in CI): Python's own builtins and
# standard library, and third-party libraries whose types appear in signatures. Nothing of
# json-contracts' own is ignored here: its types are documented or linked to their public name.
nitpick_ignore_regex = [
    # Python builtins and standard library
    (r"py:(class|exc|obj|data)", r"(str|int|float|bool|bytes|dict|list|tuple|set|frozenset|object|type|None)"),
    (r"py:(class|exc|obj|data)", r"(Exception|ValueError|TypeError|KeyError|OSError|AssertionError)"),
    (r"py:(class|obj|data)", r"(typing|collections|collections\.abc|os|pathlib|dataclasses|enum|_thread)\..*"),
    (r"py:(class|obj|data)", r"(Any|Path|PathLike|Mapping|Iterable|Iterator|Sequence|Callable|Literal)"),
    # third-party: Hypothesis strategies, jsonschema validators, referencing registries, click, regress
    (r"py:(class|obj|exc)", r"(hypothesis|jsonschema|referencing|click|regress)\..*"),
]

# -- HTML --------------------------------------------------------------------------------------------

html_theme = "furo"
html_title = f"json-contracts {release}"
html_static_path: list[str] = []
html_show_sourcelink = False


def _public_name(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolve a json-contracts type that a signature names by another path than the one documented.

    ``json_contracts.contracts.model.Contract`` resolves to ``json_contracts.Contract``, and a bare
    ``CompiledSchema`` (a string annotation) to the one documented ``json_contracts.….CompiledSchema``.
    Names outside json-contracts are left alone (and fail the build unless ignored above).
    """
    if node.get("refdomain") != "py":
        return None
    target = str(node.get("reftarget", ""))
    python = env.domains.python_domain
    kind = str(node.get("reftype", "class"))
    if target.startswith("json_contracts."):
        candidates = [_PUBLIC.get(target, "json_contracts." + target.rsplit(".", 1)[-1])]
    elif "." not in target:
        found = python.find_obj(env, "", "", target, "class" if kind == "class" else None, 1)
        documented = [name for name, entry in found if name.startswith("json_contracts.") and not entry.aliased]
        candidates = documented if len(documented) == 1 else []
    else:
        return None
    for candidate in candidates:
        if candidate != target:
            resolved: nodes.Element | None = python.resolve_xref(
                env, str(node.get("refdoc", "")), app.builder, kind, candidate, node, contnode
            )
            if resolved is not None:
                return resolved
    return None


def _factory_defaults(
    app: Sphinx,
    what: str,
    name: str,
    obj: object,
    options: object,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None]:
    """Show a dataclass field's ``default_factory`` as ``...``: ``<factory>`` is not Python, and
    Sphinx would then split the signature at every comma, ``dict[str, X]`` included."""
    if signature is not None:
        signature = signature.replace("<factory>", "...")
    return signature, return_annotation


def setup(app: Sphinx) -> None:
    app.connect("missing-reference", _public_name)
    app.connect("autodoc-process-signature", _factory_defaults)
