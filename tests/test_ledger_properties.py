"""Properties of the ledger over random action sequences: undo, replay, and one card per name (704.2)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import PLAYERS, SETUP, commands

from mentalmagic.actions import decide
from mentalmagic.commands import Draw, Move, TurnFaceUp
from mentalmagic.errors import ArbiterError
from mentalmagic.game import Event, GameSetup, GameState, replay, undo
from mentalmagic.names import fold
from mentalmagic.views import face_up_options
from mentalmagic.zones import HIDDEN_ZONES, LIBRARY

pytestmark = pytest.mark.fuzz


@pytest.fixture(scope="module")
def finder(mini_finder):
    """The core tier: every card these properties play is in tests/minipool.py."""
    return mini_finder


SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(data, finder, steps: int, snapshots: list | None = None):
    """Play ``steps`` random actions; keep the accepted events, and in ``snapshots`` when given the
    snapshot before each (a snapshot costs as much as the step it follows: only undo needs them)."""
    state = GameState.initial(SETUP)
    events: list[Event] = []
    if snapshots is not None:
        snapshots.append(state.snapshot())
    for pid in ("ana", "bob", "cid"):  # everyone starts with a hand
        e = decide(state, SETUP, finder, Draw(count=3), pid)
        state = state.apply_event(e)
        events.append(e)
        if snapshots is not None:
            snapshots.append(state.snapshot())
    for _ in range(steps):
        actor, judge, command = data.draw(commands(state, finder))
        try:
            e = decide(state, SETUP, finder, command, actor, judge)
        except ArbiterError:
            continue  # refused: nothing is appended (any other exception fails the test)
        assert e.seq == len(events) + 1
        state = state.apply_event(e)
        events.append(e)
        if snapshots is not None:
            snapshots.append(state.snapshot())
        check_invariants(state)
    return state, events


def check_invariants(state: GameState) -> None:
    assert state.library == [c for c in state.library if state.cards[c].zone == LIBRARY]
    assert sorted(state.library) == sorted(c.id for c in state.cards.values() if c.zone == LIBRARY)
    for c in state.cards.values():
        if c.zone == LIBRARY:
            assert c.controller is None and not c.face_down and not c.pentaland
            assert c.owner == c.library_owner  # 702.2a–702.2c
        else:
            assert c.owner is not None  # 702.2: a card leaving the library always gets an owner
        if c.pentaland:  # 703.7, 703.8; never named while it is one (a name from before stays, D10)
            assert c.face_down and c.zone not in HIDDEN_ZONES
            assert c.named_as is None or all(r.seq <= c.face_down_seq for r in state.names.records() if r.card == c.id)


def check_one_card_per_name(state: GameState) -> None:
    """704.2: two cards share a name only through a recorded 705.4a exception."""
    for rec_list in state.names.snapshot().values():
        plain = [r for r in rec_list if r["exception"] is None]
        assert len(plain) <= 1
        assert all(r["exception"] == "705.4a" for r in rec_list if r["exception"])
        assert len({r["card"] for r in rec_list}) == len(rec_list)  # 704.4: a card is named once
    named = Counter(fold(c.named_as) for c in state.cards.values() if c.named_as)
    for key, n in named.items():
        excepted = sum(1 for r in state.names.snapshot()[key] if r["exception"])
        assert n <= 1 + excepted


@SETTINGS
@given(data=st.data())
def test_undoing_each_event_gives_back_every_earlier_snapshot(finder, data):
    snapshots = []
    state, events = play(data, finder, data.draw(st.integers(5, 40)), snapshots)
    while events:
        events, back = undo(SETUP, events)
        assert back.snapshot() == snapshots[len(events)]


@SETTINGS
@given(data=st.data())
def test_replaying_the_log_gives_the_live_state_even_through_json(finder, data):
    state, events = play(data, finder, data.draw(st.integers(5, 40)))
    assert replay(SETUP, events).snapshot() == state.snapshot()
    stored = [Event.from_dict(json.loads(json.dumps(e.to_dict()))) for e in events]
    assert stored == events
    assert replay(GameSetup.from_dict(json.loads(json.dumps(SETUP.to_dict()))), stored).snapshot() == state.snapshot()


@SETTINGS
@given(data=st.data())
def test_no_two_cards_share_a_name_outside_a_705_4a_exception(finder, data):
    state, _ = play(data, finder, data.draw(st.integers(5, 40)))
    check_one_card_per_name(state)


RED_MORPHS = ("Goblin Taskmaster", "Warbreak Trumpeter")  # every {R} card with Morph in the snapshot


@SETTINGS
@given(takes=st.lists(st.tuples(st.sampled_from(RED_MORPHS), st.sampled_from(["before", "after"]),
                                st.sampled_from(["ana", "bob", "cid"])),
                      max_size=2, unique_by=lambda t: t[0]))
def test_a_red_morph_turned_face_up_follows_705_4a_and_d8(finder, takes):
    """Oracle for 705.4, 705.4a (D6, D7) and D8 on Ana's face-down {R} morph, whatever names went when."""
    setup = GameSetup("vintage", PLAYERS, (("m", "Lightning Bolt"), ("s1", "Shock"), ("s2", "Shock")))
    state = GameState.initial(setup)

    def do(actor, command):
        nonlocal state
        state = state.apply_event(decide(state, setup, finder, command, actor))

    do("ana", Move(card="m", to="hand"))
    shocks = iter(("s1", "s2"))
    for when in ("before", "after"):
        if when == "after":
            do("ana", Move(card="m", to="battlefield", face_down=True, via="morph"))
        for name, moment, who in takes:
            if moment == when:
                shock = next(shocks)
                do(who, Move(card=shock, to="hand", player=who))
                do(who, Move(card=shock, to="stack", name=name))
    taken = {name for name, _, _ in takes}
    free = [n for n in RED_MORPHS if n not in taken]
    window = [n for n, moment, _ in takes if moment == "after"]
    exception = not free and bool(window) and any(who != "ana" for _, moment, who in takes if moment == "after")
    choice = face_up_options(state, setup, finder, "m")
    assert (tuple(choice.free), choice.exception) == (tuple(free), exception)
    for name, moment, _ in takes:
        if not (exception and moment == "after"):  # a name taken outside the exception stays refused
            try:
                decide(state, setup, finder, TurnFaceUp(card="m", name=name), "ana")
            except ArbiterError as err:
                assert err.rule == "704.2"
            else:
                raise AssertionError(f"{name} should be refused")
    pick = free[0] if free else window[0] if exception else None
    e = decide(state, setup, finder, Move(card="m", to="graveyard", name=pick), "ana")
    state = state.apply_event(e)
    if pick:
        assert state.cards["m"].named_as == pick and "game_loss" not in e.data
        assert e.data["naming"]["exception"] == ("705.4a" if not free else None)
    else:
        assert (e.data["game_loss"]["player"], e.data["game_loss"]["rule"]) == ("ana", "705.4a")
        assert state.players["ana"].status == "lost" and state.cards["m"].named_as is None
    check_one_card_per_name(state)
