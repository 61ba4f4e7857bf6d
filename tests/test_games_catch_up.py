"""Games that touch what they change (issue 8): an action copies, compares and writes only the cards
its event moved; a store whose cached game is behind folds only the events another store appended
since, and replays the whole log when an undo came between; the log pages by ``since`` and ``limit``.

Two GameStores on one file stand for two processes: they share nothing but the file. Core tier:
the mini pool, a fresh SQLite file per test.
"""

from __future__ import annotations

import json

import pytest

from mentalmagic import services, views
from mentalmagic.commands import Draw, LeaveGame, Look, Move, Name, Reveal
from mentalmagic.game import GameState, replay
from mentalmagic.permissions import Caller
from mentalmagic.storage.gamedb import GameStore

JUDGE = Caller(is_judge=True)
P1, P2 = Caller("p1"), Caller("p2")
LIBRARY = ["Shock", "Lightning Bolt", "Grizzly Bears", "Counterspell", "Forest", "Mana Leak", "Incinerate",
           "Giant Growth", "Ornithopter", "Savannah Lions", "Craw Wurm", "Boomerang"] * 3


@pytest.fixture
def stores(tmp_path, mini_finder):
    """Two stores on one file (two processes), and a game created through the first."""
    path = tmp_path / "games.sqlite"
    a = GameStore(path, mini_finder)
    from mentalmagic.storage import connect

    connect(path).conn.close()  # the schema, as the runtime applies it
    created = services.create_game(a.unit_of_work(), "vintage", {}, [{"name": "Ana"}, {"name": "Bob"}], LIBRARY,
                                   shuffle=False)
    return a, GameStore(path, mini_finder), created["id"]


def act(store: GameStore, game_id: str, caller: Caller, command) -> dict:
    return services.act(store.unit_of_work(), game_id, caller, command)


def replayed(store: GameStore, game_id: str) -> dict:
    """The state a process that never saw the game rebuilds from the log."""
    fresh = GameStore(store.db_path, store.finder)
    return fresh.load(game_id).state.snapshot()


def test_an_action_copies_and_compares_only_the_cards_its_event_touched(stores):
    a, _, gid = stores
    before = a.load(gid)
    out = act(a, gid, P1, Draw(count=2))
    after = a.load(gid)
    drawn = out["event"]["data"]["cards"]
    assert after.state.touched == frozenset(drawn)
    assert after.state.changed_cards(before.state) == drawn
    assert [c["id"] for c in out["cards"]] == drawn
    untouched = [cid for cid in before.state.cards if cid not in drawn]
    assert all(after.state.cards[cid] is before.state.cards[cid] for cid in untouched)  # shared, not copied
    assert all(before.state.cards[cid].zone == "library" for cid in drawn)  # the state folded from kept its own
    assert after.state.snapshot() == replayed(a, gid)


def test_a_fold_that_scans_every_card_still_leaves_the_state_it_came_from_alone(stores, mini_finder):
    a, _, gid = stores
    act(a, gid, P1, Draw(count=3))
    before = a.load(gid).state
    frozen = before.snapshot()
    # leaving the game scans and changes many cards: whatever a fold reads is copied first
    act(a, gid, P1, LeaveGame())
    after = a.load(gid).state
    assert before.snapshot() == frozen
    assert after.snapshot() == replayed(a, gid)
    changed = after.changed_cards(before)
    assert changed and set(changed) <= after.touched


def test_the_projection_rows_match_a_full_replay_after_every_kind_of_action(stores):
    a, _, gid = stores
    c1, c2 = act(a, gid, P1, Draw(count=2))["event"]["data"]["cards"]
    act(a, gid, P1, Name(card=c1, name="Lightning Bolt"))
    act(a, gid, P1, Move(card=c2, to="battlefield", face_down=True, via="morph"))
    act(a, gid, P2, Reveal(count=2))
    act(a, gid, P2, Look(count=1))
    act(a, gid, P1, Move(card=c1, to="graveyard"))
    state = GameStore(a.db_path, a.finder).load(gid).state
    db = a.database.db
    rows = {r["id"]: json.loads(r["state"]) for r in db.query("select id, state from game_cards where game_id = ?",
                                                                [gid])}
    assert rows == {cid: c.to_dict() for cid, c in state.cards.items()}
    names = [(r["name"], r["card"], r["seq"]) for r in db.query(
        "select name, card, seq from names where game_id = ? order by seq", [gid])]
    assert names == [(r.name, r.card, r.seq) for r in state.names.records()]


