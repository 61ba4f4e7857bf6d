"""`mentalmagic game new --format commander --commander PLAYER=NAME` (#10, D14): the CLI seats
each player's commander as POST /games does."""

from __future__ import annotations

import json
import re

from test_cli_games import LIST, db, ok, real_db, rows, run  # noqa: F401 (db, real_db: fixtures)


def test_a_commander_game_is_started_with_each_players_commander(db, tmp_path):  # noqa: F811
    path = tmp_path / "list.txt"
    path.write_text(LIST, encoding="utf-8")
    out = ok(db, "new", "Ana", "Ben", "--list", path, "--format", "commander", "--commander", "ana=Krenko, Mob Boss",
             "--commander", "Ben=Thrasios, Triton Hero", "--commander", "Ben=Tymna the Weaver")
    game_id = re.search(r"game (\S+): 9 cards, commander", out).group(1)
    (stored,) = rows(db, "select setup from games where id = ?", [game_id])
    seated = sorted((printed, player) for _, printed, player in json.loads(stored["setup"])["commanders"])
    assert seated == [("Krenko, Mob Boss", "p1"), ("Thrasios, Triton Hero", "p2"), ("Tymna the Weaver", "p2")]
    shown = ok(db, "show", game_id)
    assert "command" in shown and "Krenko, Mob Boss" in shown and "Tymna the Weaver" in shown
    # D14(e): the commanders' names are taken from the start, and `game show` lists them (issue 35)
    assert "names taken (704.2): Krenko, Mob Boss (#10, Ana), Thrasios, Triton Hero (#11, Ben)" in shown, shown
    ana, ben = json.loads(ok(db, "show", game_id, "--json"))["players"]  # API.md: one id, or a list of two
    assert isinstance(ana["commander"], str) and ana["commanders"] == [ana["commander"]]
    assert isinstance(ben["commander"], list) and len(ben["commander"]) == 2 and ben["commanders"] == ben["commander"]
    # the commanders' handles follow the library's nine: Krenko is #10 (grammar.card_handles)
    refused = run(db, "do", game_id, "ben damaged 20 by 10")  # in the command zone: no combat damage
    assert refused.exit_code == 1 and "903.10a" in refused.output
    ok(db, "do", game_id, "ana cast 10")
    ok(db, "do", game_id, "ana move 10 to battlefield")
    assert "20 combat damage from #10 (20 in all)" in ok(db, "do", game_id, "ben damaged 20 by 10")
    assert "903.10a" in ok(db, "do", game_id, "ben damaged 1 by #10")
    log = ok(db, "log", game_id)  # the amounts the JSON has, in the text too
    assert "20 combat damage from #10 (20 in all)" in log and "1 combat damage from #10 (21 in all)" in log, log
    (last,) = rows(db, "select data from events where game_id = ? order by seq desc limit 1", [game_id])
    assert json.loads(last["data"])["game_loss"]["rule"] == "903.10a"  # Ben loses (903.10a)


def test_a_commander_game_without_commanders_or_with_a_stranger_is_refused(db, tmp_path):  # noqa: F811
    path = tmp_path / "list.txt"
    path.write_text(LIST, encoding="utf-8")
    args = ("new", "Ana", "Ben", "--list", path, "--format", "commander")
    missing = run(db, *args, "--commander", "Ana=Krenko, Mob Boss")
    assert missing.exit_code == 1 and "903.3" in missing.output
    stranger = run(db, *args, "--commander", "Zed=Krenko, Mob Boss")
    assert stranger.exit_code == 2 and "PLAYER=NAME" in stranger.output
    assert rows(db, "select id from games") == []
