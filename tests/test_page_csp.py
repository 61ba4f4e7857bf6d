"""The page under its Content-Security-Policy (issue 9): Debian's Chromium loads it, looks a
card up, and reports no violation (no inline script or style, nothing from elsewhere)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright import sync_api
from support import served

from mentalmagic.runtime import Runtime
from mentalmagic.web import create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def test_the_page_runs_under_its_csp_without_a_violation(card_db_path, pool, finder):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium")
    rt = Runtime(db_path=card_db_path, pool=pool, finder=finder)
    app = create_app({"DATABASE": str(card_db_path), "RUNTIME": rt})
    messages: list[str] = []
    with served(app) as root, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(15_000)
            page.on("console", lambda m: messages.append(m.text))
            response = page.goto(f"{root}/?printed=Boros%20Guildmage")
            assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
            page.wait_for_selector("text=Boros Guildmage")
            page.wait_for_load_state("networkidle")
        finally:
            browser.close()
    violations = [m for m in messages if "Content Security Policy" in m or "Refused to" in m]
    assert not violations, violations
