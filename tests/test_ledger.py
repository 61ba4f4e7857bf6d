"""The game ledger: ownership (702), Pentaland (703), naming (704) and when to name (705).

Every scenario plays real cards of the snapshot through ``decide`` (as typed commands) and folds the
events, as the service does; the examples of the seed are cited by rule.
"""

from __future__ import annotations

import pytest
from marshmallow import ValidationError

from mentalmagic import errors
from mentalmagic.actions import decide
from mentalmagic.game import Event, GameSetup, GameState, Player, check_setup, replay, undo
from mentalmagic.views import could_be, face_up_options, printed_facts, visible_printed
from mentalmagic.web.schemas import load_action


@pytest.fixture(scope="module")
def finder(mini_finder):
    """The core tier: every card these scenarios play is in tests/minipool.py."""
    return mini_finder


ANA, BOB, CID, DEE = "ana", "bob", "cid", "dee"
TWO = (Player(ANA, "Ana"), Player(BOB, "Bob"))


def make_setup(*printed: str, players=TWO, fmt: str = "vintage", **options) -> GameSetup:
    """A game whose library is ``printed`` top first; card ids are c1, c2, ... from the top."""
    return GameSetup(format=fmt, players=tuple(players),
                     library=tuple((f"c{i}", name) for i, name in enumerate(printed, 1)), options=options)


def command(action: dict):
    """The typed command the API builds from this body; a field it refuses is an InvalidInput (a 422)."""
    try:
        return load_action(action)
    except ValidationError as e:
        raise errors.InvalidInput("invalid action", fields=e.messages) from e


class Table:
    """A game at the table: actions go through ``decide`` and events are folded, as the service does."""

    def __init__(self, finder, *printed: str, players=TWO, **options):
        self.finder = finder
        self.setup = make_setup(*printed, players=players, **options)
        check_setup(self.setup, finder.pool)
        self.state = GameState.initial(self.setup)
        self.events: list[Event] = []

    def do(self, actor: str | None, judge: bool = False, **action) -> Event:
        event = decide(self.state, self.setup, self.finder, command(action), actor, judge, at="2026-11-21T20:00:00Z")
        self.state = self.state.apply_event(event)
        self.events.append(event)
        return event

    def refused(self, actor, error, judge: bool = False, **action):
        """Assert ``action`` is refused with ``error``; nothing is appended."""
        before = self.state.snapshot()
        with pytest.raises(error) as info:
            decide(self.state, self.setup, self.finder, command(action), actor, judge)
        assert self.state.snapshot() == before
        return info.value

    def card(self, cid: str):
        return self.state.cards[cid]

    def names(self) -> list[tuple[str, str, str | None, str | None]]:
        return [(r.name, r.card, r.player, r.exception) for r in self.state.names.records()]

    # shortcuts for common table moves
    def draw(self, player: str, count: int = 1) -> Event:
        return self.do(player, type="draw", player=player, count=count)

    def cast(self, player: str, card: str, name: str) -> Event:
        return self.do(player, type="move", card=card, to="stack", name=name)

    def morph(self, player: str, card: str, via: str = "morph") -> Event:
        """Play a card from a hand face down onto the battlefield: its face-down moment starts here."""
        return self.do(player, type="move", card=card, to="battlefield", face_down=True, via=via)


# -- 702 ownership -----------------------------------------------------------------
def test_drawing_makes_the_drawer_the_owner_of_the_top_cards(finder):
    t = Table(finder, "Shock", "Savannah Lions", "Lightning Bolt")
    e = t.draw(ANA, 2)
    assert e.type == "draw" and e.data == {"player": ANA, "cards": ["c1", "c2"]} and e.rule == "702.2"
    assert [(t.card(c).zone, t.card(c).owner, t.card(c).controller) for c in ("c1", "c2")] == [
        ("hand", ANA, ANA), ("hand", ANA, ANA)]
    assert t.state.library == ["c3"] and t.card("c3").owner is None


def test_drawing_more_cards_than_the_library_holds_is_refused(finder):
    t = Table(finder, "Shock")
    err = t.refused(ANA, errors.LibraryEmpty, type="draw", player=ANA, count=2)
    assert err.code == "library_empty" and err.rule == "702.1"


def test_a_player_draws_only_for_themselves(finder):
    t = Table(finder, "Shock")
    t.refused(ANA, errors.Forbidden, type="draw", player=BOB, count=1)


def test_the_judge_records_which_physical_card_was_drawn(finder):
    t = Table(finder, "Shock", "Fire // Ice", "Fire // Ice")
    e = t.do(None, judge=True, type="draw", player=BOB, printed="Feu // Glace")
    assert e.data["cards"] == ["c2"] and e.player == BOB and e.data["judge"] is True
    assert t.card("c2").zone == "hand" and t.card("c2").owner == BOB
    t.refused(BOB, errors.Forbidden, type="draw", player=BOB, printed="Shock")
    t.refused(None, errors.NotInLibrary, judge=True, type="draw", player=BOB, printed="Savannah Lions")


def test_a_card_moved_into_the_library_has_no_owner_and_goes_top_or_bottom(finder):
    t = Table(finder, "Shock", "Savannah Lions", "Lightning Bolt", "Giant Growth")
    t.draw(ANA, 2)
    e = t.do(ANA, type="move", card="c1", to="library", position="bottom")
    assert e.rule == "702.2a" and e.data["position"] == "bottom"
    t.do(ANA, type="move", card="c2", to="library")  # top by default; a hidden move needs no name
    assert t.state.library == ["c2", "c3", "c4", "c1"]
    assert all(t.card(c).owner is None and t.card(c).controller is None for c in t.state.library)


