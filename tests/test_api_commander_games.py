"""Commander games (#10, D14) played over HTTP in the words of the rules: commanders at setup
(903.3, 903.6), colour identity on every name (903.5c read for a shared deck), the command zone
and its tax (903.8, 903.9a/b), ownership after the start (702), commander damage (903.10a).

Games are created with ``"shuffle": false``; players are ``p1`` (Ana), ``p2`` (Bob), ``p3`` (Cid).
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from driver import ANA, API, BOB, CID, JUDGE, Game
from support import assert_envelope, checked

from mentalmagic.web import schemas

# Commanders and the cards of their identities, which the mini pool does not hold.
pytestmark = pytest.mark.snapshot

KRENKO = "Krenko, Mob Boss"  # {2}{R}{R}: mono-red
THALIA = "Thalia, Guardian of Thraben"  # {1}{W}: mono-white
AURELIA = "Aurelia, the Warleader"  # {2}{W}{W}{R}{R}: Boros
PARTNERS = ["Thrasios, Triton Hero", "Tymna the Weaver"]  # {G}{U} and {1}{W}{B}


def create(client, commanders, library, fmt="commander"):
    players = [{"name": n, **({"commander": c} if c is not None else {})}
               for n, c in zip(("Ana", "Bob", "Cid"), commanders, strict=False)]
    return checked(client.post(f"{API}/games", json={"format": fmt, "players": players, "library": library,
                                                      "shuffle": False}))


class CommanderGame(Game):
    """A commander game: Ana, Bob (and Cid) each with the commander given, in that order."""

    def __init__(self, client, commanders, library):  # not super().__init__: it posts no commanders
        response = create(client, commanders, library)
        assert response.status_code == 201, response.get_json()
        created = response.get_json()
        assert schemas.CreateGameOut().validate(created) == {}
        self.client, self.id, self.judge_token = client, created["id"], created["judge_token"]
        self.tokens = {p["id"]: p["token"] for p in created["players"]}
        self.pids = [p["id"] for p in created["players"]]
        self.commander = {p["id"]: p["commander"] for p in created["players"]}

    def player(self, pid: str) -> dict:
        return next(p for p in self.view()["players"] if p["id"] == pid)


# == 903.3, 903.6, D14(a): commanders at setup ====================================================
def test_each_commander_starts_face_up_in_the_command_zone_owned_by_its_player(client):
    g = CommanderGame(client, [KRENKO, THALIA], ["Shock"])
    for pid, printed in ((ANA, KRENKO), (BOB, THALIA)):
        card = g.card(g.commander[pid], who=BOB)  # public: everybody sees it
        assert (card["zone"], card["owner"], card["controller"], card["face_down"]) == ("command", pid, pid, False)
        assert card["printed"] == printed and card["commander"] is True and card["named_as"] is None
    ana = g.player(ANA)
    assert ana["commander"] == g.commander[ANA] and ana["commanders"] == [g.commander[ANA]]
    assert ana["color_identity"] == ["R"] and ana["commander_casts"] == {g.commander[ANA]: 0}
    assert ana["commander_damage"] == {}
    assert g.view()["library_size"] == 1  # not from the library
    assert "commander" not in g.card(g.library_ids("Shock")[0])  # only a commander says so


def test_two_players_may_share_a_commander_and_partners_are_a_list_of_two(client):
    g = CommanderGame(client, [KRENKO, KRENKO, PARTNERS], ["Shock"])
    assert g.commander[ANA] != g.commander[BOB]  # two physical cards of one printed card
    assert g.card(g.commander[ANA])["printed"] == g.card(g.commander[BOB])["printed"] == KRENKO
    cid = g.player(CID)
    assert len(cid["commanders"]) == 2 and cid["color_identity"] == ["W", "U", "B", "G"]
    # API.md: `commander` is the list of the two, in the creation answer and in every caller's view
    assert isinstance(g.commander[CID], list) and g.commander[CID] == cid["commanders"]
    assert sorted(g.card(c)["printed"] for c in g.commander[CID]) == PARTNERS
    for who in (JUDGE, ANA, CID):
        seen = next(p for p in g.view(who)["players"] if p["id"] == CID)
        assert seen["commander"] == g.commander[CID], who
        assert schemas.PlayerOut().validate(seen) == {}


def test_a_single_commander_is_one_card_id_not_a_list(client):
    g = CommanderGame(client, [KRENKO, PARTNERS], ["Shock"])
    assert isinstance(g.commander[ANA], str) and g.card(g.commander[ANA])["printed"] == KRENKO
    for who in (JUDGE, ANA, BOB):
        seen = next(p for p in g.view(who)["players"] if p["id"] == ANA)
        assert seen["commander"] == g.commander[ANA] and seen["commanders"] == [g.commander[ANA]], who


@pytest.mark.parametrize("commanders, field", [
    (["Shock", KRENKO], "players.0.commander"),  # not a legendary creature (903.3)
    ([KRENKO, None], "players.1.commander"),  # each player brings one
    ([KRENKO, [THALIA, KRENKO]], "players.1.commander"),  # not partners (D14(c))
    ([KRENKO, "No Such Card"], "players.1.commander"),
])
def test_a_commander_that_cant_be_one_is_refused_at_setup(client, commanders, field):
    error = assert_envelope(create(client, commanders, ["Shock"]), 422)
    assert field in error["fields"], error


def test_a_commander_in_another_format_is_refused_not_ignored(client):
    error = assert_envelope(create(client, [KRENKO, None], ["Shock"], fmt="vintage"), 422)
    assert "players.0.commander" in error["fields"]


def test_a_commander_is_never_named(client):
    g = CommanderGame(client, [KRENKO, THALIA], ["Shock"])
    krenko = g.commander[ANA]
    g.refused(ANA, 409, "commander_refused", "903.3", type="name", card=krenko, name="Goblin Chieftain")
    g.refused(ANA, 409, "commander_refused", "903.3", type="move", card=krenko, to="stack",
              name="Goblin Chieftain")
    g.do(ANA, type="move", card=krenko, to="stack")  # cast as itself: no name needed
    assert g.card(krenko)["named_as"] is None and [n["seq"] for n in g.names()] == [0, 0]  # D14(e)'s only


# == 903.5c, D14(b): colour identity on every name ================================================
def test_a_mono_red_commanders_player_cant_name_counterspell(client):
    g = CommanderGame(client, [KRENKO, THALIA], ["Mana Drain"])
    [drain] = g.draw(ANA)
    error = g.refused(ANA, 409, "not_a_candidate", "903.5c", type="move", card=drain, to="stack",
                      name="Counterspell")
    assert "Counterspell's colour identity is {U}; Krenko, Mob Boss's is {R}" in error["message"]


def test_a_mono_red_commanders_player_can_name_a_red_or_a_colourless_card(client):
    g = CommanderGame(client, [KRENKO, THALIA], ["Shock", "Mind Stone"])
    shock, stone = g.draw(ANA, 2)
    g.cast(ANA, shock, "Lightning Bolt")
    g.do(ANA, type="name", card=stone, name="Fellwar Stone")
    assert [(n["name"], n["player"]) for n in g.names()] == [(KRENKO, ANA), (THALIA, BOB), ("Lightning Bolt", ANA),
                                                             ("Fellwar Stone", ANA)]


def test_a_boros_hybrid_card_cant_be_named_by_a_mono_white_player_but_can_by_a_boros_one(client):
    g = CommanderGame(client, [THALIA, AURELIA], ["Serra Avenger", "Serra Avenger"])
    ana_card, bob_card = g.draw(ANA)[0], g.draw(BOB)[0]
    error = g.refused(ANA, 409, "not_a_candidate", "903.5c", type="name", card=ana_card, name="Boros Guildmage")
    assert "{W}{R}" in error["message"] and "Thalia, Guardian of Thraben's is {W}" in error["message"]
    g.do(BOB, type="name", card=bob_card, name="Boros Guildmage")  # {R/W} is within Aurelia's {W}{R}


def test_a_card_leaving_a_hand_face_up_is_named_within_its_owners_identity(client):
    # 705.2: its owner names it, within the owner's commander's identity
    g = CommanderGame(client, [THALIA, KRENKO], ["Shock"])
    [shock] = g.draw(BOB)
    g.refused(BOB, 409, "name_required", type="move", card=shock, to="graveyard")
    g.do(BOB, type="move", card=shock, to="graveyard", name="Lightning Bolt")  # Bob's Krenko: red is fine


def test_a_chooser_names_within_their_own_identity_not_the_owners_705_5(client):
    # D11: Bob chooses among the cards Ana revealed and names one; Bob's Krenko is what counts
    g = CommanderGame(client, [PARTNERS, KRENKO], ["Mana Drain"])
    [drain] = g.draw(ANA)
    g.do(ANA, type="reveal", player=ANA, cards=[drain])
    error = g.refused(BOB, 409, "not_a_candidate", "903.5c", type="name", card=drain, name="Counterspell",
                      choice=True)
    assert "Krenko, Mob Boss's is {R}" in error["message"]
    g.do(ANA, type="name", card=drain, name="Counterspell")  # within Thrasios and Tymna's {W}{U}{B}{G}


def test_a_face_down_card_whose_only_morph_names_are_outside_the_identity_loses_the_game_d8(client):
    # {2}{U}: every morph card of that cost is blue; a mono-red player can take none of them (705.4a, D8)
    g = CommanderGame(client, [KRENKO, THALIA, THALIA], ["Exclude"])
    [card] = g.draw(ANA)
    g.morph(ANA, card)
    face_up = g.get(f"/cards/{card}/face-up", ANA).get_json()
    assert face_up["allowed"] == [] and face_up["loses"] is True
    event = g.do(ANA, type="turn_face_up", card=card)["event"]
    assert event["rule"] == "705.4a" and event["data"]["game_loss"]["rule"] == "705.4a"
    assert g.status(ANA) == "lost"


def test_the_same_face_down_card_under_a_blue_commander_must_be_named(client):
    g = CommanderGame(client, [PARTNERS, KRENKO], ["Exclude"])
    [card] = g.draw(ANA)
    g.morph(ANA, card)
    face_up = g.get(f"/cards/{card}/face-up", ANA).get_json()
    assert "Dermoplasm" in face_up["allowed"] and face_up["loses"] is False
    g.do(ANA, type="turn_face_up", card=card, name="Dermoplasm")


def test_candidates_and_check_answer_within_a_players_identity(client):
    g = CommanderGame(client, [KRENKO, THALIA], ["Shock"])
    query = {"cost": "{U}{U}", "name": "Counterspell", "game": g.id, "player": ANA}
    body = checked(client.get(f"{API}/check?" + urlencode(query))).get_json()
    assert body["legal"] is False and body["reasons"][-1]["rule"] == "903.5c"
    assert body["commander"] == [KRENKO] and body["color_identity"] == ["R"]
    red = checked(client.get(f"{API}/candidates?" + urlencode({"cost": "{R}", "game": g.id, "player": ANA})))
    names = {c["name"] for c in red.get_json()["candidates"]}
    assert "Lightning Bolt" in names and "Boros Recruit" not in names
    white = checked(client.get(f"{API}/candidates?" + urlencode({"cost": "{R}", "game": g.id, "player": BOB})))
    assert white.get_json()["count"] == 0  # Thalia's {W}: no {R} card is white or colourless
    assert_envelope(client.get(f"{API}/check?" + urlencode({**query, "player": "p9"})), 422)
    assert_envelope(client.get(f"{API}/check?" + urlencode({"cost": "{R}", "name": "Shock", "player": ANA})), 422)


# == 903.8, 903.9a/b: the command zone ============================================================
def test_a_commander_dies_goes_to_the_command_zone_and_is_cast_again_for_4_more(client):
    g = CommanderGame(client, [KRENKO, THALIA], ["Shock"])
    krenko = g.commander[ANA]
    first = g.do(ANA, type="move", card=krenko, to="stack")["event"]
    assert first["rule"] == "903.8" and first["data"]["commander_cast"] == {"player": ANA, "count": 1, "tax": "{0}"}
    g.do(ANA, type="move", card=krenko, to="battlefield")
    g.do(BOB, type="move", card=krenko, to="graveyard")  # Bob's Shock kills it
    g.refused(BOB, 409, "commander_refused", "903.9a", type="move", card=krenko, to="command")  # Ana's choice
    back = g.do(ANA, type="move", card=krenko, to="command")["event"]
    assert back["rule"] == "903.9a" and g.card(krenko)["zone"] == "command"
    second = g.do(ANA, type="move", card=krenko, to="stack")["event"]
    assert second["data"]["commander_cast"]["tax"] == "{2}"
    ana = g.player(ANA)
    assert ana["commander_casts"] == {krenko: 2} and ana["commander_tax"] == {krenko: "{4}"}
    g.undo()
    assert g.player(ANA)["commander_casts"] == {krenko: 1}


def test_a_commander_that_would_go_to_a_hand_may_go_to_the_command_zone_instead(client):
    g = CommanderGame(client, [KRENKO, THALIA], ["Shock"])
    thalia = g.commander[BOB]
    g.do(BOB, type="move", card=thalia, to="stack")
    g.do(BOB, type="move", card=thalia, to="battlefield")
    g.do(BOB, type="move", card=thalia, to="hand")  # bounced...
    assert g.do(BOB, type="move", card=thalia, to="command")["event"]["rule"] == "903.9b"  # ...or not


def test_no_other_card_goes_to_the_command_zone(client):
    g = CommanderGame(client, [KRENKO, THALIA], ["Shock"])
    [shock] = g.draw(ANA)
    g.cast(ANA, shock, "Lightning Bolt")
    g.do(ANA, type="move", card=shock, to="graveyard")
    g.refused(ANA, 409, "commander_refused", "903.9a", type="move", card=shock, to="command")


def test_a_commander_stays_one_face_down(client):
    # 903.3: a commander put onto the battlefield face down is still a commander, and turns face up as itself
    g = CommanderGame(client, [KRENKO, THALIA], ["Shock"])
    krenko = g.commander[ANA]
    g.do(ANA, type="move", card=krenko, to="battlefield", face_down=True, via="manifest")
    seen = g.card(krenko, who=BOB)
    assert seen["face_down"] is True and seen["commander"] is True and "printed" not in seen
    options = g.get(f"/cards/{krenko}/face-up", ANA).get_json()
    assert (options["allowed"], options["loses"], options["rule"]) == ([], False, "903.3")
    assert g.do(ANA, type="turn_face_up", card=krenko)["event"]["rule"] == "903.3"
    assert [n["rule"] for n in g.names()] == ["D14(e)", "D14(e)"]  # taken from the start, never by a naming


# == 702 after the start: ownership ===============================================================
def test_a_shuffled_in_commander_drawn_by_another_player_is_theirs_and_still_the_first_players_commander(client):
    g = CommanderGame(client, [KRENKO, THALIA, THALIA], ["Shock"])
    krenko = g.commander[ANA]
    g.do(ANA, type="move", card=krenko, to="library")  # shuffled in: nobody owns it (702.2a)
    card = g.card(krenko)
    assert (card["zone"], card["owner"], card["commander"]) == ("library", None, True)
    assert g.draw(BOB) == [krenko]
    card = g.card(krenko, who=BOB)
    assert (card["zone"], card["owner"], card["commander"]) == ("hand", BOB, True)
    seen_by_ana = g.card(krenko, who=ANA)  # a commander in every zone (903.3), its printed card hidden
    assert seen_by_ana["commander"] is True and "printed" not in seen_by_ana
    assert g.player(ANA)["commanders"] == [krenko] and g.player(BOB)["commanders"] == [g.commander[BOB]]
    g.do(BOB, type="move", card=krenko, to="stack")  # cast from a hand, as itself: not a command-zone cast
    g.do(BOB, type="move", card=krenko, to="battlefield")
    assert g.player(ANA)["commander_casts"] == {krenko: 0}
    g.do(BOB, type="commander_damage", player=CID, commander=krenko, amount=5)  # still Ana's commander
    assert g.player(CID)["commander_damage"] == {krenko: 5}
    g.do(BOB, type="move", card=krenko, to="graveyard")
    # D14(f): the player who brought it chooses 903.9a, whoever owns it under 702
    g.refused(BOB, 409, "commander_refused", "903.9a", type="move", card=krenko, to="command")
    g.do(ANA, type="move", card=krenko, to="command")
    assert g.card(krenko)["owner"] == ANA


# == 903.10a: commander damage ====================================================================
def test_21_combat_damage_from_one_commander_ends_a_player(client):
    g = CommanderGame(client, [KRENKO, THALIA, KRENKO], ["Shock", "Savannah Lions"])
    ana_krenko, cid_krenko = g.commander[ANA], g.commander[CID]
    [lions] = g.draw(BOB)
    for player, krenko in ((ANA, ana_krenko), (CID, cid_krenko)):  # 903.10a: from the battlefield
        g.do(player, type="move", card=krenko, to="stack")
        g.do(player, type="move", card=krenko, to="battlefield")
    g.do(JUDGE, type="commander_damage", player=BOB, commander=ana_krenko, amount=20)
    g.do(BOB, type="commander_damage", player=BOB, commander=cid_krenko, amount=20)
    assert g.status(BOB) == "in_game"  # 40 in all, but 20 from each
    assert g.player(BOB)["commander_damage"] == {ana_krenko: 20, cid_krenko: 20}
    event = g.do(ANA, type="commander_damage", player=BOB, commander=ana_krenko, amount=1)["event"]
    assert event["rule"] == "903.10a" and event["data"]["total"] == 21
    assert event["data"]["game_loss"]["rule"] == "903.10a"
    bob = g.player(BOB)
    assert bob["status"] == "lost" and bob["commander_damage"][ana_krenko] == 21
    assert g.card(lions)["zone"] == "removed" and g.card(g.commander[BOB])["zone"] == "removed"  # D9
    g.undo()
    assert g.status(BOB) == "in_game" and g.card(lions)["zone"] == "hand"


def test_commander_damage_is_refused_for_a_card_that_is_not_a_commander_or_by_a_bystander(client):
    g = CommanderGame(client, [KRENKO, THALIA, THALIA], ["Shock"])
    [shock] = g.draw(ANA)
    g.refused(ANA, 409, "commander_refused", "903.10a", type="commander_damage", player=BOB, commander=shock,
              amount=3)
    g.refused(ANA, 409, "commander_refused", "903.10a", type="commander_damage", player=BOB,
              commander=g.commander[ANA], amount=3)  # in the command zone: it deals no combat damage
    g.refused(CID, 403, "forbidden", type="commander_damage", player=BOB, commander=g.commander[ANA], amount=3)
    g.refused(ANA, 422, "invalid", type="commander_damage", player=BOB, commander=g.commander[ANA], amount=0)


# == Issue 21: D14(e), D14(f) and 701.1a as a rules tester plays them ===============================
MAYAEL = "Mayael the Anima"  # {R}{G}{W}


def test_d14f_only_the_player_who_brought_krenko_casts_it_from_the_command_zone(client):
    g = CommanderGame(client, [KRENKO, MAYAEL], ["Shock"])
    krenko = g.commander[ANA]
    g.refused(BOB, 409, "commander_refused", "903.8", type="move", card=krenko, to="stack", player=BOB)
    assert g.player(ANA)["commander_casts"] == {krenko: 0}
    g.do(ANA, type="move", card=krenko, to="stack")
    assert g.player(ANA)["commander_casts"] == {krenko: 1} and g.player(BOB)["commander_casts"] == {
        g.commander[BOB]: 0}


def test_d14f_partners_each_have_their_own_tax(client):
    g = CommanderGame(client, [KRENKO, PARTNERS], ["Shock"])
    thrasios, tymna = g.player(BOB)["commanders"]
    for _ in range(2):
        g.do(BOB, type="move", card=thrasios, to="stack")
        g.do(BOB, type="move", card=thrasios, to="graveyard")
        g.do(BOB, type="move", card=thrasios, to="command")
    g.do(BOB, type="move", card=tymna, to="stack")
    bob = g.player(BOB)
    assert bob["commander_casts"] == {thrasios: 2, tymna: 1}
    assert bob["commander_tax"] == {thrasios: "{4}", tymna: "{2}"}


def test_d14e_a_2rr_card_cant_be_named_krenko_while_krenko_is_a_commander(client):
    g = CommanderGame(client, [KRENKO, MAYAEL], ["Hellrider", "Hellrider"])
    [hellrider] = g.draw(ANA)
    g.refused(ANA, 409, "name_taken", "704.2", type="move", card=hellrider, to="stack", name=KRENKO)
    [other] = g.draw(BOB)  # Mayael's player too: the name is taken for everyone
    g.refused(BOB, 409, "name_taken", "704.2", type="move", card=other, to="stack", name=KRENKO)
    body = client.get(f"{API}/check?printed=Hellrider&name={KRENKO}&game={g.id}").get_json()
    assert body["legal"] is False and any(r["rule"] == "704.2" for r in body["reasons"]), body


def test_d14e_the_commanders_names_are_listed_as_taken_from_the_start_by_their_players(client):
    """Issue 35: /names said nothing while Krenko's name was taken; the console read "no name taken"
    and "taken by —". Each commander's name, from seq 0, by its card and its player (D14(e))."""
    g = CommanderGame(client, [KRENKO, PARTNERS], ["Shock"])
    thrasios, tymna = g.player(BOB)["commanders"]
    expected = [(KRENKO, g.commander[ANA], ANA, 0, None, "D14(e)"), ("Thrasios, Triton Hero", thrasios, BOB, 0, None,
                                                                      "D14(e)"),
                ("Tymna the Weaver", tymna, BOB, 0, None, "D14(e)")]
    for who in (JUDGE, ANA, BOB):
        assert [(n["name"], n["card"], n["player"], n["seq"], n["exception"], n["rule"])
                for n in g.names(who)] == expected
    [shock] = g.draw(ANA)
    g.cast(ANA, shock, "Lightning Bolt")
    assert [n["name"] for n in g.names()][3:] == ["Lightning Bolt"] and "rule" not in g.names()[3]
    taken = client.get(f"{API}/candidates?printed=Hellrider&game={g.id}").get_json()["candidates"]
    assert [k["taken"] for k in taken if k["name"] == KRENKO] == [True]


def test_701_1a_after_her_look_ends_ana_cant_take_a_library_card_never_shown(client):
    g = Game(client, ["Shock", "Savannah Lions", "Lightning Bolt", "Craw Wurm"])
    body = g.do(ANA, type="look", player=ANA, count=2)
    g.do(ANA, type="end_look", cards=body["event"]["data"]["cards"])
    [third] = g.library_ids("Lightning Bolt")
    g.refused(ANA, 409, "search_refused", "701.1a", type="move", card=third, to="hand", player=ANA)
    g.do(JUDGE, type="move", card=third, to="hand", player=ANA)  # the judge may record it
