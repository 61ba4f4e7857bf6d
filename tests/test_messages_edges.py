"""The words at the edges (issue 19): the API in the language the request asks (?lang=, else
Accept-Language, else English), the CLI in --lang / MENTALMAGIC_LANG; code, rule and params the same."""

from __future__ import annotations

import pytest
import support
from click.testing import CliRunner

from mentalmagic.cli import main
from mentalmagic.web import schemas

API = "/api/v1"


@pytest.fixture(scope="module")
def client(tmp_path_factory, card_db_path, pool, finder):
    return support.games_app(tmp_path_factory, card_db_path, pool, finder, "messages_edges").test_client()


def _taken_twice(client, **request) -> dict:
    """Ana names her first Shock Lightning Bolt, then tries the same name for her second (704.2)."""
    created = client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}],
                                                "library": ["Shock", "Shock"], "shuffle": False}).get_json()
    url, auth = f"{API}/games/{created['id']}", {"Authorization": f"Bearer {created['judge_token']}"}
    client.post(f"{url}/actions", json={"type": "draw", "player": "p1", "count": 2}, headers=auth)
    cards = [c["id"] for c in client.get(url, headers=auth).get_json()["cards"] if c["zone"] == "hand"]
    first = client.post(f"{url}/actions", json={"type": "move", "player": "p1", "card": cards[0], "to": "stack",
                                                "name": "Lightning Bolt"}, headers=auth)
    assert first.status_code == 200, first.get_json()
    query = f"?lang={request['lang']}" if "lang" in request else ""
    r = client.post(f"{url}/actions{query}", json={"type": "move", "player": "p1", "card": cards[1], "to": "stack",
                                                   "name": "lightning bolt"},
                    headers={**auth, **request.get("headers", {})})
    assert r.status_code == 409 and schemas.ErrorOut().validate(r.get_json()) == {}
    return r.get_json()["error"]


@pytest.mark.parametrize("request_, start", [
    ({}, "Lightning Bolt is already the name of another card in this game"),
    ({"headers": {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}}, "Foudre est déjà le nom d’une autre carte"),
    ({"headers": {"Accept-Language": "de, en;q=0.5"}}, "Lightning Bolt is already the name"),
    ({"lang": "fr", "headers": {"Accept-Language": "en"}}, "Foudre est déjà le nom"),
    ({"lang": "en", "headers": {"Accept-Language": "fr"}}, "Lightning Bolt is already the name"),
])
def test_a_refusal_is_worded_in_the_language_asked_with_the_same_code_rule_and_params(client, request_, start):
    error = _taken_twice(client, **request_)
    assert error["message"].startswith(start), error
    assert (error["code"], error["rule"], error["message_code"]) == ("name_taken", "704.2", "name.taken")
    assert error["params"] == {"name": "Lightning Bolt"}


def test_a_field_error_is_worded_in_french_too(client):
    r = client.get(f"{API}/candidates?cost={{W&lang=fr")
    error = r.get_json()["error"]
    assert r.status_code == 422 and error["code"] == "invalid"
    assert error["fields"]["cost"] == ["coût de mana non valide : « {W » (du texte hors des accolades)"]
    assert error["message"] == "cost : " + error["fields"]["cost"][0]
    assert error["message_code"] == "invalid.field" and error["params"]["why"]["params"]["text"] == "{W"


def test_a_page_cookie_does_not_change_the_apis_default_but_the_page_asks_in_its_language(client):
    client.set_cookie("lang", "fr")
    try:
        assert _taken_twice(client)["message"].startswith("Lightning Bolt is already")
    finally:
        client.delete_cookie("lang")


def test_the_cli_words_its_refusals_in_lang_fr(tmp_path, card_db_path, pool, finder, monkeypatch):
    support.cli_over_session_pool(monkeypatch, pool, finder)
    db = support.fresh_games_db(card_db_path, tmp_path / "cli.sqlite")
    listing = tmp_path / "list.txt"
    listing.write_text("2 Shock\n", encoding="utf-8")

    def run(*args, env=None):
        return CliRunner().invoke(main, ["--db", str(db), *map(str, args)], env=env)

    import re
    created = run("game", "new", "Ana", "Ben", "--list", listing, "--no-shuffle")
    game = re.search(r"game (\S+):", created.stdout).group(1)
    assert run("game", "draw", game, "ana", 2).exit_code == 0
    assert run("game", "move", game, "1", "stack", "--name", "Lightning Bolt").exit_code == 0
    french = run("--lang", "fr", "game", "move", game, "2", "stack", "--name", "Lightning Bolt")
    assert french.exit_code == 1
    assert french.stderr.startswith("refusé (704.2) : Foudre est déjà le nom d’une autre carte"), french.stderr
    by_env = run("game", "move", game, "2", "stack", "--name", "Lightning Bolt", env={"MENTALMAGIC_LANG": "fr"})
    assert "est déjà le nom" in by_env.stderr
    english = run("game", "move", game, "2", "stack", "--name", "Lightning Bolt")
    assert english.stderr.startswith("refused (704.2): Lightning Bolt is already the name of another card")


@pytest.mark.parametrize("lang, body, field, english, french", [
    # marshmallow's own defaults, worded by the catalogue
    ("fr", {"players": "Ana", "library": ["Shock"]}, "players", "Not a valid list.", "Pas une liste valide."),
    ("fr", {"library": ["Shock"]}, "players", "Missing data for required field.",
     "Donnée manquante pour un champ obligatoire."),
    ("fr", {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock"], "wings": 2}, "wings", "Unknown field.",
     "Champ inconnu."),
    # the inputs' own checks (inputs.py)
    ("fr", {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock"], "deck": "x"}, "library",
     "give exactly one of library or deck", "donnez soit library, soit deck, pas les deux"),
])
def test_bad_input_is_worded_in_the_callers_language(client, lang, body, field, english, french):
    fr = client.post(f"{API}/games", json=body, headers={"Accept-Language": "fr-FR,fr;q=0.9"}).get_json()["error"]
    en = client.post(f"{API}/games", json=body).get_json()["error"]
    assert fr["code"] == en["code"] == "invalid"
    assert french in fr["fields"][field] and english in en["fields"][field]
    assert len(fr["fields"]) > 1 or (french in fr["message"] and english in en["message"])


def test_an_action_of_no_known_type_is_refused_in_french(client):
    body = {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock"]}
    created = client.post(f"{API}/games", json=body).get_json()
    r = client.post(f"{API}/games/{created['id']}/actions", json={"type": "fly"},
                    headers={"Authorization": f"Bearer {created['judge_token']}", "Accept-Language": "fr"})
    error = r.get_json()["error"]
    assert r.status_code == 422 and error["fields"]["type"][0].startswith("doit être l’un de : ")
