"""D15 over HTTP: a player who can't see a card knows it by a handle that changes each time it enters
a zone or state hidden from them, and no view, event, `/events` page, `names`, `could-be`, `line` answer
or error links two handles of one card (issue 21). The judge, and whoever sees the card, keep its id.
Games are unshuffled (test_api_games.py's ``Game``): the library is the given list, top first."""

from __future__ import annotations

import json

from support import assert_envelope, checked
from test_api_games import ANA, API, BOB, JUDGE, Game


def ids_in(value) -> set[str]:
    """Every string of an answer that looks like a card id or handle (ten hex digits)."""
    text = json.dumps(value)
    return {w for w in json.loads(json.dumps(text.replace('"', " ").replace(",", " ").split()))
            if len(w) == 10 and all(ch in "0123456789abcdef" for ch in w)}


def hidden_ids(g: Game, who) -> set[str]:
    """The ids ``who`` is shown for cards they can't see."""
    return {c["id"] for c in g.view(who)["cards"] if "printed" not in c}


def named_pentaland(client) -> tuple[Game, str]:
    """Ana names a Shock of her hand Goblin Guide, then plays it as a Pentaland (D10)."""
    g = Game(client, ["Shock", "Lightning Bolt", "Savannah Lions", "Craw Wurm"])
    shock, _ = g.draw(ANA, 2)
    g.do(ANA, type="name", card=shock, name="Goblin Guide")
    g.do(ANA, type="move", card=shock, to="battlefield", pentaland=True)
    return g, shock


def test_d15_bens_names_dont_link_goblin_guide_to_the_pentaland(client):
    g, shock = named_pentaland(client)
    pentaland = g.shown(BOB, shock)
    assert pentaland != shock and g.card(shock, BOB)["named_as"] is None  # D10
    [record] = g.names(BOB)
    assert record["name"] == "Goblin Guide" and record["card"] not in (pentaland, shock)
    assert [r["card"] for r in g.names(ANA)] == [shock] and [r["card"] for r in g.names()] == [shock]


def test_d15_no_event_ben_reads_names_the_pentaland_or_ana_s_hand_cards(client):
    g, shock = named_pentaland(client)
    view_ids = {c["id"] for c in g.view(BOB)["cards"]}
    events = g.events(BOB)
    naming = next(e for e in events if e["type"] == "name")
    assert naming["data"]["naming"]["name"] == "Goblin Guide"
    assert not ids_in(events) & (view_ids | {shock}), events  # the log links nothing to the view
    assert shock in ids_in(g.events(ANA)) and shock in ids_in(g.events(JUDGE))  # who saw it keeps its id


def test_d15_the_ids_ben_saw_for_ana_s_hand_never_come_back_on_her_pentaland(client):
    g = Game(client, ["Shock", "Lightning Bolt", "Savannah Lions", "Craw Wurm"])
    g.draw(ANA, 3)
    seen_in_hand = hidden_ids(g, BOB)
    assert len(seen_in_hand) == 3
    [lions] = [c["id"] for c in g.view(ANA)["cards"] if c.get("printed") == "Savannah Lions"]
    g.do(ANA, type="move", card=lions, to="battlefield", pentaland=True)
    [pentaland] = [c["id"] for c in g.view(BOB)["cards"] if c["pentaland"]]
    assert pentaland not in seen_in_hand | {lions}  # a new handle, linked to none he saw
    assert g.card(lions, ANA)["id"] == lions and g.card(lions)["id"] == lions  # Ana and the judge keep its id


def test_d15_a_drawn_card_cant_be_followed_into_a_face_down_play(client):
    g = Game(client, ["Shock", "Lightning Bolt", "Craw Wurm", "Savannah Lions"])
    g.draw(ANA, 2)
    before = hidden_ids(g, BOB)
    [wurm] = g.draw(ANA)
    after = hidden_ids(g, BOB)
    assert len(after) == 3 and not after & before  # the whole hand: new handles, none the drawn card's own
    [event] = g.events(BOB)[-1:]
    assert not set(event["data"]["cards"]) & after and event["data"]["cards"] != [wurm]
    g.morph(ANA, wurm)
    face_down = [c["id"] for c in g.view(BOB)["cards"] if c["face_down"]]
    assert len(face_down) == 1 and not set(face_down) & (before | after)


