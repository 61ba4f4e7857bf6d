"""The checks a name must pass to be given in a game (704, 705.4, 705.4a), in one place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .cards import Card, Nameable
from .closenames import suggestions
from .commander import commander_cards, identity_of, whose
from .errors import AlreadyNamed, FaceDownRefused, NameTaken, NotACandidate
from .identity import Identity
from .index import CandidateFinder, Verdict
from .messages import Message, both, chain, either, say, word_of
from .names import fold
from .pool import said_name
from .registry import NameRegistry
from .rulesets import RuleSet, game_rules

EXCEPTION_705_4A = "705.4a"

# 705.4: what a name must be, given how the face-down card is turned face up: (type_, keywords),
# a name having any one of the keywords. D13(c): megamorph is a variant of morph (CR 702.37b), so
# a card turned up by its morph cost may be a morph or a megamorph card; by a megamorph cost, a
# megamorph card only.
VIA_FILTERS: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "morph": (None, ("morph", "megamorph")),
    "megamorph": (None, ("megamorph",)),
    "disguise": (None, ("disguise",)),
    "manifest": ("creature", ()),
    "cloak": ("creature", ()),
    "effect": (None, ()),
}


# Played face down this way, a card must be a card with that very keyword, however it later turns
# face up (the seed's red morph that dies must be Goblin Taskmaster: a player who casts a megamorph
# card face down says via=megamorph). Manifest and cloak put any card face down: only turning it up
# by their own ability asks for a creature.
PLAYED_AS: dict[str, str] = {"morph": "morph", "megamorph": "megamorph", "disguise": "disguise"}

Keywords = tuple[tuple[str, ...], ...]  # every group must be met, by any one keyword of the group


def face_up_filter(face_down_via: str | None, turn_up_via: str) -> tuple[str | None, Keywords]:
    """705.4, D13(c): (type, keyword groups) a name must have when a card that went face down by
    ``face_down_via`` is turned face up by ``turn_up_via``."""
    type_, keywords = VIA_FILTERS[turn_up_via]
    groups = {keywords} if keywords else set()
    if face_down_via in PLAYED_AS:
        groups.add((PLAYED_AS[face_down_via],))
    # A group holding all of another's keywords is met whenever that one is (a morph card turned up
    # by morph has "morph", so "morph or megamorph" says nothing more): said once, not twice.
    kept = {g for g in groups if not any(o != g and set(o) <= set(g) for o in groups)}
    return type_, tuple(sorted(kept))


def fits(face, type_: str | None, groups: Keywords) -> bool:
    """Has the type (if any) and, for each group, one of its keywords."""
    return face.fits(type_) and all(any(face.has_keyword(k) for k in g) for g in groups)


def _keywords(group: tuple[str, ...]) -> Message | str:
    """'morph or megamorph', each keyword worded (a French reader reads 'mue ou mégamue')."""
    return either([word_of("keyword", k) for k in group])


def _type(type_: str) -> Message | str:
    return word_of("card_type", type_)


def via_word(via: str | None) -> Message | str:
    """How a card went face down or turns face up (zones.VIAS), worded: 'by an effect', 'par un effet'."""
    return word_of("via", via)


def _musts(type_: str | None, groups: Keywords) -> Message:
    """What every name must be: 'have morph or megamorph and be a creature', as a message."""
    musts = [say("must.have", keywords=_keywords(g)) for g in groups]
    return both(musts + [say("must.be", type=_type(type_))] if type_ else musts)


def lacking(faces, type_: str | None, groups: Keywords) -> Message | None:
    """What none of ``faces`` has of what a face-down card's name must have (705.4, D13(d)):
    "no morph", "no megamorph and is not a creature"; None when one of them fits."""
    faces = list(faces)
    if any(fits(f, type_, groups) for f in faces):
        return None
    missing = [say("lacks.keyword", keywords=_keywords(g)) for g in groups
               if not any(any(f.has_keyword(k) for k in g) for f in faces)]
    if type_ and not any(f.fits(type_) for f in faces):
        missing.append(say("lacks.type", type=_type(type_)))
    return both(missing) or say("lacks.ability")


def check_turn_up_via(face_down_via: str | None, turn_up_via: str) -> None:
    """D13(d): a card cast face down via morph, megamorph or disguise has that ability; it is turned
    up by a cost of its own only if it has that one too (a morph card has no megamorph cost)."""
    played = PLAYED_AS.get(face_down_via or "")
    wanted = VIA_FILTERS[turn_up_via][1]
    if played and wanted and played not in wanted:
        words = {"played": word_of("keyword", played), "via": via_word(turn_up_via)}
        raise FaceDownRefused("face_down.wrong_via", **words, rule="705.4",
                              fields={"via": [say("face_down.wrong_via.field", **words)]})


@dataclass(frozen=True)
class Naming:
    """The rules a game names under: its card finder, format and house option (704.1, D3, D5), or
    its rule set (rulesets.py), and the names earlier games of its series took (Xom 6)."""

    finder: CandidateFinder
    fmt: str
    phyrexian_as_hybrid: bool = False
    # 903.5c, D14(b): player id -> (their commander's colour identity, whose it is, as words)
    identities: Mapping[str, tuple[Identity, Message]] = field(default_factory=dict)
    rules: RuleSet | None = None  # None: the default, under ``phyrexian_as_hybrid``
    carried: Mapping[str, str] = field(default_factory=dict)  # folded names the series' other games took -> which

    @classmethod
    def for_game(cls, setup, finder: CandidateFinder) -> Naming:
        """The naming rules of a game's setup (its format, rule set and commanders, and its series' names)."""
        rules = game_rules(setup.options)
        return cls(finder, setup.format, bool(rules.options.get("phyrexian_as_hybrid")),
                   commander_identities(setup, finder.pool), rules, setup.carried_names)

    def taken(self, registry: NameRegistry) -> frozenset[str]:
        """The folded names no card may take now: this game's (704.2), and its series' (Xom 6)."""
        return registry.taken_keys().union(self.carried) if self.carried else registry.taken_keys()

    def identity(self, namer: str | None) -> tuple[Identity | None, Message | None]:
        """The identity ``namer`` names within (903.5c), and whose it is; None outside a commander game."""
        return self.identities.get(namer, (None, None)) if namer is not None else (None, None)

    def verdict(self, printed: Card, name: str, taken=(), namer: str | None = None) -> Verdict:
        """The verdict on ``name`` with this game's ``taken`` names (704.2) and, always, its series'
        (Xom 6): the one check moves, dry runs and look-ups share (index.CandidateFinder.check)."""
        identity, whose = self.identity(namer)
        return self.finder.check(
            name, printed=printed, fmt=self.fmt, phyrexian_as_hybrid=self.phyrexian_as_hybrid, taken=taken,
            identity=identity, whose=whose, rules=self.rules, carried=self.carried,
        )

    def resolve(self, printed: Card, name: str, registry: NameRegistry, namer: str | None = None) -> Nameable:
        """The entry ``name`` stands for, if ``printed`` may take it now and ``namer`` may name it
        (704.1, 704.2, 903.5c); else raise."""
        v = self.verdict(printed, name, registry.taken_keys(), namer)
        if v.legal:
            return v.nameable  # type: ignore[return-value]
        raise self.refused(v, name)

    def refused(self, v: Verdict, name: str) -> NameTaken | NotACandidate:
        """``refusal_for``, with the close names when no card is called ``name`` (a misspelling, perhaps)."""
        refusal = refusal_for(v, name, self.taken_rule)
        pool = self.finder.pool
        if pool.find(name) is None:
            refusal.suggest = lambda: suggestions(name, pool)
        return refusal

    @property
    def taken_rule(self) -> str:
        """The rule that refuses a taken name: 704.2, or the rule set's own."""
        return self.rules.rule_for(NameTaken.rule) if self.rules is not None else NameTaken.rule

    def face_up_choice(
        self, printed: Card, via: str, registry: NameRegistry, since_seq: int, opponents: frozenset[str],
        face_down_via: str | None = None, namer: str | None = None,
    ) -> FaceUpChoice:
        """The names a face-down card may take when turned face up (705.4, 705.4a, D6, D7); in a
        commander game only names ``namer`` could take count, in the 705.4a window too (903.5c)."""
        type_, keywords = face_up_filter(face_down_via, via)
        found = [n for n in self.finder.candidates(
            printed=printed, fmt=self.fmt, phyrexian_as_hybrid=self.phyrexian_as_hybrid,
            identity=self.identity(namer)[0], rules=self.rules,
        ).candidates if fits(n.face, type_, keywords)]
        taken = self.taken(registry)
        legal = tuple(n.said_name for n in found)  # names as str, worded in French where the table speaks it
        free = tuple(n.said_name for n in found if n.key not in taken)
        # D6: the window is what was legal and free at the moment the card went face down.
        window = tuple(n.said_name for n in found if not registry.taken_before(n.name, since_seq + 1))
        by_opponent = any(r.player in opponents for name in window for r in registry.records_for(name))
        exception = not free and bool(window) and by_opponent
        return FaceUpChoice(via=via, legal=legal, free=free, window=window, exception=exception,
                            type_=type_, keywords=keywords, namer=namer, by_opponent=by_opponent)

    def face_up_name(self, printed: Card, name: str, choice: FaceUpChoice) -> tuple[Nameable, str | None]:
        """Check ``name`` for a card turned face up; returns the entry and the exception used, if any."""
        v = self.verdict(printed, name, namer=choice.namer)
        if not v.legal:
            raise self.refused(v, name)
        n: Nameable = v.nameable  # type: ignore[assignment]
        if n.key not in {fold(x) for x in choice.legal}:
            missing = lacking([n.face], choice.type_, choice.keywords)
            why = (say("name.has", name=n.said_name, missing=missing) if missing
                   else say("name.not_legal_here", name=n.said_name))
            raise NotACandidate("face_up.unfit", why=why, via=via_word(choice.via), filter=choice.describe_filter(),
                                rule="705.4", fields={"name": [why]})
        if n.key in {fold(x) for x in choice.free}:
            return n, None
        if choice.exception and n.key in {fold(x) for x in choice.window}:
            return n, EXCEPTION_705_4A
        raise NameTaken("name.taken_advice", name=n.said_name, advice=choice.advice(),
                        fields={"name": [say("name.taken.field", name=n.said_name)]})

    def check_same_name(self, named_as: str | None, name: str | None) -> None:
        """704.4: a named card keeps its name; giving its own name again is harmless."""
        if name is None or named_as is None:
            return
        if fold(name) == fold(named_as) or any(n.name == named_as for n in self.finder.pool.nameables_called(name)):
            return
        said = said_name(self.finder.pool, named_as)
        rule = self.rules.rule_for(AlreadyNamed.rule) if self.rules is not None else AlreadyNamed.rule  # Xom 3b
        raise AlreadyNamed("name.already", name=said, rule=rule,
                           fields={"name": [say("name.already.field", name=said)]})

    def check_fits_face_down(self, name: str | None, face_down_via: str | None, turn_up_via: str) -> None:
        """705.4: a name a face-down card carries must fit how it was played and how it turns up
        (a card played by morph is a morph card)."""
        type_, keywords = face_up_filter(face_down_via, turn_up_via)
        entries = self.finder.pool.nameables_called(name or "")
        missing = lacking([n.face for n in entries], type_, keywords) if entries else None
        if missing:
            said = entries[0].said_name  # the name as the table reads it, not as typed
            raise NotACandidate("face_down.unfit", name=said, missing=missing, must=_musts(type_, keywords),
                                rule="705.4", fields={"name": [say("name.has", name=said, missing=missing)]})


