"""Commander games in the core (#10, D14): the setup's commanders, the namer's identity on every
naming (903.5c), the command zone (903.8, 903.9a/b) and commander damage (903.10a), folded and
replayed like every event. The core tier: Krenko, Mob Boss is in tests/minipool.py."""

from __future__ import annotations

import pytest
from test_ledger import ANA, BOB, CID, TWO, Table, make_setup

from mentalmagic import errors
from mentalmagic.game import GameSetup, Player, check_setup, replay, undo
from mentalmagic.naming import Naming
from mentalmagic.views import face_up_options

KRENKO = "Krenko, Mob Boss"


@pytest.fixture(scope="module")
def finder(mini_finder):
    return mini_finder


class CommanderTable(Table):
    """A commander game: each player's Krenko (k-ana, k-bob...) in the command zone."""

    def __init__(self, finder, *printed: str, players=TWO):
        super().__init__(finder, *printed, players=players)
        base = make_setup(*printed, players=players, fmt="commander")
        self.setup = GameSetup(base.format, base.players, base.library, base.options,
                               commanders=tuple((f"k-{p.id}", KRENKO, p.id) for p in players))
        check_setup(self.setup, finder.pool)
        self.state = replay(self.setup, [])


def test_a_commander_starts_in_the_command_zone_owned_by_its_player_and_survives_a_round_trip(finder):
    t = CommanderTable(finder, "Shock")
    k = t.card("k-ana")
    assert (k.zone, k.owner, k.controller, k.face_down, k.commander_of) == ("command", ANA, ANA, False, ANA)
    assert t.state.library == ["c1"]  # not in the library
    assert GameSetup.from_dict(t.setup.to_dict()) == t.setup
    plain = make_setup("Shock")
    assert "commanders" not in plain.to_dict() and GameSetup.from_dict(plain.to_dict()).commanders == ()


def test_commander_card_ids_are_new_and_commanders_are_known_cards_of_players(finder):
    base = make_setup("Shock")
    setup = GameSetup(base.format, base.players, base.library, commanders=(("c1", KRENKO, ANA),))
    with pytest.raises(errors.InvalidInput):
        check_setup(setup, finder.pool)
    for commander in (("k1", KRENKO, "nobody"), ("k1", "No Such Card", ANA)):
        with pytest.raises(errors.InvalidInput) as info:
            check_setup(GameSetup(base.format, base.players, base.library, commanders=(commander,)), finder.pool)
        assert "commanders" in info.value.fields


def test_every_naming_is_checked_within_the_namers_identity(finder):
    t = CommanderTable(finder, "Mana Drain", "Shock")
    t.draw(ANA, 2)
    err = t.refused(ANA, errors.NotACandidate, type="move", card="c1", to="stack", name="Counterspell")
    assert err.rule == "903.5c" and "Krenko, Mob Boss's is {R}" in err.message
    t.refused(ANA, errors.NotACandidate, type="name", card="c1", name="Counterspell")
    t.cast(ANA, "c2", "Lightning Bolt")  # red within red
    naming = Naming.for_game(t.setup, finder)
    identity, whose = naming.identity(ANA)
    assert (identity, str(whose)) == (frozenset("R"), "Krenko, Mob Boss's") and naming.identity(None)[0] is None


def test_outside_a_commander_game_nobody_names_within_an_identity(finder):
    t = Table(finder, "Mana Drain")
    t.draw(ANA)
    t.cast(ANA, "c1", "Counterspell")


def test_a_face_down_card_with_only_blue_morph_names_loses_the_red_players_game_d8(finder):
    # {3}{U}{U}: the morph names of that cost are blue; under Krenko none is left (705.4a, D8)
    t = CommanderTable(finder, "Air Elemental")
    t.draw(ANA)
    t.morph(ANA, "c1")
    choice = face_up_options(t.state, t.setup, finder, "c1", "morph")
    assert choice.legal == () and choice.loses
    e = t.do(ANA, type="turn_face_up", card="c1", via="morph")
    assert e.data["game_loss"]["rule"] == "705.4a" and t.state.players[ANA].status == "lost"


