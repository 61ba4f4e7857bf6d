"""The judge's command line: `mentalmagic candidates "Boros Guildmage"` and friends.

Works offline against the same SQLite database as the web app.
"""

from __future__ import annotations

import functools
import inspect
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
from .names import fold
from .runtime import CARD_FILE_ERRORS, default_db_path, ensure_cards, load_frozen, open_runtime, stale_source
from .storage import connect
from .zones import VIAS as VIA_CHOICES


def _runtime(ctx: click.Context, lacks_note: bool = True):
    """The stored cards, as they are (a look-up never rebuilds them); say what they lack."""
    if "runtime" not in ctx.obj:
        try:
            rt = ctx.obj["runtime"] = load_frozen(open_runtime, ctx.obj["db"], rebuild=False)
            warning = stale_source(ctx.obj["db"])
        except (OSError, ValueError) as e:  # a bad MENTALMAGIC_CARDS or MENTALMAGIC_BANLIST
            _fail(e)
        if warning:
            click.echo(f"warning: {warning}", err=True)
        if rt.pool.info.lacks and lacks_note:  # a look-up's answer may depend on it; a game's moves don't
            click.echo(f"note: this card source lacks {'; '.join(rt.pool.info.lacks)}", err=True)
    return ctx.obj["runtime"]


def _fail(e: Exception):
    raise click.ClickException(str(e)) from e


class _Group(click.Group):
    """A group whose list of commands shows each one's whole first paragraph, never cut with '...'."""

    group_class = type  # its subgroups (deck, game) list their commands the same way

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.short_help or " ".join((cmd.help or "").partition("\n\n")[0].split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=_Group)
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
    size, lines = view["size"], len(view["cards"])
    click.echo(f"{size} card{'s' * (size != 1)} on {lines} line{'s' * (lines != 1)}")
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
              show_default="$MENTALMAGIC_WORKERS or one per core and one more (1 on Windows)", help="Server processes.")
@click.option("--threads", type=int, default=None,
              help="Threads per process (default 4).")
@click.pass_context
def serve(ctx, host, port, server, workers, threads):
    """Serve the API and the pages with a production WSGI server (settings: web/serving.py).

    Refuses to start, with one line saying why and exit status 1, when the self-check fails.
    The limits and the access log are MENTALMAGIC_* settings (README, "Limits and logs").
    """
    from .runtime import StartupError
    from .web import create_app

    serving = _serving()
    try:
        # cards built and loaded once, before any worker starts; the MENTALMAGIC_* settings read
        # (a bad one is a ValueError naming it) and kept in app.config for the server
        app = load_frozen(create_app, {"DATABASE": str(ctx.obj["db"])})
    except (StartupError, ValueError) as e:
        raise click.ClickException(str(e)) from None

    cpus = serving.pinned_cores(app.config["SETTINGS"], workers)

    def ready():
        pinned = f", kept on cores {','.join(map(str, cpus))} in turn" if cpus else ""
        click.echo(f"Mental Magic arbiter on http://{host}:{port}/ ({len(app.extensions['mentalmagic'].pool)} cards, "
                   f"{server}, {workers} worker{'s' if workers != 1 else ''}{pinned})")

    try:
        serving.serve(app, server, host, port, workers, threads, on_ready=ready)
    except OSError as e:  # the port is taken, or the address isn't this machine's
        raise click.ClickException(f"cannot listen on {host}:{port} ({e.strerror or e}): "
                                   "stop what runs there or choose another --port") from None


# -- games: the judge at the table, in a terminal (issue 7) --------------------------------------
# The CLI opens the database file itself, so it acts as the judge of every game in it
# (permissions.JUDGE) without a token: whoever can write the file could change any game anyway.
# Every command goes through the API's path: a typed command (the API's schemas, or grammar.py)
# -> services -> actions.decide; every answer is read through views.py.
class _Refused(click.ClickException):
    """A domain error: `refused (RULE): why` on standard error, exit status 1; nothing changed (but
    for ``storage_failed``, whose message says its outcome is unknown)."""

    def __init__(self, error: ArbiterError):
        super().__init__(error.message)
        self.rule = error.rule

    def format_message(self) -> str:
        return f"refused ({self.rule}): {self.message}" if self.rule else self.message

    def show(self, file=None) -> None:
        prefix = "" if self.rule else "error: "
        click.echo(prefix + self.format_message(), err=True)


