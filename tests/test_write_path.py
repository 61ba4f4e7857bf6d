"""An action's write path (issue 8): decided before the writer lock, on the game as this process
last saw it, and decided again under the lock only when someone wrote in between; committed under
the lock, made durable (fdatasync of the WAL) after it, before anyone is answered, whether the
action landed or was refused (storage/durable.py).

Two GameStores on one file stand for two processes: they share nothing but the file. Core tier:
the mini pool, a fresh SQLite file per test.
"""

from __future__ import annotations

import os
import sqlite3

import pytest

from mentalmagic import actions, services
from mentalmagic.commands import Draw, Move, Name
from mentalmagic.errors import LibraryEmpty, NameTaken
from mentalmagic.permissions import Caller
from mentalmagic.storage import connect
from mentalmagic.storage.durable import sync_after_commit
from mentalmagic.storage.gamedb import GameStore

P1, P2 = Caller("p1"), Caller("p2")
LINUX = hasattr(os, "fdatasync")  # where commits are synced after the lock (elsewhere: SQLite's FULL)


def new_game(store: GameStore, library: list[str]) -> str:
    connect(store.db_path).conn.close()  # the schema, as the runtime applies it
    created = services.create_game(store.unit_of_work(), "vintage", {}, [{"name": "Ana"}, {"name": "Bob"}],
                                   library, shuffle=False)
    return created["id"]


@pytest.fixture
def two(tmp_path, mini_finder):
    """Two stores on one file (two processes)."""
    path = tmp_path / "games.sqlite"
    return GameStore(path, mini_finder), GameStore(path, mini_finder)


class Decisions(list):
    """Each time the rules were asked (services.decide, spied on: it still decides): whether the
    writer lock of ``store`` was held then."""

    store: GameStore | None = None


@pytest.fixture
def decisions(monkeypatch):
    calls = Decisions()

    def spy(*args, **kwargs):
        calls.append("under the lock" if calls.store and calls.store.writer._thread_lock.locked() else "before it")
        return actions.decide(*args, **kwargs)

    monkeypatch.setattr(services, "decide", spy)
    return calls


def events(store: GameStore, game_id: str) -> list[str]:
    return [e.type for e in store.events(game_id)]


# -- decided before the lock --------------------------------------------------------------------
def test_when_nobody_wrote_in_between_the_decision_made_before_the_lock_is_the_one_recorded(two, decisions):
    a, _ = two
    gid = new_game(a, ["Shock", "Lightning Bolt"])
    a.load(gid)  # this process has seen the game
    decisions.store = a
    out = services.act(a.unit_of_work(), gid, P1, Draw(count=1))
    assert decisions == ["before it"]  # and not again under it
    drawn = out["event"]["data"]["cards"]
    assert len(drawn) == 1 and a.load(gid).state.cards[drawn[0]].zone == "hand"
    assert events(a, gid) == ["draw"]


def test_a_copy_another_process_made_stale_is_decided_again_on_the_game_as_it_is(two, decisions):
    """The copy says the library is empty; the other process put the card back: the draw lands."""
    a, b = two
    gid = new_game(a, ["Shock"])
    drawn = services.act(a.unit_of_work(), gid, P1, Draw(count=1))["event"]["data"]["cards"][0]
    assert not a.load(gid).state.library  # a's copy: nothing to draw
    services.act(b.unit_of_work(), gid, P1, Move(card=drawn, to="library", position="top"))
    decisions.clear()
    decisions.store = a
    out = services.act(a.unit_of_work(), gid, P2, Draw(count=1))
    assert out["event"]["data"]["cards"] == [drawn]
    assert decisions == ["before it", "under the lock"]  # refused on the stale copy, then on the game as it is
    assert events(b, gid) == ["draw", "move", "draw"]


def test_what_a_stale_copy_would_allow_is_refused_when_the_game_as_it_is_forbids_it_and_nothing_lands(two):
    """The copy still holds the card in the library; the other process drew it: the draw is refused,
    and the log is as the other process left it."""
    a, b = two
    gid = new_game(a, ["Shock"])
    a.load(gid)  # a's copy: one card to draw
    services.act(b.unit_of_work(), gid, P1, Draw(count=1))
    with pytest.raises(LibraryEmpty):
        services.act(a.unit_of_work(), gid, P2, Draw(count=1))
    assert events(a, gid) == events(b, gid) == ["draw"]


def test_a_name_another_process_took_since_the_copy_is_refused_704_2(two, mini_finder):
    a, b = two
    gid = new_game(a, ["Shock", "Shock"])
    first, second = (services.act(s.unit_of_work(), gid, p, Draw(count=1))["event"]["data"]["cards"][0]
                     for s, p in ((a, P1), (a, P2)))
    a.load(gid)  # a's copy: Lightning Bolt is free
    services.act(b.unit_of_work(), gid, P1, Name(card=first, name="Lightning Bolt"))
    with pytest.raises(NameTaken) as refused:
        services.act(a.unit_of_work(), gid, P2, Name(card=second, name="Lightning Bolt"))
    assert refused.value.rule == "704.2"
    assert events(a, gid) == ["draw", "draw", "name"]


# -- durable after the lock ---------------------------------------------------------------------
@pytest.fixture
def syncs(monkeypatch):
    """Every fdatasync: the file it flushed, and whether a writer held the games' lock meanwhile
    (os.fdatasync spied on: it still flushes)."""
    if not LINUX:
        pytest.skip("no os.fdatasync here: the connection keeps synchronous=FULL (tested below)")
    real, seen = os.fdatasync, []
    fcntl = pytest.importorskip("fcntl")

    def spy(fd):
        path = os.readlink(f"/proc/self/fd/{fd}")
        probe = os.open(f"{path.removesuffix('-wal')}.writer", os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            locked = False
        except BlockingIOError:
            locked = True
        finally:
            os.close(probe)  # closing lets our probe's lock go
        seen.append((path, locked))
        return real(fd)

    monkeypatch.setattr(os, "fdatasync", spy)
    return seen


def test_a_games_connection_leaves_the_fsync_to_the_unit_of_work_on_a_wal_file(two):
    a, _ = two
    gid = new_game(a, ["Shock"])
    a.load(gid)
    level = a.db.conn.execute("PRAGMA synchronous").fetchone()[0]
    assert level == (1 if LINUX else 2)  # NORMAL: synced after the lock; FULL where it can't be


def test_every_unit_of_work_syncs_the_wal_after_letting_the_lock_go_landed_or_refused(two, syncs):
    a, _ = two
    gid = new_game(a, ["Shock"])
    assert syncs and syncs[-1] == (f"{a.db_path}-wal", False)  # the game's creation
    syncs.clear()
    services.act(a.unit_of_work(), gid, P1, Draw(count=1))
    assert syncs == [(f"{a.db_path}-wal", False)]  # once, on the WAL, with the lock free
    syncs.clear()
    with pytest.raises(LibraryEmpty):  # a refusal may rest on what another writer just committed
        services.act(a.unit_of_work(), gid, P2, Draw(count=1))
    assert syncs == [(f"{a.db_path}-wal", False)]


def test_without_wal_or_without_fdatasync_a_connection_keeps_synchronous_full(tmp_path, monkeypatch):
    conn = sqlite3.connect(tmp_path / "rollback.sqlite", isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("PRAGMA synchronous = FULL")
    assert sync_after_commit(conn) is False
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    conn.execute("PRAGMA journal_mode = WAL")
    monkeypatch.delattr(os, "fdatasync", raising=False)  # macOS, Windows
    assert sync_after_commit(conn) is False
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    conn.close()
