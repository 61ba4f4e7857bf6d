"""A game's record, carried to another machine and read back: the judge's export, and every event
of it replayed through the rules (``actions.decide``, the path a live action takes), so that a record
with an illegal or altered event is refused with that event's number and the rule it breaks.

An event keeps what its action did (the cards moved, the name given), not the action as sent; the
action is read back from it (``commands_of``), decided on the state before it, and the event the rules
give must be the event recorded, field for field. The export (``export``) holds the setup a replay
starts from: the library in its order at the start, the players, the rule set and its options, the
commanders; never the key of the players' handles (D15), which a game moved gets anew.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .actions import decide
from .commands import (
    Command,
    CommanderDamage,
    Draw,
    EndGame,
    EndLook,
    EndReveal,
    LeaveGame,
    Look,
    Move,
    Name,
    Reveal,
    Shuffle,
    Turn,
    TurnFaceUp,
)
from .errors import ArbiterError, InvalidInput, RecordRefused
from .game import Event, Game, GameSetup, GameState, game_losses
from .index import CandidateFinder
from .messages import say
from .zones import CONTROLLED_ZONES, LIBRARY

KIND = "mentalmagic-game"  # the export's "export": what the file is
VERSION = 2  # 2: the setup and the events as stored (1, the page's first JSON export, held only the views)


def export(game: Game, events: list[Event], game_view: dict, names: list[dict]) -> dict:
    """The judge's whole record of a game: what a replay starts from (``setup``), every event as
    stored, and the final state and names as the judge reads them (for whoever reads the file)."""
    setup = game.setup.to_dict()
    setup.pop("secret", None)  # D15: the key of the players' handles stays where it was made
    return {"export": KIND, "version": VERSION, "id": game.id, "created_at": game.created_at, "setup": setup,
            "events": [e.to_dict() for e in events], "game": game_view, "names": names}


@dataclass(frozen=True)
class Record:
    """An export read: the setup, the events in order, when the game was created, its id there."""

    setup: GameSetup
    events: tuple[Event, ...]
    created_at: str | None
    source: str | None = None


def read(doc) -> Record:
    """An export's setup and events, or InvalidInput saying why it can't be replayed: not an
    export, a version this arbiter doesn't read, or a player's export (no setup: D15 keeps the
    library's order from them), which can't rebuild the game."""
    if not isinstance(doc, dict) or doc.get("export", KIND if "game" in doc else None) != KIND:
        raise _unreadable("record.not_export", "export")
    if "setup" not in doc:  # the page's export (a player's, or the judge's before version 2)
        raise _unreadable("record.not_judges", "setup")
    version = doc.get("version")
    if version != VERSION:
        raise _unreadable("record.version", "version", version=str(version), known=VERSION)
    try:
        setup = GameSetup.from_dict(doc["setup"])
        setup = GameSetup(setup.format, setup.players, setup.library, setup.options, setup.commanders)
        _check_types(setup)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        raise _unreadable("record.malformed", "setup") from None
    events = doc.get("events")
    if not isinstance(events, list):
        raise _unreadable("record.malformed", "events")
    out = []
    for i, e in enumerate(events):
        try:
            event = Event.from_dict(e)
            if not isinstance(event.data, dict) or type(event.seq) is not int or not isinstance(event.type, str) \
                    or not all(isinstance(v, str | None) for v in (event.player, event.rule, event.at)):
                raise TypeError
        except (KeyError, TypeError, ValueError, AttributeError):
            raise _unreadable("record.malformed", f"events.{i}") from None
        out.append(event)
    created, source = doc.get("created_at"), doc.get("id")
    return Record(setup, tuple(out), created if isinstance(created, str) else None,
                  source if isinstance(source, str) else None)


def _check_types(setup: GameSetup) -> None:
    """TypeError unless every name, id and card of the setup is text (a team may be none)."""
    texts = [setup.format, *(x for p in setup.players for x in (p.id, p.name)), *(x for c in setup.library for x in c),
             *(x for c in setup.commanders for x in c)]
    if not all(isinstance(x, str) for x in texts) or not all(isinstance(p.team, str | None) for p in setup.players) \
            or not all(isinstance(k, str) for k in setup.options):
        raise TypeError


def _unreadable(code: str, field: str, **params) -> InvalidInput:
    return InvalidInput(code, **params, fields={field: [say(code + ".field")]})


def replay(setup: GameSetup, events, finder: CandidateFinder) -> GameState:
    """The state after every event, each decided again by the rules; RecordRefused at the first
    event the rules refuse, or whose action gives another event than the one recorded. The
    series a game belonged to is not read: its other games' names stay where they were played."""
    state = GameState.initial(setup)
    for expected, e in enumerate(events, 1):
        if e.seq != expected:
            raise RecordRefused(e.seq, e.type, say("record.seq", expected=expected))
        _check(state, setup, finder, e)
        state.fold_in_place(e)  # a private state: replay's way, linear
    return state


def _check(state: GameState, setup: GameSetup, finder: CandidateFinder, e: Event) -> None:
    """The rules give event ``e`` on ``state`` from one of the actions that could have made it; else
    the first such action's refusal, or "altered" when the rules give another event."""
    first: ArbiterError | Event | None = None
    try:
        candidates = list(commands_of(e, state, setup))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # data no action makes
        candidates = []
    for command, actor, is_judge in candidates:
        try:
            decided = decide(state, setup, finder, command, actor, is_judge, e.at)
        except ArbiterError as err:
            first = first or err
            continue
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # an id or field no game has
            continue
        if _same(decided, e):
            return
        first = first or decided
    if isinstance(first, ArbiterError):
        raise RecordRefused(e.seq, e.type, first.said, rule=first.rule)
    raise RecordRefused(e.seq, e.type, say("record.altered"), rule=first.rule if isinstance(first, Event) else None)


def _same(decided: Event, e: Event) -> bool:
    return (decided.type, decided.player, decided.rule) == (e.type, e.player, e.rule) \
        and _plain(decided.data) == _plain(e.data)


def _plain(value):
    """Data as JSON keeps it: tuples are lists."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


# -- the action an event was made by -------------------------------------------------------------
def commands_of(e: Event, state: GameState, setup: GameSetup) -> Iterator[tuple[Command, str | None, bool]]:
    """(command, actor, is_judge) for each action that could have made ``e``, the likeliest first: a
    few fields an event doesn't keep as sent (a move's ``via`` left out, a judge's draw of a named
    card) are tried both ways."""
    d, judge = e.data, bool(e.data.get("judge"))
    actor = None if judge else e.player
    for command in _BUILD[e.type](e, d, state, judge):
        yield command, actor, judge


def _names(d: dict) -> tuple[tuple[str, str], ...]:
    """D12: the names given to a leaver's face-down cards as they go, in this action and each loss it caused."""
    out = []
    for part in [d, *game_losses(d.get("game_loss"))]:
        out += [(cid, n["name"]) for cid, n in (part.get("namings") or {}).items()]
    return tuple(out)


