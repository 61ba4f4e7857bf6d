"""The card look-ups' use cases: what a caller asks, resolved once into one ``CandidateQuery``
(cards by name, a game's format, house option and taken names, a commander's identity), which the
index answers. The API, the CLI and the pages ask through these; nothing here knows HTTP or SQL.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from .commander import commander_cards, find_commanders, identity_of
from .errors import UnknownPlayer
from .filterwords import filter_word
from .formats import COMMANDER, DEFAULT_FORMAT
from .identity import Identity
from .index import CandidateFinder, CandidateList, CandidateQuery, Exclusion, Verdict, explain_empty
from .mana import ManaCost
from .rulesets import game_rules, rule_set
from .search import parse

if TYPE_CHECKING:  # a look-up by name or cost never loads the game's modules
    from .game import Game


class Games(Protocol):
    def load(self, game_id: str) -> Game:
        """The game as the rules read it: with its series' names (services.RulesGames), as its moves read it."""


def candidate_query(finder: CandidateFinder, *, printed: str | None = None, cost: ManaCost | None = None,
                    fmt: str | None = None, phyrexian_as_hybrid: bool | None = None, type_: str | None = None,
                    keyword: str | None = None, commanders: Sequence[str] = (), games: Games | None = None,
                    game: str | None = None, player: str | None = None, rules: str | None = None,
                    query: str | None = None, sort: str | None = None) -> CandidateQuery:
    """The question, resolved: ``printed`` and ``commanders`` found by any English or French name
    (404, or 422 for a card that can't be a commander: 903.3, D14(c)). With ``game``, the game's
    format and option unless given, its taken names (704.2), and with ``player`` that player's
    commander's identity (903.5c, D14(b); 422 for nobody of the game). Without a format, the
    game's, else the commander format when asked within a commander's identity, else the default.
    ``rules``: the rule set (docs/rule-sets.md), else the game's, else the default under the house option.
    ``query``: a search over the candidates (search.py: 422 when it can't be read), ``sort`` their order."""
    pool = finder.pool
    chosen = tuple(find_commanders(pool, commanders)) if commanders else ()
    identity = None  # the commanders' (903.5c), worked out below unless the game's player gives them
    taken: frozenset[str] = frozenset()
    carried: Mapping[str, str] = {}
    if game:
        asked = _from_game(games.load(game), player, pool)
        fmt = fmt or asked.format
        if phyrexian_as_hybrid is None:
            phyrexian_as_hybrid = asked.phyrexian_as_hybrid
        if rules is None:
            rules = asked.rules
        taken, carried = asked.taken, asked.carried
        if player is not None:
            chosen, identity = asked.commanders, asked.identity
    if identity is None and chosen:
        identity = identity_of(chosen)
    return CandidateQuery(
        printed=pool.lookup(printed, "printed") if printed is not None else None,
        cost=cost,
        fmt=fmt or (COMMANDER if chosen else DEFAULT_FORMAT),
        phyrexian_as_hybrid=bool(phyrexian_as_hybrid),
        type_=filter_word(pool, type_, "type"),  # a word no card has: 422 with the close ones
        keyword=filter_word(pool, keyword, "keyword"),
        identity=identity,
        commanders=chosen,
        taken=taken,
        carried=carried,
        rules=rule_set(rules, {"phyrexian_as_hybrid": bool(phyrexian_as_hybrid)}) if rules is not None else None,
        search=_search(query),
        sort=sort or "name",
    )


def _search(text: str | None):
    """The search ``text`` asks over the candidates (search.py: 422 when it can't be read); none for
    an empty one."""
    return parse(text) if text and text.strip() else None


def searched(question: CandidateQuery, text: str | None) -> CandidateQuery:
    """``question`` with the search ``text`` in place of its own: ``candidate_query(..., query=text)``
    for a question already resolved without it."""
    return replace(question, search=_search(text))


@dataclass(frozen=True)
class _GameQuestion:
    """What a game gives a question: its format, house option and rule set, its taken names, and a
    player's commanders and the identity they name within (903.5c)."""

    format: str
    phyrexian_as_hybrid: bool
    rules: str | None
    taken: frozenset[str]
    carried: Mapping[str, str]  # the names its series' other games took (Xom 6), as the game's moves read them
    commanders: tuple = ()
    identity: Identity | None = None


# Per game version and player: a bot asks `?game=&player=` far more often than its game changes.
# A game at one version is one object (the store's version cache), held here weakly: an entry is
# good while it is that same object, and keeps no game alive.
_FROM_GAME: dict[tuple, tuple[weakref.ref, _GameQuestion]] = {}


def _from_game(g: Game, player: str | None, pool) -> _GameQuestion:
    key = (g.id, player, id(pool))
    kept = _FROM_GAME.get(key)
    if kept is not None and kept[0]() is g:
        return kept[1]
    setup = g.setup
    if player is not None and setup.player(player) is None:
        raise UnknownPlayer(player)
    chosen = tuple(commander_cards(setup, pool, player)) if player is not None else ()
    out = _GameQuestion(format=setup.format, phyrexian_as_hybrid=setup.phyrexian_as_hybrid,
                        rules=game_rules(setup.options).key if setup.options.get("rules") else None,
                        taken=g.state.names.taken_keys(), carried=g.setup.carried_names, commanders=chosen,
                        identity=identity_of(chosen) if chosen else None)
    if len(_FROM_GAME) >= 4096:  # games come and go: start over rather than grow
        _FROM_GAME.clear()
    _FROM_GAME[key] = (weakref.ref(g), out)
    return out


def candidates(finder: CandidateFinder, query: CandidateQuery) -> CandidateList:
    """Every name the printed card (or cost) may take (704.1)."""
    return finder.candidates(query)


def check(finder: CandidateFinder, name: str, query: CandidateQuery) -> Verdict:
    """May it be named ``name``? Every reason, with its rule. A ``name`` that is no card's at all
    (a misspelling) is ``unknown_card`` with close names, as wherever a caller names a card; a
    card's name that is no name (a split card's full name, a back face) is a verdict's reason."""
    if not finder.pool.nameables_called(name):
        finder.pool.lookup(name, "name")  # no card either: UnknownCard, with suggestions
    return finder.check(name, query)


def why_none(finder: CandidateFinder, query: CandidateQuery) -> list[Exclusion]:
    """An empty answer's reasons: each same-cost card and the rule that keeps it out."""
    return explain_empty(finder.pool, printed=query.printed, cost=query.cost, fmt=query.fmt,
                         phyrexian_as_hybrid=query.phyrexian_as_hybrid, type_=query.type_, keyword=query.keyword,
                         identity=query.identity, whose=query.whose, rules=query.rules, search=query.search,
                         context=finder.context(query.all_taken))
