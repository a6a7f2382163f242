"""The corpus of common contract-author mistakes (tests/data/mistakes/corpus.toml), read once.

Each entry is a contract file and what ``json-contracts lint`` must say about it: the code, where
(a text whose first occurrence is the place), the field that is wrong and the fix; some add a second
finding that must come with it (``also_code``), such as the schema finding that causes a JC020. The
docs page ``docs/reference/common-mistakes.md`` is built from the same file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from json_contracts._json.reading import line_column

__all__ = ["CORPUS", "Mistake", "corpus"]

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mistakes" / "corpus.toml"
_BOM = "\ufeff"


@dataclass(frozen=True)
class Mistake:
    """One entry: the file to write and what the output must hold (see the corpus file's header)."""

    id: str
    group: str
    title: str
    code: str
    at: str
    field: str
    fix: str
    explain: str
    contract: str
    file: str = ""
    bom: bool = False
    needs: str = ""
    also_code: str = ""
    also_at: str = ""
    also_says: str = ""

    @property
    def filename(self) -> str:
        return self.file or f"{self.id}.json"

    @property
    def text(self) -> str:
        """The file's text, exactly as written to disk."""
        return (_BOM if self.bom else "") + self.contract

    @property
    def position(self) -> tuple[int, int]:
        """The line and column the finding must point at: the first occurrence of ``at`` (the end when empty)."""
        offset = self.text.index(self.at) if self.at else len(self.text)
        return line_column(self.text, offset)

    @property
    def also_position(self) -> tuple[int, int]:
        """Where the second finding (``also_code``) must point: the first occurrence of ``also_at``."""
        return line_column(self.text, self.text.index(self.also_at))


@cache
def corpus() -> tuple[Mistake, ...]:
    """Every entry, in file order."""
    entries = tomllib.loads(CORPUS.read_text(encoding="utf-8"))["mistake"]
    return tuple(Mistake(**entry) for entry in entries)
