"""Rule sets: the written variants of Mental Magic as data plus a few pure relations.

A rule set says how costs match, what the face-down land is and who may play it, which
cards and mechanics are banned, whether a returning card is named anew and how long a
name stays taken. ``magic-ville`` (the seed, docs/rules.md) is the default and answers exactly
as the arbiter always has; ``xom`` is Xom's "Async Mental Magic" (MM.txt v20181207a);
``magering`` is MageRing's rules of 2015. docs/rule-sets.md compares them rule by rule,
with every source, and says what each source leaves open.

Everything here is pure: no Flask, no SQL. Answers are codes, rule numbers and
parameters; the edges put them into words.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .cards import Card
from .errors import InvalidInput
from .formats import BanList, format_refusal
from .mana import COLOURS, NO_COST, ManaCost
from .messages import Message, say
from .names import fold
from .zones import BATTLEFIELD, HAND, LIBRARY, STACK

MAGIC_VILLE, XOM, MAGERING = "magic-ville", "xom", "magering"
DEFAULT_RULES = MAGIC_VILLE

# How Phyrexian symbols match: D3 as written, D3's house option, or Xom's 5g.
PHYREXIAN_STRICT = "strict"  # {W/P} matches only {W/P}
PHYREXIAN_HYBRID = "hybrid"  # {W/P} reads {W} or {2}
PHYREXIAN_COLOUR = "colour"  # {W/P} is {W}, transitively

# How long a name stays taken once chosen.
SCOPE_GAME, SCOPE_SERIES = "game", "series"

# What becomes of a card's name when it moves (naming_on_move).
KEEP, DROP, ANEW = "keep", "drop", "anew"

ZERO = ManaCost.parse("{0}")


# -- cost matching ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Matching:
    """How a printed cost and a candidate's cost match. Hybrid symbols are always instantiated,
    in either cost (704.1 and D1; Xom 5f, which reads the same: see docs/rule-sets.md)."""

    phyrexian: str = PHYREXIAN_STRICT
    zero_is_no_cost: bool = False  # Xom 5d: {0} matches no mana cost, and back
    multicolour_by_value: bool = False  # Xom 5e


def _as_colour(symbol: str) -> str:
    """Xom 5g: a Phyrexian symbol read as the plain symbol of its colour: {W/P} -> {W}, {W/U/P} -> {W/U}."""
    return symbol[:-2] if symbol.endswith("/P") else symbol


def plain_coloured_multicolour(cost: ManaCost) -> bool:
    """Xom 5e's costs: of two colours or more, with at least one coloured symbol that is not hybrid."""
    return len(cost.colours) >= 2 and any(s in COLOURS for s in cost.symbols)


def readings(cost: ManaCost, matching: Matching) -> frozenset[ManaCost]:
    """The concrete costs ``cost`` reads as (D1), Phyrexian symbols read as the rule set says."""
    if matching.phyrexian == PHYREXIAN_COLOUR and any(s.endswith("/P") for s in cost.symbols):
        cost = ManaCost.of(cost.generic, [_as_colour(s) for s in cost.symbols])
    return cost.instantiations(matching.phyrexian == PHYREXIAN_HYBRID)


def cost_keys(cost: ManaCost, matching: Matching) -> frozenset[Hashable]:
    """What ``cost`` is filed under: two costs match exactly when their keys meet (costs_match).

    The keys are its readings (D1 and the rule set's Phyrexian symbols); Xom adds one key that
    {0} and no mana cost share (5d) and one per mana value for 5e's multicolour costs. Meeting
    keys is not transitive, as Xom 5c says and as D1 already is.
    """
    if not (matching.zero_is_no_cost or matching.multicolour_by_value):
        return readings(cost, matching)  # today's relation, unchanged
    kept = _KEYS.get((cost, matching))
    if kept is not None:  # a pool has ~900 distinct costs for 34,000 names
        return kept
    keys: set[Hashable] = set(readings(cost, matching))
    if matching.zero_is_no_cost and (cost.is_none or cost == ZERO):
        keys |= {NO_COST, ZERO}
    plain = ManaCost.of(cost.generic, [_as_colour(s) for s in cost.symbols]) \
        if matching.phyrexian == PHYREXIAN_COLOUR else cost
    if matching.multicolour_by_value and plain_coloured_multicolour(plain):
        keys.add(("multicolour", plain.mana_value))
    if len(_KEYS) > 100_000:  # costs typed by users must not grow it forever
        _KEYS.clear()
    kept = _KEYS[(cost, matching)] = frozenset(keys)
    return kept


