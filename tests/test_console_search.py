"""The console's naming menu and its command line find a name by a search (docs/search.md): the judge
finds a free Goblin with `t:goblin is:free`, in real Chromium over the mini pool."""

from __future__ import annotations

import re
import urllib.parse

from browser import api, judge_page, printed_ids
from playwright import sync_api

LAPTOP = {"width": 1366, "height": 768}


def test_the_judges_menu_finds_a_free_goblin_by_a_search(kept_context, base_url):
    pg = kept_context(base_url, viewport=LAPTOP).page
    game = judge_page(pg, base_url, ["Shock", "Shock", "Shock"])
    gid, judge = game["id"], game["judge_token"]
    api(base_url, "POST", f"/games/{gid}/actions", judge, {"type": "draw", "player": "p1", "count": 2})
    first, second = printed_ids(api(base_url, "GET", f"/games/{gid}", judge), "Shock", "hand")[:2]
    api(base_url, "POST", f"/games/{gid}/actions", judge,
        {"type": "move", "player": "p1", "card": first, "to": "stack", "name": "Goblin Guide"})  # taken (704.2)
    asked = urllib.parse.urlencode({"printed": "Shock", "game": gid, "q": "t:goblin is:free"})
    free = [c["name"] for c in api(base_url, "GET", f"/candidates?{asked}")["candidates"]]
    assert free and "Goblin Guide" not in free
    pg.reload()
    sync_api.expect(pg.locator("#names li")).to_contain_text("Goblin Guide")

    pg.locator(f'[data-card="{second}"]').click()
    box = pg.locator("#name-input")
    box.press_sequentially("t:goblin is:free")
    options = pg.locator("#name-listbox [role=option]")
    sync_api.expect(options).to_have_count(len(free))
    sync_api.expect(options.first).to_contain_text(free[0])
    assert "Goblin Guide" not in " ".join(options.all_inner_texts())
    box.press("ArrowDown")
    box.press("Enter")
    sync_api.expect(box).to_have_value(free[0])

    line = pg.locator("#command-input")  # the command line completes a name by the same search
    handle = pg.locator(f'[data-card="{second}"] .handle').inner_text()
    line.press_sequentially(f"ana cast {handle} as t:goblin is:free")
    sync_api.expect(pg.get_by_role("option", name=re.compile(re.escape(free[0])))).to_be_visible()
    line.press("Tab")
    sync_api.expect(line).to_have_value(f"ana cast {handle} as {free[0]}")
