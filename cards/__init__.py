"""The card-data layer: importers that turn a card source into plain records,
and the project's own data files (the Mental Magic ban list).

A record is a dict shaped like the card tables of ``schema.sql``::

    {"name", "french_name", "layout", "legalities": {fmt: "legal"|...},
     "faces": [{"position", "name", "french_name", "mana_cost", "mana_value",
                "type_line", "types", "keywords", "text",
                "power", "toughness", "loyalty", "defense"}]}   (the last four may be absent)

``mana_cost`` is the printed cost text, ``""`` for "no mana cost", and None
when the source does not know the face (it is never guessed).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
BANLIST_PATH = DATA_DIR / "mental-magic-banlist.csv"


@dataclass
class Source:
    """A card source: what it is called, a signature that changes when it does, and what it lacks."""

    label: str
    signature: str
    lacks: list[str] = field(default_factory=list)
    legalities_known: bool = True
    french_known: bool = True
    path: Path | None = None

    def records(self, progress=None):
        from . import atomic, embedded

        if self.path is None:
            return embedded.read_embedded(progress)
        return atomic.read_atomic(self.path, progress)


def source_from_env(value: str | None = None) -> Source:
    """The source named by MENTALMAGIC_CARDS (a path), or the embedded default when unset."""
    value = os.environ.get("MENTALMAGIC_CARDS", "") if value is None else value
    if not value.strip():
        from .embedded import embedded_source

        return embedded_source()
    path = Path(value).expanduser().resolve()
    if not path.is_file():
        raise FileNotFoundError(f"MENTALMAGIC_CARDS points to {str(path)!r}, which is not a file")
    st = path.stat()
    return Source(label=str(path), signature=f"file:{path}:{st.st_size}:{st.st_mtime_ns}", path=path)
