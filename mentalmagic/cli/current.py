"""The current game of a database (issue 20): `game use ID`, else the last one created, so that a
whole game is played without typing its id again. Kept in a file beside the database, as the pool
cache is: the choice of the terminal, not part of any game."""

from __future__ import annotations

import json
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


def player_words(db: Path, game_id: str) -> set[str]:
    """The folded names and ids of a game's players, as a line's first word names one (grammar.Table)."""
    from ..names import fold

    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as conn:
            row = conn.execute("select json_extract(setup, '$.players') from games where id = ?", [game_id]).fetchone()
    except sqlite3.Error:
        return set()
    players = json.loads(row[0]) if row and row[0] else []
    return {fold(w) for p in players for w in (p["id"], p["name"])}


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
        if takes_game and name != "use" and "--help" not in rest:
            db = db_path(ctx)
            # a command whose only argument is GAME reads a first word as a game id (`game show nope`: no such game)
            only_game = not any(isinstance(p, click.Argument) and p.name != "game_id" for p in cmd.params)
            words = _arguments(cmd, rest)  # options may come first: `game show --as ben GAME`
            given = bool(words) and (exists(db, words[0]) or only_game)
            if ctx.resilient_parsing:  # the shell completing: ``rest`` holds the words before the one completed
                return name, cmd, _completing(db, rest, words, given)
            if not given:
                game_id = current(db)
                if game_id is None:
                    raise Misused(str(say("cli.no_current_game")))
                if _meant_a_game(cmd, words, player_words(db, game_id)):
                    raise Misused(str(say("cli.no_such_game", game=repr(words[0]))))
                rest = [game_id, *rest]
        return name, cmd, rest


def _completing(db: Path, rest: list[str], words: list[str], given: bool) -> list[str]:
    """The words a completion reads: with the current game before them when a word typed isn't a
    game (`game do ana d<TAB>`). With no word typed yet, GAME is the one completed: its completion
    offers the game ids and what comes next on the current game (completion.py)."""
    game_id = None if given or not words else current(db)
    return rest if game_id is None else [game_id, *rest]


def _meant_a_game(cmd: click.Command, words: list[str], players: set[str]) -> bool:
    """Is the first word, a game of no one, meant as GAME (`game draw nosuchgame ana 2`, `game do
    nosuchgame ana draw 1`) rather than as the command's next argument? Yes when the words are more
    than the command takes without a game, or when the first names no player and the next one
    begins with one: said so first ("no game …"), before anything read in the wrong place."""
    from ..names import fold

    takes = [p for p in cmd.params if isinstance(p, click.Argument) and p.name != "game_id"]
    most = None if any(p.nargs < 0 for p in takes) else sum(p.nargs for p in takes)
    if most is not None and len(words) > most:
        return True

    def a_player(word: str) -> bool:
        key = fold(word.split()[0]) if word.split() else ""
        return bool(key) and (key in players or any(w.startswith(key) for w in players))

    return len(words) > 1 and not a_player(words[0]) and a_player(words[1])


def _arguments(cmd: click.Command, args: list[str]) -> list[str]:
    """The words of ``args`` that are no option nor an option's value, as click will read them."""
    valued = {name for p in cmd.params if isinstance(p, click.Option) and not p.is_flag and not p.count
              for name in p.opts}
    out, words = [], iter(args)
    for word in words:
        if word == "--":
            return out + list(words)
        if word.startswith("-") and len(word) > 1:
            if word in valued:
                next(words, None)  # its value
            continue
        out.append(word)
    return out