_KEYS: dict = {}


def relations(a: ManaCost, b: ManaCost, matching: Matching) -> frozenset[str]:
    """Which of the rule set's relations let a card costing ``a`` be named a card costing ``b``:
    ``same`` (a reading in common, no hybrid or Phyrexian symbol read), ``hybrid`` (one read),
    ``phyrexian`` (a Phyrexian symbol read as its colour: Xom 5g), ``zero`` ({0} and no mana cost:
    Xom 5d), ``multicolour`` (Xom 5e: two multicolour costs of one mana value). None: no match."""
    out: set[str] = set()
    if not readings(a, matching).isdisjoint(readings(b, matching)):
        symbols = a.symbols + b.symbols
        phyrexian = matching.phyrexian == PHYREXIAN_COLOUR and any(s.endswith("/P") for s in symbols)
        hybrid = any("/" in _as_colour(s) for s in symbols) if matching.phyrexian == PHYREXIAN_COLOUR \
            else any("/" in s for s in symbols)
        out |= {"phyrexian"} if phyrexian else set()
        out |= {"hybrid"} if hybrid else set()
        out |= set() if hybrid or phyrexian else {"same"}
    if matching.zero_is_no_cost and a != b and {a, b} <= {ZERO, NO_COST}:
        out.add("zero")
    if matching.multicolour_by_value:
        plain_a, plain_b = (ManaCost.of(c.generic, [_as_colour(s) for s in c.symbols])
                            if matching.phyrexian == PHYREXIAN_COLOUR and not c.is_none else c for c in (a, b))
        if plain_coloured_multicolour(plain_a) and plain_coloured_multicolour(plain_b) \
                and plain_a.mana_value == plain_b.mana_value:
            out.add("multicolour")
    return frozenset(out)


def costs_match(a: ManaCost, b: ManaCost, matching: Matching) -> bool:
    """May a card costing ``a`` be named a card costing ``b`` (and back)?"""
    return not cost_keys(a, matching).isdisjoint(cost_keys(b, matching))


# -- the face-down land -------------------------------------------------------------------------
@dataclass(frozen=True)
class FaceDownLand:
    """The land any card may be played as: its characteristics and who may play what as it."""

    name: str
    supertypes: tuple[str, ...]
    subtypes: tuple[str, ...]
    rule: str  # where the source defines it, and what refuses a play it doesn't allow
    play_rule: str  # playing it is playing a land: onto the battlefield only (703.4)
    takes_name: bool  # Xom 4: the card is named Utopia and stays so (3b); a Pentaland is never named (703)
    unnamed_only: bool  # Xom 4: "an unnamed card"; 703.2 and D10: any card of the hand
    from_visible_zones: bool  # 703.3: also face-down cards and unnamed face-up cards of visible zones
    # Checked where the judge keeps turns (the `turn` action), recorded otherwise (nor is 703.4's
    # land drop counted: the default's Pentaland is not a turn's land)
    active_player_only: bool = False  # Xom 4
    once_per_turn: bool = False  # Xom 4a: extra land drops don't allow another
    turn_rule: str | None = None  # what refuses a second one in a turn


@dataclass(frozen=True)
class LandPlay:
    """What the arbiter knows of a card a player is about to play as the face-down land."""

    zone: str
    to: str = BATTLEFIELD
    named: bool = False
    face_down: bool = False  # already face down, outside a hand or the library
    revealed: bool = False  # a library card revealed to the player (703.3)
    own: bool = True  # the player's own card (a hand's: its owner's, 703.2)
    by_judge: bool = False
    name_given: str | None = None  # a name given with the play
    active: str | None = None  # the active player, where turns are kept (else None)
    player: str | None = None  # who plays it
    played_this_turn: bool = False  # one of these lands was played this turn already


