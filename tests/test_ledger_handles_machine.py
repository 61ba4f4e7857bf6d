"""D15 as a state machine (issue 21): for any game the ledger machine plays, what each player is shown
links no hidden card to anything the rules don't show them.

- A handle stands for one card in one hidden stint: it is never a card's id, the same handle never
  comes back after its card moved or was hidden again, and what a view shows is never what an event
  or a name record shows (those get handles of their own).
- A player's whole view of the game (every state's view, their log, the names) is the same when two
  cards they never saw swap their printed identities: replaying their own view of the log, they
  learn nothing of a card the rules hide from them.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test
from strategies import SETUP as PLAIN_SETUP
from strategies import commands

from mentalmagic.actions import decide
from mentalmagic.cli.seat import Seat
from mentalmagic.cli.table import show_lines
from mentalmagic.commands import Draw
from mentalmagic.errors import ArbiterError
from mentalmagic.game import Event, Game, GameState, replay
from mentalmagic.handles import sees, viewer
from mentalmagic.messages import Message, render
from mentalmagic.permissions import JUDGE, Caller
from mentalmagic.views import game_view, names_view, player_events
from mentalmagic.zones import HAND

pytestmark = pytest.mark.fuzz

SETUP = replace(PLAIN_SETUP, secret="a game's own secret")
PLAYERS = [p.id for p in SETUP.players]
SEEN: Counter[str] = Counter()


def stint(state: GameState, cid: str) -> tuple:
    """Where a hidden card is and since when: a handle stands for one card in one such stint."""
    c = state.cards[cid]
    epoch = state.players[c.owner].hand_epoch if c.zone == HAND else c.epoch
    return cid, c.zone, c.owner, c.face_down, epoch


def strings(value) -> set[str]:
    """Every string value of an answer (ids and handles among them)."""
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) else set()


def transcript(setup, events: list[Event], pid: str, pool) -> str:
    """All a player is shown along a game: the view after each event, their log, the names."""
    caller, state, shown = Caller(pid), GameState.initial(setup), []
    for e in events:
        state = state.apply_event(e)
        shown.append(game_view(Game("g", setup, state, ""), caller, pool))
    shown.append(player_events(setup, events, caller))
    shown.append(names_view(state, viewer(setup, state, caller)))
    return json.dumps(shown, sort_keys=True, default=_said)


def _worded(fields) -> list[str]:
    """A refusal's fields' messages, worded (their keys are ids: what an action takes back)."""
    if isinstance(fields, dict):
        return [w for v in fields.values() for w in _worded(v)]
    if isinstance(fields, list | tuple):
        return [w for v in fields for w in _worded(v)]
    return [render(fields)]


def _said(value):
    """A view's words not yet worded (704.4's note is a Message since #19): as a bot reads them."""
    if isinstance(value, Message):
        return value.as_json()
    raise TypeError(repr(value))


