"""What every command reads from the click context (the database, the cards, the games), and how
an error prints: one line and a non-zero exit status, never a traceback."""

from __future__ import annotations

import functools
import sys
import time
from pathlib import Path

import click

from ..catalogue import primary
from ..errors import ArbiterError
from ..messages import ENGLISH, chain, gap, said, say
from ..pool import said_name
from ..runtime import default_db_path, load_frozen, open_runtime, stale_source


class Failed(click.ClickException):
    """A command that fails: `Error: why` on standard error, exit status 1, "Error" in --lang too
    (click's own exceptions say it in English)."""

    def show(self, file=None) -> None:
        click.echo(say("cli.error", why=self.format_message()), err=True)


class Misused(click.UsageError):
    """A command used wrongly (exit status 2): click's usage line, then the hint and `Error: why` in --lang."""

    def show(self, file=None) -> None:
        if self.ctx is not None:
            click.echo(f"{self.ctx.get_usage()}\n{say('cli.try_help', command=self.ctx.command_path)}\n", err=True)
        click.echo(say("cli.error", why=self.format_message()), err=True)


def fail(e: Exception):
    raise Failed(str(e) + did_you_mean(e)) from e


def did_you_mean(e: Exception) -> str:
    """The close names of an unknown card (closenames.py), as the deck commands print them."""
    close = e.suggestions if isinstance(e, ArbiterError) else None
    return suggested(close) if close else ""


def suggested(names) -> str:
    """' — did you mean: A, B?' in the CLI's language, each name as the CLI says it (``names_said``)."""
    ctx = click.get_current_context(silent=True)
    said_ = names_said(ctx) if ctx is not None else str
    return str(say("cli.did_you_mean", names=[said_(n) for n in names]))


def names_said(ctx: click.Context, pool=None):
    """How the CLI says a card's name read from a game or a deck (a printed card, a name taken, a
    suggestion): as its sentences say one (messages.said), in ``--lang``: French first where the data
    has it, else the English one marked. In English as it is, with no look-up. ``pool`` is the
    whole pool when not given, loaded only then."""
    if primary((ctx.find_root().obj or {}).get("lang")) == ENGLISH:
        return str

    @functools.cache
    def said_(name: str) -> str:
        return said(said_name(pool if pool is not None else runtime(ctx, lacks_note=False).pool, name))

    return said_


def with_other(name) -> str:
    """A card's name (``CardName``) where a listing is about the cards themselves (``card``, ``deck
    show``): in the CLI's language first (messages.said), then its name in the other language where
    the data has both, as the lookup page's second column does."""
    shown = said(name)
    other = (str(name) if shown == name.french else name.french) if name.french else None
    return shown + (f"  ({other})" if other and other != shown else "")


def runtime(ctx: click.Context, lacks_note: bool = True):
    """The stored cards, as they are (a look-up never rebuilds them); say what they lack."""
    obj = ctx.find_root().obj
    if "runtime" not in obj:
        try:
            rt = obj["runtime"] = load_frozen(open_runtime, obj["db"], rebuild=False)
            warning = stale_source(obj["db"])
        except (OSError, ValueError) as e:  # a bad MENTALMAGIC_CARDS or MENTALMAGIC_BANLIST
            fail(e)
        if warning:
            click.echo(say("cli.warning", why=warning), err=True)
        # a look-up's answer may depend on it (a game's moves don't): said once a day, or on --verbose
        if rt.pool.info.lacks and lacks_note and (obj.get("verbose") or _note_due(obj["db"])):
            click.echo(say("cli.source_lacks", gaps=chain([gap(item) for item in rt.pool.info.lacks])), err=True)
    return obj["runtime"]


NOTE_EVERY = 24 * 3600  # seconds between two card-source notes (issue 20: once a day at most)


def _note_due(db: Path) -> bool:
    """Is the card-source note due (not said in the last day)? Saying it now is recorded beside the database."""
    stamp = Path(f"{db}.note-shown")
    try:
        if time.time() - stamp.stat().st_mtime < NOTE_EVERY:
            return False
    except OSError:
        pass
    try:
        stamp.touch()
    except OSError:  # a read-only folder: say it each time, as before
        pass
    return True


