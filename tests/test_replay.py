"""A game moves between machines (issue 31): the judge's export read back by POST /games/import, every
event replayed through the rules (replay.py), on another database under real HTTP (waitress); an
altered record refused citing its event and rule, nothing stored; a record checked without storing."""

from __future__ import annotations

import copy
import json
import re
import urllib.error
import urllib.request

import pytest
from driver import ANA, API, BOB, JUDGE, Game
from support import assert_envelope, checked, games_app, schema, served

from mentalmagic.web import schemas


@pytest.fixture(scope="module")
def other_app(tmp_path_factory, mini_card_db_path, mini_db_finder):
    """A second server's app: a database of its own, the same cards."""
    return games_app(tmp_path_factory, mini_card_db_path, mini_db_finder.pool, mini_db_finder, "other_app")


def _played(client) -> Game:
    """A game with draws, namings, a reveal, a cut and a morph."""
    g = Game(client, ["Shock", "Lightning Bolt", "Savannah Lions", "Den Protector", "Giant Growth", "Shock"])
    shock, bolt = g.draw(ANA, 2)
    lions, protector = g.draw(BOB, 2)
    g.cast(ANA, shock, "Chain Lightning")
    g.do(BOB, type="move", card=lions, to="battlefield", name="Elite Vanguard")
    g.do(JUDGE, type="reveal", player=ANA, count=1)
    g.do(JUDGE, type="shuffle", player=ANA, at=1)
    g.morph(BOB, protector, via="megamorph")
    g.cast(ANA, bolt, "Goblin Guide")
    return g


def _export(g: Game) -> dict:
    response = g.get("/export")
    assert response.status_code == 200, response.get_json()
    doc = response.get_json()
    assert schema(schemas.GameExportOut).validate(doc) == {}
    return doc


