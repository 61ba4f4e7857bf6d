"""Input a careless or hostile bot may send: always the envelope, never a 500, nothing recorded."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from support import assert_envelope, fresh_games_db

from mentalmagic.cli import main
from mentalmagic.runtime import Runtime
from mentalmagic.web import create_app

API = "/api/v1"


@pytest.fixture(scope="module")
def client(tmp_path_factory, mini_card_db_path, mini_db_finder):
    db = fresh_games_db(mini_card_db_path, tmp_path_factory.mktemp("hostile") / "games.sqlite")
    finder = mini_db_finder
    app = create_app({"DATABASE": str(db), "RUNTIME": Runtime(db_path=db, pool=finder.pool, finder=finder)})
    return app.test_client()


@pytest.fixture
def game(client):
    created = client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}],
                                               "library": ["Shock", "Lightning Bolt"]}).get_json()
    return created["id"], {"Authorization": f"Bearer {created['players'][0]['token']}"}


@pytest.mark.parametrize("cost", ["{" + "9" * 5000 + "}", "{1" + "0" * 400 + "}", "{10000000}"])
def test_a_generic_number_larger_than_any_printed_one_is_a_422(client, cost):
    for path in ("candidates", "check"):
        query = {"cost": cost} if path == "candidates" else {"cost": cost, "name": "Shock"}
        error = assert_envelope(client.get(f"{API}/{path}", query_string=query), 422)
        assert "over 7 digits" in error["fields"]["cost"][0]


@pytest.mark.parametrize("query", ["since=9223372036854775808", "since=2147483648", "limit=10001",
                                   "since=-1", "limit=0"])
def test_an_integer_past_its_bounds_in_a_query_is_a_422(client, game, query):
    """Past SQLite's 64 bits `since` was a 500 (OverflowError, issue 23): every integer is bounded."""
    gid, ana = game
    error = assert_envelope(client.get(f"{API}/games/{gid}/events?{query}", headers=ana), 422)
    assert query.split("=")[0] in error["fields"]


@pytest.mark.parametrize("query", ["offset=9223372036854775808", "limit=101", "offset=-1"])
def test_an_offset_or_limit_past_its_bounds_is_a_422(client, query):
    path = "candidates?printed=Shock&" if "offset" in query else "cards?q=sh&"
    error = assert_envelope(client.get(f"{API}/{path}{query}"), 422)
    assert query.split("=")[0] in error["fields"]


@pytest.mark.parametrize("kind", [["draw"], {"draw": 1}, None, 7])
def test_an_action_type_that_isnt_text_is_a_422_on_the_type_field(client, game, kind):
    gid, ana = game
    error = assert_envelope(client.post(f"{API}/games/{gid}/actions", json={"type": kind}, headers=ana), 422)
    assert "type" in error["fields"]


def test_a_body_nested_too_deep_is_a_400(client, game):
    gid, ana = game
    body = "[" * 100_000 + "]" * 100_000
    response = client.post(f"{API}/games/{gid}/actions", data=body, headers={**ana, "Content-Type": "application/json"})
    error = assert_envelope(response, 400)  # the body limit may answer 413 first for larger ones; this one fits
    assert error["message_code"] == "body.json_deep" and "nested too deep" in error["message"]


@pytest.mark.parametrize("raw", [b"nope", b"{\"type\": ", b""])
def test_a_body_that_isnt_json_is_told_so_not_that_it_is_nested_too_deep(client, game, raw):
    gid, ana = game
    response = client.post(f"{API}/games/{gid}/actions", data=raw, headers={**ana, "Content-Type": "application/json"})
    error = assert_envelope(response, 400)
    assert error["message_code"] == "body.not_json" and "nested" not in error["message"]


