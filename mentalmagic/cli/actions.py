"""The judge records what happens at the table, one command per action: game draw, move, name,
face-up, reveal, look, leave, shuffle, undo. Each builds the action's body as the API takes it,
checked by the same schema (inputs.py), and goes to services.act as the judge."""

from __future__ import annotations

import click

from ..messages import said, say, word_of
from ..zones import VIAS as VIA_CHOICES
from .completion import GAME, PLAYER, card_name_completion, player_completion
from .context import Misused, guarded, uow
from .seat import Seat

_NAME_OPTION_HELP = "The name it takes (English or French); the shell completes card names."


def _act(ctx: click.Context, seat: Seat, body: dict) -> None:
    """One action body through the API's schema, to services.act as the judge; print the event."""
    from ..permissions import JUDGE
    from ..runtime.inputs import load_action
    from ..services import act

    body = {k: v for k, v in body.items() if v is not None}
    done = act(uow(ctx), seat.game.id, JUDGE, load_action(body))
    click.echo(seat.event_line(done["event"]))


@click.command("draw")
@GAME
@PLAYER
@click.argument("count", type=int, required=False)
@click.option("--printed", default=None, shell_complete=card_name_completion,
              help="Record which printed card was drawn at the table (found in the library).")
@click.pass_context
@guarded
def game_draw(ctx, game_id, player, count, printed):
    """PLAYER draws COUNT cards (default 1) from the top of the common library (702.2)."""
    seat = Seat(ctx, game_id)
    _act(ctx, seat, {"type": "draw", "player": seat.player(player), "count": count, "printed": printed})


@click.command("move")
@GAME
@click.argument("card")
@click.argument("zone", type=click.Choice(("library", "hand", "battlefield", "graveyard", "exile", "stack",
                                           "command")))
@click.option("--player", default=None, shell_complete=player_completion,
              help="Who it is for: the new controller, or whose library it leaves.")
@click.option("--name", default=None, shell_complete=card_name_completion, help=_NAME_OPTION_HELP)
@click.option("--face-down/--face-up", "face_down", default=None, help="Face down or face up where it goes.")
@click.option("--pentaland", is_flag=True, default=None, help="Play it face down as a Pentaland (703).")
@click.option("--position", type=click.Choice(("top", "bottom")), default=None, help="Into the library: where.")
@click.option("--via", type=click.Choice(VIA_CHOICES), default=None, help="How it goes face down (705.4).")
@click.pass_context
@guarded
def game_move(ctx, game_id, card, zone, player, name, face_down, pentaland, position, via):
    """Move CARD to ZONE, naming it in the same step when the rules ask (705.1–705.3)."""
    seat = Seat(ctx, game_id)
    _act(ctx, seat, {"type": "move", "card": seat.card(card), "to": zone,
                     "player": seat.player(player) if player else None, "name": name, "face_down": face_down,
                     "pentaland": pentaland, "position": position, "via": via})


@click.command("name")
@GAME
@click.argument("card")
@click.argument("name", shell_complete=card_name_completion)
@click.option("--player", default=None, shell_complete=player_completion, help="Who names it (default: its holder).")
@click.option("--choice", is_flag=True, default=None,
              help="--player names a card an effect has them choose, though not theirs (705.5, D11).")
@click.pass_context
@guarded
def game_name(ctx, game_id, card, name, player, choice):
    """Name CARD as NAME (704.1): refused with the rule when the name is taken (704.2) or not a candidate."""
    seat = Seat(ctx, game_id)
    _act(ctx, seat, {"type": "name", "card": seat.card(card), "name": name,
                     "player": seat.player(player) if player else None, "choice": choice})


@click.command("face-up")
@GAME
@click.argument("card")
@click.option("--name", default=None, shell_complete=card_name_completion, help=_NAME_OPTION_HELP)
@click.option("--via", type=click.Choice(VIA_CHOICES), default=None,
              help="How it is turned up (default: how it went face down).")
