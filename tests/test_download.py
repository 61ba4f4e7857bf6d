"""The download command, against a real HTTP server on loopback serving a small file."""

from __future__ import annotations

import http.server
import json
import lzma
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from mentalmagic.carddata import source_from_env
from mentalmagic.carddata.download import download
from mentalmagic.cli import main

SMALL = {"meta": {"version": "test"}, "data": {"Savannah Lions": [{
    "name": "Savannah Lions", "layout": "normal", "manaCost": "{W}", "manaValue": 1.0,
    "type": "Creature — Cat", "types": ["Creature"], "legalities": {"vintage": "Legal"}}]}}


@pytest.fixture
def server(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    (root / "AtomicCards.json.xz").write_bytes(lzma.compress(json.dumps(SMALL).encode()))

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(root), **kw)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    # shutdown() waits for the loop to look at its flag: every poll_interval (0.5 s by default)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_download_fetches_the_file_and_it_imports(server, tmp_path):
    out = download(f"{server}/AtomicCards.json.xz", tmp_path / "cards" / "AtomicCards.json.xz")
    records = list(source_from_env(str(out)).records())
    assert [r["name"] for r in records] == ["Savannah Lions"]
    assert records[0]["faces"][0]["mana_cost"] == "{W}"


def test_a_failed_download_leaves_no_file_behind(server, tmp_path):
    dest = tmp_path / "out" / "AtomicCards.json.xz"
    with pytest.raises(OSError):
        download(f"{server}/missing.json.xz", dest)
    assert list(dest.parent.iterdir()) == []  # neither the file nor a .part


def test_download_cards_command_uses_the_configured_url(server, tmp_path, monkeypatch):
    monkeypatch.setenv("MENTALMAGIC_CARDS_URL", f"{server}/AtomicCards.json.xz")
    out = tmp_path / "dl.json.xz"
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "db.sqlite"), "download-cards", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.is_file() and f"MENTALMAGIC_CARDS={out}" in result.output


def test_download_cards_command_reports_an_unreachable_url_clearly(tmp_path):
    result = CliRunner().invoke(main, ["--db", str(tmp_path / "db.sqlite"), "download-cards",
                                       "--url", "http://127.0.0.1:9/AtomicCards.json.xz",
                                       "--out", str(tmp_path / "x.json.xz")])
    assert result.exit_code == 1
    assert "download from http://127.0.0.1:9/AtomicCards.json.xz failed" in result.output
    assert not Path(tmp_path / "x.json.xz").exists()
