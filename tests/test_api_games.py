"""The games API (docs/api.md, "Games") played over HTTP: every example of rules 702–705 of the
French seed as a scenario, every refusal in the one error envelope with nothing half-applied,
and who may see which printed card.

Each game is created with ``"shuffle": false`` so the library is the given list, top first.
Players are ``p1`` (Ana), ``p2`` (Bob), ``p3`` (Cid), ... in the order they are given.
"""

from __future__ import annotations

import re

import pytest
from driver import ANA, API, BOB, CID, JUDGE, Game, candidate_names, names_table, namings
from support import assert_envelope

from mentalmagic.names import fold
from mentalmagic.web import schemas

CARD_FIELDS = {"id", "zone", "owner", "controller", "face_down", "pentaland", "named_as"}


def test_drawing_makes_the_drawer_the_owner_of_the_top_cards_of_the_common_library(client):
    g = Game(client, ["Shock", "Savannah Lions", "Lightning Bolt"])
    body = g.do(ANA, type="draw", player=ANA, count=2)
    event = body["event"]
    assert (event["type"], event["player"], event["rule"]) == ("draw", ANA, "702.2")
    drawn = event["data"]["cards"]
    assert [g.card(c)["printed"] for c in drawn] == ["Shock", "Savannah Lions"]  # top first
    assert all((g.card(c)["zone"], g.card(c)["owner"], g.card(c)["controller"]) == ("hand", ANA, ANA)
               for c in drawn)
    [bolt] = g.library_ids("Lightning Bolt")
    assert g.card(bolt)["owner"] is None and g.view()["library_size"] == 1
    assert g.draw(BOB) == [bolt] and g.card(bolt)["owner"] == BOB  # the same library for every player


def test_a_card_moved_into_the_library_has_no_owner(client):
    # 702.2a
    g = Game(client, ["Shock", "Savannah Lions"])
    shock, _lions = g.draw(ANA, 2)
    body = g.do(ANA, type="move", card=shock, to="library", position="bottom")
    assert body["event"]["rule"] == "702.2a"
    card = g.card(shock)
    assert (card["zone"], card["owner"], card["controller"]) == ("library", None, None)
    assert g.card(shock, ANA) is None  # a library card is listed to nobody but the judge


def test_a_card_milled_from_a_players_library_is_owned_and_named_by_the_milled_player(client):
    # 702.2 (the milled player becomes its owner) and 705.3 (the graveyard's player names it, before it leaves).
    g = Game(client, ["Grizzly Bears", "Shock"])
    [bears] = g.library_ids("Grizzly Bears")
    g.refused(ANA, 409, "wrong_namer", "705.3", type="move", card=bears, to="graveyard", player=BOB,
              name="Elvish Visionary")
    g.refused(BOB, 409, "name_required", "705.3", type="move", card=bears, to="graveyard", player=BOB)
    body = g.do(BOB, type="move", card=bears, to="graveyard", player=BOB, name="Elvish Visionary")
    assert body["event"]["rule"] == "705.3"
    assert body["event"]["data"]["naming"] == {"name": "Elvish Visionary", "player": BOB, "rule": "705.3",
                                               "exception": None}
    card = g.card(bears, ANA)
    assert (card["zone"], card["owner"], card["named_as"], card["printed"]) == (
        "graveyard", BOB, "Elvish Visionary", "Grizzly Bears")  # face up in a graveyard: everyone sees it
    assert names_table(g) == [("Elvish Visionary", bears, BOB, None)]


def test_a_revealed_library_card_is_owned_by_its_revealer_while_revealed_and_by_nobody_after(client):
    # 702.2b
    g = Game(client, ["Shock", "Savannah Lions", "Giant Growth"])
    body = g.do(ANA, type="reveal", count=2, player=ANA)
    event = body["event"]
    assert event["rule"] == "702.2b" and event["data"]["player"] == ANA and event["data"]["continuous"] is False
    revealed = event["data"]["cards"]
    [growth] = g.library_ids("Giant Growth")
    for who in (ANA, BOB):
        seen = {c["id"]: c for c in g.view(who)["cards"]}
        assert set(seen) == set(revealed)  # revealed library cards are listed; the others are not
        assert [seen[c]["printed"] for c in revealed] == ["Shock", "Savannah Lions"]
        assert all((seen[c]["zone"], seen[c]["owner"], seen[c]["revealed"]) == ("library", ANA, True)
                   for c in revealed)
    assert g.card(growth)["owner"] is None
    body = g.do(ANA, type="end_reveal", cards=revealed)
    assert body["event"]["rule"] == "702.2b"
    assert all(g.card(c)["owner"] is None and g.card(c)["revealed"] is False for c in revealed)
    assert g.view(ANA)["cards"] == [] and g.view(BOB)["cards"] == []
    g.refused(ANA, 422, "invalid", type="end_reveal", cards=revealed)  # a reveal ends once


def test_a_card_revealed_continuously_on_top_of_the_library_has_no_owner(client):
    # 702.2b's exception: an effect that continuously reveals the top card of a library.
    g = Game(client, ["Shock", "Savannah Lions"])
    [top] = g.do(ANA, type="reveal", count=1, player=ANA, continuous=True)["event"]["data"]["cards"]
    seen = g.card(top, BOB)
    assert (seen["owner"], seen["revealed"], seen["printed"]) == (None, True, "Shock")


def test_cards_looked_at_in_a_players_library_belong_to_that_player_while_someone_looks(client):
    # 702.2c: Ana looks at the top card of Bob's library.
    g = Game(client, ["Shock", "Savannah Lions"])
    body = g.do(ANA, type="look", count=1, player=BOB)
    assert body["event"]["rule"] == "702.2c"
    assert (body["event"]["data"]["player"], body["event"]["data"]["looker"]) == (BOB, ANA)
    [top] = body["event"]["data"]["cards"]
    assert g.card(top)["owner"] == BOB
    assert g.card(top, ANA)["printed"] == "Shock"  # the looker sees it
    assert g.card(top, BOB) is None  # nobody else does
    g.do(BOB, type="end_look", cards=[top])
    assert g.card(top)["owner"] is None and g.card(top, ANA) is None


# == 703 Pentaland ===============================================================================
def test_a_pentaland_destroyed_stays_face_down_and_is_no_pentaland_once_back_in_a_hand(client):
    g = Game(client, ["Savannah Lions", "Shock"])
    [lions] = g.draw(ANA)
    body = g.do(ANA, type="move", card=lions, to="battlefield", pentaland=True)
    assert body["event"]["rule"] == "703.2"
    for who, sees in ((ANA, True), (BOB, False), (JUDGE, True)):
        card = g.card(lions, who)
        assert (card["zone"], card["face_down"], card["pentaland"], card["named_as"], card["controller"]) == (
            "battlefield", True, True, None, ANA)
        assert ("printed" in card) is sees, who
    # 703.7: destroyed, it stays face down; nothing is named, and Bob's answer doesn't show it either
    body = g.do(BOB, type="move", card=lions, to="graveyard")
    assert [c["id"] for c in body["cards"]] == [g.shown(BOB, lions)] and "printed" not in body["cards"][0]
    card = g.card(lions, BOB)
    assert (card["zone"], card["face_down"], card["pentaland"], card["named_as"]) == ("graveyard", True, True, None)
    assert "printed" not in card
    # 703.8: returned to a hand, it is no longer a Pentaland, and still unnamed
    g.do(ANA, type="move", card=lions, to="hand")
    card = g.card(lions, ANA)
    assert (card["zone"], card["owner"], card["face_down"], card["pentaland"], card["named_as"]) == (
        "hand", ANA, False, False, None)
    assert g.names() == [] and namings(g) == []


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        ({"to": "battlefield", "pentaland": True, "name": "Isamaru, Hound of Konda"}, "703.2"),
        ({"to": "battlefield", "pentaland": True, "face_down": False}, "703.2"),
        ({"to": "graveyard", "pentaland": True}, "703.4"),
        ({"to": "exile", "pentaland": True}, "703.4"),
    ],
    ids=["never named", "always face down", "not into a graveyard", "not into exile"],
)
def test_a_pentaland_is_played_face_down_onto_the_battlefield_and_unnamed(client, action, rule):
    g = Game(client, ["Savannah Lions"])
    [lions] = g.draw(ANA)
    g.refused(ANA, 409, "pentaland_refused", rule, type="move", card=lions, **action)


