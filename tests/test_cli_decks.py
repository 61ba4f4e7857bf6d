"""`mentalmagic deck …` against a real database file: add, list, show, export, check.

The first test runs the command whole (it loads the pool from the file, as a judge's
terminal does); the others hand the CLI the session's pool, loaded from the same cards,
so that the suite doesn't read 34,000 cards a dozen times. The decks are always in the file."""

from __future__ import annotations

import re

import pytest
import support
from click.testing import CliRunner
from support import fresh_games_db

from mentalmagic.cli import main
from mentalmagic.storage import connect

LIST = "// cube\n4 Shock\nLightning Blot\n2 lions des savanes\nJace, the Mind Sculptor\n"


@pytest.fixture
def real_db(tmp_path, card_db_path, snapshot_path, monkeypatch):
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(snapshot_path))  # the stored cards are the setting's
    return fresh_games_db(card_db_path, tmp_path / "cli.sqlite")


@pytest.fixture
def db(real_db, pool, finder, monkeypatch):
    support.cli_over_session_pool(monkeypatch, pool, finder)
    return real_db


def run(db, *args, input=None):
    return CliRunner().invoke(main, ["--db", str(db), "deck", *args], input=input)


def test_add_saves_the_list_and_shows_the_token_problems_and_flags(real_db, tmp_path):
    db = real_db
    path = tmp_path / "cube.txt"
    path.write_text(LIST, encoding="utf-8")
    result = run(db, "add", "My cube", str(path))
    assert result.exit_code == 0, result.output
    deck_id = re.search(r"saved deck (\S+)", result.stdout).group(1)
    token = re.search(r"edit token \(shown only now\): (\S+)", result.stdout).group(1)
    assert "7 cards on 3 lines" in result.stdout
    assert "line 3: 'Lightning Blot'" in result.stdout and "did you mean: Lightning Bolt" in result.stdout
    assert "flag 706.4a: Jace, the Mind Sculptor" in result.stdout
    conn = connect(db, apply_schema=False)
    try:
        (row,) = conn.query("select * from decks")
    finally:
        conn.conn.close()
    assert (row["id"], row["name"], row["list"]) == (deck_id, "My cube", LIST)
    assert token not in row.values()  # only its hash is kept


def test_a_list_from_standard_input_then_list_show_and_export(db):
    added = run(db, "add", "Burn", "-", input="4x Shock\nIce\n")
    assert added.exit_code == 0, added.output
    deck_id = re.search(r"saved deck (\S+)", added.stdout).group(1)

    listed = run(db, "list")
    assert listed.exit_code == 0 and re.search(rf"{re.escape(deck_id)}\s+5\s+Burn", listed.stdout)

    shown = run(db, "show", deck_id)
    assert shown.exit_code == 0
    assert "   4 Shock  (Choc)" in shown.stdout and "   1 Fire // Ice" in shown.stdout

    exported = run(db, "export", deck_id)
    assert exported.exit_code == 0 and exported.stdout == "# Burn\n4 Shock\n1 Fire // Ice\n"


def test_check_reads_without_saving_and_exits_1_on_a_problem(db):
    result = run(db, "check", "-", input=LIST)
    assert result.exit_code == 1
    assert "did you mean: Lightning Bolt" in result.stdout
    assert run(db, "check", "-", input="4 Shock\n").exit_code == 0
    assert run(db, "list").stdout == ""  # nothing was saved


def test_an_unknown_deck_is_an_error_without_a_traceback(db):
    result = run(db, "show", "nope")
    assert result.exit_code == 1 and "no deck 'nope'" in result.output and "Traceback" not in result.output
    assert run(db, "export", "nope").exit_code == 1


def test_a_file_that_isnt_utf8_is_a_clear_error(db, tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("4 Éclair\n".encode("latin-1"))
    result = run(db, "check", str(path))
    assert result.exit_code == 1 and "not UTF-8" in result.output and "Traceback" not in result.output


def test_one_card_on_one_line_reads_in_the_singular(db):
    result = run(db, "check", "-", input="Shock\n")
    assert result.exit_code == 0, result.output
    assert "1 card on 1 line\n" in result.stdout
