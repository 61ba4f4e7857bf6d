"""The current game of a database (issue 20): `game use ID`, else the last one created, so that a
whole game is played without typing its id again. Kept in a file beside the database, as the pool
cache is: the choice of the terminal, not part of any game."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import click

from ..messages import say
from .context import Misused, db_path


def _path(db: Path) -> Path:
    return Path(f"{db}.current-game")


def remember(db: Path, game_id: str) -> None:
    try:
        _path(db).write_text(game_id + "\n", encoding="utf-8")
    except OSError:  # a read-only folder: the last game created stays the current one
        pass


def exists(db: Path, game_id: str) -> bool:
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as conn:
            return conn.execute("select 1 from games where id = ?", [game_id]).fetchone() is not None
    except sqlite3.Error:
        return False


def current(db: Path) -> str | None:
    """The game chosen with `game use`, while it exists; else the last one created; else None."""
    try:
        chosen = _path(db).read_text(encoding="utf-8").strip()
    except OSError:
        chosen = ""
    if chosen and exists(db, chosen):
        return chosen
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as conn:
            row = conn.execute("select id from games order by created_at desc, id limit 1").fetchone()
    except sqlite3.Error:
        return None
    return row[0] if row else None


class CurrentGameGroup(click.Group):
    """A command of the group whose first argument is GAME takes the current game when its first
    word is not a game of the database (`game show`, `game do ana draw 1`)."""

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name, cmd, rest = super().resolve_command(ctx, args)
        takes_game = cmd is not None and any(p.name == "game_id" for p in cmd.params)
        if takes_game and name != "use" and not ctx.resilient_parsing and "--help" not in rest:
            db = db_path(ctx)
            # a command whose only argument is GAME reads a first word as a game id (`game show nope`: no such game)
            only_game = not any(isinstance(p, click.Argument) and p.name != "game_id" for p in cmd.params)
            first = _first_argument(cmd, rest)  # options may come first: `game show --as ben GAME`
            given = first is not None and (exists(db, first) or only_game)
            if not given:
                game_id = current(db)
                if game_id is None:
                    raise Misused(str(say("cli.no_current_game")))
                rest = [game_id, *rest]
        return name, cmd, rest


def _first_argument(cmd: click.Command, args: list[str]) -> str | None:
    """The first word of ``args`` that is no option nor an option's value, as click will read it."""
    valued = {name for p in cmd.params if isinstance(p, click.Option) and not p.is_flag and not p.count
              for name in p.opts}
    words = iter(args)
    for word in words:
        if word == "--":
            return next(words, None)
        if word.startswith("-") and len(word) > 1:
            if word in valued:
                next(words, None)  # its value
            continue
        return word
    return None
