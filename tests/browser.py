"""The pages in a real headless Chromium over real HTTP, for every page test.

Debian's chromium driven through Playwright (never `playwright install`: nothing is downloaded),
started once per session (per xdist worker) by conftest.py's ``browser`` fixture. A page lives in a
``Guarded`` context: every request to another host refused and failing the test, as does any
uncaught script error. A test either opens its own context, or asks conftest.py's ``kept_context``
for the module's context of the same options, kept from test to test (a context's first page costs
Chromium a new renderer process and a cold load of the page's modules, more than most checks cost)
and emptied between tests: its cookies, the app's storage, every page but the first, the page itself
left on about:blank. The app is served by waitress on 127.0.0.1 (conftest.py's ``base_url``: one
server per module over the module's ``app``).
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import socket
import urllib.parse
import urllib.request
import weakref
from pathlib import Path

import pytest
from playwright import sync_api

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
TIMEOUT_MS = 15_000
CONTEXT = {"viewport": {"width": 1280, "height": 900}, "locale": "en-US"}  # a context's options unless told
AXE = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"


def chromium():
    """Debian's Chromium, launched headless for as long as the generator is open.

    Nothing may leave the machine: every request to a host other than 127.0.0.1 goes to a proxy that
    refuses it, a loopback port bound for the session and never listened on (Chromium's own setting:
    Playwright's routes would pause every request of the app in its driver, a quarter of the CPU a
    page load costs)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium")
    with socket.socket() as nowhere, sync_api.sync_playwright() as p:
        nowhere.bind(("127.0.0.1", 0))
        proxy = {"server": f"http://127.0.0.1:{nowhere.getsockname()[1]}", "bypass": "127.0.0.1"}
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, proxy=proxy)
        try:
            yield b
        finally:
            b.close()


class Guarded:
    """A browser context where any request to another host is recorded (and refused: ``chromium``),
    and any uncaught script error recorded: ``check()`` fails the test on either.

    As a context manager it closes the context, then checks (unless the block failed first)."""

    def __init__(self, browser, base_url: str, **options):
        self.context = browser.new_context(base_url=base_url, **{**CONTEXT, **options})
        self.context.set_default_timeout(TIMEOUT_MS)
        self.outside: list[str] = []
        self.errors: list[str] = []
        elsewhere = re.compile(f"^(?!{re.escape(base_url)}(?:[/?#]|$)|data:)")
        self.context.on("request", lambda r: self.outside.append(r.url) if elsewhere.match(r.url) else None)
        # asked and not answered yet: what a page still waits for, told by a failure (``waiting``)
        self.context.pending = pending = {}
        self.context.on("request", lambda r: pending.__setitem__(r, r.url))
        self.context.on("requestfinished", lambda r: pending.pop(r, None))
        self.context.on("requestfailed", lambda r: pending.pop(r, None))
        self.base_url = base_url
        self.viewport = {**CONTEXT, **options}["viewport"]

    def new_page(self):
        pg = self.context.new_page()
        pg.on("pageerror", lambda e: self.errors.append(str(e)))
        if pg.viewport_size != self.viewport:
            pg.set_viewport_size(self.viewport)
        return pg

    def resize(self, viewport: dict):
        """The pages' viewport from now on (as the context's own option would set it)."""
        self.viewport = viewport
        for pg in self.context.pages:
            if pg.viewport_size != viewport:
                pg.set_viewport_size(viewport)

    @functools.cached_property
    def page(self):
        """The context's first page, opened on first use (a kept context's page, for each of its tests)."""
        return self.new_page()

    def clear(self) -> bool:
        """Ready for another test: every page but the first closed, the app's storage and the cookies
        cleared, the page left on about:blank (nothing of this test runs on). The records stay, to
        check. False, with nothing done, if the first page is off the app (its storage out of reach)
        or its clock was replaced (``clocked``: that can't be undone)."""
        if self.context in _CLOCKED or not self.page.url.startswith(self.base_url):
            return False
        for pg in self.context.pages[1:]:
            pg.close()
        self.context.pending.clear()
        self.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        self.page.goto("about:blank")
        self.context.clear_cookies()
        return True

    def check(self):
        assert not self.errors, f"script errors: {self.errors}"
        assert not self.outside, f"the page fetched outside the app: {self.outside}"
        assert urllib.parse.urlsplit(self.base_url).hostname == "127.0.0.1"

    def __enter__(self) -> Guarded:
        return self

    def __exit__(self, kind, value, tb):
        self.context.close()
        if kind is None:
            self.check()


