"""The last English words of a French table (issue 19): bad input with numbers in it, 704.4's note in an
event, the operator's words (start-up refusals, /health, too many connections) and the card source's
label, each worded in its reader's language, with the codes and params a bot words itself.

Core tier: the mini pool's database, the CLI over it."""

from __future__ import annotations

import functools

import pytest
import support
from click.testing import CliRunner

from mentalmagic.cli import main

API = "/api/v1"
FR = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
TWO = [{"name": "Ana"}, {"name": "Bob"}]


def _error(response, status: int = 422) -> dict:
    return support.assert_envelope(response, status)


def _no_english(text: str, *sentences: str) -> None:
    for sentence in sentences:
        assert sentence not in text, text


# -- 1. bad input with numbers and choices ---------------------------------------------------------
@pytest.mark.parametrize("body, field, code, params, english, french", [
    ({"players": [{"name": "Ana"}], "library": ["Shock"]}, "players", "input.length_between", {"min": 2, "max": 16},
     "Length must be between 2 and 16.", "La longueur doit être comprise entre 2 et 16."),
    ({"players": TWO, "library": ["Shock"], "format": "oldschool"}, "format", "input.one_of", None,
     "must be one of: vintage, ", "doit être l’un de : vintage, "),
    ({"players": TWO, "library": ["Shock"], "series": ""}, "series", "input.length_between", {"min": 1, "max": 100},
     "Length must be between 1 and 100.", "La longueur doit être comprise entre 1 et 100."),
])
def test_a_bad_body_with_numbers_is_worded_in_the_callers_language_with_its_params(client, body, field, code, params,
                                                                                   english, french):
    en = _error(client.post(f"{API}/games", json=body))
    fr = _error(client.post(f"{API}/games", json=body, headers=FR))
    assert en["fields"][field][0].startswith(english) and en["message"].startswith(f"{field}: {english}")
    assert fr["fields"][field][0].startswith(french) and fr["message"].startswith(f"{field} : {french}")
    _no_english(fr["message"], english)
    assert en["code"] == fr["code"] == "invalid" and en["field_codes"] == fr["field_codes"]
    said = fr["field_codes"][field][0]
    assert said["message_code"] == code and (params is None or said["params"] == params)
    assert fr["params"]["why"] == said  # one bad field: the top-level message is about it, with its params
    if code == "input.one_of":
        assert said["params"]["choices"][0] == "vintage" and "commander" in said["params"]["choices"]


def test_a_nested_field_and_a_range_in_a_query_are_worded_too(client):
    body = {"players": [{"name": "Ana"}, {"name": ""}], "library": ["Shock"]}
    fr = _error(client.post(f"{API}/games?lang=fr", json=body))
    assert fr["fields"]["players"]["1"]["name"] == ["La longueur doit être comprise entre 1 et 60."]
    assert fr["field_codes"]["players"]["1"]["name"] == [
        {"message_code": "input.length_between", "params": {"min": 1, "max": 60}}]
    fr = _error(client.get(f"{API}/cards?q=lion&limit=0", headers=FR))
    assert fr["fields"]["limit"] == ["Doit être supérieur ou égal à 1 et inférieur ou égal à 100."]
    assert fr["field_codes"]["limit"][0] == {"message_code": "input.between", "params": {"min": 1, "max": 100}}
    en = _error(client.get(f"{API}/cards?q=lion&limit=0&lang=en", headers=FR))
    assert en["fields"]["limit"] == ["Must be greater than or equal to 1 and less than or equal to 100."]


def test_the_apis_own_checks_and_marshmallows_fixed_words_come_with_codes(client):
    fr = _error(client.get(f"{API}/candidates?printed=Shock&cost={{R}}", headers=FR))
    assert fr["fields"]["printed"] == ["donnez soit printed, soit cost, pas les deux"]
    assert fr["field_codes"]["printed"] == [{"message_code": "input.printed_or_cost", "params": {}}]
    fr = _error(client.post(f"{API}/games", json={"players": TWO, "library": ["Shock"], "wings": 2}, headers=FR))
    assert fr["fields"]["wings"] == ["Champ inconnu."]
    assert fr["field_codes"]["wings"] == [{"message_code": "input.unknown_field", "params": {}}]


