"""storage.writelock: one writer at a time on a games database, across threads and processes."""

from __future__ import annotations

import multiprocessing
import os
import sys

import pytest

from mentalmagic.storage.writelock import WriterLock

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX; Windows has the thread lock only")

fcntl = pytest.importorskip("fcntl")


def held_elsewhere(path) -> bool:
    """Is the lock file locked by someone else? Asked through a new open file, without waiting."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_the_lock_is_held_from_enter_to_exit_and_then_free(tmp_path):
    lock = WriterLock(tmp_path / "games.sqlite")
    with lock:
        assert held_elsewhere(lock.path)
        assert not lock._thread_lock.acquire(blocking=False)  # this process's other threads wait too
    assert not held_elsewhere(lock.path) and lock._thread_lock.acquire(blocking=False)


def _try_in_child(lock: WriterLock, out) -> None:
    try:
        fcntl.flock(lock._file(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        out.put("took it")
    except BlockingIOError:
        out.put("waits")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_worker_opens_its_own_file_so_the_master_excludes_it(tmp_path):
    """flock excludes open files: a worker reusing the descriptor it inherited would share the
    master's lock instead of waiting for it."""
    lock = WriterLock(tmp_path / "games.sqlite")
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    with lock:  # opened and held here, before the fork
        child = ctx.Process(target=_try_in_child, args=(lock, out))
        child.start()
        got = out.get(timeout=30)
        child.join(30)
    assert got == "waits"


def test_a_unit_of_work_holds_it_and_a_refused_one_lets_it_go(tmp_path, card_db_path, pool, finder):
    import support

    from mentalmagic.storage.gamedb import GameStore

    db = support.fresh_games_db(card_db_path, tmp_path / "games.sqlite")
    store = GameStore(db, finder)
    with store.unit_of_work():
        assert held_elsewhere(store.writer.path)
    assert not held_elsewhere(store.writer.path)
    with pytest.raises(RuntimeError), store.unit_of_work():
        raise RuntimeError("refused halfway")
    assert not held_elsewhere(store.writer.path)
