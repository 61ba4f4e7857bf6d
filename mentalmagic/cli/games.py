"""Games run by the judge at the table, in a terminal: the `game` group, with game new, list and
tokens here; what is seen (table.py), the actions (actions.py) and the grammar (lines.py).

The CLI opens the database file itself, so it acts as the judge of every game in it
(permissions.JUDGE) without a token: whoever can write the file could change any game anyway.
Every command goes through the API's path: a typed command (inputs.py, or grammar.py)
-> services -> actions.decide; every answer is read through views.py.
"""

from __future__ import annotations

import click

from .. import decks
from ..formats import DEFAULT_FORMAT, FORMATS
from ..messages import say
from ..names import fold
from ..rulesets import DEFAULT_RULES, RULE_SETS, game_options
from . import actions, lines, table
from .completion import GAME, player_completion
from .context import Failed, Misused, db_path, guarded, runtime, uow
from .current import CurrentGameGroup, remember
from .decks import decks_uow, print_deck, read_file
from .group import Group
from .seat import Seat


class GameGroup(CurrentGameGroup, Group):
    """The `game` group: commands list as the CLI's others do, and GAME may be left out (the current game)."""


@click.group(cls=GameGroup)
def game():
    """Run a game on this database as its judge: new, use, show, draw, move, name, face-up, do, undo…

    GAME may be left out: it is then the current game, chosen with `game use GAME`, else the
    last one created.

    The CLI holds the database file, so it acts as the judge of every game in it, without a
    token (whoever can write the file could change any game anyway); tokens are for the API
    and the pages. A card is its number in `game show` (1, #1) or its id; a player is a name
    or an id, any case. A refusal prints `refused (RULE): why` and exits with status 1.
    """


