"""Contract names: the safe-name rule and the order names are listed in.

A contract's name is its file name without ``.json``. The rule keeps names usable as file
names and URI segments (no path separators, no ``..``), exactly as the TypeScript server enforces it.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "CONTRACT_NAME_PATTERN",
    "collation_key",
    "is_safe_name",
    "name_from_filename",
    "name_rule_hint",
    "suggested_name",
]

#: The rule as a JS/ECMA regex; published as the ``pattern`` of contract-name arguments.
CONTRACT_NAME_PATTERN = r"^(?!.*\.\.)(?!.*[\\/])[A-Za-z0-9][A-Za-z0-9._-]*$"
_SAFE_NAME = re.compile(r"(?!.*\.\.)(?!.*[\\/])[A-Za-z0-9][A-Za-z0-9._-]*", re.ASCII)
# ICU root collation's primary order for the characters file names use: spaces, punctuation and
# symbols, digits, then letters (accents and case only break ties).
_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"
_RANKS = {ch: i for i, ch in enumerate(_ORDER)}


def is_safe_name(name: str) -> bool:
    """True when ``name`` may name a contract (``fullmatch``: no trailing-newline leniency)."""
    return _SAFE_NAME.fullmatch(name) is not None


def suggested_name(name: str) -> str:
    """A safe name close to ``name``: accents dropped, other characters turned into ``-``.

    ``über`` -> ``uber``, ``bad name`` -> ``bad-name``, ``_x`` -> ``x``, ``a..b`` -> ``a.b``;
    ``contract`` when nothing usable is left.
    """
    ascii_text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^A-Za-z0-9._-]+", "-", ascii_text)
    text = re.sub(r"\.{2,}", ".", text)
    text = re.sub(r"-{2,}", "-", text)
    text = text.lstrip("._-").rstrip("-")
    return text if is_safe_name(text) else "contract"


def name_rule_hint(name: str) -> str:
    """What a contract name may be, and a file name that follows the rule (the JC011 hint)."""
    return (
        "a contract name (the file name without .json) uses only ASCII letters, digits, '.', '_' and '-', "
        f"starts with a letter or digit, and never contains '..'; rename the file, e.g. to {suggested_name(name)}.json"
    )


def name_from_filename(filename: str) -> str:
    """``support-ticket.json`` -> ``support-ticket``."""
    return filename[: -len(".json")] if filename.endswith(".json") else filename


def _base(char: str) -> tuple[str, str]:
    decomposed = unicodedata.normalize("NFD", char.lower())
    return decomposed[:1], decomposed[1:]


def collation_key(text: str) -> tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...]]:
    """Sort key matching JS ``localeCompare`` (ICU root collation) for file and contract names.

    Punctuation sorts before digits before letters, letters compare case-insensitively first
    and lowercase wins ties, so ``legal.json`` < ``LICENSE.md`` < ``patient.json``.
    """
    bases = [_base(ch) for ch in text]
    primary = tuple(_RANKS.get(base, len(_ORDER) + ord(base)) for base, _ in bases)
    secondary = tuple(accents for _, accents in bases)
    tertiary = tuple(1 if ch.isupper() else 0 for ch in text)
    return primary, secondary, tertiary