def turn_refusal(land: FaceDownLand, play: LandPlay) -> tuple[str, str] | None:
    """Where the judge keeps turns: the rule and the message code that refuse ``play`` for its turn
    (Xom 4: the active player; 4a: once a turn, whatever gives extra land drops), or None."""
    if play.active is None or play.to != BATTLEFIELD:
        return None
    if land.active_player_only and play.player != play.active:
        return land.rule, "rules.land_not_active"
    if land.once_per_turn and play.played_this_turn:
        return land.turn_rule or land.rule, "rules.land_once_per_turn"
    return None


def land_play_refusal(land: FaceDownLand, play: LandPlay) -> str | None:
    """The rule that refuses playing ``play`` as ``land``, or None when it may be played."""
    if play.to != BATTLEFIELD:
        return land.play_rule
    refused = turn_refusal(land, play)
    if refused is not None:
        return refused[0]
    if play.name_given is not None and not (land.takes_name and fold(play.name_given) == fold(land.name)):
        return land.rule  # a Pentaland is never named (703.2); a Utopia is named Utopia (Xom 4)
    if land.unnamed_only and play.named:
        return land.rule
    if play.zone == HAND:
        return None if play.own or play.by_judge else land.rule
    if not land.from_visible_zones:  # Magic plays a land from a hand (CR 305.1): the sources add no zone
        return land.rule
    if play.zone == LIBRARY and not play.revealed:
        return "703.3"
    if play.named and not play.face_down:  # 703.3 as written: an unnamed face-up card (D10)
        return "703.3"
    return None


# -- banned cards and mechanics -----------------------------------------------------------------
@dataclass(frozen=True)
class Ban:
    """Why a rule set keeps a card from being chosen as a name: the rule, a code and its parameters."""

    rule: str
    code: str
    params: Mapping = field(default_factory=dict)

    @property
    def message(self) -> Message:
        """What a reason says of it (messages.py: ``ban.<code>``), as a format's refusal says its own."""
        return Message(_BAN_MESSAGES[self.code], dict(self.params))


_BAN_MESSAGES = {
    "banned_card": "ban.banned_card", "banned_mechanic": "ban.banned_mechanic", "library_size": "ban.library_size",
    "reveal_until": "ban.reveal_until", "face_down_maker": "ban.face_down_maker", "ante_card": "ban.ante_card",
}


@dataclass(frozen=True)
class TextBan:
    """Cards of a described kind, found by their rules text (our reading: docs/rule-sets.md)."""

    rule: str
    code: str
    pattern: re.Pattern
    needle: str  # lower-case words every match holds: most texts are passed over without the pattern


@dataclass(frozen=True)
class Bans:
    """A rule set's bans over the format's own legality."""

    restricted_banned: bool  # 706.1: restricted in the format means banned
    mental_magic_list: bool  # the 706.2–706.4 list (cards/mental-magic-banlist.csv)
    names: Mapping[str, str] = field(default_factory=dict)  # folded card name -> rule
    keywords: Mapping[str, str] = field(default_factory=dict)  # folded keyword -> rule: the card is banned
    texts: tuple[TextBan, ...] = ()
    # Keywords the rule set removes: the card may be named, it just doesn't have them (MageRing).
    stripped_keywords: Mapping[str, str] = field(default_factory=dict)


def banned_by(bans: Bans, card: Card) -> Ban | None:
    """The rule set's own ban of ``card`` (names, keywords, described kinds), or None.

    The format's legality and the 706 list are the pool's (format_refusal); see ruleset_refusal.
    """
    for key in (fold(card.name), fold(card.front.name)):
        if key in bans.names:
            return Ban(bans.names[key], "banned_card", {"card": card.name})
    if bans.keywords:
        for face in card.faces:
            for k in face.keywords:
                rule = bans.keywords.get(fold(k))
                if rule is not None:
                    return Ban(rule, "banned_mechanic", {"card": card.name, "mechanic": k})
    if bans.texts:
        text = "\n".join(f.text for f in card.faces)
        lower = text.lower()
        for t in bans.texts:
            if t.needle in lower and t.pattern.search(text):
                return Ban(t.rule, t.code, {"card": card.name})
    return None


