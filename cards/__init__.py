"""The card-data layer: importers that turn a card source into plain records,
and the project's own data files (the embedded card snapshot, the Mental Magic ban list).

A record is a dict shaped like the card tables of ``schema.sql``::

    {"name", "french_name", "layout", "legalities": {fmt: "legal"|...},
     "color_identity": ["R", "U"] | None,
     "faces": [{"position", "name", "french_name", "mana_cost", "mana_value",
                "type_line", "types", "keywords", "text", "colors",
                "power", "toughness", "loyalty", "defense"}]}   (the last four may be absent)

``mana_cost`` is the printed cost text, ``""`` for "no mana cost", and None
when the source does not know the face (it is never guessed). ``color_identity``
is the whole card's (MTGJSON's ``colorIdentity``) and a face's ``colors`` its
colours (cost, colour indicator, characteristic-defining abilities); either is
None when the source doesn't give it. Record producers may leave both keys out.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
BANLIST_PATH = DATA_DIR / "mental-magic-banlist.csv"
# The default source: an MTGJSON-shaped AtomicCards snapshot shipped with the code (cards/README.md).
EMBEDDED_PATH = DATA_DIR / "AtomicCards.json.xz"
EMBEDDED_LABEL = "embedded: cards/AtomicCards.json.xz"

# What the snapshot assembled on 2026-11-21 is known to lack (cards/README.md, "What is missing"),
# keyed by its content: a newer file put in its place is not assumed to share these gaps.
SNAPSHOT_2026_11_21 = "a8bd0daf5f30b05f8e9977d58e0b44f7b79b958281d0f2e5573df43f22fb4aff"
KNOWN_GAPS = {
    SNAPSHOT_2026_11_21: [
        "French names of cards printed after October 2018, and of many older sets",
        "the cost, type and text of 344 later faces of multi-face cards printed after 2018 "
        "(Stomp, of Bonecrusher Giant // Stomp): they offer no cost",
        "modern and pauper legalities of most cards printed after 2018, and every format but vintage, "
        "legacy, commander, modern and pauper",
    ],
}


@dataclass
class Source:
    """A card source: what it is called, a signature that changes when it does, and what it lacks."""

    label: str
    signature: str
    path: Path
    lacks: list[str] = field(default_factory=list)
    legalities_known: bool = True
    french_known: bool = True

    def records(self, progress=None):
        from . import atomic

        return atomic.read_atomic(self.path, progress)


def sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def file_source(path: Path, label: str) -> Source:
    """The source read from ``path``.

    The embedded file, and any byte-identical copy of it, is signed by its content
    (a sha256 of 1.4 MB takes milliseconds): the same on every clone, checkout and
    path, so the cards are built once and a copy named by path is no "other source".
    An mtime would change on every checkout and rebuild the cards each time. Other
    files are signed by path, size and mtime, so a full MTGJSON download (hundreds
    of MB once decompressed) is not hashed at every start.
    """
    st = path.stat()
    embedded = EMBEDDED_PATH.stat()
    if path == EMBEDDED_PATH or st.st_size == embedded.st_size:
        digest = sha256(path)
        if path == EMBEDDED_PATH or digest == sha256(EMBEDDED_PATH):
            return Source(label=label, signature=f"sha256:{digest}", path=path,
                          lacks=list(KNOWN_GAPS.get(digest, [])))
    return Source(label=label, signature=f"file:{path}:{st.st_size}:{st.st_mtime_ns}", path=path)


def source_from_env(value: str | None = None) -> Source:
    """The source named by MENTALMAGIC_CARDS (a path), or the embedded snapshot when unset."""
    value = os.environ.get("MENTALMAGIC_CARDS", "") if value is None else value
    if not value.strip():
        return file_source(EMBEDDED_PATH, EMBEDDED_LABEL)
    path = Path(value).expanduser().resolve()
    if not path.is_file():
        raise FileNotFoundError(f"MENTALMAGIC_CARDS points to {str(path)!r}, which is not a file")
    return file_source(path, str(path))
