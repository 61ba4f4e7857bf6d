"""The common deck (rule 700.2): a deck list read line by line, each line resolved to a card.

Two steps, both pure. ``read_line`` is the grammar: what one line of text says
(a count and a name, a comment, a section header, or something unreadable).
``parse_deck`` resolves every card line through the ``CardPool`` (any English or
French name, a whole multi-face card or one face) and reports each line it can't
load as a ``Problem`` with close suggestions; the rest of the list still loads.
``flags`` says, before a game starts, which cards a format or the Mental Magic
list bans or watches (706) and which costs the data doesn't know (704.1, D2).
``export`` writes a deck back as text that ``parse_deck`` reads to the same cards.

No maintained parser fitted the grammar (see docs/decks.md): the two on PyPI need a
count on every line, drop the lines they can't read without saying which, and
know no section header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .cards import Card
from .closenames import name_variants, suggestions
from .errors import InvalidInput, NotFound
from .formats import FORMATS
from .messages import Message, say, word_of
from .names import fold
from .pool import CardPool

MAX_COUNT = 1000  # copies on one line
MAX_SIZE = 2000  # cards in a deck: the most POST /games takes as a library
MAX_LINE = 300  # characters of one line: no card name comes close
MAX_TEXT = 200_000  # characters of a whole list (a 2,000-card list with set codes fits)
MAX_SUGGESTED = 25  # problem lines that get suggestions (a close-name search each): a hostile list can't cost minutes

# Section headers of the usual exports (MTGA, MTGO, Moxfield, deckstats...), English and French,
# folded. A line is a header when it is one of these, optionally with "(12)" or a ':' after it.
HEADERS = frozenset(fold(h) for h in (
    "deck", "main", "maindeck", "main deck", "mainboard", "sideboard", "side board", "side", "sb",
    "maybeboard", "maybe", "commander", "commanders", "companion", "about", "common deck",
    "creature", "creatures", "land", "lands", "basic lands", "nonbasic lands", "instant", "instants",
    "sorcery", "sorceries", "artifact", "artifacts", "enchantment", "enchantments", "planeswalker",
    "planeswalkers", "battle", "battles", "spell", "spells", "other spells", "noncreature spells",
    "non-creature spells", "other", "others", "tokens", "kindred", "tribal",
    "créatures", "terrains", "terrains de base", "éphémères", "rituels", "artefacts", "enchantements",
    "arpenteurs", "sorts", "autres sorts", "réserve", "bibliothèque", "deck principal", "commandant",
    "compagnon", "autres",
))

_COUNT = re.compile(r"^(?:(\d+)\s*[xX]?\s+|(\d+)[xX]|[xX](\d+)\s+)(.*)$")  # "4 ", "4x ", "4 x ", "x4 "
_TRAILING_COUNT = re.compile(r"^(.*?\S)\s+[xX](\d+)$")  # "Shock x4"
_SB_PREFIX = re.compile(r"^(?:SB|CMDR|MB)\s*:\s*", re.IGNORECASE)  # MTGO "SB: 2 Shock"
_HEADER_COUNT = re.compile(r"^(.*?)\s*\(\d+\)\s*:?$")  # "Creatures (12)"
_FOIL = re.compile(r"\s+\*[A-Za-z]+\*$")
_TRAILING_COMMENT = re.compile(r"\s+#.*$")  # "4 Shock  # burn", Moxfield's "#!Removal" tags


class DeckListError(InvalidInput):
    """A list that can't be read at all (too long, not text); a bad line is a Problem instead."""

    code = "bad_deck_list"


class UnknownDeck(NotFound):
    code = "unknown_deck"

    def __init__(self, deck_id):
        super().__init__("deck.unknown", deck=deck_id)


# -- the grammar: one line ------------------------------------------------------------
@dataclass(frozen=True)
class LineForm:
    """What one line says. ``kind``: blank, comment, header, card or bad (with ``message``)."""

    kind: str
    count: int | None = None
    name: str | None = None
    message: Message | None = None