def test_a_store_folds_only_the_events_another_store_appended_since_it_last_read(stores):
    a, b, gid = stores
    act(a, gid, P1, Draw(count=1))
    cached = a.load(gid)
    b.load(gid)
    drawn = act(b, gid, P2, Draw(count=2))["event"]["data"]["cards"]
    act(b, gid, P2, Move(card=drawn[0], to="library", position="bottom"))
    caught_up = a.load(gid)
    assert caught_up.state.folded_from is not None and caught_up.state.folded_from() is cached.state
    assert caught_up.version == cached.version + 2 and caught_up.state.seq == 3
    assert caught_up.state.snapshot() == replayed(a, gid)
    assert views.game_view(caught_up, JUDGE, a.finder.pool) == views.game_view(
        GameStore(a.db_path, a.finder).load(gid), JUDGE, a.finder.pool)


@pytest.mark.parametrize("then_act", [False, True], ids=["undo", "undo-then-act"])
def test_a_store_replays_the_log_when_another_store_undid_an_event_since(stores, then_act):
    a, b, gid = stores
    act(a, gid, P1, Draw(count=1))
    act(a, gid, P1, Draw(count=1))
    cached = a.load(gid)
    services.undo(b.unit_of_work(), gid, JUDGE)
    if then_act:  # the same seq again, another event: only the version tells
        act(b, gid, P2, Draw(count=1))
    now = a.load(gid)
    assert now.state.folded_from is None or now.state.folded_from() is not cached.state
    assert now.state.seq == 2 if then_act else now.state.seq == 1
    assert now.state.snapshot() == replayed(a, gid)
    hands = {c.owner for c in now.state.cards.values() if c.zone == "hand"}
    assert hands == ({"p1", "p2"} if then_act else {"p1"})


def test_a_store_catches_up_on_many_events_in_one_read(stores):
    a, b, gid = stores
    a.load(gid)
    for _ in range(6):
        cid = act(b, gid, P1, Draw(count=1))["event"]["data"]["cards"][0]
        act(b, gid, P1, Move(card=cid, to="library", position="bottom"))
    assert a.load(gid).state.snapshot() == replayed(a, gid)


def test_the_log_pages_by_since_and_limit(stores):
    a, _, gid = stores
    for _ in range(5):
        act(a, gid, P1, Draw(count=1))
    seqs = lambda **kw: [e["seq"] for e in services.events(a.unit_of_work(), gid, JUDGE, **kw)["events"]]  # noqa: E731
    assert seqs() == [1, 2, 3, 4, 5]  # unpaged: the whole log
    assert seqs(since=2) == [3, 4, 5]
    assert seqs(limit=2) == [1, 2]
    assert seqs(since=1, limit=3) == [2, 3, 4]
    assert seqs(since=5) == [] and seqs(since=0) == [1, 2, 3, 4, 5]
    assert seqs(since=4, limit=10) == [5]


def test_replaying_a_folded_state_equals_folding_it_live(stores):
    a, _, gid = stores
    c1 = act(a, gid, P1, Draw(count=1))["event"]["data"]["cards"][0]
    act(a, gid, P1, Name(card=c1, name="Lightning Bolt"))
    game = a.load(gid)
    events = a.events(gid)
    live = GameState.initial(game.setup).apply_events(events)
    assert live.snapshot() == replay(game.setup, events).snapshot() == game.state.snapshot()


def test_a_view_is_built_once_per_state_and_caller_and_never_outlives_its_state(stores):
    a, _, gid = stores
    act(a, gid, P1, Draw(count=1))
    game, pool = a.load(gid), a.finder.pool
    judge_view = views.game_view(game, JUDGE, pool)
    assert views.game_view(a.load(gid), JUDGE, pool) is judge_view  # polled again: kept
    mine, theirs = views.game_view(game, P1, pool), views.game_view(game, P2, pool)
    assert mine is not theirs and mine != theirs  # P1 sees the printed card in their hand, P2 doesn't
    assert judge_view == views._build_game_view(game, JUDGE, pool)
    act(a, gid, P2, Draw(count=1))
    after = views.game_view(a.load(gid), JUDGE, pool)
    assert after is not judge_view and after["seq"] == 2 and judge_view["seq"] == 1
    assert after == views._build_game_view(a.load(gid), JUDGE, pool)
