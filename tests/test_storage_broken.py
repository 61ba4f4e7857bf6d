"""A database file that vanishes, is replaced, or whose disk fails under the real ``mentalmagic serve``
(three workers) while bots act (issue 30): from then on every request is ``503 storage_failed``, never a
500 and never a write acknowledged into a file no path names; ``/health`` is ``degraded``; the log
gets one line a minute at most per worker, no traceback; and after a restart nothing acknowledged
is missing.

The failing disk is real: an ext4 file system on a loop device, shut down under the server with
``EXT4_IOC_SHUTDOWN`` (what the kernel does to a file system whose disk fails: every read, write and
sync of it answers EIO from then on, and SQLite says "disk I/O error", "database disk image is
malformed" and "unable to open database file"), then mounted again (its journal replayed) for the
restart."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from served import Served, call, tiny_env
from support import time_limit

pytestmark = [pytest.mark.processes,
              pytest.mark.skipif(sys.platform != "linux", reason="a loop device and ext4 (Linux)")]

BOTS = 4
EVENT_AFTER = 24  # draws acknowledged, in all, before the file is lost
AFTER = 12  # draws each bot sends once it is
EXT4_IOC_SHUTDOWN = 0x8004587D  # _IOR('X', 125, __u32): linux/fs.h's FS_IOC_SHUTDOWN
# The journal flushed, then nothing more: what ext4 does when it finds its disk failing. Not
# NOLOGFLUSH (2): with it, a plain loop of write() and fdatasync() on this kernel loses its last
# acknowledged write about one time in two (fdatasync answered 0, the journal then aborted).
LOGFLUSH = 1


def new_games(port: int, n: int) -> list[dict]:
    games = []
    for _ in range(n):
        status, game, _ = call(port, "POST", "/games", {"players": [{"name": "Ana"}, {"name": "Bob"}],
                                                        "library": ["Savannah Lions"] * 120})
        assert status == 201, game
        games.append(game)
    return games


def started(env: dict, tmp_path: Path) -> tuple[Served, list[dict]]:
    """``mentalmagic serve`` of three workers over ``env``, and a game for each bot."""
    server = Served(env, "--workers", "3", log=tmp_path / "server.log")
    try:
        return server, new_games(server.port, BOTS)
    except BaseException:
        server.stop()
        raise


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class Bots:
    """One thread a game, its first player drawing a card at a time, each answer kept with whether the
    request was sent after the event (``lost()``); a bot stops ``AFTER`` draws after it."""

    def __init__(self, port: int, games: list[dict], *, after: bool = False):
        self.port, self.games = port, games
        self.answers: dict[str, list[tuple[bool, int, dict]]] = {g["id"]: [] for g in games}
        self.acked = threading.Semaphore(0)
        self.after = threading.Event()
        if after:  # the event came before the bots
            self.after.set()
        self.threads = [threading.Thread(target=self._run, args=(g,), daemon=True) for g in games]
        for t in self.threads:
            t.start()

    def _run(self, game: dict) -> None:
        sent_after = 0
        while sent_after < AFTER:
            after = self.after.is_set()
            status, body, _ = call(self.port, "POST", f"/games/{game['id']}/actions", {"type": "draw", "count": 1},
                                   bearer(game["players"][0]["token"]))
            self.answers[game["id"]].append((after, status, body))
            sent_after += after
            if status == 200:
                self.acked.release()

    def lost(self, event) -> None:
        """Once ``EVENT_AFTER`` draws are acknowledged: ``event()``, and the bots told it happened."""
        for _ in range(EVENT_AFTER):
            assert self.acked.acquire(timeout=60), "the bots stalled"
        event()
        self.after.set()

    def join(self) -> None:
        for t in self.threads:
            t.join(120)
            assert not t.is_alive()

    def acknowledged(self, *, after: bool = False) -> dict[str, list[dict]]:
        """Each game's acknowledged events, as answered (``after``: those sent after the event only)."""
        return {gid: [b["event"] for a, s, b in answers if s == 200 and (a or not after)]
                for gid, answers in self.answers.items()}


