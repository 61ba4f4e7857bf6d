"""`mentalmagic backup FILE` and `mentalmagic restore FILE`: the whole database copied while it is
served, and a copy brought back (storage/backup.py, docs/moving.md)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click

from ..messages import say
from ..storage.backup import InUse, NotADatabase, backup, restore
from .context import Failed


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def backup_command(ctx, file):
    """Copy the whole database (every game, deck and series, and the cards) to FILE, also while it is served.

    The copy is the database as of one moment (SQLite's online backup): every action answered
    before it is in it. Written under a temporary name, then renamed: FILE is never half a copy.
    `mentalmagic restore FILE` brings it back; `game export --json` carries one game instead.
    """
    db = ctx.obj["db"]
    try:
        size = backup(db, file)
    except (OSError, sqlite3.Error) as e:
        raise Failed(str(say("cli.backup_failed", db=str(db), why=str(e) or type(e).__name__))) from None
    click.echo(say("cli.backup_done", db=str(db), file=str(file), kib=size // 1024))


@click.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_context
def restore_command(ctx, file):
    """Replace the database with FILE, a copy `mentalmagic backup` made; only while no server or command has it open.

    FILE is checked first (a SQLite database of the arbiter, whole). The database it replaces is
    kept beside it as DB.before-restore; the new one is copied under a temporary name, then
    renamed: the database is never half restored.
    """
    db = ctx.obj["db"]
    try:
        kept = restore(file, db)
    except InUse:
        raise Failed(str(say("cli.restore_in_use", db=str(db)))) from None
    except NotADatabase as e:
        raise Failed(str(say("cli.restore_not_database", file=str(file), why=str(e)))) from None
    except (OSError, sqlite3.Error) as e:
        raise Failed(str(say("cli.backup_failed", db=str(db), why=str(e) or type(e).__name__))) from None
    click.echo(say("cli.restored", db=str(db), file=str(file)))
    if kept is not None:
        click.echo(say("cli.restore_kept", kept=str(kept)))


COMMANDS = (backup_command, restore_command)
