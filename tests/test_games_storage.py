"""Games in SQLite, seen through the API: undo gives back exactly the state before an action, a
restarted service (a new app on the same file, a fresh GameStore with an empty cache) shows every game
as it was, the log replays to the live state, the database itself guards 704.2, and tokens are
stored only as hashes."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import driver
import pytest
from driver import ANA, BOB, JUDGE
from support import fresh_games_db

from mentalmagic.game import replay
from mentalmagic.names import fold
from mentalmagic.runtime import Runtime
from mentalmagic.storage.gamedb import GameStore
from mentalmagic.web import create_app


@pytest.fixture(scope="module")
def db_path(tmp_path_factory, mini_card_db_path):
    return fresh_games_db(mini_card_db_path, tmp_path_factory.mktemp("games_storage") / "games.sqlite")


@pytest.fixture(scope="module")
def start(db_path, mini_db_finder):
    """Start the service on the module's file: a new app, a new Runtime, so a new GameStore and cache."""

    def start_service():
        runtime = Runtime(db_path=db_path, pool=mini_db_finder.pool, finder=mini_db_finder)
        app = create_app({"TESTING": True, "DATABASE": str(db_path), "RUNTIME": runtime})
        assert runtime.games is not None and len(runtime.games.cache) == 0
        return app

    return start_service


@pytest.fixture(scope="module")
def app(start):
    return start()



class Game(driver.Game):
    """The suite's game driver, reaching the same game through another service (``on``)."""

    def on(self, app) -> Game:
        return Game.joined(app.test_client(), self)

    def everything(self) -> dict:
        """Every answer a caller may get about the game, for every caller."""
        out = {"judge": self.record()}
        for who in (ANA, BOB):
            could_be = self.could_be(who, who, "Savannah Lions")
            assert could_be.status_code == 200, could_be.get_json()
            out[who] = (self.view(who), self.events(who), could_be.get_json())
        return out


# A game of many kinds of events: draws, a morph, 705.4a, casts, a Pentaland, reveals, looks, a judge's
# draw, a discard, a change of control, a player leaving. Each step gets the answer to the previous one.
LIBRARY = ["Lightning Bolt", "Craw Wurm", "Savannah Lions", "Shock", "Craw Wurm", "Grizzly Bears",
           "Giant Growth", "Fire // Ice", "Lightning Strike", "Mana Leak"]


# Cid only watches: with him still in, the game goes on after Ana leaves (104.2a would end a two-player one).
THREE = ("Ana", "Bob", "Cid")


def many_steps():
    body = yield ANA, {"type": "draw", "player": ANA, "count": 3}
    bolt, wurm, lions = body["event"]["data"]["cards"]
    body = yield BOB, {"type": "draw", "player": BOB, "count": 2}
    shock, wurm2 = body["event"]["data"]["cards"]
    yield ANA, {"type": "move", "card": wurm, "to": "battlefield", "face_down": True, "via": "morph"}
    yield BOB, {"type": "move", "card": wurm2, "to": "stack", "name": "Root Elemental"}
    yield ANA, {"type": "move", "card": wurm, "to": "graveyard", "name": "Root Elemental"}  # 705.4a
    yield ANA, {"type": "move", "card": bolt, "to": "stack", "name": "Shock"}
    yield ANA, {"type": "move", "card": lions, "to": "battlefield", "pentaland": True}
    yield BOB, {"type": "move", "card": lions, "to": "graveyard"}
    body = yield BOB, {"type": "reveal", "player": BOB, "count": 1}
    yield BOB, {"type": "end_reveal", "cards": body["event"]["data"]["cards"]}
    body = yield ANA, {"type": "look", "player": BOB, "count": 2}
    yield BOB, {"type": "end_look", "cards": body["event"]["data"]["cards"]}
    yield JUDGE, {"type": "draw", "player": ANA, "printed": "Feu // Glace"}
    yield BOB, {"type": "move", "card": shock, "to": "graveyard", "name": "Lightning Bolt"}  # 705.2
    yield JUDGE, {"type": "move", "card": wurm2, "to": "battlefield", "player": ANA}
    yield ANA, {"type": "move", "card": bolt, "to": "library", "position": "bottom"}  # 704.4: keeps its name
    yield ANA, {"type": "leave_game", "player": ANA}
    yield BOB, {"type": "draw", "player": BOB, "count": 1}