def _guarded(f):
    """Domain errors and unreadable input become one line and a non-zero exit status, never a traceback."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except Exception as e:
            # The schemas' and the grammar's errors, looked up only once raised: a card look-up
            # never imports marshmallow or the grammar (python -X importtime: ~40 ms of a 0.45 s answer).
            if isinstance(e, _loaded("marshmallow", "ValidationError")):
                raise click.UsageError(_field_messages(e.messages)) from None
            if isinstance(e, _loaded("mentalmagic.grammar", "GrammarError")):  # before ArbiterError: one of them
                raise click.UsageError(e.message) from None
            if isinstance(e, ArbiterError):
                raise _Refused(e) from None
            raise

    return wrapper


def _loaded(module: str, name: str) -> tuple[type, ...]:
    """The class ``module.name`` if that module has been imported, else none: what isinstance takes."""
    found = getattr(sys.modules.get(module), name, None)
    return (found,) if found is not None else ()


def _field_messages(messages, prefix: str = "") -> str:
    if isinstance(messages, dict):
        return "; ".join(_field_messages(v, f"{prefix}{k}: " if k != "_schema" else prefix)
                         for k, v in messages.items())
    if isinstance(messages, list):
        return "; ".join(_field_messages(m, prefix) for m in messages)
    return f"{prefix}{messages}"


def _store(ctx: click.Context):
    root = ctx.find_root()
    if "games" not in root.obj:
        from .storage.gamedb import GameStore

        root.obj["games"] = GameStore(root.obj["db"], _runtime(root, lacks_note=False).finder)
    return root.obj["games"]


def _uow(ctx: click.Context):
    return _store(ctx).unit_of_work()


class _Seat:
    """One game's players and card handles, to read what the judge typed and to print answers."""

    def __init__(self, ctx: click.Context, game_id: str):
        from .grammar import Table, handle_of

        self.game = _store(ctx).load(game_id)
        self.table = Table.of(self.game.setup)
        self.handles = handle_of(self.game.setup)
        self.names = {p.id: p.name for p in self.game.setup.players}

    def player(self, text: str) -> str:
        from .grammar import player_ref

        return player_ref(text, self.table)

    def card(self, text: str) -> str:
        from .grammar import card_ref

        return card_ref(text, self.table)

    def caller(self, as_player: str | None):
        from .permissions import JUDGE, Caller

        return JUDGE if as_player is None else Caller(player=self.player(as_player))

    def who(self, pid: str | None) -> str:
        return self.names.get(pid, pid or "judge")

    def ref(self, cid: str) -> str:
        return "#" + self.handles.get(cid, cid)

    def event_line(self, e: dict) -> str:
        """One event as a line: seq, type, who, the cards by handle, where, the naming, the rule."""
        d = e["data"]
        cards = d.get("cards") or ([d["card"]] if "card" in d else [])
        parts = [f"{e['seq']:>4}  {e['type']:<13}", self.who(e["player"] or d.get("player"))]
        if cards:
            parts.append(" ".join(self.ref(c) for c in cards))
        if d.get("printed"):
            parts.append(f"({d['printed']})")
        if "to" in d:
            parts.append(f"{d.get('from')} -> {d['to']}" + (f" ({d['position']})" if d.get("position") else ""))
        if e["type"] == "shuffle":
            parts.append(f"cut {d['at']} from the top" + (" (at random)" if d.get("random") else ""))
        if d.get("returned"):
            parts.append("returned " + " ".join(self.ref(c) for c in d["returned"]))
        if d.get("pentaland"):
            parts.append("as a Pentaland")
        elif d.get("face_down") and d.get("face_down_by"):
            parts.append(f"face down via {d.get('via', 'effect')}")
        if d.get("naming"):
            parts.append(f"named {d['naming']['name']}")
        loss = d.get("game_loss")
        if loss:
            parts.append(f"{self.who(loss['player'])} loses ({loss['rule']})")
        if e.get("rule"):
            parts.append(f"[{e['rule']}]")
        return "  ".join(parts)


