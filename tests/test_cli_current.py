"""Issue 20: a whole game in the terminal without its id (the current game: `game use`, else the
last created), the end of a game in `game show`, `game export`, and the card-source note once a day."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner
from test_cli_games import LIST, db, game, ok, real_db, run  # noqa: F401 - fixtures

from mentalmagic.cli import main


def new_game(db, tmp_path, *players: str) -> str:  # noqa: F811
    path = tmp_path / "list.txt"
    path.write_text(LIST, encoding="utf-8")
    out = ok(db, "new", *players, "--list", path, "--no-shuffle")
    assert "current game" in out
    return re.search(r"game (\S+):", out).group(1)


def test_the_last_game_created_is_the_current_one_until_another_is_used(db, tmp_path):  # noqa: F811
    first = new_game(db, tmp_path, "Ana", "Ben")
    ok(db, "do", "ana", "draw", "2")  # no id: the game just created
    second = new_game(db, tmp_path, "Cara", "Dan")
    ok(db, "draw", "cara", "1")
    assert "seq 1" in ok(db, "show") and f"game {second}" in ok(db, "show")
    ok(db, "use", first)
    out = ok(db, "show")
    assert f"game {first}" in out and "seq 1" in out and "hand of Ana (2)" in out
    assert f"game {second}" in ok(db, "show", second)  # an id given still wins
    result = run(db, "use", "no-such-game")
    assert result.exit_code != 0 and "no game 'no-such-game'" in result.output
    assert f"game {first}" in ok(db, "show")  # unchanged by the refusal


def test_no_game_yet_says_how_to_start_one(db):  # noqa: F811
    result = run(db, "show")
    assert result.exit_code == 2 and "game new" in result.output


def test_show_says_who_is_out_and_who_won_and_export_gives_state_and_log(db, game):  # noqa: F811
    ok(db, "do", "ben", "leave")
    out = ok(db, "show")
    assert "out: Ben left the game at event 1" in out and "GAME OVER" not in out
    ok(db, "do", "ana", "leave")  # Cara alone is left in (104.2a)
    out = ok(db, "show")
    assert "GAME OVER at event 2 (104.2a): Cara won" in out
    text = ok(db, "export")
    for words in ("The game is over — Cara wins.", "Players:", "- Ben (p2, team red): left the game — Ben leaves",
                  "Event log:", "1. Ben leaves the game, and the 0 cards they own leave with them (D9).",
                  "(rule 800.4a)"):
        assert words in text, words
    french = CliRunner().invoke(main, ["--db", str(db), "--lang", "fr", "game", "export"])
    assert french.exit_code == 0, french.output
    for words in ("La partie est terminée — Cara gagne.", "Joueurs :", "Journal des évènements :", "(règle 800.4a)",
                  "Ben quitte la partie", "- Ben (p2, équipe red) : "):  # the catalogue's line (issue 35)
        assert words in french.stdout, words
    assert not re.search(r"\b(the|game|leaves|wins|Players|Event log)\b", french.stdout)  # no English word
    exported = json.loads(ok(db, "export", "--json"))
    assert exported["game"]["status"] == "finished" and [e["seq"] for e in exported["events"]] == [1, 2]
    # the page's three keys, and what a replay starts from (the judge's whole record: replay.py)
    assert exported["names"] == [] and {"game", "events", "names", "setup"} <= set(exported)
    ok(db, "undo")  # undo takes the end back
    assert "GAME OVER" not in ok(db, "show")


def test_the_card_source_note_once_a_day_or_on_verbose(real_db):  # noqa: F811
    def note(*flags):
        result = CliRunner().invoke(main, ["--db", str(real_db), *flags, "candidates", "Shock"])
        assert result.exit_code == 0, result.output
        return "this card source lacks" in result.stderr

    first = note()
    assert note() is False  # not again the same day
    assert note("--verbose") is first  # on --verbose, whenever the source lacks something


def test_showing_drawing_and_undoing_read_only_the_games_cards(db, game, monkeypatch):  # noqa: F811
    """Issue 20: a game command that names nothing reads its cards from SQLite, never the whole pool."""
    from mentalmagic.cli import context

    def whole_pool(*a, **kw):
        raise AssertionError("the whole card pool was loaded")

    monkeypatch.setattr(context, "open_runtime", whole_pool)
    ok(db, "do", "ana", "draw", "2")
    out = ok(db, "show")
    assert "hand of Ana (2)" in out and "Shock" in out
    ok(db, "undo")
    assert "seq 0" in ok(db, "show") and "hand of Ana" not in ok(db, "show")


def test_export_names_a_given_name_as_the_page_does_in_the_table_language(db, game):  # noqa: F811
    ok(db, "do", "ana", "draw", "1")  # a Shock, named Lava Spike
    ok(db, "do", "ana", "cast", "1", "as", "Lava Spike")
    english = ok(db, "export")
    assert "- Lava Spike — Ana (#1)" in english and "named Lava Spike" in english
    french = CliRunner().invoke(main, ["--db", str(db), "--lang", "fr", "game", "export"])
    assert french.exit_code == 0, french.output
    assert "- Pointe de Lave — Ana (#1)" in french.stdout and "Lava Spike" not in french.stdout
    assert [n["name"] for n in json.loads(ok(db, "export", "--json"))["names"]] == ["Lava Spike"]  # as the page's