def _post(base: str, doc, query: str = "") -> tuple[int, dict]:
    req = urllib.request.Request(f"{base}{API}/games/import{query}", data=json.dumps(doc).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _count(app) -> int:
    return len(app.extensions["mentalmagic"].games.unit_of_work().games.summaries())


def test_a_game_exported_on_one_database_plays_on_imported_into_another_server(client, other_app):
    g = _played(client)
    doc = _export(g)
    assert "secret" not in doc["setup"]  # D15: the key of the players' handles never leaves
    with served(other_app) as base:
        status, body = _post(base, doc)
    assert status == 201, body
    assert schema(schemas.ImportGameOut).validate(body) == {}
    assert body["id"] != g.id and body["imported_from"] == g.id and body["events"] == body["seq"] == 8
    assert [p["name"] for p in body["players"]] == ["Ana", "Bob"]
    moved = Game.joined(other_app.test_client(), g)
    moved.id, moved.judge_token = body["id"], body["judge_token"]
    moved.tokens = {p["id"]: p["token"] for p in body["players"]}
    assert body["judge_token"] != g.judge_token and moved.tokens != g.tokens  # new tokens, shown once
    assert [{**e, "at": e["at"]} for e in moved.events()] == g.events()  # the log as it was
    assert moved.names() == g.names()
    same = ("id", "zone", "owner", "controller", "face_down", "named_as", "printed", "handle")
    assert [{k: c.get(k) for k in same} for c in moved.view()["cards"]] == \
           [{k: c.get(k) for k in same} for c in g.view()["cards"]]
    # play goes on, with the same refusals: Chain Lightning is taken (704.2) in both
    for game in (g, moved):
        [shock] = game.draw(ANA)
        game.refused(ANA, 409, "name_taken", "704.2", type="move", card=shock, to="stack", name="Chain Lightning")
        assert game.cast(ANA, shock, "Goblin Taskmaster")["event"]["rule"] == "705.1"
    # the old tokens open nothing on the new server
    assert moved.client.get(f"{API}/games/{moved.id}", headers={"Authorization": f"Bearer {g.judge_token}"}) \
        .status_code == 401


def test_an_event_given_a_name_another_card_holds_is_refused_citing_it_and_704_2_and_nothing_is_stored(
        client, other_app):
    doc = _export(_played(client))
    altered = copy.deepcopy(doc)
    guide = next(e for e in altered["events"] if (e["data"].get("naming") or {}).get("name") == "Goblin Guide")
    guide["data"]["naming"]["name"] = "Chain Lightning"  # taken by Ana's Shock at event 3
    before = _count(other_app)
    response = checked(other_app.test_client().post(f"{API}/games/import", json=altered))
    error = assert_envelope(response, 409)
    assert (error["code"], error["rule"], error["params"]["seq"]) == ("record_refused", "704.2", guide["seq"])
    assert error["message"].startswith(f"event {guide['seq']} (move) is refused")
    assert _count(other_app) == before
    french = checked(other_app.test_client().post(f"{API}/games/import", json=altered,
                                                  headers={"Accept-Language": "fr"})).get_json()["error"]
    assert french["message"].startswith(f"l’évènement {guide['seq']}") and french["rule"] == "704.2"


def test_an_event_that_says_other_than_its_action_is_refused_as_altered(client):
    doc = _export(_played(client))
    doc["events"][0]["data"]["cards"].reverse()  # a draw doesn't take the top cards in another order
    error = assert_envelope(checked(client.post(f"{API}/games/import", json=doc)), 409)
    assert error["params"]["seq"] == 1 and error["params"]["why"]["message_code"] == "record.altered"
    assert error["rule"] == "702.2"


def test_a_dry_run_says_the_record_holds_and_stores_nothing(client, app):
    doc = _export(_played(client))
    before = _count(app)
    body = checked(client.post(f"{API}/games/import?dry_run=1", json=doc)).get_json()
    assert body["dry_run"] is True and body["events"] == 8 and "judge_token" not in body
    assert schema(schemas.ImportGameOut).validate(body) == {}
    assert _count(app) == before


@pytest.mark.parametrize("change, field", [
    (lambda d: d.pop("setup"), "setup"),  # the page's export, a player's: no library order (D15)
    (lambda d: d.update(version=1), "version"),
    (lambda d: d.update(export="deck"), "export"),
    (lambda d: d["setup"].update(players="Ana"), "setup"),
    (lambda d: d.update(events=[1]), "events.0"),
    (lambda d: d["setup"]["players"][0].update(name=7), "setup"),
    (lambda d: d["setup"]["library"][0].__setitem__(1, ["Shock"]), "setup"),
    (lambda d: d["events"][0].update(seq="1"), "events.0"),
])
def test_what_is_not_the_judges_export_is_a_422_naming_its_field(client, change, field):
    doc = _export(_played(client))
    change(doc)
    error = assert_envelope(checked(client.post(f"{API}/games/import", json=doc)), 422)
    assert field in error["fields"], error


def test_only_the_judge_exports_the_whole_record(client):
    g = Game(client, ["Shock"])
    assert_envelope(g.get("/export", ANA), 403)


def test_a_card_the_pool_lacks_is_named(client):
    doc = _export(_played(client))
    doc["setup"]["library"][0][1] = "No Such Card Anywhere"
    assert_envelope(checked(client.post(f"{API}/games/import", json=doc)), 404)


# -- the terminal: game export --json, game verify, game import ------------------------------------
@pytest.fixture
def cli_db(tmp_path, mini_card_db_path, mini_db_finder, monkeypatch):
    from support import cli_over_session_pool, fresh_games_db

    cli_over_session_pool(monkeypatch, mini_db_finder.pool, mini_db_finder)
    return fresh_games_db(mini_card_db_path, tmp_path / "cli.sqlite")


def _cli(db, *args, lang="en"):
    from click.testing import CliRunner

    from mentalmagic.cli import main

    return CliRunner().invoke(main, ["--db", str(db), "--lang", lang, "game", *map(str, args)])


def test_the_terminal_verifies_and_imports_a_record_and_refuses_an_altered_one_in_french(client, cli_db, tmp_path):
    g = _played(client)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    doc = _export(g)
    good.write_text(json.dumps(doc), encoding="utf-8")
    guide = next(e for e in doc["events"] if (e["data"].get("naming") or {}).get("name") == "Goblin Guide")
    guide["data"]["naming"]["name"] = "Chain Lightning"
    bad.write_text(json.dumps(doc), encoding="utf-8")

    verified = _cli(cli_db, "verify", good)
    assert verified.exit_code == 0 and "8 events, every one legal under magic-ville" in verified.stdout
    refused = _cli(cli_db, "verify", bad, lang="fr")
    assert refused.exit_code == 1
    assert f"refusé (704.2) : l’évènement {guide['seq']} (move) est refusé : Chain Lightning" in refused.output
    assert _cli(cli_db, "import", bad).exit_code == 1 and "no game yet" not in _cli(cli_db, "list").stdout
    assert _cli(cli_db, "list").stdout == ""  # nothing stored

    imported = _cli(cli_db, "import", good)
    assert imported.exit_code == 0, imported.output
    out = imported.stdout
    assert f"imported from {g.id}, 8 events replayed" in out and "judge token (shown only now)" in out
    assert re.search(r"p1  Ana  token: \S+", out) and re.search(r"p2  Bob  token: \S+", out)
    shown = _cli(cli_db, "show").stdout  # the current game: the one imported
    assert "Chain Lightning" in shown and "Goblin Guide" in shown
    again = json.loads(_cli(cli_db, "export", "--json").stdout)
    assert again["events"] == _export(g)["events"] and again["setup"]["players"] == doc["setup"]["players"]


def test_a_commander_game_moves_with_its_commanders_their_casts_and_damage(client, other_app):
    body = {"format": "commander", "shuffle": False, "library": ["Shock", "Lightning Bolt", "Goblin Guide"],
            "players": [{"name": "Ana", "commander": "Krenko, Mob Boss"},
                        {"name": "Bob", "commander": ["Thrasios, Triton Hero", "Tymna the Weaver"]}]}
    created = checked(client.post(f"{API}/games", json=body)).get_json()
    game = Game.__new__(Game)  # the driver's game over this commander game (Game() makes plain ones)
    game.client, game.id, game.judge_token = client, created["id"], created["judge_token"]
    game.tokens, game.pids = {p["id"]: p["token"] for p in created["players"]}, [p["id"] for p in created["players"]]
    krenko = created["players"][0]["commander"]
    game.do(ANA, type="move", card=krenko, to="stack")  # 903.8: the first cast from the command zone
    game.do(ANA, type="move", card=krenko, to="battlefield")
    game.do(ANA, type="commander_damage", player=BOB, commander=krenko, amount=5)
    doc = _export(game)
    assert [c[2] for c in doc["setup"]["commanders"]] == ["p1", "p2", "p2"]
    moved = checked(other_app.test_client().post(f"{API}/games/import", json=doc))
    assert moved.status_code == 201, moved.get_json()
    body = moved.get_json()
    assert body["players"][0]["commander"] == krenko and body["events"] == 3
    view = checked(other_app.test_client().get(f"{API}/games/{body['id']}",
                                               headers={"Authorization": f"Bearer {body['judge_token']}"})).get_json()
    ana, bob = view["players"]
    assert ana["commander_casts"] == {krenko: 1} and bob["commander_damage"] == {krenko: 5}


def test_a_record_past_an_actions_body_limit_is_read_up_to_3_mib(client):
    doc = _export(_played(client))
    doc["game"]["note"] = "x" * 300_000  # a long game's record is past the 256 KiB an action may send
    assert checked(client.post(f"{API}/games/import?dry_run=1", json=doc)).status_code == 200
    doc["game"]["note"] = "x" * (3 * 1024 * 1024)
    assert_envelope(checked(client.post(f"{API}/games/import?dry_run=1", json=doc)), 413)


def test_an_import_retried_with_its_idempotency_key_makes_one_game(client, app):
    doc = _export(_played(client))
    before = _count(app)
    key = {"Idempotency-Key": "moves-import-once"}
    first = checked(client.post(f"{API}/games/import", json=doc, headers=key))
    again = checked(client.post(f"{API}/games/import", json=doc, headers=key))
    assert first.status_code == again.status_code == 201 and first.get_json() == again.get_json()
    assert _count(app) == before + 1