def read_line(text: str) -> LineForm:
    """Read one line of a deck list: ``4 Shock``, ``4x Shock``, ``Shock``, a comment, a header..."""
    line = text.strip()
    if not line:
        return LineForm("blank")
    if line.startswith(("//", "#")):
        return LineForm("comment")
    if len(line) > MAX_LINE:
        return LineForm("bad", message=say("deck.line_long", n=MAX_LINE))
    line = _TRAILING_COMMENT.sub("", line)
    if _is_header(line):
        return LineForm("header")
    line = _SB_PREFIX.sub("", line)
    count_text, name = None, line
    m = _COUNT.match(line)
    if m:
        count_text, name = next(g for g in m.groups()[:3] if g is not None), m.group(4)
    elif line.isdecimal():
        count_text, name = line, ""
    else:
        t = _TRAILING_COUNT.match(line)
        if t:
            name, count_text = t.group(1), t.group(2)
    name = _FOIL.sub("", name.strip()).strip()
    if not name:
        return LineForm("bad", message=say("deck.count_alone"))
    count = 1 if count_text is None else int(count_text)
    if not 1 <= count <= MAX_COUNT:
        return LineForm("bad", name=name,
                        message=say("deck.count_range", n=MAX_COUNT, count=count_text.lstrip("0") or "0"))
    return LineForm("card", count=count, name=name)


def _is_header(line: str) -> bool:
    m = _HEADER_COUNT.match(line)
    word = m.group(1) if m else line.rstrip(":").strip()
    if fold(word) in HEADERS:
        return True
    # a label ending with ':' ("Removal:") names a section; no card name ends with one
    return line.endswith(":") and not line[:1].isdigit()


# -- resolution: the deck ---------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One loaded line: ``count`` copies of the printed card ``card`` (English full name)."""

    count: int
    name: str
    line: int
    french_name: str | None = None


@dataclass(frozen=True)
class Problem:
    """A line that loaded no card, why, and the names it may have meant."""

    line: int
    text: str
    message: Message
    suggestions: tuple[str, ...] = ()
    rule: str | None = None

    def to_dict(self) -> dict:
        """``message`` is worded by the edge (its JSON or its printing); its code and params go along."""
        d = {"line": self.line, "text": self.text, "message": self.message, **self.message.as_json(),
             "suggestions": list(self.suggestions)}
        if self.rule:
            d["rule"] = self.rule
        return d


@dataclass(frozen=True)
class Flag:
    """What to know about one card before a game starts (706, 704.1/D2)."""

    name: str
    french_name: str | None
    mental_magic: str | None  # "banned" (706.2–706.4) | "watched" (706.4a) | None
    mental_magic_rule: str | None
    formats: dict = field(hash=False)  # {format: "banned" | "restricted"} (706.1)
    unknown_cost: tuple[str, ...] = ()  # printed faces whose cost the data lacks (704.1, D2)
    reasons: tuple[tuple[str, Message], ...] = ()  # (rule, message)

    def to_dict(self) -> dict:
        return {"name": self.name, "french_name": self.french_name, "mental_magic": self.mental_magic,
                "mental_magic_rule": self.mental_magic_rule, "formats": dict(self.formats),
                "unknown_cost": list(self.unknown_cost),
                "reasons": [{"rule": r, "message": m, **m.as_json()} for r, m in self.reasons]}


@dataclass(frozen=True)
class Deck:
    """A read deck list: the cards it loads, the lines it couldn't, and the flags."""

    entries: tuple[Entry, ...]
    problems: tuple[Problem, ...]
    flags: tuple[Flag, ...]
    legalities_known: bool = True

    @property
    def size(self) -> int:
        return sum(e.count for e in self.entries)

    def counts(self) -> dict[str, int]:
        """Copies of each printed card, in the order the list first names it (what export keeps)."""
        out: dict[str, int] = {}
        for e in self.entries:
            out[e.name] = out.get(e.name, 0) + e.count
        return out

    def library(self) -> list[str]:
        """Every physical card of the common deck (700.2), duplicates included: POST /games' library."""
        return [e.name for e in self.entries for _ in range(e.count)]

    def to_dict(self) -> dict:
        return {
            "cards": [{"count": e.count, "name": e.name, "french_name": e.french_name, "line": e.line}
                      for e in self.entries],
            "size": self.size,
            "problems": [p.to_dict() for p in self.problems],
            "flags": [f.to_dict() for f in self.flags],
            "legalities_known": self.legalities_known,
        }