def _card_name_completion(ctx, param, incomplete: str):
    """Card names from the pool, English or French, for the shell (a prefix search in SQLite)."""
    from .storage.carddb import names_starting

    return names_starting(_db_path(ctx), incomplete)


def _game_completion(ctx, param, incomplete: str):
    from .storage.gamedb import game_ids_starting

    try:
        return game_ids_starting(_db_path(ctx), incomplete)
    except Exception:  # no database yet, or not one: nothing to offer  # noqa: BLE001
        return []


def _player_completion(ctx, param, incomplete: str):
    from .storage.gamedb import player_names_starting

    game_id = ctx.params.get("game_id")
    if not game_id:
        return []
    try:
        return player_names_starting(_db_path(ctx), game_id, incomplete)
    except Exception:  # noqa: BLE001
        return []


def _line_completion(ctx, param, incomplete: str):
    """The next word of a `game do` line (grammar.suggest): a player, a verb, a zone, a card name..."""
    from .grammar import Table, suggest
    from .storage.carddb import names_starting
    from .storage.gamedb import stored_setup

    try:
        setup = stored_setup(_db_path(ctx), ctx.params.get("game_id") or "")
    except Exception:  # no database yet, or not one  # noqa: BLE001
        return []
    if setup is None:
        return []
    typed = [*(ctx.params.get("line") or ()), incomplete]
    hint = suggest(" ".join(typed), Table.of(setup))
    if hint.kind == "name":  # the shell replaces only the word being typed: offer the rest from there
        cut = len(hint.prefix) - len(incomplete)
        return [n[cut:] for n in names_starting(_db_path(ctx), hint.prefix) if cut >= 0]
    return list(hint.words)


def _db_path(ctx: click.Context) -> Path:
    """The database while the shell completes (the group's callback hasn't run then)."""
    root = ctx.find_root()
    return (root.obj or {}).get("db") or root.params.get("db") or default_db_path()


_GAME = click.argument("game_id", metavar="GAME", shell_complete=_game_completion)
_PLAYER = click.argument("player", shell_complete=_player_completion)
_NAME_OPTION_HELP = "The name it takes (English or French); the shell completes card names."


