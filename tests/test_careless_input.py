"""Issue 30, careless input, tried as a new user would: each mistake gets its own plain refusal, in the
API and the CLI alike, naming the field at fault (or the game, or the file), with suggestions where
a word or a card name was misspelt; never a silent guess, never a refusal that names the wrong thing."""

from __future__ import annotations

import re

import pytest
import support
from click.testing import CliRunner
from driver import ANA, API, BOB, JUDGE, Game
from support import assert_envelope

from mentalmagic.cli import main

LIBRARY = ["Shock", "Savannah Lions", "Lightning Bolt", "Craw Wurm"]


@pytest.fixture
def cli_db(tmp_path, mini_card_db_path, mini_db_finder, monkeypatch):
    """A games database over the mini pool, the CLI reading the session's pool."""
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(mini_card_db_path.parent / "AtomicCards.json"))
    support.cli_over_session_pool(monkeypatch, mini_db_finder.pool, mini_db_finder)
    return support.fresh_games_db(mini_card_db_path, tmp_path / "cli.sqlite")


def cli(db, *args, lang="en"):
    return CliRunner().invoke(main, ["--db", str(db), "--lang", lang, *map(str, args)])


def new_game(client, *names: str):
    return client.post(f"{API}/games", json={"players": [{"name": n} for n in names], "library": LIBRARY})


# -- players' names --------------------------------------------------------------------------------
@pytest.mark.parametrize(("names", "field"), [
    (("Ana", "ana"), "players.1.name"),
    (("Ana", "Bob", "ÁNA"), "players.2.name"),
    (("Ána", "Ana"), "players.1.name"),
    (("A\x00na", "Bob"), "players.0.name"),
    (("Ana", "Bob\n"), "players.1.name"),
    (("Ana", "Bob\u202e"), "players.1.name"),
])
def test_two_names_equal_ignoring_case_and_accents_or_a_control_character_are_refused(client, names, field):
    error = assert_envelope(new_game(client, *names), 422)
    assert list(error["fields"]) == [field], error
    assert error["field_codes"][field][0]["message_code"] in ("setup.same_name", "setup.control_character")


def test_the_cli_refuses_the_same_names_naming_the_field(cli_db, tmp_path):
    listed = tmp_path / "list.txt"
    listed.write_text("4 Shock\n", encoding="utf-8")
    result = cli(cli_db, "game", "new", "Ana", "ana", "--list", listed)
    assert result.exit_code != 0
    assert "players.1.name" in result.output and "'ana' is 'Ana' ignoring case and accents" in result.output
    result = cli(cli_db, "game", "new", "Ana", "ána", "--list", listed, lang="fr")
    assert result.exit_code != 0 and "ne diffèrent que par la casse ou les accents" in result.output


def test_names_that_differ_otherwise_are_taken(client):
    assert new_game(client, "Ana", "Anna", "Ana Maria").status_code == 201


# -- leave_game's names (D12) ------------------------------------------------------------------------
def test_naming_a_card_that_is_not_the_leavers_is_a_422_not_dropped(client):
    g = Game(client, ["Shock", "Savannah Lions", "Craw Wurm"])
    [bobs] = g.draw(BOB)
    g.morph(BOB, bobs)
    [anas] = g.draw(ANA)
    before = g.record()
    for who, names in ((JUDGE, {"ffffffffff": "Shock"}), (JUDGE, {bobs: "Shock"}), (ANA, {anas: "Shock"})):
        error = g.refused(who, 422, "invalid", cites_rule=False, type="leave_game", player=ANA, names=names)
        assert error["message_code"] == "names.not_leaving" and list(error["fields"]) == ["names"], error
    assert g.record() == before


def test_naming_the_leavers_face_down_card_is_heard(client):
    g = Game(client, ["Shock", "Savannah Lions"])
    [card] = g.draw(ANA)
    g.morph(ANA, card)
    done = g.do(JUDGE, type="leave_game", player=ANA, names={card: "Goblin Taskmaster"})["event"]["data"]
    assert done["namings"][card]["name"] == "Goblin Taskmaster"


# -- a card named wrong: unknown_card, with suggestions, under the field that named it ----------------
def test_a_game_with_misspelt_library_cards_is_unknown_card_with_suggestions(client):
    response = client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}],
                                                 "library": ["Shock", "Savanah Lions", "Lightnig Bolt"]})
    error = assert_envelope(response, 404)
    assert error["code"] == "unknown_card" and error["params"]["name"] == "Lightnig Bolt", error
    assert error["suggestions"][0] == "Lightning Bolt"
    assert "Savanah Lions" in error["fields"]["library"][0] and "Lightnig Bolt" in error["fields"]["library"][0]


def test_a_check_of_a_misspelt_name_is_unknown_card_with_suggestions(client):
    error = assert_envelope(client.get(f"{API}/check?printed=Shock&name=Lightnig%20Bolt"), 404)
    assert error["code"] == "unknown_card" and list(error["fields"]) == ["name"], error
    assert error["suggestions"][0] == "Lightning Bolt"
    verdict = client.get(f"{API}/check?printed=Fire%20//%20Ice&name=Fire%20//%20Ice").get_json()
    assert verdict["legal"] is False  # a card's full name that is no name: still a verdict (704.1)


