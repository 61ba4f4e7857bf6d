"""A French table (issue 19) in a real headless Chromium: a deck naming "Masque illusoire", a
three-player game driven by French commands, a 704.2 refusal worded in French with the French
card name and its rule's short text, the catalogue's elision; the same refusal in English reads
no French; so does a 903.5c refusal at a Commander table. (The whole game, morph and game end
included, is test_console_whole_game.py.)
"""

from __future__ import annotations

import re
import urllib.parse

from browser import api, command, foreign_lines, judge_page, printed_ids
from playwright import sync_api

LIBRARY = ["Shock", "Shock", "Savannah Lions", "Elite Vanguard", "Grizzly Bears", "Goblin Guide"]
FRENCH_WORDS = re.compile(r"\b(est|déjà|une|carte|partie|Refusé|rien|changé|règle)\b")


LAPTOP = {"width": 1366, "height": 768}


def _game_page(kept_context, base_url, locale: str):
    """The module's page in ``locale`` (conftest.py's kept_context), on a new three-player game."""
    pg = kept_context(base_url, locale=locale, viewport=LAPTOP).page
    judge_page(pg, base_url, LIBRARY, ["Ana", "Ben", "Cara"])
    return pg


def test_a_deck_naming_masque_illusoire_loads_it_and_flags_it_banned(kept_context, base_url):
    pg = kept_context(base_url, locale="fr-FR", viewport=LAPTOP).page
    pg.goto("/console")
    pg.locator("#deck-list").fill("1 Masque illusoire\n2 Choc\n")
    pg.locator("#check-deck").click()
    report = pg.locator("#deck-report")
    sync_api.expect(report).to_contain_text("706.4")
    sync_api.expect(pg.locator(".problem")).to_have_count(0)  # recognised, never dropped
    sync_api.expect(report).to_contain_text("3")


def test_a_refusal_at_a_french_table_is_french_with_french_names_and_the_rules_short_text(
        kept_context, base_url):
    pg = _game_page(kept_context, base_url, "fr-FR")
    expect = sync_api.expect
    expect(pg.locator("html")).to_have_attribute("lang", "fr")
    command(pg, "ana pioche 2")
    expect(pg.locator("#log li")).to_have_count(1)
    expect(pg.locator(".zone-hand h4", has_text="Ana")).to_have_text(re.compile("^Main d’Ana$"))  # elided
    command(pg, "ana lance 1 comme Foudre")
    expect(pg.locator("#log li")).to_have_count(2)
    expect(pg.locator("#names li")).to_contain_text("Foudre")  # the names taken, in French
    expect(pg.locator("#log li").first).to_contain_text("Foudre")  # and the log
    expect(pg.locator("#log li").first).not_to_contain_text("Lightning Bolt")
    command(pg, "ana lance 2 comme foudre")
    status = pg.locator("#command-status")
    expect(status).to_contain_text("Foudre est déjà le nom d’une autre carte de cette partie")
    expect(status).not_to_contain_text("Lightning Bolt")
    expect(status).not_to_contain_text(" is ")
    rule = status.locator("abbr.rule")
    expect(rule).to_have_text("règle 704.2")
    assert rule.get_attribute("title") == "deux cartes ne portent jamais le même nom (sauf 705.4a)"
    expect(pg.locator("#log li")).to_have_count(2)  # nothing changed


def test_the_same_refusal_at_an_english_table_reads_no_french(kept_context, base_url):
    pg = _game_page(kept_context, base_url, "en-US")
    expect = sync_api.expect
    command(pg, "ana draw 2")
    expect(pg.locator("#log li")).to_have_count(1)
    command(pg, "ana cast 1 as Lightning Bolt")
    expect(pg.locator("#log li")).to_have_count(2)
    command(pg, "ana cast 2 as lightning bolt")
    status = pg.locator("#command-status")
    expect(status).to_contain_text("Lightning Bolt is already the name of another card in this game")
    assert not FRENCH_WORDS.search(status.inner_text()), status.inner_text()
    assert status.locator("abbr.rule").get_attribute("title") == "two cards never share a name (but for 705.4a)"


# 903.5c at a Commander table: Ben's commander is Mayael (red, green, white); Boomerang is blue.
COMMANDERS = [{"name": "Ana", "commander": "Krenko, Mob Boss"}, {"name": "Ben", "commander": "Mayael the Anima"}]
COMMANDER_NAMES = re.compile(r"Mayael the Anima|Mayael l'Anima|Boomerang")
OUTSIDE = {  # the refusal, and the rule's short text on its number, in the page's language
    "fr-FR": (("identité couleur de la carte Boomerang (en) : {U}",  # the data has no French name for it
               "celle de Mayael l'Anima : {W}{R}{G}"), "règle 903.5c",
              "un joueur ne nomme que des cartes comprises dans l’identité couleur de son commandant"),
    "en-US": (("Boomerang's colour identity is {U}", "Mayael the Anima's is {W}{R}{G}"), "rule 903.5c",
              "a player names only cards within their commander's colour identity"),
}


