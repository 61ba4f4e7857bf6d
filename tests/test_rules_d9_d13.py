"""Issue 11's game-side readings played over HTTP, in the words of the rules: D9 leaving the game,
D10 a named card as a Pentaland, D11 705.5 choosers, D12, 701 cuts and searches, D13, and answers
that say exactly why. Games are created unshuffled (test_api_games.py's ``Game``): the library is
the given list, top first; players are p1 (Ana), p2 (Bob), p3 (Cid).
"""

from __future__ import annotations

import pytest
from driver import ANA, BOB, CID, JUDGE, Game, names_table

from mentalmagic.grammar import handle_of
from mentalmagic.web import schemas


# == D9 Leaving the game ============================================================================
def d9_game(client) -> tuple[Game, dict]:
    """Ana casts a Shock as Lightning Bolt; she controls Bob's Grizzly Bears by Control Magic and Cid's
    Savannah Lions by an exchange of control that doesn't end when she leaves."""
    g = Game(client, ["Shock", "Grizzly Bears", "Savannah Lions", "Chain Lightning"], players=("Ana", "Bob", "Cid"))
    [shock], [bears], [lions] = g.draw(ANA), g.draw(BOB), g.draw(CID)
    g.cast(ANA, shock, "Lightning Bolt")
    g.do(BOB, type="move", card=bears, to="battlefield", name="Elvish Visionary")
    g.do(CID, type="move", card=lions, to="battlefield", name="Isamaru, Hound of Konda")
    g.do(JUDGE, type="move", card=bears, to="battlefield", player=ANA)
    g.do(JUDGE, type="move", card=lions, to="battlefield", player=ANA)
    return g, {"shock": shock, "bears": bears, "lions": lions}


def test_d9_a_leaver_gives_back_what_a_control_changing_effect_gave_them_and_the_rest_goes(snapshot_client):
    g, c = d9_game(snapshot_client)
    names_before = names_table(g)
    body = g.do(ANA, type="leave_game", player=ANA, returned=[c["bears"]])
    event = body["event"]
    assert (event["type"], event["rule"]) == ("leave_game", "800.4a")
    assert {k: event["data"][k] for k in ("removed", "returned", "exiled")} == {
        "removed": [c["shock"]], "returned": [c["bears"]], "exiled": [c["lions"]]}
    seen = {k: (g.card(cid)["zone"], g.card(cid)["owner"], g.card(cid)["controller"]) for k, cid in c.items()}
    assert seen == {"shock": ("removed", ANA, None),  # every card the leaver owns leaves the game
                    "bears": ("battlefield", BOB, BOB),  # back to its owner's control, where it is
                    "lions": ("exile", CID, CID)}  # every other card the leaver controls is exiled
    assert names_table(g) == names_before  # the names those cards took stay taken (704.4)
    [chain] = g.draw(CID)
    g.refused(CID, 409, "name_taken", "704.2", type="move", card=chain, to="stack", name="Lightning Bolt")


@pytest.mark.parametrize("which", ["shock", "hand"], ids=["a card the leaver owns", "a card they don't control"])
def test_d9_returned_may_name_only_cards_the_leaver_controls_but_doesnt_own(snapshot_client, which):
    g, c = d9_game(snapshot_client)
    [hand] = g.draw(BOB)
    card = hand if which == "hand" else c[which]
    error = g.refused(ANA, 409, "return_refused", "800.4a", type="leave_game", player=ANA, returned=[c["bears"], card])
    assert "D9" in error["message"] and error["fields"] == {"returned": [error["fields"]["returned"][0]]}
    # as Ana knows it (D15): a card she sees by its number on the page (#N), one hidden from her by its handle
    shown = g.shown(ANA, card)
    numbers = handle_of(snapshot_client.application.extensions["mentalmagic"].games.load(g.id).setup)
    said = f"#{numbers[card]}" if shown == card else shown
    assert error["fields"]["returned"][0].startswith(f"{said}:") and card not in error["message"] + str(error["fields"])


def test_d9_undo_gives_back_everything_a_departure_changed(snapshot_client):
    g, c = d9_game(snapshot_client)
    before = g.view(), names_table(g)
    g.do(JUDGE, type="leave_game", player=ANA, returned=[c["bears"], c["lions"]])
    assert g.status(ANA) == "left" and g.card(c["lions"])["controller"] == CID
    g.undo()
    assert (g.view(), names_table(g)) == before and g.status(ANA) == "in_game"


