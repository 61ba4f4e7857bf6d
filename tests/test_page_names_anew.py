"""The game page and MageRing's names anew (issue 25), in real headless Chromium over real HTTP: a
card that came back and was named anew shows its earlier name in its marks and card panel, to the
judge and to a seat that sees it, never to one that doesn't (D15), and the log says the name it
dropped; in English and French."""

from __future__ import annotations

import pytest
from browser import api, new_game
from playwright import sync_api


def renamed_game(base_url: str) -> tuple[dict, str]:
    """A MageRing game where Ana's Shock was Lightning Bolt, bounced, and is now Chain Lightning."""
    game = new_game(base_url, ["Shock", "Savannah Lions"], rules="magering")
    ana = game["players"][0]["token"]
    path = f"/games/{game['id']}/actions"
    cid = api(base_url, "POST", path, ana, {"type": "draw", "count": 1})["event"]["data"]["cards"][0]
    api(base_url, "POST", path, ana, {"type": "move", "card": cid, "to": "stack", "name": "Lightning Bolt"})
    api(base_url, "POST", path, ana, {"type": "move", "card": cid, "to": "hand"})
    api(base_url, "POST", path, ana, {"type": "move", "card": cid, "to": "stack", "name": "Chain Lightning"})
    return game, cid


@pytest.mark.parametrize(("locale", "before", "dropped"), [
    ("en-US", "named before: Lightning Bolt", "no longer named Lightning Bolt"),
    ("fr-FR", "nommée avant : Foudre", "n'est plus nommée Foudre"),
])
def test_a_card_named_anew_shows_its_earlier_name_and_the_log_says_it_was_dropped(kept_context, base_url, locale,
                                                                                 before, dropped):
    game, cid = renamed_game(base_url)
    pg = kept_context(base_url, locale=locale).page
    pg.goto(f"/games/{game['id']}#token={game['judge_token']}")
    card = pg.locator(f'[data-card="{cid}"]')
    sync_api.expect(card).to_contain_text(before)
    card.click()
    sync_api.expect(pg.locator("#card-facts")).to_contain_text(before)
    sync_api.expect(pg.locator("#log")).to_contain_text(dropped)


def test_a_seat_sees_no_earlier_name_of_a_card_hidden_from_it(kept_context, base_url):
    game, cid = renamed_game(base_url)
    ana = game["players"][0]["token"]
    api(base_url, "POST", f"/games/{game['id']}/actions", ana, {"type": "move", "card": cid, "to": "hand"})
    guarded = kept_context(base_url)
    ben = guarded.page
    ben.goto(f"/games/{game['id']}#token={game['players'][1]['token']}")
    sync_api.expect(ben.locator(".zone-hand .game-card")).to_have_count(1)
    assert "named before" not in ben.locator(".zone-hand").inner_text()
    ana_page = guarded.new_page()
    ana_page.goto(f"/games/{game['id']}#token={ana}")
    sync_api.expect(ana_page.locator(f'[data-card="{cid}"]')).to_contain_text("named before: Lightning Bolt, "
                                                                              "Chain Lightning")
