"""Contract and document text made safe for the medium it is printed in.

Contracts arrive in pull requests and documents come from models, and both reach what the CLI,
the Action and the pytest plugin print: a terminal, which obeys escape sequences and reorders text
around bidi controls, and a CI log, where GitHub's runner obeys any line that starts with ``::``
once leading whitespace is trimmed (``::error::…``, ``::stop-commands::…``) and any line holding
the legacy ``##[name]`` form anywhere. Each medium has one rule, applied where text is rendered:

- text (:func:`escape_text`): every C0 character (line feed and tab included), DEL, every C1
  character, the bidi embeddings, overrides and isolates, and the line and paragraph separators
  show as ``\\u001b``-style escapes, so no contract text can start a new line, move the cursor or
  reorder what follows; ``##[`` becomes ``##\\u005b`` and a leading ``::`` becomes ``\\u003a:``.
- file names (:func:`shown_name`): bytes that are not UTF-8 (which Python hands over as surrogate
  escapes) show as ``\\xff``, so a name can always be printed and written as UTF-8.
- JSON (:func:`escape_json`): the same characters as ``\\u`` escapes inside the JSON strings, so
  the value read back is the original text exactly, and a log shows nothing a reader would obey.

GitHub annotations (:mod:`.github`) and the markdown summary (:mod:`.markdown`) start from
:func:`visible` and add their own escaping.
"""

from __future__ import annotations

import re

__all__ = ["escape_json", "escape_text", "shown_name", "visible"]

_BIDI_AND_SEPARATORS = "\u2028\u2029\u202a-\u202e\u2066-\u2069"
#: Characters shown as escapes: C0 but CR and LF, DEL and C1, bidi controls, line separators, surrogates.
_RISKY_KEEPING_BREAKS = re.compile(f"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f{_BIDI_AND_SEPARATORS}\ud800-\udfff]")
_RISKY = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI_AND_SEPARATORS}\ud800-\udfff]")
#: The legacy workflow-command prefix, which the runner finds anywhere in a line.
_LEGACY_COMMAND = "##["
_LEGACY_SHOWN = "##\\u005b"
#: What may stand raw in JSON text and be read as a control or a command: never a JSON escape's part.
_RISKY_IN_JSON = re.compile(f"[\x7f-\x9f{_BIDI_AND_SEPARATORS}]|##\\[")
_ESCAPED_BYTE = range(0xDC80, 0xDD00)  # the surrogates that stand for bytes 0x80-0xFF of a file name


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if code in _ESCAPED_BYTE else f"\\u{code:04x}"


def visible(text: str, *, line_breaks: bool = False) -> str:
    """``text`` with every control, bidi and separator character shown as an escape.

    With ``line_breaks``, CR and LF stay as they are, for a medium that encodes them its own way
    (GitHub's ``%0A``, markdown's ``<br>``). A file-name byte that is not UTF-8 shows as ``\\xNN``.
    """
    return (_RISKY_KEEPING_BREAKS if line_breaks else _RISKY).sub(_shown, text)


def shown_name(name: str) -> str:
    """A file name or path as it can be printed: bytes that are not UTF-8 as ``\\xNN``, the rest as it is.

    Only the escaped bytes change, so the name stays the original text for JSON; the text and
    markdown renderers escape the rest of it as they escape every other text.
    """
    if not re.search("[\ud800-\udfff]", name):
        return name
    return re.sub("[\ud800-\udfff]", _shown, name)


def escape_text(text: str) -> str:
    """Contract or document text as one piece of a line on a terminal or in a CI log.

    Shows every risky character as an escape (:func:`visible`), so the piece cannot start a
    line, and takes the runner's two command forms apart: ``##[`` anywhere, and ``::`` where the
    piece starts (a file name can start a line, and the runner trims whitespace before looking).
    """
    shown = visible(text)
    if _LEGACY_COMMAND in shown:
        shown = shown.replace(_LEGACY_COMMAND, _LEGACY_SHOWN)
    start = len(shown) - len(shown.lstrip())
    if shown.startswith("::", start):
        shown = f"{shown[:start]}\\u003a{shown[start + 1 :]}"
    return shown


def _json_escape(match: re.Match[str]) -> str:
    found = match.group()
    return _LEGACY_SHOWN if found == _LEGACY_COMMAND else f"\\u{ord(found):04x}"


def escape_json(text: str) -> str:
    """JSON text with DEL, C1, bidi controls, line separators and ``##[`` written as ``\\u`` escapes.

    Those characters can only stand inside strings of JSON text (its structure is ASCII, and
    ``#`` is never structural), and never inside an escape sequence, so each ``\\uXXXX`` reads
    back as the character it replaces: the value is unchanged. C0 characters are escaped by
    every JSON writer already.
    """
    return _RISKY_IN_JSON.sub(_json_escape, text)