_NO_LIST = BanList([])  # a variant's bans are its own: not the 706 list


def ruleset_refusal(rules: RuleSet, card: Card, fmt: str, bans: BanList, legalities_known: bool = True):
    """Why ``card`` can't be chosen as a name under ``rules`` in ``fmt``: a Refusal (the format's,
    706.1–706.4, exactly as today under magic-ville), a Ban (the rule set's own), or None."""
    b = rules.bans
    if b.restricted_banned and b.mental_magic_list:
        found = format_refusal(card, fmt, bans, legalities_known)
        return found if found is not None else banned_by(b, card)
    found = format_refusal(card, fmt, _NO_LIST, legalities_known)
    if found is not None and found.rule == "706.1" and (card.legalities or {}).get(fmt) == "restricted":
        found = None  # restricted is still of the format: only 706.1 bans it
    return found if found is not None else banned_by(b, card)


# -- names --------------------------------------------------------------------------------------
def is_face_card(rules: RuleSet, zone: str) -> bool:
    """MageRing: outside the battlefield and the stack a card is its printed "face" card; it takes no
    name there and keeps none (the "face cards" bullet). Never so under the other rule sets."""
    return rules.renamed_on_return and zone not in (STACK, BATTLEFIELD)


def naming_on_move(rules: RuleSet, from_zone: str, to_zone: str) -> str:
    """What becomes of a named card's name as it moves: KEEP it, DROP it (it is its printed card
    there), or name it ANEW as another card (MageRing: 'renamed as a different card')."""
    if not rules.renamed_on_return:
        return KEEP  # 704.4, Xom 3b: once named, for good
    if is_face_card(rules, to_zone):
        return DROP
    return KEEP if from_zone in (STACK, BATTLEFIELD) else ANEW


def holds_land_name(land: FaceDownLand, named_as: str | None) -> bool:
    """Xom 4 and 3b: a card played as Utopia is named Utopia, and stays so in every zone."""
    return land.takes_name and named_as is not None and fold(named_as) == fold(land.name)


def name_taken_rule(rules: RuleSet, key: str, in_game: frozenset[str], in_series: frozenset[str] = frozenset()):
    """The rule that refuses the folded name ``key`` as taken, or None: taken in this game, or,
    when names last a series, in an earlier game of it."""
    if key in in_game:
        return rules.cite("names")
    if rules.name_scope == SCOPE_SERIES and key in in_series:
        return rules.cite("scope")
    return None


def face_down_refusal(rules: RuleSet, via: str) -> str | None:
    """The rule that refuses putting a card face down by ``via`` (morph, manifest...), or None."""
    rule = rules.bans.keywords.get(fold(via)) or rules.bans.stripped_keywords.get(fold(via))
    return rule


