"""The game-side readings of issue 11 in the core: D9 leaving, D10 named Pentalands, D11 choosers,
D12, 701 cuts, D13, and refusals that say exactly why. Real cards of the mini pool, played through
``decide`` and folded as the service does (test_ledger.py's ``Table``)."""

from __future__ import annotations

import pytest
from test_ledger import ANA, BOB, CID, TWO, Table

from mentalmagic import errors
from mentalmagic.actions import decide
from mentalmagic.commands import Shuffle
from mentalmagic.game import Player, replay, undo
from mentalmagic.naming import refusal_for
from mentalmagic.permissions import JUDGE, Caller
from mentalmagic.services import with_randomness
from mentalmagic.views import card_view, printed_facts

THREE = (*TWO, Player(CID, "Cid"))


@pytest.fixture(scope="module")
def finder(mini_finder):
    """The core tier: every card played here is in tests/minipool.py."""
    return mini_finder


# -- D9: leaving the game ---------------------------------------------------------------------
def d9_table(finder) -> Table:
    """Ana controls Bob's Grizzly Bears through Control Magic and Cid's Savannah Lions through an
    effect that doesn't end (an exchange she keeps), and owns a Shock cast as Lightning Bolt."""
    t = Table(finder, "Shock", "Grizzly Bears", "Savannah Lions", "Lightning Bolt", "Craw Wurm", players=THREE)
    t.draw(ANA)  # c1
    t.draw(BOB)  # c2
    t.draw(CID)  # c3
    t.cast(ANA, "c1", "Lightning Bolt")
    t.do(BOB, type="move", card="c2", to="battlefield", name="Elvish Visionary")
    t.do(CID, type="move", card="c3", to="battlefield", name="Figure of Destiny")
    t.do(None, judge=True, type="move", card="c2", to="battlefield", player=ANA)  # Control Magic
    t.do(None, judge=True, type="move", card="c3", to="battlefield", player=ANA)
    return t


def test_d9_cards_held_through_a_control_changing_effect_go_back_to_their_owner_where_they_are(finder):
    t = d9_table(finder)
    names_before = t.names()
    e = t.do(ANA, type="leave_game", player=ANA, returned=["c2"])
    assert e.rule == "800.4a"
    assert e.data == {"player": ANA, "removed": ["c1"], "exiled": ["c3"], "released": [], "returned": ["c2"]}
    zones = {cid: (t.card(cid).zone, t.card(cid).owner, t.card(cid).controller) for cid in ("c1", "c2", "c3")}
    assert zones == {"c1": ("removed", ANA, None),  # what she owns leaves the game
                     "c2": ("battlefield", BOB, BOB),  # back to its owner's control, where it is
                     "c3": ("exile", CID, CID)}  # what else she controls is exiled; its owner keeps it
    assert t.names() == names_before  # 704.4: the names those cards took stay taken


@pytest.mark.parametrize(("returned", "why"), [(["c1"], "owns"), (["c4"], "doesn't control"),
                                               (["c2", "c5"], "doesn't control")])
def test_d9_returned_names_only_cards_the_leaver_controls_and_doesnt_own(finder, returned, why):
    t = d9_table(finder)
    t.draw(BOB)  # c4, in Bob's hand
    err = t.refused(ANA, errors.ReturnRefused, type="leave_game", player=ANA, returned=returned)
    assert (err.code, err.rule) == ("return_refused", "800.4a") and why in err.message and "D9" in err.message


def test_d9_undoing_a_departure_gives_back_everything(finder):
    t = d9_table(finder)
    before = t.state.snapshot()
    t.do(None, judge=True, type="leave_game", player=ANA, returned=["c2", "c3"])
    assert t.state.players[ANA].status == "left"
    rest, back = undo(t.setup, t.events)
    assert back.snapshot() == before and replay(t.setup, t.events).snapshot() == t.state.snapshot()