def play(game: Game, check_undo: bool = False) -> list[dict]:
    """Play ``many_steps``; returns the record before each step. With ``check_undo``, every step is
    undone once right after it (the record must come back exactly), then played again."""
    befores = []
    steps = many_steps()
    who, action = next(steps)
    while True:
        before = game.record()
        befores.append(before)
        body = game.do(who, **action)
        if check_undo:
            assert game.record() != before
            undone = game.undo()
            assert undone["undone"]["seq"] == body["event"]["seq"] and undone["seq"] == before[0]["seq"]
            assert game.record() == before, f"undo of {action} did not give back the state before it"
            body = game.do(who, **action)
        try:
            who, action = steps.send(body)
        except StopIteration:
            return befores


# == undo ===========================================================================================
def test_undo_after_each_action_gives_back_exactly_what_the_api_showed_before_it(app):
    game = Game(app.test_client(), LIBRARY, players=THREE)
    befores = play(game, check_undo=True)
    assert len(befores) == len(game.events()) == 18
    statuses = {p["id"]: p["status"] for p in game.view()["players"]}
    assert statuses == {ANA: "left", BOB: "in_game", "p3": "in_game"}
    # and undone all the way back, one event at a time
    for before in reversed(befores):
        game.undo()
        assert game.record() == before
    assert game.events() == [] and game.names() == [] and game.view()["library_size"] == len(LIBRARY)


def test_undo_keeps_what_it_took_back_for_the_judges_record(app, db_path):
    game = Game(app.test_client(), ["Shock", "Lightning Bolt"])
    [shock] = game.do(ANA, type="draw", player=ANA, count=1)["event"]["data"]["cards"]
    event = game.do(ANA, type="name", card=shock, name="Lightning Bolt")["event"]
    game.undo()
    conn = sqlite3.connect(db_path)
    try:
        rows = conn.execute("select event from undone_events where game_id = ?", [game.id]).fetchall()
    finally:
        conn.close()
    assert [json.loads(r[0])["seq"] for r in rows] == [event["seq"]]
    assert json.loads(rows[0][0])["data"]["naming"]["name"] == "Lightning Bolt"
    assert game.names() == []  # the name is free again
    game.do(ANA, type="name", card=shock, name="Lightning Bolt")


def test_undo_after_a_restart_still_gives_back_each_earlier_state(app, start):
    game = Game(app.test_client(), LIBRARY, players=THREE)
    befores = play(game)
    restarted = game.on(start())
    for before in reversed(befores):
        restarted.undo()
        assert restarted.record() == before


# == a restart of the service ========================================================================
def test_a_restarted_service_shows_every_game_as_it_was_with_nothing_lost(app, start):
    first, second = Game(app.test_client(), LIBRARY, players=THREE), Game(app.test_client(), LIBRARY, players=THREE)
    play(first)
    second.do(BOB, type="draw", player=BOB, count=4)
    before = {g.id: g.everything() for g in (first, second)}
    restarted = start()
    for g in (first, second):
        assert g.on(restarted).everything() == before[g.id]
    # and the restarted service goes on with the game
    again = second.on(restarted)
    cards = again.view(BOB)["cards"]
    lightning = next(c["id"] for c in cards if c["printed"] == "Lightning Bolt")
    again.do(BOB, type="move", card=lightning, to="stack", name="Shock")
    assert second.on(app).record() == again.record()  # the first service sees it too


