"""What the judge (or a seat) sees of a game: game show, game log, game could-be."""

from __future__ import annotations

import json

import click

from ..game import game_losses
from ..messages import WORDS, chain, say, word_of
from .completion import GAME, PLAYER, card_name_completion, player_completion
from .context import guarded, uow
from .seat import Seat

_ZONE_ORDER = ("hand", "stack", "battlefield", "graveyard", "exile", "command", "library", "removed")
_BY_OWNER = ("hand", "graveyard")


@click.command("show")
@GAME
@click.option("--as", "as_player", default=None, shell_complete=player_completion,
              help="A player's name or id: show the game as that seat sees it (no hidden card).")
@click.option("--library", "whole_library", is_flag=True, help="The judge: list the whole library, top first.")
@click.option("--json", "as_json", is_flag=True, help="Print the read model's JSON (what GET /games/GAME answers).")
@click.pass_context
@guarded
def game_show(ctx, game_id, as_player, whole_library, as_json):
    """The game as the judge sees it (or a seat, with --as): players, every zone with its cards, names taken.

    Each card has a number (#1…), fixed for the game, that every other command accepts.
    `?` is a card whose printed identity the viewer may not see.
    """
    from ..services import game as game_view
    from ..services import names as names_view

    seat = Seat(ctx, game_id)
    caller = seat.caller(as_player)
    view = game_view(uow(ctx), game_id, caller)
    if as_json:
        click.echo(json.dumps(view, ensure_ascii=False, indent=1))
        return
    for line in show_lines(seat, view, names_view(uow(ctx), game_id, caller)["names"], caller, whole_library):
        click.echo(line)


def show_lines(seat: Seat, view: dict, taken: list[dict], caller, whole_library: bool = False) -> list[str]:
    """`game show` as lines: the game as ``caller`` is shown it by the read model (the seat page's
    view: views.game_view, names_view). D15: each card by the id the view gives, a number only where
    the view gives one (a card the caller sees), a hidden card by no number and in the view's order."""
    state = seat.game.state
    out = []
    hybrid = say("cli.phyrexian_as_hybrid") if view["options"].get("phyrexian_as_hybrid") else ""
    out.append(say("cli.show_header", id=view["id"], format=view["format"], seq=view["seq"], n=view["library_size"],
                   hybrid=hybrid, who=say("cli.the_judge") if caller.is_judge else seat.who(caller.player)))
    if view["rules"]["differs"]:  # a variant: which, and its own rules where it differs (docs/rule-sets.md)
        rules = view["rules"]
        source = word_of("rules.source", rules["key"]) if f"rules.source.{rules['key']}" in WORDS else rules["source"]
        out.append(say("cli.rules_differ", source=source, aspects=[
            word_of("cli.aspect", d["aspect"], rule=word_of("rules.cite", d["rule"])) for d in rules["differs"]]))
    out.append(say("cli.players", players=[_player(p) for p in view["players"]]))
    groups: dict[tuple[str, str], list[dict]] = {}
    for c in view["cards"]:
        if c["zone"] == "library" and caller.is_judge and not (
                whole_library or c["revealed"] or state.cards[c["id"]].looked_by):
            continue
        key = (c["zone"], c["owner"] if c["zone"] in _BY_OWNER else "")
        groups.setdefault(key, []).append(c)
    library_pos = {cid: i for i, cid in enumerate(state.library, 1)}
    for zone in _ZONE_ORDER:
        for (z, owner), cards in sorted(groups.items(), key=lambda kv: kv[0][1]):
            if z != zone:
                continue
            title = say("cli.zone_of", zone=word_of("cli.zone", zone), name=seat.who(owner)) if owner \
                else word_of("cli.zone", zone)
            out.append(say("cli.zone_count", zone=title, n=len(cards)))
            if zone == "library":
                cards.sort(key=lambda c: library_pos.get(c["id"], 0))
            else:  # the numbered first, by number; the hidden after them, as the view lists them
                cards.sort(key=lambda c: (_number(c) is None, _number(c) or 0))
            out.extend("  " + _card_row(seat, c, library_pos, zone) for c in cards)
    if taken:
        out.append(say("cli.names_taken", names=[
            say("cli.name_taken", name=seat.said(n["name"]), card=seat.ref(n["card"]), player=seat.who(n["player"]))
            for n in taken]))
    return [str(line) for line in (*out, *_ending(seat, view))]


def _player(p: dict):
    """'Ana (p1, team red, lost)': a player of `game show`'s players line."""
    status = None if p["status"] == "in_game" else word_of("cli.status", p["status"])
    code = "cli.player" + ("_team" if p["team"] else "") + ("_status" if status else "")
    return say(code, name=p["name"], id=p["id"], team=p["team"], status=status)


_WHY = ("no_legal_name", "taken_before", "own_side")  # why D8 left no name (the loss's ``why``): cli.why.*