def test_an_actions_count_out_of_range_is_worded_in_french(client):
    created = client.post(f"{API}/games", json={"players": TWO, "library": ["Shock"]}).get_json()
    r = client.post(f"{API}/games/{created['id']}/actions", json={"type": "draw", "player": "p1", "count": 501},
                    headers={"Authorization": f"Bearer {created['judge_token']}", **FR})
    fr = _error(r)
    assert fr["fields"]["count"] == ["Doit être supérieur ou égal à 1 et inférieur ou égal à 500."]
    assert fr["field_codes"]["count"][0]["params"] == {"min": 1, "max": 500}


@pytest.fixture
def cli_db(tmp_path, mini_card_db_path, mini_db_finder, monkeypatch):
    support.cli_over_session_pool(monkeypatch, mini_db_finder.pool, mini_db_finder)
    return support.fresh_games_db(mini_card_db_path, tmp_path / "cli.sqlite")


def _cli(db, *args, env=None):
    return CliRunner().invoke(main, ["--db", str(db), *map(str, args)], env=env)


def test_the_cli_words_a_bad_input_with_numbers_in_lang_fr(cli_db, tmp_path):
    listing = tmp_path / "list.txt"
    listing.write_text("2 Shock\n", encoding="utf-8")
    french = _cli(cli_db, "--lang", "fr", "game", "new", "Ana", "--list", listing)
    assert french.exit_code == 2 and "players : La longueur doit être comprise entre 2 et 16." in french.stderr
    _no_english(french.stderr, "Length must be")
    by_env = _cli(cli_db, "game", "new", "Ana", "--list", listing, env={"MENTALMAGIC_LANG": "fr"})
    assert "players : La longueur doit être comprise entre 2 et 16." in by_env.stderr
    english = _cli(cli_db, "game", "new", "Ana", "--list", listing)
    assert "players: Length must be between 2 and 16." in english.stderr
    fr_name = _cli(cli_db, "--lang", "fr", "game", "new", "Ana", "B" * 61, "--list", listing)
    assert "players.1.name : La longueur doit être comprise entre 1 et 60." in fr_name.stderr, fr_name.stderr


# -- 2. 704.4's note: a code in the event, worded where it is read -----------------------------------
OLD_NOTE = "already named Lightning Bolt (704.4): no naming"  # what events stored before it was a code
NOTE_FR = "déjà nommée Foudre (704.4) : pas de nomination"


def test_a_name_given_again_is_a_note_the_api_words_in_the_readers_language(client):
    created = client.post(f"{API}/games", json={"players": TWO, "library": ["Shock"], "shuffle": False}).get_json()
    url, auth = f"{API}/games/{created['id']}", {"Authorization": f"Bearer {created['judge_token']}"}

    def act(**body):
        r = client.post(f"{url}/actions", json=body, headers={**auth, **FR})
        assert r.status_code == 200, r.get_json()
        return r.get_json()["event"]

    card = act(type="draw", player="p1", count=1)["data"]["cards"][0]
    act(type="move", player="p1", card=card, to="stack", name="Lightning Bolt")
    again = act(type="move", player="p1", card=card, to="graveyard", name="lightning bolt")
    assert again["data"]["naming"] is None and again["data"]["note"] == NOTE_FR
    assert (again["data"]["note_code"], again["data"]["note_params"]) == ("event.already_named",
                                                                          {"name": "Lightning Bolt"})
    english = client.get(f"{url}/events", headers=auth).get_json()["events"][-1]["data"]
    assert english["note"] == OLD_NOTE and english["note_params"] == {"name": "Lightning Bolt"}
    french = client.get(f"{url}/events?lang=fr", headers=auth).get_json()["events"][-1]["data"]
    assert french["note"] == NOTE_FR
    player = client.get(f"{url}/events", headers={"Authorization": f"Bearer {created['players'][0]['token']}",
                                                  **FR}).get_json()["events"][-1]["data"]
    assert player["note"] == NOTE_FR  # a player's log (read through the states around each event) too


