"""Rule sets and series over HTTP (docs/rule-sets.md): a game made under a rule set answers with it,
look-ups take ``rules``, and in a Xom series a name taken in one game stays taken in the next ones
(Xom 6) until undone. The app runs over a real SQLite file (schema.sql) and real cards (the core
mini pool and minipool_variants.py), in the core tier."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from minipool_variants import variant_pool

from mentalmagic.index import CandidateFinder
from mentalmagic.runtime import Runtime
from mentalmagic.storage import connect
from mentalmagic.web import create_app

API = "/api/v1"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    path = tmp_path_factory.mktemp("series") / "games.sqlite"
    connect(path).conn.close()  # schema.sql applied: no card tables filled, the pool is in memory
    pool = variant_pool()
    app = create_app({"TESTING": True, "DATABASE": str(path),
                      "RUNTIME": Runtime(db_path=path, pool=pool, finder=CandidateFinder(pool))})
    return app.test_client()


def ok(response, status=200) -> dict:
    assert response.status_code == status, response.get_json()
    return response.get_json()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(client, library, token=None, **body) -> dict:
    body = {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": list(library), "shuffle": False, **body}
    return ok(client.post(f"{API}/games", json=body, headers=bearer(token) if token else {}), 201)


def act(client, game, who: int, status=200, **action):
    """The player's action; ``status`` None: whatever the rules answer (never a 5xx)."""
    token = game["players"][who]["token"]
    response = client.post(f"{API}/games/{game['id']}/actions", json=action, headers=bearer(token))
    assert response.status_code == status if status is not None else response.status_code < 500, \
        response.get_json()
    return response.get_json()


def draw_and_cast(client, game, name: str, status=200) -> dict:
    act(client, game, 0, type="draw", count=1)
    cards = ok(client.get(f"{API}/games/{game['id']}", headers=bearer(game["judge_token"])))["cards"]
    in_hand = [c["id"] for c in cards if c["zone"] == "hand"][-1]
    return act(client, game, 0, status, type="move", card=in_hand, to="stack", name=name)


# -- a game under a rule set ---------------------------------------------------------------------------
def test_a_game_made_under_xom_shows_its_rules_and_cites_them(client):
    game = new_game(client, ["Fires of Yavimaya"], rules="XOM")
    assert game["options"] == {"phyrexian_as_hybrid": False, "rules": "xom"}
    view = ok(client.get(f"{API}/games/{game['id']}", headers=bearer(game["judge_token"])))
    rules = view["rules"]
    assert (rules["key"], rules["land"]["name"], rules["name_scope"]) == ("xom", "Utopia", "series")
    assert {"aspect": "multicolour", "rule": "5e"} in rules["differs"]
    assert draw_and_cast(client, game, "Electrolyze")["event"]["data"]["naming"]["name"] == "Electrolyze"


def test_a_default_game_keeps_its_options_and_shows_magic_ville(client):
    game = new_game(client, ["Fires of Yavimaya"])
    assert game["options"] == {"phyrexian_as_hybrid": False}
    view = ok(client.get(f"{API}/games/{game['id']}", headers=bearer(game["judge_token"])))
    assert view["rules"]["key"] == "magic-ville" and view["rules"]["differs"] == []
    body = draw_and_cast(client, game, "Electrolyze", status=409)
    assert body["error"]["rule"] == "704.1"


def test_a_rule_set_that_takes_no_such_option_is_refused(client):
    body = {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock"], "rules": "xom",
            "options": {"phyrexian_as_hybrid": True}}
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 422 and response.get_json()["error"]["code"] == "bad_rule_option"
    response = client.post(f"{API}/games", json={**body, "rules": "house", "options": {}})
    assert response.status_code == 422


