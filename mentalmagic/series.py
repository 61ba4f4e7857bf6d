"""Series: a playgroup's league, games played one after another under one rule set. Where the rule
set says names last a series (Xom 6: "not even in later games"), a name taken in one of its games
stays taken in the others; it is read from the games themselves, so undoing a naming in a game
frees the name in the whole series."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .errors import NotFound
from .rulesets import SCOPE_SERIES, RuleSet


class UnknownSeries(NotFound):
    code = "unknown_series"

    def __init__(self, series_id: str):
        super().__init__("series.unknown", id=series_id)


def carried_names(rules: RuleSet, games: Iterable[tuple[str, frozenset[str]]], game_id: str) -> Mapping[str, str]:
    """The folded names the series' other games took, each with the first game (in ``games``' order)
    that took it, when ``rules`` make names last a series; none otherwise.

    ``games`` gives each game of the series with its taken names. Every name taken now in another
    game was chosen before this moment, so it is a "previously chosen name" (Xom 6), whichever
    game came first.
    """
    if rules.name_scope != SCOPE_SERIES:
        return {}
    carried: dict[str, str] = {}
    for gid, keys in games:
        if gid != game_id:
            for key in keys:
                carried.setdefault(key, gid)
    return carried
