"""storage.writelock: one writer at a time on a games database, across threads and processes."""

from __future__ import annotations

import os
import subprocess
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


# A script, not a fork inside pytest: forking a process that runs other threads is unsafe (and
# deprecated from Python 3.12 on).
FORKED_WORKER = """
import fcntl, os, sys
from mentalmagic.storage.writelock import WriterLock
lock = WriterLock(sys.argv[1])
with lock:  # opened and held here, before the fork, as a master would
    pid = os.fork()
    if pid == 0:
        try:
            fcntl.flock(lock._file(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            print("took it", flush=True)
        except BlockingIOError:
            print("waits", flush=True)
        os._exit(0)
    os.waitpid(pid, 0)
"""


@pytest.mark.processes
@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_worker_opens_its_own_file_so_the_master_excludes_it(tmp_path):
    """flock excludes open files: a worker reusing the descriptor it inherited would share the
    master's lock instead of waiting for it."""
    out = subprocess.run([sys.executable, "-c", FORKED_WORKER, str(tmp_path / "games.sqlite")],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout == "waits\n", out.stderr[-500:]


def test_a_lock_file_it_may_only_read_still_locks(tmp_path, monkeypatch):
    """The server and a judge's shell may be different users: when the file someone else made
    can't be opened for writing, it is opened to read, and flock works on that too. (This runs as
    root, whom no permission stops, so the refusal is the one of a file another user owns.)"""
    from mentalmagic.storage import writelock

    lock = WriterLock(tmp_path / "games.sqlite")
    lock.path.touch()
    real_open = os.open

    def as_another_user(path, flags, *mode):
        if flags & os.O_RDWR:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *mode)

    monkeypatch.setattr(writelock.os, "open", as_another_user)
    with lock:
        monkeypatch.setattr(writelock.os, "open", real_open)
        assert held_elsewhere(lock.path)
    assert not held_elsewhere(lock.path)
    lock.close()


def test_a_unit_of_work_holds_it_and_a_refused_one_lets_it_go(tmp_path, card_db_path, pool, finder):
    import support

    from mentalmagic.storage.gamedb import GameStore

    db = support.fresh_games_db(card_db_path, tmp_path / "games.sqlite")
    store = GameStore(db, finder)
    with store.unit_of_work():
        assert held_elsewhere(store.writer.path)
        with pytest.raises(RuntimeError, match="inside another"), store.unit_of_work():
            pass  # the lock isn't reentrant: a nested unit of work is refused, not left hanging
        assert held_elsewhere(store.writer.path)
    assert not held_elsewhere(store.writer.path)
    with pytest.raises(RuntimeError), store.unit_of_work():
        raise RuntimeError("refused halfway")
    assert not held_elsewhere(store.writer.path)
    store.writer.close()