def test_a_pentaland_is_never_named_nor_turned_face_up_nor_moved_face_up(client):
    g = Game(client, ["Savannah Lions", "Shock"])
    lions, shock = g.draw(ANA, 2)
    g.do(ANA, type="move", card=lions, to="battlefield", pentaland=True)
    g.refused(ANA, 409, "pentaland_refused", "703.6", type="name", card=lions, name="Isamaru, Hound of Konda")
    g.refused(ANA, 409, "pentaland_refused", "703.6", type="turn_face_up", card=lions,
              name="Isamaru, Hound of Konda")
    g.refused(ANA, 409, "pentaland_refused", "703.7", type="move", card=lions, to="exile", face_down=False)
    g.refused(ANA, 409, "pentaland_refused", "703.7", type="move", card=lions, to="exile",
              name="Isamaru, Hound of Konda")
    # 703.3: a named face-up card outside a hand can't become a Pentaland (a named card of a hand can, D10)
    g.cast(ANA, shock, "Lightning Bolt")
    g.do(ANA, type="move", card=shock, to="graveyard")
    g.refused(ANA, 409, "pentaland_refused", "703.3", type="move", card=shock, to="battlefield", pentaland=True)


def test_a_hidden_library_card_is_not_played_as_a_pentaland(client):
    g = Game(client, ["Shock"])
    [top] = g.library_ids("Shock")
    g.refused(ANA, 409, "pentaland_refused", "703.3", type="move", card=top, to="battlefield", pentaland=True)


# == 704 Naming ==================================================================================
def test_a_card_named_fire_leaves_ice_free_for_another_card(client):
    # 704.3 example: a {1}{R} card may be named Fire; it is only Fire; Ice stays free for a {1}{U} card.
    g = Game(client, ["Lightning Strike", "Mana Leak", "Lightning Strike", "Fire // Ice"])
    strike, leak = g.draw(ANA, 2)
    bob_strike, fire_ice = g.draw(BOB, 2)
    body = g.cast(ANA, strike, "Feu")  # the French half name
    assert body["event"]["data"]["naming"]["name"] == "Fire" and g.card(strike)["named_as"] == "Fire"
    g.refused(BOB, 409, "name_taken", "704.2", type="move", card=bob_strike, to="stack", name="Fire")
    g.refused(BOB, 409, "not_a_candidate", "704.1", type="move", card=bob_strike, to="stack", name="Ice")
    g.refused(BOB, 409, "not_a_candidate", "704.1", type="move", card=fire_ice, to="stack", name="Fire")
    g.cast(ANA, leak, "Ice")
    g.cast(BOB, fire_ice, "Lightning Strike")  # a printed Fire // Ice offers its {1}{R} cost
    assert names_table(g) == [("Fire", strike, ANA, None), ("Ice", leak, ANA, None),
                              ("Lightning Strike", fire_ice, BOB, None)]


def test_a_named_card_returned_to_the_library_keeps_its_name_for_good(client):
    # 704.4: named once, it is that card for good, in the library and after.
    g = Game(client, ["Shock", "Lightning Bolt"])
    [shock] = g.draw(ANA)
    g.do(ANA, type="name", card=shock, name="Lightning Bolt")
    g.do(ANA, type="move", card=shock, to="library")
    card = g.card(shock)
    assert (card["zone"], card["owner"], card["named_as"]) == ("library", None, "Lightning Bolt")
    assert names_table(g) == [("Lightning Bolt", shock, ANA, None)]
    assert g.draw(BOB) == [shock]  # put on top, drawn again
    assert g.card(shock, BOB)["named_as"] == "Lightning Bolt"
    g.refused(BOB, 409, "already_named", "704.4", type="name", card=shock, name="Burst Lightning")
    g.refused(BOB, 409, "already_named", "704.4", type="move", card=shock, to="stack", name="Burst Lightning")
    [bolt] = g.draw(ANA)
    g.refused(ANA, 409, "not_a_candidate", "704.1", type="name", card=bolt, name="Lightning Bolt")
    g.cast(BOB, shock, "Lightning Bolt")  # casting it under its own name needs nothing more
    assert names_table(g) == [("Lightning Bolt", shock, ANA, None)]


# == 705.1–705.3 When to name ====================================================================
def test_a_shock_cast_from_a_hand_is_named_in_the_same_step(client):
    # 705.1 example: a player casts a Shock from their hand, naming a {R} card of their hand Shock.
    g = Game(client, ["Lightning Bolt", "Savannah Lions"])
    [bolt] = g.draw(ANA)
    g.refused(ANA, 409, "name_required", "705.1", type="move", card=bolt, to="stack")
    g.refused(BOB, 403, "forbidden", None, type="move", card=bolt, to="stack", name="Shock")  # her hand
    before = len(g.events())
    body = g.cast(ANA, bolt, "Choc")
    event = body["event"]
    assert (event["type"], event["rule"]) == ("move", "705.1")
    assert event["data"]["naming"] == {"name": "Shock", "player": ANA, "rule": "705.1", "exception": None}
    assert len(g.events()) == before + 1  # one step: the move and its naming are one event
    card = g.card(bolt, BOB)
    assert (card["zone"], card["named_as"], card["printed"]) == ("stack", "Shock", "Lightning Bolt")
    assert g.names() == [{"name": "Shock", "card": bolt, "player": ANA, "seq": event["seq"], "exception": None}]
    assert [c["id"] for c in body["cards"]] == [bolt]


def test_an_unnamed_card_discarded_from_a_hand_is_named_before_it_leaves(client):
    # 705.2 example: a player who discards an unnamed card names it.
    g = Game(client, ["Shock"])
    [shock] = g.draw(ANA)
    g.refused(ANA, 409, "name_required", "705.2", type="move", card=shock, to="graveyard")
    g.refused(ANA, 409, "name_required", "705.2", type="move", card=shock, to="exile")
    g.refused(BOB, 403, "forbidden", None, type="move", card=shock, to="graveyard", name="Lightning Bolt")
    g.do(ANA, type="reveal", cards=[shock], player=ANA)  # e.g. Duress: Bob may now pick it...
    g.refused(BOB, 409, "wrong_namer", "705.2", type="move", card=shock, to="graveyard", name="Lightning Bolt")
    body = g.do(ANA, type="move", card=shock, to="graveyard", name="Lightning Bolt")  # ...but Ana names it
    assert body["event"]["rule"] == "705.2"
    assert body["event"]["data"]["naming"] == {"name": "Lightning Bolt", "player": ANA, "rule": "705.2",
                                               "exception": None}
    assert g.card(shock, BOB)["named_as"] == "Lightning Bolt"


def test_a_card_played_face_down_from_a_hand_needs_no_name_but_from_a_visible_zone_it_does(client):
    # 705.1: "play it face down from a visible zone".
    g = Game(client, ["Lightning Bolt", "Shock"])
    [bolt] = g.draw(ANA)
    g.morph(ANA, bolt)
    assert g.card(bolt)["named_as"] is None and g.card(bolt)["face_down"] is True
    [shock] = g.library_ids("Shock")
    g.do(ANA, type="move", card=shock, to="exile", player=ANA)  # exiled face up from the library
    g.refused(ANA, 409, "name_required", "705.1", type="move", card=shock, to="battlefield", face_down=True,
              via="morph")
    g.do(ANA, type="move", card=shock, to="battlefield", face_down=True, via="morph", name="Goblin Taskmaster")
    assert g.card(shock, BOB)["named_as"] == "Goblin Taskmaster"


# == 705.4 / 705.4a / D6–D8 Turning face up ========================================================
def test_a_face_down_3UU_card_turned_face_up_with_morph_may_be_named_only_a_morph_card(client):
    # 705.4 example 1: Vesuvan Shapeshifter, Whip-Spine Drake or Mistform Shrieker.
    g = Game(client, ["Air Elemental"])
    [card] = g.draw(ANA)
    g.morph(ANA, card)
    morphs = candidate_names(client, printed="Air Elemental", keyword="morph", game=g.id)
    assert {"Vesuvan Shapeshifter", "Whip-Spine Drake", "Mistform Shrieker"} <= set(morphs)
    others = [n for n in candidate_names(client, printed="Air Elemental", game=g.id) if n not in morphs]
    assert others
    for name in others[:3]:
        g.refused(ANA, 409, "not_a_candidate", "705.4", type="turn_face_up", card=card, name=name, via="morph")
    g.refused(ANA, 409, "name_required", "705.4", type="turn_face_up", card=card, via="morph")
    g.refused(BOB, 409, "wrong_namer", "705.4", type="turn_face_up", card=card, name=morphs[0], via="morph")
    before = g.record()
    for name in morphs:  # every Morph name is offered
        body = g.do(ANA, type="turn_face_up", card=card, name=name, via="morph")
        assert body["event"]["rule"] == "705.4"
        assert body["event"]["data"]["naming"] == {"name": name, "player": ANA, "rule": "705.4", "exception": None}
        g.undo()
        assert g.record() == before
    g.do(ANA, type="turn_face_up", card=card, name="Vesuvan Shapeshifter", via="morph")
    seen = g.card(card, BOB)
    assert (seen["face_down"], seen["named_as"], seen["printed"]) == (False, "Vesuvan Shapeshifter", "Air Elemental")


