"""An action's write path (issue 8): decided before the writer lock, on the game as this process
last saw it, and decided again under the lock only when someone wrote in between; committed under
the lock, made durable (fdatasync of the WAL) after it, before anyone is answered, whether the
action landed or was refused (storage/durable.py).

Two GameStores on one file stand for two processes: they share nothing but the file. Core tier:
the mini pool, a fresh SQLite file per test.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import threading

import pytest

from mentalmagic import actions, services
from mentalmagic.commands import Draw, Move, Name
from mentalmagic.errors import GameArchived, LibraryEmpty, NameTaken, StorageFailed
from mentalmagic.permissions import Caller
from mentalmagic.storage import connect
from mentalmagic.storage.durable import wal_to_sync
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


def test_an_undo_by_another_process_in_between_is_seen_and_the_action_decided_on_what_it_left(two, decisions):
    a, b = two
    gid = new_game(a, ["Shock", "Lightning Bolt"])
    services.act(a.unit_of_work(), gid, P1, Draw(count=1))
    a.load(gid)  # a's copy: one card drawn, one left
    services.undo(b.unit_of_work(), gid, Caller(is_judge=True))  # the same seq as before the draw, a new version
    decisions.clear()
    decisions.store = a
    out = services.act(a.unit_of_work(), gid, P1, Draw(count=2))  # two cards only since the undo
    assert len(out["event"]["data"]["cards"]) == 2
    assert decisions == ["before it", "under the lock"]
    assert events(b, gid) == ["draw"]


def test_a_game_archived_by_another_process_in_between_is_not_written(two):
    a, b = two
    gid = new_game(a, ["Shock", "Lightning Bolt"])
    a.load(gid)  # a's copy: a live game
    assert services.archive_idle(b.unit_of_work(), hours=-1) == [gid]
    with pytest.raises(GameArchived):
        services.act(a.unit_of_work(), gid, P1, Draw(count=1))
    assert events(b, gid) == []


def test_threads_of_one_process_acting_on_one_game_at_once_give_one_unbroken_log_in_time_order(two):
    a, _ = two
    gid = new_game(a, ["Shock"] * 40)
    a.load(gid)
    failures = []

    def bot(caller):
        try:
            for _ in range(10):
                services.act(a.unit_of_work(), gid, caller, Draw(count=1))
        except Exception as e:  # noqa: BLE001 - reported below
            failures.append(e)

    threads = [threading.Thread(target=bot, args=(c,)) for c in (P1, P2, P1, P2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert failures == []
    log = a.events(gid)
    assert [e.seq for e in log] == list(range(1, 41))
    assert [e.at for e in log] == sorted(e.at for e in log)
    assert len({c for e in log for c in e.data["cards"]}) == 40  # every card drawn once


# -- durable after the lock ---------------------------------------------------------------------
@pytest.fixture
def syncs(monkeypatch):
    """Every fdatasync: the file it flushed (its device and inode), and whether a writer held the
    games' lock meanwhile (os.fdatasync spied on: it still flushes)."""
    if not LINUX:
        pytest.skip("no os.fdatasync here: the connection keeps synchronous=FULL (tested below)")
    fcntl = pytest.importorskip("fcntl")
    real, seen = os.fdatasync, []

    def spy(fd):
        st = os.fstat(fd)
        path = os.readlink(f"/proc/self/fd/{fd}")
        probe = os.open(f"{path.removesuffix('-wal')}.writer", os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            locked = False
        except BlockingIOError:
            locked = True
        finally:
            os.close(probe)  # closing lets our probe's lock go
        seen.append(((st.st_dev, st.st_ino), locked))
        return real(fd)

    monkeypatch.setattr(os, "fdatasync", spy)
    return seen


def wal_of(db_path) -> tuple[int, int]:
    st = os.stat(f"{os.path.realpath(db_path)}-wal")
    return st.st_dev, st.st_ino


def test_a_games_connection_leaves_the_fsync_to_the_store_on_a_wal_file(two):
    a, _ = two
    gid = new_game(a, ["Shock"])
    a.load(gid)
    level = a.database.db.conn.execute("PRAGMA synchronous").fetchone()[0]
    assert level == (1 if LINUX else 2)  # NORMAL: synced by the store; FULL where it can't be


def test_every_unit_of_work_syncs_the_wal_after_letting_the_lock_go_landed_or_refused(two, syncs):
    a, _ = two
    gid = new_game(a, ["Shock"])
    wal = wal_of(a.db_path)
    assert syncs and syncs[-1] == (wal, False)  # the game's creation
    syncs.clear()
    services.act(a.unit_of_work(), gid, P1, Draw(count=1))
    assert syncs == [(wal, False)]  # once, on the WAL, with the lock free
    syncs.clear()
    with pytest.raises(LibraryEmpty):  # a refusal may rest on what another writer just committed
        services.act(a.unit_of_work(), gid, P2, Draw(count=1))
    assert syncs == [(wal, False)]


def test_a_read_syncs_before_it_shows_a_version_another_process_wrote_and_only_once(two, syncs):
    a, b = two
    gid = new_game(a, ["Shock", "Lightning Bolt"])
    services.act(a.unit_of_work(), gid, P1, Draw(count=1))
    syncs.clear()
    a.load(gid)
    a.events(gid)
    assert syncs == []  # its own write: synced when its unit of work ended
    services.act(b.unit_of_work(), gid, P2, Draw(count=1))
    syncs.clear()
    assert a.load(gid).version == b.load(gid).version
    assert len(syncs) == 1  # b's write, shown to a's reader: synced first
    a.load(gid)
    a.events(gid)
    assert len(syncs) == 1  # known on disk now


def test_the_wal_synced_is_the_real_file_when_the_database_is_reached_through_a_symlink(tmp_path, mini_finder, syncs):
    real = tmp_path / "real" / "games.sqlite"
    real.parent.mkdir()
    link = tmp_path / "games.sqlite"
    link.symlink_to(real)
    connect(real).conn.close()
    (tmp_path / "games.sqlite-wal").write_bytes(b"")  # a stray file where a naive path would point
    store = GameStore(link, mini_finder)
    gid = new_game(store, ["Shock"])
    services.act(store.unit_of_work(), gid, P1, Draw(count=1))
    assert syncs and {f for f, _ in syncs} == {wal_of(real)}
    assert events(GameStore(real, mini_finder), gid) == ["draw"]


def test_a_failed_sync_says_the_outcome_is_unknown_and_the_store_takes_no_more_writes(two, monkeypatch):
    if not LINUX:
        pytest.skip("no os.fdatasync here: SQLite syncs inside COMMIT")
    a, b = two
    gid = new_game(a, ["Shock", "Lightning Bolt"])

    def broken(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fdatasync", broken)
    with pytest.raises(StorageFailed, match="may or may not have been recorded"):
        services.act(a.unit_of_work(), gid, P1, Draw(count=1))
    assert a.failed and "takes no writes" in str(a.failed)
    monkeypatch.undo()  # the disk answers again: the kernel told the failure once, this store still refuses
    before = events(b, gid)
    with pytest.raises(StorageFailed):
        services.act(a.unit_of_work(), gid, P1, Draw(count=1))
    assert events(b, gid) == before
    services.act(b.unit_of_work(), gid, P2, Draw(count=1))  # another process (or a restart) writes on
    with pytest.raises(StorageFailed):  # a version this store never saw synced: not shown
        a.load(gid)
    with pytest.raises(StorageFailed):
        a.events(gid)


def test_a_reader_thread_that_ends_lets_its_wal_descriptor_go(two):
    if not LINUX:
        pytest.skip("no WAL descriptor of our own here")
    import gc

    a, _ = two
    gid = new_game(a, ["Shock"])
    wal = os.path.realpath(f"{a.db_path}-wal")

    def held() -> int:
        return sum(1 for fd in os.listdir("/proc/self/fd") if os.path.realpath(f"/proc/self/fd/{fd}") == wal)

    before = held()
    readers = [threading.Thread(target=a.load, args=(gid,)) for _ in range(10)]
    for t in readers:
        t.start()
    for t in readers:
        t.join(30)
    gc.collect()
    assert held() <= before + 1  # each reader's connection and descriptor went with its thread


def test_without_wal_or_without_fdatasync_a_connection_keeps_synchronous_full(tmp_path, monkeypatch):
    conn = sqlite3.connect(tmp_path / "rollback.sqlite", isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("PRAGMA synchronous = FULL")
    assert wal_to_sync(conn) is None
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    conn.execute("PRAGMA journal_mode = WAL")
    monkeypatch.delattr(os, "fdatasync", raising=False)  # macOS, Windows
    assert wal_to_sync(conn) is None
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    conn.close()


def test_over_http_a_failed_sync_is_a_503_in_the_envelope_and_health_says_why(tmp_path, mini_card_db_path,
                                                                              mini_db_finder, monkeypatch):
    if not LINUX:
        pytest.skip("no os.fdatasync here: SQLite syncs inside COMMIT")
    from support import fresh_games_db

    from mentalmagic.runtime import Runtime
    from mentalmagic.web import create_app

    db = fresh_games_db(mini_card_db_path, tmp_path / "games.sqlite")
    app = create_app({"TESTING": True, "DATABASE": str(db),
                      "RUNTIME": Runtime(db_path=db, pool=mini_db_finder.pool, finder=mini_db_finder)})
    client = app.test_client()
    created = client.post("/api/v1/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}],
                                                 "library": ["Shock", "Lightning Bolt"]}).get_json()
    url, auth = f"/api/v1/games/{created['id']}/actions", {"Authorization": f"Bearer {created['judge_token']}"}

    def broken(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fdatasync", broken)
    r = client.post(url, json={"type": "draw", "player": "p1", "count": 1}, headers=auth)
    assert r.status_code == 503
    assert r.get_json()["error"]["code"] == "storage_failed"
    assert "read the game before acting again" in r.get_json()["error"]["message"]
    monkeypatch.undo()
    r = client.post(url, json={"type": "draw", "player": "p1", "count": 1}, headers=auth)
    assert (r.status_code, r.get_json()["error"]["code"]) == (503, "storage_failed")
    health = client.get("/api/v1/health")
    assert health.status_code == 503
    assert any("takes no writes" in reason for reason in health.get_json()["reasons"])
