"""The page under its Content-Security-Policy (issue 9): Debian's Chromium loads it, looks a
card up, and reports no violation (no inline script or style, nothing from elsewhere)."""

from __future__ import annotations

from browser import TIMEOUT_MS
from support import served

from mentalmagic.runtime import Runtime
from mentalmagic.web import create_app


def test_the_page_runs_under_its_csp_without_a_violation(browser, mini_card_db_path, mini_db_finder):
    rt = Runtime(db_path=mini_card_db_path, pool=mini_db_finder.pool, finder=mini_db_finder)
    app = create_app({"DATABASE": str(mini_card_db_path), "RUNTIME": rt})  # not TESTING: the real headers
    messages: list[str] = []
    with served(app) as root:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.on("console", lambda m: messages.append(m.text))
            response = page.goto(f"{root}/?printed=Boros%20Guildmage")
            assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
            page.wait_for_selector("text=Boros Guildmage")
            page.wait_for_load_state("networkidle")
        finally:
            context.close()
    violations = [m for m in messages if "Content Security Policy" in m or "Refused to" in m]
    assert not violations, violations