@game.command("new")
@click.argument("players", nargs=-1, required=True)
@click.option("--deck", "deck_id", default=None, help="A saved deck's id (`mentalmagic deck list`).")
@click.option("--list", "list_file", type=click.File("r", encoding="utf-8"), default=None,
              help="A deck list file (- for standard input), read as `deck check` reads it.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=DEFAULT_FORMAT, show_default=True)
@click.option("--no-shuffle", is_flag=True, help="Keep the list's order as the library, top first.")
@click.option("--phyrexian-as-hybrid", is_flag=True, help="House option of D3.")
@click.option("--rules", type=click.Choice(RULE_SETS), default=DEFAULT_RULES, show_default=True,
              help="The rule set (docs/rule-sets.md).")
@click.option("--skip-problems", is_flag=True, help="Start even when lines of the list load no card.")
@click.option("--commander", "commanders", multiple=True, metavar="PLAYER=NAME",
              help="--format commander: a player's commander (D14); twice for one player's two partners.")
@click.option("--series", "series_id", default=None, metavar="SERIES",
              help="A game of this series (`mentalmagic series new`), under its rule set; with --series-token.")
@click.option("--series-token", default=None, help="The series' token (`series new` printed it).")
@click.pass_context
@guarded
def game_new(ctx, players, deck_id, list_file, fmt, no_shuffle, phyrexian_as_hybrid, rules, skip_problems,
             commanders, series_id, series_token):
    """Start a game for PLAYERS (`Ana Ben Cara`, or `Ana:red Ben:blue` with teams) from a saved deck or a list.

    Prints the game's id and the tokens of the judge and of each player, shown only now (the
    database keeps their hashes; `game tokens` reissues a player's). The CLI itself needs none.
    """
    from ..runtime.inputs import CreateGameIn
    from ..services import create_game

    if (deck_id is None) == (list_file is None):
        raise Misused(str(say("cli.deck_or_list")))
    runtime(ctx, lacks_note=False)  # load the cards for a game (without the look-ups' note)
    saved = decks_uow(ctx)
    if deck_id is not None:
        library = decks.deck_library(saved, deck_id)
    else:
        deck = decks.read_deck(saved, read_file(list_file))
        if deck.problems:
            print_deck(deck.to_dict())
            if not skip_problems:
                raise Failed(str(say("cli.list_problems")))
        library = deck.library()
    seats = [dict(zip(("name", "team"), p.rsplit(":", 1), strict=False)) if ":" in p else {"name": p}
             for p in players]
    _seat_commanders(seats, commanders)
    body = CreateGameIn().load({"players": seats, "library": library, "format": fmt, "shuffle": not no_shuffle,
                                "options": {"phyrexian_as_hybrid": phyrexian_as_hybrid}, "rules": rules})
    options = game_options(body["options"], body["rules"])
    if series_id is not None:  # the series' rules, asked with its token as POST /games asks them
        from ..services import series_options

        named = ctx.get_parameter_source("rules") is not click.core.ParameterSource.DEFAULT
        asked = {**body["options"], **({"rules": body["rules"]} if named else {})}
        options = series_options(uow(ctx), series_id, f"Bearer {series_token}" if series_token else None, asked)
    created = create_game(uow(ctx), body["format"], options, body["players"], body["library"],
                          shuffle=body["shuffle"])
    click.echo(say("cli.game_created" if body["shuffle"] else "cli.game_created_unshuffled", id=created["id"],
                   n=created["library_size"], format=created["format"]))
    _seated_and_current(ctx, created)


@game.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.pass_context
@guarded
def game_import(ctx, file):
    """Rebuild a game from the judge's export (`game export --json`, the page's JSON export) on this database.

    Every event is replayed through the rules: a record with an illegal or altered event is
    refused with the event's number and the rule it breaks, and nothing is stored. The game keeps
    its players, names, log and rule set and gets new tokens, printed only now (docs/moving.md).
    """
    from ..services import import_game

    runtime(ctx, lacks_note=False)
    done = import_game(uow(ctx), _record(file))
    click.echo(say("cli.game_imported", id=done["id"], source=done["imported_from"] or "?", n=done["events"],
                   rules=done["rules"]["key"]))
    _seated_and_current(ctx, done)


@game.command("verify")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.pass_context
@guarded
def game_verify(ctx, file):
    """Replay an exported game (the judge's export) and say whether every event was legal under its rule set.

    Nothing is stored. A refused record prints the event's number, the rule and why, in --lang,
    and exits with status 1.
    """
    from ..services import import_game

    runtime(ctx, lacks_note=False)
    done = import_game(uow(ctx), _record(file), dry_run=True)
    click.echo(say("cli.record_holds", n=done["events"], rules=done["rules"]["key"]))


def _record(file) -> dict:
    import json

    try:
        return json.loads(read_file(file))
    except json.JSONDecodeError as e:
        raise Failed(str(say("cli.not_json", why=e))) from None


def _seated_and_current(ctx, created: dict) -> None:
    """A new game's tokens (shown only now), and the game made the current one."""
    _print_seats(created)
    remember(db_path(ctx), created["id"])
    click.echo(say("cli.now_current"))


def _print_seats(created: dict) -> None:
    """The judge's token and each seat's, shown only now."""
    click.echo(say("cli.judge_token", token=created["judge_token"]))
    for p in created["players"]:
        seat = {"id": p["id"], "name": p["name"], "team": p["team"], "token": p["token"]}
        click.echo(f"  {say('cli.seat_team_token' if p['team'] else 'cli.seat_token', **seat)}")


@game.command("use")
@GAME
@click.pass_context
@guarded
def game_use(ctx, game_id):
    """Make GAME the current game: the other `game` commands then take it when their GAME is left out."""
    from .current import exists

    if not exists(db_path(ctx), game_id):
        raise Misused(str(say("cli.no_such_game", game=repr(game_id))))
    remember(db_path(ctx), game_id)
    click.echo(say("cli.current_game", id=game_id))


def _seat_commanders(seats: list[dict], commanders: tuple[str, ...]) -> None:
    """--commander Ana="Krenko, Mob Boss": each seat's commander name(s), as POST /games takes them."""
    for spec in commanders:
        who, sep, name = spec.partition("=")
        seat = next((s for s in seats if fold(s["name"]) == fold(who.strip())), None)
        if not sep or not name.strip() or seat is None:
            raise Misused(str(say("cli.commander_spec", spec=repr(spec))))
        seat["commander"] = [*seat.get("commander", []), name.strip()]


@game.command("list")
@click.pass_context
@guarded
def game_list(ctx):
    """Every game of this database, newest first: id, events so far, format, players, and
    whether it is over (the judge ended it, or a player won) or archived (read-only)."""
    from ..services import list_games

    for g in list_games(uow(ctx)):
        marks = (("cli.game_over_mark", g["finished_at"]), ("cli.archived_mark", g["archived_at"]))
        status = "".join(f"  {say(code)}" for code, at in marks if at)
        seq = str(g["seq"])  # the count right-aligned in 4 columns, as ever
        click.echo(f"{g['id']}  {g['created_at'][:16].replace('T', ' ')}  "
                   f"{' ' * (4 - len(seq))}{say('cli.game_events', n=g['seq'])}  "
                   f"{g['format']:<9} {', '.join(g['players'])}{status}")


@game.command("tokens")
@GAME
@click.argument("players", nargs=-1, shell_complete=player_completion)
@click.option("--all", "every", is_flag=True, help="Reissue every player's token.")
@click.pass_context
@guarded
def game_tokens(ctx, game_id, players, every):
    """Reissue the tokens of PLAYERS (or --all): each new token is shown once; the old one stops working.

    A token can't be shown again: the database keeps only its hash (a copy of the file hands out
    no seat). Without PLAYERS this lists the seats and changes nothing.
    """
    from ..permissions import JUDGE
    from ..services import reissue_token

    seat = Seat(ctx, game_id)
    pids = list(seat.names) if every else [seat.player(p) for p in players]
    if not pids:
        click.echo(say("cli.tokens_hashed"))
        for pid, name in seat.names.items():
            click.echo(f"  {pid}  {name}")
        return
    for pid in dict.fromkeys(pids):
        token = reissue_token(uow(ctx), game_id, JUDGE, pid)["token"]
        click.echo(f"  {say('cli.token', id=pid, name=seat.who(pid), token=token)}")


for _module in (table, actions, lines):
    for _command in _module.COMMANDS:
        game.add_command(_command)

COMMANDS = (game,)