def test_a_face_down_red_morph_that_dies_after_warbreak_trumpeter_was_named_is_goblin_taskmaster(client):
    # 705.4 example 2: the only {R} Morph cards are Goblin Taskmaster and Warbreak Trumpeter.
    assert candidate_names(client, printed="Lightning Bolt", keyword="morph") == [
        "Goblin Taskmaster", "Warbreak Trumpeter"]
    g = Game(client, ["Shock", "Lightning Bolt"])
    [shock] = g.draw(BOB)
    g.cast(BOB, shock, "Warbreak Trumpeter")
    [bolt] = g.draw(ANA)
    g.morph(ANA, bolt)
    g.refused(BOB, 409, "wrong_namer", "705.4", type="move", card=bolt, to="graveyard", name="Goblin Taskmaster")
    g.refused(ANA, 409, "name_required", "705.4", type="move", card=bolt, to="graveyard")
    g.refused(ANA, 409, "name_taken", "704.2", type="move", card=bolt, to="graveyard", name="Warbreak Trumpeter")
    g.refused(ANA, 409, "not_a_candidate", "705.4", type="move", card=bolt, to="graveyard", name="Shock")
    body = g.do(ANA, type="move", card=bolt, to="graveyard", name="Goblin Taskmaster")
    assert body["event"]["data"]["naming"] == {"name": "Goblin Taskmaster", "player": ANA, "rule": "705.4",
                                               "exception": None}
    seen = g.card(bolt, BOB)
    assert (seen["zone"], seen["face_down"], seen["named_as"], seen["printed"]) == (
        "graveyard", False, "Goblin Taskmaster", "Lightning Bolt")


def test_an_opponents_root_elemental_named_since_lets_the_face_down_card_be_root_elemental_too(client):
    # 705.4a example: Root Elemental is the only {4}{G}{G} Morph card.
    assert candidate_names(client, printed="Craw Wurm", keyword="morph") == ["Root Elemental"]
    g = Game(client, ["Craw Wurm", "Craw Wurm"])
    [morph] = g.draw(ANA)
    g.morph(ANA, morph)
    [wurm] = g.draw(BOB)
    g.cast(BOB, wurm, "Root Elemental")  # the opponent names it after the card went face down
    g.refused(ANA, 409, "name_required", "705.4", type="move", card=morph, to="graveyard")
    body = g.do(ANA, type="move", card=morph, to="graveyard", name="Root Elemental")
    event = body["event"]
    assert event["rule"] == "705.4a"  # the event says the exception was used
    assert event["data"]["naming"] == {"name": "Root Elemental", "player": ANA, "rule": "705.4a",
                                       "exception": "705.4a"}
    names = g.names()
    assert [(n["name"], n["card"], n["player"], n["exception"]) for n in names] == [
        ("Root Elemental", wurm, BOB, None), ("Root Elemental", morph, ANA, "705.4a")]
    assert names[1]["seq"] == event["seq"]
    assert g.card(morph, BOB)["named_as"] == "Root Elemental" and g.card(wurm, ANA)["named_as"] == "Root Elemental"


def test_705_4a_allows_only_the_names_free_when_the_card_went_face_down(client):
    # D6: Warbreak Trumpeter was taken before the morph, Goblin Taskmaster after it, by an opponent.
    g = Game(client, ["Shock", "Lightning Bolt", "Shock"])
    [first] = g.draw(BOB)
    g.cast(BOB, first, "Warbreak Trumpeter")
    [bolt] = g.draw(ANA)
    g.morph(ANA, bolt)
    [second] = g.draw(BOB)
    g.cast(BOB, second, "Goblin Taskmaster")
    error = g.refused(ANA, 409, "name_taken", "704.2", type="turn_face_up", card=bolt, name="Warbreak Trumpeter",
                      via="morph")
    assert "705.4a" in error["message"]
    body = g.do(ANA, type="turn_face_up", card=bolt, name="Goblin Taskmaster", via="morph")
    assert body["event"]["rule"] == "705.4a" and body["event"]["data"]["naming"]["exception"] == "705.4a"
    assert names_table(g) == [("Warbreak Trumpeter", first, BOB, None), ("Goblin Taskmaster", second, BOB, None),
                              ("Goblin Taskmaster", bolt, ANA, "705.4a")]


def test_a_player_whose_face_down_card_has_no_legal_name_left_loses_the_game(client):
    # D8: every {R} Morph name is gone, none since by an opponent: the loss is an event, the player is marked lost.
    g = Game(client, ["Shock", "Lightning Bolt", "Shock", "Savannah Lions"])
    [first] = g.draw(BOB)
    g.cast(BOB, first, "Warbreak Trumpeter")  # before the morph: outside the window
    bolt, own = g.draw(ANA, 2)
    g.morph(ANA, bolt)
    g.cast(ANA, own, "Goblin Taskmaster")  # since, but by Ana herself
    error = g.refused(ANA, 409, "name_taken", "704.2", type="turn_face_up", card=bolt, name="Goblin Taskmaster",
                      via="morph")
    assert "D8" in error["message"]
    names_before = g.names()
    body = g.do(ANA, type="turn_face_up", card=bolt, via="morph")
    event = body["event"]
    assert (event["type"], event["rule"]) == ("turn_face_up", "705.4a")
    loss = event["data"]["game_loss"]
    assert {**loss, "removed": sorted(loss["removed"])} == {
        "player": ANA, "rule": "705.4a", "why": "own_side", "removed": sorted([bolt, own]), "exiled": [],
        "released": []}
    assert "naming" not in event["data"]
    assert g.events()[-1] == event
    assert g.status(ANA) == "lost" and g.status(BOB) == "in_game"
    card = g.card(bolt, BOB)  # turned face up unnamed, then gone with Ana (a player who loses leaves)
    assert (card["face_down"], card["named_as"], card["printed"], card["zone"]) == (
        False, None, "Lightning Bolt", "removed")
    assert g.names() == names_before  # the card stays unnamed
    g.refused(ANA, 409, "player_out_of_game", None, type="draw", player=ANA, count=1)


def test_a_face_down_card_whose_names_were_all_taken_before_it_went_face_down_loses_the_game(client):
    # D6 + D8: Root Elemental was taken before; when the card dies, its player loses.
    g = Game(client, ["Craw Wurm", "Craw Wurm"])
    [first] = g.draw(BOB)
    g.cast(BOB, first, "Root Elemental")
    [morph] = g.draw(ANA)
    g.morph(ANA, morph)
    g.refused(ANA, 409, "name_taken", "704.2", type="move", card=morph, to="graveyard", name="Root Elemental")
    body = g.do(ANA, type="move", card=morph, to="graveyard")
    assert body["event"]["data"]["game_loss"] == {"player": ANA, "rule": "705.4a", "why": "taken_before",
                                                  "removed": [morph],
                                                  "exiled": [], "released": []}
    assert g.status(ANA) == "lost" and g.card(morph)["named_as"] is None and g.card(morph)["zone"] == "removed"


@pytest.mark.parametrize(("namer", "outcome"), [(CID, "lost"), (BOB, "named")],
                         ids=["a team-mate's name gives no exception", "another team's name does"])
def test_in_team_games_only_players_of_other_teams_open_705_4a(client, namer, outcome):
    # D7: Ana and Cid are team A; Bob and Dee team B.
    g = Game(client, ["Craw Wurm", "Craw Wurm"], players=("Ana", "Bob", "Cid", "Dee"), teams=("A", "B", "A", "B"))
    [morph] = g.draw(ANA)
    g.morph(ANA, morph)
    [wurm] = g.draw(namer)
    g.cast(namer, wurm, "Root Elemental")
    if outcome == "named":
        body = g.do(ANA, type="move", card=morph, to="graveyard", name="Root Elemental")
        assert body["event"]["data"]["naming"]["exception"] == "705.4a"
    else:
        g.refused(ANA, 409, "name_taken", "704.2", type="move", card=morph, to="graveyard", name="Root Elemental")
        body = g.do(ANA, type="move", card=morph, to="graveyard")
        assert body["event"]["data"]["game_loss"]["player"] == ANA
        assert g.status(ANA) == "lost"