@main.group()
def game():
    """Run a game on this database as its judge: new, show, draw, move, name, face-up, do, undo…

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
@click.option("--skip-problems", is_flag=True, help="Start even when lines of the list load no card.")
@click.option("--commander", "commanders", multiple=True, metavar="PLAYER=NAME",
              help="--format commander: a player's commander (D14); twice for one player's two partners.")
@click.pass_context
@_guarded
def game_new(ctx, players, deck_id, list_file, fmt, no_shuffle, phyrexian_as_hybrid, skip_problems, commanders):
    """Start a game for PLAYERS (`Ana Ben Cara`, or `Ana:red Ben:blue` with teams) from a saved deck or a list.

    Prints the game's id and the tokens of the judge and of each player, shown only now (the
    database keeps their hashes; `game tokens` reissues a player's). The CLI itself needs none.
    """
    from .services import create_game
    from .web.schemas import CreateGameIn

    if (deck_id is None) == (list_file is None):
        raise click.UsageError("give one of --deck DECK or --list FILE")
    _store(ctx)  # load the cards for a game (without the look-ups' note)
    decks = _decks(ctx)
    if deck_id is not None:
        library = decks.library(deck_id)
    else:
        deck = decks.read(_read_file(list_file))
        if deck.problems:
            _print_deck(deck.to_dict())
            if not skip_problems:
                raise click.ClickException("some lines load no card: fix the list, or start with --skip-problems")
        library = deck.library()
    seats = [dict(zip(("name", "team"), p.rsplit(":", 1), strict=False)) if ":" in p else {"name": p}
             for p in players]
    _seat_commanders(seats, commanders)
    body = CreateGameIn().load({"players": seats, "library": library, "format": fmt, "shuffle": not no_shuffle,
                                "options": {"phyrexian_as_hybrid": phyrexian_as_hybrid}})
    created = create_game(_uow(ctx), body["format"], body["options"], body["players"], body["library"],
                          shuffle=body["shuffle"])
    click.echo(f"game {created['id']}: {created['library_size']} cards, {created['format']}"
               + ("" if body["shuffle"] else ", not shuffled"))
    click.echo(f"judge token (shown only now): {created['judge_token']}")
    for p in created["players"]:
        team = f" (team {p['team']})" if p["team"] else ""
        click.echo(f"  {p['id']}  {p['name']}{team}  token: {p['token']}")


def _seat_commanders(seats: list[dict], commanders: tuple[str, ...]) -> None:
    """--commander Ana="Krenko, Mob Boss": each seat's commander name(s), as POST /games takes them."""
    for spec in commanders:
        who, sep, name = spec.partition("=")
        seat = next((s for s in seats if fold(s["name"]) == fold(who.strip())), None)
        if not sep or not name.strip() or seat is None:
            raise click.UsageError(f"--commander {spec!r}: write PLAYER=NAME with one of the players given")
        seat["commander"] = [*seat.get("commander", []), name.strip()]


@game.command("list")
@click.pass_context
@_guarded
def game_list(ctx):
    """Every game of this database, newest first: id, events so far, format, players, and
    whether it is over (the judge ended it, or a player won) or archived (read-only)."""
    from .services import list_games

    for g in list_games(_uow(ctx)):
        marks = (("over", g["finished_at"]), ("archived", g["archived_at"]))
        status = "".join(f"  [{word}]" for word, at in marks if at)
        click.echo(f"{g['id']}  {g['created_at'][:16].replace('T', ' ')}  {g['seq']:>4} events  "
                   f"{g['format']:<9} {', '.join(g['players'])}{status}")


_ZONE_ORDER = ("hand", "stack", "battlefield", "graveyard", "exile", "command", "library", "removed")
_BY_OWNER = ("hand", "graveyard")


@game.command("show")
@_GAME
@click.option("--as", "as_player", default=None, shell_complete=_player_completion,
              help="A player's name or id: show the game as that seat sees it (no hidden card).")