def test_a_card_milled_from_a_players_library_is_owned_and_named_by_the_milled_player(finder):
    # 702.2 (the milled player becomes the owner) and 705.3 (the graveyard's player names it).
    t = Table(finder, "Shock", "Savannah Lions")
    t.refused(ANA, errors.WrongNamer, type="move", card="c1", to="graveyard", player=BOB, name="Lightning Bolt")
    err = t.refused(BOB, errors.NameRequired, type="move", card="c1", to="graveyard", player=BOB)
    assert err.rule == "705.3"
    e = t.do(BOB, type="move", card="c1", to="graveyard", player=BOB, name="Lightning Bolt")
    assert e.rule == "705.3" and e.data["owner"] == BOB
    assert t.card("c1").owner == BOB and t.card("c1").named_as == "Lightning Bolt"
    assert t.names() == [("Lightning Bolt", "c1", BOB, None)]


def test_a_card_goes_to_its_owners_hand_and_graveyard_only(finder):
    t = Table(finder, "Shock")
    t.draw(ANA)
    err = t.refused(ANA, errors.OwnershipRefused, type="move", card="c1", to="graveyard", player=BOB,
                    name="Lightning Bolt")
    assert err.rule == "702.2"


def test_a_revealed_library_card_is_owned_by_its_revealer_until_the_reveal_ends(finder):
    # 702.2b
    t = Table(finder, "Shock", "Savannah Lions", "Giant Growth")
    e = t.do(ANA, type="reveal", count=2, player=ANA)
    assert e.rule == "702.2b" and e.data == {"cards": ["c1", "c2"], "player": ANA, "continuous": False}
    assert [t.card(c).owner for c in ("c1", "c2", "c3")] == [ANA, ANA, None]
    assert visible_printed(t.state, "c1", BOB) and not visible_printed(t.state, "c3", ANA)
    t.do(ANA, type="end_reveal", cards=["c1", "c2"])
    assert [t.card(c).owner for c in ("c1", "c2")] == [None, None]
    assert not visible_printed(t.state, "c1", ANA)


def test_a_continuous_reveal_of_the_top_card_gives_it_no_owner(finder):
    # 702.2b's exception (Future Sight, Bottomless... ): seen by all, owned by none.
    t = Table(finder, "Shock", "Savannah Lions")
    t.do(ANA, type="reveal", count=1, player=ANA, continuous=True)
    assert t.card("c1").owner is None and t.card("c1").revealed
    assert visible_printed(t.state, "c1", BOB)


def test_cards_looked_at_in_a_players_library_are_owned_by_that_player_while_looked_at(finder):
    # 702.2c: Ana looks at the top card of Bob's library; Bob owns it, only Ana sees it.
    t = Table(finder, "Shock", "Savannah Lions")
    e = t.do(ANA, type="look", count=1, player=BOB)
    assert e.rule == "702.2c" and e.data == {"cards": ["c1"], "player": BOB, "looker": ANA}
    assert t.card("c1").owner == BOB
    assert visible_printed(t.state, "c1", ANA) and not visible_printed(t.state, "c1", BOB)
    t.do(BOB, type="end_look", cards=["c1"])
    assert t.card("c1").owner is None and not visible_printed(t.state, "c1", ANA)


def test_ending_a_reveal_of_a_card_that_is_not_revealed_is_invalid(finder):
    t = Table(finder, "Shock")
    err = t.refused(ANA, errors.InvalidInput, type="end_reveal", cards=["c1"])
    assert "cards" in err.fields


# -- 703 Pentaland -------------------------------------------------------------------
def test_a_pentaland_destroyed_stays_face_down_and_stops_being_one_back_in_a_hand(finder):
    t = Table(finder, "Savannah Lions", "Shock")
    t.draw(ANA)
    e = t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)
    assert e.rule == "703.2"
    c = t.card("c1")
    assert (c.zone, c.face_down, c.pentaland, c.named_as, c.controller) == ("battlefield", True, True, None, ANA)
    assert not visible_printed(t.state, "c1", BOB) and visible_printed(t.state, "c1", ANA)
    t.do(BOB, type="move", card="c1", to="graveyard")  # 703.7: stays face down, nothing to name
    c = t.card("c1")
    assert (c.zone, c.face_down, c.pentaland, c.named_as) == ("graveyard", True, True, None)
    t.do(ANA, type="move", card="c1", to="hand")  # 703.8
    c = t.card("c1")
    assert (c.zone, c.face_down, c.pentaland, c.named_as, c.owner) == ("hand", False, False, None, ANA)
    assert t.names() == []


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        ({"to": "battlefield", "pentaland": True, "name": "Lightning Bolt"}, "703.2"),
        ({"to": "battlefield", "pentaland": True, "face_down": False}, "703.2"),
        ({"to": "graveyard", "pentaland": True}, "703.4"),
    ],
)
def test_a_pentaland_is_played_face_down_onto_the_battlefield_without_a_name(finder, action, rule):
    t = Table(finder, "Shock")
    t.draw(ANA)
    err = t.refused(ANA, errors.PentalandRefused, type="move", card="c1", **action)
    assert err.rule == rule