def test_a_manifested_card_turned_face_up_by_manifest_is_named_as_a_creature(client):
    g = Game(client, ["Lightning Bolt"])
    [bolt] = g.draw(ANA)
    g.morph(ANA, bolt, via="manifest")
    g.refused(ANA, 409, "not_a_candidate", "705.4", type="turn_face_up", card=bolt, name="Shock", via="manifest")
    g.do(ANA, type="turn_face_up", card=bolt, name="Goblin Guide", via="manifest")
    assert g.card(bolt)["named_as"] == "Goblin Guide"


@pytest.mark.parametrize(("via", "name"), [("manifest", "Shock"), ("morph", "Goblin Guide")])
def test_a_face_down_card_turned_face_up_without_saying_how_is_named_as_it_went_face_down(client, via, name):
    # 705.4: "a card turned up with morph must be a morph card". When the action gives no ``via``, the
    # way the card went face down (recorded in the move) applies, as in the ledger (``via or face_down_via``);
    # leaving ``via`` out must not open every name of the cost.
    g = Game(client, ["Lightning Bolt"])
    [bolt] = g.draw(ANA)
    g.morph(ANA, bolt, via=via)
    g.refused(ANA, 409, "not_a_candidate", "705.4", type="turn_face_up", card=bolt, name=name)


# == 705.11 Is card X in this hand? =================================================================
def test_liars_pendulum_naming_savannah_lions_lists_every_unnamed_hand_card_that_could_be_it(snapshot_client):
    # 705.11 example: the unnamed cards costing {W}, {W/U}, {W/B}, {R/W} or {G/W} could be Savannah Lions.
    hand = ["Elite Vanguard", "Judge's Familiar", "Beckon Apparition", "Boros Recruit", "Dryad Militant",
            "Shock", "Savannah Lions", "Mother of Runes", "Grizzly Bears"]
    g = Game(snapshot_client, [*hand, "Isamaru, Hound of Konda"])
    ids = g.draw(ANA, len(hand))
    by_printed = dict(zip(hand, ids, strict=True))
    g.do(ANA, type="name", card=by_printed["Mother of Runes"], name="Figure of Destiny")  # named: not asked
    [bobs] = g.draw(BOB)
    expected = {by_printed[p] for p in ("Elite Vanguard", "Judge's Familiar", "Beckon Apparition",
                                        "Boros Recruit", "Dryad Militant")}
    for who in (ANA, JUDGE):
        response = g.could_be(who, ANA, "lions des savanes")
        body = response.get_json()
        assert response.status_code == 200, body
        assert schemas.CouldBeOut().validate(body) == {}
        assert (body["player"], body["name"], body["taken"], body["rule"]) == (ANA, "Savannah Lions", False,
                                                                             "705.11")
        assert set(body["cards"]) == expected and len(body["cards"]) == len(expected)
    assert_envelope(g.could_be(BOB, ANA, "Savannah Lions"), 403)  # about Ana's hand: Ana and the judge only
    assert_envelope(g.could_be(ANA, ANA, "No Such Card"), 404)
    assert_envelope(g.could_be(JUDGE, "p9", "Savannah Lions"), 422)
    g.cast(BOB, bobs, "Savannah Lions")  # now taken: nothing is named
    body = g.could_be(ANA, ANA, "Savannah Lions").get_json()
    assert body["taken"] is True and body["cards"] == []


# == leaving the game ===============================================================================
def test_a_player_leaving_takes_what_they_own_exiles_what_they_only_control_and_leaves_library_cards(client):
    g = Game(client, ["Shock", "Savannah Lions", "Grizzly Bears", "Lightning Bolt", "Giant Growth"],
             players=("Ana", "Bob", "Cid"))
    shock, lions = g.draw(ANA, 2)
    [bears] = g.draw(BOB)
    g.cast(ANA, shock, "Lightning Bolt")
    g.do(ANA, type="move", card=shock, to="graveyard")
    g.do(BOB, type="move", card=bears, to="battlefield", name="Elvish Visionary")
    g.do(JUDGE, type="move", card=bears, to="battlefield", player=ANA)  # Ana gains control of Bob's card
    [revealed] = g.do(ANA, type="reveal", count=1, player=ANA)["event"]["data"]["cards"]
    g.refused(BOB, 403, "forbidden", None, type="leave_game", player=ANA)
    body = g.do(ANA, type="leave_game", player=ANA)
    assert body["event"]["rule"] == "800.4a"
    data = body["event"]["data"]
    assert (data["player"], sorted(data["removed"]), data["exiled"], data["released"]) == (
        ANA, sorted([shock, lions]), [bears], [revealed])
    cards = {c["id"]: c for c in g.view()["cards"]}
    assert cards[shock]["zone"] == cards[lions]["zone"] == "removed"  # what she owned leaves the game
    assert (cards[bears]["zone"], cards[bears]["owner"], cards[bears]["controller"]) == ("exile", BOB, BOB)
    assert (cards[revealed]["zone"], cards[revealed]["owner"], cards[revealed]["revealed"]) == (
        "library", None, False)  # library cards have no owner: they stay
    assert g.view()["library_size"] == 2
    assert g.status(ANA) == "left"
    assert "printed" not in g.card(lions, BOB)  # it left from her hidden hand
    g.refused(ANA, 409, "player_out_of_game", "800.4a", type="draw", player=ANA, count=1)
    g.refused(BOB, 409, "card_left_game", "800.4a", type="move", card=shock, to="hand")
    g.refused(JUDGE, 409, "player_out_of_game", "800.4a", type="leave_game", player=ANA)


# == Refusals: 409 with the rule, nothing half-applied ===============================================
REFUSAL_LIBRARY = ["Shock", "Shock", "Savannah Lions", "Grizzly Bears", "Lightning Bolt", "Ornithopter"]


def refusal_table(client) -> tuple[Game, dict]:
    """Ana has cast a Shock as Lightning Bolt, holds another Shock and plays Savannah Lions as a Pentaland;
    Bob holds Grizzly Bears; Lightning Bolt and Ornithopter are left in the library."""
    g = Game(client, REFUSAL_LIBRARY)
    cast, shock, lions = g.draw(ANA, 3)
    [bears] = g.draw(BOB)
    [bolt] = g.library_ids("Lightning Bolt")
    [thopter] = g.library_ids("Ornithopter")
    g.cast(ANA, cast, "Lightning Bolt")
    g.do(ANA, type="move", card=lions, to="battlefield", pentaland=True)
    return g, {"cast": cast, "shock": shock, "lions": lions, "bears": bears, "bolt": bolt, "thopter": thopter}


REFUSALS = [
    ("name_taken", "704.2", ANA, {"type": "name", "card": "shock", "name": "Lightning Bolt"}),
    ("name_taken", "704.2", ANA, {"type": "move", "card": "shock", "to": "stack", "name": "lightning bolt"}),
    ("already_named", "704.4", ANA, {"type": "name", "card": "cast", "name": "Burst Lightning"}),
    ("not_a_candidate", "704.1", ANA, {"type": "name", "card": "shock", "name": "Shock"}),
    ("not_a_candidate", "704.1", ANA, {"type": "name", "card": "shock", "name": "Savannah Lions"}),
    ("not_a_candidate", "704.1", ANA, {"type": "name", "card": "shock", "name": "Not A Card At All"}),
    ("not_a_candidate", "706.1", JUDGE, {"type": "move", "card": "thopter", "to": "graveyard", "player": BOB,
                                         "name": "Black Lotus"}),  # not the top card: the judge records it (701.1a)
    ("search_refused", "701.1a", BOB, {"type": "move", "card": "thopter", "to": "graveyard", "player": BOB,
                                       "name": "Black Lotus"}),
    ("name_required", "705.1", ANA, {"type": "move", "card": "shock", "to": "stack"}),
    ("name_required", "705.1", ANA, {"type": "move", "card": "shock", "to": "battlefield"}),
    ("name_required", "705.2", ANA, {"type": "move", "card": "shock", "to": "graveyard"}),
    ("name_required", "705.3", BOB, {"type": "move", "card": "bolt", "to": "graveyard", "player": BOB}),
    ("wrong_namer", "705.6", BOB, {"type": "name", "card": "shock", "name": "Burst Lightning"}),
    ("pentaland_refused", "703.6", ANA, {"type": "name", "card": "lions", "name": "Isamaru, Hound of Konda"}),
    ("pentaland_refused", "703.7", ANA, {"type": "move", "card": "lions", "to": "graveyard", "face_down": False}),
    ("pentaland_refused", "703.3", ANA, {"type": "move", "card": "cast", "to": "battlefield", "pentaland": True}),
    ("face_down_refused", "705.4", ANA, {"type": "turn_face_up", "card": "shock", "name": "Burst Lightning"}),
    ("ownership_refused", "702.2", ANA, {"type": "move", "card": "shock", "to": "graveyard", "player": BOB,
                                         "name": "Burst Lightning"}),
    ("library_empty", "702.1", BOB, {"type": "draw", "player": BOB, "count": 3}),
    ("library_empty", "702.1", ANA, {"type": "reveal", "player": ANA, "count": 3}),
]