# -- rule sets ------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class RuleSet:
    """A variant: where it comes from, and its answers (see the module's docstring). Two are equal
    when they are one preset under the same options."""

    key: str
    source: str  # the document and version the presets follow
    url: str
    matching: Matching
    land: FaceDownLand
    bans: Bans
    renamed_on_return: bool  # MageRing: a card that re-enters is named anew, as another card
    name_scope: str  # SCOPE_GAME or SCOPE_SERIES
    cites: Mapping[str, str]  # aspect -> the rule(s) of this rule set's own source
    options: Mapping[str, bool] = field(default_factory=dict)
    renumbered: Mapping[str, str] = field(default_factory=dict)  # the default's rule -> this one's
    # relations (``relations``) -> the rule of this rule set's own source that allows a name by it; a
    # rule set without them cites its 704.1 for every match
    allowed_by: Mapping[str, str] = field(default_factory=dict)

    def __eq__(self, other) -> bool:
        return isinstance(other, RuleSet) and (self.key, dict(self.options)) == (other.key, dict(other.options))

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted(self.options.items()))))

    def cite(self, aspect: str) -> str:
        return self.cites[aspect]

    def answers(self) -> dict[str, tuple]:
        """This rule set's answer per aspect, comparable across rule sets."""
        m, land, b = self.matching, self.land, self.bans
        return {
            "matching": (m.phyrexian,), "zero": (m.zero_is_no_cost,), "multicolour": (m.multicolour_by_value,),
            "land": (land.name, land.supertypes, land.subtypes, land.takes_name, land.unnamed_only,
                     land.from_visible_zones),
            "bans": (b.restricted_banned, b.mental_magic_list, tuple(sorted(b.names.items())),
                     tuple(t.code for t in b.texts)),
            "face_down": (tuple(sorted(b.keywords.items())), tuple(sorted(b.stripped_keywords.items()))),
            "returning": (self.renamed_on_return,), "names": (), "scope": (self.name_scope,),
        }

    def differs(self) -> tuple[str, ...]:
        """The aspects where this rule set does not answer as the default (options off), in ASPECTS order."""
        base, mine = PRESETS[DEFAULT_RULES].answers(), self.answers()
        return tuple(a for a in ASPECTS if mine[a] != base[a])

    def with_options(self, options: Mapping[str, object] | None) -> RuleSet:
        """This rule set under ``options``, or raise BadRuleOption. An option it doesn't take may
        still be sent switched off (today's games send ``phyrexian_as_hybrid: false``)."""
        allowed = OPTIONS[self.key]
        chosen: dict[str, bool] = {}
        for k, v in (options or {}).items():
            if k not in ALL_OPTIONS or (v is not False and k not in allowed):
                raise BadRuleOption(self.key, k, allowed)
            if not isinstance(v, bool):
                raise BadRuleOption(self.key, k, allowed, value=v)
            if k in allowed:
                chosen[k] = v
        rs = self
        if chosen.get("phyrexian_as_hybrid"):  # D3's house option
            rs = replace(rs, matching=replace(rs.matching, phyrexian=PHYREXIAN_HYBRID),
                         cites={**rs.cites, "matching": "D3"})
        return replace(rs, options=dict(sorted(chosen.items())))

    @property
    def index_key(self) -> Hashable:
        """What a cost index is kept under, beside its format: the default's house option alone, as ever."""
        if self.key == DEFAULT_RULES:
            return bool(self.options.get("phyrexian_as_hybrid"))
        # an option sent switched off is one not sent (with_options): one index for both
        return (self.key, tuple(sorted((k, v) for k, v in self.options.items() if v)))

    def match_relations(self, printed: Iterable[ManaCost], named: ManaCost) -> tuple[str, ...]:
        """The relations (``relations``) that let a card of the ``printed`` costs be named a card
        costing ``named``, in the order of their rules; none for a rule set that cites them alike."""
        if not self.allowed_by:
            return ()
        found = frozenset().union(*(relations(pc, named, self.matching) for pc in printed))
        return tuple(sorted(found, key=lambda r: self.allowed_by[r]))

    def match_rule(self, printed: Iterable[ManaCost], named: ManaCost,
                   found: tuple[str, ...] | None = None) -> str:
        """The rule(s) that allow a card of the ``printed`` costs to be named a card costing ``named``:
        under Xom each relation's own (5c, 5d, 5e, 5f, 5g: both, where two allow it), else 704.1's.
        ``found``: the relations, when ``match_relations`` was asked already."""
        found = self.match_relations(printed, named) if found is None else found
        cited = sorted({self.allowed_by[r] for r in found})
        return ", ".join(cited) if cited else self.rule_for("704.1")

    def rule_for(self, rule: str) -> str:
        """This rule set's own rule where the default's ``rule`` would be cited (704.2 is Xom's 6)."""
        return self.renumbered.get(rule, rule)


ASPECTS = ("matching", "zero", "multicolour", "land", "bans", "face_down", "returning", "names", "scope")

