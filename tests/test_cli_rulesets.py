"""The CLI picks a rule set too (docs/rule-sets.md): `candidates`, `check` and `game new` take
--rules; `game show` says which variant is in force and cites its own rules where it differs.
Core tier: a real SQLite file, the mini pool and minipool_variants.py handed to the CLI."""

from __future__ import annotations

import re

import pytest
import support
from click.testing import CliRunner
from minipool_variants import variant_pool

from mentalmagic.cli import main
from mentalmagic.index import CandidateFinder
from mentalmagic.storage import connect


@pytest.fixture
def db(tmp_path, monkeypatch):
    path = tmp_path / "cli.sqlite"
    connect(path).conn.close()
    pool = variant_pool()
    support.cli_over_session_pool(monkeypatch, pool, CandidateFinder(pool))
    return path


def run(db, *args):
    return CliRunner().invoke(main, ["--db", str(db), *map(str, args)])


def test_candidates_and_check_take_rules(db):
    xom = run(db, "candidates", "Fires of Yavimaya", "--rules", "xom")
    assert xom.exit_code == 0 and "Electrolyze" in xom.stdout
    default = run(db, "candidates", "Fires of Yavimaya")
    assert default.exit_code == 0 and "Electrolyze" not in default.stdout
    refused = run(db, "check", "Air Elemental", "Battle of Wits", "--rules", "xom")
    assert refused.exit_code == 1 and "2a:" in refused.stdout
    bad = run(db, "check", "Gitaxian Probe", "Ancestral Recall", "--rules", "xom", "--phyrexian-as-hybrid")
    assert bad.exit_code != 0 and "phyrexian_as_hybrid" in bad.output


def test_a_game_made_under_xom_shows_its_rules(db, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("Fires of Yavimaya\nShock\n", encoding="utf-8")
    made = run(db, "game", "new", "Ana", "Bob", "--list", deck, "--rules", "xom", "--no-shuffle")
    assert made.exit_code == 0, made.output
    game_id = re.search(r"game (\S+):", made.stdout).group(1)
    shown = run(db, "game", "show", game_id)
    assert shown.exit_code == 0, shown.output
    assert "Async Mental Magic" in shown.stdout and "multicolour 5e" in shown.stdout
    plain = run(db, "game", "new", "Ana", "Bob", "--list", deck)
    plain_id = re.search(r"game (\S+):", plain.stdout).group(1)
    assert "rules:" not in run(db, "game", "show", plain_id).stdout


@pytest.mark.parametrize(("lang", "default_name", "xom_scope"), [
    ("en", "Magic-Ville (the default)", "names stay taken for the whole series (6)"),
    ("fr", "Magic-Ville (par défaut)", "les noms restent pris pour toute la série (6)"),
])
def test_rule_sets_lists_what_get_rule_sets_lists_in_the_language_asked(db, lang, default_name, xom_scope):
    import json

    from mentalmagic.rulesets import RULE_SETS

    shown = CliRunner().invoke(main, ["--db", str(db), "--lang", lang, "rule-sets"])
    assert shown.exit_code == 0, shown.output
    assert f"magic-ville  {default_name}" in shown.stdout and f"- {xom_scope}" in shown.stdout
    listed = json.loads(CliRunner().invoke(main, ["--db", str(db), "--lang", lang, "rule-sets", "--json"]).stdout)
    assert [r["key"] for r in listed["rule_sets"]] == list(RULE_SETS)
    assert [r["default"] for r in listed["rule_sets"]].count(True) == 1


def test_a_series_in_the_terminal_makes_its_games_and_carries_their_names(db, tmp_path):
    """`series new`, `game new --series`, and `series show`: Xom 6 in the terminal, one token as the API's."""
    made = run(db, "series", "new", "--rules", "xom")
    assert made.exit_code == 0, made.output
    series_id, token = re.search(r"series (\S+) under xom; its token \(shown only now\): (\S+)", made.stdout).groups()
    deck = tmp_path / "deck.txt"
    deck.write_text("2 Shock\n")
    games = []
    for _ in range(2):
        new = run(db, "game", "new", "Ana", "Ben", "--list", deck, "--series", series_id, "--series-token", token)
        assert new.exit_code == 0, new.output
        games.append(re.search(r"game (\S+):", new.stdout).group(1))
    assert run(db, "game", "do", games[0], "ana draw 1").exit_code == 0
    assert run(db, "game", "do", games[0], "ana cast 1 as Chain Lightning").exit_code == 0
    assert run(db, "game", "do", games[1], "ana draw 1").exit_code == 0
    refused = run(db, "game", "do", games[1], "ana cast 1 as Chain Lightning")
    assert refused.exit_code == 1 and "refused (6)" in refused.output, refused.output
    shown = run(db, "series", "show", series_id, "--series-token", token)
    assert shown.exit_code == 0, shown.output
    assert f"{games[0]} (active): 1 name taken: Chain Lightning" in shown.stdout
    assert f"{games[1]} (active): 0 names taken" in shown.stdout
    other = run(db, "game", "new", "Ana", "Ben", "--list", deck, "--series", series_id, "--series-token", token,
                "--rules", "magic-ville")
    assert other.exit_code != 0 and "rules" in other.output
    wrong = run(db, "series", "show", series_id, "--series-token", "nope")
    assert wrong.exit_code != 0


def xom_series_over(db, pool) -> tuple[dict, dict]:
    """Two games of a Xom series in ``db``, made over HTTP; game 1 named Shock "Chain Lightning"."""
    from mentalmagic.runtime import Runtime
    from mentalmagic.web import create_app

    client = create_app({"TESTING": True, "DATABASE": str(db),
                         "RUNTIME": Runtime(db_path=db, pool=pool, finder=CandidateFinder(pool))}).test_client()
    series = client.post("/api/v1/series", json={"rules": "xom"}).get_json()
    games = [client.post("/api/v1/games", headers={"Authorization": f"Bearer {series['token']}"},
                         json={"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock"],
                               "shuffle": False, "series": series["id"]}).get_json() for _ in range(2)]
    one = games[0]
    judge = {"Authorization": f"Bearer {one['judge_token']}"}
    client.post(f"/api/v1/games/{one['id']}/actions", headers=judge, json={"type": "draw", "player": "p1"})
    [shock] = [c["id"] for c in client.get(f"/api/v1/games/{one['id']}", headers=judge).get_json()["cards"]
               if c["zone"] == "hand"]
    moved = client.post(f"/api/v1/games/{one['id']}/actions", headers=judge,
                        json={"type": "move", "player": "p1", "card": shock, "to": "stack", "name": "Chain Lightning"})
    assert moved.status_code == 200, moved.get_json()
    return one, games[1]