def test_d10_a_named_card_of_a_hand_may_be_played_as_a_pentaland_and_keeps_its_name(finder):
    # D10: 703.2 lets a player play any card of their hand as a Pentaland, a named one included (704.4).
    t = Table(finder, "Shock", "Lightning Bolt", "Shock")
    t.draw(ANA, 2)
    t.do(ANA, type="name", card="c1", name="Lightning Bolt")
    e = t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)
    assert e.rule == "703.2" and "naming" not in e.data
    c = t.card("c1")
    assert (c.pentaland, c.face_down, c.named_as) == (True, True, "Lightning Bolt")  # it keeps its name...
    t.draw(BOB)
    err = t.refused(BOB, errors.NameTaken, type="move", card="c3", to="stack", name="Lightning Bolt")
    assert err.rule == "704.2"  # ...which stays taken
    t.do(ANA, type="move", card="c1", to="hand")  # 703.8: no longer a Pentaland: the named card again
    c = t.card("c1")
    assert (c.pentaland, c.face_down, c.named_as) == (False, False, "Lightning Bolt")
    err = t.refused(ANA, errors.AlreadyNamed, type="name", card="c1", name="Chain Lightning")
    assert err.rule == "704.4"  # never renamed
    assert t.names() == [("Lightning Bolt", "c1", ANA, None)]


def test_d10_a_named_face_up_card_outside_a_hand_cant_be_played_as_a_pentaland(finder):
    # 703.3 as written: only an unnamed face-up card outside the hand.
    t = Table(finder, "Shock")
    t.draw(ANA)
    t.cast(ANA, "c1", "Lightning Bolt")
    t.do(ANA, type="move", card="c1", to="graveyard")
    err = t.refused(ANA, errors.PentalandRefused, type="move", card="c1", to="battlefield", pentaland=True)
    assert err.rule == "703.3"


def test_a_hidden_library_card_cant_be_played_as_a_pentaland_but_a_face_up_unnamed_one_can(finder):
    # 703.3: any face-up unnamed card the player could play if it were a land (Mask of Uba's exiles).
    t = Table(finder, "Shock", "Savannah Lions")
    t.refused(ANA, errors.PentalandRefused, type="move", card="c1", to="battlefield", pentaland=True)
    e = t.do(ANA, type="move", card="c1", to="exile", player=ANA)  # exile face up from the library: no name
    assert "naming" not in e.data and t.card("c1").named_as is None
    t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)
    assert t.card("c1").pentaland and t.card("c1").face_down


def test_a_pentaland_cant_be_turned_face_up_or_moved_face_up(finder):
    t = Table(finder, "Shock")
    t.draw(ANA)
    t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)
    err = t.refused(ANA, errors.PentalandRefused, type="turn_face_up", card="c1", name="Lightning Bolt")
    assert err.rule == "703.6"
    assert t.refused(ANA, errors.PentalandRefused, type="name", card="c1", name="Lightning Bolt").rule == "703.6"
    err = t.refused(ANA, errors.PentalandRefused, type="move", card="c1", to="exile", face_down=False)
    assert err.rule == "703.7"
    t.do(ANA, type="move", card="c1", to="exile")
    assert t.card("c1").face_down and t.card("c1").pentaland


# -- 704 naming ---------------------------------------------------------------------
def test_fire_taken_leaves_ice_free_for_another_card(finder):
    # 704.3: each half of a split card is a separate card.
    t = Table(finder, "Lightning Strike", "Mana Leak", "Lightning Strike", "Fire // Ice")
    t.draw(ANA, 2)
    t.draw(BOB, 2)
    t.cast(ANA, "c1", "Feu")  # the French name resolves to the half
    t.cast(ANA, "c2", "Ice")
    assert [t.card(c).named_as for c in ("c1", "c2")] == ["Fire", "Ice"]
    err = t.refused(BOB, errors.NameTaken, type="move", card="c3", to="stack", name="Fire")
    assert err.rule == "704.2"
    t.cast(BOB, "c4", "Lightning Strike")  # the printed Fire // Ice takes a {1}{R} name
    assert t.names() == [("Fire", "c1", ANA, None), ("Ice", "c2", ANA, None), ("Lightning Strike", "c4", BOB, None)]


@pytest.mark.parametrize(
    ("printed", "name", "rule"),
    [
        ("Shock", "Shock", "704.1"),  # not the printed card itself
        ("Shock", "Savannah Lions", "704.1"),  # another cost
        ("Shock", "Not A Card At All", "704.1"),
        ("Fire // Ice", "Ice", "704.1"),  # no half of itself either (D4)
    ],
)
def test_a_name_must_be_a_card_of_the_format_with_the_printed_cost(finder, printed, name, rule):
    t = Table(finder, printed)
    t.draw(ANA)
    err = t.refused(ANA, errors.NotACandidate, type="name", card="c1", name=name)
    assert err.rule == rule


@pytest.mark.parametrize(
    ("printed", "name", "rule"),
    [
        ("Ornithopter", "Black Lotus", "706.1"),  # restricted in vintage, so banned
        ("Aluren", "Abundance", "706.2"),  # the Mental Magic list
    ],
)
def test_a_banned_card_cant_be_chosen_as_a_name(finder, printed, name, rule):
    t = Table(finder, printed)
    t.draw(ANA)
    err = t.refused(ANA, errors.NotACandidate, type="name", card="c1", name=name)
    assert err.rule == rule


