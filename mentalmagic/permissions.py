"""Who may act, in one place: a token stands for a player or the judge; a player acts only for
themselves and never peeks at a hidden card (docs/api.md). What the rules of 702–705 then allow is
actions.py's to say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

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
    Search,
    Shuffle,
    Turn,
    TurnFaceUp,
)
from .errors import Forbidden, InvalidInput, PlayerOutOfGame, Unauthorized, UnknownPlayer
from .game import LOST, GameSetup, GameState
from .messages import say
from .tokens import bearer, matches
from .zones import CONTROLLED_ZONES, HAND, HIDDEN_ZONES, LIBRARY, REMOVED


@dataclass(frozen=True)
class Caller:
    """Who is asking: a player of the game, or its judge (who acts for anyone)."""

    player: str | None = None
    is_judge: bool = False


JUDGE = Caller(is_judge=True)


def identify(authorization: str | None, judge_hash: str, player_hashes: Mapping[str, str]) -> Caller:
    """The caller an ``Authorization: Bearer`` header stands for in one game; 401 when missing or wrong."""
    token = bearer(authorization, "token.missing")
    if matches(token, judge_hash):
        return JUDGE
    for pid, h in player_hashes.items():
        if matches(token, h):
            return Caller(player=pid)
    raise Unauthorized("token.unknown")


def only_the_judge(caller: Caller, what: str) -> None:  # what: the message code of the refusal
    if not caller.is_judge:
        raise Forbidden(what)


def may_ask_about_hand(caller: Caller, player: str) -> None:
    """705.11 questions about a hand are for the judge and that hand's player."""
    if not caller.is_judge and caller.player != player:
        raise Forbidden("could_be.hand_forbidden")


# -- acting: who the command is by, and for whom ----------------------------------------------
def authorize(state: GameState, setup: GameSetup, actor: str | None, is_judge: bool, command: Command) -> str | None:
    """Check that ``actor`` (or the judge) may send ``command``; return the player acting.

    Raises Forbidden, or InvalidInput/PlayerOutOfGame for a ``player`` field naming nobody in the game.
    """
    if actor is None and not is_judge:
        raise Forbidden("action.needs_actor")
    if actor is not None and setup.player(actor) is None:
        raise Forbidden("action.not_a_player", player=actor)
    # a player who lost (D8) may still leave the game, taking their objects with them
    lost_leaving = isinstance(command, LeaveGame) and actor is not None and state.players[actor].status == LOST
    if actor is not None and not state.in_game(actor) and not lost_leaving:
        raise PlayerOutOfGame("player.out", player=setup.player(actor).name)
    acting = actor
    if actor is None and command.player is not None:  # the judge acts for the named player
        acting = player_in(state, setup, command.player, allow_out=True)
    check = _CHECKS.get(type(command))
    if check is not None:
        check(state, setup, actor, is_judge, command)
    return acting


def player_in(state: GameState, setup: GameSetup, pid: str, allow_out: bool = False) -> str:
    """A ``player`` field: a player of this game, still in it unless ``allow_out``."""
    if setup.player(pid) is None:
        raise UnknownPlayer(pid)
    if not allow_out and not state.in_game(pid):
        raise PlayerOutOfGame("player.out", player=setup.player(pid).name)
    return pid


def for_whom(state: GameState, setup: GameSetup, actor: str | None, command: Command) -> str:
    """The player a draw, reveal or look is for: the ``player`` field, else the actor's own."""
    pid = command.player if command.player is not None else actor
    if pid is None:
        raise InvalidInput("player.say_which", fields={"player": [say("field.required")]})
    return player_in(state, setup, pid)


def _for_themselves(actor: str | None, is_judge: bool, command: Command, what: str) -> None:
    """A player's token acts for that player only: a ``player`` field naming someone else is the judge's."""
    if not is_judge and command.player is not None and command.player != actor:
        raise Forbidden(what)


def _draw(state, setup, actor, is_judge, cmd: Draw) -> None:
    pid = for_whom(state, setup, actor, cmd)
    if not is_judge and pid != actor:
        raise Forbidden("themselves.draw")
    if cmd.printed is not None and not is_judge:
        raise Forbidden("judge_only.printed_draw")