def test_casts_from_the_command_zone_and_damage_are_folded_replayed_and_undone(finder):
    players = (*TWO, Player(CID, "Cid"))
    t = CommanderTable(finder, "Shock", players=players)
    t.do(ANA, type="move", card="k-ana", to="stack")
    t.do(ANA, type="move", card="k-ana", to="battlefield")
    t.do(ANA, type="move", card="k-ana", to="exile")
    assert t.do(ANA, type="move", card="k-ana", to="command").rule == "903.9a"
    second = t.do(ANA, type="move", card="k-ana", to="stack")
    assert second.data["commander_cast"] == {"player": ANA, "count": 2, "tax": "{2}"}
    assert t.state.players[ANA].commander_casts == {"k-ana": 2}
    t.do(ANA, type="move", card="k-ana", to="battlefield")
    t.do(CID, type="move", card="k-cid", to="stack")
    t.do(CID, type="move", card="k-cid", to="battlefield")
    t.do(ANA, type="commander_damage", player=BOB, commander="k-ana", amount=20)
    t.do(CID, type="commander_damage", player=BOB, commander="k-cid", amount=20)
    assert t.state.players[BOB].in_game
    before = t.state.snapshot()
    lost = t.do(BOB, type="commander_damage", player=BOB, commander="k-ana", amount=1)
    assert lost.rule == "903.10a" and t.state.players[BOB].status == "lost"
    assert t.card("k-bob").zone == "removed"  # what Bob owns leaves with him (D9)
    assert replay(t.setup, t.events).snapshot() == t.state.snapshot()
    assert undo(t.setup, t.events)[1].snapshot() == before


def test_only_a_commander_goes_to_the_command_zone_by_its_owners_choice(finder):
    t = CommanderTable(finder, "Shock")
    t.draw(ANA)
    t.cast(ANA, "c1", "Lightning Bolt")
    t.do(ANA, type="move", card="c1", to="graveyard")
    assert t.refused(ANA, errors.CommanderRefused, type="move", card="c1", to="command").rule == "903.9a"
    t.do(ANA, type="move", card="k-ana", to="stack")
    t.do(ANA, type="move", card="k-ana", to="battlefield")
    t.do(BOB, type="move", card="k-ana", to="graveyard")
    t.refused(BOB, errors.CommanderRefused, type="move", card="k-ana", to="command")
    t.do(None, judge=True, type="move", card="k-ana", to="command")  # the judge records Ana's choice


def test_commander_damage_is_refused_for_a_player_out_of_the_game_or_a_card_that_is_not_a_commander(finder):
    t = CommanderTable(finder, "Shock")
    t.draw(ANA)
    assert t.refused(ANA, errors.CommanderRefused, type="commander_damage", player=BOB, commander="c1",
                     amount=2).rule == "903.10a"
    t.refused(ANA, errors.InvalidInput, type="commander_damage", player="nobody", commander="k-ana", amount=2)
    t.do(ANA, type="move", card="k-ana", to="stack")
    t.do(ANA, type="move", card="k-ana", to="battlefield")
    t.do(BOB, type="leave_game")
    t.refused(ANA, errors.PlayerOutOfGame, type="commander_damage", player=BOB, commander="k-ana", amount=2)


@pytest.mark.parametrize("way", [(), ("stack",), ("stack", "battlefield", "graveyard"),
                                 ("stack", "battlefield", "hand")])
def test_only_a_commander_on_the_battlefield_deals_commander_damage_903_10a(finder, way):
    """903.10a counts combat damage: a commander in the command zone, on the stack (cast, not yet
    resolved), in a graveyard or a hand deals none; refused with the rule, nothing recorded."""
    t = CommanderTable(finder, "Shock")
    for zone in way:
        t.do(ANA, type="move", card="k-ana", to=zone)
    err = t.refused(ANA, errors.CommanderRefused, type="commander_damage", player=BOB, commander="k-ana", amount=10)
    assert err.rule == "903.10a" and err.said.code == "commander_damage.not_on_battlefield"
    assert t.state.players[BOB].commander_damage == {}


def test_a_commander_cast_and_not_resolved_never_ends_a_player_the_judges_10_then_11(finder):
    """Issue 35: Krenko cast, not resolved, 10 then 11 recorded: Ben lost by 903.10a. Now both are
    refused; once Krenko resolves, the same two end Bob's game."""
    t = CommanderTable(finder, "Shock")
    t.do(ANA, type="move", card="k-ana", to="stack")
    for amount in (10, 11):
        t.refused(ANA, errors.CommanderRefused, type="commander_damage", player=BOB, commander="k-ana",
                  amount=amount)
    assert t.state.players[BOB].in_game
    t.do(ANA, type="move", card="k-ana", to="battlefield")
    t.do(ANA, type="commander_damage", player=BOB, commander="k-ana", amount=10)
    lost = t.do(ANA, type="commander_damage", player=BOB, commander="k-ana", amount=11)
    assert lost.data["game_loss"]["rule"] == "903.10a" and t.state.players[BOB].status == "lost"