def test_a_named_card_returned_to_the_library_and_drawn_again_keeps_its_name_for_good(finder):
    # 704.4
    t = Table(finder, "Shock", "Savannah Lions")
    t.draw(ANA)
    t.cast(ANA, "c1", "Lightning Bolt")
    t.do(ANA, type="move", card="c1", to="library")
    assert t.card("c1").named_as == "Lightning Bolt" and t.card("c1").owner is None
    t.draw(BOB)
    assert t.card("c1").owner == BOB and t.card("c1").named_as == "Lightning Bolt"
    err = t.refused(BOB, errors.AlreadyNamed, type="name", card="c1", name="Chain Lightning")
    assert err.rule == "704.4"
    t.refused(BOB, errors.AlreadyNamed, type="move", card="c1", to="stack", name="Chain Lightning")
    e = t.do(BOB, type="name", card="c1", name="lightning bolt")  # its own name: harmless
    assert e.data["naming"] is None
    t.do(BOB, type="move", card="c1", to="stack")  # already named: casting needs no new name
    assert t.names() == [("Lightning Bolt", "c1", ANA, None)]


def test_a_player_names_only_cards_they_own_or_control(finder):
    t = Table(finder, "Shock")
    t.draw(ANA)
    t.refused(BOB, errors.WrongNamer, type="name", card="c1", name="Lightning Bolt")
    e = t.do(None, judge=True, type="name", card="c1", name="Lightning Bolt")
    assert t.names() == [("Lightning Bolt", "c1", ANA, None)] and e.player is None


# -- 705.1–705.3 when to name ---------------------------------------------------------
def test_casting_a_card_from_a_hand_names_it_in_the_same_step(finder):
    # 705.1 example: a player casts Shock from their hand, naming a {R} card of it.
    t = Table(finder, "Lightning Bolt")
    t.draw(ANA)
    err = t.refused(ANA, errors.NameRequired, type="move", card="c1", to="stack")
    assert err.rule == "705.1" and err.code == "name_required"
    e = t.cast(ANA, "c1", "Shock")
    assert e.rule == "705.1" and e.data["naming"] == {"name": "Shock", "player": ANA, "rule": "705.1",
                                                       "exception": None}
    assert (t.card("c1").zone, t.card("c1").controller) == ("stack", ANA)


def test_casting_the_top_card_of_a_continuously_revealed_library_names_it(finder):
    # 705.1 example: Shock cast from the library (Future Sight).
    t = Table(finder, "Lightning Bolt", "Savannah Lions")
    t.do(ANA, type="reveal", count=1, player=ANA, continuous=True)
    t.refused(ANA, errors.NameRequired, type="move", card="c1", to="stack")
    t.do(ANA, type="move", card="c1", to="stack", name="Shock")
    assert (t.card("c1").owner, t.card("c1").named_as, t.card("c1").revealed) == (ANA, "Shock", False)


def test_an_unnamed_card_leaving_a_hand_face_up_is_named_first(finder):
    # 705.2 example: a discarded card.
    t = Table(finder, "Lightning Bolt")
    t.draw(ANA)
    assert t.refused(ANA, errors.NameRequired, type="move", card="c1", to="graveyard").rule == "705.2"
    assert t.refused(ANA, errors.NameRequired, type="move", card="c1", to="exile").rule == "705.2"
    t.do(ANA, type="move", card="c1", to="graveyard", name="Shock")
    assert t.card("c1").named_as == "Shock"


def test_hidden_moves_and_exile_from_the_library_need_no_name(finder):
    t = Table(finder, "Lightning Bolt", "Shock", "Savannah Lions")
    t.do(ANA, type="move", card="c1", to="hand")  # library -> hand
    t.do(ANA, type="move", card="c1", to="library", position="bottom")  # hand -> library
    t.do(ANA, type="move", card="c2", to="exile")  # exiled face up from the library
    t.draw(ANA)
    t.do(ANA, type="move", card="c3", to="exile", face_down=True)  # exiled face down from a hand
    assert t.names() == [] and t.card("c2").owner == ANA


def test_a_card_played_face_down_from_a_visible_zone_is_named(finder):
    # 705.1: "play it face down from a visible zone"; from a hand, no name is needed.
    t = Table(finder, "Lightning Bolt", "Shock")
    t.do(ANA, type="move", card="c1", to="exile")
    err = t.refused(ANA, errors.NameRequired, type="move", card="c1", to="battlefield", face_down=True)
    assert err.rule == "705.1"
    t.do(ANA, type="move", card="c1", to="battlefield", face_down=True, name="Goblin Taskmaster")
    t.draw(ANA)
    t.morph(ANA, "c2")
    assert t.card("c2").named_as is None and t.card("c2").face_down


def test_a_card_put_face_up_into_a_graveyard_cant_be_face_down(finder):
    t = Table(finder, "Shock")
    err = t.refused(ANA, errors.InvalidInput, type="move", card="c1", to="graveyard", face_down=True)
    assert "face_down" in err.fields


