"""Issue 21's rule fixes in the core, each from the text of docs/rules.md: 701.1a's decision (no picking in
the library; a cut at 0 or at the size), D12 widened (a face-down card leaving the battlefield or the
stack for any zone is named), D13(d)(e), D14(e)(f). The core tier: cards of tests/minipool.py."""

from __future__ import annotations

import pytest
from test_ledger import ANA, BOB, CID, TWO, Table
from test_ledger_commander import KRENKO, CommanderTable

from mentalmagic import errors
from mentalmagic.game import Player, replay

THREE = (*TWO, Player(CID, "Cid"))


@pytest.fixture(scope="module")
def finder(mini_finder):
    return mini_finder


# -- 701.1a: a player takes only the top card, or one revealed or looked at by them -----------------
def test_701_1a_after_a_look_ends_a_player_cant_pick_a_library_card_never_shown_to_them(finder):
    t = Table(finder, "Shock", "Savannah Lions", "Lightning Bolt", "Craw Wurm")
    t.do(ANA, type="look", player=ANA, count=2)
    t.do(ANA, type="end_look", cards=["c1", "c2"])
    err = t.refused(ANA, errors.LibraryRefused, type="move", card="c3", to="hand", player=ANA)
    assert (err.code, err.rule) == ("search_refused", "701.1a")
    t.refused(ANA, errors.LibraryRefused, type="move", card="c2", to="graveyard", player=ANA, name="Lightning Bolt")
    t.do(ANA, type="move", card="c1", to="hand", player=ANA)  # the top card: a draw
    t.do(None, judge=True, type="move", card="c3", to="hand", player=ANA)  # the judge records any move


def test_701_1a_a_card_looked_at_or_revealed_may_be_taken_by_who_saw_it_not_by_another(finder):
    t = Table(finder, "Shock", "Savannah Lions", "Lightning Bolt", "Craw Wurm")
    t.do(ANA, type="look", player=ANA, count=3)
    t.refused(BOB, errors.LibraryRefused, type="move", card="c3", to="hand", player=BOB)
    t.do(ANA, type="move", card="c3", to="hand", player=ANA)  # looked at by her
    t.do(BOB, type="reveal", player=BOB, cards=["c4"])  # revealed to everyone: not a search
    t.do(BOB, type="move", card="c4", to="hand", player=BOB)


@pytest.mark.parametrize("at", [0, 3])
def test_701_1a_a_cut_at_0_or_at_the_librarys_size_is_recorded_and_changes_nothing(finder, at):
    t = Table(finder, "Shock", "Savannah Lions", "Lightning Bolt")
    e = t.do(None, judge=True, type="shuffle", player=ANA, at=at)
    assert e.rule == "701.1b" and e.data["at"] == at and t.state.library == ["c1", "c2", "c3"]
    assert t.refused(None, errors.InvalidInput, judge=True, type="shuffle", player=ANA, at=4).fields["at"]


# -- D12: a face-down card leaving the battlefield or the stack, for any zone ------------------------
@pytest.mark.parametrize("zone", ["exile", "library", "hand", "graveyard"])
def test_d12_a_face_down_permanent_leaving_for_any_zone_is_named_by_its_controller(finder, zone):
    t = Table(finder, "Lightning Bolt", "Shock")
    t.draw(ANA)
    t.morph(ANA, "c1")
    assert t.refused(ANA, errors.NameRequired, type="move", card="c1", to=zone).rule == "705.4"
    t.refused(BOB, errors.WrongNamer, type="move", card="c1", to=zone, name="Goblin Taskmaster")
    t.refused(ANA, errors.NotACandidate, type="move", card="c1", to=zone, name="Shock")  # played as a morph
    e = t.do(ANA, type="move", card="c1", to=zone, name="Goblin Taskmaster")
    assert e.data["revealed"] == "D12" and e.data["naming"]["name"] == "Goblin Taskmaster"
    assert t.card("c1").named_as == "Goblin Taskmaster" and not t.card("c1").face_down
    assert replay(t.setup, t.events).snapshot() == t.state.snapshot()


def test_d12_a_countered_face_down_spell_is_named_as_it_goes(finder):
    t = Table(finder, "Lightning Bolt")
    t.draw(ANA)
    t.do(ANA, type="move", card="c1", to="stack", face_down=True, via="morph")
    t.refused(ANA, errors.NameRequired, type="move", card="c1", to="graveyard")
    e = t.do(ANA, type="move", card="c1", to="graveyard", name="Warbreak Trumpeter")
    assert e.data["revealed"] == "D12" and t.card("c1").named_as == "Warbreak Trumpeter"


