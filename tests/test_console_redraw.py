"""The game page while other clients act, in real headless Chromium over real HTTP: a bot's action
redraws the page on its next poll and the new state shows, while what the judge is typing, the focus
and the caret stay where they were, an open dialog too (issue 22). And the dialog that asks before a
player leaves names the leaver's face-down cards (D12, issue 21): a field a card with the page's
name completion, a name the card can't take refused with its rule and nothing recorded, in English
by the Leave button and in French from the command line, by the keyboard alone. One browser context
for the module; its ``lang`` cookie picks each test's language."""

from __future__ import annotations

import re

import pytest
from browser import Guarded, api, axe_violations, command, new_game
from playwright import sync_api

expect = sync_api.expect
COMMANDERS = [{"name": "Ana", "commander": "Krenko, Mob Boss"}, {"name": "Ben", "commander": "Mayael the Anima"}]
CARET = "el => [el.selectionStart, el.selectionEnd]"


@pytest.fixture(scope="module")
def guarded(browser, base_url):
    """One context for every test of the module (a page each): each test checks it at its end."""
    with Guarded(browser, base_url, bypass_csp=True) as g:  # bypass_csp: axe's script is injected
        yield g


def open_game(guarded, game: dict, lang: str = "en"):
    """``game``'s page as its judge (the token in the link), in ``lang``."""
    guarded.context.add_cookies([{"name": "lang", "value": lang, "url": guarded.base_url}])
    pg = guarded.new_page()
    pg.goto(f"/games/{game['id']}#token={game['judge_token']}")
    expect(pg.locator("#players > li")).to_have_count(len(game["players"]))
    return pg


def another_client(pg, base_url: str, game: dict, line: str):
    """``line`` recorded by another client (a bot with the judge's token); back once the page drew it."""
    log = pg.locator("#log li")
    n = log.count()
    api(base_url, "POST", f"/games/{game['id']}/line", game["judge_token"], {"line": line})
    expect(log).to_have_count(n + 1)


def test_a_redraw_keeps_the_judges_typing_focus_and_caret(guarded, base_url):
    game = new_game(base_url, ["Lightning Bolt", "Shock", "Savannah Lions", "Grizzly Bears"], players=COMMANDERS,
                    format="commander")
    for line in ("ana draw 1", "ana cast 5", "ana play 5"):  # Krenko, #5, onto the battlefield (903.10a)
        api(base_url, "POST", f"/games/{game['id']}/line", game["judge_token"], {"line": line})
    pg = open_game(guarded, game)
    ana, ben = pg.locator("#players > li").nth(0), pg.locator("#players > li").nth(1)
    # the judge half types a name in the card panel, a line, and Ben's commander damage (903.10a)...
    pg.locator(".zone-hand .game-card").first.click()
    pg.locator("#name-input").fill("Goblin")
    line = pg.locator("#command-input")
    line.fill("ana draw 2")
    amount = pg.locator("#damage-n-p2")
    amount.fill("")
    amount.press_sequentially("2")
    # ...when a bot's action makes a new version: the page shows it...
    another_client(pg, base_url, game, "ana draw 1")
    expect(ana).to_contain_text("2 cards in hand")
    # ...and each field keeps what was typed, the amount its focus and caret: typing goes on
    expect(amount).to_be_focused()
    expect(amount).to_have_value("2")
    pg.keyboard.type("1")
    expect(amount).to_have_value("21")
    expect(pg.locator("#name-input")).to_have_value("Goblin")
    expect(line).to_have_value("ana draw 2")
    # a card reached by the keyboard keeps the focus as the lists are drawn anew
    card = pg.locator(f'[data-card="{pg.locator(".zone-hand .game-card").first.get_attribute("data-card")}"]')
    card.focus()
    another_client(pg, base_url, game, "ben draw 1")
    expect(ben).to_contain_text("1 card in hand")
    expect(card).to_be_focused()
    # the caret inside a line being edited stays where the judge put it
    line.focus()
    line.press("Home")
    line.press("ArrowRight")
    another_client(pg, base_url, game, "ana draw 1")
    expect(line).to_be_focused()
    assert line.evaluate(CARET) == [1, 1]
    expect(amount).to_have_value("21")
    # an amount recorded is done with: the form is drawn afresh
    amount.fill("3")
    amount.press("Enter")
    expect(ben).to_contain_text("3 combat damage from")
    expect(amount).to_have_value("")  # empty again (issue 35: a "1" left there made a typed 10 read 110)
    expect(amount).to_have_attribute("placeholder", "e.g. 7")
    pg.close()
    guarded.check()


