"""The card-lookup page at /, driven in a real headless Chromium over real HTTP.

The app is served by werkzeug on a free port of 127.0.0.1 in a background
thread, with the session's card database; Debian's /usr/bin/chromium is driven
through Playwright (never `playwright install`: nothing is downloaded).
"""

from __future__ import annotations

import json
import re
import shutil
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright import sync_api
from support import served

from mentalmagic.runtime import Runtime
from mentalmagic.web import create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def base_url(card_db_path, pool, finder):
    app = create_app({
        "TESTING": True,
        "DATABASE": str(card_db_path),
        "RUNTIME": Runtime(db_path=card_db_path, pool=pool, finder=finder),
    })
    with served(app) as root:
        yield root


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, base_url):
    """A fresh page; any uncaught script error or request to another host fails the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base_url, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    outside: list[str] = []
    errors: list[str] = []
    context.on("request", lambda r: None if r.url.startswith((base_url, "data:")) else outside.append(r.url))
    pg = context.new_page()
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield pg
    finally:
        context.close()
    assert not errors, f"script errors: {errors}"
    assert not outside, f"the page fetched outside the app: {outside}"


def api(base_url: str, path: str, **params) -> dict:
    url = f"{base_url}/api/v1/{path}?{urllib.parse.urlencode(params)}"
    with urllib.request.urlopen(url, timeout=30) as resp:
        return json.load(resp)


def wait_results(pg, count: int | None = None):
    """Wait for a finished search (status says how many) and return the count shown."""
    sync_api.expect(pg.locator("#status")).to_have_class("status is-ok")
    shown = int(pg.locator("#count-line .count").inner_text().replace(",", ""))
    if count is not None:
        assert shown == count
    return shown


def show_all(pg) -> list[str]:
    """Load every candidate (progressively rendered) and return their names."""
    total = int(pg.locator("#count-line .count").inner_text().replace(",", ""))
    if pg.locator("#all-button").is_visible():
        pg.locator("#all-button").click()
    elif pg.locator("#more-button").is_visible():
        pg.locator("#more-button").click()
    sync_api.expect(pg.locator("#candidates .cand")).to_have_count(total)
    return pg.locator("#candidates .cand .cand-name").all_inner_texts()


def row(pg, name: str):
    """The candidate row whose name is exactly ``name``."""
    exact = re.compile(f"^{re.escape(name)}$")
    return pg.locator("#candidates .cand").filter(has=pg.locator(".cand-name", has_text=exact))


# ---------------------------------------------------------------------------- tests
def test_french_autocomplete_then_candidates(page, base_url):
    page.goto("/")
    box = page.get_by_role("combobox", name="Card name, in English or French")
    box.press_sequentially("lions des sav")
    option = page.get_by_role("option", name="Savannah Lions")
    sync_api.expect(option).to_be_visible()
    sync_api.expect(option).to_contain_text("Lions des savanes")
    assert box.get_attribute("aria-expanded") == "true"
    option.click()

    expected = api(base_url, "candidates", printed="Savannah Lions", limit=1)["count"]
    wait_results(page, expected)
    sync_api.expect(box).to_have_value("Savannah Lions")
    sync_api.expect(page.locator("#results-title")).to_have_text("Names for Savannah Lions")
    sync_api.expect(page.locator(".printed-fr")).to_contain_text("Lions des savanes")
    assert "printed=Savannah%20Lions" in page.url and "format=vintage" in page.url
    names = show_all(page)
    assert "Figure of Destiny" in names
    assert "Savannah Lions" not in names
    assert len(names) == expected


def test_autocomplete_with_the_keyboard_alone(page, base_url):
    page.goto("/")
    page.keyboard.press("Tab")  # the skip link comes first
    page.keyboard.press("Tab")
    box = page.locator("#name-input")
    sync_api.expect(box).to_be_focused()
    page.keyboard.type("boros guildm")
    listbox = page.get_by_role("listbox")
    sync_api.expect(listbox).to_be_visible()

    page.keyboard.press("ArrowDown")
    active = box.get_attribute("aria-activedescendant")
    assert active
    sync_api.expect(page.locator(f"#{active}")).to_have_attribute("aria-selected", "true")
    sync_api.expect(page.locator(f"#{active}")).to_contain_text("Boros Guildmage")

    page.keyboard.press("Escape")
    sync_api.expect(listbox).to_be_hidden()
    sync_api.expect(box).to_have_attribute("aria-expanded", "false")
    assert box.get_attribute("aria-activedescendant") is None

    page.keyboard.press("ArrowDown")  # reopens on the first option
    sync_api.expect(listbox).to_be_visible()
    page.keyboard.press("Enter")
    sync_api.expect(listbox).to_be_hidden()
    sync_api.expect(box).to_have_value("Boros Guildmage")
    sync_api.expect(box).to_be_focused()
    wait_results(page, api(base_url, "candidates", printed="Boros Guildmage", limit=1)["count"])
    costs = [li.get_attribute("title") for li in page.locator(".cost-list .mana").all()]
    assert len(costs) == 3  # {R}{R}, {W}{R}, {W}{W}
    sync_api.expect(page.locator(".printed-head .ms")).to_have_count(2)

    # Enter on typed text (no option chosen) searches that name too, in French
    box.fill("")
    page.keyboard.type("ghildmage de boros")
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("#results-title")).to_have_text("Names for Boros Guildmage")
    sync_api.expect(box).to_have_value("Boros Guildmage")  # the shared URL names the card in English
    assert "printed=Boros%20Guildmage" in page.url


def test_hybrid_keypad_draws_mana_symbols(page, base_url):
    page.goto("/")
    rw = page.locator('#by-cost button[data-sym="R/W"]')
    sync_api.expect(rw).to_have_accessible_name("Add one red or white mana")
    rw.click()
    rw.click()
    sync_api.expect(page.locator("#cost-input")).to_have_value("{R/W}{R/W}")
    sync_api.expect(page.locator("#cost-preview .ms")).to_have_count(2)
    page.get_by_role("button", name="Find names for this cost").click()

    wait_results(page, api(base_url, "candidates", cost="{R/W}{R/W}", limit=1)["count"])
    assert "cost=%7BR%2FW%7D%7BR%2FW%7D" in page.url or "cost=%7BR/W%7D%7BR/W%7D" in page.url
    names = show_all(page)
    drawn = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#candidates .cand')]
        .map(r => [r.querySelector('.cand-name').textContent, [...r.querySelectorAll('.c-cost .ms')]
            .map(m => ({role: m.getAttribute('role'), label: m.getAttribute('aria-label'), title: m.title,
                        bg: getComputedStyle(m).backgroundImage}))]))""")
    for name in ("Serra Avenger", "Slith Firewalker", "Vexing Shusher"):
        assert name in names
        assert drawn[name], f"{name} has no mana symbol elements"
        for sym in drawn[name]:
            assert sym["role"] == "img" and sym["label"].endswith("mana")
    assert [m["label"] for m in drawn["Vexing Shusher"]] == ["one red or green mana"] * 2
    assert "".join(m["title"] for m in drawn["Vexing Shusher"]) == "{R/G}{R/G}"
    assert drawn["Vexing Shusher"][0]["bg"].startswith("linear-gradient")  # a split disc
    # no cost cell shows raw brace text: every one is drawn as symbols
    cost_texts = page.locator("#candidates .cand .c-cost").all_inner_texts()
    assert len(cost_texts) == len(names)
    assert not [t for t in cost_texts if "{" in t or "}" in t]