def test_replaying_the_log_equals_the_live_state_and_its_tables(app, start, db_path, mini_db_finder):
    game = Game(app.test_client(), LIBRARY, players=THREE)
    play(game)
    live = app.extensions["mentalmagic"].games
    state = live.load(game.id).state
    events = live.events(game.id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert replay(live.load(game.id).setup, events).snapshot() == state.snapshot()
    fresh = GameStore(db_path, mini_db_finder)  # an empty cache: the state comes from the log alone
    assert fresh.load(game.id).state.snapshot() == state.snapshot()
    restarted = start().extensions["mentalmagic"].games
    assert restarted.load(game.id).state.snapshot() == state.snapshot()
    # the projection tables say the same as the fold
    conn = sqlite3.connect(db_path)
    conn.row_factory = sqlite3.Row
    try:
        rows = {r["id"]: r for r in conn.execute("select * from game_cards where game_id = ?", [game.id])}
        names = [tuple(r) for r in conn.execute(
            "select name_key, name, card, player, seq, exception from names where game_id = ? order by seq, card",
            [game.id])]
        seq = conn.execute("select seq from games where id = ?", [game.id]).fetchone()[0]
    finally:
        conn.close()
    assert seq == state.seq == len(events)
    assert set(rows) == set(state.cards)
    for cid, card in state.cards.items():
        row = rows[cid]
        assert json.loads(row["state"]) == card.to_dict()
        assert (row["printed"], row["zone"], row["owner"], row["controller"], bool(row["face_down"]),
                bool(row["pentaland"]), row["named_as"]) == (card.printed, card.zone, card.owner, card.controller,
                                                             card.face_down, card.pentaland, card.named_as)
    expected = sorted(((fold(r.name), r.name, r.card, r.player, r.seq, r.exception) for r in state.names.records()),
                      key=lambda t: (t[4], t[2]))
    assert names == expected and any(t[5] == "705.4a" for t in names)


def test_two_services_on_one_file_see_each_others_undo_and_next_action(start):
    # Two services (e.g. two worker processes) serve one file; each keeps its own cache of the game.
    one, two = start(), start()
    game = Game(one.test_client(), ["Shock", "Lightning Bolt", "Savannah Lions"])
    game.do(ANA, type="draw", player=ANA, count=1)
    game.do(ANA, type="draw", player=ANA, count=1)  # seq 2: Lightning Bolt to Ana
    other = game.on(two)
    assert other.record() == game.record()  # both caches now hold seq 2
    game.undo()  # through service one: back to seq 1
    other.do(BOB, type="draw", player=BOB, count=1)  # through service two: a new seq 2, Lightning Bolt to Bob
    assert game.record() == other.record(), "service one still shows the undone event's state"
    bolt = next(c for c in other.view(BOB)["cards"] if c.get("printed") == "Lightning Bolt")
    assert bolt["owner"] == BOB
    # so service one must not let Ana cast Bob's card as if it were still in her hand
    response = game.act(ANA, type="move", card=bolt["id"], to="stack", name="Shock")
    assert response.status_code == 403, response.get_json()  # it is in Bob's hand: his alone to move


# == the database's own guards =========================================================================
def test_the_names_index_refuses_a_second_card_with_the_same_name_unless_it_is_a_705_4a_exception(app, db_path):
    game = Game(app.test_client(), ["Shock", "Shock", "Shock"])
    a, b, c = game.do(ANA, type="draw", player=ANA, count=3)["event"]["data"]["cards"]
    game.do(ANA, type="name", card=a, name="Lightning Bolt")
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    try:
        conn.execute("BEGIN")
        row = {"game_id": game.id, "name_key": fold("Lightning Bolt"), "name": "Lightning Bolt", "player": ANA,
               "seq": 99}
        insert = ("insert into names (game_id, name_key, name, card, player, seq, exception) "
                  "values (:game_id, :name_key, :name, :card, :player, :seq, :exception)")
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):  # 704.2: one card per name
            conn.execute(insert, {**row, "card": b, "exception": None})
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):  # the key is the folded name
            conn.execute(insert, {**row, "card": b, "name": "LIGHTNING BOLT", "exception": None})
        conn.execute(insert, {**row, "card": b, "exception": "705.4a"})  # the one exception may share it
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):  # and no other exception exists
            conn.execute(insert, {**row, "card": c, "exception": "D6"})
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):  # 704.4: a card is named once
            conn.execute(insert, {**row, "card": a, "name_key": "burst lightning", "name": "Burst Lightning",
                                  "exception": None})
        conn.execute(insert, {**row, "card": c, "name_key": "burst lightning", "name": "Burst Lightning",
                              "exception": None})  # another name for another card is fine
    finally:
        conn.execute("ROLLBACK")
        conn.close()
    assert [n["card"] for n in game.names()] == [a]


