"""Every way out reads alike on the game page (issue 21's leftover), in real headless Chromium, in
English and French: a player a leaver's face-down card costs the game (D8), and a second one, are each
out for their own reason, the leaver for leaving; the log's line of the departure says both losses."""

from __future__ import annotations

import pytest
from browser import api, new_game
from playwright import sync_api

WORDS = {
    "en-US": {"d8": "loses the game: no legal name remains for this face-down card", "left": "Bob leaves the game"},
    "fr-FR": {"d8": "perd la partie : il ne reste aucun nom légal pour cette carte face cachée",
              "left": "Bob quitte la partie"},
}


@pytest.mark.parametrize("locale", list(WORDS))
def test_each_player_out_says_why_when_a_leavers_cards_cost_two_players_the_game(kept_context, base_url, locale):
    # Savannah Lions played face down: the mini pool has no {W} morph card to name it (D8)
    game = new_game(base_url, ["Savannah Lions", "Savannah Lions", "Shock"], players=("Ana", "Bob", "Cid", "Dee"))
    for line in ("ana draw 1", "ana play 1 via morph", "bob move 1 to battlefield", "cid draw 1",
                 "cid play 2 via morph", "bob move 2 to battlefield", "bob leave"):
        api(base_url, "POST", f"/games/{game['id']}/line", game["judge_token"], {"line": line})
    pg = kept_context(base_url, locale=locale).page
    pg.goto(f"/games/{game['id']}#token={game['judge_token']}")  # the judge's view
    players = pg.locator("#players > li")
    sync_api.expect(players).to_have_count(4)
    for i in (0, 2):  # Ana and Cid: each their own D8 loss, with its rule
        sync_api.expect(players.nth(i).locator(".out-reason")).to_contain_text(WORDS[locale]["d8"])
        sync_api.expect(players.nth(i).locator(".out-reason abbr")).to_contain_text("705.4a")
    sync_api.expect(players.nth(1).locator(".out-reason")).to_contain_text(WORDS[locale]["left"])
    sync_api.expect(players.nth(3).locator(".out-reason")).to_have_count(0)  # Dee plays on
    last = pg.locator("#log li").first  # the newest first
    sync_api.expect(last).to_contain_text(f"Ana {WORDS[locale]['d8']}")
    sync_api.expect(last).to_contain_text(f"Cid {WORDS[locale]['d8']}")