def test_an_old_events_english_note_and_a_name_without_french_read_in_the_readers_language(mini_db_finder):
    from mentalmagic.catalogue import text
    from mentalmagic.game import Event
    from mentalmagic.permissions import JUDGE
    from mentalmagic.pool import said_name
    from mentalmagic.views import event_view

    said = functools.partial(said_name, mini_db_finder.pool)
    old = event_view(Event(3, "name", "p1", {"card": "c1", "name": "Lightning Bolt", "naming": None,
                                             "note": OLD_NOTE}, "704.4"), JUDGE, said_name=said)["data"]
    assert text(old["note"], "fr") == NOTE_FR and text(old["note"], "en") == OLD_NOTE
    assert old["note_params"] == {"name": "Lightning Bolt"} and old["name"] == "Lightning Bolt"
    chain = event_view(Event(4, "name", "p1", {"note": "already named Chain Lightning (704.4): no naming"}),
                       JUDGE, said_name=said)["data"]
    assert text(chain["note"], "fr") == "déjà nommée Chain Lightning (en) (704.4) : pas de nomination"
    other = {"note": "a note no code of this arbiter wrote"}
    assert event_view(Event(5, "name", "p1", other), JUDGE, said_name=said)["data"] == other


def _replace_last_event_note(db, game: str, note) -> None:
    """The last event as older code stored it: its note as English text (undo may delete the last event)."""
    import json
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        row = conn.execute("select seq, at, type, player, data, rule from events where game_id = ? "
                           "order by seq desc limit 1", [game]).fetchone()
        data = {**json.loads(row[4]), "note": note}
        with conn:
            conn.execute("delete from events where game_id = ? and seq = ?", [game, row[0]])
            conn.execute("insert into events (game_id, seq, at, type, player, data, rule) values (?, ?, ?, ?, ?, ?, ?)",
                         [game, row[0], row[1], row[2], row[3], json.dumps(data), row[5]])
    finally:
        conn.close()


def test_the_cli_log_and_export_word_the_note_in_lang_fr_old_events_too(cli_db, tmp_path):
    import json
    import re

    listing = tmp_path / "list.txt"
    listing.write_text("1 Shock\n", encoding="utf-8")
    created = _cli(cli_db, "game", "new", "Ana", "Ben", "--list", listing, "--no-shuffle")
    game = re.search(r"game (\S+):", created.stdout).group(1)
    for args in (("draw", game, "ana", 1), ("move", game, "1", "stack", "--name", "Lightning Bolt"),
                 ("move", game, "1", "graveyard", "--name", "Lightning Bolt")):
        assert _cli(cli_db, "game", *args).exit_code == 0
    for stored in ("a code", "old English text"):
        log = json.loads(_cli(cli_db, "--lang", "fr", "game", "log", game, "--json").stdout)["events"]
        assert log[-1]["data"]["note"] == NOTE_FR, stored
        exported = _cli(cli_db, "--lang", "fr", "game", "export", game).stdout
        assert "(déjà nommée Foudre : 704.4, pas de nomination)" in exported, stored
        _no_english(exported, "already named")
        english = json.loads(_cli(cli_db, "game", "log", game, "--json").stdout)["events"]
        assert english[-1]["data"]["note"] == OLD_NOTE
        assert "(already named Lightning Bolt: 704.4, no naming)" in _cli(cli_db, "game", "export", game).stdout
        _replace_last_event_note(cli_db, game, OLD_NOTE)
    import sqlite3

    stored = sqlite3.connect(cli_db).execute("select data from events where game_id = ? order by seq desc", [game])
    assert json.loads(stored.fetchone()[0])["note"] == OLD_NOTE  # the second round read the old text
    assert _cli(cli_db, "game", "name", game, "1", "Foudre").exit_code == 0  # a name event says it too
    exported = _cli(cli_db, "--lang", "fr", "game", "export", game).stdout
    assert exported.count("(déjà nommée Foudre : 704.4, pas de nomination)") == 2, exported