def db_path(ctx: click.Context) -> Path:
    """The database, also while the shell completes (the group's callback hasn't run then)."""
    root = ctx.find_root()
    return (root.obj or {}).get("db") or root.params.get("db") or default_db_path()


class _FinderWhenAsked:
    """The card finder a game command hands its games: its pool reads the cards the game asks
    about from SQLite (carddb.CardsAsked); the whole pool and index are loaded only when a rule
    needs them (a naming's candidates), so that showing or changing a game stays quick (issue 20)."""

    def __init__(self, root: click.Context):
        from ..storage.carddb import CardsAsked

        self._root = root
        self.pool = CardsAsked(root.obj["db"], lambda: self._finder().pool)

    def _finder(self):
        return runtime(self._root, lacks_note=False).finder

    def _by_cost(self, query, asked: dict, named: str | None = None):
        """A finder over the cards of the question's cost (and ``named``) only, read from SQLite:
        a naming's candidates and check answer from it as from the whole index."""
        from ..index import CandidateFinder

        q = query if query is not None else asked
        printed, cost = (q.printed, q.cost) if query is not None else (q.get("printed"), q.get("cost"))
        hybrid = q.phyrexian_as_hybrid if query is not None else q.get("phyrexian_as_hybrid", False)
        pool = self.pool.by_cost(CandidateFinder.printed_costs(printed, cost), bool(hybrid), named)
        return CandidateFinder(pool) if pool is not None else self._finder()

    def candidates(self, query=None, /, **asked):
        return self._by_cost(query, asked).candidates(query, **asked)

    def check(self, name: str, query=None, /, **asked):
        return self._by_cost(query, asked, name).check(name, query, **asked)

    def __getattr__(self, attr: str):
        return getattr(self._finder(), attr)


def store(ctx: click.Context):
    """The games of the database (the cards read as asked, without the look-ups' note)."""
    root = ctx.find_root()
    if "games" not in root.obj:
        from ..runtime import has_cards
        from ..storage.gamedb import GameStore

        finder = _FinderWhenAsked(root) if has_cards(root.obj["db"]) else runtime(root, lacks_note=False).finder
        root.obj["games"] = GameStore(root.obj["db"], finder)
    return root.obj["games"]


def uow(ctx: click.Context):
    return store(ctx).unit_of_work()


class Refused(Failed):
    """A domain error: `refused (RULE): why` on standard error, exit status 1; nothing changed (but
    for ``storage_failed``, whose message says its outcome is unknown)."""

    def __init__(self, error: ArbiterError):
        super().__init__(error.message + did_you_mean(error))
        self.rule = error.rule

    def format_message(self) -> str:
        return str(say("cli.refused", rule=self.rule, why=self.message)) if self.rule else self.message

    def show(self, file=None) -> None:
        if self.rule:
            click.echo(self.format_message(), err=True)
        else:
            super().show(file)


def guarded(f):
    """Domain errors and unreadable input become one line and a non-zero exit status, never a traceback."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except Exception as e:
            # The schemas' and the grammar's errors, looked up only once raised: a card look-up
            # never imports marshmallow or the grammar.
            if isinstance(e, _loaded("marshmallow", "ValidationError")):
                from ..runtime.inputs import coded  # loaded already: marshmallow raised

                raise Misused(_field_messages(coded(e.messages))) from None
            if isinstance(e, _loaded("mentalmagic.grammar", "GrammarError")):  # before ArbiterError: one of them
                raise Misused(e.message) from None
            if isinstance(e, ArbiterError):
                raise Refused(e) from None
            raise

    return wrapper


def _loaded(module: str, name: str) -> tuple[type, ...]:
    """The class ``module.name`` if that module has been imported, else none: what isinstance takes."""
    found = getattr(sys.modules.get(module), name, None)
    return (found,) if found is not None else ()


def _field_messages(messages, field: str = "") -> str:
    """Each message in the CLI's language, after the field it is about (``players.0.name``)."""
    if isinstance(messages, dict):
        return "; ".join(_field_messages(v, field if k == "_schema" else f"{field}.{k}".lstrip("."))
                         for k, v in messages.items())
    if isinstance(messages, list):
        return "; ".join(_field_messages(m, field) for m in messages)
    return str(say("invalid.field", field=field, why=messages) if field else messages)