def refused_outside_the_identity(kept_context, base_url, locale: str) -> str:
    """Ben's Counterspell named Boomerang at a Commander table: refused by 903.5c, nothing recorded;
    the refusal's text."""
    words, rule_words, short_text = OUTSIDE[locale]
    expect = sync_api.expect
    pg = kept_context(base_url, locale=locale, viewport=LAPTOP).page
    game = judge_page(pg, base_url, ["Counterspell", "Shock"], COMMANDERS, format="commander")
    command(pg, "ben pioche 1" if locale == "fr-FR" else "ben draw 1")
    expect(pg.locator("#log li")).to_have_count(1)
    drawn = printed_ids(api(base_url, "GET", f"/games/{game['id']}", game["judge_token"]), "Counterspell", "hand")
    handle = pg.locator(f'[data-card="{drawn[0]}"] .handle').inner_text()
    command(pg, f"ben lance {handle} comme Boomerang" if locale == "fr-FR" else f"ben cast {handle} as Boomerang")
    status = pg.locator("#command-status")
    expect(status).to_have_class(re.compile("is-error"))
    for said in words:
        expect(status).to_contain_text(said)
    rule = status.locator("abbr.rule")
    expect(rule).to_have_text(rule_words)
    assert rule.get_attribute("title") == short_text
    expect(pg.locator("#log li")).to_have_count(1)  # nothing changed: no cast, no name taken
    expect(pg.locator("#names")).not_to_contain_text("Boomerang")
    taken = api(base_url, "GET", f"/games/{game['id']}/names", game["judge_token"])["names"]
    assert [n["rule"] for n in taken] == ["D14(e)", "D14(e)"]  # the commanders' names alone
    return status.inner_text()


def test_a_name_outside_the_commanders_identity_is_refused_in_french_with_the_rules_short_text(kept_context, base_url):
    text = refused_outside_the_identity(kept_context, base_url, "fr-FR")
    assert foreign_lines(text, "fr", COMMANDER_NAMES) == [], text  # no English sentence
    assert "Mayael the Anima" not in text  # the commander's French name, which the data has


def test_the_same_identity_refusal_at_an_english_table_reads_no_french(kept_context, base_url):
    text = refused_outside_the_identity(kept_context, base_url, "en-US")
    assert foreign_lines(text, "en", COMMANDER_NAMES) == [], text
    assert not FRENCH_WORDS.search(text), text


ENGLISH_FOOTER = re.compile(r"printed after|embedded:|\bde embedded\b")


def test_the_lookup_page_in_french_reads_french_around_the_form_and_in_the_footer(kept_context, snapshot_url):
    # the snapshot's own gaps, worded in the footer: the mini pool is known to lack none
    pg = kept_context(snapshot_url, locale="fr-FR", viewport=LAPTOP).page
    expect = sync_api.expect
    pg.goto("/")
    expect(pg.locator("html")).to_have_attribute("lang", "fr")
    footer = pg.locator("footer")
    expect(footer).to_contain_text("noms français des cartes imprimées après octobre 2018")
    expect(footer).to_contain_text("cartes ; source :")  # never "cartes de embedded: …"
    expect(footer).to_contain_text("API :")
    assert not ENGLISH_FOOTER.search(footer.inner_text())
    expect(pg.locator("footer .lacks li").first).to_have_attribute("lang", "fr")
    expect(pg.locator("#type-input")).to_have_attribute("placeholder", "créature")
    expect(pg.locator("#keyword-input")).to_have_attribute("placeholder", "mue")
    expect(pg.locator("#cost-input")).to_have_attribute("placeholder", re.compile("aucun$"))
    expect(pg.locator("#format-select option[value=all]")).to_have_text("tous")
    pg.locator("button[data-action=none]").click()
    expect(pg.locator("#cost-input")).to_have_value("aucun")  # a word the cost readers take


def test_the_french_keyword_and_type_words_filter_as_the_english_ones(base_url):
    def count(cost: str = "{4}{W}{W}", **args) -> int:
        return api(base_url, "GET", "/candidates?" + urllib.parse.urlencode({"cost": cost, **args}))["count"]

    morph = count(keyword="morph")
    assert morph > 0
    assert count(keyword="mue") == morph  # the console's word for morph
    assert count(keyword="Mégamue") == count(keyword="megamorph")
    assert count(type="créature") == count(type="creature") > 0
    assert count(type="éphémère", keyword="mue") == count(type="instant", keyword="morph")
    assert count(cost="aucun") == count(cost="none") > 0


def test_a_french_page_completes_a_card_name_in_french(kept_context, base_url):
    pg = _game_page(kept_context, base_url, "fr-FR")
    command(pg, "ana pioche 2")
    sync_api.expect(pg.locator("#log li")).to_have_count(1)
    box = pg.locator("#command-input")
    box.press_sequentially("ana lance 1 comme Lightning Bo")
    sync_api.expect(pg.get_by_role("option", name="Foudre")).to_be_visible()  # the French name first
    pg.keyboard.press("Tab")
    sync_api.expect(box).to_have_value("ana lance 1 comme Foudre")


def test_the_type_line_the_data_has_in_english_only_is_marked_english_on_a_french_page(kept_context, base_url):
    for locale, marked in (("fr-FR", True), ("en-GB", False)):
        pg = kept_context(base_url, locale=locale, viewport=LAPTOP).page
        pg.goto("/?printed=Shock&by=printed")
        type_line = pg.locator("#printed-card .type-line").first
        sync_api.expect(type_line).to_contain_text("Instant")
        sync_api.expect(type_line.locator("[lang=en]")).to_have_text("Instant")
        row_type = pg.locator("#candidates .cand .c-type").first
        sync_api.expect(row_type.locator("[lang=en]")).to_be_visible()
        if marked:
            sync_api.expect(type_line).to_contain_text("(en)")
            sync_api.expect(row_type).to_contain_text("(en)")
        else:
            sync_api.expect(pg.locator(".lang-mark")).to_have_count(0)