@pytest.mark.parametrize(("code", "rule", "who", "action"), REFUSALS,
                         ids=[f"{c} {r} {a['type']} {a.get('name', a.get('to', ''))}" for c, r, _, a in REFUSALS])
def test_every_refusal_is_a_409_that_cites_its_rule_and_changes_nothing(client, code, rule, who, action):
    g, cards = refusal_table(client)
    action = {k: (cards.get(v, v) if k == "card" else v) for k, v in action.items()}
    g.refused(who, 409, code, rule, **action)


MALFORMED = [
    ({"type": "mulligan"}, "type"),
    ({"player": ANA, "count": 1}, "type"),
    ({"type": 7}, "type"),
    ({"type": "move", "to": "hand"}, "card"),
    ({"type": "name", "name": "Lightning Bolt"}, "card"),
    ({"type": "move", "card": "shock", "to": "sideboard"}, "to"),
    ({"type": "move", "card": "shock"}, "to"),
    ({"type": "move", "card": "shock", "to": "library", "position": "middle"}, "position"),
    ({"type": "move", "card": "shock", "to": "stack", "name": "Burst Lightning", "face_down": "maybe"}, "face_down"),
    ({"type": "move", "card": "shock", "to": "stack", "name": "Burst Lightning", "face_down": [True]}, "face_down"),
    ({"type": "move", "card": ["shock"], "to": "hand"}, "card"),
    ({"type": "name", "card": "shock", "name": 5}, "name"),
    ({"type": "name", "card": "shock"}, "name"),
    ({"type": "name", "card": "shock", "name": ""}, "name"),
    ({"type": "draw", "player": ANA, "count": 0}, "count"),
    ({"type": "draw", "player": ANA, "count": -2}, "count"),
    ({"type": "draw", "player": ANA, "count": "two"}, "count"),
    ({"type": "draw", "player": ANA, "count": 1.5}, "count"),
    ({"type": "reveal", "player": ANA}, "cards"),
    ({"type": "reveal", "player": ANA, "cards": "shock"}, "cards"),
    ({"type": "reveal", "player": ANA, "cards": [], "count": 1}, "cards"),
    ({"type": "end_reveal"}, "cards"),
    ({"type": "turn_face_up", "card": "shock", "name": "Burst Lightning", "via": "magic"}, "via"),
    ({"type": "move", "card": "shock", "to": "hand", "colour": "red"}, "colour"),
    ({"type": "draw", "player": "p9", "count": 1}, "player"),
]


@pytest.mark.parametrize(("action", "field"), MALFORMED, ids=[f"{f}: {a}" for a, f in MALFORMED])
def test_a_malformed_action_is_a_422_naming_the_field(client, action, field):
    g, cards = refusal_table(client)
    action = {k: (cards.get(v, v) if k == "card" and isinstance(v, str) else v) for k, v in action.items()}
    error = g.refused(ANA, 422, "invalid", None, **action)
    assert field in error["fields"], error


@pytest.mark.parametrize(
    "body",
    [b"not json", b"{\"type\": \"draw\",", b"", b"\xff\xfe{"],
    ids=["text", "truncated", "empty", "not utf-8"],
)
def test_a_body_that_is_not_json_is_a_400(client, body):
    g, _ = refusal_table(client)
    before = g.record()
    response = client.post(f"{API}/games/{g.id}/actions", data=body, content_type="application/json",
                           headers=g.headers(ANA))
    assert assert_envelope(response, 400)["code"] == "bad_request"
    response = client.post(f"{API}/games/{g.id}/actions", data=b"{\"type\": \"draw\"}", content_type="text/plain",
                           headers=g.headers(ANA))
    assert_envelope(response, 400)
    assert g.record() == before


@pytest.mark.parametrize("body", [[{"type": "draw"}], "draw", 3, None], ids=["list", "string", "number", "null"])
def test_a_json_action_that_is_not_an_object_is_refused_without_a_500(client, body):
    g, _ = refusal_table(client)
    before = g.record()
    response = client.post(f"{API}/games/{g.id}/actions", json=body, headers=g.headers(ANA))
    assert response.status_code in (400, 422)
    assert_envelope(response, response.status_code)
    assert g.record() == before


def test_a_malformed_game_creation_is_refused_field_by_field(client):
    cases = [
        ({"players": [{"name": "Ana"}, {"name": "Bob"}]}, 422, "library"),
        ({"library": ["Shock"], "players": []}, 422, "players"),
        ({"library": ["Shock"], "players": [{"name": "Ana"}, {"name": "Bob"}], "format": "chess"}, 422, "format"),
        # unknown_card, with suggestions, as wherever a card is named (issue 30)
        ({"library": ["Not A Card At All"], "players": [{"name": "Ana"}, {"name": "Bob"}]}, 404, "library"),
        ({"library": ["Shock"], "players": [{"name": "Ana"}, {"name": "Bob"}], "shuffle": "maybe"}, 422, "shuffle"),
        ({"library": ["Shock"], "players": [{"name": "Ana"}, {"name": "Bob"}], "colour": 1}, 422, "colour"),
    ]
    for body, status, field in cases:
        error = assert_envelope(client.post(f"{API}/games", json=body), status)
        assert field in error["fields"], (body, error)
    assert_envelope(client.post(f"{API}/games", data=b"nope", content_type="application/json"), 400)


def test_a_game_is_created_with_french_names_and_gives_each_physical_card_its_own_id(client):
    g = Game(client, ["Choc", "Feu // Glace", "Glace", "Shock"])
    drawn = g.draw(ANA, 4)
    assert [g.card(c)["printed"] for c in drawn] == ["Shock", "Fire // Ice", "Fire // Ice", "Shock"]
    assert len(set(drawn)) == 4