@pytest.mark.parametrize(("path", "field"), [
    ("/candidates?printed=Shok", "printed"),
    ("/check?printed=Shok&name=Shock", "printed"),
    ("/cards/Shok", "name"),
])
def test_each_field_at_fault_under_its_own_name(client, path, field):
    error = assert_envelope(client.get(f"{API}{path}"), 404)
    assert error["code"] == "unknown_card" and list(error["fields"]) == [field], error
    assert "Shock" in error["suggestions"]


# -- every refusal's message_code is a catalogue code --------------------------------------------------
@pytest.mark.parametrize("dry", ["", "?dry_run=1"])
def test_a_players_undo_line_is_refused_with_a_catalogue_code(client, dry):
    g = Game(client, LIBRARY)
    g.draw(ANA)
    error = assert_envelope(client.post(f"{API}/games/{g.id}/line{dry}", json={"line": "undo"},
                                        headers=g.headers(ANA)), 403)
    assert error["message_code"] == "judge_only.undo" and error["message"] != "undo", error


# -- the CLI: an unknown game id is said first -----------------------------------------------------------
@pytest.fixture
def cli_game(cli_db, tmp_path):
    listed = tmp_path / "list.txt"
    listed.write_text("4 Shock\n4 Savannah Lions\n", encoding="utf-8")
    result = cli(cli_db, "game", "new", "Ana", "Bob", "--list", listed)
    assert result.exit_code == 0, result.output
    return cli_db


@pytest.mark.parametrize("args", [
    ("draw", "nosuchgame", "ana", "2"),
    ("draw", "nosuchgame", "ana"),
    ("do", "nosuchgame", "ana", "draw", "1"),
    ("do", "nosuchgame", "ana draw 1"),
    ("show", "nosuchgame"),
])
def test_the_cli_says_no_game_for_an_unknown_game_id_first(cli_game, args):
    result = cli(cli_game, "game", *args)
    assert result.exit_code != 0 and "no game 'nosuchgame'" in result.output, result.output
    assert "valid integer" not in result.output and "player" not in result.output
    french = cli(cli_game, "game", *args, lang="fr")
    assert french.exit_code != 0 and re.search(r"partie (« |')nosuchgame", french.output), french.output


def test_the_cli_still_reads_a_first_word_that_is_meant_for_the_current_game(cli_game):
    assert cli(cli_game, "game", "draw", "ana", "2").exit_code == 0
    assert cli(cli_game, "game", "do", "bob", "draw", "1").exit_code == 0
    misspelt = cli(cli_game, "game", "draw", "anna")  # a player misspelt: said so, not "no game"
    assert misspelt.exit_code != 0 and "no game" not in misspelt.output, misspelt.output


# -- the CLI: --db in a folder that doesn't exist ----------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_db_in_a_missing_folder_is_refused_in_one_line_and_nothing_is_made(tmp_path, lang):
    db = tmp_path / "nonexistent" / "dir" / "x.sqlite"
    result = CliRunner().invoke(main, ["--db", str(db), "--lang", lang, "candidates", "Shock"])
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, result.output
    said = {"en": f"no folder {db.parent}", "fr": f"pas de dossier {db.parent}"}[lang]
    assert said in result.output and "Traceback" not in result.output, result.output
    assert not (tmp_path / "nonexistent").exists()


# -- a type or keyword filter's word no card has ----------------------------------------------------------
@pytest.mark.parametrize(("query", "field", "close"), [
    ("type=creture", "type", "creature"),
    ("type=créture", "type", "creature"),
    ("type=éphmère", "type", "éphémère"),
    ("keyword=morf", "keyword", "morph"),
    ("keyword=flyng", "keyword", "flying"),
])
def test_a_filter_word_no_card_has_is_a_422_with_suggestions(client, query, field, close):
    error = assert_envelope(client.get(f"{API}/candidates?printed=Shock&{query}"), 422)
    assert error["code"] == "unknown_word" and list(error["fields"]) == [field], error
    assert close in error["suggestions"], error
    assert error["message_code"] == f"filter.unknown_{field}"


@pytest.mark.parametrize("query", ["type=creature", "type=Créature", "type=goblin", "keyword=mue", "keyword=Morph"])
def test_a_filter_word_some_card_has_still_filters(client, query):
    assert client.get(f"{API}/candidates?printed=Shock&{query}").status_code == 200


def test_the_cli_refuses_a_type_no_card_has_with_suggestions(cli_db):
    result = cli(cli_db, "candidates", "Shock", "--type", "creture")
    assert result.exit_code != 0 and "no card has the type 'creture'" in result.output, result.output
    assert "creature" in result.output.split("creture'")[-1]
    french = cli(cli_db, "candidates", "Shock", "--type", "creture", lang="fr")
    assert french.exit_code != 0 and "aucune carte n’a le type « creture »" in french.output, french.output