@click.option("--library", "whole_library", is_flag=True, help="The judge: list the whole library, top first.")
@click.option("--json", "as_json", is_flag=True, help="Print the read model's JSON (what GET /games/GAME answers).")
@click.pass_context
@_guarded
def game_show(ctx, game_id, as_player, whole_library, as_json):
    """The game as the judge sees it (or a seat, with --as): players, every zone with its cards, names taken.

    Each card has a number (#1…), fixed for the game, that every other command accepts.
    `?` is a card whose printed identity the viewer may not see.
    """
    from .services import game as game_view
    from .services import names as names_view

    seat = _Seat(ctx, game_id)
    caller = seat.caller(as_player)
    view = game_view(_uow(ctx), game_id, caller)
    if as_json:
        click.echo(json.dumps(view, ensure_ascii=False, indent=1))
        return
    state = seat.game.state
    click.echo(f"game {view['id']}  {view['format']}  seq {view['seq']}  library {view['library_size']} cards"
               + ("  (phyrexian as hybrid)" if view["options"].get("phyrexian_as_hybrid") else "")
               + f"  seen by {seat.who(caller.player) if as_player else 'the judge'}")
    click.echo("players: " + ", ".join(
        f"{p['name']} ({p['id']}" + (f", team {p['team']}" if p["team"] else "")
        + ("" if p["status"] == "in_game" else f", {p['status']}") + ")" for p in view["players"]))
    groups: dict[tuple[str, str], list[dict]] = {}
    for c in view["cards"]:
        looked = state.cards[c["id"]].looked_by
        if c["zone"] == "library" and caller.is_judge and not (whole_library or c["revealed"] or looked):
            continue
        key = (c["zone"], c["owner"] if c["zone"] in _BY_OWNER else "")
        groups.setdefault(key, []).append(c)
    library_pos = {cid: i for i, cid in enumerate(state.library, 1)}
    for zone in _ZONE_ORDER:
        for (z, owner), cards in sorted(groups.items(), key=lambda kv: kv[0][1]):
            if z != zone:
                continue
            title = f"{zone} of {seat.who(owner)}" if owner else zone
            click.echo(f"{title} ({len(cards)})")
            order = library_pos if zone == "library" else {cid: int(h) for cid, h in seat.handles.items()}
            cards.sort(key=lambda c: order.get(c["id"], 0))
            for c in cards:
                click.echo("  " + _card_row(seat, c, library_pos, zone))
    taken = names_view(_uow(ctx), game_id)["names"]
    if taken:
        click.echo("names taken (704.2): " + ", ".join(
            f"{n['name']} ({seat.ref(n['card'])}, {seat.who(n['player'])})" for n in taken))


def _card_row(seat: _Seat, c: dict, library_pos: dict, zone: str) -> str:
    marks = []
    if c["named_as"]:
        marks.append(f"named {c['named_as']}")
    if c["pentaland"]:
        marks.append("Pentaland")
    elif c["face_down"]:
        marks.append("face down")
    if c["revealed"]:
        marks.append("revealed")
    looked = seat.game.state.cards[c["id"]].looked_by
    if looked:
        marks.append("looked at by " + ", ".join(seat.who(p) for p in looked))
    if zone == "library":
        marks.append(f"{library_pos.get(c['id'], '?')} from the top")
    elif zone not in _BY_OWNER and c["owner"]:
        holder = c["controller"] or c["owner"]
        marks.append(seat.who(holder) + (f" (owner {seat.who(c['owner'])})" if holder != c["owner"] else ""))
    printed = c.get("printed") or "?"
    return f"{seat.ref(c['id']):>5}  {printed:<32} {'; '.join(marks)}".rstrip()


def _act(ctx: click.Context, seat: _Seat, body: dict) -> None:
    """One action body through the API's schema, to services.act as the judge; print the event."""
    from .permissions import JUDGE
    from .services import act
    from .web.schemas import load_action

    body = {k: v for k, v in body.items() if v is not None}
    done = act(_uow(ctx), seat.game.id, JUDGE, load_action(body))
    click.echo(seat.event_line(done["event"]))


@game.command("draw")
@_GAME
@_PLAYER
@click.argument("count", type=int, required=False)
@click.option("--printed", default=None, shell_complete=_card_name_completion,
              help="Record which printed card was drawn at the table (found in the library).")
@click.pass_context
@_guarded
def game_draw(ctx, game_id, player, count, printed):
    """PLAYER draws COUNT cards (default 1) from the top of the common library (702.2)."""
    seat = _Seat(ctx, game_id)
    _act(ctx, seat, {"type": "draw", "player": seat.player(player), "count": count, "printed": printed})


@game.command("move")
@_GAME
@click.argument("card")
@click.argument("zone", type=click.Choice(("library", "hand", "battlefield", "graveyard", "exile", "stack",
                                           "command")))
@click.option("--player", default=None, shell_complete=_player_completion,
              help="Who it is for: the new controller, or whose library it leaves.")