@pytest.mark.parametrize(("lang", "taken_in", "taken"), [
    ("en", "[chosen in game {game} of this series, 6]", "[taken 6]"),
    ("fr", "[choisi dans la partie {game} de cette série, 6]", "[pris 6]"),
])
def test_candidates_and_check_with_a_game_read_its_series_names_as_its_moves(db, lang, taken_in, taken):
    import json

    one, two = xom_series_over(db, variant_pool())
    words = ["--db", str(db), "--lang", lang]
    listed = CliRunner().invoke(main, [*words, "candidates", "Shock", "--game", two["id"]])
    assert listed.exit_code == 0, listed.output
    line = next(x for x in listed.stdout.splitlines() if "Chain Lightning" in x)
    assert taken_in.format(game=one["id"]) in line
    assert sum("[" in x for x in listed.stdout.splitlines()) == 1  # the others free
    own = CliRunner().invoke(main, [*words, "candidates", "Shock", "--game", one["id"]])
    assert taken in next(x for x in own.stdout.splitlines() if "Chain Lightning" in x)
    as_json = json.loads(run(db, "candidates", "Shock", "--game", two["id"], "--json").stdout)
    assert as_json["taken"] == ["Chain Lightning"] and as_json["taken_in"] == {"Chain Lightning": one["id"]}
    refused = CliRunner().invoke(main, [*words, "check", "Shock", "Chain Lightning", "--game", two["id"]])
    assert refused.exit_code == 1 and "6: Chain Lightning" in refused.stdout and one["id"] in refused.stdout
    assert run(db, "check", "Shock", "Lightning Bolt", "--game", two["id"]).exit_code == 0
    unknown = run(db, "candidates", "Shock", "--game", "nosuchgame")
    assert unknown.exit_code != 0 and "Traceback" not in unknown.output
