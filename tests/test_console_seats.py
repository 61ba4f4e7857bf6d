"""Seating the players (issue 31) in a real headless Chromium over real HTTP on loopback: a QR code per
seat on the judge's page that reads back as the seat's link, redrawn when a token is reissued; the
printable table sheet; the notice that phones can't join a server on loopback; a seat's page that says
it is reconnecting when it loses the server and catches up with no reload, keeps the screen awake
during the game, and fits a 360 px phone. The same over a real network: test_table_network.py."""

from __future__ import annotations

import re

import pytest
from browser import (
    WAKE_LOCK_SPY,
    api,
    assert_fits_a_phone,
    axe_violations,
    decoded,
    judge_page,
    keep_game,
    new_game,
    wake_locks,
)
from playwright import sync_api

LIBRARY = ["Shock", "Savannah Lions", "Grizzly Bears", "Goblin Guide", "Lightning Bolt", "Exalted Angel"]
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
expect = sync_api.expect


def seat_link(game: dict, base_url: str, who: str) -> str:
    token = next(p["token"] for p in game["players"] if p["name"] == who)
    return f"{base_url}/games/{game['id']}#token={token}"


def test_each_seat_has_a_code_of_its_link_redrawn_when_reissued(kept_context, base_url):
    pg = kept_context(base_url, viewport=LAPTOP).page
    game = judge_page(pg, base_url, LIBRARY, players=("Ana", "Ben"))
    codes = pg.locator("#links img.seat-code")
    expect(codes).to_have_count(2)
    for who, pid in (("Ana", "p1"), ("Ben", "p2")):
        code = pg.locator(f'#links li[data-player="{pid}"] img.seat-code')
        expect(code).to_have_attribute("src", re.compile("^data:image/svg\\+xml"))
        assert code.bounding_box()["width"] >= 200  # about 6 cm on a laptop's screen: read from across a table
        assert decoded(code) == seat_link(game, base_url, who)  # the token in the fragment, as the link has it
        assert pg.locator(f'#links a[data-player="{pid}"]').get_attribute("href") == seat_link(game, base_url, who)
    # served on loopback with no table address: the page says phones can't join, and how to fix it
    notice = pg.locator("#links-panel #phones-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("mentalmagic serve --table")
    expect(notice).to_contain_text("make table")
    # turned towards a player across the table: the code shown large, the same link
    pg.get_by_role("button", name="Show Ana's code large, to scan from across the table").click()
    large = pg.locator("#code-dialog img")
    expect(large).to_be_visible()
    expect(pg.locator("#code-title")).to_have_text("Ana: scan this code with your phone's camera")
    assert large.bounding_box()["width"] >= 500  # about 13 cm on a laptop's screen
    assert decoded(large) == seat_link(game, base_url, "Ana")
    pg.keyboard.press("Escape")
    expect(pg.locator("#code-dialog")).to_be_hidden()
    # a reissued token: its code redrawn, holding the new link; the other seat's unchanged
    before = decoded(pg.locator('#links li[data-player="p2"] img.seat-code'))
    pg.get_by_role("button", name="New token for Ben: the old link stops working").click()
    pg.locator("#confirm-yes").click()
    expect(pg.locator("#game-status")).to_contain_text("Ben has a new token")
    ben = pg.locator('#links li[data-player="p2"] img.seat-code')
    expect(ben).to_have_attribute("src", re.compile("^data:"))
    after = decoded(ben)
    assert after != before and after == pg.locator('#links a[data-player="p2"]').get_attribute("href")
    token = after.split("#token=")[1]
    assert api(base_url, "GET", f"/games/{game['id']}", token)["you"] == "p2"
    assert decoded(pg.locator('#links li[data-player="p1"] img.seat-code')) == seat_link(game, base_url, "Ana")


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_table_sheet_prints_every_seat(kept_context, base_url, locale):
    pg = kept_context(base_url, viewport=LAPTOP, locale=locale).page
    game = new_game(base_url, LIBRARY, players=("Ana", "Ben", "Cara"))
    keep_game(pg, game, at="/static/favicon.svg")
    pg.goto(f"/games/{game['id']}/sheet")
    seats = pg.locator("#sheet-seats li.sheet-seat")
    expect(seats).to_have_count(3)
    for who in ("Ana", "Ben", "Cara"):
        seat = pg.locator("li.sheet-seat", has=pg.get_by_role("heading", name=who, exact=True))
        code = seat.locator("img.seat-code")
        expect(code).to_have_attribute("src", re.compile("^data:image/svg\\+xml"))
        assert decoded(code) == seat_link(game, base_url, who)
        expect(code).to_have_attribute("alt", re.compile(who))
    expect(pg.locator("#sheet-title")).to_have_text("Scannez votre place" if locale == "fr-FR" else "Scan your seat")
    assert axe_violations(pg) == []
    pg.emulate_media(media="print")  # on paper: the codes, not the buttons or the language switch
    try:
        expect(pg.locator("#print-sheet")).to_be_hidden()
        expect(pg.locator(".lang-switch")).to_be_hidden()
        expect(seats.first.locator("img.seat-code")).to_be_visible()
    finally:
        pg.emulate_media(media="screen")


def test_the_sheet_without_tokens_says_where_they_are(kept_context, base_url):
    pg = kept_context(base_url, viewport=LAPTOP).page
    game = new_game(base_url, LIBRARY)
    pg.goto(f"/games/{game['id']}/sheet")
    expect(pg.locator("#sheet-status")).to_contain_text("keeps no player's token")
    expect(pg.locator("img.seat-code")).to_have_count(0)


def test_the_start_page_on_loopback_says_phones_cant_join(kept_context, base_url):
    pg = kept_context(base_url, viewport=PHONE, locale="fr-FR").page
    pg.goto("/console")
    notice = pg.locator("#phones-notice")
    expect(notice).to_contain_text("Les téléphones ne peuvent pas rejoindre cette partie.")
    expect(notice).to_contain_text("mentalmagic serve --table")
    assert_fits_a_phone(pg)


@pytest.mark.parametrize("locale, words", [("en-US", "Reconnecting…"), ("fr-FR", "Reconnexion…")])
def test_a_seat_that_loses_the_server_says_so_and_catches_up(kept_context, base_url, locale, words):
    guarded = kept_context(base_url, viewport=PHONE, locale=locale, is_mobile=True, has_touch=True)
    seat = guarded.new_page()
    seat.add_init_script(WAKE_LOCK_SPY)
    game = new_game(base_url, LIBRARY, players=("Ana", "Ben"))
    seat.goto(seat_link(game, base_url, "Ana"))
    expect(seat.locator("#seat")).to_contain_text("Ana")
    assert_fits_a_phone(seat)
    seat.wait_for_function("() => (window.__locks || []).length > 0")
    assert wake_locks(seat) == [False]  # the screen kept awake during the game
    seat.evaluate("window.__same = 'no reload'")
    guarded.context.set_offline(True)  # the phone loses the laptop
    try:
        expect(seat.locator("#game-status")).to_contain_text(words)
        api(base_url, "POST", f"/games/{game['id']}/line", game["judge_token"], {"line": "ana draw 2"})
    finally:
        guarded.context.set_offline(False)
    expect(seat.locator(".zone-hand .card-list li")).to_have_count(2)  # caught up by its own polls
    expect(seat.locator("#game-status")).not_to_contain_text(words)
    assert seat.evaluate("window.__same") == "no reload"
    api(base_url, "POST", f"/games/{game['id']}/actions", game["judge_token"], {"type": "end_game"})
    expect(seat.locator("#game-end")).to_be_visible()
    seat.wait_for_function("() => window.__locks.every((l) => l.released)")
    assert wake_locks(seat) == [True]  # the game over: the screen may sleep, and no other lock was asked for
