"""Properties of the ledger over random action sequences: undo, replay, and one card per name (704.2)."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from mentalmagic.actions import decide as decide_command
from mentalmagic.errors import ArbiterError, InvalidInput
from mentalmagic.game import Event, GameSetup, GameState, Player, replay, undo
from mentalmagic.names import fold
from mentalmagic.views import face_up_options
from mentalmagic.web.schemas import load_action
from mentalmagic.zones import HIDDEN_ZONES, LIBRARY, MOVE_ZONES, REMOVED

PLAYERS = (Player("ana", "Ana"), Player("bob", "Bob"), Player("cid", "Cid"))
# Cards that share costs, so names collide: {R}, {4}{G}{G}, {3}{U}{U}, {1}{R}/{1}{U}, {G}, {W}...
LIBRARY_CARDS = (
    "Savannah Lions", "Shock", "Fire // Ice", "Rise of the Hobgoblins", "Vesuvan Shapeshifter",
    "Root Elemental", "Goblin Taskmaster", "Warbreak Trumpeter", "Lightning Bolt", "Craw Wurm",
    "Air Elemental", "Lightning Strike", "Mana Leak", "Shock", "Lightning Bolt",
    "Grizzly Bears", "Counterspell", "Llanowar Elves", "Giant Growth", "Craw Wurm",
)
SETUP = GameSetup("vintage", PLAYERS, tuple((f"c{i}", n) for i, n in enumerate(LIBRARY_CARDS, 1)))
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_names_cache: dict[str, list[str]] = {}


def names_for(finder, printed: str) -> list[str]:
    """A few legal names for a printed card, chosen so that the cards of the library compete for them."""
    if printed not in _names_cache:
        card = finder.pool.lookup(printed)
        found = finder.candidates(printed=card).candidates
        morphs = [n.name for n in found if n.face.has_keyword("Morph")]
        shared = [n.name for n in found if n.name in LIBRARY_CARDS or fold(n.name) in ("fire", "ice")]
        _names_cache[printed] = sorted({*morphs[:4], *shared, *(n.name for n in found[:2])})
    return _names_cache[printed]


def random_action(data, state: GameState, finder) -> tuple[str | None, bool, dict]:
    """One plausible action (it may still be refused): (actor, is_judge, action)."""
    in_game = [p.id for p in PLAYERS if state.in_game(p.id)]
    live = [c for c in state.cards.values() if c.zone != REMOVED]
    if not live:  # everybody left with their cards and the library is drawn out: only refusals remain
        return None, True, {"type": "draw", "count": 1}
    kind = data.draw(st.sampled_from(
        ["draw", "move", "move", "move", "name", "morph", "turn_face_up", "turn_face_up", "reveal", "look",
         "end", "leave"]))
    judge = data.draw(st.integers(0, 9)) == 0
    actor = data.draw(st.sampled_from(in_game)) if in_game else None
    if kind == "draw":
        return actor, judge, {"type": "draw", "player": actor, "count": data.draw(st.integers(1, 2))}
    if kind == "leave":
        if data.draw(st.integers(0, 4)):
            kind = "move"  # leaving is rare: keep games going
        else:
            return actor, judge, {"type": "leave_game", "player": actor}
    if kind in ("reveal", "look"):
        return actor, judge, {"type": kind, "count": 1, "player": data.draw(st.sampled_from(in_game)) if in_game
                              else None, "continuous": data.draw(st.booleans())}
    if kind == "end":
        seen = [c.id for c in live if c.revealed or c.looked_by]
        if not seen:
            return actor, judge, {"type": "end_reveal", "cards": ["c1"]}
        cid = data.draw(st.sampled_from(seen))
        return actor, judge, {"type": "end_reveal" if state.cards[cid].revealed else "end_look", "cards": [cid]}
    if kind == "morph":  # a face-down play from a hand: what 705.4 and 705.4a are about
        hands = [c for c in live if c.zone == "hand" and c.owner in in_game]
        if hands:
            c = data.draw(st.sampled_from(hands))
            return c.owner, judge, {"type": "move", "card": c.id, "to": "battlefield", "face_down": True,
                                    "via": data.draw(st.sampled_from(["morph", "manifest"]))}
        kind = "move"
    face_down = [c for c in live if c.face_down and not c.pentaland]
    if kind == "turn_face_up" and face_down:
        card = data.draw(st.sampled_from(face_down))
    else:
        card = data.draw(st.sampled_from(live))
    holder = card.holder if card.holder in in_game else actor
    if not judge:
        actor = holder if data.draw(st.integers(0, 3)) else actor
    names = names_for(finder, card.printed)
    if kind == "turn_face_up" or (kind == "move" and card.face_down and not card.pentaland):
        try:
            allowed = face_up_options(state, SETUP, finder, card.id).allowed
        except ArbiterError:
            allowed = ()
        names = [*allowed, *names]
    name = data.draw(st.one_of(st.none(), st.sampled_from(names))) if names else None
    if kind == "name":
        return actor, judge, {"type": "name", "card": card.id, "name": name or names[0]}
    if kind == "turn_face_up":
        return actor, judge, {"type": "turn_face_up", "card": card.id, "name": name}
    action = {"type": "move", "card": card.id, "to": data.draw(st.sampled_from(MOVE_ZONES)), "name": name}
    if data.draw(st.booleans()):
        action["face_down"] = True
        action["via"] = data.draw(st.sampled_from(["morph", "manifest", "effect"]))
    if data.draw(st.integers(0, 5)) == 0:
        action["pentaland"] = True
    if card.zone == LIBRARY or data.draw(st.integers(0, 4)) == 0:
        action["player"] = data.draw(st.sampled_from(in_game)) if in_game else None
    return actor, judge, {k: v for k, v in action.items() if v is not None}


def decide(state, setup, finder, action: dict, actor, judge=False):
    """``decide`` on the typed command the API would build from ``action`` (a refused field: InvalidInput);
    a None value stands for a field left out."""
    try:
        command = load_action({k: v for k, v in action.items() if v is not None})
    except ValidationError as e:
        raise InvalidInput("invalid action", fields=e.messages) from e
    return decide_command(state, setup, finder, command, actor, judge)


def play(data, finder, steps: int):
    """Play ``steps`` random actions; keep the accepted events and the snapshot before each."""
    state = GameState.initial(SETUP)
    events: list[Event] = []
    snapshots = [state.snapshot()]
    for pid in ("ana", "bob", "cid"):  # everyone starts with a hand
        e = decide(state, SETUP, finder, {"type": "draw", "player": pid, "count": 3}, pid)
        state = state.apply_event(e)
        events.append(e)
        snapshots.append(state.snapshot())
    for _ in range(steps):
        actor, judge, action = random_action(data, state, finder)
        try:
            e = decide(state, SETUP, finder, action, actor, judge)
        except ArbiterError:
            continue  # refused: nothing is appended (any other exception fails the test)
        assert e.seq == len(events) + 1
        state = state.apply_event(e)
        events.append(e)
        snapshots.append(state.snapshot())
        check_invariants(state)
    return state, events, snapshots


def check_invariants(state: GameState) -> None:
    assert state.library == [c for c in state.library if state.cards[c].zone == LIBRARY]
    assert sorted(state.library) == sorted(c.id for c in state.cards.values() if c.zone == LIBRARY)
    for c in state.cards.values():
        if c.zone == LIBRARY:
            assert c.controller is None and not c.face_down and not c.pentaland
            assert c.owner == c.library_owner  # 702.2a–702.2c
        else:
            assert c.owner is not None  # 702.2: a card leaving the library always gets an owner
        if c.pentaland:
            assert c.face_down and c.named_as is None and c.zone not in HIDDEN_ZONES  # 703.7, 703.8


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
    state, events, snapshots = play(data, finder, data.draw(st.integers(5, 40)))
    while events:
        events, back = undo(SETUP, events)
        assert back.snapshot() == snapshots[len(events)]


@SETTINGS
@given(data=st.data())
def test_replaying_the_log_gives_the_live_state_even_through_json(finder, data):
    state, events, _ = play(data, finder, data.draw(st.integers(5, 40)))
    assert replay(SETUP, events).snapshot() == state.snapshot()
    stored = [Event.from_dict(json.loads(json.dumps(e.to_dict()))) for e in events]
    assert stored == events
    assert replay(GameSetup.from_dict(json.loads(json.dumps(SETUP.to_dict()))), stored).snapshot() == state.snapshot()


@SETTINGS
@given(data=st.data())
def test_no_two_cards_share_a_name_outside_a_705_4a_exception(finder, data):
    state, _, _ = play(data, finder, data.draw(st.integers(5, 40)))
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

    def do(actor, **action):
        nonlocal state
        state = state.apply_event(decide(state, setup, finder, action, actor))

    do("ana", type="move", card="m", to="hand")
    shocks = iter(("s1", "s2"))
    for when in ("before", "after"):
        if when == "after":
            do("ana", type="move", card="m", to="battlefield", face_down=True, via="morph")
        for name, moment, who in takes:
            if moment == when:
                shock = next(shocks)
                do(who, type="move", card=shock, to="hand", player=who)
                do(who, type="move", card=shock, to="stack", name=name)
    taken = {name for name, _, _ in takes}
    free = [n for n in RED_MORPHS if n not in taken]
    window = [n for n, moment, _ in takes if moment == "after"]
    exception = not free and bool(window) and any(who != "ana" for _, moment, who in takes if moment == "after")
    choice = face_up_options(state, setup, finder, "m")
    assert (tuple(choice.free), choice.exception) == (tuple(free), exception)
    for name, moment, _ in takes:
        if not (exception and moment == "after"):  # a name taken outside the exception stays refused
            try:
                decide(state, setup, finder, {"type": "turn_face_up", "card": "m", "name": name}, "ana")
            except ArbiterError as err:
                assert err.rule == "704.2"
            else:
                raise AssertionError(f"{name} should be refused")
    pick = free[0] if free else window[0] if exception else None
    e = decide(state, setup, finder, {"type": "move", "card": "m", "to": "graveyard", "name": pick}
               if pick else {"type": "move", "card": "m", "to": "graveyard"}, "ana")
    state = state.apply_event(e)
    if pick:
        assert state.cards["m"].named_as == pick and "game_loss" not in e.data
        assert e.data["naming"]["exception"] == ("705.4a" if not free else None)
    else:
        assert (e.data["game_loss"]["player"], e.data["game_loss"]["rule"]) == ("ana", "705.4a")
        assert state.players["ana"].status == "lost" and state.cards["m"].named_as is None
    check_one_card_per_name(state)
