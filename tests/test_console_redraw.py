"""The game page while other clients act, in real headless Chromium over real HTTP: a bot's action
redraws the page on its next poll and the new state shows, while what the judge is typing, the focus
and the caret stay where they were (issue 22). One browser context for the module; its ``lang``
cookie picks each test's language."""

from __future__ import annotations

import pytest
from browser import Guarded, api, new_game
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
    api(base_url, "POST", f"/games/{game['id']}/line", game["judge_token"], {"line": "ana draw 1"})
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
    card = pg.locator(".zone-hand .game-card").first
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
    pg.close()
    guarded.check()
