"""A card source is checked before it replaces anything (issue 23): an empty one, a malformed one,
or one that lacks cards the stored games use is refused at start in one line, and the card tables
are left as they were; a source with every card the games use replaces them."""

from __future__ import annotations

import sqlite3

import pytest
from served import Served, call, tiny_env
from support import fresh_games_db
from test_importers import TINY, write
from test_startup import assert_refused, start

pytestmark = [pytest.mark.processes,
              pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="serves with workers (POSIX)")]


def card_count(db) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        return conn.execute("select count(*) from cards").fetchone()[0], \
            conn.execute("select card_count from card_source").fetchone()[0]


@pytest.fixture(scope="module")
def played_once(tmp_path_factory):
    """A database of TINY's cards holding a game of Ornithopters, one of them named Black Lotus, as
    the server that played it left it."""
    folder = tmp_path_factory.mktemp("played")
    env = tiny_env(folder)
    db = folder / "arbiter.sqlite"
    server = Served(env, "--workers", "1", log=folder / "server.log")
    try:
        status, game, _ = call(server.port, "POST", "/games", {
            "format": "all", "players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Ornithopter"] * 3})
        assert status == 201
        token = {"Authorization": f"Bearer {game['players'][0]['token']}"}
        status, drawn, _ = call(server.port, "POST", f"/games/{game['id']}/actions", {"type": "draw", "count": 1},
                                token)
        assert status == 200
        card = drawn["cards"][0]["id"]
        status, moved, _ = call(server.port, "POST", f"/games/{game['id']}/actions",
                                {"type": "move", "card": card, "to": "battlefield", "name": "Black Lotus"}, token)
        assert status == 200, moved
    finally:
        server.stop()
    return db


@pytest.fixture
def played(played_once, tmp_path):
    """A copy of that database for one test (a test may replace its tables), its pool cache beside it."""
    return fresh_games_db(played_once, tmp_path / "arbiter.sqlite")


def only(*names: str) -> dict:
    return {"meta": {}, "data": {n: TINY["data"][n] for n in names}}


def test_an_empty_source_is_refused_and_replaces_nothing(played, tmp_path):
    before = card_count(played)
    empty = write(tmp_path / "empty.json", {"meta": {}, "data": {}})
    line = assert_refused(start(played, empty, "serve", "--port", "0"), str(empty), "holds no card",
                          "nothing was replaced")
    assert "hold 0 cards" not in line  # not the contradiction of issue 23: tables emptied, then refused
    assert card_count(played) == before == (len(TINY["data"]), len(TINY["data"]))


def test_a_source_lacking_a_stored_games_cards_is_refused_naming_them(played, tmp_path):
    before = card_count(played)
    two = write(tmp_path / "two.json", only("Savannah Lions", "Forest"))
    line = assert_refused(start(played, two, "serve", "--port", "0"), str(two), "lacks 2 cards",
                          "Black Lotus", "Ornithopter")
    assert "nothing was replaced" in line
    assert card_count(played) == before
    named_only = write(tmp_path / "named.json", only("Savannah Lions", "Ornithopter"))  # lacks the name taken
    assert_refused(start(played, named_only, "serve", "--port", "0"), "lacks 1 card", "(Black Lotus)")


def test_a_malformed_source_is_refused_and_replaces_nothing(played, tmp_path):
    before = card_count(played)
    bad = tmp_path / "bad.json"
    bad.write_text('{"meta": {}, "data": {"Shock": [{"name": ', encoding="utf-8")
    assert_refused(start(played, bad, "serve", "--port", "0"), str(bad))
    assert card_count(played) == before


def test_a_source_with_every_card_the_games_use_replaces_the_tables(played, tmp_path):
    enough = write(tmp_path / "enough.json", only("Ornithopter", "Black Lotus"))
    server = Served({"MENTALMAGIC_DB": str(played), "MENTALMAGIC_CARDS": str(enough), "MENTALMAGIC_ACCESS_LOG": "0"},
                    "--workers", "1", log=tmp_path / "again.log")
    try:
        status, health, _ = call(server.port, "GET", "/health")
        assert status == 200 and health["card_count"] == 2
    finally:
        server.stop()
