"""MageRing's names as a state machine (issue 25): a card that leaves the battlefield or the stack
drops its name and, back, is named anew; for any game the ledger machine plays under magering:

- each card's names are the registry's records of it, in order: the earlier ones kept, the current
  one last; a name once taken is never taken again (704.2, MageRing's "once per game");
- undo gives back exactly the state before, old names included, and replay is the live state;
- D15: a card hidden from a player shows them no name it had (in a hand or the library it holds
  none), and what they are shown is the same when two cards they never saw swap their printed
  identities: a card that went to a hidden zone and came back can't be followed through its names.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

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
from strategies import SETUP as PLAIN_SETUP
from strategies import commands, names_for
from test_ledger_handles_machine import swapped_unseen_cards_change_nothing

from mentalmagic.actions import decide
from mentalmagic.commands import Draw, Move
from mentalmagic.errors import ArbiterError
from mentalmagic.game import Event, Game, GameState, replay, undo
from mentalmagic.handles import sees, viewer
from mentalmagic.permissions import Caller
from mentalmagic.views import game_view
from mentalmagic.zones import BATTLEFIELD, HAND, HIDDEN_ZONES, STACK

pytestmark = pytest.mark.fuzz

SETUP = replace(PLAIN_SETUP, secret="a game's own secret", options={"rules": "magering"})
PLAYERS = [p.id for p in SETUP.players]
SEEN: Counter[str] = Counter()


class NamesAnew(RuleBasedStateMachine):
    finder = None  # the module's finder, set by the test

    def __init__(self):
        super().__init__()
        self.state = GameState.initial(SETUP)
        self.events: list[Event] = []
        self.states = [self.state]

    def _try(self, actor, is_judge, command) -> bool:
        before = self.state.snapshot()
        try:
            e = decide(self.state, SETUP, self.finder, command, actor, is_judge)
        except ArbiterError as err:
            assert self.state.snapshot() == before  # a refusal changes nothing
            event(f"refused {command.type}: {err.code} ({err.rule})")
            return False
        self.state = self.state.apply_event(e)
        self.events.append(e)
        self.states.append(self.state)
        if e.data.get("unnamed"):
            SEEN["a name dropped"] += 1
        if (e.data.get("naming") or {}) and self.state.cards[e.data["card"]].former_names:
            SEEN["named anew"] += 1
        return True

    @initialize()
    def deal(self):
        for pid in PLAYERS:
            self._try(pid, False, Draw(count=3))

    @rule(data=st.data())
    def act(self, data):
        self._try(*data.draw(commands(self.state, self.finder)))

    @precondition(lambda self: any(c.zone == HAND for c in self.state.cards.values()))
    @rule(data=st.data(), to=st.sampled_from([STACK, BATTLEFIELD]))
    def cast_from_a_hand(self, data, to):
        hand = sorted(cid for cid, c in self.state.cards.items() if c.zone == HAND)
        c = self.state.cards[data.draw(st.sampled_from(hand))]
        name = data.draw(st.sampled_from([*c.former_names, *names_for(self.finder, c.printed)]))
        self._try(c.owner, False, Move(card=c.id, to=to, name=name))

    @precondition(lambda self: any(c.named_as and c.zone in (STACK, BATTLEFIELD) for c in self.state.cards.values()))
    @rule(data=st.data(), to=st.sampled_from(["hand", "graveyard", "exile", "library"]))
    def return_a_named_card(self, data, to):
        """What the rule is about: a named card leaves, and comes back under a name of its own choice
        (its old one now and then: refused)."""
        named = sorted(cid for cid, c in self.state.cards.items() if c.named_as and c.zone in (STACK, BATTLEFIELD))
        c = self.state.cards[data.draw(st.sampled_from(named))]
        holder = c.holder
        if not self._try(holder, False, Move(card=c.id, to=to, **({"position": "top"} if to == "library" else {}))):
            return
        if to == "library":
            self._try(holder, False, Draw(count=1))
            if self.state.cards[c.id].zone != HAND:
                return
        name = data.draw(st.sampled_from([*c.former_names, c.named_as, *names_for(self.finder, c.printed)]))
        back = data.draw(st.sampled_from([STACK, BATTLEFIELD]))
        self._try(holder, False, Move(card=c.id, to=back, name=name))

    @precondition(lambda self: len(self.events) > len(PLAYERS))
    @rule()
    def take_back(self):
        self.events, self.state = undo(SETUP, self.events)
        self.states.pop()
        assert self.state.snapshot() == self.states[-1].snapshot()  # old names back, exactly
        SEEN["undone"] += 1

    @invariant()
    def a_cards_names_are_its_records_in_order(self):
        taken = Counter(r.key for r in self.state.names.records() if r.exception is None)
        assert all(n == 1 for n in taken.values()), taken
        for cid, c in self.state.cards.items():
            records = self.state.names.of_card(cid)
            assert [r.name for r in records] == [*c.former_names, *([c.named_as] if c.named_as else [])], cid
            assert [r.anew for r in records] == [i > 0 for i in range(len(records))], cid
            if c.zone not in (STACK, BATTLEFIELD):
                assert c.named_as is None  # its printed card there

    @invariant()
    def replay_gives_the_live_state(self):
        assert replay(SETUP, self.events).snapshot() == self.state.snapshot()

    @invariant()
    def a_hidden_card_shows_no_name_it_had(self):
        game = Game("g", SETUP, self.state, "")
        for pid in PLAYERS:
            caller = Caller(pid)
            shown = viewer(SETUP, self.state, caller)
            for seen in game_view(game, caller, self.finder.pool)["cards"]:
                c = self.state.cards[shown.resolve(seen["id"])]
                if sees(c, caller):
                    continue
                assert "earlier_names" not in seen, seen
                assert seen["named_as"] is None or c.zone not in HIDDEN_ZONES, seen
                SEEN["hidden card"] += 1
                if c.former_names:
                    SEEN["hidden card with earlier names"] += 1

    def teardown(self):
        """Two cards a player never saw swap printed identities: all they were shown is the same."""
        for pid in PLAYERS:
            if self.events and swapped_unseen_cards_change_nothing(SETUP, self.events, self.states, pid,
                                                                   self.finder.pool):
                SEEN["swapped unseen cards"] += 1


def test_a_card_named_anew_keeps_its_history_and_hides_it_from_who_cant_see_it(mini_finder):
    NamesAnew.finder = mini_finder
    SEEN.clear()
    run_state_machine_as_test(NamesAnew, settings=settings(max_examples=25, stateful_step_count=20,
                                                           deadline=None))
    assert all(SEEN[k] for k in ("a name dropped", "named anew", "undone", "hidden card with earlier names",
                                 "swapped unseen cards")), SEEN
