"""Formats and ban lists: which cards may be chosen as a name (706, D5)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .errors import UnknownFormat
from .messages import Message, say
from .names import fold

FORMATS = ("vintage", "legacy", "commander", "modern", "pauper", "all")
DEFAULT_FORMAT = "vintage"
COMMANDER = "commander"  # the format whose players bring commanders (D14)


def check_format(name: str | None) -> str:
    """Return the format's canonical name, or raise UnknownFormat."""
    fmt = (name or DEFAULT_FORMAT).strip().lower()
    if fmt not in FORMATS:
        raise UnknownFormat(name, FORMATS)
    return fmt


@dataclass(frozen=True)
class BanEntry:
    """One line of the Mental Magic list: banned (706.2–706.4) or watched (706.4a)."""

    rule: str
    french_name: str
    english_name: str | None  # None: the French name could not be resolved
    status: str  # "banned" | "watched"


class BanList:
    """The Mental Magic list, a playgroup's data (an edited CSV), keyed by folded English name."""

    def __init__(self, entries: list[BanEntry]):
        self.entries = tuple(entries)
        self._by_name: dict[str, BanEntry] = {}
        self._by_card: dict[str, BanEntry | None] = {}
        for e in entries:
            if e.english_name:
                self._by_name[fold(e.english_name)] = e
                # a multi-face card may be listed by its full name or its front face
                front = e.english_name.split(" // ")[0]
                self._by_name.setdefault(fold(front), e)

    def entry_for(self, card: Card) -> BanEntry | None:
        try:
            return self._by_card[card.name]
        except KeyError:  # first time this card is asked about
            entry = self._by_name.get(fold(card.name)) or self._by_name.get(fold(card.front.name))
            self._by_card[card.name] = entry
            return entry

    def status(self, card: Card) -> str | None:
        e = self.entry_for(card)
        return e.status if e else None

    @property
    def unresolved(self) -> tuple[BanEntry, ...]:
        return tuple(e for e in self.entries if not e.english_name)


@dataclass(frozen=True)
class Refusal:
    """Why a card can't be chosen in a format: the rule and a sentence."""

    rule: str
    message: Message


def format_refusal(card: Card, fmt: str, bans: BanList, legalities_known: bool = True) -> Refusal | None:
    """D5: None when the card may be chosen in ``fmt``; else the rule that stops it."""
    if not card.in_library:
        return Refusal("704.1", say("card.not_in_library", card=card.said_name))
    entry = bans.entry_for(card)
    if entry and entry.status == "banned":
        return Refusal(entry.rule, say("format.banlist", card=card.said_name, rule=entry.rule))
    if fmt == "all" or not legalities_known:
        return None
    status = (card.legalities or {}).get(fmt)
    if status in ("banned", "restricted"):
        code = "format.banned" if status == "banned" else "format.restricted"
        return Refusal("706.1", say(code, card=card.said_name, format=fmt))
    if status != "legal":
        return Refusal("704.1", say("format.not_in", card=card.said_name, format=fmt))
    return None
