"""The cards API within a commander's colour identity (#10, D14): ?commander= on /candidates
and /check, and a card's color_identity and can_be_commander."""

from __future__ import annotations

from urllib.parse import quote, urlencode

import pytest

API = "/api/v1"


def get(client, path, **params):
    pairs = [(k, v) for k, vs in params.items() for v in (vs if isinstance(vs, list) else [vs])]
    response = client.get(API + path + ("?" + urlencode(pairs) if pairs else ""))
    return response.status_code, response.get_json()


def test_a_mono_red_commanders_player_cant_name_counterspell(cards_client):
    status, body = get(cards_client, "/check", cost="{U}{U}", name="Counterspell", commander="Krenko, Mob Boss")
    assert status == 200 and body["legal"] is False
    assert body["reasons"] == [{"rule": "903.5c",
                                "message": "Counterspell's colour identity is {U}; Krenko, Mob Boss's is {R}"}]
    assert body["commander"] == ["Krenko, Mob Boss"] and body["color_identity"] == ["R"]
    assert body["format"] == "commander"  # not the default vintage: the identity is a commander game's
    _, given = get(cards_client, "/check", cost="{U}{U}", name="Counterspell", commander="Krenko, Mob Boss",
                   format="legacy")
    assert given["format"] == "legacy"  # a format given is kept


def test_a_mono_red_commanders_player_can_name_a_red_or_colourless_card(cards_client):
    for cost, name in (("{R}", "Lightning Bolt"), ("{2}", "Mind Stone")):
        status, body = get(cards_client, "/check", cost=cost, name=name, commander="krenko, mob boss")
        assert status == 200 and body["legal"] is True, body
        assert body["reasons"][-1]["rule"] == "903.5c"


def test_candidates_within_a_commanders_identity_leave_out_every_name_outside_it(cards_client):
    _, everything = get(cards_client, "/candidates", cost="{R}", format="commander")
    status, red = get(cards_client, "/candidates", cost="{R}", commander="Krenko, Mob Boss")
    assert status == 200 and red["color_identity"] == ["R"]
    assert red["format"] == "commander"  # asked within a commander's identity, without a format
    names = {c["name"] for c in red["candidates"]}
    assert "Lightning Bolt" in names and "Boros Recruit" not in names  # {R/W} is white too
    assert names < {c["name"] for c in everything["candidates"]} and red["count"] == len(names)
    assert "commander" not in everything and "color_identity" not in everything  # only when asked


def test_a_boros_hybrid_card_cant_be_named_under_a_mono_white_commander(cards_client):
    status, body = get(cards_client, "/check", cost="{W}{W}", name="Boros Guildmage",
                       commander="Sigarda, Host of Herons")
    assert status == 200 and body["legal"] is False
    assert body["reasons"][0]["rule"] == "903.5c" and "{W}{R}" in body["reasons"][0]["message"]


def test_partners_are_given_as_two_commander_parameters_and_answer_within_their_union(cards_client):
    both = ["Thrasios, Triton Hero", "Tymna the Weaver"]
    status, body = get(cards_client, "/candidates", printed="Fire // Ice", commander=both)
    assert status == 200 and body["commander"] == both and body["color_identity"] == ["W", "U", "B", "G"]
    names = {c["name"] for c in body["candidates"]}
    _, unfiltered = get(cards_client, "/candidates", printed="Fire // Ice", format="commander")
    assert names < {c["name"] for c in unfiltered["candidates"]}
    assert "Think Twice" in names and "Lightning Strike" not in names  # {1}{U} is in, {1}{R} red is out
    status, body = get(cards_client, "/check", printed="Fire // Ice", name="Opt", commander=both)
    assert status == 200 and body["legal"] is False  # Opt costs {U}, not {1}{U}: 704.1, not 903.5c
    assert [r["rule"] for r in body["reasons"]] == ["704.1"]


def test_a_split_half_is_checked_within_its_own_identity(cards_client):
    _, ice = get(cards_client, "/check", cost="{1}{U}", name="Ice", commander="Teferi, Temporal Archmage")
    _, fire = get(cards_client, "/check", cost="{1}{R}", name="Fire", commander="Teferi, Temporal Archmage")
    assert ice["legal"] is True
    assert fire["legal"] is False
    assert fire["reasons"] == [{"rule": "903.5c",
                                "message": "Fire's colour identity is {R}; Teferi, Temporal Archmage's is {U}"}]


