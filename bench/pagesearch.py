"""The lookup page's search box, timed in the browser (make bench; tests/test_page_search.py runs it too).

Every row of a long list is shown ("Show all"), then each search is typed into the box in one input
event and timed with the page's own clock (performance.now): from the input to the answer, from
the answer to the rows placed (the page's ``mm:rows`` measure, lookup.js), and from the answer to
the next animation frame after them (the frame that shows them). A search over rows the page drew
before moves them; it doesn't draw them again. Figures, not asserts: docs/performance.md.
"""

from __future__ import annotations

import statistics
from urllib.parse import quote

# Installed in the page before the first search: the time of each input event, and the next frame
# after each mm:rows measure (a PerformanceObserver's callback, then requestAnimationFrame).
_HOOKS = """() => {
  window.__search = { input: 0, frames: [] };
  document.getElementById("query-input").addEventListener("input", () => { window.__search.input = performance.now(); },
    { capture: true });
  new PerformanceObserver((list) => {
    for (const m of list.getEntries()) {
      if (m.name !== "mm:rows") continue;
      requestAnimationFrame(() => window.__search.frames.push({ start: m.startTime, rows: m.duration,
        frame: performance.now() - m.startTime, input: m.startTime - window.__search.input,
        shown: document.querySelectorAll("#candidates .cand:not([hidden])").length }));
    }
  }).observe({ entryTypes: ["measure"] });
}"""


def _typed(page, box, text: str) -> dict:
    """Type ``text`` into the box in one input event and return the figures of the search it made."""
    before = page.evaluate("() => window.__search.frames.length")
    box.fill(text)
    # generous: a search is answered by the server, which another worker's tests may keep busy
    page.wait_for_function("(n) => window.__search.frames.length > n", arg=before, timeout=60_000)
    return page.evaluate("() => window.__search.frames[window.__search.frames.length - 1]")


def measure(page, base_url: str, printed: str, queries: list[str], rounds: int = 3) -> dict:
    """{query: {rows before, rows after, median ms input->answer, answer->rows placed, answer->frame}}
    for each search typed over every row of ``printed``'s candidates (all shown first)."""
    page.goto(f"{base_url}/?printed={quote(printed)}")
    page.wait_for_selector("#status.is-ok")
    total = int("".join(ch for ch in page.locator("#count-line .count").inner_text() if ch.isdigit()))
    if page.locator("#all-button").is_visible():
        page.locator("#all-button").click()
    elif page.locator("#more-button").is_visible():
        page.locator("#more-button").click()
    page.wait_for_function("(n) => document.querySelectorAll('#candidates .cand').length === n", arg=total,
                           timeout=60_000)
    # the list settled (no answer still being placed) before the first search is typed and timed
    page.wait_for_function("() => document.getElementById('results').getAttribute('aria-busy') !== 'true'",
                           timeout=60_000)
    page.evaluate(_HOOKS)
    box = page.locator("#query-input")
    out: dict[str, dict] = {}
    for _ in range(rounds):
        for q in queries:
            got = _typed(page, box, q)  # one input event: one search
            _typed(page, box, "")  # every row back, unmeasured but drawn from the rows kept
            mine = out.setdefault(q, {"before": total, "after": got["shown"], "input": [], "rows": [], "frame": []})
            for key in ("input", "rows", "frame"):
                mine[key].append(got[key])
    return {q: {**v, **{k: statistics.median(v[k]) for k in ("input", "rows", "frame")}} for q, v in out.items()}