def test_keypad_edits_and_shorthand(page, base_url):
    page.goto("/")
    cost = page.locator("#cost-input")
    for sym in ("1", "5", "G"):
        page.locator(f'#by-cost button[data-sym="{sym}"]').click()
    sync_api.expect(cost).to_have_value("{15}{G}")
    page.get_by_role("button", name="Remove the last symbol").click()
    sync_api.expect(cost).to_have_value("{15}")
    page.get_by_role("button", name="Clear the cost").click()
    sync_api.expect(cost).to_have_value("")
    page.get_by_role("button", name="No mana cost (a land; not {0})").click()
    sync_api.expect(cost).to_have_value("none")
    cost.fill("1rr")
    sync_api.expect(page.locator("#cost-preview .ms")).to_have_count(3)
    page.locator('#by-cost button[data-sym="W/P"]').click()  # shorthand becomes braces
    sync_api.expect(cost).to_have_value("{1}{R}{R}{W/P}")
    # the keypad is one toolbar: a single tab stop, arrows move, Enter adds
    page.goto("/")
    cost.focus()
    page.keyboard.press("Tab")
    assert page.locator(".keypad .key[tabindex='0']").count() == 1
    sync_api.expect(page.locator('#by-cost button[data-sym="W"]')).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowDown")  # to the generic row, same column: {1}
    page.keyboard.press("Space")
    sync_api.expect(cost).to_have_value("{U}{1}")
    page.keyboard.press("Tab")
    sync_api.expect(page.get_by_role("button", name="Find names for this cost")).to_be_focused()
    page.keyboard.press("Enter")
    wait_results(page, api(base_url, "candidates", cost="{1}{U}", limit=1)["count"])

    cost.fill("1RR")
    cost.press("Enter")
    sync_api.expect(page.locator("#count-line .count")).to_have_text(
        f'{api(base_url, "candidates", cost="1RR", limit=1)["count"]:,}')
    assert page.locator("#candidates .cand").count() > 0

    nothing = "{X}{X}{X}{W}{U}{B}{R}{G}{C}"
    assert api(base_url, "candidates", cost=nothing, limit=1)["count"] == 0
    cost.fill(nothing)
    cost.press("Enter")
    sync_api.expect(page.locator("#count-line")).to_contain_text("No card of this format has a matching cost")
    sync_api.expect(page.locator("#candidates")).to_be_hidden()