# -- 3. the operator's words: settings and start-up refusals, /health, too many connections -----------
def test_a_bad_setting_and_a_start_up_refusal_are_one_line_in_the_clis_language(tmp_path):
    db = tmp_path / "arbiter.sqlite"
    bad = {"MENTALMAGIC_RATE_LIMIT": "lots"}
    french = _cli(db, "--lang", "fr", "serve", "--port", "0", env=bad)
    assert french.exit_code == 1
    assert french.stderr == ("Erreur : MENTALMAGIC_RATE_LIMIT='lots' n’est pas un nombre supérieur ou égal à 0 ; "
                             "retirez-le ou corrigez-le\n")
    english = _cli(db, "serve", "--port", "0", env=bad)
    assert english.stderr == "Error: MENTALMAGIC_RATE_LIMIT='lots' is not a number of 0 or more; unset it or fix it\n"
    empty = tmp_path / "AtomicCards.json"
    empty.write_bytes(b"")
    cards = {"MENTALMAGIC_CARDS": str(empty)}
    refused = _cli(db, "self-check", env={**cards, "MENTALMAGIC_LANG": "fr"})
    assert refused.exit_code == 1 and refused.stderr.startswith(f"Erreur : le fichier de cartes {empty} est vide : ")
    _no_english(refused.stderr, "download it again")
    assert f"the card file {empty} is empty: download it again" in _cli(db, "self-check", env=cards).stderr


@pytest.fixture
def health_app(tmp_path, mini_card_db_path, mini_db_finder):
    from mentalmagic.runtime import Runtime
    from mentalmagic.settings import Settings
    from mentalmagic.web import create_app

    db = support.fresh_games_db(mini_card_db_path, tmp_path / "health.sqlite")
    return db, create_app({"DATABASE": str(db), "RUNTIME": Runtime(db_path=db, pool=mini_db_finder.pool,
                                                                   finder=mini_db_finder),
                           "SETTINGS": Settings(rate_limit=0, games_per_hour=0, access_log="0", health_interval=0)})


def test_health_words_its_reasons_and_its_source_in_the_language_asked(health_app, mini_db_finder):
    from mentalmagic.web import schemas

    db, app = health_app
    client = app.test_client()
    source = mini_db_finder.pool.info.source  # the mini pool's file: an absolute path, as any file source
    ok = client.get(f"{API}/health", headers=FR).get_json()
    assert ok["source"] == source and ok["source_label"] == f"le fichier {source}"
    assert client.get(f"{API}/health").get_json()["source_label"] == f"the file {source}"
    db.unlink()
    r = client.get(f"{API}/health?lang=fr")
    body = r.get_json()
    assert r.status_code == 503 and schemas.HealthOut().validate(body) == {}
    assert body["reasons"] == [f"la base {db} a disparu"]
    assert body["reason_codes"] == [{"message_code": "health.database_gone", "params": {"path": str(db)}}]
    english = client.get(f"{API}/health").get_json()
    assert english["reasons"] == [f"the database {db} is gone"] and english["reason_codes"] == body["reason_codes"]


def test_health_words_what_the_card_source_lacks_in_the_language_asked_and_as_codes(tmp_path, mini_card_db_path,
                                                                                    mini_db_finder):
    """/health's lacks: each gap stored in English (cards/__init__.py) worded in the request's
    language, its code beside (lack_codes); a gap the catalogue has no code for, as stored. Every gap
    the snapshot is known to lack has its code, so its French (was test_french_table's check)."""
    import copy
    import dataclasses

    from cards import KNOWN_GAPS, SNAPSHOT_2026_11_21
    from mentalmagic.messages import gap
    from mentalmagic.runtime import Runtime
    from mentalmagic.settings import Settings
    from mentalmagic.web import create_app, schemas

    assert [g for gaps in KNOWN_GAPS.values() for g in gaps if gap(g).code == "source.gap.other"] == []
    pool = copy.copy(mini_db_finder.pool)
    pool.info = dataclasses.replace(pool.info, lacks=(*KNOWN_GAPS[SNAPSHOT_2026_11_21], "a newer version's gap"))
    db = support.fresh_games_db(mini_card_db_path, tmp_path / "lacks.sqlite")
    client = create_app({"DATABASE": str(db), "RUNTIME": Runtime(db_path=db, pool=pool, finder=mini_db_finder),
                         "SETTINGS": Settings(rate_limit=0, games_per_hour=0, access_log="0", health_interval=0)}
                        ).test_client()
    french, english = client.get(f"{API}/health", headers=FR).get_json(), client.get(f"{API}/health").get_json()
    assert schemas.HealthOut().validate(french) == {}
    assert english["lacks"] == list(pool.info.lacks)
    assert french["lacks"] == ["les noms français des cartes imprimées après octobre 2018, et de nombreuses éditions "
                               "plus anciennes", *french["lacks"][1:3], "a newer version's gap"]
    assert not set(french["lacks"][:3]) & set(english["lacks"])
    assert french["lack_codes"] == english["lack_codes"] == [
        *({"message_code": f"source.gap.{c}", "params": {}} for c in ("french_names", "later_faces", "legalities")),
        {"message_code": "source.gap.other", "params": {"text": "a newer version's gap"}}]