# -- D10: a named card as a Pentaland -----------------------------------------------------------
def test_d10_a_named_pentaland_shows_its_name_only_to_the_judge_and_its_controller(finder):
    t = Table(finder, "Shock")
    t.draw(ANA)
    t.do(ANA, type="name", card="c1", name="Lightning Bolt")
    t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)
    c = t.card("c1")
    assert card_view(c, Caller(BOB), finder.pool)["named_as"] is None
    mine, judge = card_view(c, Caller(ANA), finder.pool), card_view(c, JUDGE, finder.pool)
    assert mine["named_as"] == judge["named_as"] == "Lightning Bolt"
    assert mine["nonland"] is False  # a Pentaland is a land (703.1) whatever it is named
    t.do(ANA, type="move", card="c1", to="hand")  # 703.8: the named card again, for everyone who sees it
    assert card_view(t.card("c1"), Caller(ANA), finder.pool)["nonland"] is True


# -- D11: 705.5 choosers -------------------------------------------------------------------------
def test_d11_a_chooser_names_a_card_revealed_to_them_that_they_neither_own_nor_control(finder):
    # Ostracize: Ana reveals her hand; Bob chooses a card from it and names it.
    t = Table(finder, "Shock", "Savannah Lions", players=THREE)
    t.draw(ANA, 2)
    t.refused(BOB, errors.WrongNamer, type="name", card="c1", name="Lightning Bolt")  # 705.6 without choice
    t.refused(BOB, errors.Forbidden, type="name", card="c1", name="Lightning Bolt", choice=True)  # not revealed
    t.do(ANA, type="reveal", player=ANA, cards=["c1"])
    e = t.do(BOB, type="name", card="c1", name="Lightning Bolt", choice=True)
    assert e.rule == "705.5" and e.player == BOB and e.data["choice"] is True
    assert e.data["naming"] == {"name": "Lightning Bolt", "player": BOB, "rule": "705.5", "exception": None}
    assert t.card("c1").named_as == "Lightning Bolt" and t.card("c1").owner == ANA
    # the judge records it for any player, revealed or not
    e = t.do(None, judge=True, type="name", card="c2", name="Figure of Destiny", choice=True, player=CID)
    assert (e.player, e.data["naming"]["player"], e.rule) == (CID, CID, "705.5")


def test_d11_a_card_looked_at_by_the_chooser_counts_as_revealed_to_them(finder):
    t = Table(finder, "Shock", "Savannah Lions")
    t.draw(ANA)
    t.do(None, judge=True, type="look", player=BOB, cards=["c1"])  # an effect shows Bob Ana's card
    assert t.do(BOB, type="name", card="c1", name="Chain Lightning", choice=True).rule == "705.5"


# -- D12: a face-down card leaving the battlefield for a hand or a graveyard ----------------------
@pytest.mark.parametrize("zone", ["hand", "graveyard"])
def test_d12_a_face_down_card_leaving_for_a_hand_or_a_graveyard_is_named_like_a_morph_that_dies(finder, zone):
    t = Table(finder, "Lightning Bolt")
    t.draw(ANA)
    t.morph(ANA, "c1")
    err = t.refused(ANA, errors.NameRequired, type="move", card="c1", to=zone)
    assert err.rule == "705.4"
    t.refused(ANA, errors.NotACandidate, type="move", card="c1", to=zone, name="Shock")  # played as a morph
    e = t.do(ANA, type="move", card="c1", to=zone, name="Goblin Taskmaster")
    assert e.data["revealed"] == "D12" and e.rule == "705.4"
    assert e.data["naming"] == {"name": "Goblin Taskmaster", "player": ANA, "rule": "705.4", "exception": None}
    assert (t.card("c1").zone, t.card("c1").face_down, t.card("c1").named_as) == (zone, False, "Goblin Taskmaster")


@pytest.mark.parametrize("zone", ["hand", "graveyard"])
def test_d12_a_pentaland_leaving_the_battlefield_is_not_revealed(finder, zone):
    # 703.6, 703.7: a Pentaland is no face-down permanent; 703.8 into a hand it is no longer one
    t = Table(finder, "Lightning Bolt")
    t.draw(ANA)
    t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)
    e = t.do(ANA, type="move", card="c1", to=zone)
    assert "revealed" not in e.data and "naming" not in e.data and t.card("c1").named_as is None


