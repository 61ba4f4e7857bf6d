"""Printed cards, their faces, and the entries a card may be named as (D4)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cached_property

from .identity import Identity, parse_identity, symbol_colours
from .mana import ManaCost
from .messages import CardName, card_name
from .names import fold

# D4: which layouts name each half apart, and which offer every face's cost when printed.
# Transform, flip, meld and prepare cards offer their front face only: a prepare card's spell
# is cast only as a copy while the creature is prepared, never from a hand.
SPLIT_LAYOUTS = frozenset({"split", "aftermath"})
BOTH_COSTS_LAYOUTS = frozenset({"split", "aftermath", "adventure", "modal_dfc"})
# Cards that never sit in a library: they are not nameable even in format "all".
NON_LIBRARY_LAYOUTS = frozenset({"planar", "scheme", "vanguard", "token", "emblem", "art_series", "meld_result"})


@dataclass(frozen=True)
class Face:
    """One face of a printed card. ``cost`` is None when the source doesn't know it."""

    name: str
    french_name: str | None
    cost: ManaCost | None
    mana_value: float | None
    type_line: str
    types: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    text: str = ""
    power: str | None = None  # as printed: "*" and "1+*" are values too
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    # its colours (cost, colour indicator, characteristic-defining abilities); None = not given
    colors: Identity | None = field(default=None, compare=False)

    @property
    def said_name(self) -> CardName:
        """The name as a message parameter: worded in French where the table speaks it (messages.py)."""
        return card_name(self.name, self.french_name)

    @property
    def known(self) -> bool:
        return self.cost is not None

    def own_identity(self) -> Identity:
        """903.4 read on this face alone: its colours and the mana symbols of its cost and text."""
        cost = self.cost.text if self.cost is not None else ""
        return symbol_colours(cost) | symbol_colours(self.text) | (self.colors or frozenset())

    def type_words(self) -> list[str]:
        """The words of its type line, folded: what a type filter matches (supertypes, types, subtypes)."""
        return fold(self.type_line).replace("—", " ").split()

    def keyword_words(self) -> set[str]:
        """Its keywords, folded: what a keyword filter matches."""
        return {fold(k) for k in self.keywords}

    def has_type(self, word: str) -> bool:
        return fold(word) in self.type_words()

    def has_keyword(self, word: str) -> bool:
        return fold(word) in self.keyword_words()

    def fits(self, type_: str | None = None, *keywords: str | None) -> bool:
        """Has this type and these keywords, where asked (the filters of 705.4 and of the API)."""
        return (not type_ or self.has_type(type_)) and all(not k or self.has_keyword(k) for k in keywords)


@dataclass(frozen=True)
class Card:
    """A printed card: what is physically in the common library."""

    name: str
    french_name: str | None
    layout: str
    faces: tuple[Face, ...]
    legalities: dict = field(default_factory=dict, hash=False, compare=False)
    # the whole card's colour identity (903.4, MTGJSON's colorIdentity); None = not given
    color_identity: Identity | None = field(default=None, compare=False)

    @property
    def front(self) -> Face:
        return self.faces[0]

    @property
    def said_name(self) -> CardName:
        """The name as a message parameter: worded in French where the table speaks it (messages.py)."""
        return card_name(self.name, self.french_name)

    def said_as(self, name: str) -> CardName:
        """``name``, this card's own name or one face's (English or French), as a message parameter
        (``said_name``): a game or a deck keeps only a name's English, a suggestion either."""
        for english, french in ((f.name, f.french_name) for f in (*self.faces, self)):
            if name == english or (french and name == french):
                # a face the data gives no French name of its own: its one-face card's
                return card_name(english, french or (self.french_name if english == self.name else None))
        return card_name(name)

    @cached_property
    def face_names(self) -> frozenset[str]:
        """Folded names of the card and every face: none of them may name it (D4)."""
        return frozenset({fold(self.name), *(fold(f.name) for f in self.faces)})

    def answers_to(self, name: str) -> bool:
        """Is ``name`` (English or French) the card's own name or one of its faces'? (704.1, D4)"""
        key = fold(name or "")
        french = {fold(n) for n in (self.french_name, *(f.french_name for f in self.faces)) if n}
        return key in self.face_names or key in french

    @property
    def own_faces(self) -> tuple[Face, ...]:
        """D4: the faces that are cards of their own: both halves of a split card, else the front."""
        return self.faces if self.layout in SPLIT_LAYOUTS else self.faces[:1]

    @property
    def printed_faces(self) -> tuple[Face, ...]:
        """The faces whose costs the printed card offers (704.1, D4)."""
        if self.layout in BOTH_COSTS_LAYOUTS:
            return self.faces
        return self.faces[:1]

    @property
    def printed_costs(self) -> tuple[ManaCost, ...]:
        """Known printed costs, without repeats, in face order."""
        seen: list[ManaCost] = []
        for f in self.printed_faces:
            if f.cost is not None and f.cost not in seen:
                seen.append(f.cost)
        return tuple(seen)

    @property
    def unknown_faces(self) -> tuple[str, ...]:
        """Printed faces whose cost the card data lacks: they offer no cost."""
        return tuple(f.name for f in self.printed_faces if f.cost is None)

    @property
    def mana_cost_text(self) -> str | None:
        """The cost shown for the whole card: 'A // B' for split-like cards."""
        parts = ["?" if f.cost is None else str(f.cost) for f in self.own_faces]
        return " // ".join(parts) if any(p != "?" for p in parts) else None

    @property
    def in_library(self) -> bool:
        return self.layout not in NON_LIBRARY_LAYOUTS

    def nameables(self) -> tuple[Nameable, ...]:
        """The names this card offers to be named as (704.3, D4)."""
        if not self.in_library:
            return ()
        out = []
        for f in self.own_faces:
            if f.cost is None:  # unknown cost: it can't match anything honestly
                continue
            # a face's own name: a split half, a front face, or the whole card when it has one face
            out.append(Nameable(name=f.name, french_name=f.french_name, card=self, face=f))
        return tuple(out)