def parse_deck(text: str, pool: CardPool, *, suggest: bool = True) -> Deck:
    """Read a deck list: every line a card, a skipped line, or a Problem; never a half-read list."""
    if not isinstance(text, str):
        raise DeckListError("deck.not_text", fields={"list": [say("deck.not_text.field")]})
    if len(text) > MAX_TEXT:
        raise DeckListError("deck.too_long", n=MAX_TEXT, fields={"list": [say("deck.too_long.field", n=MAX_TEXT)]})
    entries: list[Entry] = []
    problems: list[Problem] = []
    size = 0
    in_about = False  # MTGA's "About / Name My deck" block names the deck, not a card
    for number, raw in enumerate(text.splitlines(), 1):
        form = read_line(raw)
        shown = raw.strip()[:MAX_LINE]
        if form.kind == "header":
            in_about = fold(shown.rstrip(":")) == "about"
            continue
        if form.kind in ("blank", "comment"):
            in_about = in_about and form.kind == "comment"
            continue
        if in_about:
            continue
        if form.kind == "bad" and form.name and _resolve(shown, pool):  # "1996 World Champion"
            form = LineForm("card", count=1, name=shown)
        if form.kind == "bad":
            problems.append(Problem(number, shown, form.message or say("deck.unreadable")))
            continue
        card = _resolve(form.name, pool)
        hint = suggest and len(problems) < MAX_SUGGESTED
        if card is None:
            hints = suggestions(form.name, pool) if hint else ()
            problems.append(Problem(number, shown, say("deck.no_card", name=form.name), hints))
        elif not card.in_library:  # a plane, a scheme, a token...: "Llanowar" may have meant Llanowar Elves
            hints = suggestions(form.name, pool) if hint else ()
            what = word_of("layout", card.layout)  # a token, an emblem...
            problems.append(Problem(number, shown, say("deck.not_library", card=card.said_name, layout=what),
                                    hints, rule="700.2"))
        elif size + form.count > MAX_SIZE:
            problems.append(Problem(number, shown, say("deck.too_big", n=MAX_SIZE, size=size)))
        else:
            size += form.count
            entries.append(Entry(form.count, card.name, number, card.french_name))
    return Deck(tuple(entries), tuple(problems), flags(entries, pool), pool.info.legalities_known)


def _resolve(name: str, pool: CardPool) -> Card | None:
    for n in name_variants(name):
        card = pool.find(n)
        if card is not None:
            return card
    return None


def flags(entries, pool: CardPool) -> tuple[Flag, ...]:
    """The cards to know about before a game: 706.1–706.4a statuses and unknown costs (704.1, D2)."""
    out, seen = [], set()
    for e in entries:
        if e.name in seen:
            continue
        seen.add(e.name)
        card = pool.find(e.name)
        if card is None:  # a deck built from another source: nothing to say about it here
            continue
        entry = pool.bans.entry_for(card)
        formats = {f: s for f, s in sorted((card.legalities or {}).items())
                   if f in FORMATS and s in ("banned", "restricted")} if pool.info.legalities_known else {}
        unknown = card.unknown_faces
        if not (entry or formats or unknown):
            continue
        reasons = []
        if entry:  # the rule goes beside the message, never inside it too
            reasons.append((entry.rule, say("flag.banned" if entry.status == "banned" else "flag.watched",
                                            card=card.said_name)))
        for fmt, status in formats.items():
            reasons.append(("706.1", say("flag.format_banned" if status == "banned" else "flag.format_restricted",
                                         card=card.said_name, format=fmt)))
        if unknown:
            reasons.append(("704.1", say("flag.unknown_cost", faces=[card.said_as(f) for f in unknown])))
        out.append(Flag(card.name, card.french_name, entry.status if entry else None,
                        entry.rule if entry else None, formats, unknown, tuple(reasons)))
    return tuple(out)


# -- export ------------------------------------------------------------------------------------
def export(deck: Deck, title: str | None = None) -> str:
    """The deck as text, one ``4 Shock`` line per card: ``parse_deck`` reads it to the same counts."""
    lines = [f"# {' '.join(title.split())}"] if title and title.strip() else []
    for name, count in deck.counts().items():
        while count > 0:  # a line holds at most MAX_COUNT copies
            lines.append(f"{min(count, MAX_COUNT)} {name}")
            count -= MAX_COUNT
    return "\n".join(lines) + "\n"
