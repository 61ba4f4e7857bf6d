"""A card that holds successive names (issue 25): MageRing's card that re-enters is named anew, as
another card, and Xom's Utopia keeps its name in every zone; played through ``decide`` as the
service does, on real cards. The seed keeps its one name per card (704.4)."""

from __future__ import annotations

import test_rulesets_games
from test_ledger import ANA, BOB, Table
from test_rulesets_games import table

from mentalmagic import errors
from mentalmagic.game import replay, undo
from mentalmagic.permissions import JUDGE, Caller
from mentalmagic.rulesets import MAGERING, XOM
from mentalmagic.views import card_view, names_view

finder = test_rulesets_games.finder  # the fixture: the variants' mini pool's finder


def undone(t: Table) -> None:
    t.events, t.state = undo(t.setup, t.events)


# -- MageRing: "renamed as a different card" -------------------------------------------------------
def test_a_magering_card_that_returns_is_refused_its_old_name_and_takes_a_new_one(finder):
    t = table(finder, MAGERING, "Shock")
    t.cast(ANA, "c1", "Lightning Bolt")
    t.do(ANA, type="move", card="c1", to="battlefield")  # the stack to the battlefield: it keeps its name
    assert t.card("c1").named_as == "Lightning Bolt"
    e = t.do(ANA, type="move", card="c1", to="hand")  # bounced: its printed card again
    assert e.data["unnamed"] == {"name": "Lightning Bolt", "rule": "face cards"} and e.rule == "face cards"
    assert (t.card("c1").named_as, t.card("c1").former_names) == (None, ("Lightning Bolt",))
    err = t.refused(ANA, errors.NameTaken, type="move", card="c1", to="stack", name="Lightning Bolt")
    assert (err.code, err.rule) == ("name_taken", "once per game")  # the old name stays taken
    t.refused(ANA, errors.NameRequired, type="move", card="c1", to="stack")  # and it must take one
    e = t.cast(ANA, "c1", "Chain Lightning")
    assert e.data["naming"]["name"] == "Chain Lightning"
    assert (t.card("c1").named_as, t.card("c1").former_names) == ("Chain Lightning", ("Lightning Bolt",))
    assert [(r.name, r.card, r.anew) for r in t.state.names.records()] == [
        ("Lightning Bolt", "c1", False), ("Chain Lightning", "c1", True)]
    assert replay(t.setup, t.events).snapshot() == t.state.snapshot()


def test_undo_gives_a_magering_card_back_its_old_name_exactly(finder):
    t = table(finder, MAGERING, "Shock")
    t.cast(ANA, "c1", "Lightning Bolt")
    on_the_stack = t.state.snapshot()
    t.do(ANA, type="move", card="c1", to="graveyard")
    in_the_graveyard = t.state.snapshot()
    t.do(ANA, type="move", card="c1", to="battlefield", name="Chain Lightning")  # reanimated, renamed
    undone(t)
    assert t.state.snapshot() == in_the_graveyard
    undone(t)
    assert t.state.snapshot() == on_the_stack and t.card("c1").named_as == "Lightning Bolt"
    assert [r.name for r in t.state.names.records()] == ["Lightning Bolt"]


def test_a_magering_card_is_its_printed_card_outside_the_battlefield_and_the_stack(finder):
    t = table(finder, MAGERING, "Shock", "Savannah Lions")
    e = t.do(ANA, type="move", card="c1", to="graveyard")  # discarded: no 705.3 naming, its printed card
    assert "naming" not in e.data and t.card("c1").named_as is None
    err = t.refused(ANA, errors.NotACandidate, type="move", card="c2", to="exile", name="Figure of Destiny")
    assert err.rule == "face cards"
    assert t.refused(ANA, errors.NotACandidate, type="name", card="c2", name="Figure of Destiny").rule == "face cards"
    t.cast(ANA, "c2", "Figure of Destiny")
    t.do(ANA, type="move", card="c2", to="battlefield")
    t.do(BOB, type="move", card="c2", to="battlefield", player=BOB)  # control changes: it stays named
    assert t.card("c2").named_as == "Figure of Destiny" and t.card("c2").former_names == ()


def test_a_returning_card_shows_its_earlier_names_only_to_who_sees_it(finder):
    t = table(finder, MAGERING, "Shock")
    t.cast(ANA, "c1", "Lightning Bolt")
    t.do(ANA, type="move", card="c1", to="hand")
    pool = finder.pool
    in_hand = t.card("c1")
    assert card_view(in_hand, Caller(ANA), pool)["earlier_names"] == ["Lightning Bolt"]
    hidden = card_view(in_hand, Caller(BOB), pool)
    assert "earlier_names" not in hidden and hidden["named_as"] is None  # D15: nothing to follow it by
    t.cast(ANA, "c1", "Chain Lightning")
    shown = card_view(t.card("c1"), Caller(BOB), pool)
    assert (shown["named_as"], shown["earlier_names"]) == ("Chain Lightning", ["Lightning Bolt"])
    assert [n["name"] for n in names_view(t.state)] == ["Lightning Bolt", "Chain Lightning"]


def test_under_magic_ville_a_card_keeps_its_one_name_as_ever(finder):
    t = table(finder, None, "Shock")
    t.cast(ANA, "c1", "Lightning Bolt")
    e = t.do(ANA, type="move", card="c1", to="hand")
    assert "unnamed" not in e.data and t.card("c1").named_as == "Lightning Bolt"
    assert "earlier_names" not in card_view(t.card("c1"), JUDGE, finder.pool)
    t.refused(ANA, errors.AlreadyNamed, type="move", card="c1", to="stack", name="Chain Lightning")


# -- Xom 3b: a Utopia stays one -----------------------------------------------------------------
def test_xoms_utopia_keeps_its_name_in_every_zone(finder):
    t = table(finder, XOM, "Shock", "Savannah Lions")
    e = t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)  # named Utopia as it is played (4)
    assert e.data["land_name"] == "Utopia" and t.card("c1").named_as == "Utopia"
    assert t.state.names.records() == []  # Utopia is no card's name: nothing is taken
    t.do(ANA, type="move", card="c2", to="battlefield", pentaland=True, name="Utopia")  # !u: a second one
    for zone in ("hand", "graveyard", "exile", "library"):
        t.do(None, judge=True, type="move", card="c1", to=zone, **({"player": ANA} if zone != "library" else {}))
        assert t.card("c1").named_as == "Utopia", zone
    t.do(None, judge=True, type="draw", player=ANA, printed="Shock")
    err = t.refused(ANA, errors.AlreadyNamed, type="move", card="c1", to="stack", name="Lightning Bolt")
    assert err.rule == "3b"  # the name lasts the rest of the game
    t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)  # played as the land it is
    assert t.card("c1").named_as == "Utopia" and t.card("c1").pentaland


def test_a_pentaland_under_magic_ville_is_still_never_named(finder):
    t = table(finder, None, "Shock")
    e = t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)
    assert "land_name" not in e.data
    t.do(ANA, type="move", card="c1", to="hand")
    assert t.card("c1").named_as is None
