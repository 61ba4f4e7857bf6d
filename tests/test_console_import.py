"""A game from another laptop on the console's start page (issue 31), in a real headless Chromium, in
French and English: the judge chooses the game's export (the game page's JSON, downloaded), imports
it, and sees the new game's link and each player's new seat link; an altered record is refused
citing its event and rule, in the page's language, and nothing is kept."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser import api, judge_page, new_game
from playwright import sync_api

expect = sync_api.expect
LIBRARY = ["Shock", "Lightning Bolt", "Savannah Lions", "Grizzly Bears"]
WORDS = {
    "en-US": {"import": "Import the game", "imported": "Imported: 3 events replayed, every one legal under the rules.",
              "open": "Open the imported game", "refused": "event 3 (move) is refused"},
    "fr-FR": {"import": "Importer la partie",
              "imported": "Importée : 3 évènements rejoués, tous légaux selon les règles.",
              "open": "Ouvrir la partie importée", "refused": "l’évènement 3 (move) est refusé"},
}


def _record(base_url: str) -> tuple[dict, dict]:
    """A game of three events and its judge's whole record."""
    game = new_game(base_url, LIBRARY)
    judge = game["judge_token"]
    shock = api(base_url, "POST", f"/games/{game['id']}/actions", judge, {"type": "draw", "player": "p1", "count": 2})
    shock, _bolt = shock["event"]["data"]["cards"]
    api(base_url, "POST", f"/games/{game['id']}/actions", judge, {"type": "draw", "player": "p2", "count": 1})
    api(base_url, "POST", f"/games/{game['id']}/actions", judge,
        {"type": "move", "player": "p1", "card": shock, "to": "stack", "name": "Chain Lightning"})
    return game, api(base_url, "GET", f"/games/{game['id']}/export", judge)


@pytest.mark.parametrize("locale", WORDS)
def test_the_judge_imports_a_game_exported_elsewhere_and_sees_the_new_seat_links(kept_context, base_url, tmp_path,
                                                                                  locale):
    w = WORDS[locale]
    game, record = _record(base_url)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    pg = kept_context(base_url, locale=locale).page
    pg.goto("/console")
    pg.locator("#import-file").set_input_files(str(path))
    pg.get_by_role("button", name=w["import"]).click()
    expect(pg.locator("#import-status")).to_contain_text(w["imported"])
    links = pg.locator("#imported-seats a.seat-link")
    expect(links).to_have_count(2)
    expect(pg.locator("#imported-seats li strong")).to_have_text(["Ana", "Ben"])
    new_id = pg.locator("#imported-game").get_attribute("href").split("/games/")[1]
    assert new_id != game["id"]
    old_tokens = {p["token"] for p in game["players"]}
    for i in range(2):
        href = links.nth(i).get_attribute("href")
        assert re.fullmatch(rf"{re.escape(base_url)}/games/{new_id}#token=[\w-]+", href), href
        assert href.split("#token=")[1] not in old_tokens  # new tokens
    # the seat link opens the player's seat of the imported game, at the imported game's last event
    seat = api(base_url, "GET", f"/games/{new_id}", links.nth(0).get_attribute("href").split("#token=")[1])
    assert seat["you"] == "p1" and seat["seq"] == 3
    pg.get_by_role("link", name=w["open"]).click()
    expect(pg.locator("#players li")).to_have_count(2)  # the judge's page: this browser kept the new token
    expect(pg.locator("#players")).to_contain_text("Ana")

    # an altered record: the name given at event 3 changed to one the printed card can't take
    record["events"][2]["data"]["naming"]["name"] = "Savannah Lions"
    path.write_text(json.dumps(record), encoding="utf-8")
    pg.goto("/console")
    pg.locator("#import-file").set_input_files(str(path))
    pg.get_by_role("button", name=w["import"]).click()
    expect(pg.locator("#import-status")).to_contain_text(w["refused"])
    expect(pg.locator("#import-status")).to_contain_text("704.1")
    expect(pg.locator("#imported")).to_be_hidden()


def test_the_judges_json_export_on_the_game_page_is_the_whole_record(kept_context, base_url):
    pg = kept_context(base_url).page
    game = judge_page(pg, base_url, LIBRARY)
    with pg.expect_download() as got:
        pg.locator("#export-json").click()
    record = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
    assert record["export"] == "mentalmagic-game" and record["id"] == game["id"]
    assert [c[1] for c in record["setup"]["library"]] == LIBRARY and "secret" not in record["setup"]
