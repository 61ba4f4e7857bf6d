"""Every way a player leaves the game leaves alike (issue 21's leftover): ``leave_game`` (800.4a, D9),
a game loss inside another action (D8 by 705.4a, as a card is turned face up or as it leaves the
battlefield under D12; 903.10a's commander damage, "recorded like D8") and a loss that a leaver's own
face-down card causes (D8 inside D9). In each, the leaver's face-down permanents and spells that leave
with them are revealed as they go and named by them (D12: 705.4, 705.4a), from the action's ``names``;
one missing is refused with ``fields.names.<card>``, a wrong one with 704.1's refusal, nothing applied.
The judge's line says them with `naming C [as] NAME`. The core tier: cards of tests/minipool.py.
"""

from __future__ import annotations

import re

import pytest
import test_cli_games
from test_cli_games import ok
from test_ledger import ANA, BOB, CID, DEE, TWO, Table
from test_ledger_commander import CommanderTable

from mentalmagic import errors, grammar
from mentalmagic.actions import decide
from mentalmagic.game import Player, replay, undo

THREE = (*TWO, Player(CID, "Cid"))
# the terminal's fixtures: a games file over the snapshot (its one test here is of the snapshot tier)
db, real_db = test_cli_games.db, test_cli_games.real_db
# Savannah Lions ({W}) played face down has no legal name as a morph (no {W} morph card): D8.
# Lightning Bolt ({R}) played face down may be Goblin Taskmaster or Warbreak Trumpeter.
LIONS, BOLT = "Savannah Lions", "Lightning Bolt"


@pytest.fixture(scope="module")
def finder(mini_finder):
    return mini_finder


def _leave_game(finder):
    """800.4a, D9: Ana leaves with her morph."""
    t = Table(finder, BOLT, players=THREE)
    t.draw(ANA)
    t.morph(ANA, "c1")
    return t, ANA, {"type": "leave_game"}, "c1", lambda e: e.data, "800.4a"


def _turned_up_d8(finder):
    """705.4a, D8: Ana turns her Savannah Lions morph up; no name is left, she loses, her Bolt morph goes."""
    t = Table(finder, LIONS, BOLT, players=THREE)
    t.draw(ANA, 2)
    t.morph(ANA, "c1")
    t.morph(ANA, "c2")
    return t, ANA, {"type": "turn_face_up", "card": "c1"}, "c2", lambda e: e.data["game_loss"], "705.4a"


def _moved_d8(finder):
    """D12 then D8: Ana's Savannah Lions morph dies, revealed with no name left; she loses."""
    t = Table(finder, LIONS, BOLT, players=THREE)
    t.draw(ANA, 2)
    t.morph(ANA, "c1")
    t.morph(ANA, "c2")
    return t, ANA, {"type": "move", "card": "c1", "to": "graveyard"}, "c2", lambda e: e.data["game_loss"], "705.4a"


def _commander_damage(finder):
    """903.10a: 21 combat damage from Ana's Krenko; Bob loses with his Bolt morph on the battlefield."""
    t = CommanderTable(finder, BOLT, players=THREE)
    t.do(BOB, type="draw", player=BOB, count=1)
    t.morph(BOB, "c1")
    t.do(ANA, type="move", card="k-ana", to="stack")
    t.do(ANA, type="move", card="k-ana", to="battlefield")
    action = {"type": "commander_damage", "player": BOB, "commander": "k-ana", "amount": 21}
    return t, BOB, action, "c1", lambda e: e.data["game_loss"], "903.10a"


PATHS = {"leave_game": _leave_game, "turned_up_d8": _turned_up_d8, "moved_d8": _moved_d8,
         "commander_damage": _commander_damage}