def test_split_card_offers_both_costs_never_its_halves(page, base_url):
    page.goto("/?printed=Fire%20//%20Ice")
    expected = api(base_url, "candidates", printed="Fire // Ice", limit=1)
    wait_results(page, expected["count"])
    drawn = [
        "".join(s.get_attribute("title") for s in m.locator(".ms").all())
        for m in page.locator(".cost-list .mana").all()
    ]
    assert drawn == ["{1}{R}", "{1}{U}"]
    sync_api.expect(page.locator(".printed-head .mana-sep")).to_have_count(1)
    names = show_all(page)  # ~2,000 rows, rendered in chunks
    assert len(names) == expected["count"]
    assert "Fire" not in names and "Ice" not in names
    sync_api.expect(page.locator("#all-button")).to_be_hidden()
    sync_api.expect(page.locator("#more-button")).to_be_hidden()
    sync_api.expect(page.locator("#shown-line")).to_contain_text(f"of {expected['count']:,}")


def test_bad_cost_and_unknown_card_show_the_error(page):
    page.goto("/")
    cost = page.locator("#cost-input")
    cost.fill("{Q}{W}")
    cost.press("Enter")
    status = page.get_by_role("status").filter(has_text="Error")
    sync_api.expect(status).to_be_visible()
    sync_api.expect(page.locator("#status")).to_have_class("status is-error")
    sync_api.expect(page.locator("#status")).to_contain_text("{Q}{W}")  # the message quotes the input
    assert page.locator("#status").get_attribute("aria-live") == "polite"
    sync_api.expect(cost).to_have_attribute("aria-invalid", "true")
    sync_api.expect(page.locator("#results")).to_be_hidden()

    page.goto("/?printed=Nosuch%20Cardname")
    sync_api.expect(page.locator("#status")).to_have_class("status is-error")
    sync_api.expect(page.locator("#status")).to_contain_text("Nosuch Cardname")
    sync_api.expect(page.locator("#name-input")).to_have_attribute("aria-invalid", "true")

    page.goto("/?cost=1RR%7BW")
    sync_api.expect(page.locator("#status")).to_contain_text("1RR{W")


def test_switching_format_changes_the_results(page, base_url):
    cost = "{R/W}{R/W}"
    vintage = api(base_url, "candidates", cost=cost, format="vintage", limit=1)["count"]
    pauper = api(base_url, "candidates", cost=cost, format="pauper", limit=1)["count"]
    assert pauper < vintage
    page.goto("/?" + urllib.parse.urlencode({"cost": cost, "format": "vintage"}))
    wait_results(page, vintage)
    page.get_by_label("Format").select_option("pauper")
    sync_api.expect(page.locator("#count-line .count")).to_have_text(f"{pauper:,}")
    assert "format=pauper" in page.url
    sync_api.expect(page.locator("#candidates .cand")).to_have_count(pauper)  # fits one page
    page.go_back()  # the URL history replays the query
    sync_api.expect(page.locator("#count-line .count")).to_have_text(f"{vintage:,}")
    sync_api.expect(page.get_by_label("Format")).to_have_value("vintage")

    page.get_by_label("Type").fill("creature")
    page.get_by_label("Type").press("Enter")
    creatures = api(base_url, "candidates", cost=cost, type="creature", limit=1)["count"]
    sync_api.expect(page.locator("#count-line .count")).to_have_text(f"{creatures:,}")
    assert "type=creature" in page.url


