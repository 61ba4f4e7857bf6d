"""The judge's command line: `mentalmagic candidates "Boros Guildmage"` and friends.

Works offline against the same SQLite database as the web app.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from pathlib import Path

import click

from cards import source_from_env
from cards.download import DEFAULT_URL, download, download_url

from .commander import can_be_commander, describe, find_commanders, identity_of
from .errors import ArbiterError
from .formats import DEFAULT_FORMAT, FORMATS
from .identity import identity_text
from .mana import ManaCost, ManaCostError, cost_words
from .runtime import CARD_FILE_ERRORS, default_db_path, ensure_cards, open_runtime, stale_source
from .storage import connect


def _runtime(ctx: click.Context):
    """The stored cards, as they are (a look-up never rebuilds them); say what they lack."""
    if "runtime" not in ctx.obj:
        try:
            rt = ctx.obj["runtime"] = open_runtime(ctx.obj["db"], rebuild=False)
            gc.freeze()  # the pool lives as long as the command: no collection need walk it
            warning = stale_source(ctx.obj["db"])
        except (OSError, ValueError) as e:  # a bad MENTALMAGIC_CARDS or MENTALMAGIC_BANLIST
            _fail(e)
        if warning:
            click.echo(f"warning: {warning}", err=True)
        if rt.pool.info.lacks:
            click.echo(f"note: this card source lacks {'; '.join(rt.pool.info.lacks)}", err=True)
    return ctx.obj["runtime"]


def _fail(e: Exception):
    raise click.ClickException(str(e)) from e


@click.group()
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SQLite file (default: $MENTALMAGIC_DB or instance/mentalmagic.sqlite).")
@click.pass_context
def main(ctx, db):
    """The Mental Magic arbiter."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db or default_db_path()


@main.command("init-db")
@click.pass_context
def init_db(ctx):
    """Create the database and apply schema.sql (idempotent)."""
    path: Path = ctx.obj["db"]
    path.parent.mkdir(parents=True, exist_ok=True)
    connect(path).conn.close()
    click.echo(f"database ready: {path}")


@main.command("build-cards")
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
        _fail(OSError(f"cannot import {source_path or os.environ.get('MENTALMAGIC_CARDS') or 'the card source'}: "
                      f"{' '.join(str(e).split()) or type(e).__name__}"))
    click.echo(("built" if built else "already current") + f": {source.label}")


@main.command("download-cards")
@click.option("--url", default=None, help=f"Where from (default $MENTALMAGIC_CARDS_URL or {DEFAULT_URL}).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to (default instance/AtomicCards.json.xz).")
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
        _fail(OSError(f"download from {url} failed: {e}"))
    if tty:
        click.echo("", err=True)
    click.echo(f"saved {out}\nuse it with: MENTALMAGIC_CARDS={out}")


def _printed_or_cost(rt, printed: str):
    """A card name if one is called so, else a mana cost ('{R/W}{R/W}', '1RR')."""
    try:
        return rt.pool.lookup(printed), None
    except ArbiterError:
        try:
            return None, ManaCost.parse(printed)
        except ManaCostError:
            raise click.ClickException(f"no card named {printed!r}, and it isn't a mana cost either") from None


COMMANDER = click.option("--commander", "commanders", multiple=True, metavar="NAME",
                         help="Only names within this commander's colour identity (903.5c); twice for partners.")


def _within(rt, commanders: tuple[str, ...]):
    """(identity, whose) for --commander, or (None, '') without it; a card that can't be one fails."""
    if not commanders:
        return None, ""
    try:
        cards = find_commanders(rt.pool, commanders)
        return identity_of(cards), f"{describe(cards)}'s"
    except ArbiterError as e:
        _fail(e)


