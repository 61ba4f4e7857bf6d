"""storage/groupcommit.py: units of work that arrive together share one COMMIT (one fsync), each
as durable as alone, and one that fails takes back only its own part."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
import support

from mentalmagic.storage.gamedb import GameStore


@pytest.fixture
def store(tmp_path, card_db_path, finder):
    db = support.fresh_games_db(card_db_path, tmp_path / "games.sqlite")
    store = GameStore(db, finder)
    with store.unit_of_work() as uow:
        for gid in ("g1", "g2", "g3"):
            uow.games.db.conn.execute("insert into games (id, created_at, format, setup, judge_token_hash)"
                                      " values (?, '', 'vintage', '{}', '')", [gid])
        uow.commit()
    commits: list[str] = []
    store.group.db().conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    store.commits = commits
    yield store
    store.writer.close()


def mark(store: GameStore, gid: str, at: str) -> None:
    store.db.conn.execute("update games set updated_at = ? where id = ?", [at, gid])


def marked(store: GameStore) -> dict:
    """What a fresh connection reads: only what was committed."""
    with sqlite3.connect(store.db_path) as conn:
        return dict(conn.execute("select id, updated_at from games"))


def wait_until(condition, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the other unit of work never came"
        time.sleep(0.001)


def later(store: GameStore, body) -> threading.Thread:
    """Run ``body`` in a unit of work of another thread, which waits for its turn."""
    errors: list[BaseException] = []

    def run():
        try:
            with store.unit_of_work() as uow:
                body()
                uow.commit()
        except BaseException as e:  # noqa: BLE001 - the test reads it
            errors.append(e)

    t = threading.Thread(target=run)
    t.errors = errors
    t.start()
    wait_until(lambda: store.group._waiting == 1)  # it waits for the turn this thread holds
    return t


def test_one_unit_of_work_alone_commits_at_once(store):
    with store.unit_of_work() as uow:
        mark(store, "g1", "a")
        uow.commit()
    assert store.commits == ["COMMIT"] and marked(store)["g1"] == "a"


def test_one_waiting_for_the_turn_joins_the_transaction_and_both_share_one_commit(store):
    with support.time_limit(30), store.unit_of_work() as uow:
        mark(store, "g1", "a")
        other = later(store, lambda: mark(store, "g2", "b"))
        uow.commit()  # hands the open transaction over, and returns once the other's COMMIT is done
        assert marked(store) == {"g1": "a", "g2": "b", "g3": None}
    other.join(10)
    assert not other.errors and store.commits == ["COMMIT"]


def test_one_that_fails_takes_back_its_own_part_only(store):
    def fails():
        mark(store, "g2", "b")
        raise RuntimeError("refused")

    with support.time_limit(30), store.unit_of_work() as uow:
        mark(store, "g1", "a")
        other = later(store, fails)
        uow.commit()
    other.join(10)
    assert [type(e) for e in other.errors] == [RuntimeError]
    assert marked(store) == {"g1": "a", "g2": None, "g3": None} and store.commits == ["COMMIT"]


def test_the_first_one_failing_leaves_the_transaction_to_the_next(store):
    with support.time_limit(30), pytest.raises(RuntimeError), store.unit_of_work():
        mark(store, "g1", "a")
        other = later(store, lambda: mark(store, "g2", "b"))
        raise RuntimeError("refused")
    other.join(10)
    assert not other.errors and marked(store) == {"g1": None, "g2": "b", "g3": None}


def test_many_threads_many_units_of_work_every_kept_one_lands_once(store):
    """Threads at once on three games, every fifth unit of work refused: every kept one lands
    once, never more COMMITs than kept ones (here ~35 for 256), and nothing hangs."""
    counts = {"kept": 0}
    lock = threading.Lock()

    def worker(n: int) -> None:
        for i in range(40):
            try:
                with store.unit_of_work() as uow:
                    store.db.conn.execute("update games set seq = seq + 1 where id = ?", [f"g{1 + (n + i) % 3}"])
                    if (n * 40 + i) % 5 == 0:
                        raise RuntimeError("refused")
                    uow.commit()
                with lock:
                    counts["kept"] += 1
            except RuntimeError:
                pass

    with support.time_limit(120):
        threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    with sqlite3.connect(store.db_path) as conn:
        total = conn.execute("select sum(seq) from games").fetchone()[0]
    assert total == counts["kept"] == 8 * 40 * 4 // 5
    assert len(store.commits) <= counts["kept"]