def nonland(printed: Card, named: Face | None = None, *, pentaland: bool = False) -> bool:
    """705.9 and D13(b): is the card known to be a nonland card, without naming it?

    A named card is the card it is named (704.4): False for a land, True otherwise. An unnamed
    card with a non-empty printed cost ({0} included) is nonland (705.9). An unnamed card with no
    mana cost is not known to be nonland (it may be named Forest or Ancestral Vision, D2): False,
    and its owner names it when an effect must know (705.6). A Pentaland is a land (703.1)
    whatever it is named.
    """
    if pentaland:
        return False
    if named is not None:
        return not named.has_type("Land")
    return any(f.cost is not None and not f.cost.is_none for f in printed.own_faces)


@dataclass(frozen=True)
class Nameable:
    """One name a card can be given: a whole card, a split half, or a front face."""

    name: str
    french_name: str | None
    card: Card = field(repr=False)
    face: Face = field(repr=False)
    key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        # the registry's identity of a name; interned, so the pool's look-up keys are this same string
        object.__setattr__(self, "key", sys.intern(fold(self.name)))

    @property
    def said_name(self) -> CardName:
        """The name as a message parameter: worded in French where the table speaks it (messages.py)."""
        return card_name(self.name, self.french_name)

    @property
    def cost(self) -> ManaCost:
        return self.face.cost  # type: ignore[return-value]  # nameables have known costs

    @cached_property
    def identity(self) -> Identity | None:
        """The colour identity this name carries (903.5c, D14(b)); None when the data lacks it.

        A split half named alone (704.3) has its own half's identity: MTGJSON repeats the
        whole card's on every face (Fire // Ice is {U}{R} on both), so the half's is read from
        its own cost, text and colours, kept within the card's. Any other name is the card.
        """
        if self.card.layout in SPLIT_LAYOUTS and len(self.card.faces) > 1:
            own = self.face.own_identity()
            return own if self.card.color_identity is None else own & self.card.color_identity
        return self.card.color_identity


def card_from_record(rec: dict, shared: dict | None = None) -> Card:
    """Build a Card from a record of the card-data layer (see ``cards/__init__.py``).

    ``shared``, one dict passed to every call of a pool's build, makes equal values one object:
    ~35k cards have 33 distinct legalities, 32 identities and a few hundred type lines, so the
    pool (and every process that loads it) holds each once.
    """
    one = _Shared(shared if shared is not None else {})
    faces = []
    for f in sorted(rec["faces"], key=lambda f: f["position"]):
        raw = f.get("mana_cost")
        cost = None if raw is None else ManaCost.parse(raw)
        mv = f.get("mana_value")
        faces.append(
            Face(
                name=one.text(f["name"]),  # a one-face card's name twice: one string
                french_name=one.text(f.get("french_name")),
                cost=cost,
                # a float whatever the record holds: the tables store a REAL, JSON may give an int
                mana_value=one.number(float(mv)) if mv is not None else (cost.mana_value if cost is not None else None),
                type_line=one.text(f.get("type_line") or ""),
                types=one.value("types", tuple(f.get("types") or ())),
                keywords=one.value("keywords", tuple(f.get("keywords") or ())),
                text=f.get("text") or "",
                power=one.text(f.get("power")),
                toughness=one.text(f.get("toughness")),
                loyalty=one.text(f.get("loyalty")),
                defense=one.text(f.get("defense")),
                colors=None if f.get("colors") is None else one.identity(f["colors"]),
            )
        )
    # by format, as the tables store them (and as an answer lists them)
    legalities = tuple(sorted((rec.get("legalities") or {}).items()))
    return Card(
        name=one.text(rec["name"]),
        french_name=one.text(rec.get("french_name")),
        layout=one.text(rec.get("layout") or "normal"),
        faces=tuple(faces),
        legalities=one.made("legalities", legalities, dict),
        color_identity=None if rec.get("color_identity") is None else one.identity(rec["color_identity"]),
    )


class _Shared:
    """One object per distinct value, kept in a dict a whole build shares (see card_from_record)."""

    __slots__ = ("seen",)

    def __init__(self, seen: dict):
        self.seen = seen

    def text(self, text: str | None) -> str | None:
        return None if text is None else self.seen.setdefault(text, text)

    def number(self, value: float) -> float:
        return self.seen.setdefault(("number", value), value)

    def value(self, kind: str, value: tuple) -> tuple:
        return self.seen.setdefault((kind, value), value)

    def made(self, kind: str, key: tuple, make):
        found = self.seen.get((kind, key))
        if found is None:
            found = self.seen[(kind, key)] = make(key)
        return found

    def identity(self, letters) -> Identity:
        return self.made("identity", tuple(letters), parse_identity)