# == D10 A named card as a Pentaland ===============================================================
def test_d10_a_named_card_of_a_hand_is_played_as_a_pentaland_and_keeps_its_taken_name(client):
    g = Game(client, ["Shock", "Shock", "Savannah Lions"])
    [shock] = g.draw(ANA)
    g.do(ANA, type="name", card=shock, name="Lightning Bolt")
    body = g.do(ANA, type="move", card=shock, to="battlefield", pentaland=True)  # 703.2: any card of the hand
    assert body["event"]["rule"] == "703.2" and "naming" not in body["event"]["data"]
    # while it is a Pentaland the name isn't shown, but to the judge and its controller
    assert g.card(shock, BOB)["named_as"] is None and g.card(shock, BOB)["pentaland"] is True
    assert g.card(shock, ANA)["named_as"] == g.card(shock, JUDGE)["named_as"] == "Lightning Bolt"
    assert g.card(shock, ANA)["nonland"] is False  # a Pentaland is a land
    [other] = g.draw(BOB)
    g.refused(BOB, 409, "name_taken", "704.2", type="move", card=other, to="stack", name="Lightning Bolt")
    g.do(ANA, type="move", card=shock, to="hand")  # 703.8: back in a hand it is the named card again
    seen = g.card(shock, ANA)
    assert (seen["pentaland"], seen["face_down"], seen["named_as"], seen["nonland"]) == (
        False, False, "Lightning Bolt", True)
    g.refused(ANA, 409, "already_named", "704.4", type="name", card=shock, name="Chain Lightning")
    assert names_table(g) == [("Lightning Bolt", shock, ANA, None)]


def test_d10_a_named_face_up_card_outside_a_hand_still_cant_be_a_pentaland(client):
    # 703.3 as written: a face-up card outside the hand must be unnamed
    g = Game(client, ["Shock"])
    [shock] = g.draw(ANA)
    g.cast(ANA, shock, "Lightning Bolt")
    g.do(ANA, type="move", card=shock, to="graveyard")
    g.refused(ANA, 409, "pentaland_refused", "703.3", type="move", card=shock, to="battlefield", pentaland=True)


# == D11 705.5 choosers ============================================================================
def test_d11_ostracize_the_chooser_names_a_card_of_the_revealed_hand(snapshot_client):
    # Ostracize: Ana reveals her hand; Bob chooses a card from it, so Bob names it (705.5).
    g = Game(snapshot_client, ["Shock", "Savannah Lions"], players=("Ana", "Bob", "Cid"))
    shock, lions = g.draw(ANA, 2)
    g.refused(BOB, 403, "forbidden", None, type="name", card=shock, name="Lightning Bolt", choice=True)
    g.refused(BOB, 409, "wrong_namer", "705.6", type="name", card=shock, name="Lightning Bolt")
    g.do(ANA, type="reveal", player=ANA, cards=[shock, lions])
    body = g.do(BOB, type="name", card=shock, name="Lightning Bolt", choice=True)
    event = body["event"]
    assert (event["player"], event["rule"], event["data"]["choice"]) == (BOB, "705.5", True)
    assert event["data"]["naming"] == {"name": "Lightning Bolt", "player": BOB, "rule": "705.5", "exception": None}
    assert g.card(shock, CID)["named_as"] == "Lightning Bolt" and g.card(shock)["owner"] == ANA
    # the judge may send it for any player
    body = g.do(JUDGE, type="name", card=lions, name="Isamaru, Hound of Konda", choice=True, player=CID)
    assert body["event"]["data"]["naming"]["player"] == CID and body["event"]["rule"] == "705.5"
    g.refused(BOB, 422, "invalid", None, type="name", card=lions, name="Savannah Lions", choice="yes")


