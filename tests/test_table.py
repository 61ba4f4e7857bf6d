"""The table mode (issue 31), in-process: which addresses phones are given, the settings kept for a room
of phones, what the terminal prints, the QR codes' route, and what the console's pages say about
phones. The pages in Chromium: test_console_seats.py; a real network: test_table_network.py."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from support import assert_envelope, checked, terminal_code

from mentalmagic.cli import lan
from mentalmagic.cli.serve import show_table
from mentalmagic.settings import Settings, for_table


def test_reachable_addresses_leave_out_loopback_link_local_and_ipv6():
    found = lan.reachable(["127.0.0.1", "169.254.3.4", "::1", "fe80::1", "fd00::2", "172.17.0.1", "10.213.0.1",
                           "192.168.1.20", "0.0.0.0", "224.0.0.1", "not an address", "192.168.1.20", "203.0.113.9"])
    # a home Wi-Fi's first, a container bridge's late, each once
    assert found == ["192.168.1.20", "10.213.0.1", "172.17.0.1", "203.0.113.9"]


def test_table_origins_by_the_host_listened_on():
    machine = ["127.0.0.1", "10.213.0.1", "fe80::fc:ff:fe00:1"]
    assert lan.table_origins("0.0.0.0", 5000, machine) == ["http://10.213.0.1:5000"]
    assert lan.table_origins("127.0.0.1", 5000, machine) == []  # loopback: no phone reaches it
    assert lan.table_origins("192.168.1.20", 8080, machine) == ["http://192.168.1.20:8080"]
    assert all(o.startswith("http://") for o in lan.table_origins("0.0.0.0", 5000))  # this machine's, whatever they are


def test_table_settings_read_no_forwarded_client_and_keep_the_terminal_for_the_addresses(tmp_path):
    db = tmp_path / "arbiter.sqlite"
    s = for_table(Settings(proxies=1), environ={}, db_path=db)
    assert s.proxies == 0  # a phone's X-Forwarded-For is never read: no proxy stands between phone and laptop
    assert s.access_log == f"{db}.access.log"  # not a line per phone per second over the QR code
    assert s.rate_limit == Settings().rate_limit and s.client_connections == Settings().client_connections
    chosen = for_table(Settings(access_log="0"), environ={"MENTALMAGIC_ACCESS_LOG": "0"}, db_path=db)
    assert chosen.access_log == "0"  # the operator's own choice stands


def test_the_terminal_shows_the_addresses_and_a_code_of_the_console(capsys):
    from mentalmagic.cli.words import speak

    speak("fr")
    try:
        show_table(["http://10.213.0.1:5000", "http://172.17.0.1:5000"], 5000)
        out = capsys.readouterr().out
        assert "Les téléphones du réseau de ce portable" in out
        assert "  http://10.213.0.1:5000/\n  http://172.17.0.1:5000/\n" in out
        assert "http://10.213.0.1:5000/console" in out
        assert terminal_code(out) == "http://10.213.0.1:5000/console"  # the code, in block characters
        show_table([], 5000)
        assert "Aucune adresse réseau" in capsys.readouterr().out
    finally:
        speak("en")


def test_serve_table_wires_the_addresses_and_the_settings_into_the_app(tmp_path, monkeypatch):
    """``serve --table`` on a first start (the database's folder not made yet): the app it serves knows
    the table's origins and keeps the table's settings; the server itself is not started here."""
    from click.testing import CliRunner
    from served import tiny_env

    from mentalmagic.cli import main
    from mentalmagic.web import serving

    served = {}
    monkeypatch.setattr(serving, "serve", lambda app, *args, **kw: served.update(app=app, args=args))
    monkeypatch.setattr(lan, "interface_addresses", lambda: ["127.0.0.1", "10.213.9.1", "169.254.1.1"])
    env = {**tiny_env(tmp_path), "MENTALMAGIC_DB": str(tmp_path / "first" / "start.sqlite"),
           "MENTALMAGIC_ACCESS_LOG": "", "MENTALMAGIC_PROXIES": "1"}
    result = CliRunner().invoke(main, ["serve", "--table", "--workers", "1", "--port", "5123"], env=env)
    assert result.exit_code == 0, result.output
    app = served["app"]
    assert app.config["TABLE_ORIGINS"] == ["http://10.213.9.1:5123"]
    assert served["args"][1:3] == ("0.0.0.0", 5123)  # every IPv4 interface
    assert app.config["SETTINGS"].proxies == 0
    assert app.config["SETTINGS"].access_log == str(tmp_path / "first" / "start.sqlite") + ".access.log"


def test_a_qr_code_of_a_seat_link(client):
    link = "http://10.213.0.1:5000/games/Ab3dEf6hIj9k#token=" + "x" * 32
    resp = checked(client.post("/api/v1/qr", json={"text": link}))
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["text"] == link and body["modules"] == 37 + 8  # version 5 at level M, and the quiet zone
    assert body["image"].startswith("data:image/svg+xml") and "viewBox" in unquote(body["image"])
    assert resp.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("body", [{}, {"text": ""}, {"text": "x" * 1001}, {"text": 3}, {"text": "a", "more": 1}])
def test_a_qr_code_of_nothing_or_too_much_is_refused(client, body):
    resp = client.post("/api/v1/qr", json=body)
    assert_envelope(resp, 422)


def test_pages_on_loopback_say_phones_cant_join(client):
    for path in ("/console", "/games/abc"):
        page = client.get(path, headers={"Host": "127.0.0.1:5000"}).get_data(as_text=True)
        assert 'id="phones-notice"' in page and "mentalmagic serve --table" in page
        assert 'name="table-origins"' not in page
        # opened on the laptop's network address, the page's own address is the one phones reach
        lan_page = client.get(path, headers={"Host": "192.168.1.20:5000"}).get_data(as_text=True)
        assert 'id="phones-notice"' not in lan_page


def test_pages_of_a_table_server_carry_its_addresses(app, client):
    app.config["TABLE_ORIGINS"] = ["http://10.213.0.1:5000", "http://172.17.0.1:5000"]
    try:
        for path in ("/games/abc", "/games/abc/sheet"):
            page = client.get(path, headers={"Host": "localhost:5000"}).get_data(as_text=True)
            assert '<meta name="table-origins" content="http://10.213.0.1:5000 http://172.17.0.1:5000">' in page
            assert 'id="phones-notice"' not in page
    finally:
        app.config.pop("TABLE_ORIGINS")
