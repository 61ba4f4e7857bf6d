"""The pages and rule sets (docs/rule-sets.md), in real headless Chromium over real HTTP: the game
page says which rule set is in force and cites each variant's own rule where it differs, in
English and French; the lookup page asks under the chosen rule set."""

from __future__ import annotations

import pytest
from browser import new_game
from playwright import sync_api
from test_page import api, wait_results

LIBRARY = ["Fires of Yavimaya", "Shock"]


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", ["Rules: Async Mental Magic v20181207a", "multicolour costs (5e)", "the face-down land is Utopia (4)",
               "names stay taken for the whole series (6)"]),
    ("fr-FR", ["Règles : Async Mental Magic v20181207a", "coûts multicolores (5e)"]),
])
def test_the_game_page_shows_the_rule_set_and_cites_its_rules(kept_context, base_url, locale, expected):
    game = new_game(base_url, LIBRARY, rules="xom")
    pg = kept_context(base_url, locale=locale).page
    pg.goto(f"/games/{game['id']}#token={game['judge_token']}")
    line = pg.locator("#rules-line")
    for text in expected:
        sync_api.expect(line).to_contain_text(text)


def test_a_default_game_page_names_magic_ville_and_no_difference(kept_context, base_url):
    game = new_game(base_url, LIBRARY)
    pg = kept_context(base_url).page
    pg.goto(f"/games/{game['id']}#token={game['judge_token']}")
    sync_api.expect(pg.locator("#rules-line")).to_contain_text("Rules: Mental Magic Comprehensive Rules")
    assert "differ" not in pg.locator("#rules-line").inner_text()


def test_the_lookup_page_asks_under_the_chosen_rule_set(kept_context, base_url):
    pg = kept_context(base_url).page
    pg.goto("/?printed=Fires+of+Yavimaya&rules=xom")
    sync_api.expect(pg.locator("#rules-select")).to_have_value("xom")
    xom = api(base_url, "candidates", printed="Fires of Yavimaya", rules="xom", limit=1)["count"]
    default = api(base_url, "candidates", printed="Fires of Yavimaya", limit=1)["count"]
    assert xom > default  # Xom 5e: every multicolour card of mana value 3 with a plain coloured symbol
    wait_results(pg, xom)
    pg.locator("#rules-select").select_option("magic-ville")
    sync_api.expect(pg.locator("#count-line .count")).to_have_text(str(default))
    assert "rules=" not in pg.url
