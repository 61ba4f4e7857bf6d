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