# == D12 A face-down card leaving the battlefield or the stack, for any zone ========================
@pytest.mark.parametrize("zone", ["hand", "graveyard", "exile", "library"])
def test_d12_a_face_down_card_leaving_the_battlefield_is_revealed_and_named_like_a_morph_that_dies(client, zone):
    g = Game(client, ["Shock", "Lightning Bolt"])
    [shock] = g.draw(BOB)
    g.cast(BOB, shock, "Warbreak Trumpeter")
    [bolt] = g.draw(ANA)
    g.morph(ANA, bolt)
    g.refused(ANA, 409, "name_required", "705.4", type="move", card=bolt, to=zone)
    g.refused(ANA, 409, "name_taken", "704.2", type="move", card=bolt, to=zone, name="Warbreak Trumpeter")
    body = g.do(ANA, type="move", card=bolt, to=zone, name="Goblin Taskmaster")
    assert body["event"]["data"]["revealed"] == "D12" and body["event"]["rule"] == "705.4"
    seen = g.card(bolt, JUDGE if zone == "library" else BOB)  # a library card is listed to nobody else
    assert (seen["zone"], seen["face_down"], seen["named_as"]) == (zone, False, "Goblin Taskmaster")
    if zone != "library":
        assert seen.get("printed") == ("Lightning Bolt" if zone in ("graveyard", "exile") else None)  # hidden again


def test_d12_a_face_down_card_exiled_face_down_by_an_effect_is_neither_turned_up_nor_named(client):
    g = Game(client, ["Savannah Lions", "Shock", "Craw Wurm"])
    lions, _ = g.draw(ANA, 2)
    g.morph(ANA, lions)
    body = g.do(ANA, type="move", card=lions, to="exile", face_down=True)
    assert "naming" not in body["event"]["data"] and "revealed" not in body["event"]["data"]
    assert g.card(lions, BOB)["face_down"] is True and g.status(ANA) == "in_game"


# == 701 Library handling ===========================================================================
def test_701_1b_an_effect_that_would_shuffle_the_library_cuts_it(client):
    g = Game(client, ["Shock", "Savannah Lions", "Lightning Bolt", "Craw Wurm", "Giant Growth"])
    [top] = g.library_ids("Shock")
    g.do(ANA, type="reveal", player=ANA, count=1)  # a revealed card keeps its state when the cut moves it
    g.refused(ANA, 403, "forbidden", None, type="shuffle", at=2)  # only the judge records where the cut was
    body = g.do(JUDGE, type="shuffle", player=ANA, at=2)
    assert body["event"]["rule"] == "701.1b" and body["event"]["data"]["at"] == 2
    assert body["event"]["data"]["random"] is False
    seen = g.card(top, BOB)
    assert (seen["revealed"], seen["owner"], seen["printed"]) == (True, ANA, "Shock")
    [bolt], [wurm] = g.library_ids("Lightning Bolt"), g.library_ids("Craw Wurm")
    assert g.draw(BOB) == [bolt]  # two cards from the top went under
    assert g.draw(BOB) == [wurm]
    body = g.do(BOB, type="shuffle")  # a player's shuffle: a cut at a random point
    data = body["event"]["data"]
    assert data["random"] is True and 1 <= data["at"] <= 2 and data["library_size"] == 3
    g.refused(JUDGE, 422, "invalid", None, type="shuffle", player=ANA, at=4)  # a 3-card library cuts at 0 to 3
    for at in (0, 3):  # 701.1a's decision: recorded, and the order stays
        assert g.do(JUDGE, type="shuffle", player=ANA, at=at)["event"]["data"]["at"] == at


def test_701_1a_players_cant_search_the_library(client):
    g = Game(client, ["Shock", "Savannah Lions"])
    for action in ({"type": "search"}, {"type": "search", "player": ANA, "for": "Savannah Lions"}):
        error = g.refused(ANA, 409, "search_refused", "701.1a", **action)
        assert "shuffle" in error["message"]  # and what to do instead
    g.refused(JUDGE, 409, "search_refused", "701.1a", type="search")


# == D13 =============================================================================================
def test_d13b_a_cards_nonland_is_a_boolean_and_its_mana_value_an_integer(client):
    g = Game(client, ["Forest", "Ornithopter", "Shock"])
    forest, thopter, shock = g.draw(ANA, 3)
    facts = {cid: (g.card(cid, ANA)["nonland"], g.card(cid, ANA)["mana_value"]) for cid in (forest, thopter, shock)}
    assert facts == {forest: (False, 0), thopter: (True, 0), shock: (True, 1)}
    assert all(type(v) is int for _, v in facts.values())  # 1, never 1.0, as the card endpoints say
    g.cast(ANA, forest, "Ancestral Vision")  # named: the card it is named
    assert g.card(forest, BOB)["nonland"] is True