@main.command()
@click.argument("printed")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=DEFAULT_FORMAT, show_default=True)
@click.option("--type", "type_", default=None, help="Only candidates of this type (e.g. creature).")
@click.option("--keyword", default=None, help="Only candidates with this keyword (e.g. morph).")
@click.option("--phyrexian-as-hybrid", is_flag=True, help="House option of D3.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@COMMANDER
@click.pass_context
def candidates(ctx, printed, fmt, type_, keyword, phyrexian_as_hybrid, as_json, commanders):
    """Names a printed card (or a cost like {R/W}{R/W}) may take (704.1)."""
    rt = _runtime(ctx)
    card, cost = _printed_or_cost(rt, printed)
    identity, whose = _within(rt, commanders)
    res = rt.finder.candidates(printed=card, cost=cost, fmt=fmt, phyrexian_as_hybrid=phyrexian_as_hybrid,
                               type_=type_, keyword=keyword, identity=identity)
    if as_json:
        click.echo(json.dumps({"costs": [str(c) for c in res.costs],
                               "candidates": [n.name for n in res.candidates]}, ensure_ascii=False))
        return
    if card is not None:
        label = card.name
    else:
        label = "A card with no mana cost" if cost.is_none else f"A card costing {cost}"
    as_ = " or ".join("a card with no mana cost" if c.is_none else c.text for c in res.costs) or "nothing known"
    within = f", within {whose} colour identity {identity_text(identity)} (903.5c)" if commanders else ""
    click.echo(f"{label} may be named as {as_} in {fmt}{within}: {len(res.candidates)} candidates (704.1)")
    for n in res.candidates:
        mark = "  [watched 706.4a]" if rt.pool.bans.status(n.card) == "watched" else ""
        click.echo(f"  {cost_words(n.cost):<16} {n.name}{mark}")
    if res.unknown_faces:
        click.echo(f"  (cost unknown to the card data: {', '.join(res.unknown_faces)})")


@main.command()
@click.argument("printed")
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=DEFAULT_FORMAT, show_default=True)
@click.option("--phyrexian-as-hybrid", is_flag=True)
@COMMANDER
@click.pass_context
def check(ctx, printed, name, fmt, phyrexian_as_hybrid, commanders):
    """May PRINTED (a card or a cost) be named NAME? Exit status 1 when not."""
    rt = _runtime(ctx)
    card, cost = _printed_or_cost(rt, printed)
    identity, whose = _within(rt, commanders)
    v = rt.finder.check(name, printed=card, cost=cost, fmt=fmt, phyrexian_as_hybrid=phyrexian_as_hybrid,
                        identity=identity, whose=whose)
    click.echo("legal" if v.legal else "NOT legal")
    for r in v.reasons:
        click.echo(f"  {r.rule}: {r.message}")
    ctx.exit(0 if v.legal else 1)


@main.command()
@click.argument("name")
@click.pass_context
def card(ctx, name):
    """Show one card, found by any English or French name."""
    rt = _runtime(ctx)
    try:
        c = rt.pool.lookup(name)
    except ArbiterError as e:
        _fail(e)
    click.echo(f"{c.name}" + (f"  ({c.french_name})" if c.french_name else "") + f"  [{c.layout}]")
    for f in c.faces:
        cost = "unknown cost" if f.cost is None else cost_words(f.cost)
        click.echo(f"  {f.name}: {cost} — {f.type_line}")
    click.echo("  offers: " + (", ".join(cost_words(x) for x in c.printed_costs) or "nothing known"))
    known = "unknown" if c.color_identity is None else identity_text(c.color_identity)
    click.echo(f"  colour identity: {known}" + ("; can be a commander (903.3)" if can_be_commander(c) else ""))
    status = rt.pool.bans.entry_for(c)
    if status:
        click.echo(f"  Mental Magic: {status.status} ({status.rule})")
    click.echo("  legal in: " + (", ".join(f for f, s in sorted(c.legalities.items()) if s == "legal") or "-"))


# -- saved decks (700.2, API.md "Decks") ------------------------------------------------------
@main.group()
def deck():
    """Saved common decks: add a list, list them, show, export, or check a list without saving."""


def _decks(ctx: click.Context):
    from .storage.deckdb import DeckStore

    return DeckStore(ctx.obj["db"], _runtime(ctx.find_root()).pool)


def _print_deck(view: dict) -> None:
    """Problems with their suggestions, then flags: what a judge reads before the game."""
    click.echo(f"{view['size']} cards on {len(view['cards'])} lines")
    for p in view["problems"]:
        hint = f" — did you mean: {', '.join(p['suggestions'])}?" if p["suggestions"] else ""
        rule = f" ({p['rule']})" if p.get("rule") else ""
        click.echo(f"  line {p['line']}: {p['text']!r}: {p['message']}{rule}{hint}")
    for f in view["flags"]:
        for r in f["reasons"]:
            click.echo(f"  flag {r['rule']}: {r['message']}")
    if not view["legalities_known"]:
        click.echo("  note: this card source has no legalities: format bans (706.1) are not flagged")


def _read_file(file) -> str:
    try:
        return file.read()
    except UnicodeDecodeError as e:
        raise click.ClickException(f"the list is not UTF-8 text: {e}") from e