def test_d12_a_card_an_effect_exiles_face_down_or_a_pentaland_is_not_named(finder):
    t = Table(finder, "Lightning Bolt", "Shock")
    t.draw(ANA, 2)
    t.morph(ANA, "c1")
    e = t.do(ANA, type="move", card="c1", to="exile", face_down=True)  # "exile it face down": the move says so
    assert "revealed" not in e.data and "naming" not in e.data and t.card("c1").face_down
    t.do(ANA, type="move", card="c2", to="battlefield", pentaland=True)
    for zone in ("exile", "library"):
        e = t.do(None, judge=True, type="move", card="c2", to=zone)
        assert "naming" not in e.data and "revealed" not in e.data and t.card("c2").named_as is None


def test_d12_a_leavers_face_down_cards_are_revealed_as_they_go_and_named_by_the_leaver(finder):
    t = Table(finder, "Lightning Bolt", "Shock", players=THREE)
    t.draw(ANA)
    t.morph(ANA, "c1")
    err = t.refused(ANA, errors.NameRequired, type="leave_game")
    assert err.rule == "705.4" and "c1" in err.fields["names"]
    t.refused(BOB, errors.Forbidden, type="leave_game", player=ANA, names={"c1": "Goblin Taskmaster"})
    e = t.do(ANA, type="leave_game", names={"c1": "Goblin Taskmaster"})
    assert e.data["revealed"] == ["c1"] and e.data["namings"]["c1"]["name"] == "Goblin Taskmaster"
    c = t.card("c1")
    assert (c.zone, c.face_down, c.named_as) == ("removed", False, "Goblin Taskmaster")
    assert t.names() == [("Goblin Taskmaster", "c1", ANA, None)]  # it stays taken (704.4, D9)
    assert replay(t.setup, t.events).snapshot() == t.state.snapshot()


def test_d12_a_face_down_card_the_leaver_only_controls_is_exiled_face_up_named_by_the_leaver(finder):
    t = Table(finder, "Lightning Bolt", "Shock", players=THREE)
    t.draw(ANA)
    t.morph(ANA, "c1")
    t.do(None, judge=True, type="move", card="c1", to="battlefield", player=BOB)
    e = t.do(BOB, type="leave_game", names={"c1": "Warbreak Trumpeter"})
    assert e.data["exiled"] == ["c1"] and e.data["namings"]["c1"]["player"] == BOB
    c = t.card("c1")
    assert (c.zone, c.controller, c.face_down, c.named_as) == ("exile", ANA, False, "Warbreak Trumpeter")


def test_d12_a_leaver_with_no_legal_name_for_anothers_face_down_card_costs_its_player_the_game_d8(finder):
    t = Table(finder, "Savannah Lions", "Shock", "Craw Wurm", players=THREE)  # no {W} morph name
    t.draw(ANA)
    t.morph(ANA, "c1")
    t.do(None, judge=True, type="move", card="c1", to="battlefield", player=BOB)
    e = t.do(BOB, type="leave_game")
    assert e.data["game_loss"]["player"] == ANA and e.data["namings"] == {}
    assert t.state.players[ANA].status == "lost" and t.state.players[BOB].status == "left"
    assert replay(t.setup, t.events).snapshot() == t.state.snapshot()


# -- D13(d): the via of the face-down cast limits the names; clear refusals --------------------------
def test_d13d_a_red_morph_that_dies_once_warbreak_trumpeter_is_named_must_be_goblin_taskmaster(finder):
    t = Table(finder, "Lightning Bolt", "Shock")
    t.draw(ANA)
    t.morph(ANA, "c1")
    t.draw(BOB)
    t.do(BOB, type="move", card="c2", to="graveyard", name="Warbreak Trumpeter")
    err = t.refused(ANA, errors.NotACandidate, type="move", card="c1", to="graveyard", name="Goblin Guide")
    assert "Goblin Guide has no morph" in err.message, err.message
    assert t.do(ANA, type="move", card="c1", to="graveyard", name="Goblin Taskmaster").rule == "705.4"


def test_d13d_a_card_cast_via_morph_is_not_turned_up_via_megamorph_and_the_refusal_says_why(finder):
    t = Table(finder, "Lightning Bolt")
    t.draw(ANA)
    t.morph(ANA, "c1")
    err = t.refused(ANA, errors.FaceDownRefused, type="turn_face_up", card="c1", via="megamorph",
                    name="Goblin Taskmaster")
    assert "no megamorph" in err.message and "via" in err.fields, err.message
    err = t.refused(ANA, errors.NotACandidate, type="turn_face_up", card="c1", via="morph", name="Shock")
    assert "Shock has no morph" in err.message, err.message


