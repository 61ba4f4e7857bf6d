"""The actions a player or the judge may ask for, typed: one frozen dataclass per action type.

They are built once at the edge (the API's schemas, the CLI) from what was sent; the core
never reads an untyped action. A new action kind is a class here (in ``COMMANDS``), then an
entry in each table keyed by it: its body schema (inputs.ACTIONS), who may send it
(permissions._CHECKS, or UNCHECKED), its handler (actions.HANDLERS), its fold (game.FOLDS)
and a line of the judge's grammar (grammar._VERBS with an example in grammar.HELP, which the
CLI's `game do` and the console read; or grammar.NOT_IN_GRAMMAR). tests/test_action_kinds.py
fails, naming the tables that disagree, until every one has it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, kw_only=True)
class Command:
    type: ClassVar[str]
    player: str | None = None  # docs/api.md's `player`: who it is for (default: the token's; the judge names one)


@dataclass(frozen=True, kw_only=True)
class MayLeave(Command):
    """An action by which a player may leave the game: leave_game, and those that may cost a player
    the game (D8, 903.10a). A player who leaves names their face-down cards revealed as they go (D12)."""

    names: tuple[tuple[str, str], ...] = ()  # (card, name)


@dataclass(frozen=True, kw_only=True)
class Draw(Command):
    type: ClassVar[str] = "draw"
    count: int | None = None
    printed: str | None = None  # the judge records which physical card was drawn at the table


@dataclass(frozen=True, kw_only=True)
class Move(MayLeave):
    type: ClassVar[str] = "move"
    card: str
    to: str
    face_down: bool | None = None
    pentaland: bool | None = None
    name: str | None = None
    position: str | None = None  # "top" | "bottom", into the library
    via: str | None = None  # how it goes face down (705.4)


@dataclass(frozen=True, kw_only=True)
class Name(Command):
    type: ClassVar[str] = "name"
    card: str
    name: str
    choice: bool = False  # 705.5, D11: the acting player names a card an effect has them choose


@dataclass(frozen=True, kw_only=True)
class TurnFaceUp(MayLeave):
    type: ClassVar[str] = "turn_face_up"
    card: str
    name: str | None = None
    via: str | None = None


@dataclass(frozen=True, kw_only=True)
class Reveal(Command):
    type: ClassVar[str] = "reveal"
    cards: tuple[str, ...] | None = None  # these cards, or the top ``count`` of the library
    count: int | None = None
    continuous: bool = False


@dataclass(frozen=True, kw_only=True)
class Look(Command):
    type: ClassVar[str] = "look"
    cards: tuple[str, ...] | None = None
    count: int | None = None


@dataclass(frozen=True, kw_only=True)
class EndReveal(Command):
    type: ClassVar[str] = "end_reveal"
    cards: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class EndLook(Command):
    type: ClassVar[str] = "end_look"
    cards: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class LeaveGame(MayLeave):
    type: ClassVar[str] = "leave_game"
    returned: tuple[str, ...] = ()  # D9: cards the leaver controls only through a control-changing effect


@dataclass(frozen=True, kw_only=True)
class Shuffle(Command):
    """701.1b: an effect that would shuffle the common library cuts it instead."""

    type: ClassVar[str] = "shuffle"
    at: int | None = None  # the judge records the cut seen at the table: this many cards from the top...
    random_at: int | None = None  # ...else the service draws the point; never read from a request


@dataclass(frozen=True, kw_only=True)
class Search(Command):
    """701.1a: players can't search the library; the command exists so a bot learns why."""

    type: ClassVar[str] = "search"


@dataclass(frozen=True, kw_only=True)
class EndGame(Command):
    """The judge ends the game (a draw, a concession at the table, time called)."""

    type: ClassVar[str] = "end_game"


@dataclass(frozen=True, kw_only=True)
class Turn(Command):
    """A new turn, kept by the judge or the player whose turn it is (issue 32): ``player`` is the
    active player, ``number`` the turn's (default: the last one's and one). Kept turns let a rule
    set's once-per-turn land be checked (Xom 4, 4a); they change nothing else."""

    type: ClassVar[str] = "turn"
    number: int | None = None


@dataclass(frozen=True, kw_only=True)
class CommanderDamage(MayLeave):
    """903.10a: combat damage a commander dealt to ``player`` (the player dealt it)."""

    type: ClassVar[str] = "commander_damage"
    commander: str  # the commander's card id
    amount: int


COMMANDS: dict[str, type[Command]] = {
    c.type: c for c in (Draw, Move, Name, TurnFaceUp, Reveal, Look, EndReveal, EndLook, LeaveGame, Shuffle, Search,
                        EndGame, CommanderDamage, Turn)
}
ACTION_TYPES = tuple(COMMANDS)