@dataclass(frozen=True)
class FaceUpChoice:
    """What a face-down card may be named when turned face up, and whether D8 applies."""

    via: str
    legal: tuple[str, ...]  # 704.1 and the via's filter, taken or not
    free: tuple[str, ...]  # legal and not taken: one of these must be chosen if any
    window: tuple[str, ...]  # legal and free when the card went face down (D6)
    exception: bool  # 705.4a: nothing free, all the window taken since, one by an opponent
    type_: str | None = None  # what every legal name must be...
    keywords: Keywords = ()  # ...and have, one of each group (705.4, D13(c))
    namer: str | None = None  # whose commander's identity the names are within (903.5c)
    by_opponent: bool = False  # one of the window's names was taken since by an opponent (705.4a, D7)

    @property
    def allowed(self) -> tuple[str, ...]:
        """The names the controller may choose now."""
        return self.free or (self.window if self.exception else ())

    @property
    def loses(self) -> bool:
        """D8: no legal name remains even with 705.4a."""
        return not self.allowed

    @property
    def why_no_exception(self) -> str | None:
        """Why 705.4a opens nothing when no name is free: ``no_legal_name`` (none fits the card and
        its via), ``taken_before`` (every name was taken before it went face down, D6) or
        ``own_side`` (the names free then were taken since by its side alone, no opponent: D7)."""
        if self.free or self.exception:
            return None
        if not self.legal:
            return "no_legal_name"
        return "own_side" if self.window else "taken_before"

    def describe_filter(self) -> Message:
        if self.type_ or self.keywords:
            return say("face_up.filter", must=_musts(self.type_, self.keywords))
        return say("face_up.any_name")

    def advice(self) -> Message:
        if self.free:
            return say("face_up.free", n=len(self.free), names=list(self.free[:5]))
        if self.exception:
            return say("face_up.window", names=list(self.window))
        return say("face_up.none")


def commander_identities(setup, pool) -> dict[str, tuple[Identity, Message]]:
    """903.5c, D14(b): each player's commander's colour identity (the union for two), and whose."""
    out = {}
    for p in setup.players:
        cards = commander_cards(setup, pool, p.id)
        if cards:
            out[p.id] = (identity_of(cards), whose(cards))
    return out


def refusal_for(v: Verdict, name: str, taken_rule: str = NameTaken.rule) -> NameTaken | NotACandidate:
    """The refusal a failed verdict stands for: every reason, in rule order (as /check lists them),
    answering with the code and rule of the first (``Verdict.first``): 704.2 first (taken, and
    perhaps banned too) is ``name_taken``; any other first rule is ``not_a_candidate`` with it."""
    reasons = v.reasons  # in rule order already (index.in_rule_order)
    messages = [r.message for r in reasons] or [say("name.cannot", name=name)]
    first = v.first
    said = chain([say("reason.rule", reason=r.message, rule=r.rule) for r in reasons]) if len(reasons) > 1 \
        else messages[0]
    if first is not None and first.rule == taken_rule:
        return NameTaken(said, rule=taken_rule, fields={"name": messages})
    return NotACandidate(said, rule=first.rule if first else NotACandidate.rule, fields={"name": messages})
