"""Bounded growth (issue 9): games end, ended or idle games are archived, the game cache is bounded.

A game is ``finished`` when the players still in it are all of one side (104.2a; D7: a side is a
team when teams are set, else one player) or when the judge sends ``end_game``; a finished game
refuses every action with 409 ``game_finished`` and undoing its last event takes the end back. A game
nobody wrote to for MENTALMAGIC_ARCHIVE_AFTER hours is archived: read-only (409 ``game_archived``),
its log and state still answered, out of the cache.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from driver import API, JUDGE, Game
from support import assert_envelope, fresh_games_db

from mentalmagic import services
from mentalmagic.runtime import Runtime
from mentalmagic.settings import Settings, from_env
from mentalmagic.storage.gamedb import GameStore
from mentalmagic.web import create_app

LIBRARY = ["Shock", "Savannah Lions", "Grizzly Bears", "Giant Growth", "Craw Wurm", "Mana Leak"]


@pytest.fixture(scope="module")
def db(tmp_path_factory, mini_card_db_path):
    return fresh_games_db(mini_card_db_path, tmp_path_factory.mktemp("game_end") / "games.sqlite")


@pytest.fixture(scope="module")
def app(db, mini_db_finder):
    runtime = Runtime(db_path=db, pool=mini_db_finder.pool, finder=mini_db_finder)
    return create_app({"TESTING": True, "DATABASE": str(db), "RUNTIME": runtime,
                       "SETTINGS": Settings(access_log="0", rate_limit=0, games_per_hour=0, archive_after=1)})


def table(client, players=(("Ana", None), ("Bob", None))) -> Game:
    """A game of ``players`` (name, team) over the module's app, its library ``LIBRARY``."""
    return Game(client, LIBRARY, players=[n for n, _ in players], teams=[t for _, t in players])


def refused_undo(game: Game, code: str) -> dict:
    response = game.client.post(f"{API}/games/{game.id}/undo", headers=game.headers(JUDGE))
    error = assert_envelope(response, 409, cites_rule=False)
    assert error["code"] == code, error
    return error


# -- the end ---------------------------------------------------------------------------------------
def test_when_one_player_remains_the_game_is_finished_and_refuses_actions_until_undone(app):
    t = table(app.test_client())
    t.do("p1", type="draw", count=1)
    assert t.view()["status"] == "active" and t.view()["finished"] is None
    t.do("p1", type="leave_game")
    game = t.view("p2")
    assert game["status"] == "finished"
    assert game["finished"] == {"seq": 2, "by": "last_side", "winners": ["p2"], "rule": "104.2a"}
    before = t.events()
    error = t.refused("p2", 409, "game_finished", cites_rule=False, type="draw", count=1)
    assert error["rule"] == "104.2a"
    t.refused(JUDGE, 409, "game_finished", cites_rule=False, type="draw", player="p2", count=1)
    assert t.events() == before  # nothing recorded
    # the judge takes the leaving back: the game goes on
    t.undo()
    assert t.view()["status"] == "active" and t.view()["finished"] is None
    t.do("p2", type="draw", count=1)


def test_with_teams_the_game_ends_when_the_last_opponent_team_is_out_d7(app):
    t = table(app.test_client(), players=(("Ana", "A"), ("Bob", "A"), ("Cid", "B"), ("Dee", "B")))
    t.do("p1", type="leave_game")
    t.do("p3", type="leave_game")
    assert t.view()["status"] == "active"  # one player of each team is still in
    t.do("p4", type="leave_game")
    assert t.view()["finished"] == {"seq": 3, "by": "last_side", "winners": ["p2"], "rule": "104.2a"}


def test_a_player_of_no_team_is_a_side_of_their_own_d7(app):
    t = table(app.test_client(), players=(("Ana", "A"), ("Bob", "A"), ("Cid", None)))
    t.do("p3", type="leave_game")
    assert t.view()["finished"]["winners"] == ["p1", "p2"]


