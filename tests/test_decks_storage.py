"""The decks table reaches a database file made before it existed; the store keeps hashes only."""

from __future__ import annotations

import sqlite3

import pytest

from mentalmagic import decks
from mentalmagic.errors import Forbidden, Unauthorized
from mentalmagic.storage import SCHEMA_PATH, connect
from mentalmagic.storage.deckdb import DeckStore


def test_an_older_database_gets_the_decks_table_at_start_and_keeps_its_games(tmp_path, pool):
    path = tmp_path / "old.sqlite"
    before = SCHEMA_PATH.read_text(encoding="utf-8").split("-- Saved common decks")[0]
    conn = sqlite3.connect(path)
    conn.executescript(before)
    conn.execute("insert into games (id, created_at, format, setup, judge_token_hash) values "
                 "('g1', 'now', 'vintage', '{}', 'h')")
    conn.commit()
    assert "decks" not in {r[0] for r in conn.execute("select name from sqlite_master")}
    conn.close()

    connect(path).conn.close()  # what every start does
    store = DeckStore(path, pool)
    d = decks.create_deck(store.unit_of_work(), "Cube", "4 Shock")
    assert decks.get_deck(store.unit_of_work(), d["id"])["size"] == 4
    db = connect(path, apply_schema=False)
    try:
        assert db["games"].count == 1
        (row,) = db.query("select * from decks")
    finally:
        db.conn.close()
    assert d["edit_token"] not in row.values() and len(row["edit_token_hash"]) == 64


def test_a_refused_change_changes_nothing(tmp_path, pool):
    path = tmp_path / "d.sqlite"
    connect(path).conn.close()
    store = DeckStore(path, pool)
    d = decks.create_deck(store.unit_of_work(), "Cube", "4 Shock")
    with pytest.raises(Unauthorized):
        decks.update_deck(store.unit_of_work(), d["id"], None, name="x", text="1 Ice")
    with pytest.raises(Forbidden):
        decks.delete_deck(store.unit_of_work(), d["id"], "Bearer wrong")
    got = decks.get_deck(store.unit_of_work(), d["id"])
    assert (got["name"], got["list"], got["updated_at"]) == ("Cube", "4 Shock", d["updated_at"])