@pytest.mark.parametrize("path", PATHS)
def test_d12_every_way_out_reveals_the_leavers_face_down_cards_and_they_name_them(finder, path):
    t, leaver, action, morph, leaving, rule = PATHS[path](finder)
    before = t.state.snapshot()
    err = t.refused(leaver, errors.NameRequired, **action)  # nothing applied (Table.refused checks)
    assert err.rule == "705.4" and list(err.fields["names"]) == [morph]
    t.refused(leaver, errors.NotACandidate, **action, names={morph: "Shock"})  # a morph's name (705.4)
    e = t.do(leaver, **action, names={morph: "Goblin Taskmaster"})
    d = leaving(e)
    assert (d.get("rule", e.rule), d.get("player", e.data.get("player"))) == (rule, leaver)
    assert d["revealed"] == [morph] and d["namings"][morph] == {
        "name": "Goblin Taskmaster", "player": leaver, "rule": "705.4", "exception": None}
    c = t.card(morph)
    assert (c.zone, c.face_down, c.named_as) == ("removed", False, "Goblin Taskmaster")
    assert ("Goblin Taskmaster", morph, leaver, None) in t.names()  # it stays taken (704.4, D9)
    assert t.state.players[leaver].status == ("left" if path == "leave_game" else "lost")
    assert replay(t.setup, t.events).snapshot() == t.state.snapshot()
    assert undo(t.setup, t.events)[1].snapshot() == before


def test_d8_the_card_that_costs_the_game_stays_unnamed_and_is_not_revealed_twice(finder):
    """D8: "the card stays unnamed"; it is not among the loser's cards revealed as they go."""
    t, leaver, action, morph, leaving, _ = _turned_up_d8(finder)
    e = t.do(leaver, **action, names={morph: "Warbreak Trumpeter"})
    assert "c1" not in e.data["game_loss"]["revealed"] and "naming" not in e.data
    assert (t.card("c1").zone, t.card("c1").named_as, t.card("c1").face_down) == ("removed", None, False)


def test_903_10a_only_the_loser_names_their_face_down_cards_705_4(finder):
    """The commander's controller may record the damage (docs/api.md), but the loser's face-down cards
    are theirs to name (705.4, D12): the judge records it for them, or they send it."""
    t, leaver, action, morph, _, _ = _commander_damage(finder)
    err = t.refused(ANA, errors.WrongNamer, **action, names={morph: "Goblin Taskmaster"})
    assert err.rule == "705.4"
    e = t.do(None, judge=True, **action, names={morph: "Goblin Taskmaster"})
    assert e.data["game_loss"]["namings"][morph]["player"] == BOB


def test_d8_a_player_a_leaver_costs_the_game_leaves_naming_their_own_face_down_cards(finder):
    """D9 then D8: Bob leaves with Ana's Savannah Lions morph, which has no name left: Ana loses, and
    her own Bolt morph is revealed as she goes and named by her, as when she leaves herself."""
    t = Table(finder, LIONS, BOLT, players=THREE)
    t.draw(ANA, 2)
    t.morph(ANA, "c1")
    t.morph(ANA, "c2")
    t.do(None, judge=True, type="move", card="c1", to="battlefield", player=BOB)
    t.refused(BOB, errors.WrongNamer, type="leave_game", names={"c2": "Goblin Taskmaster"})  # Ana names hers
    err = t.refused(None, errors.NameRequired, judge=True, type="leave_game", player=BOB)
    assert list(err.fields["names"]) == ["c2"]
    e = t.do(None, judge=True, type="leave_game", player=BOB, names={"c2": "Goblin Taskmaster"})
    loss = e.data["game_loss"]
    assert (loss["player"], loss["rule"], loss["revealed"]) == (ANA, "705.4a", ["c2"])
    assert loss["namings"]["c2"]["player"] == ANA and t.card("c2").named_as == "Goblin Taskmaster"
    assert (t.state.players[ANA].status, t.state.players[BOB].status) == ("lost", "left")
    assert replay(t.setup, t.events).snapshot() == t.state.snapshot()


def test_d9_what_a_leaver_took_out_of_the_game_stays_out_when_the_player_they_cost_the_game_controlled_it(finder):
    """800.4a: Bob's Shock, controlled by Ana, leaves the game with Bob; Ana, who loses by Bob's leaving
    (D8), doesn't bring it back to exile as she goes."""
    t = Table(finder, LIONS, "Shock", players=THREE)
    t.draw(ANA)
    t.morph(ANA, "c1")
    t.do(None, judge=True, type="move", card="c1", to="battlefield", player=BOB)
    t.do(BOB, type="draw", player=BOB, count=1)
    t.cast(BOB, "c2", "Lightning Bolt")
    t.do(None, judge=True, type="move", card="c2", to="battlefield", player=ANA)
    e = t.do(BOB, type="leave_game")
    assert "c2" in e.data["removed"] and "c2" not in e.data["game_loss"]["exiled"]
    assert t.card("c2").zone == "removed" and t.state.players[ANA].status == "lost"
    assert replay(t.setup, t.events).snapshot() == t.state.snapshot()