@click.option("--name", default=None, shell_complete=_card_name_completion, help=_NAME_OPTION_HELP)
@click.option("--face-down/--face-up", "face_down", default=None, help="Face down or face up where it goes.")
@click.option("--pentaland", is_flag=True, default=None, help="Play it face down as a Pentaland (703).")
@click.option("--position", type=click.Choice(("top", "bottom")), default=None, help="Into the library: where.")
@click.option("--via", type=click.Choice(VIA_CHOICES), default=None, help="How it goes face down (705.4).")
@click.pass_context
@_guarded
def game_move(ctx, game_id, card, zone, player, name, face_down, pentaland, position, via):
    """Move CARD to ZONE, naming it in the same step when the rules ask (705.1–705.3)."""
    seat = _Seat(ctx, game_id)
    _act(ctx, seat, {"type": "move", "card": seat.card(card), "to": zone,
                     "player": seat.player(player) if player else None, "name": name, "face_down": face_down,
                     "pentaland": pentaland, "position": position, "via": via})


@game.command("name")
@_GAME
@click.argument("card")
@click.argument("name", shell_complete=_card_name_completion)
@click.option("--player", default=None, shell_complete=_player_completion, help="Who names it (default: its holder).")
@click.option("--choice", is_flag=True, default=None,
              help="--player names a card an effect has them choose, though not theirs (705.5, D11).")
@click.pass_context
@_guarded
def game_name(ctx, game_id, card, name, player, choice):
    """Name CARD as NAME (704.1): refused with the rule when the name is taken (704.2) or not a candidate."""
    seat = _Seat(ctx, game_id)
    _act(ctx, seat, {"type": "name", "card": seat.card(card), "name": name,
                     "player": seat.player(player) if player else None, "choice": choice})


@game.command("face-up")
@_GAME
@click.argument("card")
@click.option("--name", default=None, shell_complete=_card_name_completion, help=_NAME_OPTION_HELP)
@click.option("--via", type=click.Choice(VIA_CHOICES), default=None,
              help="How it is turned up (default: how it went face down).")
@click.option("--choices", is_flag=True, help="Only say which names it could take now (705.4, 705.4a).")
@click.pass_context
@_guarded
def game_face_up(ctx, game_id, card, name, via, choices):
    """Turn face-down CARD face up, named in the same step (705.4); --choices lists the names it may take."""
    from .permissions import JUDGE
    from .services import face_up

    seat = _Seat(ctx, game_id)
    if choices:
        ans = face_up(_uow(ctx), game_id, JUDGE, seat.card(card), via)
        click.echo(f"{seat.ref(ans['card'])} turned up via {ans['via']} ({ans['rule']}): {ans['advice']}")
        for n in ans["allowed"]:
            click.echo(f"  {n}")
        return
    _act(ctx, seat, {"type": "turn_face_up", "card": seat.card(card), "name": name, "via": via})


def _reveal_or_look(ctx, kind: str, game_id, player, cards, top, end, **extra) -> None:
    seat = _Seat(ctx, game_id)
    ids = [seat.card(c) for c in cards] or None
    if end:
        if top is not None or not ids:
            raise click.UsageError("--end ends the reveal or look of the CARDS given")
        _act(ctx, seat, {"type": f"end_{kind}", "cards": ids})
        return
    _act(ctx, seat, {"type": kind, "player": seat.player(player), "cards": ids, "count": top, **extra})


@game.command("reveal")
@_GAME
@_PLAYER
@click.argument("cards", nargs=-1)
@click.option("--top", type=int, default=None, help="Reveal the top N cards of the library instead.")
@click.option("--continuous", is_flag=True, help="Revealed by a continuous effect (its owner doesn't change).")
@click.option("--end", is_flag=True, help="End the reveal of CARDS.")
@click.pass_context
@_guarded
def game_reveal(ctx, game_id, player, cards, top, continuous, end):
    """PLAYER reveals CARDS (or the top N of the library) (702.2b); --end ends it."""
    _reveal_or_look(ctx, "reveal", game_id, player, cards, top, end, continuous=continuous or None)