def _move(state, setup, actor, is_judge, cmd: Move) -> None:
    c = state.card(cmd.card)
    if cmd.player is not None:
        player_in(state, setup, cmd.player)
    if is_judge or c.zone in (LIBRARY, REMOVED) or c.holder == actor:
        return
    # Anyone's effect may move another player's public card (bounce, destroy, reanimate), but a bot
    # must not peek: an unrevealed hand card, or a face-down card it would then control, is moved by
    # its holder or recorded by the judge.
    if c.zone == HAND and not c.revealed:
        raise Forbidden("move.other_hand")
    if c.face_down and cmd.to in CONTROLLED_ZONES:
        raise Forbidden("move.face_down_control")


def _name(state, setup, actor, is_judge, cmd: Name) -> None:
    if is_judge:  # the judge records any player's choice (D11)
        if cmd.player is not None:
            player_in(state, setup, cmd.player)
        return
    _for_themselves(actor, is_judge, cmd, "themselves.name")
    c = state.card(cmd.card)
    if cmd.choice and actor not in (c.owner, c.controller) and not revealed_to(c, actor):
        # D11: a chooser names only what was shown to them, or a bot could name any hidden card
        raise Forbidden("name.choice_unrevealed")


def revealed_to(c, pid: str | None) -> bool:
    """D11: has ``pid`` been shown this card? A revealed or looked-at hidden card, or a face-up one."""
    if c.zone in HIDDEN_ZONES:
        return c.revealed or pid in c.looked_by
    return c.zone != REMOVED and not c.face_down


def _turn_face_up(state, setup, actor, is_judge, cmd: TurnFaceUp) -> None:
    _for_themselves(actor, is_judge, cmd, "themselves.turn_up")


def _reveal(state, setup, actor, is_judge, cmd: Reveal) -> None:
    pid = for_whom(state, setup, actor, cmd)
    if not is_judge and pid != actor:
        raise Forbidden("themselves.reveal")
    for cid in cmd.cards or ():
        c = state.card(cid)
        if c.zone == HAND and c.owner != pid:
            raise Forbidden("reveal.own_hand")


def _look(state, setup, actor, is_judge, cmd: Look) -> None:
    pid = for_whom(state, setup, actor, cmd)
    looker = actor or pid
    # Anyone may look into the shared library (702.2c); another player's hidden card is shown
    # only by an effect the judge records, or a bot could peek at any hand.
    for cid in cmd.cards or ():
        c = state.card(cid)
        hidden = c.zone in HIDDEN_ZONES or c.face_down
        if hidden and c.zone not in (LIBRARY, REMOVED) and not is_judge and c.holder != looker:
            raise Forbidden("judge_only.look")


def _leave_game(state, setup, actor, is_judge, cmd: LeaveGame) -> None:
    pid = cmd.player if cmd.player is not None else actor
    if pid is None or setup.player(pid) is None:
        raise UnknownPlayer(pid)
    if not is_judge and pid != actor:
        raise Forbidden("themselves.leave")


def _shuffle(state, setup, actor, is_judge, cmd: Shuffle) -> None:
    pid = for_whom(state, setup, actor, cmd)
    if not is_judge and pid != actor:
        raise Forbidden("themselves.cut")
    # 701.1b: the point comes from the system's randomness; only the judge records a cut seen at
    # the table, or a player could place any card on top
    if cmd.at is not None and not is_judge:
        raise Forbidden("judge_only.cut_at")


def _end_game(state, setup, actor, is_judge, cmd: EndGame) -> None:
    only_the_judge(Caller(actor, is_judge), "judge_only.end_game")


def _turn(state, setup, actor, is_judge, cmd: Turn) -> None:
    """The judge keeps turns for the table; a player starts only their own."""
    pid = for_whom(state, setup, actor, cmd)
    if not is_judge and pid != actor:
        raise Forbidden("themselves.turn")


def _commander_damage(state, setup, actor, is_judge, cmd: CommanderDamage) -> None:
    """The player dealt the damage records it, or the commander's controller; the judge anyone's."""
    if is_judge:
        return
    if cmd.player != actor and state.card(cmd.commander).controller != actor:
        raise Forbidden("commander_damage.who")


# Kinds only the common checks of ``authorize`` guard: ending a reveal or a look (whoever may act
# ends it; the handler checks it is under way), and the search every player is refused (701.1a).
UNCHECKED: frozenset[type[Command]] = frozenset({EndReveal, EndLook, Search})
_CHECKS: dict[type[Command], Callable[..., None]] = {
    Draw: _draw, Move: _move, Name: _name, TurnFaceUp: _turn_face_up, Reveal: _reveal, Look: _look,
    LeaveGame: _leave_game, Shuffle: _shuffle, EndGame: _end_game, CommanderDamage: _commander_damage,
    Turn: _turn,
}