# The options a rule set takes: D3's house option reads Phyrexian symbols as hybrid. Xom's 5g
# reads them as their colour, fixed; MageRing's source says nothing of them, so D3 stands, option too.
OPTIONS: dict[str, frozenset[str]] = {
    MAGIC_VILLE: frozenset({"phyrexian_as_hybrid"}),
    MAGERING: frozenset({"phyrexian_as_hybrid"}),
    XOM: frozenset(),
}
ALL_OPTIONS = frozenset().union(*OPTIONS.values())

_BASIC_TYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")
_ANTE = TextBan("6a", "ante_card", re.compile(r"\bante\b", re.IGNORECASE), "ante")


def _folded(rule: str, *names: str) -> dict[str, str]:
    return {fold(n): rule for n in names}


def _presets() -> dict[str, RuleSet]:
    magic_ville = RuleSet(
        key=MAGIC_VILLE,
        source="Mental Magic Comprehensive Rules (Magic-Ville), rules 700–706, with decisions D1–D15",
        url="http://www.magic-ville.com/fr",
        matching=Matching(),
        land=FaceDownLand("Pentaland", ("Basic",), (), "703.2", "703.4", takes_name=False, unnamed_only=False,
                          from_visible_zones=True),
        bans=Bans(restricted_banned=True, mental_magic_list=True),
        renamed_on_return=False,
        name_scope=SCOPE_GAME,
        cites=dict({
            "matching": "704.1, D1–D3", "zero": "D2", "multicolour": "704.1", "land": "703",
            "bans": "706.1–706.4", "face_down": "705.4", "returning": "704.4", "names": "704.2",
            "scope": "704.4",
        }),
    )
    xom = RuleSet(
        key=XOM,
        source="Async Mental Magic v20181207a (Xom, MM.txt)",
        url="https://github.com/Xom/mental-magic",
        matching=Matching(phyrexian=PHYREXIAN_COLOUR, zero_is_no_cost=True, multicolour_by_value=True),
        land=FaceDownLand("Utopia", ("Basic",), ("Utopia",), "4", "4a", takes_name=True, unnamed_only=True,
                          from_visible_zones=False, active_player_only=True, once_per_turn=True, turn_rule="4a"),
        bans=Bans(
            restricted_banned=False, mental_magic_list=False,
            # the examples the rules give, banned by name whatever our reading of their kind
            names={**_folded("2a", "Battle of Wits", "Doomsday", "Traumatize", "Leveler"),
                   **_folded("2b", "Tainted Pact", "Mind Funeral"), **_folded("6b", "Illusionary Mask")},
            keywords=_folded("6b", "Morph", "Megamorph", "Disguise", "Manifest", "Manifest dread", "Cloak"),
            texts=(
                TextBan("2a", "library_size", re.compile(
                    r"cards in (?:your|their|his or her|that player's|target player's|each player's|a player's)"
                    r" library|(?:top )?half (?:of )?(?:your|their|his or her|that player's|target player's)"
                    r" library|all cards from (?:your|their|his or her|that player's|target player's) library",
                    re.IGNORECASE), "library"),
                TextBan("2b", "reveal_until", re.compile(r"reveals? cards from the top of [^.]*library until",
                                                         re.IGNORECASE), "until"),
                TextBan("6b", "face_down_maker", re.compile(
                    r"(?:onto the battlefield|cast [^.]*|turn [^.]*) face down", re.IGNORECASE), "face down"),
                _ANTE,
            ),
        ),
        renamed_on_return=False,
        name_scope=SCOPE_SERIES,
        cites=dict({
            "matching": "5c, 5f, 5g", "zero": "5d", "multicolour": "5e", "land": "4", "bans": "2a, 2b, 6a, 6b",
            "face_down": "6b", "returning": "3b", "names": "6", "scope": "6",
        }),
        renumbered={"704.1": "5c", "704.2": "6", "704.4": "3b", "703.2": "4", "703.3": "4", "703.4": "4a"},
        allowed_by={"same": "5c", "zero": "5d", "multicolour": "5e", "hybrid": "5f", "phyrexian": "5g"},
    )
    magering = RuleSet(
        key=MAGERING,
        source="Mental Magic Official Rules (MageRing Network, 2015)",
        url="http://mageringnetwork.com/mobile-mental-magic-rules/",
        matching=Matching(),
        land=FaceDownLand("Utopia", (), _BASIC_TYPES, "Utopia", "Utopia", takes_name=False, unnamed_only=False,
                          from_visible_zones=False),
        bans=Bans(
            restricted_banned=False, mental_magic_list=False,
            names=_folded("ban list", "Fastbond", "Exploration", "Library of Alexandria", "Sylvan Library",
                          "Sundering Titan", "Sensei's Divining Top", "Volrath's Stronghold"),
            texts=(replace(_ANTE, rule="ban list"),),
            stripped_keywords=_folded("ban list", "Morph", "Dredge"),
        ),
        renamed_on_return=True,
        name_scope=SCOPE_GAME,
        cites=dict({
            "matching": "Richard Garfield, Ph.D.", "zero": "Richard Garfield, Ph.D.",
            "multicolour": "Richard Garfield, Ph.D.", "land": "Utopia", "bans": "ban list",
            "face_down": "ban list", "returning": "once per game", "names": "once per game",
            "scope": "once per game", "face_cards": "face cards",
        }),
        renumbered={"704.1": "Richard Garfield, Ph.D.", "704.2": "once per game", "704.4": "once per game",
                    "703.2": "Utopia", "703.3": "Utopia", "703.4": "Utopia"},
    )
    return {rs.key: rs for rs in (magic_ville, xom, magering)}