@functools.cache
def _axe_source() -> str:
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing at {AXE}: run make setup (npm ci)")
    return AXE.read_text(encoding="utf-8")


def axe_violations(pg) -> list[dict]:
    """axe-core (from node_modules) over the whole page: its violations. Evaluated by Playwright, which
    the page's CSP doesn't govern, so the page is checked as served (no ``bypass_csp`` needed)."""
    if not pg.evaluate("typeof axe === 'object'"):  # once per document: axe is half a megabyte of script
        pg.evaluate(_axe_source())
    found = pg.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))""")
    return found


# -- the console (tests/test_console*.py, test_french_table.py, test_page_rulesets.py) ------------
def assert_fits_a_phone(pg, width: int = 360) -> None:
    """Nothing on the page is wider than a ``width``-pixel phone, and every visible control is
    touch-sized (44 px high at least)."""
    assert pg.evaluate("document.documentElement.scrollWidth") <= width
    small = pg.evaluate("""() => [...document.querySelectorAll('button, input, select')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])
        .filter(([, h]) => h < 44)""")
    assert small == []


def api(base_url: str, method: str, path: str, token: str | None = None, body: dict | None = None) -> dict:
    """One call of the HTTP API, as a bot makes it; its JSON answer."""
    req = urllib.request.Request(f"{base_url}/api/v1{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode())
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)


def new_game(base_url: str, library: list[str], players=("Ana", "Ben"), **body) -> dict:
    """A game started through the API (no shuffle: the library in the list's order); a player is a
    name, or what the API takes for one."""
    seats = [p if isinstance(p, dict) else {"name": p} for p in players]
    return api(base_url, "POST", "/games", body={"players": seats, "shuffle": False, "library": library, **body})


def keep_game(pg, game: dict, at: str = "/console"):
    """The browser keeps ``game``'s tokens, as if its judge had started it from the console; ``pg`` is
    left at ``at`` (any document of the app's origin reaches its storage)."""
    pg.goto(at)
    pg.evaluate("([id, g]) => localStorage.setItem('mentalmagic.games', JSON.stringify({[id]: g}))",
                [game["id"], {"judge_token": game["judge_token"], "players": game["players"],
                              "format": game["format"]}])


def judge_page(pg, base_url: str, library: list[str], players=("Ana", "Ben"), **body) -> dict:
    """A new game, opened on ``pg`` as its judge: the browser keeps its tokens."""
    game = new_game(base_url, library, players, **body)
    keep_game(pg, game, at="/static/favicon.svg")  # the lightest document of the origin: no page to load
    pg.goto(f"/games/{game['id']}")
    try:
        sync_api.expect(pg.locator("#players li")).to_have_count(len(players))
    except AssertionError as e:
        raise AssertionError(f"{e}\n{waiting(pg)}") from None
    return game


def waiting(pg) -> str:
    """What a page that didn't show what a test waited for was doing: its requests not answered yet,
    its status lines, its document's state (a failure's message)."""
    try:
        state = pg.evaluate("""() => ({ready: document.readyState, url: location.href,
          status: [...document.querySelectorAll('[role=status], .status')].map((n) => n.textContent.trim())
            .filter(Boolean), resources: performance.getEntriesByType('resource').length})""")
    except Exception as e:  # noqa: BLE001 - the page itself gone: say so, the failure's own message stands
        state = f"not readable ({e})"
    pending = sorted(getattr(pg.context, "pending", {}).values())
    return f"the page: {state}; its requests not answered: {pending}"


def stored_game(pg) -> tuple[str, dict]:
    """The game id in the URL and what the browser keeps of it (judge and player tokens)."""
    gid = pg.url.split("/games/")[1].split("#")[0]
    return gid, pg.evaluate("id => JSON.parse(localStorage.getItem('mentalmagic.games'))[id]", gid)


def printed_ids(game: dict, name: str, zone: str | None = None) -> list[str]:
    return [c["id"] for c in game["cards"] if c.get("printed") == name and (zone is None or c["zone"] == zone)]


POLL_MS = 1000  # how often the game page asks for news (game.js)


# Contexts whose clock ``clocked`` replaced. Playwright installs it in the whole context, for good:
# every page opened there later gets its fake timers and its fake ``performance``, which keeps no
# measure (the lookup page's mm:rows never reached the page search bench's observer). Such a
# context is never kept for another test (``Guarded.clear``).
_CLOCKED: weakref.WeakSet = weakref.WeakSet()


def clocked(pg):
    """``pg`` with Playwright's clock, before the game page loads: time flows as ever, and ``next_poll``
    can move it on. Its context is closed after the test, not kept."""
    pg.clock.install()
    _CLOCKED.add(pg.context)
    return pg


def next_poll(pg):
    """The game page's next poll now, not up to a second later: its clock (``clocked``) moved on by the
    page's interval, whose timer fires at once. What a bot did then shows as it would have by itself."""
    pg.clock.fast_forward(POLL_MS)


def command(pg, line: str):
    """A line typed on the command line and run."""
    box = pg.locator("#command-input")
    box.fill(line)
    box.press("Escape")  # close any completion list: Enter then runs the line
    box.press("Enter")


# Words of the other language no line of a page should hold: card names (English in both) are taken out
# first, and a line counts only with two of them, so a word both languages share passes.
FOREIGN = {
    "fr": re.compile(r"\b(the|and|of|with|card|cards|player|players|game|rule|is|are|loses|wins|to|from|this|"
                     r"its|name|names|taken|by|not|can't|left)\b"),
    "en": re.compile(r"\b(la|le|les|des|une|est|partie|règle|joueur|joueurs|carte|cartes|pour|avec|perd|"
                     r"gagne|nom|noms|pris|par|du|au|aux|sur|dans|pas)\b", re.IGNORECASE),
}


# ...or one of these, which no line in French holds: the grammar's English verbs and questions (a
# French page's examples say `pioche`, `pourrait`, `même`), a rule set's English headings and titles.
FOREIGN_ONE = {
    "fr": re.compile(r"\b(draw|cast|could|same|ban list|once per game|face cards|Comprehensive Rules|"
                     r"Official Rules|with decisions)\b"),
    "en": re.compile(r"\b(pioche|lance|pourrait|même|une fois par partie|liste des cartes interdites)\b"),
}


def foreign_lines(text: str, lang: str, card_names: re.Pattern) -> list[str]:
    """The lines of ``text`` that read as the other language than ``lang``: two of its words or more,
    or one word no line of ``lang`` holds, the card names ``card_names`` matches aside."""
    lines = [card_names.sub("", line) for line in text.splitlines()]
    return [line for line, bare in zip(text.splitlines(), lines, strict=True)
            if len(FOREIGN[lang].findall(bare)) >= 2 or FOREIGN_ONE[lang].search(bare)]


# -- seating the players (issue 31: tests/test_console_seats.py, test_table_network.py) ----------
def decoded(locator) -> str:
    """What the QR code drawn at ``locator`` holds, read off a screenshot of it as a phone's camera reads
    the screen: zxing-cpp over the picture Chromium painted (one code, else the test fails)."""
    import io

    import zxingcpp
    from PIL import Image

    locator.evaluate("img => img.decode()")  # its picture decoded, so that the screenshot holds it painted
    for _ in range(3):  # a picture set a moment ago may reach the screen a frame later
        found = zxingcpp.read_barcodes(Image.open(io.BytesIO(locator.screenshot())),
                                       formats=zxingcpp.BarcodeFormat.QRCode)
        if found:
            break
        locator.page.wait_for_timeout(200)
    assert len(found) == 1, f"{len(found)} QR codes read"
    return found[0].text


# A Screen Wake Lock the page's script can ask for and let go, counted (headless Chromium's own answers
# whatever the permission says, not what the page asked).
WAKE_LOCK_SPY = """(() => {
  window.__locks = [];
  const fake = { request: async (type) => {
    const lock = { type, released: false, addEventListener() {}, release: async () => { lock.released = true; } };
    window.__locks.push(lock);
    return lock;
  } };
  Object.defineProperty(Navigator.prototype, "wakeLock", { get: () => fake, configurable: true });
})();"""


def wake_locks(pg) -> list[bool]:
    """Each screen lock the page asked for (``WAKE_LOCK_SPY``): released or not."""
    return pg.evaluate("(window.__locks || []).map((l) => l.released)")