@game.command("look")
@_GAME
@_PLAYER
@click.argument("cards", nargs=-1)
@click.option("--top", type=int, default=None, help="Look at the top N cards of the library instead.")
@click.option("--end", is_flag=True, help="End the look at CARDS.")
@click.pass_context
@_guarded
def game_look(ctx, game_id, player, cards, top, end):
    """PLAYER looks at CARDS (or the top N of the library) (702.2c); --end ends it."""
    _reveal_or_look(ctx, "look", game_id, player, cards, top, end)


@game.command("leave")
@_GAME
@_PLAYER
@click.option("--returned", "returned", multiple=True, metavar="CARD",
              help="A card PLAYER controls only through a control-changing effect: back to its owner (D9).")
@click.pass_context
@_guarded
def game_leave(ctx, game_id, player, returned):
    """PLAYER leaves the game: what they own leaves with them, what they only control is exiled (800.4a, D9)."""
    seat = _Seat(ctx, game_id)
    _act(ctx, seat, {"type": "leave_game", "player": seat.player(player),
                     "returned": [seat.card(c) for c in returned] or None})


@game.command("shuffle")
@_GAME
@_PLAYER
@click.option("--at", type=int, default=None, help="The cut seen at the table: this many cards from the top.")
@click.pass_context
@_guarded
def game_shuffle(ctx, game_id, player, at):
    """PLAYER's effect would shuffle the common library: it is cut instead, at --at or at random (701.1b)."""
    seat = _Seat(ctx, game_id)
    _act(ctx, seat, {"type": "shuffle", "player": seat.player(player), "at": at})


@game.command("undo")
@_GAME
@click.pass_context
@_guarded
def game_undo(ctx, game_id):
    """Take back the last event: the game is exactly as it was before it."""
    from .permissions import JUDGE
    from .services import undo

    seat = _Seat(ctx, game_id)
    done = undo(_uow(ctx), game_id, JUDGE)
    click.echo("undone: " + seat.event_line(done["undone"]).strip())


@game.command("log")
@_GAME
@click.option("--as", "as_player", default=None, shell_complete=_player_completion,
              help="The log as that player sees it (no printed card drawn by another).")
@click.option("--json", "as_json", is_flag=True, help="Print the events' JSON (what GET /games/GAME/events answers).")
@click.pass_context
@_guarded
def game_log(ctx, game_id, as_player, as_json):
    """Every event of the game, oldest first, with its rule."""
    from .services import events

    seat = _Seat(ctx, game_id)
    answer = events(_uow(ctx), game_id, seat.caller(as_player))
    if as_json:
        click.echo(json.dumps(answer, ensure_ascii=False, indent=1))
        return
    for e in answer["events"]:
        click.echo(seat.event_line(e))


@game.command("could-be")
@_GAME
@_PLAYER
@click.argument("name", shell_complete=_card_name_completion)
@click.pass_context
@_guarded
def game_could_be(ctx, game_id, player, name):
    """705.11: which unnamed cards of PLAYER's hand could be named NAME? Exit status 1 when none."""
    from .permissions import JUDGE
    from .services import could_be

    seat = _Seat(ctx, game_id)
    ans = could_be(_uow(ctx), game_id, JUDGE, seat.player(player), name)
    if ans["taken"]:
        click.echo(f"{ans['name']} is taken (704.2): no card could be named so")
    elif ans["cards"]:
        click.echo(f"{ans['name']} ({ans['rule']}): " + " ".join(seat.ref(c) for c in ans["cards"]))
    else:
        click.echo(f"no card of {seat.who(ans['player'])}'s hand could be named {ans['name']} ({ans['rule']})")
    ctx.exit(0 if ans["cards"] else 1)