# -- 705.4 turning face up -------------------------------------------------------------
def test_a_face_down_five_mana_blue_card_turned_up_by_morph_is_one_of_the_morph_cards(finder):
    # 705.4 example: a face-down {3}{U}{U} card: Vesuvan Shapeshifter, Whip-Spine Drake or Mistform Shrieker.
    t = Table(finder, "Air Elemental")
    t.draw(ANA)
    t.morph(ANA, "c1")
    choice = face_up_options(t.state, t.setup, finder, "c1", "morph")
    assert {"Vesuvan Shapeshifter", "Whip-Spine Drake", "Mistform Shrieker"} <= set(choice.free)
    assert all(finder.pool.lookup(n).front.has_keyword("Morph") for n in choice.free)
    assert not choice.exception and not choice.loses
    non_morph = next(n.name for n in finder.candidates(printed=finder.pool.lookup("Air Elemental")).candidates
                     if not n.face.has_keyword("Morph"))
    err = t.refused(ANA, errors.NotACandidate, type="turn_face_up", card="c1", name=non_morph, via="morph")
    assert err.rule == "705.4"
    assert t.refused(ANA, errors.NameRequired, type="turn_face_up", card="c1", via="morph").rule == "705.4"
    e = t.do(ANA, type="turn_face_up", card="c1", name="Vesuvan Shapeshifter", via="morph")
    assert e.rule == "705.4" and e.data["naming"]["exception"] is None
    assert not t.card("c1").face_down and t.card("c1").named_as == "Vesuvan Shapeshifter"


def test_a_face_down_red_morph_that_dies_must_be_the_last_red_morph_name_left(finder):
    # 705.4 example: a face-down {R} card played with morph dies once Warbreak Trumpeter is named: it is
    # Goblin Taskmaster. In the snapshot these are the only {R} cards with Morph (Kolaghan Stormsinger has
    # Megamorph, another filter), so the seed's situation holds without taking other names first.
    bolt = finder.pool.lookup("Lightning Bolt")
    assert [n.name for n in finder.candidates(printed=bolt, keyword="morph").candidates] == [
        "Goblin Taskmaster", "Warbreak Trumpeter"]
    t = Table(finder, "Shock", "Lightning Bolt")
    t.draw(BOB)
    t.cast(BOB, "c1", "Warbreak Trumpeter")
    t.draw(ANA)
    t.morph(ANA, "c2")
    t.refused(BOB, errors.WrongNamer, type="move", card="c2", to="graveyard")  # its controller names it
    assert t.refused(ANA, errors.NameRequired, type="move", card="c2", to="graveyard").rule == "705.4"
    assert t.refused(ANA, errors.NameTaken, type="move", card="c2", to="graveyard",
                     name="Warbreak Trumpeter").rule == "704.2"
    e = t.do(ANA, type="move", card="c2", to="graveyard", name="Goblin Taskmaster")
    assert e.data["naming"] == {"name": "Goblin Taskmaster", "player": ANA, "rule": "705.4", "exception": None}
    c = t.card("c2")
    assert (c.zone, c.face_down, c.named_as, c.face_down_seq) == ("graveyard", False, "Goblin Taskmaster", None)


def test_a_face_down_permanent_bounced_to_a_hand_is_revealed_and_named(finder):
    # CR 708.9 reveals a face-down permanent that leaves the battlefield: it is named as if turned face up.
    t = Table(finder, "Lightning Bolt")
    t.draw(ANA)
    t.morph(ANA, "c1")
    assert t.refused(ANA, errors.NameRequired, type="move", card="c1", to="hand").rule == "705.4"
    t.do(ANA, type="move", card="c1", to="hand", name="Goblin Taskmaster")
    assert t.card("c1").named_as == "Goblin Taskmaster" and not t.card("c1").face_down


def test_an_opponents_root_elemental_named_since_lets_the_face_down_card_be_root_elemental_too(finder):
    # 705.4a example: the face-down {4}{G}{G} morph dies after an opponent named Root Elemental, the only
    # {4}{G}{G} card with Morph in the snapshot: 704.2 is ignored and the card is Root Elemental as well.
    wurm = finder.pool.lookup("Craw Wurm")
    assert [n.name for n in finder.candidates(printed=wurm, keyword="morph").candidates] == ["Root Elemental"]
    t = Table(finder, "Craw Wurm", "Craw Wurm")
    t.draw(ANA)
    t.morph(ANA, "c1")
    t.draw(BOB)
    t.cast(BOB, "c2", "Root Elemental")
    choice = face_up_options(t.state, t.setup, finder, "c1")
    assert choice.via == "morph" and choice.free == () and choice.window == ("Root Elemental",)
    assert choice.exception and not choice.loses
    assert t.refused(ANA, errors.NameRequired, type="move", card="c1", to="graveyard").rule == "705.4"
    e = t.do(ANA, type="move", card="c1", to="graveyard", name="Root Elemental")
    assert e.rule == "705.4a" and e.data["naming"]["exception"] == "705.4a"
    assert t.names() == [("Root Elemental", "c2", BOB, None), ("Root Elemental", "c1", ANA, "705.4a")]


