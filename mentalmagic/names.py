"""Folding names so that look-ups ignore case, accents and typographic quirks."""

import unicodedata

_TRANSLATE = str.maketrans(
    {"’": "'", "‘": "'", "`": "'", "´": "'", "–": "-", "—": "-", "Æ": "Ae", "æ": "ae", "œ": "oe", "Œ": "Oe"}
)


def fold(name: str) -> str:
    """'Lions des Savanes' and 'lions des savanes' fold alike; so do 'Æther' and 'Aether'."""
    if name.isascii() and "`" not in name:  # the common case, and much the faster
        return " ".join(name.casefold().split())
    text = unicodedata.normalize("NFKD", name.translate(_TRANSLATE))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.casefold().split())