# -- 701: cuts, no searching ----------------------------------------------------------------------
def test_701_1b_a_shuffle_is_a_cut_and_cards_it_moves_keep_their_state(finder):
    t = Table(finder, "Shock", "Savannah Lions", "Lightning Bolt", "Craw Wurm", "Giant Growth")
    t.do(ANA, type="reveal", player=ANA, cards=["c2"])
    t.do(BOB, type="look", player=BOB, cards=["c4"])
    seen = {cid: t.card(cid).to_dict() for cid in ("c2", "c4")}
    e = t.do(None, judge=True, type="shuffle", player=ANA, at=2)  # the cut seen at the table
    assert e.rule == "701.1b" and e.data == {"player": ANA, "at": 2, "random": False, "library_size": 5,
                                             "judge": True}
    assert t.state.library == ["c3", "c4", "c5", "c1", "c2"]
    assert {cid: t.card(cid).to_dict() for cid in ("c2", "c4")} == seen  # revealed, looked at: unchanged
    assert t.card("c2").owner == ANA and t.card("c4").owner == BOB  # 702.2b, 702.2c hold on
    t.refused(ANA, errors.Forbidden, type="shuffle", at=1)  # only the judge says where the cut was
    err = t.refused(None, errors.InvalidInput, judge=True, type="shuffle", player=ANA, at=6)
    assert "at" in err.fields


def test_701_1b_a_players_shuffle_is_cut_where_the_service_drew_and_replays_the_same(finder):
    t = Table(finder, "Shock", "Savannah Lions", "Lightning Bolt")
    drawn = with_randomness(Shuffle(), t.state)
    assert drawn.at is None and 1 <= drawn.random_at <= 2  # the service's point, from SystemRandom
    e = decide(t.state, t.setup, finder, Shuffle(random_at=1), ANA)
    assert e.data == {"player": ANA, "at": 1, "random": True, "library_size": 3}
    t.state = t.state.apply_event(e)
    t.events.append(e)
    assert t.state.library == ["c2", "c3", "c1"] and replay(t.setup, t.events).snapshot() == t.state.snapshot()
    t.refused(ANA, errors.InvalidInput, type="shuffle")  # the core draws nothing: no point, no cut


def test_701_1a_players_cant_search_the_library(finder):
    t = Table(finder, "Shock")
    err = t.refused(ANA, errors.LibraryRefused, type="search", card="c1")
    assert (err.code, err.rule) == ("search_refused", "701.1a")


# -- D13 -------------------------------------------------------------------------------------------
def d13a_table(finder, namer: str) -> Table:
    """Ana plays a Craw Wurm face down by morph; Bob gains control of it; then ``namer`` names
    Root Elemental, the only {4}{G}{G} morph, on another Craw Wurm."""
    t = Table(finder, "Craw Wurm", "Craw Wurm")
    t.draw(ANA)
    t.morph(ANA, "c1")
    t.do(None, judge=True, type="move", card="c1", to="battlefield", player=BOB)
    assert (t.card("c1").controller, t.card("c1").face_down) == (BOB, True)
    t.draw(namer)
    t.cast(namer, "c2", "Root Elemental")
    return t


def test_d13a_the_opponent_of_705_4a_is_counted_from_the_controller_who_names_the_card(finder):
    # Ana (Bob's opponent) took the name since: Bob, naming the card as it turns up, may take it again.
    t = d13a_table(finder, ANA)
    t.refused(ANA, errors.WrongNamer, type="move", card="c1", to="graveyard", name="Root Elemental")
    e = t.do(BOB, type="move", card="c1", to="graveyard", name="Root Elemental")
    assert e.data["naming"] == {"name": "Root Elemental", "player": BOB, "rule": "705.4a", "exception": "705.4a"}


def test_d13a_the_game_loss_falls_on_who_played_it_face_down(finder):
    # Bob took the name himself: no opponent of his did, no exception, no name left: Ana loses.
    t = d13a_table(finder, BOB)
    e = t.do(BOB, type="move", card="c1", to="graveyard")
    assert e.data["game_loss"]["player"] == ANA and e.rule == "705.4a"
    assert t.state.players[ANA].status == "lost" and t.state.players[BOB].status == "in_game"
    assert t.card("c1").zone == "removed"  # Ana owned it: it left the game with her


