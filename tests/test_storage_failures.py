"""A disk that refuses writes (issue 23), on a real small file system mounted here and the real
``mentalmagic serve`` (three workers): a full disk is ``503 storage_failed`` on the write routes and
``/health`` ``degraded`` while it lasts, one log line a minute at most, and writes resume by
themselves when room comes back, with nothing half-applied; a read-only database is refused at
start in one line."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from served import Served, call, fill, tmpfs
from test_importers import TINY, write
from test_startup import assert_refused

pytestmark = [pytest.mark.processes,
              pytest.mark.skipif(sys.platform != "linux", reason="mounts a tmpfs (Linux)")]

BOUND = 30  # seconds: how long a condition may take to come true, never a timing assertion


def env_for(db, cards, **more) -> dict:
    return {"MENTALMAGIC_DB": str(db), "MENTALMAGIC_CARDS": str(cards), "MENTALMAGIC_RATE_LIMIT": "0",
            "MENTALMAGIC_GAMES_PER_HOUR": "0", "MENTALMAGIC_ACCESS_LOG": "0", "MENTALMAGIC_HEALTH_INTERVAL": "0",
            **more}


def until(condition, what: str):
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        out = condition()
        if out:
            return out
        time.sleep(0.1)
    pytest.fail(f"not within {BOUND} s: {what}")


def test_a_full_disk_is_503_and_degraded_logged_once_a_minute_and_writes_resume(tmp_path):
    cards = write(tmp_path / "AtomicCards.json", TINY)
    with tmpfs(tmp_path / "disk", "6m") as disk:
        server = Served(env_for(disk / "arbiter.sqlite", cards), "--workers", "3", log=tmp_path / "server.log")
        try:
            status, game, _ = call(server.port, "POST", "/games", {
                "players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Savannah Lions"] * 250})
            assert status == 201, game
            ana = {"Authorization": f"Bearer {game['players'][0]['token']}"}
            judge = {"Authorization": f"Bearer {game['judge_token']}"}
            acked = 0

            def draw() -> tuple[int, dict]:
                nonlocal acked
                status, body, _ = call(server.port, "POST", f"/games/{game['id']}/actions",
                                       {"type": "draw", "count": 1}, ana)
                acked += status == 200
                return status, body

            assert draw()[0] == 200
            filler = fill(disk)
            statuses = [draw() for _ in range(150)]
            assert {s for s, _ in statuses} <= {200, 503}, statuses  # never a 500
            refused = [b for s, b in statuses if s == 503]
            assert refused, "a full disk refused no write"
            assert refused[0]["error"]["code"] == "storage_failed" and "disk is full" in refused[0]["error"]["message"]
            status, deck, _ = call(server.port, "POST", "/decks", {"name": "Cube", "list": "4 Savannah Lions"})
            assert status in (201, 503), deck  # a write the disk still took (a reused WAL page) is a real one
            status, health, _ = call(server.port, "GET", "/health")
            assert status == 503 and health["status"] == "degraded"
            assert any("disk is full" in r for r in health["reasons"]), health
            lines = [ln for ln in server.output().splitlines() if "disk is full" in ln]
            assert 1 <= len(lines) <= 3, lines  # one a minute at most, from each of the three workers
            assert "Traceback" not in server.output()

            filler.unlink()  # room again: writes resume by themselves, no restart
            until(lambda: call(server.port, "GET", "/health")[0] == 200, "/health ok again")
            assert all(draw()[0] == 200 for _ in range(5))
            status, events, _ = call(server.port, "GET", f"/games/{game['id']}/events", headers=judge)
            assert status == 200
            # nothing half-applied: every acknowledged draw is in the log, and no refused one
            assert sum(e["type"] == "draw" for e in events["events"]) == acked
        finally:
            server.stop()


def test_a_read_only_database_is_refused_at_start_in_one_line(tmp_path):
    cards = write(tmp_path / "AtomicCards.json", TINY)
    with tmpfs(tmp_path / "ro", "16m") as disk:
        db = disk / "arbiter.sqlite"
        env = env_for(db, cards)
        made = subprocess.run([sys.executable, "-m", "mentalmagic.cli", "self-check"], env={**env_base(), **env},
                              capture_output=True, text=True, timeout=120)
        assert made.returncode == 0, made.stderr
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        result = subprocess.run([sys.executable, "-m", "mentalmagic.cli", "serve", "--port", "0"],
                                env={**env_base(), **env}, capture_output=True, text=True, timeout=120)
        line = assert_refused(result, str(db), "can't be written", "read-only")
        assert "backup" not in line


def env_base() -> dict:
    import os

    return dict(os.environ)