def leaver_game(base_url: str) -> tuple[dict, str]:
    """Ana has played her Lightning Bolt face down: leaving, it is turned up and named as a {R} morph
    (Goblin Taskmaster or Warbreak Trumpeter; 705.4, D13(d))."""
    game = new_game(base_url, ["Lightning Bolt", "Shock", "Savannah Lions"])
    for line in ("ana draw 1", "ana play 1 via morph"):
        event = api(base_url, "POST", f"/games/{game['id']}/line", game["judge_token"], {"line": line})["event"]
    return game, event["data"]["card"]


def recorded(base_url: str, game: dict) -> list[dict]:
    return api(base_url, "GET", f"/games/{game['id']}/events", game["judge_token"])["events"]


def named_as(base_url: str, game: dict, card: str):
    cards = api(base_url, "GET", f"/games/{game['id']}", game["judge_token"])["cards"]
    return next((c["zone"], c["named_as"]) for c in cards if c["id"] == card)


def test_the_leave_button_asks_the_names_of_the_leavers_face_down_cards_in_its_dialog(guarded, base_url):
    game, morph = leaver_game(base_url)
    pg = open_game(guarded, game)
    pg.get_by_role("button", name="Ana leaves the game (D9)").click()
    dialog = pg.get_by_role("dialog", name="Ana leaves the game (D9)")
    field = dialog.get_by_role("combobox", name="Name of card #1 Lightning Bolt")
    expect(field).to_be_focused()
    expect(dialog).to_contain_text("each is turned face up and named as it goes")
    assert axe_violations(pg) == []
    # a name half typed in the dialog outlives another client's action: open, as it was, its caret kept
    field.press_sequentially("Sho")
    field.press("ArrowLeft")
    another_client(pg, base_url, game, "ben draw 1")
    expect(dialog).to_be_visible()
    expect(field).to_be_focused()
    expect(field).to_have_value("Sho")
    assert field.evaluate(CARET) == [2, 2]
    before = recorded(base_url, game)
    # a name the card can't take (no morph: 705.4, D13(d)): refused with its rule, nothing recorded
    field.press("End")
    field.press_sequentially("ck")
    dialog.get_by_role("option", name=re.compile("^Shock")).click()  # a candidate of its cost, not of a morph
    dialog.get_by_role("button", name="Check the names").click()
    refusal = dialog.get_by_role("status")
    expect(refusal).to_contain_text("Refused; nothing changed.")
    expect(refusal).to_contain_text("Shock has no morph")
    expect(refusal.locator("abbr.rule")).to_have_text("rule 705.4")
    expect(field).to_have_attribute("aria-invalid", "true")
    assert recorded(base_url, game) == before
    # one the completion offers, checked: what follows shows, and the judge records it
    field.fill("Gob")
    dialog.get_by_role("option", name=re.compile("^Goblin Taskmaster")).click()
    expect(field).to_have_value("Goblin Taskmaster")
    dialog.get_by_role("button", name="Check the names").click()
    expect(dialog).to_contain_text("Ben wins")
    assert recorded(base_url, game) == before
    dialog.get_by_role("button", name="Yes, record it").click()
    expect(dialog).to_be_hidden()
    expect(pg.locator("#log li").first).to_contain_text("Ana leaves the game")
    assert named_as(base_url, game, morph) == ("removed", "Goblin Taskmaster")
    pg.close()
    guarded.check()


def test_the_command_line_asks_the_same_names_in_french_by_the_keyboard(guarded, base_url):
    game, morph = leaver_game(base_url)
    pg = open_game(guarded, game, "fr")
    command(pg, "ana quitte")
    dialog = pg.get_by_role("dialog", name="ana quitte")
    field = dialog.get_by_role("combobox", name="Nom de la carte #1 Foudre")
    expect(field).to_be_focused()
    before = recorded(base_url, game)
    pg.keyboard.type("Choc")
    pg.keyboard.press("Enter")  # Enter checks the names, as the button does
    refusal = dialog.get_by_role("status")
    expect(refusal).to_contain_text("Refusé ; rien n’a changé.")
    expect(refusal).to_contain_text("Choc : pas de mue ; une carte retournée face visible par un effet")
    expect(refusal.locator("abbr.rule")).to_have_text("règle 705.4")
    expect(field).to_be_focused()
    assert recorded(base_url, game) == before
    pg.keyboard.press("Control+A")
    pg.keyboard.type("surv")
    expect(dialog.get_by_role("option", name=re.compile("^Surveillant gobelin"))).to_be_visible()
    pg.keyboard.press("ArrowDown")
    pg.keyboard.press("Enter")
    expect(field).to_have_value("Surveillant gobelin")
    pg.keyboard.press("Enter")
    expect(dialog).to_contain_text("Ben gagne")
    expect(dialog.get_by_role("button", name="Oui, l’enregistrer")).to_be_focused()
    pg.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    expect(pg.locator("#log li").first).to_contain_text("Ana quitte la partie")
    expect(pg.locator("#command-input")).to_have_value("")
    assert named_as(base_url, game, morph) == ("removed", "Goblin Taskmaster")
    pg.close()
    guarded.check()
