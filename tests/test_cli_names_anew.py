"""`game show` and the log say MageRing's names anew (issue 25): the name a card dropped as it left
the battlefield, its earlier names where the seat sees the card, and the refusal of its old name.
Core tier: a real SQLite file, the variants' mini pool handed to the CLI."""

from __future__ import annotations

import re

from test_cli_rulesets import db, run  # noqa: F401  (db: the fixture)


def test_game_show_lists_a_returning_cards_earlier_names_to_who_sees_it(db, tmp_path):  # noqa: F811
    deck = tmp_path / "deck.txt"
    deck.write_text("Shock\nSavannah Lions\n", encoding="utf-8")
    made = run(db, "game", "new", "Ana", "Bob", "--list", deck, "--rules", "magering", "--no-shuffle")
    assert made.exit_code == 0, made.output
    game = re.search(r"game (\S+):", made.stdout).group(1)
    assert run(db, "game", "draw", game, "ana", 1).exit_code == 0
    assert run(db, "game", "move", game, "1", "stack", "--name", "Lightning Bolt").exit_code == 0
    bounced = run(db, "game", "move", game, "1", "hand")
    assert "no longer named Lightning Bolt" in bounced.stdout and "[face cards]" in bounced.stdout
    again = run(db, "game", "move", game, "1", "stack", "--name", "Lightning Bolt")
    assert again.exit_code == 1 and again.stderr.startswith("refused (once per game): ")
    assert run(db, "game", "move", game, "1", "stack", "--name", "Chain Lightning").exit_code == 0
    shown = run(db, "game", "show", game, "--as", "bob").stdout
    assert re.search(r"#1\s+Shock\s+named Chain Lightning; named before Lightning Bolt", shown), shown
    run(db, "game", "move", game, "1", "hand")
    hidden = run(db, "game", "show", game, "--as", "bob").stdout
    assert "named before" not in hidden and "Lightning Bolt" not in hidden.split("names taken")[0]
    export = run(db, "game", "export", game).stdout  # the judge's record: the page's words
    assert "no longer named Lightning Bolt: it is its printed card there" in export
    assert "named Chain Lightning" in export and "named before: Lightning Bolt, Chain Lightning" in export


def test_game_show_says_magerings_source_and_cited_headings_in_the_clis_language(db, tmp_path):  # noqa: F811
    """Issue 35: the rule set's source and MageRing's headings ("ban list", "once per game") were English
    whatever the language; they are the catalogue's, as on the pages."""
    deck = tmp_path / "deck.txt"
    deck.write_text("Shock\n", encoding="utf-8")
    made = run(db, "game", "new", "Ana", "Bob", "--list", deck, "--rules", "magering", "--no-shuffle")
    game = re.search(r"game (\S+):", made.stdout).group(1)
    english = run(db, "game", "show", game).stdout
    assert "Mental Magic Official Rules (MageRing Network, 2015)" in english and "ban list" in english
    french = run(db, "--lang", "fr", "game", "show", game).stdout
    assert "Règles officielles du Mental Magic" in french and "liste des cartes interdites" in french, french
    assert "une fois par partie" in french and "ban list" not in french and "once per game" not in french
