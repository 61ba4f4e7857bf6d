"""The console's new-game form and rule sets (issue 25), in real headless Chromium over real HTTP, in
English and French: the form offers rulesets.py's presets (no list of its own), each with a line
saying what it is, where it differs with its own rule, its source and its options; a game made there
plays under the chosen preset and options; a series made there keeps its rule set, and the console
and the game page show its names taken, game by game. Keyboard alone, a phone's width, axe clean."""

from __future__ import annotations

import re

import pytest
from browser import api, axe_violations, clocked, next_poll
from playwright import sync_api

from mentalmagic.rulesets import OPTIONS, PRESETS, RULE_SETS

expect = sync_api.expect

WORDS = {
    "en-US": {"labels": ["Magic-Ville (the default)", "Xom's Async Mental Magic (2018)", "MageRing (2015)"],
              "xom": ["play by post", "multicolour costs (5e)", "Where it differs from Magic-Ville's"],
              "option": "Phyrexian mana as hybrid (house option, D3)", "source": "Source:",
              "series": "Series", "series_of": "Series of ", "game1": "Game 1", "this": "this game",
              "none": "No name taken yet.",
              "scope": "stays taken in the others (Xom 6)",
              "taken_in": "taken in an earlier game of this series (game {game})"},
    "fr-FR": {"labels": ["Magic-Ville (par défaut)", "Async Mental Magic de Xom (2018)", "MageRing (2015)"],
              "xom": ["jeu par messages", "coûts multicolores (5e)", "Là où elles diffèrent de celles de Magic-Ville"],
              "option": "Mana phyrexian lu comme hybride (option maison, D3)", "source": "Source :",
              "series": "Série", "series_of": "Série du ", "game1": "Partie 1", "this": "cette partie",
              "none": "Aucun nom pris pour l’instant.",
              "scope": "reste pris dans les autres (Xom 6)",
              "taken_in": "pris dans une partie précédente de cette série (partie {game})"},
}
LOCALES = list(WORDS)


def fill_players_and_deck(pg, deck: str = "Shock\nLightning Bolt\nGrizzly Bears") -> None:
    pg.locator("#player-name-1").fill("Ana")
    pg.locator("#player-name-2").fill("Ben")
    pg.locator("#deck-list").fill(deck)


def started_game(pg, base_url: str) -> dict:
    """The game the form just started: the page it went to, read as its judge."""
    expect(pg).to_have_url(re.compile(r"/games/[^/#]+$"))
    game_id = pg.url.rsplit("/", 1)[1]
    token = pg.evaluate("id => JSON.parse(localStorage.getItem('mentalmagic.games'))[id].judge_token", game_id)
    return {"id": game_id, "judge_token": token, **api(base_url, "GET", f"/games/{game_id}", token)}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_form_offers_each_preset_with_what_it_is_its_rules_source_and_options(kept_context, base_url, locale):
    words = WORDS[locale]
    pg = kept_context(base_url, locale=locale).page  # the module's context in that language (conftest.py)
    pg.goto("/console")
    radios = pg.locator('input[name="rules"]')
    assert radios.evaluate_all("rs => rs.map(r => r.value)") == list(RULE_SETS)  # rulesets.py's presets
    expect(radios.first).to_be_checked()  # the default
    for key, label in zip(RULE_SETS, words["labels"], strict=True):
        expect(pg.locator(f'label[for="rules-{key}"]')).to_have_text(label)
        item = pg.locator(f'.rule-choice[data-rules="{key}"]')
        expect(item.locator(".rule-source")).to_contain_text(words["source"])
        expect(item.locator(".rule-source a")).to_have_attribute("href", PRESETS[key].url)
        described = pg.locator(f"#rules-{key}").get_attribute("aria-describedby")
        expect(pg.locator(f"#{described}")).not_to_be_empty()  # a line saying what it is
        assert item.locator("input[data-option]").evaluate_all(
            "bs => bs.map(b => b.dataset.option)") == sorted(OPTIONS[key])
    what = pg.locator("#rules-xom-what")
    for text in words["xom"]:
        expect(what).to_contain_text(text)
    assert "differ" not in pg.locator("#rules-magic-ville-what").inner_text()  # the default differs from nothing
    # only the chosen preset's options show: Xom takes none, MageRing takes D3's house option
    expect(pg.locator("#option-magic-ville-phyrexian_as_hybrid")).to_be_visible()
    expect(pg.locator(".rule-option:visible label")).to_have_text([words["option"]])
    pg.locator("#rules-xom").check()
    expect(pg.locator(".rule-option:visible")).to_have_count(0)
    pg.locator("#rules-magering").check()
    expect(pg.locator("#option-magering-phyrexian_as_hybrid")).to_be_visible()
    expect(pg.locator("#option-magic-ville-phyrexian_as_hybrid")).to_be_hidden()
    assert axe_violations(pg) == []


