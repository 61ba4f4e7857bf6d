"""The lookup page's search box over the candidates (docs/search.md), in a real Chromium: typing narrows
the list as you type, the count follows, the URL shares it, keyboard only, axe clean, French and English."""

from __future__ import annotations

import urllib.parse

import pytest
from browser import Guarded, axe_violations, clocked
from playwright import sync_api
from test_page import api, row, wait_results


@pytest.fixture
def page(kept_context, base_url):
    return kept_context(base_url).page


def count(pg) -> int:
    return int(pg.locator("#count-line .count").inner_text().replace(",", "").replace("\u202f", "").replace(" ", ""))


def url_holds(pg, text: str):
    """Wait until the page's URL (decoded) holds ``text``: the page moved it with the history API."""
    pg.wait_for_function("(t) => decodeURIComponent(location.search).includes(t)", arg=text)


def tab_to(pg, element_id: str, most: int = 80):
    """Tab through the page until ``element_id`` has the focus: the keyboard alone gets there."""
    for _ in range(most):
        if pg.evaluate("document.activeElement && document.activeElement.id") == element_id:
            return
        pg.keyboard.press("Tab")
    raise AssertionError(f"#{element_id} is never reached with Tab")


@pytest.mark.parametrize("locale, typed", [("en-US", "t:creature o:flying pow>=2"),
                                           ("fr-FR", "t:créature o:flying pow>=2")])
def test_typing_a_search_over_hellriders_candidates_narrows_the_list_as_you_type(kept_context, snapshot_url,
                                                                                  locale, typed):
    pg = kept_context(snapshot_url, locale=locale).page
    pg.goto(f"{snapshot_url}/?printed=Hellrider")
    everything = wait_results(pg)
    assert everything > 250
    tab_to(pg, "query-input")
    counts = []
    for part in typed.split(" "):  # a word at a time, each letter a key; the list follows each word
        pg.keyboard.type(("" if not counts else " ") + part, delay=15)
        url_holds(pg, part)
        sync_api.expect(pg.locator("#status")).to_have_class("status is-ok")
        counts.append(count(pg))
    assert everything > counts[0] > counts[1] > counts[2] > 0, counts
    expected = api(snapshot_url, "candidates", printed="Hellrider", q="t:creature o:flying pow>=2")
    assert counts[-1] == expected["count"]
    first = expected["candidates"][0]
    shown = first["french_name"] if locale == "fr-FR" and first["french_name"] else first["name"]
    sync_api.expect(row(pg, shown)).to_have_count(1)
    query = urllib.parse.parse_qs(urllib.parse.urlparse(pg.url).query)
    assert query["q"] == [typed]  # a link shares the search
    assert axe_violations(pg) == []


def test_a_shared_link_shows_its_search_and_order(page, base_url):
    page.goto(f"{base_url}/?printed=Shock&q=t:creature&sort=power")
    n = wait_results(page)
    expected = api(base_url, "candidates", printed="Shock", q="t:creature", sort="power")
    assert n == expected["count"] > 1
    sync_api.expect(page.locator("#query-input")).to_have_value("t:creature")
    sync_api.expect(page.locator("#sort-select")).to_have_value("power")
    names = page.locator("#candidates .cand .cand-name").all_inner_texts()
    assert names == [c["name"] for c in expected["candidates"]]


def test_a_search_that_cant_be_read_is_said_beside_the_box_and_the_list_stays(page, base_url):
    page.goto(f"{base_url}/?printed=Shock")
    n = wait_results(page)
    tab_to(page, "query-input")
    # one input event: typed key by key on a loaded machine, "foo" alone could be searched (and
    # narrow the list) before the colon, which is right but not what this test asks about
    page.keyboard.insert_text("foo:bar")
    sync_api.expect(page.locator("#query-error")).to_contain_text("foo")
    sync_api.expect(page.locator("#query-input")).to_have_attribute("aria-invalid", "true")
    assert count(page) == n and not page.locator("#results").is_hidden()
    page.keyboard.press("Control+A")
    page.keyboard.type("t:creature", delay=10)
    sync_api.expect(page.locator("#query-error")).to_have_text("")
    sync_api.expect(page.locator("#query-input")).not_to_have_attribute("aria-invalid", "true")
    wait_results(page)
    assert axe_violations(page) == []