@pytest.mark.parametrize("request_, says", [
    (b"GET /api/v1/health?lang=fr HTTP/1.1\r\nHost: arbiter\r\n\r\n", "ce client a trop de connexions ouvertes"),
    (b"GET /api/v1/health HTTP/1.1\r\nHost: arbiter\r\nAccept-Language: fr-CA,fr;q=0.9\r\n\r\n",
     "ce client a trop de connexions ouvertes"),
    (b"GET /api/v1/health HTTP/1.1\r\nHost: arbiter\r\naccept-language: de\r\n\r\n",
     "this client has too many connections open"),
    (b"", "this client has too many connections open"),  # nothing sent yet: never waited for
])
def test_too_many_connections_is_worded_from_the_raw_request_before_the_app(request_, says):
    import json
    import socket

    from mentalmagic.web.fairness import refusal_for

    server, client = socket.socketpair()
    try:
        client.sendall(request_)
        server.setblocking(False)  # as the refusing channel has it
        head, _, body = refusal_for(server).partition(b"\r\n\r\n")
    finally:
        server.close()
        client.close()
    assert head.startswith(b"HTTP/1.1 503") and f"Content-Length: {len(body)}".encode() in head
    error = json.loads(body)["error"]
    assert error["code"] == "too_many_connections" and error["message"].startswith(says)
    assert error["message_code"] == "server.too_many_connections"


# -- 4. the card source's label -------------------------------------------------------------------
def test_the_lookup_page_and_the_cli_word_the_card_source(health_app, mini_db_finder, cli_db):
    from pathlib import Path

    from mentalmagic.catalogue import text
    from mentalmagic.runtime import source_said

    _, app = health_app
    client = app.test_client()
    name = Path(mini_db_finder.pool.info.source).name
    assert f"le fichier {name}</strong>" in client.get("/", headers=FR).get_data(as_text=True)
    assert f"the file {name}</strong>" in client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    embedded = source_said("embedded: cards/AtomicCards.json.xz")
    assert text(embedded, "fr") == "l’instantané embarqué (cards/AtomicCards.json.xz)"
    assert text(embedded, "en") == "the embedded snapshot (cards/AtomicCards.json.xz)"
    ok = _cli(cli_db, "--lang", "fr", "self-check", env={"MENTALMAGIC_CARDS": mini_db_finder.pool.info.source})
    assert ok.exit_code == 0, ok.output
    assert ok.stdout == (f"ok : {cli_db} contient {len(mini_db_finder.pool)} cartes ; "
                         f"source : le fichier {mini_db_finder.pool.info.source}\n")


def test_the_clis_own_usage_errors_are_worded_in_lang_fr(cli_db, tmp_path):
    french = _cli(cli_db, "--lang", "fr", "game", "new", "Ana", "Ben")
    assert french.exit_code == 2 and "donnez soit --deck DECK, soit --list FICHIER" in french.stderr
    _no_english(french.stderr, "give one of")
    assert "give one of --deck DECK or --list FILE" in _cli(cli_db, "game", "new", "Ana", "Ben").stderr
    nowhere = _cli(cli_db, "--lang", "fr", "game", "use", "nope")
    assert "pas de partie 'nope' dans cette base" in nowhere.stderr, nowhere.stderr
    unknown = _cli(cli_db, "--lang", "fr", "candidates", "Bolt of Nothing", env={"MENTALMAGIC_CARDS": ""})
    assert unknown.exit_code == 1, unknown.output
    assert "aucune carte ne s’appelle 'Bolt of Nothing', et ce n’est pas non plus un coût de mana" in unknown.stderr
    # the stored cards are the mini pool's file, MENTALMAGIC_CARDS (empty) names the embedded snapshot
    assert ("attention : la base de cartes a pour source le fichier /" in unknown.stderr
            and "mais MENTALMAGIC_CARDS désigne l’instantané embarqué (cards/AtomicCards.json.xz)" in unknown.stderr)