@pytest.mark.parametrize(
    ("printed", "played", "turned", "name", "ok"),
    [
        ("Grizzly Bears", "manifest", "morph", "Den Protector", True),  # megamorph is a variant of morph
        ("Grizzly Bears", "megamorph", "morph", "Den Protector", True),
        ("Grizzly Bears", "manifest", "megamorph", "Den Protector", True),
        ("Lightning Bolt", "manifest", "megamorph", "Goblin Taskmaster", False),  # megamorph: megamorph only
        ("Lightning Bolt", "manifest", "morph", "Goblin Taskmaster", True),
        # played as a morph, a card must have Morph itself, however it turns up (the seed's 705.4 example)
        ("Grizzly Bears", "morph", "morph", "Den Protector", False),
    ],
)
def test_d13c_morph_may_take_a_megamorph_name_megamorph_only_a_megamorph_one(finder, printed, played, turned,
                                                                             name, ok):
    t = Table(finder, printed)
    t.draw(ANA)
    t.morph(ANA, "c1", via=played)
    if ok:
        assert t.do(ANA, type="turn_face_up", card="c1", name=name, via=turned).data["naming"]["name"] == name
    else:
        assert t.refused(ANA, errors.NotACandidate, type="turn_face_up", card="c1", name=name,
                         via=turned).rule == "705.4"


def test_d13b_nonland_is_a_boolean_and_a_named_card_answers_as_what_it_is_named(finder):
    forest, ornithopter = finder.pool.lookup("Forest"), finder.pool.lookup("Ornithopter")
    assert printed_facts(forest)["nonland"] is False  # no mana cost: not known to be nonland (705.6)
    assert printed_facts(ornithopter)["nonland"] is True  # {0}: 705.9 settles it
    assert printed_facts(forest, finder.pool.lookup("Ancestral Vision").front)["nonland"] is True
    assert printed_facts(ornithopter, pentaland=True)["nonland"] is False


# -- answers that say exactly why --------------------------------------------------------------
def test_a_refused_name_lists_every_reason_and_answers_with_the_first_in_rule_order(finder):
    # Fire // Ice named an already-taken Lightning Bolt: 704.1 (the cost) comes before 704.2 (taken).
    t = Table(finder, "Shock", "Fire // Ice")
    t.draw(ANA, 2)
    t.cast(ANA, "c1", "Lightning Bolt")
    err = t.refused(ANA, errors.NotACandidate, type="move", card="c2", to="stack", name="Lightning Bolt")
    assert (err.code, err.rule) == ("not_a_candidate", "704.1")
    assert "(704.1)" in err.message and "(704.2)" in err.message and len(err.fields["name"]) == 2
    # taken and restricted: 704.2 comes first, so the answer is name_taken, and 706.1 is listed too
    verdict = finder.check("Black Lotus", printed=finder.pool.lookup("Ornithopter"), taken=["black lotus"])
    refusal = refusal_for(verdict, "Black Lotus")
    assert isinstance(refusal, errors.NameTaken) and refusal.rule == "704.2" and "(706.1)" in refusal.message


def test_an_action_repeating_a_cards_own_name_names_nothing_and_says_so(finder):
    # 704.4: a named card is that card for good; giving it its name again is no naming.
    t = Table(finder, "Shock", "Craw Wurm")
    t.draw(ANA, 2)
    t.cast(ANA, "c1", "Lightning Bolt")
    e = t.do(ANA, type="move", card="c1", to="graveyard", name="Foudre")  # its name, in French
    note = {"message_code": "event.already_named", "params": {"name": "Lightning Bolt"}}  # worded where it is read
    assert e.data["naming"] is None and e.data["note"] == note
    e = t.do(ANA, type="name", card="c1", name="Lightning Bolt")
    assert (e.rule, e.data["naming"], e.data["note"]) == ("704.4", None, note)
    assert t.refused(ANA, errors.AlreadyNamed, type="name", card="c1", name="Chain Lightning").rule == "704.4"
    e = t.do(ANA, type="move", card="c1", to="exile")  # no name given: nothing to say
    assert "note" not in e.data and "naming" not in e.data
    assert t.names() == [("Lightning Bolt", "c1", ANA, None)]