# == Who may call what: 401, 403, 404, 413 ===========================================================
@pytest.mark.parametrize(
    "authorization",
    [None, "", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer not-a-token", "Token {judge}", "bearer{judge}"],
    ids=["none", "empty", "no token", "blank token", "basic", "wrong token", "other scheme", "no space"],
)
def test_a_missing_or_bad_token_is_a_401_on_every_game_endpoint(client, authorization):
    g, _ = refusal_table(client)
    before = g.record()
    headers = {} if authorization is None else {"Authorization": authorization.format(judge=g.judge_token)}
    calls = [
        client.get(f"{API}/games/{g.id}", headers=headers),
        client.get(f"{API}/games/{g.id}/names", headers=headers),
        client.get(f"{API}/games/{g.id}/events", headers=headers),
        client.get(f"{API}/games/{g.id}/could-be?player={ANA}&name=Shock", headers=headers),
        client.post(f"{API}/games/{g.id}/actions", json={"type": "draw", "player": ANA, "count": 1}, headers=headers),
        client.post(f"{API}/games/{g.id}/undo", headers=headers),
    ]
    for response in calls:
        assert assert_envelope(response, 401)["code"] == "unauthorized"
    assert g.record() == before


def test_a_token_of_another_game_is_a_401(client):
    g, _ = refusal_table(client)
    other, _ = refusal_table(client)
    before = g.record()
    for token in (other.judge_token, other.tokens[ANA]):
        response = client.post(f"{API}/games/{g.id}/actions", json={"type": "draw", "player": ANA, "count": 1},
                               headers={"Authorization": f"Bearer {token}"})
        assert_envelope(response, 401)
        assert_envelope(client.get(f"{API}/games/{g.id}", headers={"Authorization": f"Bearer {token}"}), 401)
    assert g.record() == before


FOR_ANOTHER = [
    {"type": "draw", "player": BOB, "count": 1},
    {"type": "reveal", "player": BOB, "count": 1},
    {"type": "leave_game", "player": BOB},
    {"type": "draw", "player": BOB, "printed": "Lightning Bolt"},
    {"type": "name", "card": "shock", "name": "Burst Lightning", "player": BOB},
]


ANOTHERS_HAND = [
    {"type": "move", "card": "shock", "to": "graveyard", "name": "Burst Lightning"},
    {"type": "move", "card": "shock", "to": "battlefield", "pentaland": True},
    {"type": "move", "card": "shock", "to": "library"},
    {"type": "move", "card": "shock", "to": "battlefield", "face_down": True},
]


@pytest.mark.parametrize("action", ANOTHERS_HAND, ids=[f"{a['to']} {sorted(a)}" for a in ANOTHERS_HAND])
def test_an_unrevealed_card_of_another_players_hand_is_theirs_alone_to_move(client, action):
    g, cards = refusal_table(client)
    action = {k: (cards.get(v, v) if k == "card" else v) for k, v in action.items()}
    g.refused(BOB, 403, "forbidden", None, **action)


@pytest.mark.parametrize("action", FOR_ANOTHER, ids=[f"{a['type']} {sorted(a)}" for a in FOR_ANOTHER])
def test_a_players_token_acting_for_another_player_is_a_403(client, action):
    g, cards = refusal_table(client)
    action = {k: (cards.get(v, v) if k == "card" else v) for k, v in action.items()}
    g.refused(ANA, 403, "forbidden", None, **action)


def test_only_the_judge_records_which_physical_card_was_drawn(client):
    g, cards = refusal_table(client)
    g.refused(BOB, 403, "forbidden", None, type="draw", player=BOB, printed="Lightning Bolt")
    body = g.do(JUDGE, type="draw", player=BOB, printed="Lightning Bolt")
    assert body["event"]["data"]["cards"] == [cards["bolt"]] and body["event"]["player"] == BOB
    g.refused(JUDGE, 404, "not_in_library", None, type="draw", player=BOB, printed="Black Lotus")


def test_undo_by_a_player_is_a_403_and_changes_nothing(client):
    g, _ = refusal_table(client)
    before = g.record()
    for who in (ANA, BOB):
        response = client.post(f"{API}/games/{g.id}/undo", headers=g.headers(who))
        assert assert_envelope(response, 403)["code"] == "forbidden"
    assert g.record() == before


def test_an_unknown_game_is_a_404_on_every_game_endpoint(client):
    g, _ = refusal_table(client)
    for headers in ({"Authorization": f"Bearer {g.judge_token}"}, {}):
        for response in (
            client.get(f"{API}/games/no-such-game", headers=headers),
            client.get(f"{API}/games/no-such-game/names", headers=headers),
            client.get(f"{API}/games/no-such-game/events", headers=headers),
            client.get(f"{API}/games/no-such-game/could-be?player=p1&name=Shock", headers=headers),
            client.post(f"{API}/games/no-such-game/actions", json={"type": "draw", "player": ANA, "count": 1},
                        headers=headers),
            client.post(f"{API}/games/no-such-game/undo", headers=headers),
        ):
            assert assert_envelope(response, 404)["code"] == "unknown_game"


@pytest.mark.parametrize(
    "action",
    [
        {"type": "move", "card": "0000000000", "to": "hand"},
        {"type": "name", "card": "Shock", "name": "Lightning Bolt"},
        {"type": "turn_face_up", "card": "c1", "name": "Goblin Taskmaster"},
        {"type": "reveal", "player": ANA, "cards": ["nope"]},
        {"type": "end_look", "cards": ["nope"]},
    ],
    ids=["move", "name", "turn_face_up", "reveal", "end_look"],
)
def test_an_unknown_card_id_is_a_404_naming_the_card(client, action):
    g, _ = refusal_table(client)
    error = g.refused(ANA, 404, "unknown_game_card", None, **action)
    assert "card" in error["fields"], error


def test_a_body_over_the_size_limit_is_a_413_in_json(client):
    g, cards = refusal_table(client)
    before = g.record()
    big = {"type": "name", "card": cards["shock"], "name": "Burst Lightning", "padding": "x" * (300 * 1024)}
    response = client.post(f"{API}/games/{g.id}/actions", json=big, headers=g.headers(ANA))
    assert assert_envelope(response, 413)["code"] == "too_large"
    response = client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}],
                                                 "library": ["Shock"] * 40000})
    assert_envelope(response, 413)
    assert g.record() == before


def test_undo_with_nothing_to_undo_is_refused_in_the_envelope(client):
    # docs/api.md: 422 is field validation and carries ``fields``; a refusal without a field is a 409 with its rule.
    g = Game(client, ["Shock"])
    response = client.post(f"{API}/games/{g.id}/undo", headers=g.headers(JUDGE))
    # issue 9: a conflict with the game's state, not a field (and no rule of the game to cite)
    assert response.status_code == 409, response.get_json()
    assert response.get_json()["error"]["code"] == "nothing_to_undo"
    assert schemas.ErrorOut().validate(response.get_json()) == {}
    assert g.events() == [] and g.names() == []


# == Visibility and secrecy =========================================================================
def test_a_hand_card_shows_its_printed_card_only_to_its_holder_and_the_judge(client):
    g = Game(client, ["Shock", "Savannah Lions"])
    [shock] = g.draw(ANA)
    [lions] = g.draw(BOB)
    for who, own, other in ((ANA, shock, lions), (BOB, lions, shock)):
        cards = {c["id"]: c for c in g.view(who)["cards"]}
        own, other = own, g.shown(who, other)  # another's hand card: by a handle of its own (D15)
        assert other != (lions if who == ANA else shock) and set(cards) == {own, other}  # every card is listed...
        assert "printed" in cards[own] and "printed" not in cards[other]  # ...its identity only to its holder
        assert "mana_value" not in cards[other] and "colors" not in cards[other]
        assert CARD_FIELDS <= cards[other].keys()
    judge = {c["id"]: c for c in g.view()["cards"]}
    assert (judge[shock]["printed"], judge[lions]["printed"]) == ("Shock", "Savannah Lions")


def test_a_face_down_card_shows_its_printed_card_only_to_its_controller_and_the_judge(client):
    g = Game(client, ["Lightning Bolt", "Shock"])
    [bolt] = g.draw(ANA)
    body = g.do(ANA, type="move", card=bolt, to="battlefield", face_down=True, via="morph")
    assert body["cards"][0]["printed"] == "Lightning Bolt"  # the answer to the controller shows it
    assert "printed" in g.card(bolt, ANA) and "printed" not in g.card(bolt, BOB)
    assert "printed" in g.card(bolt, JUDGE)
    # Bob gains control of it: now Bob sees it, and Ana, its owner, no longer does
    g.do(JUDGE, type="move", card=bolt, to="battlefield", player=BOB)
    card = g.card(bolt, BOB)
    assert (card["face_down"], card["controller"], card["owner"]) == (True, BOB, ANA)
    assert "printed" in card and "printed" not in g.card(bolt, ANA)


def test_face_up_cards_show_their_printed_card_to_everyone(client):
    g = Game(client, ["Lightning Bolt", "Shock"])
    [bolt] = g.draw(ANA)
    g.cast(ANA, bolt, "Shock")
    for who in (ANA, BOB, JUDGE):
        card = g.card(bolt, who)
        assert (card["printed"], card["named_as"], card["mana_value"], card["colors"]) == (
            "Lightning Bolt", "Shock", 1.0, ["R"])


def test_library_cards_are_listed_only_to_the_judge_unless_revealed(client):
    g = Game(client, ["Shock", "Savannah Lions", "Lightning Bolt"])
    assert g.view(ANA)["cards"] == [] and g.view(BOB)["cards"] == []
    assert g.view(ANA)["library_size"] == 3
    assert sorted(c["printed"] for c in g.view()["cards"]) == ["Lightning Bolt", "Savannah Lions", "Shock"]
    [top] = g.do(BOB, type="reveal", count=1, player=BOB)["event"]["data"]["cards"]
    assert [c["id"] for c in g.view(ANA)["cards"]] == [top]


def test_card_ids_are_opaque(client):
    library = ["Shock", "Savannah Lions", "Lightning Bolt", "Fire // Ice", "Giant Growth", "Grizzly Bears",
               "Counterspell", "Black Lotus", "Llanowar Elves", "Boomerang", "Incinerate", "Goblin Guide",
               "Shock", "Shock", "Air Elemental", "Craw Wurm", "Mana Leak", "Ornithopter", "Hellrider",
               "Chain Lightning"]
    first, second = Game(client, library), Game(client, library)
    ids = first.do(JUDGE, type="draw", player=ANA, count=len(library))["event"]["data"]["cards"]
    ids2 = second.do(JUDGE, type="draw", player=ANA, count=len(library))["event"]["data"]["cards"]
    assert len(set(ids)) == len(library)
    assert not set(ids) & set(ids2)  # the same library gives other ids in another game
    assert ids != sorted(ids) and ids != sorted(ids, reverse=True)  # ids don't sort in library order
    assert ids2 != sorted(ids2)
    words = {w for name in library for w in re.findall(r"[a-z]{3,}", fold(name))}
    for cid in ids + ids2:
        assert re.fullmatch(r"[0-9a-f]{6,}", cid), cid  # random hex, nothing spelled out
        assert not any(w in cid for w in words)
        assert not re.fullmatch(r"c?\d{1,3}", cid)  # not a position in the library
    # the judge's listing of a fresh game gives no hint of the order either
    listed = [c["printed"] for c in Game(client, library).view()["cards"]]
    assert sorted(listed) == sorted(library) and listed != library