def test_look_ups_take_rules_or_the_games(client):
    def names(**params):
        return [c["name"] for c in ok(client.get(f"{API}/candidates?" + urlencode(params)))["candidates"]]

    assert "Electrolyze" in names(printed="Fires of Yavimaya", rules="xom")
    assert "Electrolyze" not in names(printed="Fires of Yavimaya")
    assert "Forest" in names(cost="{0}", rules="xom") and "Forest" not in names(cost="{0}", rules="magering")
    game = new_game(client, ["Shock"], rules="xom")
    assert "Electrolyze" in names(printed="Fires of Yavimaya", game=game["id"])
    check = ok(client.get(f"{API}/check?" + urlencode({"printed": "Air Elemental", "name": "Battle of Wits",
                                                      "rules": "xom"})))
    assert check["legal"] is False and check["reasons"][0]["rule"] == "2a"


# -- a series -----------------------------------------------------------------------------------------
def test_a_three_game_xom_series_refuses_in_game_3_a_name_taken_in_game_1(client):
    series = ok(client.post(f"{API}/series", json={"rules": "xom"}), 201)
    games = [new_game(client, ["Shock", "Lightning Bolt"], token=series["token"], series=series["id"])
             for _ in range(3)]
    assert all(g["options"]["rules"] == "xom" and g["options"]["series"] == series["id"] for g in games)
    draw_and_cast(client, games[0], "Chain Lightning")
    draw_and_cast(client, games[1], "Goblin Guide")
    refused = draw_and_cast(client, games[2], "Chain Lightning", status=409)
    assert (refused["error"]["code"], refused["error"]["rule"]) == ("name_taken", "6")
    shown = ok(client.get(f"{API}/series/{series['id']}", headers=bearer(series["token"])))
    assert [[n["name"] for n in g["names"]] for g in shown["games"]] == [["Chain Lightning"], ["Goblin Guide"], []]
    # undoing the naming in game 1 frees the name in the whole series
    ok(client.post(f"{API}/games/{games[0]['id']}/undo", headers=bearer(games[0]["judge_token"])))
    cards = ok(client.get(f"{API}/games/{games[2]['id']}", headers=bearer(games[2]["judge_token"])))["cards"]
    in_hand = [c["id"] for c in cards if c["zone"] == "hand"][0]
    cast = act(client, games[2], 0, type="move", card=in_hand, to="stack", name="Chain Lightning")
    assert cast["event"]["data"]["naming"]["name"] == "Chain Lightning"


def test_a_magic_ville_series_takes_names_once_per_game(client):
    series = ok(client.post(f"{API}/series", json={}), 201)
    one, two = (new_game(client, ["Shock"], token=series["token"], series=series["id"]) for _ in range(2))
    draw_and_cast(client, one, "Chain Lightning")
    assert draw_and_cast(client, two, "Chain Lightning")["event"]["data"]["naming"]["name"] == "Chain Lightning"


