"""Commanders (903.3, D14(a) and (c)): which cards can be one, which two can be partners,
and the colour identity a player names within (903.5c, D14(b)).

The game side calls ``find_commanders(pool, names)`` at setup and ``identity_of(cards)`` for
the identity its namings are checked against (``CandidateFinder.candidates/check(identity=)``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import Card
from .errors import NotACommander, UnknownCard
from .identity import Identity
from .messages import Message, both, say
from .names import fold

_REMINDER = re.compile(r"\([^()]*\)")
PAIR_RULE = "D14(c)"  # two commanders: partners (702.124), or a commander and a background


@dataclass(frozen=True)
class PairAbilities:
    """What a card's text says about sharing the command zone (702.124 and its variants)."""

    partner: bool = False  # plain "Partner": with any other card with plain partner
    partner_with: str | None = None  # "Partner with X": with X only (folded name)
    group: str | None = None  # "Partner—Survivors", "Friends forever": with the same group
    chooses_background: bool = False  # "Choose a Background"
    doctors_companion: bool = False  # "Doctor's companion": with a Time Lord Doctor


def _lines(card: Card) -> list[str]:
    return [_REMINDER.sub("", line).strip() for line in card.front.text.splitlines()]


def pair_abilities(card: Card) -> PairAbilities:
    """The partner-like abilities of the card's front face, read from its rules text."""
    found: dict = {}
    for line in _lines(card):
        low = fold(line).rstrip(".")
        if low == "partner":
            found["partner"] = True
        elif low.startswith("partner with "):
            found["partner_with"] = fold(line[len("partner with "):])
        elif low.startswith("partner-") or low.startswith("partner -"):  # fold reads "—" as "-"
            found["group"] = low.split("-", 1)[1].strip()
        elif low == "friends forever":
            found["group"] = "friends forever"
        elif low == "choose a background":
            found["chooses_background"] = True
        elif low == "doctor's companion":
            found["doctors_companion"] = True
    return PairAbilities(**found)


def is_background(card: Card) -> bool:
    face = card.front
    return face.has_type("Legendary") and face.has_type("Enchantment") and face.has_type("Background")


def is_time_lord_doctor(card: Card) -> bool:
    """A legendary Time Lord Doctor creature with no other creature types (Doctor's companion)."""
    face = card.front
    subtypes = fold(face.type_line.partition("—")[2]).split()
    return face.has_type("Legendary") and face.has_type("Creature") and subtypes == ["time", "lord", "doctor"]


def commander_refusal(card: Card) -> Message | None:
    """Why ``card`` can't be a commander on its own (903.3, 903.3a), or None when it can."""
    face = card.front
    if not card.in_library:
        return say("commander.not_in_deck", card=card.said_name)
    if face.has_type("Legendary") and face.has_type("Creature"):
        return None
    if "can be your commander" in fold(face.text):
        return None
    if is_background(card):
        return say("commander.background", card=card.said_name)
    return say("commander.not_legendary", card=card.said_name)


def can_be_commander(card: Card) -> bool:
    """Can the card be a player's commander by itself (903.3, 903.3a)?"""
    return commander_refusal(card) is None


def pair_refusal(first: Card, second: Card) -> Message | None:
    """Why these two can't be one player's two commanders (D14(c), 702.124), or None."""
    problem = _pair_problem(first, second)
    return problem[1] if problem else None


def _pair_problem(first: Card, second: Card) -> tuple[str, Message] | None:
    """(rule, why) when the two can't share the command zone: 903.3 for a card that can't be a
    commander at all, D14(c) for two that could each be one but not together."""
    if fold(first.name) == fold(second.name):
        return PAIR_RULE, say("commander.twice", card=first.said_name)
    a, b = pair_abilities(first), pair_abilities(second)
    for one, x, other in ((first, a, second), (second, b, first)):
        if (x.chooses_background and is_background(other)) or (x.doctors_companion and is_time_lord_doctor(other)):
            why = commander_refusal(one)
            return ("903.3", why) if why else None
    for card in (first, second):
        why = commander_refusal(card)
        if why:
            return "903.3", why
    if a.partner and b.partner and not (a.partner_with or b.partner_with):
        return None
    if a.partner_with == fold(second.name) and b.partner_with == fold(first.name):
        return None
    if a.group and a.group == b.group:
        return None
    return PAIR_RULE, say("commander.pair", first=first.said_name, second=second.said_name)


def _check_count(count: int) -> None:
    if not 1 <= count <= 2:
        raise NotACommander("commander.count", n=count, rule="D14(c)")


def check_commanders(cards: Sequence[Card]) -> None:
    """Refuse (NotACommander, 422) unless ``cards`` is one commander or a valid pair."""
    _check_count(len(cards))
    if len(cards) == 1:
        why = commander_refusal(cards[0])
        problem = ("903.3", why) if why else None
    else:
        problem = _pair_problem(*cards)
    if problem:
        raise NotACommander(problem[1], rule=problem[0])


def find_commanders(pool, names: Sequence[str]) -> tuple[Card, ...]:
    """The cards named as a player's commander(s), checked (903.3, D14): 422 when unknown or not one."""
    _check_count(len(names))  # before any look-up: a request may repeat the name many times
    cards = []
    for name in names:
        try:
            cards.append(pool.lookup(name))
        except UnknownCard:
            raise NotACommander("commander.unknown", name=name) from None
    check_commanders(cards)
    return tuple(cards)


def commander_cards(setup, pool, pid: str) -> tuple:
    """A player's commander card(s) as printed (none outside a commander game), D14(a)."""
    return tuple(pool.lookup(printed) for _cid, printed, owner in setup.commanders if owner == pid)


def identity_of(commanders: Sequence[Card]) -> Identity:
    """The colour identity a player names within: their commander's, or the union of two (D14(c))."""
    cards = tuple(commanders)
    # A card's equality leaves its identity out: the key carries it, so a card read from other data
    # (another pool, a test's) never gets an answer remembered for this one.
    return _identity_of(cards, tuple(c.color_identity for c in cards))


@lru_cache(maxsize=1024)  # asked on every /candidates for a player of a commander game
def _identity_of(commanders: tuple[Card, ...], _identities: tuple) -> Identity:
    check_commanders(commanders)
    out: set[str] = set()
    for card in commanders:
        if card.color_identity is None:
            raise NotACommander("commander.no_identity", card=card.said_name, rule="903.4")
        out |= card.color_identity
    return frozenset(out)


def describe(commanders: Sequence[Card]) -> Message | str:
    """'Krenko, Mob Boss' or 'Thrasios, Triton Hero and Tymna the Weaver', for 903.5c reasons: each
    name in the reader's language where the data has it."""
    return both([c.said_name for c in commanders])


def whose(commanders: Sequence[Card]) -> Message:
    """"Krenko, Mob Boss's": whose colour identity a 903.5c reason names within."""
    return say("commander.whose", commander=describe(commanders))
