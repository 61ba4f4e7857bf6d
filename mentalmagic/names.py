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


# Bidirectional overrides and isolates: invisible, and they turn the text around them (a name shown
# reversed in a log); with C0, DEL and C1 (category Cc), what a name never holds.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def has_control(text: str) -> bool:
    """Does ``text`` hold a control character (NUL, a newline, DEL, C1) or a bidirectional override?"""
    return any(unicodedata.category(c) in ("Cc", "Cs") or c in _BIDI for c in text)