def test_only_the_series_token_makes_its_games_and_they_keep_its_rules(client):
    series = ok(client.post(f"{API}/series", json={"rules": "xom"}), 201)
    body = {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock"], "series": series["id"]}
    assert client.post(f"{API}/games", json=body).status_code == 401
    response = client.post(f"{API}/games", json={**body, "rules": "magering"}, headers=bearer(series["token"]))
    assert response.status_code == 422
    assert client.get(f"{API}/series/{series['id']}").status_code == 401
    assert client.get(f"{API}/series/nope", headers=bearer(series["token"])).status_code == 404


# -- look-ups in a series: one path with the moves (Xom 6, issue 32) -----------------------------------
def xom_series(client, games: int, library=("Shock", "Lightning Bolt")) -> list[dict]:
    series = ok(client.post(f"{API}/series", json={"rules": "xom"}), 201)
    return [new_game(client, list(library), token=series["token"], series=series["id"]) for _ in range(games)]


def check(client, game, name: str, lang: str = "en") -> dict:
    query = urlencode({"printed": "Shock", "name": name, "game": game["id"], "lang": lang})
    return ok(client.get(f"{API}/check?{query}"))


def test_look_ups_in_a_later_game_of_a_xom_series_see_the_names_its_earlier_games_took(client):
    one, _, three = xom_series(client, 3)
    draw_and_cast(client, one, "Chain Lightning")
    verdict = check(client, three, "Chain Lightning")
    assert verdict["legal"] is False and [r["rule"] for r in verdict["reasons"]] == ["6"]
    assert verdict["reasons"][0]["message"] == \
        f"Chain Lightning was chosen in an earlier game of this series (game {one['id']})"
    french = check(client, three, "Chain Lightning", "fr")["reasons"][0]["message"]
    assert french == ("Chain Lightning (en) a été choisi dans une partie précédente de cette série "
                      f"(partie {one['id']})")  # the variants' pool has no French name for it
    for _ in range(3):  # once made from each name's entry, then from the kept list (web/encoding.py)
        listed = ok(client.get(f"{API}/candidates?" + urlencode({"printed": "Shock", "game": three["id"]})))
        marks = {c["name"]: (c["taken"], c.get("taken_in")) for c in listed["candidates"]}
        assert marks["Chain Lightning"] == (True, one["id"]) and marks["Lightning Bolt"] == (False, None)
    searched = ok(client.get(f"{API}/candidates?" + urlencode({"printed": "Shock", "game": three["id"],
                                                               "q": "is:taken"})))
    assert [(c["name"], c["taken_in"]) for c in searched["candidates"]] == [("Chain Lightning", one["id"])]
    # the game that took it marks it its own (704.2), with no other game
    taken_here = ok(client.get(f"{API}/candidates?" + urlencode({"printed": "Shock", "game": one["id"]})))
    assert {c["name"]: "taken_in" in c for c in taken_here["candidates"] if c["taken"]} == {"Chain Lightning": False}
    # the move and its dry run say what the look-up said, with the same words
    act(client, three, 0, type="draw", count=1)
    cards = ok(client.get(f"{API}/games/{three['id']}", headers=bearer(three["judge_token"])))["cards"]
    card = [c["id"] for c in cards if c["zone"] == "hand"][-1]
    token = three["players"][0]["token"]
    for path in (f"{API}/games/{three['id']}/actions?dry_run=1", f"{API}/games/{three['id']}/actions"):
        refused = client.post(path, json={"type": "move", "card": card, "to": "stack", "name": "Chain Lightning"},
                              headers=bearer(token))
        assert refused.status_code == 409, refused.get_json()
        error = refused.get_json()["error"]
        assert (error["code"], error["rule"]) == ("name_taken", "6")
        assert "earlier game of this series" in error["message"]


def test_a_bot_that_trusts_the_look_ups_plays_a_three_game_xom_series_without_a_foreseeable_refusal(client):
    """Each game, the bot casts Shock as the first candidate its look-up calls free: never a 409, and
    when the series has taken every name Shock may take under Xom, the look-up says so first."""
    games = xom_series(client, 3, library=["Shock"] * 3)
    chosen = []
    for game, casts in zip(games, (2, 1, 1), strict=True):
        for _ in range(casts):
            listed = ok(client.get(f"{API}/candidates?" + urlencode({"printed": "Shock", "game": game["id"]})))
            name = next(c["name"] for c in listed["candidates"] if not c["taken"])
            event = draw_and_cast(client, game, name)
            chosen.append(event["event"]["data"]["naming"]["name"])
    assert len(set(chosen)) == len(chosen) == 4  # no name twice in the whole series (Xom 6)
    listed = ok(client.get(f"{API}/candidates?" + urlencode({"printed": "Shock", "game": games[2]["id"]})))
    assert listed["candidates"] and all(c["taken"] for c in listed["candidates"])


def test_a_game_of_a_series_asked_under_another_rule_set_by_name_is_refused_the_default_too(client):
    series = ok(client.post(f"{API}/series", json={"rules": "xom"}), 201)
    body = {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock"], "series": series["id"]}
    for rules in ("magic-ville", "magering"):
        response = client.post(f"{API}/games", json={**body, "rules": rules}, headers=bearer(series["token"]))
        assert response.status_code == 422, response.get_json()
        assert "rules" in response.get_json()["error"]["fields"]
    named = client.post(f"{API}/games", json={**body, "rules": "xom"}, headers=bearer(series["token"]))
    assert named.status_code == 201 and named.get_json()["options"]["rules"] == "xom"


SHOCK_UNDER_XOM = ["Chain Lightning", "Figure of Destiny", "Goblin Guide", "Lightning Bolt"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from(SHOCK_UNDER_XOM)), max_size=4),
       st.integers(0, 2), st.sampled_from(SHOCK_UNDER_XOM))
