"""The card look-ups' use cases: what a caller asks, resolved once into one ``CandidateQuery``
(cards by name, a game's format, house option and taken names, a commander's identity), which the
index answers. The API, the CLI and the pages ask through these; nothing here knows HTTP or SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from .commander import commander_cards, find_commanders, identity_of
from .errors import UnknownPlayer
from .filterwords import FRENCH_KEYWORDS, FRENCH_TYPES, in_english
from .formats import COMMANDER, DEFAULT_FORMAT
from .index import CandidateFinder, CandidateList, CandidateQuery, Exclusion, Verdict, explain_empty
from .mana import ManaCost
from .rulesets import game_rules, rule_set

if TYPE_CHECKING:  # a look-up by name or cost never loads the game's modules
    from .game import Game


class Games(Protocol):
    def load(self, game_id: str) -> Game: ...


def candidate_query(finder: CandidateFinder, *, printed: str | None = None, cost: ManaCost | None = None,
                    fmt: str | None = None, phyrexian_as_hybrid: bool | None = None, type_: str | None = None,
                    keyword: str | None = None, commanders: Sequence[str] = (), games: Games | None = None,
                    game: str | None = None, player: str | None = None, rules: str | None = None) -> CandidateQuery:
    """The question, resolved: ``printed`` and ``commanders`` found by any English or French name
    (404, or 422 for a card that can't be a commander: 903.3, D14(c)). With ``game``, the game's
    format and option unless given, its taken names (704.2), and with ``player`` that player's
    commander's identity (903.5c, D14(b); 422 for nobody of the game). Without a format, the
    game's, else the commander format when asked within a commander's identity, else the default.
    ``rules``: the rule set (docs/rule-sets.md), else the game's, else the default under the house option."""
    pool = finder.pool
    chosen = tuple(find_commanders(pool, commanders)) if commanders else ()
    taken: frozenset[str] = frozenset()
    if game:
        g = games.load(game)
        fmt = fmt or g.setup.format
        if phyrexian_as_hybrid is None:
            phyrexian_as_hybrid = g.setup.phyrexian_as_hybrid
        if rules is None and g.setup.options.get("rules"):
            rules = game_rules(g.setup.options).key
        taken = g.state.names.taken_keys()
        if player is not None:
            if g.setup.player(player) is None:
                raise UnknownPlayer(player)
            chosen = tuple(commander_cards(g.setup, pool, player))
    return CandidateQuery(
        printed=pool.lookup(printed) if printed is not None else None,
        cost=cost,
        fmt=fmt or (COMMANDER if chosen else DEFAULT_FORMAT),
        phyrexian_as_hybrid=bool(phyrexian_as_hybrid),
        type_=in_english(type_, FRENCH_TYPES),
        keyword=in_english(keyword, FRENCH_KEYWORDS),
        identity=identity_of(chosen) if chosen else None,
        commanders=chosen,
        taken=taken,
        rules=rule_set(rules, {"phyrexian_as_hybrid": bool(phyrexian_as_hybrid)}) if rules is not None else None,
    )


def candidates(finder: CandidateFinder, query: CandidateQuery) -> CandidateList:
    """Every name the printed card (or cost) may take (704.1)."""
    return finder.candidates(query)


def check(finder: CandidateFinder, name: str, query: CandidateQuery) -> Verdict:
    """May it be named ``name``? Every reason, with its rule."""
    return finder.check(name, query)


def why_none(finder: CandidateFinder, query: CandidateQuery) -> list[Exclusion]:
    """An empty answer's reasons: each same-cost card and the rule that keeps it out."""
    return explain_empty(finder.pool, printed=query.printed, cost=query.cost, fmt=query.fmt,
                         phyrexian_as_hybrid=query.phyrexian_as_hybrid, type_=query.type_, keyword=query.keyword,
                         identity=query.identity, whose=query.whose, rules=query.rules)