def _given(d: dict) -> str | None:
    """The name an action gave: the naming's, or the card's own name given again (704.4's note)."""
    if d.get("naming"):
        return d["naming"]["name"]
    note = d.get("note")
    return note["params"]["name"] if isinstance(note, dict) else None


def _who(e: Event, judge: bool) -> str | None:
    """The ``player`` field where the event keeps none of its own: the player the judge acted for; a
    player's own action names nobody else. A draw, a reveal, a look or a cut keeps whom it was for."""
    return e.player if judge else None


def _draw(e, d, state, judge):
    if "printed" in d:
        yield Draw(player=d["player"], printed=d["printed"])
    yield Draw(player=d["player"], count=len(d["cards"]))


def _move(e, d, state, judge):
    c = state.card(d["card"])
    src, to = c.zone, d["to"]
    if judge:
        player = e.player
    elif src == LIBRARY and to != LIBRARY:
        player = d["owner"]
    elif to in CONTROLLED_ZONES:
        player = d["controller"]
    else:
        player = None
    asked_pentaland = bool(d["pentaland"]) and (not c.pentaland or e.rule == "703.2")
    base = dict(player=player, card=c.id, to=to, face_down=d["face_down"], pentaland=asked_pentaland or None,
                name=_given(d), position=d.get("position"), via=d.get("via"), names=_names(d))
    yield Move(**base)
    if d.get("via") == "effect":  # "effect" is also what a face-down move sent without a ``via`` records
        yield Move(**{**base, "via": None})


def _name(e, d, state, judge):
    yield Name(player=_who(e, judge), card=d["card"], name=_given(d) or d.get("name"), choice=bool(d.get("choice")))


def _turn_face_up(e, d, state, judge):
    yield TurnFaceUp(player=_who(e, judge), card=d["card"], name=_given(d), via=d.get("via"), names=_names(d))


def _reveal(e, d, state, judge):
    yield Reveal(player=d["player"], cards=tuple(d["cards"]), continuous=bool(d["continuous"]))


def _look(e, d, state, judge):
    yield Look(player=d["player"], cards=tuple(d["cards"]))


def _end_reveal(e, d, state, judge):
    yield EndReveal(player=_who(e, judge), cards=tuple(d["cards"]))


def _end_look(e, d, state, judge):
    yield EndLook(player=_who(e, judge), cards=tuple(d["cards"]))


def _leave_game(e, d, state, judge):
    yield LeaveGame(player=d["player"] if judge else None, returned=tuple(d.get("returned") or ()), names=_names(d))


def _shuffle(e, d, state, judge):
    if d["random"]:  # the point the system drew: decided again as drawn
        yield Shuffle(player=d["player"], random_at=d["at"])
    else:
        yield Shuffle(player=d["player"], at=d["at"])


def _end_game(e, d, state, judge):
    yield EndGame(player=_who(e, judge))


def _turn(e, d, state, judge):
    yield Turn(player=d["player"], number=d["number"])


def _commander_damage(e, d, state, judge):
    yield CommanderDamage(player=d["player"], commander=d["commander"], amount=d["amount"], names=_names(d))


_BUILD = {
    "draw": _draw, "move": _move, "name": _name, "turn_face_up": _turn_face_up, "reveal": _reveal, "look": _look,
    "end_reveal": _end_reveal, "end_look": _end_look, "leave_game": _leave_game, "shuffle": _shuffle,
    "end_game": _end_game, "commander_damage": _commander_damage, "turn": _turn,
}