def test_in_any_series_a_look_up_answers_as_the_move_would(client, plan, probe_game, probe_name):
    """One path: whatever names a series' games took, /check's verdict, /candidates' mark and the
    move's dry run agree on a name in any of its games."""
    games = xom_series(client, 3, library=["Shock"] * 5)
    for index, name in plan:  # each cast as the rules allow it, or refused: either way the record holds
        draw_and_cast(client, games[index], name, status=None)
    game = games[probe_game]
    verdict = check(client, game, probe_name)
    listed = ok(client.get(f"{API}/candidates?" + urlencode({"printed": "Shock", "game": game["id"]})))
    marked = {c["name"]: c["taken"] for c in listed["candidates"]}[probe_name]
    act(client, game, 0, type="draw", count=1)
    cards = ok(client.get(f"{API}/games/{game['id']}", headers=bearer(game["judge_token"])))["cards"]
    card = [c["id"] for c in cards if c["zone"] == "hand"][-1]
    moved = client.post(f"{API}/games/{game['id']}/actions?dry_run=1", headers=bearer(game["players"][0]["token"]),
                        json={"type": "move", "card": card, "to": "stack", "name": probe_name})
    assert moved.status_code in (200, 409), moved.get_json()
    assert verdict["legal"] is (moved.status_code == 200) is (not marked)
    if moved.status_code == 409:
        refusal = moved.get_json()["error"]
        assert refusal["rule"] == verdict["reasons"][0]["rule"]
        assert refusal["fields"]["name"] == [r["message"] for r in verdict["reasons"]]


# -- each Xom match cites its own rule (MM.txt 5c-5g, issue 32) ----------------------------------------
WHY = {  # what each rule says of the match, in English and French (none for the plain same cost)
    "5c": (None, None),
    "5d": ("a cost of zero and no mana cost count as one cost",
           "un coût de zéro et l’absence de coût de mana comptent comme un même coût"),
    "5e": ("two multicolour costs of one mana value match", "deux coûts multicolores de même valeur de mana se valent"),
    "5f": ("a hybrid symbol is read as one of its halves", "un symbole hybride se lit comme l’une de ses moitiés"),
    "5g": ("a Phyrexian symbol is read as its colour", "un symbole phyrexian se lit comme sa couleur"),
}


def _all_words() -> list[str]:
    return [w for pair in WHY.values() for w in pair if w]


@pytest.mark.parametrize(("asked", "name", "rule"), [
    ({"cost": "{R}{R}{R}"}, "Flame Javelin", "5f"),  # 5f's example: a hybrid symbol read as a half
    ({"printed": "Ornithopter"}, "Evermind", "5d"),  # 5d: {0} as no mana cost
    ({"printed": "Ornithopter"}, "Forest", "5d"),  # 5d: and as a land
    ({"printed": "Fires of Yavimaya"}, "Electrolyze", "5e"),  # 5e: multicolour by mana value
    ({"printed": "Gitaxian Probe"}, "Ancestral Recall", "5g"),  # 5g: a Phyrexian symbol is its colour
    ({"cost": "{1}{B}{B}"}, "Dismember", "5g"),
    ({"printed": "Shock"}, "Lightning Bolt", "5c"),  # the plain same-cost match
    ({"cost": "{1}{G}{W}"}, "Kitchen Finks", "5f"),  # hybrid colours only: not 5e
])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_xom_match_cites_the_rule_of_mm_txt_that_allows_it(client, asked, name, rule, lang):
    verdict = ok(client.get(f"{API}/check?" + urlencode({**asked, "name": name, "rules": "xom", "lang": lang})))
    assert verdict["legal"] is True
    assert [r["rule"] for r in verdict["reasons"]] == [rule]
    said = verdict["reasons"][0]["message"]
    words = WHY[rule][lang == "fr"]
    assert (said.endswith(f": {words}") if words else not any(w in said for w in _all_words())), said
    default = ok(client.get(f"{API}/check?" + urlencode({**asked, "name": name, "lang": lang})))
    assert all(r["rule"] != rule for r in default["reasons"])  # Magic-Ville cites its own 704.1 or refuses