def test_a_name_the_database_already_holds_is_refused_as_704_2_and_nothing_is_recorded(app, db_path):
    # The guard of last resort: a row the service's state doesn't know of (another writer) still wins.
    game = Game(app.test_client(), ["Shock", "Shock"])
    a, b = game.do(ANA, type="draw", player=ANA, count=2)["event"]["data"]["cards"]
    before = game.record()
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        conn.execute("insert into names (game_id, name_key, name, card, player, seq, exception) "
                     "values (?, ?, ?, ?, ?, ?, NULL)", [game.id, fold("Lightning Bolt"), "Lightning Bolt", a, ANA, 1])
        response = game.act(ANA, type="name", card=b, name="Lightning Bolt")
        error = response.get_json()["error"]
        assert response.status_code == 409 and (error["code"], error["rule"]) == ("name_taken", "704.2")
        view, _, events = before
        assert game.events() == events  # the event did not land without its name
        assert game.view() == view
    finally:
        conn.execute("delete from names where game_id = ? and card = ?", [game.id, a])
        conn.close()
    assert game.record() == before


def test_events_are_append_only_and_only_the_last_one_can_be_taken_back(app, db_path):
    game = Game(app.test_client(), ["Shock", "Lightning Bolt"])
    game.do(ANA, type="draw", player=ANA, count=1)
    game.do(BOB, type="draw", player=BOB, count=1)
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("update events set player = ? where game_id = ? and seq = 1", [BOB, game.id])
        with pytest.raises(sqlite3.IntegrityError, match="only the last event"):
            conn.execute("delete from events where game_id = ? and seq = 1", [game.id])
    finally:
        conn.close()
    assert [e["seq"] for e in game.events()] == [1, 2]