@pytest.mark.parametrize("raw, says", [
    ('{"type": "draw", "count": 1180591620717411303424}', "less than or equal to 500"),  # 2**70: an integer
    ('{"type": "draw", "count": 1.0}', "Not a valid integer"),
    ('{"type": "draw", "count": NaN}', "Not a valid integer"),
    ('\ufeff{"type": "draw", "count": 1e400}', "Not a valid integer"),  # a BOM, and infinity
])
def test_numbers_orjson_reads_otherwise_are_decided_as_the_standard_library_reads_them(client, game, raw, says):
    """Action bodies are read by orjson when it reads them exactly as json does; past 64 bits it
    would read a float, and it refuses NaN and a BOM: those take json's path, with its verdict."""
    gid, ana = game
    response = client.post(f"{API}/games/{gid}/actions", data=raw.encode("utf-8"),
                           headers={**ana, "Content-Type": "application/json"})
    assert says in assert_envelope(response, 422)["fields"]["count"][0]


@pytest.mark.parametrize("field", ["name", "team", "library"])
def test_text_that_isnt_unicode_is_a_400_and_creates_nothing(client, field):
    player = {"name": "Ana", "team": None}
    body = {"players": [player, {"name": "Bob"}], "library": ["Shock"]}
    if field == "library":
        body["library"] = ["\ud800"]
    else:
        player[field] = "\ud800"
    raw = json.dumps(body)  # json escapes the lone surrogate as \\ud800, as a bot's encoder would
    response = client.post(f"{API}/games", data=raw, headers={"Content-Type": "application/json"})
    assert_envelope(response, 400)


def test_the_cli_refuses_a_nameless_empty_deck_as_the_api_does(client, tmp_path, mini_card_db_path):
    db = fresh_games_db(mini_card_db_path, tmp_path / "games.sqlite")
    api = assert_envelope(client.post(f"{API}/decks", json={"name": "", "list": ""}), 422)
    result = CliRunner().invoke(main, ["--db", str(db), "deck", "add", "", "-"], input="")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert all(f"{field}: " in result.output for field in api["fields"])  # the same fields refused
    assert "saved deck" not in result.output
    assert CliRunner().invoke(main, ["--db", str(db), "deck", "list"]).stdout == ""


def test_the_cli_says_why_a_cost_in_braces_is_no_cost(tmp_path, mini_card_db_path):
    db = fresh_games_db(mini_card_db_path, tmp_path / "games.sqlite")
    for text, why in (("{99999999999999}", "a number over 7 digits"), ("{Q}", "unknown symbol {Q}")):
        result = CliRunner().invoke(main, ["--db", str(db), "candidates", text])
        assert result.exit_code == 1 and why in result.output, result.output


def test_an_unknown_card_names_the_field_with_a_list_of_messages(client):
    error = assert_envelope(client.get(f"{API}/cards/No Such Card"), 404)
    assert error["fields"] == {"name": ["unknown card"]}


def test_the_cli_reports_a_bad_setting_without_a_traceback(tmp_path, mini_card_db_path, monkeypatch):
    db = fresh_games_db(mini_card_db_path, tmp_path / "cli.sqlite")
    monkeypatch.setenv("MENTALMAGIC_BANLIST", str(tmp_path / "missing.csv"))
    result = CliRunner().invoke(main, ["--db", str(db), "card", "Shock"])
    assert result.exit_code == 1 and "missing.csv" in result.output and "Traceback" not in result.output
    monkeypatch.delenv("MENTALMAGIC_BANLIST")
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(tmp_path / "nope.json"))
    result = CliRunner().invoke(main, ["--db", str(db), "build-cards"])
    assert result.exit_code == 1 and "not a file" in result.output


def test_a_cli_look_up_never_rebuilds_the_cards_under_a_server(tmp_path, card_db_path, snapshot_path, monkeypatch):
    """The stored snapshot stays; the judge is told the setting names another source."""
    db = fresh_games_db(card_db_path, tmp_path / "cli.sqlite")
    other = tmp_path / "other.json"  # the setting now names another source than the stored snapshot
    other.write_text(json.dumps({"meta": {}, "data": {}}), encoding="utf-8")
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(other))
    result = CliRunner().invoke(main, ["--db", str(db), "card", "lions des savanes"])
    assert result.exit_code == 0, result.output
    assert "Savannah Lions" in result.output  # French names: still the snapshot
    assert "warning: the card database holds" in result.output and "build-cards" in result.output