def test_two_xom_relations_that_both_allow_a_name_are_both_cited(client):
    """{1}{U}{R} as Electrolyze: the same cost (5c), and two multicolour costs of one value (5e)."""
    verdict = ok(client.get(f"{API}/check?" + urlencode({"cost": "{1}{U}{R}", "name": "Electrolyze",
                                                        "rules": "xom"})))
    assert [r["rule"] for r in verdict["reasons"]] == ["5c, 5e"]


# -- the list of rule sets (issue 32) -------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "names"), [
    ("en", ["Magic-Ville (the default)", "Xom's Async Mental Magic (2018)", "MageRing (2015)"]),
    ("fr", ["Magic-Ville (par défaut)", "Async Mental Magic de Xom (2018)", "MageRing (2015)"]),
])
def test_get_rule_sets_lists_three_with_one_default_in_the_callers_language(client, lang, names):
    from mentalmagic.rulesets import PRESETS, rules_view

    listed = ok(client.get(f"{API}/rule-sets?lang={lang}"))["rule_sets"]
    assert [r["name"] for r in listed] == names
    assert [r["key"] for r in listed if r["default"]] == ["magic-ville"]
    for r in listed:
        view = rules_view(PRESETS[r["key"]])  # the same data as a game's `rules`
        assert {k: r[k] for k in ("key", "url", "land", "name_scope")} == {k: view[k] for k in ("key", "url", "land",
                                                                                                "name_scope")}
        assert [(d["aspect"], d["rule"]) for d in r["differs"]] == [(d["aspect"], d["rule"]) for d in view["differs"]]
        assert all(d["words"] for d in r["differs"])
    xom = next(r for r in listed if r["key"] == "xom")
    assert all(d["rule"] in d["words"] for d in xom["differs"])  # a number as it is (MageRing's headings worded)
    assert xom["name_scope"] == "series" and xom["options"] == []


# -- turns, kept by the judge: Xom's Utopia once a turn, by the active player (4, 4a; issue 32) ------------
def game_with_hands(client, rules: str) -> tuple[dict, dict[int, list[str]]]:
    game = new_game(client, ["Shock"] * 8, rules=rules)
    for who in (0, 1):
        act(client, game, who, type="draw", count=3)
    cards = ok(client.get(f"{API}/games/{game['id']}", headers=bearer(game["judge_token"])))["cards"]
    hands = {who: [c["id"] for c in cards if c["zone"] == "hand" and c["owner"] == game["players"][who]["id"]]
             for who in (0, 1)}
    return game, hands


def land(client, game, who: int, card: str, status=200, lang="en") -> dict:
    token = game["players"][who]["token"]
    response = client.post(f"{API}/games/{game['id']}/actions?lang={lang}", headers=bearer(token), json={
        "type": "move", "card": card, "to": "battlefield", "face_down": True, "pentaland": True})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_with_turns_kept_xom_refuses_a_second_utopia_in_a_turn_and_another_players(client):
    game, hands = game_with_hands(client, "xom")
    land(client, game, 0, hands[0][0])  # no turn kept yet: recorded, as before
    started = act(client, game, 0, type="turn")
    assert started["event"]["data"] == {"player": game["players"][0]["id"], "number": 1}
    land(client, game, 0, hands[0][1])
    second = land(client, game, 0, hands[0][2], status=409)["error"]
    assert (second["rule"], second["message_code"]) == ("4a", "rules.land_once_per_turn")
    french = land(client, game, 0, hands[0][2], status=409, lang="fr")["error"]["message"]
    assert french.startswith("un Utopia a déjà été joué ce tour-ci")
    theirs = land(client, game, 1, hands[1][0], status=409)["error"]
    assert (theirs["rule"], theirs["message_code"]) == ("4", "rules.land_not_active")
    assert act(client, game, 1, status=403, type="turn", player=game["players"][0]["id"])  # only one's own turn
    assert act(client, game, 1, type="turn")["event"]["data"]["number"] == 2
    land(client, game, 1, hands[1][0])  # Bob's turn now: his first Utopia of it
    shown = ok(client.get(f"{API}/games/{game['id']}", headers=bearer(game["players"][0]["token"])))["turn"]
    assert shown == {"player": game["players"][1]["id"], "number": 2, "land": True}
    act(client, game, 0, type="turn")
    land(client, game, 0, hands[0][2])  # the next turn: allowed again
    # undoing the turn takes back its land count too: Bob's turn again, a Utopia already played in it
    ok(client.post(f"{API}/games/{game['id']}/undo", headers=bearer(game["judge_token"])))
    ok(client.post(f"{API}/games/{game['id']}/undo", headers=bearer(game["judge_token"])))
    assert ok(client.get(f"{API}/games/{game['id']}", headers=bearer(game["judge_token"])))["turn"]["number"] == 2


