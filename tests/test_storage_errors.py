"""Every SQLite error that means the disk or the database file is broken is ``503 storage_failed`` on
the routes that read or write games and decks, worded in the request's language, logged one line a
minute at most, never a traceback (issue 30). The connection edge here raises what SQLite raises on
a broken disk or file; test_storage_broken.py makes the real ones under a real server (an ext4
shut down under it, the file deleted or replaced)."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from support import assert_envelope

from mentalmagic.storage import dbfile
from mentalmagic.storage.failures import Trouble

API = "/api/v1"


def raised(cls, text: str, code: int) -> BaseException:
    """The error SQLite's module raises, with its extended result code."""
    e = cls(text)
    e.sqlite_errorcode, e.sqlite_errorname = code, text
    return e


BROKEN = {
    "io": (raised(sqlite3.OperationalError, "disk I/O error", 778), "the disk failed to read or write"),  # IOERR_WRITE
    "malformed": (raised(sqlite3.DatabaseError, "database disk image is malformed", sqlite3.SQLITE_CORRUPT),
                  "the database file is damaged"),
    "not_a_database": (raised(sqlite3.DatabaseError, "file is not a database", sqlite3.SQLITE_NOTADB),
                       "the database file is damaged"),
    "cant_open": (raised(sqlite3.OperationalError, "unable to open database file", sqlite3.SQLITE_CANTOPEN),
                  "the database file can't be opened"),
}


@pytest.fixture
def broken(app, monkeypatch):
    """Open connections dropped, and every new one failing with ``broken(error)``'s error."""
    database = app.extensions["mentalmagic"].games.database
    # what this process has seen and logged: the module's app is shared, each test sees its own
    monkeypatch.setattr(app.extensions["mentalmagic.health"], "trouble", Trouble(database.db_path))

    def break_with(error: BaseException):
        def failing(*args, **kwargs):
            raise error

        database._local.__dict__.clear()  # this thread's connection: opened again, and failing
        monkeypatch.setattr(dbfile, "connect", failing)

    yield break_with
    database._local.__dict__.clear()


@pytest.mark.parametrize("what", BROKEN)
def test_a_broken_disk_or_file_is_503_storage_failed_on_every_route_logged_once(client, broken, caplog, what):
    error, says = BROKEN[what]
    game = client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}],
                                             "library": ["Shock"] * 10}).get_json()
    judge = {"Authorization": f"Bearer {game['judge_token']}"}
    broken(error)
    with caplog.at_level(logging.ERROR):
        answers = [
            client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock"]}),
            client.get(f"{API}/games/{game['id']}", headers=judge),
            client.get(f"{API}/games/{game['id']}/events", headers=judge),
            client.post(f"{API}/games/{game['id']}/actions", json={"type": "draw", "player": "p1"}, headers=judge),
            client.post(f"{API}/decks", json={"name": "Burn", "list": "4 Shock"}),
            client.get(f"{API}/decks"),
        ]
    for r in answers:
        error = assert_envelope(r, 503)
        assert error["code"] == "storage_failed" and says in error["message"], (r.request.path, error)
    lines = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert len(lines) == 1 and says in lines[0].getMessage(), [rec.getMessage() for rec in lines]
    assert not any(rec.exc_info for rec in caplog.records)  # no traceback
    french = client.get(f"{API}/games/{game['id']}?lang=fr", headers=judge).get_json()
    assert french["error"]["message"].startswith("la base du serveur est inutilisable pour l’instant"), french


def test_a_database_moved_away_or_replaced_is_503_until_it_is_back_then_writes_resume(app, client, monkeypatch,
                                                                                         tmp_path):
    """The file the app started on, moved away (then a copy put in its place, then itself again):
    503 naming what happened, on writes and reads, /health degraded saying it; back in place, the
    app writes again without a restart, and the copy never got a write."""
    monkeypatch.setattr(app.extensions["mentalmagic.health"], "interval", 0)
    monkeypatch.setattr(app.extensions["mentalmagic.health"], "trouble",
                        Trouble(app.extensions["mentalmagic"].db_path))
    db = app.extensions["mentalmagic"].db_path
    game = client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}],
                                             "library": ["Shock"] * 10}).get_json()
    judge = {"Authorization": f"Bearer {game['judge_token']}"}
    draw = {"type": "draw", "player": "p1"}
    assert client.post(f"{API}/games/{game['id']}/actions", json=draw, headers=judge).status_code == 200

    def refused(says: str) -> None:
        for r in (client.post(f"{API}/games/{game['id']}/actions", json=draw, headers=judge),
                  client.get(f"{API}/games/{game['id']}", headers=judge),
                  client.post(f"{API}/decks", json={"name": "Burn", "list": "4 Shock"})):
            error = assert_envelope(r, 503)
            assert error["code"] == "storage_failed" and says in error["message"], error
        health = client.get(f"{API}/health")
        assert health.status_code == 503 and any(says in r for r in health.get_json()["reasons"])

    away = tmp_path / "away.sqlite"
    with sqlite3.connect(db) as source, sqlite3.connect(tmp_path / "copy.sqlite") as copy:
        source.backup(copy)
    db.rename(away)
    refused(f"the database {db} is gone")
    assert not db.exists()  # no empty file made in its place
    (tmp_path / "copy.sqlite").rename(db)
    refused(f"the database {db} is another file than the one this server started on")
    with sqlite3.connect(db) as copy:
        assert copy.execute("select seq from games where id = ?", [game["id"]]).fetchone() == (1,)  # no write
    away.replace(db)
    assert client.post(f"{API}/games/{game['id']}/actions", json=draw, headers=judge).status_code == 200
    assert client.get(f"{API}/health").status_code == 200
    events = client.get(f"{API}/games/{game['id']}/events", headers=judge).get_json()["events"]
    assert [e["seq"] for e in events] == [1, 2]