PRESETS: dict[str, RuleSet] = _presets()
RULE_SETS = tuple(PRESETS)
DEFAULT = PRESETS[DEFAULT_RULES]


class UnknownRuleSet(InvalidInput):
    code = "unknown_rules"

    def __init__(self, name):
        super().__init__("rules.unknown", name=str(name), choices=list(RULE_SETS),
                         fields={"rules": [say("rules.unknown.field", name=str(name))]})


class BadRuleOption(InvalidInput):
    code = "bad_rule_option"

    def __init__(self, rules: str, option: str, allowed, value=None):
        if value is not None:
            said = say("rules.option.not_bool", option=option)
        elif allowed:
            said = say("rules.option.not_taken", rules=rules, option=option, choices=sorted(allowed))
        else:
            said = say("rules.option.none", rules=rules, option=option)
        super().__init__(said, fields={"options": [said]})


def rule_set(key: str | None = None, options: Mapping[str, object] | None = None) -> RuleSet:
    """The preset called ``key`` (the default when None), under ``options``; the same object for
    the same question, so that it may key caches."""
    name = DEFAULT_RULES if key is None else str(key).strip().lower()
    if name not in PRESETS:
        raise UnknownRuleSet(key)
    items = tuple(sorted((options or {}).items(), key=lambda kv: str(kv[0])))
    try:
        return _kept(name, items)
    except TypeError:  # an option value that can't be a key: with_options refuses it
        return PRESETS[name].with_options(dict(items))


@lru_cache(maxsize=64)
def _kept(name: str, items: tuple) -> RuleSet:
    return PRESETS[name].with_options(dict(items))


def rules_view(rules: RuleSet) -> dict:
    """What a game shows of its rule set: data, and the rule of its own source where it differs."""
    land = rules.land
    return {
        "key": rules.key, "source": rules.source, "url": rules.url, "options": dict(rules.options),
        "land": {"name": land.name, "supertypes": list(land.supertypes), "subtypes": list(land.subtypes),
                 "rule": land.rule},
        "name_scope": rules.name_scope,
        "differs": [{"aspect": a, "rule": rules.cite(a)} for a in rules.differs()],
    }


def game_options(options: Mapping[str, object], rules: str | None) -> dict:
    """A game's stored options: the rule set's options, and ``rules`` unless it is the default
    (so a default game's options are what they always were)."""
    return {**options, "rules": rules} if rules and rules != DEFAULT_RULES else dict(options)


def game_rules(options: Mapping[str, object] | None) -> RuleSet:
    """The rule set a game's options choose: ``rules`` names it (the default when absent), the
    rest are its options."""
    options = dict(options or {})
    return rule_set(options.pop("rules", None), {k: v for k, v in options.items() if k != "series"})