def test_d12_a_card_the_leaver_owns_and_another_controls_is_named_by_its_controller(finder):
    """D12: "its controller names it"; Ana's morph that Bob controls leaves the game with her (800.4a),
    and Bob, still in the game, names it."""
    t = Table(finder, BOLT, players=THREE)
    t.draw(ANA)
    t.morph(ANA, "c1")
    t.do(None, judge=True, type="move", card="c1", to="battlefield", player=BOB)
    err = t.refused(ANA, errors.WrongNamer, type="leave_game", names={"c1": "Goblin Taskmaster"})
    assert err.rule == "705.4"
    e = t.do(None, judge=True, type="leave_game", player=ANA, names={"c1": "Goblin Taskmaster"})
    assert e.data["removed"] == ["c1"] and e.data["namings"]["c1"]["player"] == BOB
    assert ("Goblin Taskmaster", "c1", BOB, None) in t.names()


def test_d8_two_players_a_leaver_costs_the_game_both_lose_and_leave(finder):
    """D8 for each card with no legal name left: Bob leaves with Ana's and Cid's Savannah Lions morphs."""
    t = Table(finder, LIONS, LIONS, players=(*THREE, Player(DEE, "Dee")))
    for who, card in ((ANA, "c1"), (CID, "c2")):
        t.do(who, type="draw", player=who, count=1)
        t.morph(who, card)
        t.do(None, judge=True, type="move", card=card, to="battlefield", player=BOB)
    e = t.do(BOB, type="leave_game")
    first = e.data["game_loss"]
    assert (first["player"], first["game_loss"]["player"]) == (ANA, CID)
    assert [t.state.players[p].status for p in (ANA, BOB, CID, DEE)] == ["lost", "left", "lost", "in_game"]
    assert {t.card(c).zone for c in ("c1", "c2")} == {"removed"}
    assert replay(t.setup, t.events).snapshot() == t.state.snapshot()


# -- the judge's line (the CLI's `game do`, the console): `… naming C [as] NAME` ----------------------
@pytest.mark.parametrize("line", ["ana up 1 naming 2 as Goblin Taskmaster",
                                  "ana retourne 1 nommant 2 comme Goblin Taskmaster"])
def test_the_judges_line_names_a_losers_face_down_cards_as_they_go_d12(finder, line):
    t, leaver, _, morph, leaving, _ = _turned_up_d8(finder)
    command = grammar.parse(line, grammar.Table.of(t.setup))
    assert command.names == ((morph, "Goblin Taskmaster"),)
    event = decide(t.state, t.setup, t.finder, command, None, is_judge=True)
    assert leaving(event)["namings"][morph]["name"] == "Goblin Taskmaster" and event.data["game_loss"]["player"] == ANA


def test_naming_follows_only_an_action_by_which_a_player_may_leave(finder):
    t = Table(finder, BOLT, players=THREE)
    with pytest.raises(grammar.GrammarError) as info:
        grammar.parse("ana draw 1 naming 1 as Goblin Taskmaster", grammar.Table.of(t.setup))
    assert info.value.said.code == "grammar.naming_here"


def test_through_the_api_a_loss_asks_for_the_losers_names_then_takes_them_from_the_line(client):
    game = client.post("/api/v1/games", json={"players": [{"name": "Ana"}, {"name": "Ben"}, {"name": "Cid"}],
                                              "library": [LIONS, BOLT], "shuffle": False}).get_json()
    line = f"/api/v1/games/{game['id']}/line"
    judge = {"Authorization": f"Bearer {game['judge_token']}"}
    for said in ("ana draw 2", "ana play 1 via morph", "ana play 2 via morph"):
        assert client.post(line, headers=judge, json={"line": said}).status_code == 200
    bolt = next(c["id"] for c in client.get(f"/api/v1/games/{game['id']}", headers=judge).get_json()["cards"]
                if c["printed"] == BOLT)
    asked = client.post(line, headers=judge, json={"line": "ana up 1"})
    assert asked.status_code == 409 and list(asked.get_json()["error"]["fields"]["names"]) == [bolt]
    lost = client.post(line, headers=judge, json={"line": "ana up 1 naming 2 as Goblin Taskmaster"}).get_json()
    assert lost["event"]["data"]["game_loss"]["namings"][bolt]["name"] == "Goblin Taskmaster"



