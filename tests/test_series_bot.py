"""Issue 32's "done when": a bot that trusts nothing but the look-ups plays a three-game Xom series
without one refusal it could have foreseen. It names each card only as a candidate /candidates calls
free and /check calls legal in that game; once the series has taken every name a card may take
(Xom 6), the look-ups say so first, and the move then is refused as they said. Through the suite's
game driver (tests/driver.py), every answer checked against its published schema, on the variants'
mini pool, in the core tier."""

from __future__ import annotations

import pytest
from driver import ANA, BOB, Game, new_series
from minipool_variants import variant_pool

from mentalmagic.index import CandidateFinder
from mentalmagic.runtime import Runtime
from mentalmagic.storage import connect
from mentalmagic.web import create_app

# two red cards that name each other's five red one-drops, a green and a blue one: each game
# deals Ana the first two, Bob the other two
LIBRARY = ["Shock", "Lightning Bolt", "Grizzly Bears", "Counterspell"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("series_bot") / "games.sqlite"
    connect(path).conn.close()
    pool = variant_pool()
    app = create_app({"TESTING": True, "DATABASE": str(path),
                      "RUNTIME": Runtime(db_path=path, pool=pool, finder=CandidateFinder(pool))})
    return app.test_client()


def bot_turn(game: Game, who: str, card: str, printed: str) -> str | None:
    """Name ``card`` as the first candidate the look-ups call free and legal, else name nothing
    and show that the move would be refused exactly as the look-up said. The name chosen, or None."""
    candidates = game.candidates(printed)
    free = [c["name"] for c in candidates if not c["taken"]]
    for name in free:  # a free candidate is a legal name: the two look-ups agree
        assert game.check(printed, name)["legal"] is True, name
    if free:
        game.cast(who, card, free[0])  # a 200, or the driver fails the test: an unforeseen refusal
        return free[0]
    assert candidates, printed
    for c in candidates:  # none free: each is refused by the rule the look-up cites, and says which game
        verdict = game.check(printed, c["name"])
        assert verdict["legal"] is False
        assert [r["rule"] for r in verdict["reasons"]] == (["6"] if c.get("taken_in") else ["704.2"]), verdict
    foreseen = game.check(printed, candidates[0]["name"])["reasons"][0]["rule"]
    game.refused(who, 409, "name_taken", foreseen, type="move", card=card, to="stack", name=candidates[0]["name"])
    return None


def test_a_bot_that_trusts_only_the_look_ups_plays_a_three_game_xom_series_without_a_foreseeable_refusal(client):
    series = new_series(client, "xom")
    games, chosen = [], []
    for _ in range(3):
        game = Game(client, LIBRARY, series=series)
        games.append(game)
        hands = {ANA: game.draw(ANA, 2), BOB: game.draw(BOB, 2)}
        for who, cards in hands.items():
            for card in cards:
                printed = game.card(card)["printed"]
                name = bot_turn(game, who, card, printed)
                if name is not None:
                    chosen.append((game.id, name))
    names = [n for _, n in chosen]
    assert len(names) == len(set(names))  # no name twice in the whole series (Xom 6)
    # the red cards share five names: game 3 finds one left for its first, none for its second
    assert sum(1 for _, n in chosen if n in {"Chain Lightning", "Figure of Destiny", "Goblin Guide",
                                            "Lightning Bolt", "Shock"}) == 5
    assert len(chosen) < 12  # the look-ups foresaw the names the series had run out of
    # game 3 marks every name the others took with the game that took it
    took = {n: gid for gid, n in chosen if gid != games[2].id}
    for printed in ("Shock", "Grizzly Bears", "Counterspell"):
        for c in games[2].candidates(printed):
            if c["name"] in took:
                assert (c["taken"], c["taken_in"]) == (True, took[c["name"]]), c