@game.command("tokens")
@_GAME
@click.argument("players", nargs=-1, shell_complete=_player_completion)
@click.option("--all", "every", is_flag=True, help="Reissue every player's token.")
@click.pass_context
@_guarded
def game_tokens(ctx, game_id, players, every):
    """Reissue the tokens of PLAYERS (or --all): each new token is shown once; the old one stops working.

    A token can't be shown again: the database keeps only its hash (a copy of the file hands out
    no seat). Without PLAYERS this lists the seats and changes nothing.
    """
    from .permissions import JUDGE
    from .services import reissue_token

    seat = _Seat(ctx, game_id)
    pids = list(seat.names) if every else [seat.player(p) for p in players]
    if not pids:
        click.echo("tokens are kept hashed and can't be shown again; `game tokens GAME PLAYER` reissues one:")
        for pid, name in seat.names.items():
            click.echo(f"  {pid}  {name}")
        return
    for pid in dict.fromkeys(pids):
        click.echo(f"  {pid}  {seat.who(pid)}  token: {reissue_token(_uow(ctx), game_id, JUDGE, pid)['token']}")


class _GrammarHelp(click.Command):
    """`game do`'s help lists the grammar, read from grammar.py only when the help is shown."""

    @property
    def help(self) -> str:
        return self._help.replace("{grammar}", _grammar_help()) if "{grammar}" in self._help else self._help

    @help.setter
    def help(self, text: str | None) -> None:
        self._help = inspect.cleandoc(text or "")


@game.command("do", cls=_GrammarHelp)
@_GAME
@click.argument("line", nargs=-1, required=True, shell_complete=_line_completion)
@click.option("--keep-going", is_flag=True,
              help="With -: report a line that fails and go on; exit status 1 at the end if any failed.")
@click.pass_context
def game_do(ctx, game_id, line, keep_going):
    """Record what LINE says, in the judge's short grammar (`ana draw 2`, `ben cast 3 as Shock`, `undo`).

    With `-` as LINE, reads one command a line from standard input (`#` starts a comment), and
    stops at the first line that fails unless --keep-going. On a terminal it prompts and keeps
    going, loading the cards once for the whole game; there `show`, `show PLAYER`, `log` and
    `help` work too.

    \b
    {grammar}
    """
    script = line == ("-",)
    tty = script and sys.stdin.isatty()
    keep_going = keep_going or tty
    failed = 0
    for n, text in enumerate(_stdin_lines(tty) if script else [" ".join(line)], 1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        try:
            _do_line(ctx, game_id, text)
        except click.ClickException as e:
            where = f"line {n}: {text}\n" if script and not tty else ""
            if not keep_going:
                if where:
                    click.echo(where, nl=False, err=True)
                raise e from None
            click.echo(where + (e.format_message() if isinstance(e, _Refused) else f"error: {e.format_message()}"),
                       err=True)
            failed += 1
    ctx.exit(1 if failed else 0)


def _stdin_lines(prompt: bool):
    while True:
        if prompt:
            click.echo("> ", nl=False, err=True)
        text = sys.stdin.readline()
        if not text:
            return
        yield text


@_guarded
def _do_line(ctx: click.Context, game_id: str, text: str) -> None:
    from .grammar import Undo, parse
    from .permissions import JUDGE
    from .services import act, undo

    word, _, rest = text.partition(" ")
    if word.casefold() == "show":  # a script's or a session's look at the table between commands
        ctx.invoke(game_show, game_id=game_id, as_player=rest.strip() or None)
        return
    if text.casefold() == "log":
        ctx.invoke(game_log, game_id=game_id)
        return
    if text.casefold() == "help":
        click.echo(_grammar_help())
        return
    seat = _Seat(ctx, game_id)
    command = parse(text, seat.table)
    if isinstance(command, Undo):
        click.echo("undone: " + seat.event_line(undo(_uow(ctx), game_id, JUDGE)["undone"]).strip())
        return
    click.echo(seat.event_line(act(_uow(ctx), game_id, JUDGE, command)["event"]))


def _grammar_help() -> str:
    from .grammar import HELP

    width = max(len(u) for u, _, _ in HELP)
    return "\n".join(f"{u:<{width}}  {ex}" for u, ex, _ in HELP)


if __name__ == "__main__":
    main()
