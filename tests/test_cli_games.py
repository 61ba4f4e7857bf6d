"""`mentalmagic game …` against a real database file: each command, refusals with their rule and
exit status, undo, the short grammar, and the shell's completion of card names.

As in test_cli_decks.py, the first test runs the CLI whole (it loads the pool from the file); the
others hand it the session's pool, loaded from the same cards. The games are always in the file."""

from __future__ import annotations

import json
import re

import pytest
import support
from click.testing import CliRunner
from support import fresh_games_db

from mentalmagic.cli import main
from mentalmagic.storage import connect
from mentalmagic.tokens import token_hash

# --no-shuffle: the library is this list, top first, so #1 and #2 are Shocks, #5 is Fire // Ice...
LIST = "4 Shock\nFire // Ice\nSavannah Lions\nGoblin Taskmaster\nBonecrusher Giant\nLightning Bolt\n"


@pytest.fixture
def real_db(tmp_path, card_db_path, snapshot_path, monkeypatch):
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(snapshot_path))
    return fresh_games_db(card_db_path, tmp_path / "cli.sqlite")


@pytest.fixture
def db(real_db, pool, finder, monkeypatch):
    support.cli_over_session_pool(monkeypatch, pool, finder)
    return real_db


def run(db, *args, input=None):
    return CliRunner().invoke(main, ["--db", str(db), "game", *map(str, args)], input=input)


def ok(db, *args, input=None) -> str:
    result = run(db, *args, input=input)
    assert result.exit_code == 0, result.output
    return result.stdout


def rows(db, sql, params=()):
    conn = connect(db, apply_schema=False)
    try:
        return list(conn.query(sql, params))
    finally:
        conn.conn.close()


@pytest.fixture
def game(db, tmp_path):
    """A game of Ana, Ben and Cara on LIST, not shuffled."""
    path = tmp_path / "list.txt"
    path.write_text(LIST, encoding="utf-8")
    out = ok(db, "new", "Ana", "Ben:red", "Cara:red", "--list", path, "--no-shuffle")
    return re.search(r"game (\S+):", out).group(1)


def test_new_from_a_list_file_prints_the_tokens_once_and_keeps_only_their_hashes(real_db, tmp_path):
    path = tmp_path / "list.txt"
    path.write_text(LIST, encoding="utf-8")
    result = run(real_db, "new", "Ana", "Ben", "--list", path, "--format", "legacy", "--phyrexian-as-hybrid")
    assert result.exit_code == 0, result.output
    game_id = re.search(r"game (\S+): 9 cards, legacy", result.stdout).group(1)
    judge = re.search(r"judge token \(shown only now\): (\S+)", result.stdout).group(1)
    tokens = dict(re.findall(r"(p\d)\s+\w+\s+token: (\S+)", result.stdout))
    assert set(tokens) == {"p1", "p2"}
    (stored,) = rows(real_db, "select * from games where id = ?", [game_id])
    assert stored["judge_token_hash"] == token_hash(judge) and json.loads(stored["options"]) == {
        "phyrexian_as_hybrid": True}
    players = {r["id"]: r["token_hash"] for r in rows(real_db, "select * from players where game_id = ?", [game_id])}
    assert players == {pid: token_hash(t) for pid, t in tokens.items()}
    assert "this card source lacks" not in result.output  # a game's moves don't depend on it


def test_new_from_a_saved_deck_shuffles_and_lists_the_game(db):
    added = CliRunner().invoke(main, ["--db", str(db), "deck", "add", "Burn", "-"],
                               input="30 Shock\n30 Lightning Bolt\n")
    deck_id = re.search(r"saved deck (\S+)", added.stdout).group(1)
    out = ok(db, "new", "ana", "ben", "--deck", deck_id)
    game_id = re.search(r"game (\S+): 60 cards, vintage\n", out).group(1)
    library = json.loads(rows(db, "select setup from games")[0]["setup"])["library"]
    names = [printed for _, printed in library]
    assert sorted(names) == ["Lightning Bolt"] * 30 + ["Shock"] * 30
    assert names != ["Shock"] * 30 + ["Lightning Bolt"] * 30  # shuffled (a 1 in 10^17 chance to fail)
    listed = ok(db, "list")
    assert re.search(rf"^{re.escape(game_id)} .* 0 events\s+vintage\s+ana, ben$", listed, re.M)