def test_the_events_log_hides_a_judge_recorded_draw_from_the_players(client):
    g = Game(client, ["Shock", "Fire // Ice", "Savannah Lions"])
    body = g.do(JUDGE, type="draw", player=BOB, printed="Feu // Glace")
    assert body["event"]["data"]["printed"] == "Fire // Ice" and body["event"]["data"]["judge"] is True
    [card] = body["event"]["data"]["cards"]
    assert g.events(JUDGE)[-1]["data"]["printed"] == "Fire // Ice"
    for who in (ANA, BOB):
        [event] = g.events(who)
        # the drawer sees the card; the other, a handle of the event's own that no view shows (D15)
        assert "printed" not in event["data"] and (event["data"]["cards"] == [card]) is (who == BOB)
        assert event["data"]["cards"][0] not in {c["id"] for c in g.view(who)["cards"]} - {card}
        assert "Fire" not in str(event) and "Feu" not in str(event)
    assert "printed" not in g.card(card, ANA) and g.card(card, BOB)["printed"] == "Fire // Ice"


def test_the_events_log_of_a_game_tells_players_nothing_of_hidden_cards(client):
    g = Game(client, ["Lightning Bolt", "Savannah Lions", "Craw Wurm"])
    bolt, lions = g.draw(ANA, 2)
    g.morph(ANA, bolt)
    g.do(ANA, type="move", card=lions, to="battlefield", pentaland=True)
    g.do(ANA, type="look", count=1, player=ANA)
    for event in g.events(BOB):
        text = str(event)
        assert "Lightning Bolt" not in text and "Savannah Lions" not in text and "Craw Wurm" not in text


# -- looks and reveals never leak another player's hidden cards ------------------------------------
def test_a_player_cant_look_at_or_reveal_another_players_hand_but_the_judge_records_it(client):
    game = Game(client, ["Shock", "Savannah Lions", "Lightning Bolt"])
    (bobs,) = game.draw(BOB)
    game.refused(ANA, 403, "forbidden", type="look", cards=[bobs], player=BOB)
    game.refused(ANA, 403, "forbidden", type="reveal", cards=[bobs], player=ANA)
    assert "printed" not in game.card(bobs, ANA)
    game.do(BOB, type="reveal", cards=[bobs], player=BOB)  # Bob shows his own hand card
    assert game.card(bobs, ANA)["printed"] == "Shock"


def test_anyone_may_look_at_the_top_of_the_shared_library(client):
    game = Game(client, ["Shock", "Savannah Lions"])
    top = game.library_ids("Shock")
    game.do(ANA, type="look", cards=top, player=BOB)  # 702.2c: Bob owns it while Ana looks
    seen = game.card(top[0], ANA)
    assert seen["printed"] == "Shock" and seen["owner"] == BOB
    assert game.card(top[0], BOB) is None or "printed" not in game.card(top[0], BOB)


# -- questions a table asks without naming anything: 705.4 choices, 705.7-705.10 ------------------
def test_the_controller_may_ask_which_names_a_face_down_card_could_take(client):
    g = Game(client, ["Craw Wurm", "Craw Wurm"])
    [morph] = g.draw(ANA)
    g.morph(ANA, morph)
    ask = f"/cards/{morph}/face-up"
    before = g.get(ask, ANA).get_json()
    assert (before["via"], before["allowed"], before["exception"], before["loses"], before["rule"]) == (
        "morph", ["Root Elemental"], False, False, "705.4")
    assert_envelope(g.get(ask, BOB), 404)  # the opponent doesn't know it by this id (D15)...
    assert_envelope(g.get(f"/cards/{g.shown(BOB, morph)}/face-up", BOB), 403)  # ...nor learns what it could be
    [wurm] = g.draw(BOB)
    g.cast(BOB, wurm, "Root Elemental")
    after = g.get(ask, ANA).get_json()
    assert (after["allowed"], after["exception"], after["rule"]) == (["Root Elemental"], True, "705.4a")
    assert g.get(ask, JUDGE).get_json() == after
    assert assert_envelope(g.get(f"/cards/{wurm}/face-up", ANA), 422)["fields"] == {"card": ["not face down"]}


def test_cards_share_a_name_only_when_every_one_of_them_is_named_so(snapshot_client):
    g = Game(snapshot_client, ["Shock", "Lightning Bolt", "Savannah Lions"])
    shock, bolt = g.draw(ANA, 2)
    g.cast(ANA, shock, "Burst Lightning")
    bolt = g.shown(BOB, bolt)  # in Ana's hand: Bob knows it by a handle (D15)
    asked = g.get(f"/same-name?cards={shock},{bolt}", BOB).get_json()
    assert asked == {"cards": [shock, bolt], "same_name": False, "rule": "705.10"}  # bolt is unnamed
    assert g.get(f"/same-name?cards={shock},{shock}", BOB).get_json()["same_name"] is True
    assert_envelope(g.get(f"/same-name?cards={shock}", BOB), 422)
    assert_envelope(g.get("/same-name?cards=nope,nada", BOB), 404)


def test_an_unnamed_cards_printed_facts_are_shown_to_whoever_sees_it(client):
    g = Game(client, ["Fire // Ice", "Savannah Lions"])
    [fire_ice] = g.draw(ANA)
    mine = g.card(fire_ice, ANA)
    assert (mine["printed_mana_cost"], mine["mana_value"], mine["colors"], mine["nonland"]) == (
        "{1}{R} // {1}{U}", 4, ["U", "R"], True)  # 705.7-705.9: a split card's total and both colours
    assert "mana_value" not in g.card(fire_ice, BOB)  # a hand card tells its opponent nothing


# -- how a card went face down, and how it turns face up (705.4) ---------------------------------
def test_a_manifested_card_that_dies_may_be_named_any_card_of_its_cost(client):
    # Manifest puts any card face down; only turning it up by manifest itself asks for a creature.
    g = Game(client, ["Lightning Bolt"])
    [bolt] = g.draw(ANA)
    g.morph(ANA, bolt, via="manifest")
    body = g.do(ANA, type="move", card=bolt, to="graveyard", name="Shock")  # an instant: fine
    assert body["event"]["data"]["naming"]["name"] == "Shock"


def test_a_card_played_by_morph_stays_a_morph_card_however_it_turns_face_up(client):
    g = Game(client, ["Lightning Bolt"])
    [bolt] = g.draw(ANA)
    g.morph(ANA, bolt)
    g.refused(ANA, 409, "not_a_candidate", "705.4", type="turn_face_up", card=bolt, via="effect", name="Shock")
    g.refused(ANA, 409, "not_a_candidate", "705.4", type="move", card=bolt, to="graveyard", name="Shock")
    g.do(ANA, type="turn_face_up", card=bolt, via="effect", name="Goblin Taskmaster")


def test_a_face_down_card_is_named_only_as_it_turns_face_up(client):
    g = Game(client, ["Lightning Bolt"])
    [bolt] = g.draw(ANA)
    g.morph(ANA, bolt)
    g.refused(ANA, 409, "face_down_refused", "705.4", type="name", card=bolt, name="Goblin Taskmaster")


def test_a_card_played_by_morph_from_a_visible_zone_is_named_as_a_morph_card(client):
    g = Game(client, ["Shock", "Lightning Bolt"])
    [shock] = g.library_ids("Shock")
    g.do(ANA, type="move", card=shock, to="exile", player=ANA)
    g.refused(ANA, 409, "not_a_candidate", "705.4", type="move", card=shock, to="battlefield", face_down=True,
              via="morph", name="Lightning Bolt")
    g.do(ANA, type="move", card=shock, to="battlefield", face_down=True, via="morph", name="Warbreak Trumpeter")


def test_a_card_manifested_from_a_visible_zone_needs_no_name(client):
    g = Game(client, ["Shock", "Lightning Bolt"])
    [shock] = g.library_ids("Shock")
    g.do(ANA, type="move", card=shock, to="exile", player=ANA)
    body = g.do(ANA, type="move", card=shock, to="battlefield", face_down=True, via="manifest")
    assert "naming" not in body["event"]["data"]  # manifest puts it face down; 705.1 is about playing it