def test_d15_a_saved_decks_places_give_no_numbers_for_cards_a_player_cant_see(client):
    deck = checked(client.post(f"{API}/decks", json={"name": "Cube", "list": "Shock\nLightning Bolt\nCraw Wurm"}))
    deck_id = deck.get_json()["id"]
    created = checked(client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}],
                                                          "deck": deck_id, "shuffle": False})).get_json()
    g = Game.__new__(Game)
    g.client, g.id, g.judge_token = client, created["id"], created["judge_token"]
    g.tokens = {p["id"]: p["token"] for p in created["players"]}
    g.draw(ANA, 2)
    for c in g.view(BOB)["cards"]:
        assert "handle" not in c and "printed" not in c, c  # a number would be its place in the list
    assert sorted(c["handle"] for c in g.view(ANA)["cards"]) == [1, 2]  # hers: she sees them
    assert sorted(c["handle"] for c in g.view()["cards"] if c["zone"] == "hand") == [1, 2]


def test_d15_ben_acts_by_the_handle_he_was_shown_and_a_hidden_cards_id_is_unknown_to_him(client):
    g = Game(client, ["Shock", "Lightning Bolt"])
    [shock] = g.draw(ANA)
    handle = g.shown(BOB, shock)
    action = {"type": "move", "to": "graveyard", "name": "Lightning Bolt"}
    response = checked(client.post(f"{API}/games/{g.id}/actions", json={**action, "card": shock},
                                   headers=g.headers(BOB)))
    error = assert_envelope(response, 404)  # as a made-up id: nothing to probe
    assert error["code"] == "unknown_game_card"
    response = checked(client.post(f"{API}/games/{g.id}/actions", json={**action, "card": handle},
                                   headers=g.headers(BOB)))
    error = assert_envelope(response, 403)  # her hand is hers to move: the rule speaks, by his handle
    assert shock not in json.dumps(error)


def test_d15_an_error_names_a_hidden_card_by_the_callers_handle(client):
    g = Game(client, ["Shock", "Lightning Bolt", "Craw Wurm"])
    [shock] = g.draw(ANA)
    g.draw(BOB)
    handle = g.shown(BOB, shock)
    response = checked(client.post(f"{API}/games/{g.id}/actions",
                                   json={"type": "end_reveal", "cards": [handle]}, headers=g.headers(BOB)))
    body = response.get_json()
    assert response.status_code == 422 and handle in json.dumps(body) and shock not in json.dumps(body), body


def test_d15_a_line_reads_only_the_numbers_and_ids_the_player_was_shown(client):
    g = Game(client, ["Shock", "Lightning Bolt"])
    [shock] = g.draw(ANA)
    for ref in (shock, "1", "0123456789"):  # its id, its number, a made-up id: all alike unknown to Bob
        line = f"bob discard {ref} as Chain Lightning"
        response = checked(client.post(f"{API}/games/{g.id}/line", json={"line": line}, headers=g.headers(BOB)))
        error = assert_envelope(response, 422)
        assert error["code"] == "grammar" and error["message"].startswith(f"no card {ref!r} in this game"), error
    response = checked(client.post(f"{API}/games/{g.id}/line", json={"line": "ana cast 1 as Lightning Bolt"},
                                   headers=g.headers(ANA)))
    assert response.status_code == 200, response.get_json()


def test_d15_could_be_answers_its_player_by_the_ids_they_see(client):
    g = Game(client, ["Shock", "Lightning Bolt"])
    shock, bolt = g.draw(ANA, 2)
    body = g.could_be(ANA, ANA, "Chain Lightning").get_json()
    assert sorted(body["cards"]) == sorted([shock, bolt])
    assert_envelope(g.could_be(BOB, ANA, "Chain Lightning"), 403)
