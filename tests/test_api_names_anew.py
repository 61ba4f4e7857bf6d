"""MageRing's card named anew and Xom's lasting Utopia over HTTP (issue 25): the game view shows a
card's current name and, to who may see the card, its earlier names; the names table keeps them
all, one row each, and undo gives the old name back; a names table from before is rebuilt with
its rows. The app runs over a real SQLite file and the core mini pool's cards."""

from __future__ import annotations

import sqlite3

import pytest
from minipool_variants import variant_pool
from test_api_series import API, act, bearer, new_game, ok

from mentalmagic.index import CandidateFinder
from mentalmagic.runtime import Runtime
from mentalmagic.storage import connect
from mentalmagic.web import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("names-anew") / "games.sqlite"
    connect(path).conn.close()  # schema.sql applied; the cards stay in memory
    pool = variant_pool()
    app = create_app({"TESTING": True, "DATABASE": str(path),
                      "RUNTIME": Runtime(db_path=path, pool=pool, finder=CandidateFinder(pool))})
    return app.test_client()


def view(client, game, who=None) -> dict:
    token = game["judge_token"] if who is None else game["players"][who]["token"]
    return ok(client.get(f"{API}/games/{game['id']}", headers=bearer(token)))


def card_of(client, game, cid: str, who=None) -> dict | None:
    return next((c for c in view(client, game, who)["cards"] if c["id"] == cid), None)


def names_rows(path, game_id: str) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute("select name, card, seq, anew from names where game_id = ? order by seq",
                            [game_id]).fetchall()


def test_a_magering_card_back_from_a_hand_takes_a_new_name_and_undo_gives_the_old_one_back(client):
    game = new_game(client, ["Shock", "Savannah Lions"], rules="magering")
    cid = act(client, game, 0, type="draw", count=1)["event"]["data"]["cards"][0]
    act(client, game, 0, type="move", card=cid, to="stack", name="Lightning Bolt")
    act(client, game, 0, type="move", card=cid, to="battlefield")
    bounced = act(client, game, 0, type="move", card=cid, to="hand")["event"]
    assert bounced["data"]["unnamed"] == {"name": "Lightning Bolt", "rule": "face cards"}
    in_hand = card_of(client, game, cid, 0)
    assert (in_hand["named_as"], in_hand["earlier_names"]) == (None, ["Lightning Bolt"])
    assert all("earlier_names" not in c and c["named_as"] is None
               for c in view(client, game, 1)["cards"] if c["zone"] == "hand")  # D15: Bob can't follow it
    refused = act(client, game, 0, 409, type="move", card=cid, to="stack", name="Lightning Bolt")
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("name_taken", "once per game")
    act(client, game, 0, type="move", card=cid, to="stack", name="Chain Lightning")
    shown = card_of(client, game, cid, 1)  # face up on the stack: Bob sees it, and its names
    assert (shown["named_as"], shown["earlier_names"]) == ("Chain Lightning", ["Lightning Bolt"])
    names = ok(client.get(f"{API}/games/{game['id']}/names", headers=bearer(game["judge_token"])))["names"]
    assert [(n["name"], n["card"]) for n in names] == [("Lightning Bolt", cid), ("Chain Lightning", cid)]
    path = client.application.config["DATABASE"]
    assert [(n, c, anew) for n, c, _, anew in names_rows(path, game["id"])] == [
        ("Lightning Bolt", cid, 0), ("Chain Lightning", cid, 1)]
    judge = bearer(game["judge_token"])
    ok(client.post(f"{API}/games/{game['id']}/undo", headers=judge))  # the new name goes...
    assert [r[0] for r in names_rows(path, game["id"])] == ["Lightning Bolt"]  # ...the old one stays
    ok(client.post(f"{API}/games/{game['id']}/undo", headers=judge))  # back on the battlefield, named as before
    back = card_of(client, game, cid, 1)
    assert (back["zone"], back["named_as"], "earlier_names" in back) == ("battlefield", "Lightning Bolt", False)


def test_a_xom_utopia_keeps_its_name_as_it_moves(client):
    game = new_game(client, ["Shock", "Savannah Lions"], rules="xom")
    cid = act(client, game, 0, type="draw", count=1)["event"]["data"]["cards"][0]
    played = act(client, game, 0, type="move", card=cid, to="battlefield", pentaland=True)["event"]
    assert played["data"]["land_name"] == "Utopia"
    act(client, game, 0, type="move", card=cid, to="hand")
    assert card_of(client, game, cid)["named_as"] == "Utopia"
    assert ok(client.get(f"{API}/games/{game['id']}/names", headers=bearer(game["judge_token"])))["names"] == []


def test_a_names_table_from_before_is_rebuilt_with_its_rows(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:  # the table as issue 25 found it: one row per card
        conn.executescript("""
            CREATE TABLE games (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, format TEXT NOT NULL,
                options TEXT NOT NULL DEFAULT '{}', setup TEXT NOT NULL, judge_token_hash TEXT NOT NULL,
                seq INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE names (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                name_key TEXT NOT NULL, name TEXT NOT NULL, card TEXT NOT NULL, player TEXT,
                seq INTEGER NOT NULL, exception TEXT CHECK (exception IS NULL OR exception = '705.4a'),
                PRIMARY KEY (game_id, card));
            INSERT INTO games (id, created_at, format, setup, judge_token_hash)
                VALUES ('g', 'now', 'vintage', '{}', 'h');
            INSERT INTO names VALUES ('g', 'lightning bolt', 'Lightning Bolt', 'c1', 'ana', 1, NULL);
        """)
    for _ in range(2):  # once rebuilt, never again
        connect(path).conn.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("select name, card, seq, anew from names").fetchall() == [("Lightning Bolt", "c1", 1, 0)]
        conn.execute("insert into names (game_id, name_key, name, card, player, seq, anew) "
                     "values ('g', 'chain lightning', 'Chain Lightning', 'c1', 'ana', 5, 1)")  # named anew
        for row in (("c2", "lightning bolt", 6, 0), ("c1", "goblin guide", 7, 0)):  # 704.2; 704.4
            try:
                conn.execute("insert into names (game_id, card, name_key, name, seq, anew)"
                             " values ('g', ?, ?, 'x', ?, ?)", row)
                raise AssertionError(row)
            except sqlite3.IntegrityError as e:
                assert "UNIQUE" in str(e)