def test_d13d_a_named_card_moved_face_down_via_morph_must_be_a_morph_card(finder):
    t = Table(finder, "Lightning Bolt")
    t.draw(ANA)
    t.do(ANA, type="move", card="c1", to="hand", name="Shock")
    err = t.refused(ANA, errors.NotACandidate, type="move", card="c1", to="battlefield", face_down=True, via="morph")
    assert "Shock has no morph" in err.message, err.message


def test_d13d_the_refusal_says_each_missing_keyword_once_in_english_and_french(finder):
    """A card cast via morph turned up via morph must have morph: "morph or megamorph" is implied,
    so the refusal says "no morph" once, not "no morph and no morph or megamorph"."""
    from mentalmagic.catalogue import text

    t = Table(finder, "Shock")
    t.draw(ANA)
    t.morph(ANA, "c1")
    err = t.refused(ANA, errors.NotACandidate, type="turn_face_up", card="c1", via="morph", name="Lightning Bolt")
    english, french = text(err.said, "en"), text(err.said, "fr")
    assert english.startswith("Lightning Bolt has no morph: ") and "megamorph" not in english, english
    assert english.count("morph") == french.count("mue") == 3, (english, french)  # the missing, the via, the must
    assert french.startswith("Foudre : pas de mue ; une carte retournée") and "mégamue" not in french, french


# -- D13(e): names taken by an opponent who has since left still count for 705.4a --------------------
def test_d13e_names_taken_by_an_opponent_who_left_still_open_705_4a(finder):
    t = Table(finder, "Lightning Bolt", "Shock", "Chain Lightning", players=THREE)
    t.draw(ANA)
    t.morph(ANA, "c1")
    t.draw(BOB, 2)
    t.do(BOB, type="move", card="c2", to="graveyard", name="Goblin Taskmaster")
    t.do(BOB, type="move", card="c3", to="graveyard", name="Warbreak Trumpeter")
    t.do(BOB, type="leave_game")
    e = t.do(ANA, type="turn_face_up", card="c1", via="morph", name="Goblin Taskmaster")
    assert e.data["naming"]["exception"] == "705.4a"


# -- D14(e): commanders' names are taken from the start --------------------------------------------
def test_d14e_no_card_may_be_named_as_a_commander_of_the_game(finder):
    t = CommanderTable(finder, "Hellrider", "Hellrider")
    t.draw(ANA)
    err = t.refused(ANA, errors.NameTaken, type="move", card="c1", to="stack", name=KRENKO)
    assert err.rule == "704.2"
    assert t.names() == []  # taken by no card's naming: nothing listed
    plain = Table(finder, "Hellrider")  # without Krenko in the game, a {2}{R}{R} card may take the name
    plain.draw(ANA)
    plain.cast(ANA, "c1", KRENKO)


# -- D14(f): the player who brought a commander is its owner for 903 ---------------------------------
def test_d14f_only_the_player_who_brought_a_commander_casts_it_from_the_command_zone(finder):
    t = CommanderTable(finder, "Shock")
    err = t.refused(BOB, errors.CommanderRefused, type="move", card="k-ana", to="stack", player=BOB)
    assert err.rule == "903.8" and "Ana" in err.message
    t.do(ANA, type="move", card="k-ana", to="stack")
    assert t.state.players[ANA].commander_casts == {"k-ana": 1} and t.state.players[BOB].commander_casts == {}


def test_d14f_a_commander_drawn_by_another_player_goes_to_the_command_zone_by_its_players_choice(finder):
    t = CommanderTable(finder, "Shock")
    t.do(ANA, type="move", card="k-ana", to="library")
    t.draw(BOB)  # Krenko is on top: Bob owns it now (702.2)
    assert t.card("k-ana").owner == BOB
    t.do(BOB, type="move", card="k-ana", to="stack")  # from his hand, as itself
    t.do(BOB, type="move", card="k-ana", to="battlefield")
    t.do(BOB, type="move", card="k-ana", to="graveyard")
    assert t.refused(BOB, errors.CommanderRefused, type="move", card="k-ana", to="command").rule == "903.9a"
    t.do(ANA, type="move", card="k-ana", to="command")
    assert (t.card("k-ana").owner, t.card("k-ana").controller) == (ANA, ANA)
    e = t.do(ANA, type="move", card="k-ana", to="stack")
    assert e.data["commander_cast"] == {"player": ANA, "count": 1, "tax": "{0}"}
