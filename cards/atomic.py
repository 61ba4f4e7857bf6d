"""Import an MTGJSON v5 AtomicCards file (.json, .json.gz or .json.xz) as records."""

from __future__ import annotations

import gzip
import json
import lzma
from pathlib import Path

# A meld card whose name has no " // " is the melded back face: never in a library.
MELD_RESULT = "meld_result"


def open_text(path: Path):
    """Open a JSON file that may be gzip- or xz-compressed, by its name's ending."""
    name = str(path).lower()
    if name.endswith(".xz"):
        return lzma.open(path, "rt", encoding="utf-8")
    if name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def _french(face: dict) -> tuple[str | None, str | None]:
    """(full French name, French face name) from foreignData, if any."""
    for fd in face.get("foreignData") or []:
        if fd.get("language") == "French" and fd.get("name"):
            return fd["name"], fd.get("faceName") or fd["name"]
    return None, None


def card_record(name: str, faces: list[dict]) -> dict:
    """One AtomicCards entry (its list of faces) as a record."""
    first = faces[0]
    layout = first.get("layout", "normal")
    if layout == "meld" and " // " not in name:
        layout = MELD_RESULT
    french_full, _ = _french(first)
    out_faces = []
    for pos, f in enumerate(faces):
        missing = bool(f.get("isFaceDataMissing"))
        _, french_face = _french(f)
        out_faces.append(
            {
                "position": pos,
                "name": f.get("faceName") or f.get("name") or name,
                "french_name": french_face,  # the face's own French name (the whole name for one face)
                # absent manaCost = no mana cost, unless the face itself is unknown
                "mana_cost": None if missing else f.get("manaCost", ""),
                "mana_value": None if missing else f.get("faceManaValue", f.get("manaValue")),
                "type_line": f.get("type") or "",
                "types": list(f.get("types") or []),
                "keywords": list(f.get("keywords") or []),
                "text": f.get("text") or "",
                # a face's colours carry its colour indicator, which MTGJSON doesn't give apart (903.4)
                "colors": None if missing or "colors" not in f else list(f["colors"] or []),
                # printed as text: "*", "1+*" and "X" are real values
                **{k: f.get(k) for k in ("power", "toughness", "loyalty", "defense")},
            }
        )
    legalities = {k.lower(): str(v).lower() for k, v in (first.get("legalities") or {}).items()}
    return {
        "name": name,
        "french_name": french_full,
        "layout": layout,
        "legalities": legalities,
        # the whole card's identity; every face repeats it (903.4)
        "color_identity": list(first["colorIdentity"]) if "colorIdentity" in first else None,
        "faces": out_faces,
    }


def read_atomic(path: Path, progress=None):
    """Yield a record per card of an AtomicCards file; ``progress(n)`` after each."""
    with open_text(Path(path)) as fh:
        doc = json.load(fh)
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not an MTGJSON AtomicCards file (no 'data' object)")
    for name, faces in data.items():
        if faces:
            yield card_record(name, faces)
        if progress:
            progress(1)