def test_a_game_made_by_keyboard_alone_plays_under_the_chosen_preset_and_option(kept_context, base_url):
    pg = kept_context(base_url).page
    pg.goto("/console")
    fill_players_and_deck(pg)
    pg.locator("#shuffle-check").focus()
    pg.keyboard.press("Tab")  # into the rule sets: the checked radio
    expect(pg.locator("#rules-magic-ville")).to_be_focused()
    pg.keyboard.press("ArrowDown")  # a radio group moves and chooses with the arrows
    pg.keyboard.press("ArrowDown")
    expect(pg.locator("#rules-magering")).to_be_checked()
    pg.keyboard.press("Tab")  # the source link, then the option MageRing takes
    expect(pg.locator('.rule-choice[data-rules="magering"] .rule-source a')).to_be_focused()
    pg.keyboard.press("Tab")
    expect(pg.locator("#option-magering-phyrexian_as_hybrid")).to_be_focused()
    pg.keyboard.press("Space")
    expect(pg.locator("#option-magering-phyrexian_as_hybrid")).to_be_checked()
    pg.keyboard.press("Tab")
    expect(pg.locator("#series-select")).to_be_focused()
    pg.locator("#start-game").focus()
    pg.keyboard.press("Enter")
    game = started_game(pg, base_url)
    assert game["options"] == {"rules": "magering", "phyrexian_as_hybrid": True}
    assert game["rules"]["key"] == "magering" and game["rules"]["options"] == {"phyrexian_as_hybrid": True}
    expect(pg.locator("#rules-line")).to_contain_text("MageRing")
    expect(pg.locator("#series-panel")).to_be_hidden()  # in no series
    pg.goto("/console")
    expect(pg.locator("#my-games li").first).to_contain_text("MageRing (2015)")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_series_made_from_the_console_keeps_its_rules_and_shows_its_names_game_by_game(
        kept_context, base_url, locale):
    words = WORDS[locale]
    pg = clocked(kept_context(base_url, locale=locale).page)
    pg.goto("/console")
    fill_players_and_deck(pg)
    pg.locator("#rules-xom").check()
    pg.locator("#series-select").select_option("new")
    pg.locator("#start-game").click()
    one = started_game(pg, base_url)
    series = one["options"]["series"]
    assert one["options"]["rules"] == "xom"
    expect(pg.locator("#series-panel")).to_be_visible()
    expect(pg.locator("#series")).to_contain_text(words["this"])
    expect(pg.locator("#series")).to_contain_text(words["none"])
    expect(pg.locator("#series h3")).to_contain_text(words["series_of"])  # the game page's too
    # game 1 takes a name: Shock cast as Chain Lightning
    api(base_url, "POST", f"/games/{one['id']}/actions", one["judge_token"],
        {"type": "draw", "player": "p1", "count": 3})
    hand = api(base_url, "GET", f"/games/{one['id']}", one["judge_token"])["cards"]
    shock = next(c["id"] for c in hand if c["zone"] == "hand" and c["printed"] == "Shock")
    api(base_url, "POST", f"/games/{one['id']}/actions", one["judge_token"],
        {"type": "move", "player": "p1", "card": shock, "to": "stack", "name": "Chain Lightning"})
    said = api(base_url, "GET", "/cards/Chain%20Lightning").get("french_name") if locale == "fr-FR" else None
    next_poll(pg)
    expect(pg.locator("#series .series-names")).to_contain_text(said or "Chain Lightning")

    # the console lists the series; choosing it sets its rule set, which can't be changed there
    pg.goto("/console")
    # by a label a judge reads (issue 35: "Série Nb0xgg8VC01H"): when it was made, never its id
    expect(pg.locator("#my-series h3")).to_contain_text(words["series_of"])
    expect(pg.locator("#my-series h3")).not_to_contain_text(series)
    assert series not in pg.locator("#series-select").inner_text()
    expect(pg.locator("#my-series .series-names")).to_contain_text(said or "Chain Lightning")
    expect(pg.locator("#my-series .series-names")).to_contain_text("Ana")
    expect(pg.locator("#my-series")).to_contain_text(words["scope"])
    assert axe_violations(pg) == []
    fill_players_and_deck(pg)
    pg.locator("#series-select").select_option(series)
    expect(pg.locator("#rules-xom")).to_be_checked()
    for key in RULE_SETS:  # the fieldset is disabled: its rule set is the series'
        expect(pg.locator(f"#rules-{key}")).to_be_disabled()
    pg.locator("#start-game").click()
    two = started_game(pg, base_url)
    assert two["options"] == {"rules": "xom", "series": series} and two["id"] != one["id"]
    shown = pg.locator("#series ol.series-games > li")
    expect(shown).to_have_count(2)
    expect(shown.nth(0)).to_contain_text(words["game1"])
    expect(shown.nth(0)).to_contain_text(said or "Chain Lightning")
    expect(shown.nth(0).locator("a")).to_have_attribute("href", f"/games/{one['id']}")
    expect(shown.nth(1)).to_contain_text(words["this"])
    expect(shown.nth(1)).to_contain_text(words["none"])
    assert axe_violations(pg) == []
    # game 2's card menu greys the name game 1 took, saying which game took it (Xom 6)
    api(base_url, "POST", f"/games/{two['id']}/actions", two["judge_token"],
        {"type": "draw", "player": "p1", "count": 3})
    view = api(base_url, "GET", f"/games/{two['id']}", two["judge_token"])
    shock = next(c["id"] for c in view["cards"] if c["zone"] == "hand" and c["printed"] == "Shock")
    next_poll(pg)
    pg.locator(f'[data-card="{shock}"]').click()
    pg.locator("#name-input").press_sequentially("Chain")
    option = pg.locator('#name-listbox [role="option"]', has_text=said or "Chain Lightning")
    expect(option).to_have_attribute("aria-disabled", "true")
    expect(option).to_contain_text(words["taken_in"].format(game=one["id"]))