def test_names_taken_before_the_card_went_face_down_are_outside_the_705_4a_window(finder):
    # D6: Warbreak Trumpeter was taken before the morph, Goblin Taskmaster after, by an opponent.
    # (No other {4}{G}{G} morph exists, so the window is shown on the {R} morphs.)
    t = Table(finder, "Shock", "Lightning Bolt", "Shock")
    t.draw(BOB)
    t.cast(BOB, "c1", "Warbreak Trumpeter")
    t.draw(ANA)
    t.morph(ANA, "c2")
    t.draw(BOB)
    t.cast(BOB, "c3", "Goblin Taskmaster")
    choice = face_up_options(t.state, t.setup, finder, "c2")
    assert choice.window == ("Goblin Taskmaster",) and choice.exception
    err = t.refused(ANA, errors.NameTaken, type="turn_face_up", card="c2", name="Warbreak Trumpeter")
    assert "705.4a allows only" in err.message
    e = t.do(ANA, type="turn_face_up", card="c2", name="Goblin Taskmaster", via="morph")
    assert e.rule == "705.4a" and e.data["naming"]["exception"] == "705.4a"


def test_a_player_whose_face_down_card_has_no_legal_name_left_loses_the_game(finder):
    # D8: every {R} morph name is gone, none taken by an opponent since: no exception, the player loses.
    t = Table(finder, "Shock", "Lightning Bolt", "Shock")
    t.draw(BOB)
    t.cast(BOB, "c1", "Warbreak Trumpeter")  # before: outside the window
    t.draw(ANA, 2)
    t.morph(ANA, "c2")
    t.cast(ANA, "c3", "Goblin Taskmaster")  # since, but by Ana herself: not an opponent
    choice = face_up_options(t.state, t.setup, finder, "c2")
    assert not choice.exception and choice.loses
    err = t.refused(ANA, errors.NameTaken, type="turn_face_up", card="c2", name="Goblin Taskmaster")
    assert "D8" in err.message
    e = t.do(ANA, type="turn_face_up", card="c2", via="morph")
    # the loss, and (multiplayer rules: a player who loses leaves the game) what Ana owns leaves with her
    assert e.rule == "705.4a" and e.data["game_loss"] == {"player": ANA, "rule": "705.4a", "why": "own_side",
                                                         "removed": ["c2", "c3"],
                                                         "exiled": [], "released": []}
    c = t.card("c2")
    assert (c.face_down, c.named_as, c.zone) == (False, None, "removed")
    assert t.state.players[ANA].status == "lost" and t.state.players[ANA].rule == "705.4a"
    t.refused(ANA, errors.PlayerOutOfGame, type="draw", player=ANA, count=1)


def test_a_card_whose_names_were_all_taken_before_it_went_face_down_loses_the_game(finder):
    t = Table(finder, "Craw Wurm", "Craw Wurm")
    t.draw(BOB)
    t.cast(BOB, "c1", "Root Elemental")
    t.draw(ANA)
    t.morph(ANA, "c2")
    e = t.do(ANA, type="move", card="c2", to="graveyard")
    assert e.data["game_loss"] == {"player": ANA, "rule": "705.4a", "why": "taken_before", "removed": ["c2"],
                                   "exiled": [], "released": []}
    assert t.card("c2").named_as is None and t.card("c2").zone == "removed"  # it left the game with Ana
    assert t.state.players[BOB].status == "in_game"


@pytest.mark.parametrize(("namer", "exception"), [(CID, False), (BOB, True)])
def test_in_team_games_only_the_other_teams_are_opponents(finder, namer, exception):
    # D7: Ana and Cid are one team; Bob and Dee the other.
    four = (Player(ANA, "Ana", "A"), Player(BOB, "Bob", "B"), Player(CID, "Cid", "A"), Player(DEE, "Dee", "B"))
    t = Table(finder, "Craw Wurm", "Craw Wurm", players=four)
    t.draw(ANA)
    t.morph(ANA, "c1")
    t.draw(namer)
    t.cast(namer, "c2", "Root Elemental")
    assert face_up_options(t.state, t.setup, finder, "c1").exception is exception


def test_manifested_cards_turned_face_up_by_manifest_are_named_as_creatures(finder):
    t = Table(finder, "Lightning Bolt", "Shock")
    t.draw(ANA)
    t.morph(ANA, "c1", via="manifest")
    err = t.refused(ANA, errors.NotACandidate, type="turn_face_up", card="c1", name="Shock")
    assert err.rule == "705.4"
    t.do(ANA, type="turn_face_up", card="c1", name="Goblin Guide")
    assert t.card("c1").named_as == "Goblin Guide"


def test_a_named_face_down_card_turned_face_up_keeps_its_name(finder):
    t = Table(finder, "Lightning Bolt", "Shock")
    t.do(ANA, type="move", card="c1", to="exile")
    t.do(ANA, type="move", card="c1", to="battlefield", face_down=True, name="Goblin Taskmaster", via="morph")
    t.refused(ANA, errors.AlreadyNamed, type="turn_face_up", card="c1", name="Warbreak Trumpeter")
    e = t.do(ANA, type="turn_face_up", card="c1", via="morph")
    assert "naming" not in e.data and t.card("c1").named_as == "Goblin Taskmaster"


def test_a_face_down_spell_resolves_and_changes_control_still_face_down(finder):
    t = Table(finder, "Lightning Bolt")
    t.draw(ANA)
    t.do(ANA, type="move", card="c1", to="stack", face_down=True, via="morph")
    seq = t.card("c1").face_down_seq
    t.do(ANA, type="move", card="c1", to="battlefield")
    t.do(None, judge=True, type="move", card="c1", to="battlefield", player=BOB)
    c = t.card("c1")
    assert (c.face_down, c.controller, c.owner, c.face_down_seq, c.face_down_by) == (True, BOB, ANA, seq, ANA)
    assert t.names() == []