def test_marks_and_unknown_faces(page, base_url):
    page.goto("/?printed=Ghost%20Quarter")  # a land on the 706.4a watch list
    wait_results(page)
    sync_api.expect(page.locator(".printed-marks .mark-watched")).to_contain_text("Watched (706.4a)")
    sync_api.expect(page.locator(".cost-list")).to_contain_text("no mana cost")

    page.goto("/?cost=2UU&type=planeswalker")
    wait_results(page)
    jace = row(page, "Jace, the Mind Sculptor")
    sync_api.expect(jace.locator(".mark-watched")).to_have_text("watched")

    page.goto("/?printed=Start%20//%20Fire&format=all")
    data = api(base_url, "candidates", printed="Start // Fire", format="all", limit=1)
    wait_results(page, data["count"])
    assert data["unknown_faces"] == ["Fire"]
    sync_api.expect(page.locator("#unknown-faces")).to_be_visible()
    sync_api.expect(page.locator("#unknown-faces")).to_contain_text("Fire")
    sync_api.expect(page.locator(".printed-head .ms-unknown")).to_have_count(1)


def test_controls_are_labelled_and_footer_names_the_source(page, base_url, pool):
    page.goto("/")
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select, button')]
        .filter(e => !e.hidden && e.offsetParent !== null)
        .filter(e => !((e.labels && e.labels.length) || e.getAttribute('aria-label')
                       || (e.tagName === 'BUTTON' && e.textContent.trim())))
        .map(e => e.outerHTML)""")
    assert unlabelled == []
    footer = page.locator("footer")
    source_name = pool.info.source.rsplit("/", 1)[-1]
    sync_api.expect(footer).to_contain_text(source_name)
    sync_api.expect(footer).to_contain_text(f"{len(pool):,} cards")
    for item in pool.info.lacks:
        sync_api.expect(footer).to_contain_text(item)
    if not pool.info.lacks:
        sync_api.expect(footer).to_contain_text("not known to lack")


def test_shared_url_shows_the_result(page, base_url):
    page.goto("/?printed=Boros%20Guildmage&format=vintage")
    wait_results(page, api(base_url, "candidates", printed="Boros Guildmage", limit=1)["count"])
    sync_api.expect(page.locator("#name-input")).to_have_value("Boros Guildmage")
    sync_api.expect(page.locator("#candidates .cand")).to_have_count(100)
    sync_api.expect(page.locator("#more-button")).to_be_visible()
    page.screenshot(path="/tmp/page-desktop.png")


def test_phone_width_nothing_overflows(browser, base_url):
    context = browser.new_context(viewport={"width": 360, "height": 740}, base_url=base_url, locale="en-US",
                                  is_mobile=True, has_touch=True, reduced_motion="reduce")
    context.set_default_timeout(TIMEOUT_MS)
    pg = context.new_page()
    try:
        pg.goto("/")
        assert pg.evaluate("document.documentElement.scrollWidth") <= 360
        small = pg.evaluate("""() => [...document.querySelectorAll('button, input, select')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])
            .filter(([, h]) => h < 44)""")
        assert small == []  # touch-sized
        pg.locator("#name-input").press_sequentially("lions")
        sync_api.expect(pg.get_by_role("listbox")).to_be_visible()
        assert pg.evaluate("document.documentElement.scrollWidth") <= 360
        pg.goto("/?printed=Fire%20//%20Ice")
        wait_results(pg)
        pg.locator("#all-button").tap()
        sync_api.expect(pg.locator("#candidates .cand")).to_have_count(
            int(pg.locator("#count-line .count").inner_text().replace(",", "")))
        assert pg.evaluate("document.documentElement.scrollWidth") <= 360
        pg.goto("/?cost=%7BR/W%7D%7BR/W%7D")
        wait_results(pg)
        assert pg.evaluate("document.documentElement.scrollWidth") <= 360
        pg.screenshot(path="/tmp/page-phone.png")
    finally:
        context.close()