def assert_refused_after(bots: Bots, reason: str) -> None:
    """Never a 500; every request sent after the event refused with ``storage_failed``, saying ``reason``."""
    for answers in bots.answers.values():
        assert {s for _, s, _ in answers} <= {200, 503}, answers
        after = [(s, b) for sent_after, s, b in answers if sent_after]
        assert len(after) == AFTER
        assert all(s == 503 and b["error"]["code"] == "storage_failed" for s, b in after), after
        assert all(reason in b["error"]["message"] for _, b in after), after


def assert_degraded_and_logged_once(server: Served, reason: str) -> None:
    status, health, _ = call(server.port, "GET", "/health")
    assert status == 503 and health["status"] == "degraded", health
    assert any(reason in r for r in health["reasons"]), health
    out = server.output()
    assert "Traceback" not in out, out[-3000:]
    lines = [ln for ln in out.splitlines() if "ERROR" in ln]
    assert 1 <= len(lines) <= 3, lines  # one a minute at most, from each of the three workers


def assert_all_there(port: int, acknowledged: dict[str, list[dict]], games: list[dict]) -> None:
    """Every acknowledged event is in the game's log, at its seq, as answered."""
    for game in games:
        if not acknowledged[game["id"]]:
            continue
        status, log, _ = call(port, "GET", f"/games/{game['id']}/events", headers=bearer(game["judge_token"]))
        assert status == 200, log
        recorded = {e["seq"]: e for e in log["events"]}
        missing = [e["seq"] for e in acknowledged[game["id"]] if recorded.get(e["seq"], {}).get("data") != e["data"]]
        assert not missing, (f"acknowledged: {[e['seq'] for e in acknowledged[game['id']]]}, "
                             f"recorded: {sorted(recorded)}, missing: {missing}")


def test_a_database_deleted_under_the_server_takes_no_write_and_answers_503(tmp_path):
    env = tiny_env(tmp_path, MENTALMAGIC_HEALTH_INTERVAL="0")
    db = Path(env["MENTALMAGIC_DB"])
    with time_limit(240):
        server, games = started(env, tmp_path)
        try:
            bots = Bots(server.port, games)
            bots.lost(lambda: [Path(f"{db}{end}").unlink(missing_ok=True) for end in ("", "-wal", "-shm")])
            made = [call(server.port, "POST", "/games", {"players": [{"name": "Ana"}, {"name": "Bob"}],
                                                         "library": ["Savannah Lions"] * 10}, headers)[:2]
                    for headers in ({}, {"Idempotency-Key": "after"})]
            bots.join()
            for status, body in made:  # was a 201, lost at restart; with a key, a 500 (an empty file made)
                assert status == 503 and body["error"]["code"] == "storage_failed", body
            assert_refused_after(bots, f"the database {db} is gone")
            assert not db.exists()  # no empty database made in its place
            assert_degraded_and_logged_once(server, f"the database {db} is gone")
        finally:
            server.stop()
        # the restart makes a new database: nothing acknowledged since the deletion may have been only in the old file
        server = Served(env, log=tmp_path / "server.log")
        try:
            assert_all_there(server.port, bots.acknowledged(after=True), games)
        finally:
            server.stop()