def test_only_a_face_down_card_is_turned_face_up(finder):
    t = Table(finder, "Lightning Bolt")
    t.draw(ANA)
    assert t.refused(ANA, errors.FaceDownRefused, type="turn_face_up", card="c1", name="Shock").rule == "705.4"


# -- 705.7–705.11 -----------------------------------------------------------------------
def test_could_be_lists_the_unnamed_hand_cards_that_could_take_a_free_name(finder):
    # 705.11: Liar's Pendulum naming Lightning Bolt.
    t = Table(finder, "Shock", "Lightning Bolt", "Savannah Lions", "Fire // Ice", "Lightning Strike")
    t.draw(ANA, 3)
    t.draw(BOB, 2)
    assert could_be(t.state, t.setup, finder, ANA, "Lightning Bolt") == ["c1"]  # not itself, not {W}
    t.cast(BOB, "c5", "Fire")
    assert could_be(t.state, t.setup, finder, BOB, "Fire") == []  # taken: nothing is named
    t.do(ANA, type="name", card="c1", name="Lightning Bolt")
    assert could_be(t.state, t.setup, finder, ANA, "Lightning Bolt") == []
    with pytest.raises(errors.UnknownCard):
        could_be(t.state, t.setup, finder, ANA, "No Such Card")


@pytest.mark.parametrize(
    ("printed", "mana_value", "colours", "nonland"),
    [
        ("Shock", 1.0, ["R"], True),
        ("Fire // Ice", 4.0, ["U", "R"], True),
        ("Rise of the Hobgoblins", 2.0, ["W", "R"], True),
        ("Forest", 0, [], False),  # D13(b): not known to be nonland, a boolean in games (never null)
        ("Ornithopter", 0, [], True),  # {0} is a non-empty cost (705.9)
    ],
)
def test_printed_facts_need_no_naming(finder, printed, mana_value, colours, nonland):
    # 705.7 printed mana value, 705.8 colours of the printed symbols, 705.9 non-empty cost is nonland.
    facts = printed_facts(finder.pool.lookup(printed))
    assert (facts["mana_value"], facts["colours"], facts["nonland"]) == (mana_value, colours, nonland)
    assert type(facts["mana_value"]) is int and type(facts["nonland"]) is bool  # 1, never 1.0; never None


# -- leaving the game ------------------------------------------------------------------
def test_a_player_leaving_takes_what_they_own_and_exiles_what_they_only_control(finder):
    three = (*TWO, Player(CID, "Cid"))
    t = Table(finder, "Shock", "Savannah Lions", "Grizzly Bears", "Lightning Bolt", "Giant Growth", players=three)
    t.draw(ANA, 2)  # c1, c2
    t.draw(BOB)  # c3
    t.cast(ANA, "c1", "Lightning Bolt")
    t.do(ANA, type="move", card="c1", to="graveyard")
    t.do(BOB, type="move", card="c3", to="battlefield", name="Elvish Visionary")
    t.do(None, judge=True, type="move", card="c3", to="battlefield", player=ANA)  # Ana gains control
    t.do(ANA, type="reveal", count=1, player=ANA)  # c4 owned by Ana while revealed
    e = t.do(ANA, type="leave_game", player=ANA)
    assert e.rule == "800.4a"
    assert e.data == {"player": ANA, "removed": ["c1", "c2"], "exiled": ["c3"], "released": ["c4"]}
    assert [t.card(c).zone for c in ("c1", "c2", "c3", "c4")] == ["removed", "removed", "exile", "library"]
    assert (t.card("c3").owner, t.card("c3").controller) == (BOB, BOB)
    assert t.card("c4").owner is None and not t.card("c4").revealed
    assert t.state.players[ANA].status == "left"
    assert not visible_printed(t.state, "c2", BOB)  # it left from a hidden hand
    t.refused(ANA, errors.PlayerOutOfGame, type="draw", player=ANA, count=1)
    t.refused(None, errors.PlayerOutOfGame, judge=True, type="draw", player=ANA, count=1)
    t.refused(BOB, errors.CardLeftGame, type="move", card="c1", to="hand")
    t.refused(ANA, errors.PlayerOutOfGame, type="leave_game", player=ANA)
    t.refused(BOB, errors.Forbidden, type="leave_game", player=CID)


# -- visibility -------------------------------------------------------------------------
def test_who_may_see_a_printed_card(finder):
    t = Table(finder, "Shock", "Savannah Lions", "Lightning Bolt")
    t.draw(ANA, 2)
    t.morph(ANA, "c2")
    t.cast(ANA, "c1", "Lightning Bolt")
    # hand: its holder; face down: its controller; face up: everybody; library: nobody; judge: always
    t.draw(BOB)
    seen = {cid: (visible_printed(t.state, cid, ANA), visible_printed(t.state, cid, BOB))
            for cid in ("c1", "c2", "c3")}
    assert seen == {"c1": (True, True), "c2": (True, False), "c3": (False, True)}
    t2 = Table(finder, "Shock")
    assert not visible_printed(t2.state, "c1", ANA) and visible_printed(t2.state, "c1", None, is_judge=True)