def test_an_empty_answer_says_the_search_left_the_names_out(page, base_url):
    page.goto(f"{base_url}/?printed=Shock&q=t:planeswalker")
    assert wait_results(page) == 0
    sync_api.expect(page.locator("#count-line")).to_contain_text("No name fits the search")
    sync_api.expect(page.locator("#excluded")).to_contain_text("does not fit the search t:planeswalker")


def test_the_sort_is_chosen_with_the_keyboard_and_goes_in_the_url(page, base_url):
    page.goto(f"{base_url}/?printed=Shock")
    wait_results(page)
    tab_to(page, "sort-select")
    page.keyboard.press("ArrowDown")  # mana value
    url_holds(page, "sort=mv")
    wait_results(page)
    expected = api(base_url, "candidates", printed="Shock", sort="mv")
    names = page.locator("#candidates .cand .cand-name").all_inner_texts()
    assert names == [c["name"] for c in expected["candidates"]][:len(names)]


def test_a_search_over_every_row_shown_keeps_them_shown_and_keeps_the_rows_drawn(kept_context, snapshot_url):
    pg = kept_context(snapshot_url).page
    pg.goto(f"{snapshot_url}/?printed=Hellrider")
    total = wait_results(pg)
    pg.locator("#all-button").click()
    sync_api.expect(pg.locator("#candidates .cand")).to_have_count(total)
    expected = api(snapshot_url, "candidates", printed="Hellrider", q="t:creature")
    last = expected["candidates"][-1]["name"]  # far down the list: past the first hundred
    find = ("(n) => [...document.querySelectorAll('#candidates .cand')]"
            ".find((r) => r.querySelector('.cand-name').textContent === n)")
    pg.evaluate(f"(n) => {{ window.kept = ({find})(n); }}", last)
    shown = pg.locator("#candidates .cand:not([hidden])")
    for typed, count in (("t:creature", expected["count"]), ("", total), ("t:creature", expected["count"])):
        pg.locator("#query-input").fill(typed)
        sync_api.expect(shown).to_have_count(count)  # every row asked for, not a first hundred
        sync_api.expect(pg.locator("#count-line .count")).to_have_text(f"{count:,}")
    assert expected["count"] > 100
    assert pg.evaluate(f"(n) => ({find})(n) === window.kept", last)  # the same row, not drawn again
    names = shown.locator(".cand-name").evaluate_all("ns => ns.map((n) => n.textContent)")  # off-screen too
    assert names == [c["name"] for c in expected["candidates"]]
    indexes = shown.evaluate_all("rows => rows.map((r) => +r.getAttribute('aria-rowindex'))")
    assert indexes == list(range(2, expected["count"] + 2))  # numbered for the list shown
    assert axe_violations(pg) == []


def test_the_page_search_bench_script_runs(page, base_url):
    """bench/pagesearch.py, as make bench runs it over the snapshot: figures, not a timed assert. On a
    page of its own, as make bench opens one."""
    from bench.pagesearch import measure

    own = page.context.new_page()
    try:
        got = measure(own, base_url, "Shock", ["t:creature", "c:r -t:instant"], rounds=1)
    finally:
        own.close()
    expected = api(base_url, "candidates", printed="Shock", q="t:creature")
    assert got["t:creature"]["after"] == expected["count"] < got["t:creature"]["before"]
    assert all(m["rows"] >= 0 and m["frame"] >= m["rows"] and m["input"] > 0 for m in got.values())


def test_a_context_whose_clock_a_test_replaced_is_not_kept_for_the_next(browser, base_url):
    """Playwright's clock (``clocked``, the console tests') stays in its context for good, with a
    ``performance`` that keeps no measure: kept for the next module, it left that module's pages
    without timings (the bench script's test above hung in full runs, waiting for one)."""
    measured = "() => { performance.measure('mm:probe'); return performance.getEntriesByName('mm:probe').length; }"
    guarded = Guarded(browser, base_url)
    try:
        guarded.page.goto(f"{base_url}/")
        assert guarded.page.evaluate(measured) == 1
        assert guarded.clear()  # a context left as it was found is kept
        clocked(guarded.page).goto(f"{base_url}/")
        assert guarded.context.new_page().goto(f"{base_url}/") and guarded.context.pages[-1].evaluate(measured) == 0
        assert not guarded.clear()  # closed by kept_context, never handed to another test
    finally:
        guarded.context.close()