def test_d13a_the_controller_who_names_the_card_counts_the_opponents(client):
    # Ana plays a Craw Wurm face down; Bob gains control of it; Ana, Bob's opponent, names Root Elemental
    # since: Bob may take it again (705.4a); had Bob taken it himself, Ana would lose (D8).
    g = Game(client, ["Craw Wurm", "Craw Wurm"])
    [morph] = g.draw(ANA)
    g.morph(ANA, morph)
    g.do(JUDGE, type="move", card=morph, to="battlefield", player=BOB)
    [wurm] = g.draw(ANA)
    g.cast(ANA, wurm, "Root Elemental")
    body = g.do(BOB, type="turn_face_up", card=morph, name="Root Elemental", via="morph")
    assert body["event"]["data"]["naming"] == {"name": "Root Elemental", "player": BOB, "rule": "705.4a",
                                               "exception": "705.4a"}


def test_d13c_a_card_turned_up_via_morph_may_take_a_megamorph_name(snapshot_client):
    # Kolaghan Stormsinger has Megamorph, not Morph; a manifested {R} card turned up by its morph cost
    # may be it (D13(c)); turned up by a megamorph cost, Goblin Taskmaster (Morph only) it may not be.
    g = Game(snapshot_client, ["Lightning Bolt", "Shock"])
    bolt, shock = g.draw(ANA, 2)
    g.morph(ANA, bolt, via="manifest")
    g.morph(ANA, shock, via="manifest")
    g.refused(ANA, 409, "not_a_candidate", "705.4", type="turn_face_up", card=shock, name="Goblin Taskmaster",
              via="megamorph")
    body = g.do(ANA, type="turn_face_up", card=bolt, name="Kolaghan Stormsinger", via="morph")
    assert body["event"]["data"]["naming"]["name"] == "Kolaghan Stormsinger"
    g.do(ANA, type="turn_face_up", card=shock, name="Goblin Taskmaster", via="morph")


# == Answers that say exactly why ===================================================================
def test_a_refused_name_lists_every_reason_with_the_first_rule_in_rule_order(client):
    g = Game(client, ["Shock", "Fire // Ice"])
    shock, fire_ice = g.draw(ANA, 2)
    g.cast(ANA, shock, "Lightning Bolt")
    error = g.refused(ANA, 409, "not_a_candidate", "704.1", type="move", card=fire_ice, to="stack",
                      name="Lightning Bolt")
    assert "(704.1)" in error["message"] and "(704.2)" in error["message"]
    assert len(error["fields"]["name"]) == 2 and "already the name" in error["fields"]["name"][1]


def test_a_move_repeating_a_cards_name_names_nothing_and_the_event_says_so(client):
    g = Game(client, ["Shock"])
    [shock] = g.draw(ANA)
    g.cast(ANA, shock, "Lightning Bolt")
    body = g.do(ANA, type="move", card=shock, to="graveyard", name="Lightning Bolt")
    data = body["event"]["data"]
    assert data["naming"] is None and data["note"] == "already named Lightning Bolt (704.4): no naming"
    assert len(g.names()) == 1
    g.refused(ANA, 409, "already_named", "704.4", type="move", card=shock, to="exile", name="Chain Lightning")


# == The contract ===================================================================================
def test_the_openapi_document_offers_returned_choice_shuffle_and_search(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    components = doc["components"]["schemas"]
    body = doc["paths"]["/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    refs = {r["$ref"].rsplit("/", 1)[1] for r in body["oneOf"]}
    assert {"ShuffleIn", "SearchLibraryIn", "LeaveGameIn", "NameIn"} <= refs
    assert body["discriminator"]["mapping"]["shuffle"].endswith("/ShuffleIn")
    assert body["discriminator"]["mapping"]["search"].endswith("/SearchLibraryIn")
    assert components["LeaveGameIn"]["properties"]["returned"]["type"] == "array"
    assert components["NameIn"]["properties"]["choice"]["type"] == "boolean"
    assert components["ShuffleIn"]["properties"]["at"]["type"] == "integer"
    assert "random_at" not in components["ShuffleIn"]["properties"]  # the service draws it, never a request
    assert schemas.GameCardOut().fields["nonland"].allow_none is False