def test_a_player_may_not_name_a_card_they_neither_own_nor_control_by_moving_it(client):
    g = Game(client, ["Shock", "Lightning Bolt"])
    [shock] = g.library_ids("Shock")
    g.do(ANA, type="move", card=shock, to="exile", player=ANA)
    g.refused(BOB, 409, "wrong_namer", "705.6", type="move", card=shock, to="hand", name="Chain Lightning")


def test_a_looked_at_library_card_moved_stays_owned_by_the_player_whose_library_it_is(snapshot_client):
    # 702.2c: Ana looks at Bob's library; a card of it she then mills goes to Bob, who names it (705.3).
    g = Game(snapshot_client, ["Shock", "Lightning Bolt"])
    g.do(ANA, type="look", count=1, player=BOB)
    [top] = [c["id"] for c in g.view()["cards"] if c["zone"] == "library" and c["owner"] == BOB]
    g.refused(ANA, 409, "wrong_namer", "705.3", type="move", card=top, to="graveyard", name="Burst Lightning")
    body = g.do(BOB, type="move", card=top, to="graveyard", name="Burst Lightning")
    assert body["event"]["data"]["owner"] == BOB


# -- the rest of the seed's 705 examples, in its words -------------------------------------------
def test_a_card_suspended_from_a_hand_is_named_as_it_is_suspended(snapshot_client):
    # 705.1: "suspends an Ancestral Vision from their hand: names a card with no mana cost".
    g = Game(snapshot_client, ["Island", "Savannah Lions"])
    [island] = g.draw(ANA)
    g.refused(ANA, 409, "name_required", "705.2", type="move", card=island, to="exile")
    g.refused(ANA, 409, "not_a_candidate", "704.1", type="move", card=island, to="exile", name="Shock")
    body = g.do(ANA, type="move", card=island, to="exile", name="Ancestral Vision")  # no cost ~ no cost (D2)
    assert body["event"]["data"]["naming"]["name"] == "Ancestral Vision"


def test_a_card_spliced_from_a_hand_is_named_where_it_stays(snapshot_client):
    # 705.1: splicing Blessed Breath onto Glacial Ray names a {W} card of the hand, which stays there.
    g = Game(snapshot_client, ["Savannah Lions", "Shock"])
    lions, shock = g.draw(ANA, 2)
    body = g.do(ANA, type="name", card=lions, name="Blessed Breath")
    assert body["event"]["data"]["naming"]["name"] == "Blessed Breath"
    assert g.card(lions, ANA)["zone"] == "hand" and g.card(lions, ANA)["named_as"] == "Blessed Breath"


def test_a_card_cycled_from_a_hand_is_named_then_goes_to_the_graveyard(snapshot_client):
    # 705.1: cycling Renewed Faith names a {2}{W} card of the hand as the ability is activated.
    g = Game(snapshot_client, ["Benalish Knight"])
    [knight] = g.draw(ANA)
    g.do(ANA, type="name", card=knight, name="Renewed Faith")
    body = g.do(ANA, type="move", card=knight, to="graveyard")  # already named: nothing more to name
    assert "naming" not in body["event"]["data"] and g.card(knight, BOB)["named_as"] == "Renewed Faith"


def test_every_card_dredged_into_a_graveyard_is_named_by_its_player(snapshot_client):
    # 705.3: "a player dredges: they name every card put into their graveyard this way".
    g = Game(snapshot_client, ["Shock", "Savannah Lions", "Island"])
    shock, lions, island = (g.library_ids(n)[0] for n in ("Shock", "Savannah Lions", "Island"))
    for card, name in ((shock, "Burst Lightning"), (lions, "Elite Vanguard"), (island, "Ancestral Vision")):
        g.refused(ANA, 409, "name_required", "705.3", type="move", card=card, to="graveyard", player=ANA)
        g.do(ANA, type="move", card=card, to="graveyard", player=ANA, name=name)
    assert sorted(n["name"] for n in g.names()) == ["Ancestral Vision", "Burst Lightning", "Elite Vanguard"]


def test_revealing_the_top_card_with_candles_of_leng_names_nothing(client):
    # 705.11 example 1: revealing the top card of the library needs no name.
    g = Game(client, ["Shock", "Savannah Lions"])
    body = g.do(ANA, type="reveal", count=1, player=ANA)
    assert "naming" not in body["event"]["data"] and g.names() == []


def test_cabal_therapy_naming_snakeform_finds_every_card_that_could_be_it(snapshot_client):
    # 705.11 example: Snakeform costs {2}{G/U}: {2}{G} and {2}{U} cards of the hand could be it, {2}{R} not.
    g = Game(snapshot_client, ["Centaur Courser", "Wind Drake", "Gray Ogre"])
    courser, drake, ogre = g.draw(BOB, 3)
    body = g.could_be(ANA, BOB, "Snakeform")
    assert body.status_code == 403  # Ana asks the judge; the answer is Bob's and the judge's
    answer = g.could_be(BOB, BOB, "Snakeform").get_json()
    assert sorted(answer["cards"]) == sorted([courser, drake]) and answer["rule"] == "705.11"


# -- the log, paged (issue 8): a bot catches up without downloading the whole log ------------------
def test_the_log_pages_by_since_and_limit_and_unpaged_stays_whole(client):
    g = Game(client, ["Shock", "Lightning Bolt", "Grizzly Bears", "Forest", "Counterspell", "Mana Leak"])
    for who in (ANA, BOB, ANA, BOB, ANA):
        g.act(who, type="draw")

    def page(query: str, who=JUDGE) -> list[dict]:
        response = g.get(f"/events?{query}", who)
        assert response.status_code == 200, response.get_json()
        assert schemas.EventsOut().validate(response.get_json()) == {}
        return response.get_json()["events"]

    whole = g.events()
    assert [e["seq"] for e in whole] == [1, 2, 3, 4, 5]
    assert page("since=2") == whole[2:]
    assert page("limit=2") == whole[:2]
    assert page("since=1&limit=3") == whole[1:4]
    assert page("since=5") == [] and page("since=0") == whole
    # a player's page hides what the whole log hides from them: the drawn cards' printed names
    assert page("since=3", BOB) == g.events(BOB)[3:]
    caught_up, since = [], 0
    while batch := page(f"since={since}&limit=2"):
        caught_up += batch
        since = batch[-1]["seq"]
    assert caught_up == whole


@pytest.mark.parametrize("query", ["since=-1", "limit=0", "limit=10001", "since=x", "offset=2"])
def test_a_bad_page_of_the_log_is_a_422_naming_the_field(client, query):
    g = Game(client, ["Shock", "Forest"])
    error = assert_envelope(g.get(f"/events?{query}"), 422)
    assert set(error["fields"]) == {query.split("=")[0]}


# == an action's body, remembered (issue 8) =========================================================
def test_an_action_body_sent_again_is_loaded_once_and_decided_afresh_each_time(client, monkeypatch):
    """The typed command is kept per raw body; the decision never is: the same bytes draw another
    card each time, and another player's token makes them that player's draw."""
    from mentalmagic.web import games
    from mentalmagic.web.remembered import Remembered

    monkeypatch.setattr(games, "_ACTIONS", Remembered(entries=4, longest=1024))
    loads = []
    real = schemas.load_action
    monkeypatch.setattr(schemas, "load_action", lambda data: loads.append(data) or real(data))
    game = Game(client, ["Shock", "Lightning Bolt", "Counterspell", "Giant Growth"])
    drawn = [game.do(who, type="draw", count=1)["event"] for who in (ANA, ANA, BOB)]
    assert [e["player"] for e in drawn] == [ANA, ANA, BOB]
    assert len({e["data"]["cards"][0] for e in drawn}) == 3  # three cards, one after another
    assert len(loads) == 1  # the same bytes each time: validated once
    for _ in range(2):  # a refused body is refused every time, never kept
        assert assert_envelope(game.act(ANA, type="draw", count=0), 422)["fields"]
    assert len(loads) == 3 and len(games._ACTIONS) == 1
    many = [f"c{i}" for i in range(1000, 1200)]  # over 1 KiB: it loads (then no such card), is never kept
    for _ in range(2):
        assert game.act(ANA, type="reveal", cards=many).status_code != 200
    assert len(loads) == 5 and len(games._ACTIONS) == 1


def test_what_is_remembered_is_bounded():
    from mentalmagic.web.remembered import Remembered

    kept = Remembered(entries=3, longest=8)
    kept.keep(b"too long!", 9, "x")
    assert kept.get(b"too long!") is None and len(kept) == 0
    for i in range(3):
        kept.keep(i, 1, str(i))
    assert [kept.get(i) for i in range(3)] == ["0", "1", "2"]
    kept.keep(3, 1, "3")  # full: it starts over
    assert len(kept) == 1 and kept.get(3) == "3" and kept.get(0) is None