@deck.command("add")
@click.argument("name")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.pass_context
def deck_add(ctx, name, file):
    """Save the deck list in FILE (- for standard input) as NAME; print its id and edit token (shown once)."""
    try:
        view = _decks(ctx).create(name, _read_file(file))
    except ArbiterError as e:
        _fail(e)
    click.echo(f"saved deck {view['id']} ({view['name']})")
    click.echo(f"edit token (shown only now): {view['edit_token']}")
    _print_deck(view)


@deck.command("list")
@click.pass_context
def deck_list(ctx):
    """Every saved deck: id, size, name."""
    for d in _decks(ctx).list():
        click.echo(f"{d['id']}  {d['size']:>5}  {d['name']}")


@deck.command("show")
@click.argument("deck_id")
@click.pass_context
def deck_show(ctx, deck_id):
    """One saved deck: its cards, then the lines it couldn't load and the flags."""
    try:
        view = _decks(ctx).get(deck_id)
    except ArbiterError as e:
        _fail(e)
    click.echo(f"{view['id']}  {view['name']}")
    for c in view["cards"]:
        click.echo(f"  {c['count']:>4} {c['name']}" + (f"  ({c['french_name']})" if c["french_name"] else ""))
    _print_deck(view)


@deck.command("export")
@click.argument("deck_id")
@click.pass_context
def deck_export(ctx, deck_id):
    """Print a saved deck as text, one `4 Shock` line per card (`deck add` reads it back)."""
    try:
        click.echo(_decks(ctx).export(deck_id), nl=False)
    except ArbiterError as e:
        _fail(e)


@deck.command("check")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.pass_context
def deck_check(ctx, file):
    """Read the list in FILE (- for standard input) without saving it; exit 1 when a line has a problem."""
    try:
        view = _decks(ctx).read(_read_file(file)).to_dict()
    except ArbiterError as e:
        _fail(e)
    _print_deck(view)
    ctx.exit(1 if view["problems"] else 0)


@main.command("self-check")
@click.pass_context
def self_check(ctx):
    """Run the start-up self-check (card file, database, card tables) without serving; exit 1 on a problem."""
    from .runtime import StartupError, checked_runtime

    try:
        rt = checked_runtime(ctx.obj["db"])
    except StartupError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"ok: {ctx.obj['db']} holds {len(rt.pool):,} cards from {rt.pool.info.source}")


def _serving():
    """The server settings (web/serving.py), imported only to serve: look-ups don't load Flask."""
    from .web import serving

    return serving


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=lambda: int(os.environ.get("PORT", "5000")), show_default="$PORT or 5000")
@click.option("--server", type=click.Choice(["waitress", "gunicorn"]), default=lambda: _serving().default_server(),
              show_default="waitress (gunicorn: only behind a buffering proxy)")
@click.option("--workers", type=int, default=lambda: _serving().default_workers(),
              show_default="$MENTALMAGIC_WORKERS or one per core (1 on Windows)", help="Server processes.")
@click.option("--threads", type=int, default=None,
              help="Threads per process (default 4 with gunicorn, 8 with waitress).")
@click.pass_context
def serve(ctx, host, port, server, workers, threads):
    """Serve the API and the pages with a production WSGI server (settings: web/serving.py).

    Refuses to start, with one line saying why and exit status 1, when the self-check fails.
    The limits and the access log are MENTALMAGIC_* settings (README, "Limits and logs").
    """
    from .runtime import StartupError
    from .settings import from_env
    from .web import create_app

    serving = _serving()
    try:
        settings = from_env()
        # cards built and loaded once, before any worker starts
        app = create_app({"DATABASE": str(ctx.obj["db"]), "SETTINGS": settings})
    except (StartupError, ValueError) as e:
        raise click.ClickException(str(e)) from None
    serving.raise_file_limit(settings.connection_limit)

    def ready():
        click.echo(f"Mental Magic arbiter on http://{host}:{port}/ ({len(app.extensions['mentalmagic'].pool)} cards, "
                   f"{server}, {workers} worker{'s' if workers != 1 else ''})")

    try:
        if server == "gunicorn":
            serving.serve_gunicorn(app, host, port, workers, threads or serving.THREADS_PER_WORKER,
                                   settings=settings, on_ready=ready)
        else:
            serving.serve_waitress(app, host, port, threads or serving.WAITRESS_THREADS,
                                   settings=settings, on_ready=ready, workers=workers)
    except OSError as e:  # the port is taken, or the address isn't this machine's
        raise click.ClickException(f"cannot listen on {host}:{port} ({e.strerror or e}): "
                                   "stop what runs there or choose another --port") from None


if __name__ == "__main__":
    main()