# == tokens ============================================================================================
def test_tokens_are_stored_only_as_hashes_and_appear_nowhere_in_the_database_file(app, db_path):
    game = Game(app.test_client(), ["Shock", "Savannah Lions"], players=("Ana", "Bob", "Cid"))
    game.do(ANA, type="draw", player=ANA, count=1)
    tokens = {JUDGE: game.judge_token, **game.tokens}
    conn = sqlite3.connect(db_path)
    try:
        judge_hash = conn.execute("select judge_token_hash from games where id = ?", [game.id]).fetchone()[0]
        players = dict(conn.execute("select id, token_hash from players where game_id = ?", [game.id]).fetchall())
        # no column of any table holds a token
        tables = [r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")]
        for table in tables:
            for row in conn.execute(f'select * from "{table}"'):
                text = json.dumps(row, default=str)
                assert not any(t in text for t in tokens.values()), table
    finally:
        conn.close()
    assert judge_hash == hashlib.sha256(tokens[JUDGE].encode()).hexdigest()
    assert players == {pid: hashlib.sha256(tokens[pid].encode()).hexdigest() for pid in ("p1", "p2", "p3")}
    files = [p for p in db_path.parent.iterdir() if p.name.startswith(db_path.name)]
    assert db_path in files
    for path in files:  # the main file, and the write-ahead log and its index when present
        data = path.read_bytes()
        for token in tokens.values():
            assert token.encode() not in data, path.name
            assert token.encode("utf-16-le") not in data, path.name


# == a random walk ======================================================================================
WALK_FIELDS = {
    "draw": ("player", "count", "printed"),
    "move": ("card", "to", "player", "face_down", "pentaland", "name", "position", "via"),
    "name": ("card", "name", "player"),
    "turn_face_up": ("card", "name", "via"),
    "reveal": ("cards", "count", "player", "continuous"),
    "look": ("cards", "count", "player"),
    "end_reveal": ("cards",),
    "end_look": ("cards",),
}
WALK_NAMES = ["Lightning Bolt", "Shock", "Goblin Taskmaster", "Warbreak Trumpeter", "Root Elemental", "Fire", "Ice",
              "Savannah Lions", "Isamaru, Hound of Konda", "Vesuvan Shapeshifter", "Mana Leak", "Incinerate",
              "Figure of Destiny", "Elvish Visionary", "Black Lotus"]


@pytest.mark.fuzz
def test_a_random_walk_of_actions_never_fails_the_server_and_its_log_replays_to_the_live_state(app, start):
    import random

    rnd = random.Random(705)
    library = ["Shock", "Lightning Bolt", "Savannah Lions", "Craw Wurm", "Fire // Ice", "Air Elemental",
               "Grizzly Bears", "Ornithopter", "Goblin Guide", "Lightning Strike"] * 3
    game = Game(app.test_client(), library, players=("Ana", "Bob", "Cid"))
    statuses: dict[int, int] = {}
    before = game.record()  # every answer about the game as the judge sees it, each checked by its schema
    for _ in range(300):
        cards = [c["id"] for c in before[0]["cards"]]
        out = [c["id"] for c in before[0]["cards"] if c["zone"] != "library"]
        kind = rnd.choice([*WALK_FIELDS, "move", "move", "move", "name", "turn_face_up", "draw"])
        values = {"player": ["p1", "p2", "p3"], "count": [1, 2], "printed": ["Shock", "Craw Wurm"],
                  "card": out * 3 + cards, "to": ["library", "hand", "battlefield", "graveyard", "exile", "stack"],
                  "face_down": [True, False], "pentaland": [True, False], "name": WALK_NAMES,
                  "position": ["top", "bottom"], "via": ["morph", "manifest", "effect"],
                  "cards": [[rnd.choice(cards)]], "continuous": [True, False]}
        odds = {"player": 0.5, "count": 0.5, "printed": 0.1, "card": 1, "to": 1, "face_down": 0.3, "pentaland": 0.1,
                "name": 0.6, "position": 0.1, "via": 0.3, "cards": 0.5, "continuous": 0.1}
        action = {"type": kind, **{k: rnd.choice(values[k]) for k in WALK_FIELDS[kind] if rnd.random() < odds[k]}}
        who = rnd.choice([JUDGE, ANA, BOB, "p3"])
        response = game.act(who, **action)
        body = response.get_json()
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        assert response.status_code in (200, 403, 404, 409, 422), (action, body)
        after = game.record()  # the next step's state: read once, whatever the answer
        if response.status_code != 200:
            assert set(body) == {"error"} and after == before, action
            if response.status_code == 409:
                assert body["error"].get("rule"), (action, body)
        before = after
    assert statuses.get(200, 0) >= 30, statuses  # the walk did play a game
    live = app.extensions["mentalmagic"].games
    state = live.load(game.id)
    assert replay(state.setup, live.events(game.id)).snapshot() == state.state.snapshot()
    assert game.on(start()).record() == game.record()


def test_a_database_from_before_the_version_column_gets_it_on_start(tmp_path):
    """An older file (games without ``version``) is brought up to date, its games kept."""
    from mentalmagic.storage import connect

    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE games (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, format TEXT NOT NULL, "
                "options TEXT NOT NULL DEFAULT '{}', setup TEXT NOT NULL, judge_token_hash TEXT NOT NULL, "
                "seq INTEGER NOT NULL DEFAULT 0)")
    old.execute("INSERT INTO games VALUES ('g1', 'then', 'vintage', '{}', '{}', 'h', 3)")
    old.commit()
    old.close()
    db = connect(path)
    try:
        assert list(db.query("select id, seq, version from games")) == [{"id": "g1", "seq": 3, "version": 0}]
    finally:
        db.conn.close()