def _ending(seat: Seat, view: dict) -> list[str]:
    """Who is out and why, and the end of the game with who won (104.2a) or the judge's end."""
    out = []
    for e in reversed(seat.game_events()):
        d = e["data"]
        for loss in game_losses(d.get("game_loss")):  # and those it caused in turn (D8)
            if loss["rule"] == "903.10a":
                why = say("cli.lost_commander_damage", total=d["total"], commander=seat.ref(d["commander"]))
            elif loss.get("why") in _WHY:
                why = say("cli.lost_d8_why", why=word_of("cli.why", loss["why"]))
            else:
                why = say("cli.lost_d8")
            out.append(str(say("cli.out_lost", player=seat.who(loss["player"]), seq=e["seq"], rule=loss["rule"],
                               why=why)))
        if e["type"] == "leave_game":
            out.append(str(say("cli.out_left", player=seat.who(d["player"]), seq=e["seq"], rule=e.get("rule") or "D9")))
    finished = view.get("finished")
    if finished:
        if finished["by"] == "judge":
            out.append(str(say("cli.over_by_judge", seq=finished["seq"])))
        else:
            winners = [seat.who(p) for p in finished["winners"]] or say("cli.nobody")
            out.append(str(say("cli.over_won", seq=finished["seq"], rule=finished["rule"], winners=winners,
                               n=len(finished["winners"]) or 1)))
    return out


def _number(c: dict) -> int | None:
    """A card's number (#1…) where the view gives one: never on a card hidden from the seat (D15)."""
    return c.get("handle")


def _card_row(seat: Seat, c: dict, library_pos: dict, zone: str) -> str:
    marks = []
    seen = _number(c) is not None
    if c["named_as"]:
        marks.append(say("cli.named", name=seat.said(c["named_as"])))
    if c.get("earlier_names"):  # MageRing: the names it dropped, shown to who sees the card (D15)
        marks.append(say("cli.named_before", names=[seat.said(n) for n in c["earlier_names"]]))
    if c["pentaland"]:
        marks.append(say("cli.pentaland"))
    elif c["face_down"]:
        marks.append(say("cli.face_down"))
    if c["revealed"]:
        marks.append(say("cli.revealed"))
    looked = seat.game.state.cards[c["id"]].looked_by if seen else ()
    if looked:
        marks.append(say("cli.looked_by", players=[seat.who(p) for p in looked]))
    if zone == "library":
        marks.append(say("cli.from_top", n=library_pos[c["id"]] if seen else "?"))
    elif zone not in _BY_OWNER and c["owner"]:
        holder = c["controller"] or c["owner"]
        marks.append(say("cli.owner", holder=seat.who(holder), owner=seat.who(c["owner"])) if holder != c["owner"]
                     else seat.who(holder))
    printed = seat.said(c["printed"]) if c.get("printed") else "?"  # D15: a hidden card stays "?"
    number = f"#{c['handle']}" if seen else ""  # ...and has no number
    return f"{number:>5}  {printed:<32} {chain(marks)}".rstrip()


@click.command("log")
@GAME
@click.option("--as", "as_player", default=None, shell_complete=player_completion,
              help="The log as that player sees it (no printed card drawn by another).")
@click.option("--json", "as_json", is_flag=True, help="Print the events' JSON (what GET /games/GAME/events answers).")
@click.pass_context
@guarded
def game_log(ctx, game_id, as_player, as_json):
    """Every event of the game, oldest first, with its rule."""
    from ..services import events

    seat = Seat(ctx, game_id)
    answer = events(uow(ctx), game_id, seat.caller(as_player))
    if as_json:
        click.echo(json.dumps(answer, ensure_ascii=False, indent=1, default=str))  # a note: worded in --lang
        return
    for e in answer["events"]:
        click.echo(seat.event_line(e))


@click.command("export")
@GAME
@click.option("--json", "as_json", is_flag=True,
              help="The judge's whole record as JSON (GET /games/GAME/export): what `game import` reads.")
@click.pass_context
@guarded
def game_export(ctx, game_id, as_json):
    """The final state and the whole log, as the judge sees them, in the CLI's language (--lang): the words of
    the page's export; or --json, the whole record, to keep after the game or carry to another machine
    (`game import`, `game verify`)."""
    from ..permissions import JUDGE
    from ..services import events, export_game
    from ..services import game as game_view
    from ..services import names as names_view

    if as_json:
        click.echo(json.dumps(export_game(uow(ctx), game_id, JUDGE), ensure_ascii=False, indent=1, default=str))
        return
    game = game_view(uow(ctx), game_id, JUDGE)
    log = events(uow(ctx), game_id, JUDGE)["events"]
    taken = names_view(uow(ctx), game_id, JUDGE)["names"]
    from .export import Words, game_text

    seat = Seat(ctx, game_id)
    click.echo(game_text(Words(ctx.obj.get("lang") or "en"), game, log, taken, seat.ref, seat.said), nl=False)


@click.command("could-be")
@GAME
@PLAYER
@click.argument("name", shell_complete=card_name_completion)
@click.pass_context
@guarded
def game_could_be(ctx, game_id, player, name):
    """705.11: which unnamed cards of PLAYER's hand could be named NAME? Exit status 1 when none."""
    from ..permissions import JUDGE
    from ..services import could_be

    seat = Seat(ctx, game_id)
    ans = could_be(uow(ctx), game_id, JUDGE, seat.player(player), name)
    name = seat.said(ans["name"])
    if ans["taken"]:
        click.echo(say("cli.could_be_taken", name=name))
    elif ans["cards"]:
        click.echo(say("cli.could_be", name=name, rule=ans["rule"], cards=" ".join(seat.ref(c) for c in ans["cards"])))
    else:
        click.echo(say("cli.could_be_none", player=seat.who(ans["player"]), name=name, rule=ans["rule"]))
    ctx.exit(0 if ans["cards"] else 1)


COMMANDS = (game_show, game_log, game_export, game_could_be)