def test_the_form_fits_a_phone(kept_context, base_url):
    phone = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
    pg = kept_context(base_url, locale="fr-FR", **phone).page
    pg.goto("/console")
    for key in RULE_SETS:
        pg.locator(f"#rules-{key}").tap()
        expect(pg.locator(f"#rules-{key}")).to_be_checked()
        assert pg.evaluate("document.documentElement.scrollWidth") <= 360
    small = pg.evaluate("""() => [...document.querySelectorAll('#rules-set input, #series-select')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.id, e.getBoundingClientRect().height])
        .filter(([, h]) => h < 44)""")
    assert small == []  # touch-sized


@pytest.mark.parametrize("locale", LOCALES)
def test_a_new_series_may_be_named_on_the_start_page_and_is_shown_by_its_name(kept_context, base_url, locale):
    """Issue 32: the name field shows for a new series only; the game page and the console's list
    then say the series by its name, never its id."""
    pg = clocked(kept_context(base_url, locale=locale).page)
    pg.goto("/console")
    fill_players_and_deck(pg)
    pg.locator("#rules-xom").check()
    expect(pg.locator("#series-name")).to_be_hidden()
    pg.locator("#series-select").select_option("new")
    pg.locator("#series-name").fill("Mardis chez Ana")
    pg.locator("#start-game").click()
    game = started_game(pg, base_url)
    expect(pg.locator("#series h3")).to_contain_text("Mardis chez Ana")
    pg.goto("/console")
    expect(pg.locator("#my-series h3").first).to_contain_text("Mardis chez Ana")
    expect(pg.locator("#series-select")).to_contain_text("Mardis chez Ana")
    assert game["options"]["series"] not in pg.locator("#series-select").inner_text()


@pytest.mark.parametrize("locale", LOCALES)
def test_a_seat_of_a_xom_series_game_shows_the_names_its_earlier_games_took(kept_context, base_url, locale):
    """Issue 32: a phone holds no series token, yet its seat says which names the series took (Xom 6)."""
    series = api(base_url, "POST", "/series", None, {"rules": "xom"})
    made = [api(base_url, "POST", "/games", series["token"], {
        "players": [{"name": "Ana"}, {"name": "Ben"}], "library": ["Shock"] * 3, "series": series["id"],
        "shuffle": False}) for _ in range(2)]
    one, two = made
    draw = {"type": "draw", "player": "p1", "count": 1}
    api(base_url, "POST", f"/games/{one['id']}/actions", one["judge_token"], draw)
    card = next(c["id"] for c in api(base_url, "GET", f"/games/{one['id']}", one["judge_token"])["cards"]
                if c["zone"] == "hand")
    api(base_url, "POST", f"/games/{one['id']}/actions", one["judge_token"],
        {"type": "move", "player": "p1", "card": card, "to": "stack", "name": "Chain Lightning"})
    pg = kept_context(base_url, locale=locale).page
    pg.goto(f"{base_url}/games/{two['id']}#token={two['players'][1]['token']}")
    said = api(base_url, "GET", "/cards/Chain%20Lightning").get("french_name") if locale == "fr-FR" else None
    expect(pg.locator("#series-panel")).to_be_visible()
    expect(pg.locator("#series .series-names")).to_contain_text(said or "Chain Lightning")
    expect(pg.locator("#series h3")).to_contain_text(
        "Noms pris par les parties précédentes" if locale == "fr-FR" else "Names the series' earlier games took")
