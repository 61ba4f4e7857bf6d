"""The database and its cards: init-db, build-cards, download-cards, self-check."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..carddata import source_from_env
from ..carddata.download import DEFAULT_URL, download, download_url
from ..catalogue import number
from ..messages import say
from ..runtime import CARD_FILE_ERRORS, ensure_cards, source_said
from ..storage import connect
from .context import Failed, fail


@click.command("init-db")
@click.pass_context
def init_db(ctx):
    """Create the database and apply schema.sql (idempotent)."""
    path: Path = ctx.obj["db"]
    path.parent.mkdir(parents=True, exist_ok=True)
    connect(path).conn.close()
    click.echo(say("cli.database_ready", path=path))


@click.command("build-cards")
@click.option("--source", "source_path", default=None,
              help="AtomicCards file (.json/.gz/.xz); default $MENTALMAGIC_CARDS, else the embedded snapshot.")
@click.option("--force", is_flag=True, help="Rebuild even if the source has not changed.")
@click.pass_context
def build(ctx, source_path, force):
    """Import the card source into the card tables."""
    try:
        source = source_from_env(source_path)
        path: Path = ctx.obj["db"]
        path.parent.mkdir(parents=True, exist_ok=True)
        built = ensure_cards(path, source, force=force)
    except CARD_FILE_ERRORS as e:  # a truncated or garbage file: say which, never "Aborted!"
        where = source_path or os.environ.get("MENTALMAGIC_CARDS") or say("cli.the_card_source")
        fail(OSError(say("cli.cannot_import", source=where, why=" ".join(str(e).split()) or type(e).__name__)))
    click.echo(say("cli.cards_built" if built else "cli.cards_current", source=source_said(source.label)))


@click.command("download-cards")
@click.option("--url", default=None, help=f"Where from (default $MENTALMAGIC_CARDS_URL or {DEFAULT_URL}).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to (default: beside the database).")
@click.pass_context
def download_cards(ctx, url, out):
    """Download the current AtomicCards file; then set MENTALMAGIC_CARDS to it."""
    url = url or download_url()
    name = url.rsplit("/", 1)[-1] or "AtomicCards.json.xz"
    out = out or ctx.obj["db"].parent / name
    tty = sys.stderr.isatty()

    def progress(done, total):
        if tty:
            pct = f" ({100 * done // total}%)" if total else ""
            click.echo(f"\r{done // 1024} KiB{pct}", nl=False, err=True)

    try:
        download(url, out, progress)
    except OSError as e:
        fail(OSError(say("cli.download_failed", url=url, why=str(e))))
    if tty:
        click.echo("", err=True)
    click.echo(say("cli.downloaded", path=out))


@click.command("self-check")
@click.pass_context
def self_check(ctx):
    """Run the start-up self-check (card file, database, card tables) without serving; exit 1 on a problem."""
    from ..runtime import StartupError, checked_runtime

    try:
        rt = checked_runtime(ctx.obj["db"])
    except StartupError as e:
        raise Failed(str(e)) from None
    click.echo(say("cli.self_check_ok", db=str(ctx.obj["db"]), n=number(len(rt.pool), ctx.obj.get("lang")),
                   source=source_said(rt.pool.info.source)))


COMMANDS = (init_db, build, download_cards, self_check)