def test_new_refuses_a_list_with_a_problem_unless_told_and_needs_one_source(db, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("4 Shock\nLightning Blot\n", encoding="utf-8")
    refused = run(db, "new", "Ana", "Ben", "--list", path)
    assert refused.exit_code == 1 and "did you mean: Lightning Bolt" in refused.output
    assert "--skip-problems" in refused.output and rows(db, "select * from games") == []
    assert "game " in ok(db, "new", "Ana", "Ben", "--list", path, "--skip-problems")
    assert run(db, "new", "Ana", "Ben").exit_code == 2  # neither --deck nor --list
    one = run(db, "new", "Ana", "--list", path, "--skip-problems")
    assert one.exit_code == 2 and "players" in one.output  # the API's own schema: 2 players at least


def test_draw_then_show_as_the_judge_and_as_a_seat(db, game):
    assert "draw           Ana  #1 #2  [702.2]" in ok(db, "draw", game, "ana", 2)
    assert "draw           Ben  #3  [702.2]" in ok(db, "draw", game, "BEN")
    judge = ok(db, "show", game)
    assert "seen by the judge" in judge and "library 6 cards" in judge
    assert re.search(r"hand of Ana \(2\)\n\s+#1\s+Shock\n\s+#2\s+Shock\n", judge)
    assert re.search(r"hand of Ben \(1\)\n\s+#3\s+Shock", judge)
    seat = ok(db, "show", game, "--as", "ben")
    # Ben doesn't see Ana's hand: no printed card, and no number (D15: the numbers are fixed for the game)
    assert re.search(r"hand of Ana \(2\)\n {9}\?\n {9}\?\n", seat)
    assert re.search(r"hand of Ben \(1\)\n\s+#3\s+Shock", seat)
    whole = ok(db, "show", game, "--library")
    assert re.search(r"library \(6\)\n\s+#4\s+Shock\s+1 from the top\n\s+#5\s+Fire // Ice\s+2 from the top", whole)
    view = json.loads(ok(db, "show", game, "--json", "--as", "p1"))
    assert view["you"] == "p1" and {c["id"] for c in view["cards"] if "printed" in c} == {
        cid for cid, h in _handles(db, game).items() if h in ("1", "2")}


def _handles(db, game) -> dict[str, str]:
    library = json.loads(rows(db, "select setup from games where id = ?", [game])[0]["setup"])["library"]
    return {cid: str(i) for i, (cid, _) in enumerate(library, 1)}


def test_move_names_in_the_same_step_and_a_refusal_prints_the_rule_and_changes_nothing(db, game):
    ok(db, "draw", game, "ana", 2)
    ok(db, "draw", game, "ben", 2)
    assert "#1  hand -> stack  named Lightning Bolt  [705.1]" in ok(db, "move", game, "1", "stack",
                                                                    "--name", "Lightning Bolt")
    refused = run(db, "move", game, "#3", "stack", "--name", "lightning bolt")
    assert refused.exit_code == 1
    assert refused.stderr.startswith("refused (704.2): ") and refused.stdout == ""
    assert len(rows(db, "select * from events where game_id = ?", [game])) == 3  # nothing recorded
    unnamed = run(db, "move", game, "3", "stack")
    assert unnamed.exit_code == 1 and unnamed.stderr.startswith("refused (705.1): name this card")
    assert run(db, "move", game, "3", "moon").exit_code == 2  # not a zone: click's usage error


def test_name_and_could_be(db, game):
    ok(db, "draw", game, "ana", 2)
    assert ok(db, "could-be", game, "ana", "Lightning Bolt") == "Lightning Bolt (705.11): #1 #2\n"
    assert "named Lightning Bolt  [704.1]" in ok(db, "name", game, "2", "Lightning Bolt")
    taken = run(db, "could-be", game, "Ana", "lightning bolt")
    assert taken.exit_code == 1 and "Lightning Bolt is taken (704.2)" in taken.stdout
    itself = run(db, "name", game, "1", "Shock")
    assert itself.exit_code == 1 and itself.stderr.startswith("refused (704.1): ")
    assert "names taken (704.2): Lightning Bolt (#2, Ana)" in ok(db, "show", game)


def test_face_up_lists_its_choices_then_turns_it_up_named(db, game):
    ok(db, "draw", game, "cara", 7)  # Goblin Taskmaster, a {R} morph, is #7
    assert "face down via morph" in ok(db, "move", game, "7", "battlefield", "--face-down", "--via", "morph")
    assert re.search(r"#7\s+Goblin Taskmaster\s+face down; Cara\n", ok(db, "show", game))
    assert re.search(r"\n {9}\?\s+face down; Cara\n", ok(db, "show", game, "--as", "ana"))
    assert "#7" not in ok(db, "show", "--as", "ana", game)  # the option before GAME, as after it
    choices = ok(db, "face-up", game, "7", "--choices")
    assert choices.startswith("#7 turned up via morph (705.4)") and "\n  Warbreak Trumpeter\n" in choices
    wrong = run(db, "face-up", game, "7", "--name", "Shock")
    assert wrong.exit_code == 1 and wrong.stderr.startswith("refused (70")
    assert "named Warbreak Trumpeter  [705.4]" in ok(db, "face-up", game, "7", "--name", "Warbreak Trumpeter")


def test_reveal_look_and_their_ends(db, game):
    assert "reveal         Ana  #1 #2  [702.2b]" in ok(db, "reveal", game, "ana", "--top", 2)
    assert re.search(r"library \(2\)\n\s+#1\s+Shock\s+revealed; 1 from the top", ok(db, "show", game))
    assert "end_reveal" in ok(db, "reveal", game, "ana", "1", "2", "--end")
    assert "look           Ben  #3  [702.2c]" in ok(db, "look", game, "ben", "3")
    assert re.search(r"#3\s+Shock\s+looked at by Ben; 3 from the top", ok(db, "show", game))
    assert not re.search(r"#3\s", ok(db, "show", game, "--as", "ana"))  # Ana did not look
    assert "end_look" in ok(db, "look", game, "ben", "3", "--end")
    assert run(db, "look", game, "ben", "--end").exit_code == 2  # --end needs the cards


def test_leave_and_undo(db, game):
    ok(db, "draw", game, "ana", 2)
    assert "leave_game     Ana  [800.4a]" in ok(db, "leave", game, "ana")
    assert "players: Ana (p1, left)" in ok(db, "show", game)
    again = run(db, "leave", game, "ana")
    assert again.exit_code == 1 and again.stderr.startswith("refused (800.4a): Ana has already left")
    assert ok(db, "undo", game).startswith("undone: 2  leave_game     Ana")
    assert "players: Ana (p1), " in ok(db, "show", game)
    ok(db, "undo", game)
    assert ok(db, "log", game) == "" and "library 9 cards" in ok(db, "show", game)
    empty = run(db, "undo", game)
    assert empty.exit_code == 1 and empty.stderr == "Error: there is no event to undo\n"


def test_log_as_the_judge_and_as_a_seat(db, game):
    ok(db, "draw", game, "ana", "--printed", "Fire // Ice")
    ok(db, "draw", game, "ben")
    assert ok(db, "log", game) == ("   1  draw           Ana  #5  (Fire // Ice)  [702.2]\n"
                                   "   2  draw           Ben  #1  [702.2]\n")
    assert "(Fire // Ice)" not in ok(db, "log", game, "--as", "ben")  # the printed card drawn is Ana's secret
    events = json.loads(ok(db, "log", game, "--json"))["events"]
    assert [e["type"] for e in events] == ["draw", "draw"]


def test_tokens_are_reissued_not_shown(db, game):
    listing = ok(db, "tokens", game)
    assert "can't be shown again" in listing and "p2  Ben" in listing
    before = {r["id"]: r["token_hash"] for r in rows(db, "select * from players where game_id = ?", [game])}
    out = ok(db, "tokens", game, "ben")
    token = re.search(r"p2  Ben  token: (\S+)", out).group(1)
    after = {r["id"]: r["token_hash"] for r in rows(db, "select * from players where game_id = ?", [game])}
    assert after == {**before, "p2": token_hash(token)} and before["p2"] != after["p2"]
    assert len(re.findall("token: ", ok(db, "tokens", game, "--all"))) == 3
    unknown = run(db, "tokens", game, "dan")
    assert unknown.exit_code == 2 and "'dan' names no player" in unknown.output


def test_do_reads_the_grammar_and_a_script_stops_at_the_first_refusal(db, game):
    assert "draw           Ana  #1 #2" in ok(db, "do", game, "ana draw 2")
    cast = ok(db, "do", game, "ana", "cast", "1", "as", "Lightning", "Bolt")  # unquoted words are one line
    assert "#1  hand -> stack  named Lightning Bolt" in cast
    assert ok(db, "do", game, "undo").startswith("undone: 2  move")
    bad = run(db, "do", game, "ana fly")
    assert bad.exit_code == 2 and "unknown verb 'fly'" in bad.output
    script = "# a turn\nben draw 2\nben cast 3 as Lightning Bolt\nana cast 1 as Lightning Bolt\nana draw\n"
    result = run(db, "do", game, "-", input=script)
    assert result.exit_code == 1
    assert "named Lightning Bolt" in result.stdout
    assert "line 4: ana cast 1 as Lightning Bolt" in result.stderr and "refused (704.2)" in result.stderr
    assert len(rows(db, "select * from events where game_id = ?", [game])) == 3  # the last line never ran


def test_unknown_game_card_and_player_are_errors_without_a_traceback(db, game):
    no_game = run(db, "show", "nope")
    assert no_game.exit_code == 1 and "no game 'nope'" in no_game.output
    no_card = run(db, "name", game, "99", "Shock")
    assert no_card.exit_code == 2 and "no card '99'" in no_card.output
    for r in (no_game, no_card):
        assert "Traceback" not in r.output


def completer(db):
    def complete(words: str) -> list[str]:
        env = {"_MENTALMAGIC_COMPLETE": "bash_complete", "COMP_WORDS": f"mentalmagic --db {db} game {words}",
               "COMP_CWORD": str(len(f"mentalmagic --db {db} game {words}".split(" ")) - 1)}
        result = CliRunner().invoke(main, [], env=env, prog_name="mentalmagic")
        assert result.exit_code == 0, result.output
        return [line.split(",", 1)[1] for line in result.stdout.splitlines() if line]

    return complete


def test_card_names_games_and_players_complete_in_the_shell(db, game):
    complete = completer(db)
    names = complete(f"name {game} 1 Lightning")
    assert "Lightning Bolt" in names and all(n.lower().startswith("lightning") for n in names)
    assert "Éclair de génie" in complete(f"name {game} 1 Écl")  # French names too
    assert complete(f"draw {game[:4]}") == [game]
    assert complete(f"draw {game} b") == ["Ben"]
    # a `game do` line, word by word: what grammar.suggest says may come next
    assert complete(f"do {game} ") == ["Ana", "Ben", "Cara", "undo"]
    assert complete(f"do {game} ana ca") == ["cast"]
    assert complete(f"do {game} ana cast 1 v") == ["via"]
    rest = complete(f"do {game} ana cast 1 as Lightning B")  # the shell replaces the last word only
    assert "Bolt" in rest and all(" " not in r or r.startswith("B") for r in rest)


def test_a_line_completes_word_by_word_on_the_current_game_too(db, game):
    """GAME left out (the README's own example): the words typed are the line's, on the current game."""
    complete = completer(db)
    assert complete("do ") == [game, "Ana", "Ben", "Cara", "undo"]  # GAME may still be typed
    # a random game id may start with the letter typed too, and is rightly offered (GAME may be typed)
    assert [c for c in complete("do a") if c != game] == ["Ana"]
    assert complete("do ana d") == ["draw", "discard", "damaged"]
    assert complete("do ana cast 1 v") == ["via"]
    assert "Bolt" in complete("do ana cast 1 as Lightning B")
    assert [c for c in complete("draw A") if c != game] == ["Ana"]
    assert complete("draw ana ") == []  # COUNT: nothing to offer
    assert complete("show --as b") == ["Ben"]
    assert "Lightning Bolt" in complete("name 1 Lightning")
    assert complete(f"draw {game[:4]}") == [game]  # a game id is still offered
    assert complete(f"do {game} ana d") == ["draw", "discard", "damaged"]


def test_help_shows_each_commands_whole_description():
    from mentalmagic.cli.games import game as game_group

    for group, args in ((main, ["--help"]), (game_group, ["game", "--help"])):
        text = " ".join(CliRunner().invoke(main, args).stdout.split())
        for name, cmd in group.commands.items():
            first = " ".join(cmd.help.partition("\n\n")[0].split())
            assert f"{name} {first}" in text, name


def test_a_script_may_keep_going_past_a_refusal_and_look_at_the_table(db, game):
    script = "ana draw 2\nana cast 1 as Shock\nshow ben\nana cast 1 as Lightning Bolt\nlog\n"
    result = run(db, "do", game, "-", "--keep-going", input=script)
    assert result.exit_code == 1  # a line failed...
    assert result.stderr.startswith("line 2: ana cast 1 as Shock\nrefused (704.1): ")
    assert re.search(r"seen by Ben\n(.*\n)*hand of Ana \(2\)\n {9}\?", result.stdout)  # `show ben`
    assert result.stdout.endswith("   2  move           Ana  #1  hand -> stack  named Lightning Bolt  [705.1]\n")
    assert len(rows(db, "select * from events where game_id = ?", [game])) == 2  # ...and the others ran


def test_an_import_shows_its_progress_on_standard_error_even_off_a_terminal(capsys):
    from mentalmagic.runtime import terminal_progress

    tick = terminal_progress("importing cards", every=0)  # a line at every tick: no clock in the test
    tick()
    tick(2)
    assert capsys.readouterr().err == "importing cards: 1 card so far\nimporting cards: 3 cards so far\n"


def test_a_game_id_never_starts_with_a_dash_that_a_command_line_would_read_as_an_option(monkeypatch):
    from mentalmagic import services

    ids = iter(["-dashed", "_fine"])
    monkeypatch.setattr(services.secrets, "token_urlsafe", lambda n: next(ids))
    assert services.new_id() == "_fine"  # what create_game draws a game's id with


def test_shuffle_is_a_cut_and_a_leaver_returns_what_they_only_control(db, game):
    assert "shuffle        Ana  cut 3 from the top  [701.1b]" in ok(db, "shuffle", game, "ana", "--at", 3)
    assert re.search(r"library \(9\)\n\s+#4\s+Shock\s+1 from the top\n", ok(db, "show", game, "--library"))
    ok(db, "do", game, "ben draw")  # #4
    ok(db, "do", game, "ben pentaland 4")
    ok(db, "move", game, "4", "battlefield", "--player", "ana")  # Ana takes control of it
    assert re.search(r"#4\s+Shock\s+Pentaland; Ana \(owner Ben\)", ok(db, "show", game))
    assert "leave_game     Ana  returned #4  [800.4a]" in ok(db, "leave", game, "ana", "--returned", "4")
    assert re.search(r"#4\s+Shock\s+Pentaland; Ben\n", ok(db, "show", game))


def test_a_chooser_names_a_card_that_isnt_theirs_with_choice(db, game):
    ok(db, "draw", game, "ana")
    ok(db, "reveal", game, "ana", "1")
    chosen = ok(db, "do", game, "ben choose 1 as Lightning Bolt")
    assert "name           Ben  #1  named Lightning Bolt  [705.5]" in chosen  # not 704.1: the chooser's naming
    ok(db, "undo", game)
    assert "named Lightning Bolt  [705.5]" in ok(db, "name", game, "1", "Lightning Bolt", "--player", "ben", "--choice")


def test_the_list_says_which_games_are_over_and_which_are_archived(db, game, finder):
    from datetime import UTC, datetime, timedelta

    from mentalmagic import services
    from mentalmagic.storage.gamedb import GameStore

    def line() -> str:
        return next(x for x in ok(db, "list").splitlines() if x.startswith(game))

    assert "[" not in line()  # going on
    ok(db, "do", game, "end")
    assert line().endswith("Ana, Ben, Cara  [over]")
    later = datetime.now(UTC) + timedelta(hours=1)
    assert services.archive_idle(GameStore(db, finder).unit_of_work(), 0, at=later) == [game]
    assert line().endswith("Ana, Ben, Cara  [over]  [archived]")


def test_a_misspelt_name_is_refused_with_the_close_names(db, game):
    ok(db, "do", game, "ana draw 2")
    result = run(db, "do", game, "ana cast 1 as Lightnig Bolt")
    assert result.exit_code == 1 and result.stderr.startswith("refused (704.1): ")
    assert "did you mean: Lightning Bolt" in result.stderr
