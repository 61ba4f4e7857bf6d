"""The ledger as a state machine: typed commands by players and the judge, refused or folded, and
undo; after every step the invariants of the ledger hold."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from strategies import SETUP, commands

from mentalmagic.actions import decide
from mentalmagic.commands import Draw
from mentalmagic.errors import ArbiterError
from mentalmagic.game import Event, Game, GameState, replay, undo
from mentalmagic.handles import viewer
from mentalmagic.names import fold
from mentalmagic.permissions import JUDGE, Caller
from mentalmagic.views import event_view, game_view
from mentalmagic.zones import HAND, HIDDEN_ZONES, LIBRARY, REMOVED

pytestmark = pytest.mark.fuzz

OUTCOMES: Counter[str] = Counter()  # across the whole run: both kinds must happen for the test to mean much


class Ledger(RuleBasedStateMachine):
    finder = None  # the session's finder, set by the test

    def __init__(self):
        super().__init__()
        self.state = GameState.initial(SETUP)
        self.events: list[Event] = []
        self.snapshots = [self.state.snapshot()]  # the state before each event, and the live one last

    def _append(self, e: Event) -> None:
        assert e.seq == len(self.events) + 1
        self.state = self.state.apply_event(e)
        self.events.append(e)
        self.snapshots.append(self.state.snapshot())

    @initialize()
    def deal(self):
        for p in SETUP.players:  # everyone starts with a hand
            self._append(decide(self.state, SETUP, self.finder, Draw(count=3), p.id))

    @rule(data=st.data())
    def act(self, data):
        actor, is_judge, command = data.draw(commands(self.state, self.finder))
        before = self.state.snapshot()
        try:
            e = decide(self.state, SETUP, self.finder, command, actor, is_judge)
        except ArbiterError as err:
            assert self.state.snapshot() == before  # a refusal changes nothing
            event(f"refused {command.type}: {err.code}")
            OUTCOMES["refused"] += 1
            return
        event(f"accepted {command.type}")
        OUTCOMES["accepted"] += 1
        self._append(e)

    @precondition(lambda self: len(self.events) > len(SETUP.players))
    @rule()
    def take_back(self):
        self.events, self.state = undo(SETUP, self.events)
        self.snapshots.pop()
        assert self.state.snapshot() == self.snapshots[-1]  # exactly the state before the undone event
        OUTCOMES["undone"] += 1

    @invariant()
    def replay_gives_the_live_state(self):
        stored = [Event.from_dict(json.loads(json.dumps(e.to_dict()))) for e in self.events]
        assert replay(SETUP, stored).snapshot() == self.state.snapshot()

    @invariant()
    def no_name_is_held_twice_outside_705_4a(self):
        records = self.state.names.records()
        plain = Counter(r.key for r in records if r.exception is None)
        assert all(n == 1 for n in plain.values()), plain  # 704.2
        assert all(r.exception == "705.4a" for r in records if r.exception)
        named = Counter(fold(c.named_as) for c in self.state.cards.values() if c.named_as)
        for key, n in named.items():
            assert n <= 1 + sum(1 for r in records if r.key == key and r.exception), key
        assert len({r.card for r in records}) == len(records)  # 704.4: a card is named once

    @invariant()
    def nobody_sees_what_they_may_not(self):
        game = Game("g", SETUP, self.state, "")
        pool = self.finder.pool
        judge_view = {c["id"]: c for c in game_view(game, JUDGE, pool)["cards"]}
        assert all("printed" in c for c in judge_view.values())  # the judge sees every listed card
        for p in SETUP.players:
            shown = viewer(SETUP, self.state, Caller(p.id))  # a hidden card shows by a handle (D15)
            for seen in game_view(game, Caller(p.id), pool)["cards"]:
                c = self.state.cards[shown.resolve(seen["id"])]
                mine = p.id in c.looked_by
                if c.zone == LIBRARY:
                    assert c.revealed or mine, seen  # a hidden library card isn't even listed
                if "printed" not in seen or c.zone == REMOVED:
                    continue
                if c.zone == HAND:
                    assert c.owner == p.id or c.revealed or mine, seen
                elif c.face_down and c.zone not in HIDDEN_ZONES:
                    assert p.id in (c.controller, c.owner) or mine, seen
            for e in self.events:  # which physical card a judge recorded as drawn is the drawer's secret
                assert "printed" not in event_view(e, Caller(p.id))["data"]


def test_the_ledger_as_a_state_machine(finder):
    Ledger.finder = finder
    OUTCOMES.clear()
    run_state_machine_as_test(Ledger, settings=settings(max_examples=30, stateful_step_count=25, deadline=None))
    assert OUTCOMES["accepted"] and OUTCOMES["refused"] and OUTCOMES["undone"], OUTCOMES


def test_every_command_type_has_a_schema_a_handler_and_a_fold():
    from mentalmagic.actions import HANDLERS
    from mentalmagic.commands import ACTION_TYPES, COMMANDS
    from mentalmagic.game import FOLDS
    from mentalmagic.web.schemas import ACTIONS

    assert set(HANDLERS) == set(COMMANDS.values()) and set(FOLDS) == set(ACTION_TYPES) == set(ACTIONS)
    assert all(ACTIONS[kind].command is COMMANDS[kind] for kind in ACTION_TYPES)