def test_the_judge_ends_a_game_and_undo_takes_the_end_back(app):
    t = table(app.test_client(), players=(("Ana", None), ("Bob", None), ("Cid", None)))
    t.refused("p1", 403, "forbidden", type="end_game")
    body = t.do(JUDGE, type="end_game")
    assert body["event"]["type"] == "end_game" and body["cards"] == []
    assert t.view()["finished"] == {"seq": 1, "by": "judge", "winners": [], "rule": None}
    t.refused(JUDGE, 409, "game_finished", cites_rule=False, type="end_game")
    t.refused("p1", 409, "game_finished", cites_rule=False, type="draw", count=1)
    t.undo()
    assert t.view()["status"] == "active"
    t.do("p1", type="draw", count=1)


def test_the_document_offers_end_game_as_an_action(app):
    doc = app.test_client().get(f"{API}/openapi.json").get_json()
    body = doc["paths"]["/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert "end_game" in body["discriminator"]["mapping"]


# -- the archive -----------------------------------------------------------------------------------
def _age(db, game_id: str, hours: float) -> None:
    """Make a game look idle for ``hours`` (its last write that long ago)."""
    at = (datetime.now(UTC) - timedelta(hours=hours)).isoformat(timespec="milliseconds")
    with sqlite3.connect(db) as conn:
        conn.execute("update games set updated_at = ?, created_at = ? where id = ?", [at, at, game_id])


def _rows(db, table: str, game_id: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute(f"select count(*) from {table} where game_id = ?", [game_id]).fetchone()[0]


def test_an_idle_game_is_archived_by_the_next_new_game_read_only_and_still_readable(app, db):
    store = app.extensions["mentalmagic"].games
    idle, busy = table(app.test_client()), table(app.test_client())
    idle.do("p1", type="draw", count=2)
    idle.do("p1", type="move", card=idle.events()[0]["data"]["cards"][0], to="stack", name="Lightning Bolt")
    seen, log = idle.view(), idle.events()
    other_process = GameStore(db, app.extensions["mentalmagic"].finder)  # another worker, the game cached
    assert other_process.load(idle.id).archived_at is None
    _age(db, idle.id, hours=2)  # over the app's MENTALMAGIC_ARCHIVE_AFTER of 1 hour
    _age(db, busy.id, hours=0.5)
    app.extensions.pop("mentalmagic.swept", None)  # the last sweep was long ago
    table(app.test_client())  # creating a game sweeps

    assert store.load(idle.id).archived_at and not store.load(busy.id).archived_at
    assert idle.view() == {**seen, "archived": True}  # replayed from the log, exactly as it was
    assert idle.events() == log
    assert idle.id not in store.cache.ids()  # out of the hot cache, even after a read
    assert other_process.load(idle.id).archived_at is not None  # its cached copy is stale: read again
    assert _rows(db, "events", idle.id) == 2 and _rows(db, "game_cards", idle.id) == 0
    assert _rows(db, "names", idle.id) == 0  # the projection is gone, the log kept
    idle.refused("p1", 409, "game_archived", cites_rule=False, type="draw", count=1)
    refused_undo(idle, "game_archived")
    assert idle.events() == log
    busy.do("p1", type="draw", count=1)  # a game used within the hour goes on


def test_a_finished_game_is_archived_like_an_idle_one(app, db):
    t = table(app.test_client())
    t.do("p2", type="leave_game")
    _age(db, t.id, hours=1.5)
    ids = services.archive_idle(app.extensions["mentalmagic"].games.unit_of_work(), hours=1)
    assert t.id in ids
    assert t.view()["status"] == "finished" and t.view()["archived"] is True


def test_a_sweep_archives_the_longest_idle_games_first_and_at_most_so_many(app, db):
    store = app.extensions["mentalmagic"].games
    older, old = table(app.test_client()), table(app.test_client())
    _age(db, older.id, hours=5000)
    _age(db, old.id, hours=4000)
    assert services.archive_idle(store.unit_of_work(), hours=3000, most=1) == [older.id]
    assert services.archive_idle(store.unit_of_work(), hours=3000, most=1) == [old.id]


def test_archive_after_zero_never_archives(db, mini_db_finder):
    runtime = Runtime(db_path=db, pool=mini_db_finder.pool, finder=mini_db_finder)
    app = create_app({"TESTING": True, "DATABASE": str(db), "RUNTIME": runtime,
                      "SETTINGS": Settings(access_log="0", rate_limit=0, games_per_hour=0, archive_after=0)})
    t = table(app.test_client())
    _age(db, t.id, hours=10_000)
    table(app.test_client())
    t.do("p1", type="draw", count=1)


# -- the cache -------------------------------------------------------------------------------------
def test_the_game_cache_keeps_the_most_recently_used_games_only(app, db, mini_db_finder):
    ids = [table(app.test_client()).id for _ in range(3)]
    store = GameStore(db, mini_db_finder, cache_size=2)
    first = store.load(ids[0])
    store.load(ids[1])
    store.load(ids[0])  # used again: now the most recent
    store.load(ids[2])  # evicts ids[1], the least recently used
    assert store.cache.ids() == [ids[0], ids[2]] and len(store.cache) == 2
    hits, misses = store.cache.hits, store.cache.misses
    assert store.load(ids[0]) is first and store.cache.hits == hits + 1
    again = store.load(ids[1])  # replayed from the log: the same state
    assert store.cache.misses == misses + 1 and len(store.cache) == 2
    assert again.state.snapshot() == GameStore(db, mini_db_finder).load(ids[1]).state.snapshot()


def test_a_cache_of_zero_keeps_nothing(app, db, mini_db_finder):
    gid = table(app.test_client()).id
    store = GameStore(db, mini_db_finder, cache_size=0)
    assert store.load(gid).state.snapshot() == store.load(gid).state.snapshot()
    assert len(store.cache) == 0 and store.cache.misses == 2


def test_the_settings_are_read_from_the_environment():
    s = from_env({"MENTALMAGIC_ARCHIVE_AFTER": "0.5", "MENTALMAGIC_GAME_CACHE": "32"})
    assert (s.archive_after, s.game_cache) == (0.5, 32)
    assert (Settings().archive_after, Settings().game_cache) == (72.0, 256)
    with pytest.raises(ValueError, match="MENTALMAGIC_GAME_CACHE"):
        from_env({"MENTALMAGIC_GAME_CACHE": "lots"})


# -- past one machine ------------------------------------------------------------------------------
def test_a_shard_name_prefixes_the_ids_of_the_games_it_creates(db, mini_db_finder):
    runtime = Runtime(db_path=db, pool=mini_db_finder.pool, finder=mini_db_finder)
    app = create_app({"TESTING": True, "DATABASE": str(db), "RUNTIME": runtime,
                      "SETTINGS": Settings(access_log="0", rate_limit=0, games_per_hour=0, shard="s2")})
    t = table(app.test_client())
    assert t.id.startswith("s2.") and len(t.id) > 4
    assert t.view()["id"] == t.id
    assert from_env({"MENTALMAGIC_SHARD": "eu1"}).shard == "eu1"
    with pytest.raises(ValueError, match="MENTALMAGIC_SHARD"):
        from_env({"MENTALMAGIC_SHARD": "../x"})



def test_the_judges_line_end_ends_the_game():
    from mentalmagic.commands import EndGame
    from mentalmagic.game import GameSetup, Player
    from mentalmagic.grammar import HELP, Table, parse

    table = Table.of(GameSetup("vintage", (Player("p1", "Ana"), Player("p2", "Ben")), (("c1", "Shock"),)))
    assert parse("end", table) == EndGame() and parse("END", table) == EndGame()
    assert any(usage == "end" for usage, _, _ in HELP)


def test_a_failed_sweep_never_costs_the_new_game_its_answer(app, monkeypatch):
    def broken(*a, **kw):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(services, "archive_idle", broken)
    app.extensions.pop("mentalmagic.swept", None)
    t = table(app.test_client())  # 201 with its tokens (asserted by the driver)
    t.do("p1", type="draw", count=1)