@pytest.mark.parametrize(
    ("commander", "rule", "says"),
    [
        (["Savannah Lions"], "903.3", "not a legendary creature"),
        (["Krenko, Mob Bos"], "903.3", "no card named"),
        ([""], "903.3", "no card named"),
        (["Krenko, Mob Boss", "Tymna the Weaver"], "D14(c)", "can't be commanders together"),
        (["Thrasios, Triton Hero", "Tymna the Weaver", "Krenko, Mob Boss"], "D14(c)", "not 3"),
    ],
)
def test_a_commander_that_cant_be_one_is_a_422_with_the_field_and_the_rule(cards_client, commander, rule, says):
    for path, extra in (("/candidates", {}), ("/check", {"name": "Shock"})):
        status, body = get(cards_client, path, cost="{R}", commander=commander, **extra)
        assert status == 422, body
        error = body["error"]
        assert error["code"] == "not_a_commander" and error["rule"] == rule
        assert says in error["message"] and error["fields"]["commander"] == [error["message"]]


def test_a_card_shows_its_colour_identity_in_wubrg_order_and_whether_it_can_be_a_commander(cards_client):
    cases = {
        "Mayael the Anima": (["W", "R", "G"], True),
        "Krenko, Mob Boss": (["R"], True),
        "Teferi, Temporal Archmage": (["U"], True),
        "Savannah Lions": (["W"], False),
        "Candlekeep Sage": (["U"], False),  # a Background only beside "Choose a Background"
        "Fire // Ice": (["U", "R"], False),
        "Sol Ring": ([], False),
    }
    for name, (identity, can) in cases.items():
        response = cards_client.get(API + "/cards/" + quote(name))
        body = response.get_json()
        assert response.status_code == 200
        assert (body["color_identity"], body["can_be_commander"]) == (identity, can), name


def test_the_answers_keep_their_published_shape_and_the_parameter_is_documented(cards_client):
    from mentalmagic.web import schemas

    both = ["Thrasios, Triton Hero", "Tymna the Weaver"]
    _, candidates = get(cards_client, "/candidates", printed="Fire // Ice", commander=both, limit=5)
    _, check = get(cards_client, "/check", printed="Fire // Ice", name="Think Twice", commander=both)
    _, card = get(cards_client, "/cards/" + quote("Tymna the Weaver"))
    assert schemas.CandidatesOut().validate(candidates) == {}
    assert schemas.CheckOut().validate(check) == {} and check["legal"] is True
    assert schemas.CardOut().validate(card) == {}
    doc = cards_client.get(API + "/openapi.json").get_json()
    for path in ("/candidates", "/check"):
        params = {p["name"]: p for p in doc["paths"][path]["get"]["parameters"]}
        assert params["commander"]["schema"]["type"] == "array"


# -- the judge's terminal ------------------------------------------------------------------------
@pytest.fixture
def cli_db(tmp_path, card_db_path, snapshot_path, monkeypatch):
    from support import fresh_games_db

    monkeypatch.setenv("MENTALMAGIC_CARDS", str(snapshot_path))
    return str(fresh_games_db(card_db_path, tmp_path / "cli.sqlite"))


def test_the_cli_answers_within_a_commanders_identity_and_shows_a_cards(cli_db):
    from click.testing import CliRunner

    from mentalmagic.cli import main

    run = CliRunner()
    result = run.invoke(main, ["--db", cli_db, "check", "{U}{U}", "Counterspell", "--commander", "Krenko, Mob Boss"])
    assert result.exit_code == 1, result.output
    assert "903.5c: Counterspell's colour identity is {U}; Krenko, Mob Boss's is {R}" in result.output
    result = run.invoke(main, ["--db", cli_db, "candidates", "{R}", "--commander", "Thrasios, Triton Hero",
                               "--commander", "Tymna the Weaver"])
    assert result.exit_code == 0, result.output
    assert "within Thrasios, Triton Hero and Tymna the Weaver's colour identity {W}{U}{B}{G}" in result.output
    assert "Lightning Bolt" not in result.output
    result = run.invoke(main, ["--db", cli_db, "candidates", "{R}", "--commander", "Savannah Lions"])
    assert result.exit_code == 1 and "not a legendary creature" in result.output
    result = run.invoke(main, ["--db", cli_db, "card", "Mayael the Anima"])
    assert "colour identity: {W}{R}{G}; can be a commander (903.3)" in result.output


def test_an_empty_answer_within_an_identity_says_which_names_903_5c_kept_out(cards_client):
    from mentalmagic.web import schemas

    status, body = get(cards_client, "/candidates", cost="{U}{U}", commander="Krenko, Mob Boss")
    assert status == 200 and body["count"] == 0 and schemas.CandidatesOut().validate(body) == {}
    excluded = {x["name"]: x for x in body["excluded"]}
    assert excluded["Counterspell"]["rule"] == "903.5c"
    assert excluded["Counterspell"]["reason"] == "Counterspell's colour identity is {U}; Krenko, Mob Boss's is {R}"
