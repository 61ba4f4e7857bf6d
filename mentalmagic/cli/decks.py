"""Saved common decks (700.2, docs/api.md "Decks"): deck add, list, show, export, check."""

from __future__ import annotations

import click

from .. import decks
from ..errors import ArbiterError
from ..messages import card_name, say
from .context import Failed, fail, guarded, runtime, suggested, with_other
from .group import Group


@click.group(cls=Group)
def deck():
    """Saved common decks: add a list, list them, show, export, or check a list without saving."""


def decks_uow(ctx: click.Context):
    """The saved decks of the database, read against the cards (loaded once per run)."""
    obj = ctx.find_root().obj
    if "decks" not in obj:
        from ..storage.deckdb import DeckStore

        obj["decks"] = DeckStore(obj["db"], runtime(ctx).pool)
    return obj["decks"].unit_of_work()


def print_deck(view: dict) -> None:
    """Problems with their suggestions, then flags: what a judge reads before the game."""
    click.echo(say("cli.deck_size", n=view["size"], lines=say("cli.lines", n=len(view["cards"]))))
    for p in view["problems"]:
        hint = suggested(p["suggestions"]) if p["suggestions"] else ""
        rule = f" ({p['rule']})" if p.get("rule") else ""
        click.echo(f"  {say('cli.deck_problem', line=p['line'], text=repr(p['text']), why=p['message'])}{rule}{hint}")
    for f in view["flags"]:
        for r in f["reasons"]:
            click.echo(f"  {say('cli.deck_flag', rule=r['rule'], why=r['message'])}")
    if not view["legalities_known"]:
        click.echo(f"  {say('cli.no_legalities')}")


def read_file(file) -> str:
    try:
        return file.read()
    except UnicodeDecodeError as e:
        raise Failed(str(say("cli.not_utf8", why=e))) from e


@deck.command("add")
@click.argument("name")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.pass_context
@guarded
def deck_add(ctx, name, file):
    """Save the deck list in FILE (- for standard input) as NAME; print its id and edit token (shown once)."""
    from ..runtime.inputs import CreateDeckIn

    body = CreateDeckIn().load({"name": name, "list": read_file(file)})  # what POST /decks refuses, refused
    try:
        view = decks.create_deck(decks_uow(ctx), body["name"], body["list"])
    except ArbiterError as e:
        fail(e)
    click.echo(say("cli.deck_saved", id=view["id"], name=view["name"]))
    click.echo(say("cli.edit_token", token=view["edit_token"]))
    print_deck(view)


@deck.command("list")
@click.pass_context
def deck_list(ctx):
    """Every saved deck: id, size, name."""
    for d in decks.list_decks(decks_uow(ctx)):
        click.echo(f"{d['id']}  {d['size']:>5}  {d['name']}")


@deck.command("show")
@click.argument("deck_id")
@click.pass_context
def deck_show(ctx, deck_id):
    """One saved deck: its cards, then the lines it couldn't load and the flags."""
    try:
        view = decks.get_deck(decks_uow(ctx), deck_id)
    except ArbiterError as e:
        fail(e)
    click.echo(f"{view['id']}  {view['name']}")
    for c in view["cards"]:
        click.echo(f"  {c['count']:>4} {with_other(card_name(c['name'], c['french_name']))}")
    print_deck(view)


@deck.command("export")
@click.argument("deck_id")
@click.pass_context
def deck_export(ctx, deck_id):
    """Print a saved deck as text, one `4 Shock` line per card (`deck add` reads it back)."""
    try:
        click.echo(decks.export_deck(decks_uow(ctx), deck_id), nl=False)
    except ArbiterError as e:
        fail(e)


@deck.command("check")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.pass_context
def deck_check(ctx, file):
    """Read the list in FILE (- for standard input) without saving it; exit 1 when a line has a problem."""
    try:
        view = decks.read_deck(decks_uow(ctx), read_file(file)).to_dict()
    except ArbiterError as e:
        fail(e)
    print_deck(view)
    ctx.exit(1 if view["problems"] else 0)


COMMANDS = (deck,)
