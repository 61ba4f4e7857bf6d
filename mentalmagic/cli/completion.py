"""What the shell completes: card names, game ids, players, the next word of a `game do` line."""

from __future__ import annotations

import click

from .context import db_path


def card_name_completion(ctx, param, incomplete: str):
    """Card names from the pool, English or French, for the shell (a prefix search in SQLite)."""
    from ..storage.carddb import names_starting

    return names_starting(db_path(ctx), incomplete)


def _game_completion(ctx, param, incomplete: str):
    from ..storage.gamedb import game_ids_starting

    try:
        return game_ids_starting(db_path(ctx), incomplete)
    except Exception:  # no database yet, or not one: nothing to offer  # noqa: BLE001
        return []


def player_completion(ctx, param, incomplete: str):
    from ..storage.gamedb import player_names_starting

    game_id = ctx.params.get("game_id")
    if not game_id:
        return []
    try:
        return player_names_starting(db_path(ctx), game_id, incomplete)
    except Exception:  # noqa: BLE001
        return []


def line_completion(ctx, param, incomplete: str):
    """The next word of a `game do` line (grammar.suggest): a player, a verb, a zone, a card name..."""
    from ..grammar import Table, suggest
    from ..storage.carddb import names_starting
    from ..storage.gamedb import stored_setup

    try:
        setup = stored_setup(db_path(ctx), ctx.params.get("game_id") or "")
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