def test_in_french_a_leaver_reads_each_card_by_its_number_and_how_it_turns_up_in_words(client):
    """As the console's dialog asks (a dry run in French): the card a name is asked for is said by the
    number the page and `show` give it (#2), to the judge and to the leaver's seat, never by an id
    (D15); a name refused says how the card turns up in words ("par un effet", not "effect", 705.4);
    and no seat's refusal holds the id of a card hidden from it."""
    game = client.post("/api/v1/games", json={"players": [{"name": "Ana"}, {"name": "Ben"}],
                                              "library": [BOLT, BOLT, BOLT], "shuffle": False}).get_json()
    api = f"/api/v1/games/{game['id']}"
    judge = {"Authorization": f"Bearer {game['judge_token']}"}
    ana = {"Authorization": f"Bearer {game['players'][0]['token']}"}
    for said in ("ana draw 2", "ana play 1 via morph", "ana play 2 via morph"):
        assert client.post(f"{api}/line", headers=judge, json={"line": said}).status_code == 200
    ids = {c["handle"]: c["id"] for c in client.get(api, headers=judge).get_json()["cards"]}
    seen_by_ana = {c["id"] for c in client.get(api, headers=ana).get_json()["cards"]}

    asked = client.post(f"{api}/line?dry_run=1&lang=fr", headers=judge,
                        json={"line": "ana leave naming 1 as Goblin Taskmaster"}).get_json()["error"]
    assert list(asked["fields"]["names"]) == [ids[2]] and asked["params"]["card"] == ids[2]
    assert asked["message"].startswith("nommez la carte #2 ") and ids[2] not in asked["message"]
    for names, refused in (({ids[1]: "Goblin Taskmaster"}, "name_required"), ({ids[1]: "Shock"}, "not_a_candidate")):
        error = client.post(f"{api}/actions?dry_run=1&lang=fr", headers=ana,
                            json={"type": "leave_game", "names": names}).get_json()["error"]
        assert error["code"] == refused and not {ids[h] for h in ids if ids[h] not in seen_by_ana} & set(
            re.findall(r"[0-9a-f]{10}", str(error))), error  # D15: hidden cards by their handles only
        if refused == "name_required":
            assert error["message"].startswith("nommez la carte #2 ")
        else:  # Shock has no morph: a card played as a morph stays one, however it turns up (D13(d))
            assert "par un effet" in error["message"] and "effect" not in error["message"], error["message"]


# -- what the terminal says of it: `game show` and `game export` name every player out, and why ---------
def test_game_show_and_export_say_each_player_a_leavers_cards_cost_the_game(db, tmp_path):
    """Bob leaves with Ana's and Cid's {12} morphs (D8 twice): each is out for their own reason."""
    path = tmp_path / "list.txt"
    path.write_text("Blightsteel Colossus\nBlightsteel Colossus\nShock\n", encoding="utf-8")  # no {12} morph
    out = ok(db, "new", "Ana", "Bob", "Cid", "Dee", "--list", path, "--no-shuffle")
    game = re.search(r"game (\S+):", out).group(1)
    for line in ("ana draw 1", "ana play 1 via morph", "bob move 1 to battlefield", "cid draw 1",
                 "cid play 2 via morph", "bob move 2 to battlefield", "bob leave"):
        ok(db, "do", game, line)
    shown = ok(db, "show", game)
    assert re.search(r"out: Ana lost at event 7 \(705\.4a\)", shown)
    assert re.search(r"out: Cid lost at event 7 \(705\.4a\)", shown)
    assert re.search(r"out: Bob left the game at event 7", shown)
    exported = ok(db, "export", game)
    assert exported.count("no legal name remains for this face-down card (705.4a, D8)") >= 2
