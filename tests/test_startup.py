"""Clear failures (issue 9): the self-check refuses to start on a broken card file, database
or card tables with ONE line naming the file and what to do, exit status 1, no traceback
(the real `mentalmagic serve` as a subprocess, bounded); /health says "degraded" (503) with
its reasons when the cards or the database fail after start."""

from __future__ import annotations

import json
import lzma
import os
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner
from support import fresh_games_db

from mentalmagic.cli import main
from mentalmagic.runtime import Runtime
from mentalmagic.settings import Settings
from mentalmagic.web import create_app, schemas

TIMEOUT = 120  # a refusal comes in a second or two; a server that started anyway is killed here


def start(db, cards, *args: str, **settings: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MENTALMAGIC_DB": str(db), "MENTALMAGIC_CARDS": str(cards), "MENTALMAGIC_ACCESS_LOG": "0",
           **settings}
    return subprocess.run([sys.executable, "-m", "mentalmagic.cli", *args], env=env, capture_output=True,
                          text=True, timeout=TIMEOUT)


def assert_refused(result: subprocess.CompletedProcess, *words: str) -> str:
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr and "Aborted" not in result.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def tiny_atomic_cards() -> bytes:
    card = {"name": "Shock", "manaCost": "{R}", "manaValue": 1, "type": "Instant", "types": ["Instant"],
            "layout": "normal", "text": "Shock deals 2 damage to any target.", "legalities": {"vintage": "Legal"}}
    return json.dumps({"meta": {"version": "5"}, "data": {"Shock": [card] * 1, **{
        f"Card {i}": [{**card, "name": f"Card {i}"}] for i in range(200)}}}).encode()


@pytest.fixture
def snapshot_db(tmp_path, card_db_path):
    return fresh_games_db(card_db_path, tmp_path / "arbiter.sqlite")


def test_a_sound_database_passes_the_self_check(snapshot_db, snapshot_path):
    result = CliRunner().invoke(main, ["--db", str(snapshot_db), "self-check"],
                                env={"MENTALMAGIC_CARDS": str(snapshot_path)})
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"ok: {snapshot_db} holds 34,")


@pytest.mark.processes
def test_emptied_card_tables_refuse_to_start(snapshot_db, snapshot_path):
    with sqlite3.connect(snapshot_db) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("delete from cards")
    line = assert_refused(start(snapshot_db, snapshot_path, "serve", "--port", "0"),
                          str(snapshot_db), "hold 0 cards", "build-cards --force")
    assert "were imported from" in line


@pytest.mark.processes
def test_a_database_with_a_bad_header_refuses_to_start(snapshot_db, snapshot_path):
    with open(snapshot_db, "r+b") as fh:
        fh.write(b"this is no SQLite")
    assert_refused(start(snapshot_db, snapshot_path, "serve", "--port", "0"),
                   str(snapshot_db), "not a database", "restore it from a backup")


@pytest.mark.processes
def test_a_truncated_card_file_refuses_to_start(tmp_path):
    packed = lzma.compress(tiny_atomic_cards())
    cards = tmp_path / "AtomicCards.json.xz"
    cards.write_bytes(packed[: len(packed) // 2])
    assert_refused(start(tmp_path / "new.sqlite", cards, "serve", "--port", "0"),
                   str(cards), "truncated", "download-cards")


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [("AtomicCards.json", b"<html>502 Bad Gateway</html>", "isn't an AtomicCards file"),
     ("AtomicCards.json.xz", b"\x00garbage\xff" * 10, "isn't an AtomicCards file"),
     ("AtomicCards.json", b'{"meta": {}, "data": ["not", "cards"]}', "no 'data' object"),
     ("AtomicCards.json.xz", b"", "is empty")],
    ids=["html", "not-xz", "wrong-shape", "empty"],
)
@pytest.mark.processes
def test_a_garbage_or_empty_card_file_refuses_to_start(tmp_path, name, content, says):
    cards = tmp_path / name
    cards.write_bytes(content)
    assert_refused(start(tmp_path / "new.sqlite", cards, "serve", "--port", "0"), str(cards), says)


@pytest.mark.processes
def test_the_self_check_command_refuses_the_same_way(snapshot_db, snapshot_path):
    with open(snapshot_db, "r+b") as fh:
        fh.write(b"this is no SQLite")
    assert_refused(start(snapshot_db, snapshot_path, "self-check"), str(snapshot_db), "not a database")


@pytest.mark.parametrize(
    ("settings", "says"),
    [({"MENTALMAGIC_RATE_LIMIT": "lots"}, "MENTALMAGIC_RATE_LIMIT='lots' is not a number"),
     ({"MENTALMAGIC_ACCESS_LOG": "/no/such/dir/access.log"}, "MENTALMAGIC_ACCESS_LOG='/no/such/dir/access.log'"),
     ({"MENTALMAGIC_RATE_LIMIT": "10", "MENTALMAGIC_RATE_LIMIT_STORAGE": "bogus://x"},
      "MENTALMAGIC_RATE_LIMIT_STORAGE='bogus://x'")],
    ids=["rate-limit", "access-log", "storage"],
)
@pytest.mark.processes
def test_a_bad_setting_refuses_to_start_naming_it(tmp_path, settings, says):
    assert_refused(start(tmp_path / "new.sqlite", tmp_path / "no-cards.json", "serve", "--port", "0", **settings),
                   says)


# -- /health after start ---------------------------------------------------------------------------
@pytest.fixture
def client(snapshot_db, pool, finder):
    app = create_app({"DATABASE": str(snapshot_db), "RUNTIME": Runtime(db_path=snapshot_db, pool=pool, finder=finder),
                      "SETTINGS": Settings(rate_limit=0, games_per_hour=0, access_log="0", health_interval=0)})
    return app.test_client()


def degraded(response) -> list[str]:
    assert response.status_code == 503, response.get_json()
    body = response.get_json()
    assert body["status"] == "degraded" and body["card_count"] > 0
    assert body["reasons"] and all(isinstance(r, str) for r in body["reasons"])
    return body["reasons"]


def test_health_is_ok_while_cards_and_database_are_sound(client):
    response = client.get("/api/v1/health")
    assert response.status_code == 200
    body = response.get_json()
    assert body["status"] == "ok" and "reasons" not in body
    assert schemas.HealthOut().validate(body) == {}


def test_health_is_degraded_when_the_card_tables_are_emptied_after_start(client, snapshot_db):
    with sqlite3.connect(snapshot_db) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("delete from cards")
    (reason,) = degraded(client.get("/api/v1/health"))
    assert "hold 0 cards" in reason and str(snapshot_db) in reason


def test_health_is_degraded_when_the_database_goes_bad_after_start(client, snapshot_db):
    with open(snapshot_db, "r+b") as fh:
        fh.write(b"this is no SQLite")
    reasons = degraded(client.get("/api/v1/health"))
    assert any("not a database" in r for r in reasons), reasons


def test_health_is_degraded_when_the_database_is_gone(client, snapshot_db):
    snapshot_db.unlink()
    reasons = degraded(client.get("/api/v1/health"))
    assert reasons == [f"the database {snapshot_db} is gone"]
