"""The last English words of a French table (issue 19): bad input with numbers in it, 704.4's note in an
event, the operator's words (start-up refusals, /health, too many connections) and the card source's
label, each worded in its reader's language, with the codes and params a bot words itself.

Core tier: the mini pool's database, the CLI over it."""

from __future__ import annotations

import pytest
import support
from click.testing import CliRunner

from mentalmagic.cli import main
from mentalmagic.messages import use_translations

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
    yield support.fresh_games_db(mini_card_db_path, tmp_path / "cli.sqlite")
    use_translations(None)  # --lang is the process's language: the next test's is English again


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