class HiddenLedger(RuleBasedStateMachine):
    finder = None  # the session's finder, set by the test

    def __init__(self):
        super().__init__()
        self.state = GameState.initial(SETUP)
        self.states = [self.state]
        self.events: list[Event] = []
        self.handle_stint: dict[tuple[str, str], tuple] = {}  # (player, handle in a view) -> its stint
        self.view_handles: dict[str, set[str]] = {p: set() for p in PLAYERS}

    def _append(self, e: Event) -> None:
        self.state = self.state.apply_event(e)
        self.states.append(self.state)
        self.events.append(e)

    @initialize()
    def deal(self):
        for pid in PLAYERS:
            self._append(decide(self.state, SETUP, self.finder, Draw(count=3), pid))

    @rule(data=st.data())
    def act(self, data):
        actor, is_judge, command = data.draw(commands(self.state, self.finder))
        try:
            e = decide(self.state, SETUP, self.finder, command, actor, is_judge)
        except ArbiterError as refused:
            self._refusal_names_each_card_as_its_caller_knows_it(refused, JUDGE if is_judge else Caller(actor))
            return
        event(f"accepted {command.type}")
        self._append(e)

    def _refusal_names_each_card_as_its_caller_knows_it(self, e: ArbiterError, caller: Caller) -> None:
        """A refusal as its caller reads it (services._decide): no card hidden from them by its id,
        in its JSON or its words; in its words, no card by its id at all (#N, or a handle)."""
        e = viewer(SETUP, self.state, caller).error(e)
        bot = json.dumps([e.said.as_json(), e.fields], default=_said)
        words = " ".join([render(e.said), *_worded(e.fields)])
        for c in self.state.cards.values():
            said = re.compile(rf"\b{c.id}\b")
            assert not said.search(words), (c.id, words)
            assert sees(c, caller) or not said.search(bot), (c.id, bot)
            if c.id in repr(e.said):
                SEEN["a card named in a refusal"] += 1

    @invariant()
    def a_handle_stands_for_one_card_in_one_hidden_stint(self):
        game = Game("g", SETUP, self.state, "")
        for pid in PLAYERS:
            caller = Caller(pid)
            shown = viewer(SETUP, self.state, caller)
            for seen in game_view(game, caller, self.finder.pool)["cards"]:
                cid = shown.resolve(seen["id"])
                if sees(self.state.cards[cid], caller):
                    assert seen["id"] == cid and "printed" in seen
                    continue
                assert seen["id"] not in self.state.cards and "printed" not in seen and "handle" not in seen
                assert self.handle_stint.setdefault((pid, seen["id"]), stint(self.state, cid)) == stint(
                    self.state, cid), "a handle came back for another stint"
                self.view_handles[pid].add(seen["id"])
                SEEN["hidden card in a view"] += 1

    @invariant()
    def no_event_or_name_shows_a_views_handle_or_a_hidden_cards_id(self):
        for pid in PLAYERS:
            caller = Caller(pid)
            hidden_ids = {cid for cid, c in self.state.cards.items() if not sees(c, caller)}
            rendered = player_events(SETUP, self.events, caller)
            names = names_view(self.state, viewer(SETUP, self.state, caller))
            for answer in (rendered, names):
                shown = strings(answer)
                assert not shown & self.view_handles[pid], "an event or a name links to a view's handle"
                stale = shown & hidden_ids
                for cid in stale:  # an id of a card hidden now is fine only where it was seen then
                    SEEN["an id from when it was seen"] += 1
                    assert any(sees(s.cards[cid], caller) for s in self.states), cid

    @invariant()
    def game_show_as_a_seat_prints_no_number_on_a_card_it_cant_see(self):
        """Issue 35: `mentalmagic game show --as ben` printed "#1 ?" and "#4 ?", the game's fixed numbers
        on hidden cards, so #4 could be followed from a Pentaland into a hand. The seat's lines, and its
        log's, print a number only on a card the seat sees now (or saw in that event)."""
        game = Game("g", SETUP, self.state, "")
        seat = Seat.over(game, self.events)
        number_of = {f"#{h}": cid for cid, h in seat.handles.items()}
        for pid in PLAYERS:
            caller = Caller(pid)
            shown = show_lines(seat, game_view(game, caller, self.finder.pool),
                               names_view(self.state, viewer(SETUP, self.state, caller)), caller)
            numbers = re.findall(r"#\d+\b", "\n".join(shown))
            hidden = [n for n in numbers if not sees(self.state.cards[number_of[n]], caller)]
            assert not hidden, (pid, hidden, shown)
            SEEN["hidden card in a seat's game show"] += "         ?" in "\n".join(shown)
            for e, line in zip(self.events, (seat.event_line(e) for e in player_events(SETUP, self.events, caller)),
                               strict=True):
                before, after = self.states[e.seq - 1], self.states[e.seq]
                for n in re.findall(r"#\d+\b", line):
                    cid = number_of[n]
                    assert sees(before.cards[cid], caller) or sees(after.cards[cid], caller), (pid, n, line)

    def teardown(self):
        """Two cards a player never saw swap printed identities: all they were shown is the same."""
        if not self.events:
            return
        for pid in PLAYERS:
            if swapped_unseen_cards_change_nothing(SETUP, self.events, self.states, pid, self.finder.pool):
                SEEN["swapped unseen cards"] += 1


def swapped_unseen_cards_change_nothing(setup, events: list[Event], states: list[GameState], pid: str, pool) -> bool:
    """Swap the printed identities of two cards ``pid`` never saw in ``states``: replayed, the game
    shows them exactly what it showed (an assertion); False when there is no such pair."""
    caller = Caller(pid)
    never = [cid for cid, _ in setup.library if not any(sees(s.cards[cid], caller) for s in states)]
    printed = dict(setup.library)
    pair = next(((a, b) for a in never for b in never if printed[a] != printed[b]), None)
    if pair is None:
        return False
    a, b = pair
    swapped = replace(setup, library=tuple(
        (cid, printed[b] if cid == a else printed[a] if cid == b else p) for cid, p in setup.library))
    assert replay(swapped, events).library == states[-1].library
    assert transcript(swapped, events, pid, pool) == transcript(setup, events, pid, pool)
    return True


def test_a_player_can_follow_no_hidden_card(finder):
    HiddenLedger.finder = finder
    SEEN.clear()
    run_state_machine_as_test(HiddenLedger, settings=settings(max_examples=25, stateful_step_count=20,
                                                              deadline=None))
    assert SEEN["hidden card in a view"] and SEEN["swapped unseen cards"] and SEEN["a card named in a refusal"], SEEN
    assert SEEN["hidden card in a seat's game show"], SEEN