@click.option("--choices", is_flag=True, help="Only say which names it could take now (705.4, 705.4a).")
@click.pass_context
@guarded
def game_face_up(ctx, game_id, card, name, via, choices):
    """Turn face-down CARD face up, named in the same step (705.4); --choices lists the names it may take."""
    from ..permissions import JUDGE
    from ..services import face_up

    seat = Seat(ctx, game_id)
    if choices:
        ans = face_up(uow(ctx), game_id, JUDGE, seat.card(card), via)
        click.echo(say("cli.turned_up_via", card=seat.ref(ans["card"]), via=word_of("via", ans["via"]),
                       rule=ans["rule"], advice=ans["advice"]))
        for n in ans["allowed"]:  # each a CardName: worded in the CLI's language
            click.echo(f"  {said(n)}")
        return
    _act(ctx, seat, {"type": "turn_face_up", "card": seat.card(card), "name": name, "via": via})


def _reveal_or_look(ctx, kind: str, game_id, player, cards, top, end, **extra) -> None:
    seat = Seat(ctx, game_id)
    ids = [seat.card(c) for c in cards] or None
    if end:
        if top is not None or not ids:
            raise Misused(str(say("cli.end_needs_cards")))
        _act(ctx, seat, {"type": f"end_{kind}", "cards": ids})
        return
    _act(ctx, seat, {"type": kind, "player": seat.player(player), "cards": ids, "count": top, **extra})


@click.command("reveal")
@GAME
@PLAYER
@click.argument("cards", nargs=-1)
@click.option("--top", type=int, default=None, help="Reveal the top N cards of the library instead.")
@click.option("--continuous", is_flag=True, help="Revealed by a continuous effect (its owner doesn't change).")
@click.option("--end", is_flag=True, help="End the reveal of CARDS.")
@click.pass_context
@guarded
def game_reveal(ctx, game_id, player, cards, top, continuous, end):
    """PLAYER reveals CARDS (or the top N of the library) (702.2b); --end ends it."""
    _reveal_or_look(ctx, "reveal", game_id, player, cards, top, end, continuous=continuous or None)


@click.command("look")
@GAME
@PLAYER
@click.argument("cards", nargs=-1)
@click.option("--top", type=int, default=None, help="Look at the top N cards of the library instead.")
@click.option("--end", is_flag=True, help="End the look at CARDS.")
@click.pass_context
@guarded
def game_look(ctx, game_id, player, cards, top, end):
    """PLAYER looks at CARDS (or the top N of the library) (702.2c); --end ends it."""
    _reveal_or_look(ctx, "look", game_id, player, cards, top, end)


@click.command("leave")
@GAME
@PLAYER
@click.option("--returned", "returned", multiple=True, metavar="CARD",
              help="A card PLAYER controls only through a control-changing effect: back to its owner (D9).")
@click.pass_context
@guarded
def game_leave(ctx, game_id, player, returned):
    """PLAYER leaves the game: what they own leaves with them, what they only control is exiled (800.4a, D9)."""
    seat = Seat(ctx, game_id)
    _act(ctx, seat, {"type": "leave_game", "player": seat.player(player),
                     "returned": [seat.card(c) for c in returned] or None})


@click.command("shuffle")
@GAME
@PLAYER
@click.option("--at", type=int, default=None, help="The cut seen at the table: this many cards from the top.")
@click.pass_context
@guarded
def game_shuffle(ctx, game_id, player, at):
    """PLAYER's effect would shuffle the common library: it is cut instead, at --at or at random (701.1b)."""
    seat = Seat(ctx, game_id)
    _act(ctx, seat, {"type": "shuffle", "player": seat.player(player), "at": at})


@click.command("undo")
@GAME
@click.pass_context
@guarded
def game_undo(ctx, game_id):
    """Take back the last event: the game is exactly as it was before it."""
    from ..permissions import JUDGE
    from ..services import undo

    seat = Seat(ctx, game_id)
    done = undo(uow(ctx), game_id, JUDGE)
    click.echo(say("cli.undone", event=seat.event_line(done["undone"]).strip()))


COMMANDS = (game_draw, game_move, game_name, game_face_up, game_reveal, game_look, game_leave, game_shuffle, game_undo)
