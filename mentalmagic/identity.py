"""Colour identity (903.4, D14(b)): sets of the five colours, read from mana symbols.

An identity is a frozenset of the letters W, U, B, R, G; the empty set is colourless.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .messages import Message, say

COLOURS = "WUBRG"
Identity = frozenset[str]

_COLOUR_SET = frozenset(COLOURS)
_SYMBOL = re.compile(r"\{([^{}]*)\}")
_REMINDER = re.compile(r"\([^()]*\)")


def parse_identity(letters: Iterable[str]) -> Identity:
    """An identity from colour letters (MTGJSON's ``["R", "U"]``); anything else is refused."""
    out = frozenset(str(c).upper() for c in letters)
    bad = sorted(out - set(COLOURS))
    if bad:
        raise ValueError(f"not a colour: {', '.join(bad)}")
    return out


def wubrg(identity: Iterable[str]) -> list[str]:
    """The colours in the usual order: W, U, B, R, G."""
    have = set(identity)
    return [c for c in COLOURS if c in have]


def identity_text(identity: Iterable[str]) -> Message | str:
    """'{R}{W}', or 'colourless' for the empty identity: how a 903.5c reason says it. An empty
    answer's reasons say the namer's identity once per same-cost name: an identity's text is kept."""
    said = _TEXTS.get(identity) if type(identity) is frozenset else None
    if said is not None:
        return said
    letters = wubrg(identity)
    if not letters:
        return say("identity.colourless")
    said = "".join("{" + c + "}" for c in letters)
    if type(identity) is frozenset and len(_TEXTS) < 64:  # 31 identities of the five colours
        _TEXTS[identity] = said
    return said


_TEXTS: dict[frozenset, str] = {}


def symbol_colours(text: str) -> Identity:
    """The colours of every mana symbol in ``text``, reminder text left out (903.4).

    A hybrid symbol counts each of its colours ({R/W} is red and white; {2/R} and {R/P} are
    red); {C}, {X}, {T}, {S} and other symbols have no colour.
    """
    found: set[str] = set()
    for symbol in _SYMBOL.findall(_REMINDER.sub("", text or "")):
        for part in symbol.upper().split("/"):
            part = part[1:] if len(part) == 2 and part[0] == "H" else part  # {HW}: half a white mana
            if part in _COLOUR_SET:
                found.add(part)
    return frozenset(found)
