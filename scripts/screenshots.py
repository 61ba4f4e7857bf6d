"""Screenshots of the console's main screens, desktop (1366×768) and phone (390×844), in French
and English: ``make screenshots`` writes docs/screenshots/*.png (referenced in the README).

The app runs on 127.0.0.1 over a throw-away copy of the card database (``make serve``'s, when it
exists, else imported from the card file as ``make serve`` would); a short game is played through
the API; Debian's chromium is driven by Playwright, and nothing is fetched from elsewhere.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright
from waitress.server import create_server

from mentalmagic.runtime import default_db_path
from mentalmagic.web import create_app

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
DECK = "Exalted Angel\nShock\nSavannah Lions\nGrizzly Bears\nGoblin Guide\nLlanowar Elves\nLightning Bolt\n" \
       "Boros Guildmage\nFire // Ice\nCounterspell\n"


def api(root: str, method: str, path: str, token: str | None = None, body: dict | None = None) -> dict:
    req = urllib.request.Request(f"{root}/api/v1{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as e:
        raise SystemExit(f"{method} {path}: {e.code} {e.read().decode()}") from None


def play(root: str) -> tuple[dict, dict]:
    """A three-player game a few actions in: draws, a named cast, a Pentaland, a morph, a reveal."""
    deck = api(root, "POST", "/decks", body={"name": "Cube du club", "list": DECK})
    game = api(root, "POST", "/games", body={"players": [{"name": "Ana"}, {"name": "Ben"}, {"name": "Cara"}],
                                             "deck": deck["id"], "shuffle": False})
    gid, judge = game["id"], game["judge_token"]

    def act(**action):
        return api(root, "POST", f"/games/{gid}/actions", judge, action)

    def card(name: str) -> str:
        return next(c["id"] for c in api(root, "GET", f"/games/{gid}", judge)["cards"] if c.get("printed") == name)

    act(type="draw", player="p1", count=3)
    act(type="draw", player="p2", count=3)
    act(type="draw", player="p3", count=2)
    act(type="move", player="p1", card=card("Shock"), to="stack", name="Lightning Bolt")
    act(type="move", player="p2", card=card("Grizzly Bears"), to="battlefield", pentaland=True)
    act(type="move", player="p1", card=card("Exalted Angel"), to="battlefield", face_down=True, via="morph")
    act(type="move", player="p2", card=card("Llanowar Elves"), to="battlefield", name="Birds of Paradise")
    act(type="reveal", player="p3", count=1)
    return game, deck


def shoot(browser, root: str, game: dict, lang: str) -> None:
    stored = {game["id"]: {"judge_token": game["judge_token"], "players": game["players"], "format": "vintage",
                           "created": "2026-11-23T14:00:00"}}
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        phone = label == "phone"
        ctx = browser.new_context(base_url=root, viewport=viewport, locale="fr-FR" if lang == "fr" else "en-US",
                                  is_mobile=phone, has_touch=phone, device_scale_factor=1)
        ctx.route(lambda url: not url.startswith(root), lambda route: route.abort())  # nothing leaves the machine
        pg = ctx.new_page()
        pg.goto("/console")
        pg.evaluate("g => localStorage.setItem('mentalmagic.games', JSON.stringify(g))", stored)
        pg.reload()
        pg.locator("#deck-list").fill("4 Shock\nLlanowar Elvs\nlions des savanes\n")
        pg.locator("#check-deck").click()
        pg.locator(".problem").first.wait_for()
        pg.screenshot(path=str(OUT / f"console-{lang}-{label}.png"), full_page=phone)
        pg.goto(f"/games/{game['id']}")
        pg.locator("#log li").nth(7).wait_for()
        pg.locator("#command-input").press_sequentially("ana lance " if lang == "fr" else "ana cast ")  # as typed
        pg.locator("#command-listbox").wait_for()  # the completions: the cards
        pg.screenshot(path=str(OUT / f"game-{lang}-{label}.png"), full_page=phone)
        pg.locator(".zone-battlefield .mark-facedown").first.click()
        pg.locator('#card-actions [data-action="face_up"]').click()
        pg.locator("#face-up-box .advice").wait_for()
        pg.locator("#card-panel").scroll_into_view_if_needed()
        pg.screenshot(path=str(OUT / f"face-up-{lang}-{label}.png"), full_page=False)
        seat = f"/games/{game['id']}#token={game['players'][1]['token']}"
        pg.goto("/console")
        pg.goto(seat)
        pg.locator("#seat").filter(has_text="Ben").wait_for()
        pg.screenshot(path=str(OUT / f"seat-{lang}-{label}.png"), full_page=phone)
        ctx.close()


def main() -> int:
    os.environ.setdefault("MENTALMAGIC_ACCESS_LOG", "0")
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "screens.sqlite"
        if default_db_path().is_file():  # `make serve`'s cards: no second import
            src, dst = sqlite3.connect(default_db_path()), sqlite3.connect(db)
            src.backup(dst)
            src.close()
            dst.close()
        else:
            print("importing the cards into a temporary database (about 25 s)…", file=sys.stderr)
        app = create_app({"DATABASE": str(db)})
        server = create_server(app, host="127.0.0.1", port=0, threads=4)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        root = f"http://127.0.0.1:{server.effective_port}"
        try:
            game, _deck = play(root)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
                for lang in ("fr", "en"):
                    shoot(browser, root, game, lang)
                browser.close()
        finally:
            server.close()
    for path in sorted(OUT.glob("*.png")):
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