def test_a_database_replaced_under_the_server_takes_no_write_and_keeps_what_it_acknowledged(tmp_path):
    """An operator's restore of a copy under a running server: the server answers 503 until restarted
    on it, and writes nothing into the file it replaced."""
    env = tiny_env(tmp_path, MENTALMAGIC_HEALTH_INTERVAL="0")
    db = Path(env["MENTALMAGIC_DB"])
    with time_limit(240):
        server, games = started(env, tmp_path)
        try:
            copy = tmp_path / "copy.sqlite"
            with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
                source.backup(target)  # every write acknowledged so far is in it
            os.replace(copy, db)
            bots = Bots(server.port, games, after=True)
            bots.join()
            assert_refused_after(bots, f"the database {db} is another file than the one this server started on")
            assert all(s == 503 for answers in bots.answers.values() for _, s, _ in answers)
            assert_degraded_and_logged_once(server, f"the database {db} is another file")
        finally:
            server.stop()
        server = Served(env, log=tmp_path / "server.log")
        try:
            assert_all_there(server.port, bots.acknowledged(), games)
        finally:
            server.stop()


class Ext4:
    """A small ext4 in a file, mounted through a loop device on ``path``; the test fails where it
    can't be (as root it can: CI runs as root), never skips."""

    def __init__(self, folder: Path):
        self.image, self.path = folder / "disk.img", folder / "disk"
        self.path.mkdir()
        with open(self.image, "wb") as fh:
            fh.truncate(48 * 1024 * 1024)
        made = subprocess.run(["mkfs.ext4", "-q", "-F", str(self.image)], capture_output=True, text=True)
        if made.returncode:
            pytest.fail(f"an ext4 is needed and mkfs.ext4 failed ({made.stderr.strip()})")
        self.mount()

    def mount(self) -> None:
        done = subprocess.run(["mount", "-o", "loop", str(self.image), str(self.path)], capture_output=True, text=True)
        if done.returncode:
            pytest.fail(f"an ext4 on a loop device is needed and can't be mounted here ({done.stderr.strip()}): "
                        "run as root")

    def remount(self) -> None:
        """Unmounted and mounted again: after a shut-down, its journal replayed."""
        subprocess.run(["umount", str(self.path)], check=True)
        self.mount()

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], check=False)


@pytest.fixture
def ext4(tmp_path):
    disk = Ext4(tmp_path)
    try:
        yield disk
    finally:
        disk.unmount()


def shut_down(path: Path) -> None:
    """The file system of ``path`` shut down, as when its disk fails: every I/O on it is EIO from now on."""
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, EXT4_IOC_SHUTDOWN, struct.pack("I", LOGFLUSH))
    finally:
        os.close(fd)


def test_an_io_error_under_the_server_is_503_degraded_and_loses_no_acknowledged_action(tmp_path, ext4):
    # the card file beside, not on the disk that fails
    env = tiny_env(tmp_path, MENTALMAGIC_HEALTH_INTERVAL="0", MENTALMAGIC_DB=str(ext4.path / "arbiter.sqlite"))
    with time_limit(240):
        server, games = started(env, tmp_path)
        try:
            bots = Bots(server.port, games)
            bots.lost(lambda: shut_down(ext4.path))
            bots.join()
            for answers in bots.answers.values():  # never a 500; every request sent after it refused
                assert {s for _, s, _ in answers} <= {200, 503}, answers
                assert all(s == 503 and b["error"]["code"] == "storage_failed" for a, s, b in answers if a), answers
            status, health, _ = call(server.port, "GET", "/health")
            assert status == 503 and health["status"] == "degraded", health
            # a read answers what this process knows is on disk, else 503
            status, game, _ = call(server.port, "GET", f"/games/{games[0]['id']}",
                                   headers=bearer(games[0]["judge_token"]))
            assert status == 200 or (status == 503 and game["error"]["code"] == "storage_failed"), game
            out = server.output()
            assert "Traceback" not in out, out[-3000:]
            assert 1 <= len([ln for ln in out.splitlines() if "ERROR" in ln]) <= 3, out[-3000:]
        finally:
            server.stop()
        ext4.remount()  # the journal replayed
        server = Served(env, log=tmp_path / "server.log")
        try:
            acknowledged = bots.acknowledged()
            assert sum(map(len, acknowledged.values())) >= EVENT_AFTER
            assert_all_there(server.port, acknowledged, games)
        finally:
            server.stop()