# -- events, replay and undo ---------------------------------------------------------------
def test_undo_gives_back_exactly_the_state_before_each_event(finder):
    t = Table(finder, "Shock", "Lightning Bolt", "Craw Wurm", "Craw Wurm")
    snapshots = [t.state.snapshot()]
    t.draw(ANA, 2)
    snapshots.append(t.state.snapshot())
    t.cast(ANA, "c1", "Lightning Bolt")
    snapshots.append(t.state.snapshot())
    t.morph(ANA, "c2")
    snapshots.append(t.state.snapshot())
    t.do(ANA, type="turn_face_up", card="c2", name="Goblin Taskmaster")
    events = list(t.events)
    assert replay(t.setup, events).snapshot() == t.state.snapshot()
    while events:
        events, state = undo(t.setup, events)
        assert state.snapshot() == snapshots[len(events)]
    with pytest.raises(errors.NothingToUndo):
        undo(t.setup, [])


def test_folding_an_event_leaves_the_earlier_state_untouched(finder):
    t = Table(finder, "Shock")
    before = t.state
    snap = before.snapshot()
    t.draw(ANA)
    assert before.snapshot() == snap and t.state.seq == 1


def test_events_and_setups_round_trip_through_plain_dicts(finder):
    t = Table(finder, "Shock", "Lightning Bolt")
    t.draw(ANA)
    t.cast(ANA, "c1", "Lightning Bolt")
    for e in t.events:
        assert Event.from_dict(e.to_dict()) == e
    assert [e.seq for e in t.events] == [1, 2] and t.events[0].at == "2026-11-21T20:00:00Z"
    assert GameSetup.from_dict(t.setup.to_dict()) == t.setup


# -- malformed actions ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("action", "error", "field"),
    [
        ({"type": "mulligan"}, errors.InvalidInput, "type"),
        ({"type": "move", "to": "hand"}, errors.InvalidInput, "card"),
        ({"type": "move", "card": "c1", "to": "sideboard"}, errors.InvalidInput, "to"),
        ({"type": "move", "card": "c1", "to": "hand", "position": "top"}, errors.InvalidInput, "position"),
        ({"type": "move", "card": "c1", "to": "library", "position": "middle"}, errors.InvalidInput, "position"),
        ({"type": "move", "card": "c1", "to": "hand", "face_down": "yes"}, errors.InvalidInput, "face_down"),
        ({"type": "move", "card": "c1", "to": "hand", "player": "zed"}, errors.InvalidInput, "player"),
        ({"type": "turn_face_up", "card": "c1", "via": "magic"}, errors.InvalidInput, "via"),
        ({"type": "draw", "player": ANA, "count": 0}, errors.InvalidInput, "count"),
        ({"type": "draw", "player": ANA, "count": True}, errors.InvalidInput, "count"),
        ({"type": "reveal", "player": ANA}, errors.InvalidInput, "cards"),
        ({"type": "reveal", "player": ANA, "cards": ["c1"], "count": 1}, errors.InvalidInput, "cards"),
        ({"type": "name", "card": "c1"}, errors.InvalidInput, "name"),
        ({"type": "move", "card": "c99", "to": "hand"}, errors.UnknownGameCard, "card"),
    ],
)
def test_malformed_actions_are_refused_field_by_field(finder, action, error, field):
    t = Table(finder, "Shock")
    err = t.refused(ANA, error, **action)
    assert field in err.fields


def test_an_unknown_actor_is_forbidden(finder):
    t = Table(finder, "Shock")
    t.refused("zed", errors.Forbidden, type="draw", count=1)
    t.refused(None, errors.Forbidden, type="draw", count=1)


def test_a_setup_with_unknown_cards_or_duplicate_ids_is_invalid(finder):
    bad = GameSetup("vintage", TWO, (("x", "Shock"), ("x", "Not A Card")))
    with pytest.raises(errors.InvalidInput) as info:
        check_setup(bad, finder.pool)
    assert "library" in info.value.fields


def test_opponents_are_every_other_player_without_teams():
    setup = make_setup("Shock", players=(*TWO, Player(CID, "Cid")))
    assert setup.opponents(ANA) == {BOB, CID}


# -- a face-down card put into the library (found by Hypothesis) ----------------------------
def test_a_face_down_card_put_into_the_library_with_no_name_left_loses_and_stays_in_the_library(finder):
    # D12 (widened by issue 21): into the library too, a face-down card is revealed and named under
    # 705.4; a {W} morph has no morph name left, so Ana loses (D8) and leaves (D9). Regression: the
    # card itself went on top of the library *and* was removed with her (library ['c1', 'c3'] while
    # c1 was `removed`): nobody owns it there (702.2a), so it stays.
    t = Table(finder, "Savannah Lions", "Shock", "Craw Wurm")
    t.draw(ANA, 2)
    t.morph(ANA, "c1")
    e = t.do(None, judge=True, type="move", card="c1", to="library")
    assert e.data["game_loss"]["player"] == ANA and "naming" not in e.data and e.data["revealed"] == "D12"
    c = t.card("c1")
    assert (c.zone, c.owner, c.face_down, c.named_as, c.face_down_seq) == ("library", None, False, None, None)
    assert t.state.library == ["c1", "c3"] and t.state.players[ANA].status == "lost"
    assert t.card("c2").zone == "removed"  # her hand leaves with her
    assert replay(t.setup, t.events).snapshot() == t.state.snapshot()
