"""What the shell completes: card names, game ids, players, the next word of a `game do` line.

GAME may be left out for the current game (cli/current.py): once a word is typed that is no game,
the group reads the line on the current game (``CurrentGameGroup``), so `game do ana d<TAB>` and
`game draw ana <TAB>` complete as with the id typed; before any word, GAME's completion offers the
game ids and what comes next on the current game (`game do a<TAB>`, `game draw A<TAB>`)."""

from __future__ import annotations

import click
from click.shell_completion import CompletionItem

from .context import db_path
from .current import current


def card_name_completion(ctx, param, incomplete: str):
    """Card names from the pool, English or French, for the shell (a prefix search in SQLite)."""
    from ..storage.carddb import names_starting

    return names_starting(db_path(ctx), incomplete)


def _game_completion(ctx, param, incomplete: str):
    """Game ids; and, GAME being optional, the next argument's completion on the current game."""
    from ..storage.gamedb import game_ids_starting

    try:
        ids = [CompletionItem(game) for game in game_ids_starting(db_path(ctx), incomplete)]
        game = current(db_path(ctx))
    except Exception:  # no database yet, or not one: nothing to offer  # noqa: BLE001
        return []
    args = [p for p in ctx.command.params if isinstance(p, click.Argument)]
    after = args[args.index(param) + 1:]
    if game is None or not after:
        return ids
    saved = ctx.params.get("game_id")
    ctx.params["game_id"] = game
    try:
        return ids + after[0].shell_complete(ctx, incomplete)
    finally:
        ctx.params["game_id"] = saved


def _game_of(ctx) -> str | None:
    """The game a completion is on: the one read (typed, or the current game put before the words
    typed), else, with nothing typed yet (an option's value), the current game."""
    return ctx.params.get("game_id") or current(db_path(ctx))


def player_completion(ctx, param, incomplete: str):
    from ..storage.gamedb import player_names_starting

    try:
        game_id = _game_of(ctx)
        return player_names_starting(db_path(ctx), game_id, incomplete) if game_id else []
    except Exception:  # noqa: BLE001
        return []


def line_completion(ctx, param, incomplete: str):
    """The next word of a `game do` line (grammar.suggest): a player, a verb, a zone, a card name..."""
    from ..grammar import Table, suggest
    from ..storage.carddb import names_starting
    from ..storage.gamedb import stored_setup

    try:
        setup = stored_setup(db_path(ctx), _game_of(ctx) or "")
    except Exception:  # no database yet, or not one  # noqa: BLE001
        return []
    if setup is None:
        return []
    typed = [*(ctx.params.get("line") or ()), incomplete]
    hint = suggest(" ".join(typed), Table.of(setup))
    if hint.kind == "name":  # the shell replaces only the word being typed: offer the rest from there
        cut = len(hint.prefix) - len(incomplete)
        return [n[cut:] for n in names_starting(db_path(ctx), hint.prefix) if cut >= 0]
    return list(hint.words)


GAME = click.argument("game_id", metavar="[GAME]", shell_complete=_game_completion)  # the current game if left out
PLAYER = click.argument("player", shell_complete=player_completion)