def test_turns_change_nothing_under_the_default_rules(client):
    game, hands = game_with_hands(client, "magic-ville")
    act(client, game, 0, type="turn")
    land(client, game, 0, hands[0][0])
    land(client, game, 0, hands[0][1])  # 703: no turn's land drop is counted
    land(client, game, 1, hands[1][0])


def test_the_judges_line_keeps_turns_in_english_and_french(client):
    game, _ = game_with_hands(client, "xom")
    judge = bearer(game["judge_token"])
    for line, number in (("ana turn", 1), ("bob tour", 2), ("ana turn 7", 7)):
        done = ok(client.post(f"{API}/games/{game['id']}/line", json={"line": line}, headers=judge))
        assert done["event"]["data"]["number"] == number, line
    bad = client.post(f"{API}/games/{game['id']}/line", json={"line": "ana turn zero"}, headers=judge)
    assert bad.status_code == 422 and bad.get_json()["error"]["message_code"] == "grammar.turn_n"


def test_a_series_may_have_a_name_shown_with_it_and_none_holds_a_control_character(client):
    named = ok(client.post(f"{API}/series", json={"rules": "xom", "name": "  Mardis chez Ana "}), 201)
    assert named["name"] == "Mardis chez Ana"
    shown = ok(client.get(f"{API}/series/{named['id']}", headers=bearer(named["token"])))
    assert shown["name"] == "Mardis chez Ana"
    assert ok(client.post(f"{API}/series", json={"rules": "xom"}), 201)["name"] is None
    for bad in ("a\x00b", "Ana\nBen", "", "x" * 81):
        refused = client.post(f"{API}/series", json={"rules": "xom", "name": bad})
        assert refused.status_code == 422 and "name" in refused.get_json()["error"]["fields"], bad


def test_every_seat_of_a_series_game_is_shown_the_names_its_earlier_games_took(client):
    one, two = xom_series(client, 2)
    draw_and_cast(client, one, "Chain Lightning")
    for token in (two["players"][1]["token"], two["judge_token"]):
        shown = ok(client.get(f"{API}/games/{two['id']}", headers=bearer(token)))
        assert shown["series_names"] == [{"name": "Chain Lightning", "game": one["id"]}]
    assert "series_names" not in ok(client.get(f"{API}/games/{one['id']}", headers=bearer(one["judge_token"])))


def test_a_seats_poll_sees_a_name_taken_in_another_game_of_its_series_though_its_own_game_is_unchanged(client):
    one, two = xom_series(client, 2)
    draw_and_cast(client, one, "Chain Lightning")
    seat = bearer(two["players"][0]["token"])
    first = client.get(f"{API}/games/{two['id']}", headers=seat)
    assert first.get_json()["series_names"] == [{"name": "Chain Lightning", "game": one["id"]}]
    assert client.get(f"{API}/games/{two['id']}", headers={**seat, "If-None-Match": first.headers["ETag"]}
                      ).status_code == 304  # nothing changed anywhere in the series
    draw_and_cast(client, one, "Shock")  # game two itself unchanged: no event of its own
    assert ok(client.get(f"{API}/games/{two['id']}/events", headers=seat))["events"] == []
    again = client.get(f"{API}/games/{two['id']}", headers={**seat, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and again.headers["ETag"] != first.headers["ETag"]
    assert {n["name"] for n in again.get_json()["series_names"]} == {"Chain Lightning", "Shock"}
