"""Wiring for one process: the database file, the card pool and its index.

Shared by the web app and the CLI so both see the same cards the same way.
When MENTALMAGIC_CARDS names another source than the one stored, the card
tables are rebuilt before the pool is loaded (games are kept).
"""

from __future__ import annotations

import gc
import lzma
import os
import signal
import sqlite3
import sys
import threading
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..carddata import EMBEDDED_LABEL, Source, source_from_env
from ..cards import Card
from ..index import CandidateFinder
from ..messages import Message, say
from ..pool import CardPool
from ..storage import connect, existing
from ..storage.carddb import SourceRefused, build_cards, is_current, read_finder, stored_source
from ..storage.failures import DISK_KINDS, SAYS, Trouble, kind_of, probe, read_only

ROOT = Path(__file__).resolve().parents[2]


def default_db_path() -> Path:
    """MENTALMAGIC_DB; else, run from a source tree (pyproject.toml beside the package: a checkout,
    an editable install), instance/mentalmagic.sqlite in it (Flask's instance folder); else, an
    installed package, mentalmagic.sqlite in the user's data folder (docs/install.md)."""
    if os.environ.get("MENTALMAGIC_DB"):
        return Path(os.environ["MENTALMAGIC_DB"])
    if (ROOT / "pyproject.toml").is_file():
        return ROOT / "instance" / "mentalmagic.sqlite"
    import platformdirs  # an installed package only: a checkout's look-up doesn't load it

    return platformdirs.user_data_path("mentalmagic", appauthor=False) / "mentalmagic.sqlite"


@dataclass
class Runtime:
    db_path: Path
    pool: CardPool
    finder: CandidateFinder
    games: object = field(default=None)  # the game store, attached by the web app
    # what a start left to do once it answers (open_runtime's ``defer_cache``): the pool cache's writing
    later: list = field(default_factory=list)


def load_frozen(load, *args, **kwargs):
    """``load(...)`` with the collector off, then everything it made frozen (gc.freeze): the pool
    lives as long as the process, and no collection need walk its objects: a look-up's first
    collection right after the load, and a server's full collections under load, would pause on
    them (docs/performance.md). Forked workers also keep sharing the pages (a collection would
    write to every object it walks)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        out = load(*args, **kwargs)
        gc.freeze()
        return out
    finally:
        if collecting:
            gc.enable()


def terminal_progress(label: str, every: float = 2.0):
    """A progress callback on standard error: a counter redrawn in place on a terminal; elsewhere
    (make serve under a log, CI) one line at most every ``every`` seconds, so a first start is
    never a silent wait."""
    tty = sys.stderr.isatty()
    count, last = 0, time.monotonic()  # the first line after `every` s: a start refused at once stays one line

    def tick(n: int = 1):
        nonlocal count, last
        count += n
        if tty:
            if count % 1000 == 0:
                print("\r" + str(say("cards.progress", label=label, n=count)), end="", file=sys.stderr, flush=True)
        elif time.monotonic() - last >= every:
            last = time.monotonic()
            print(str(say("cards.progress_so_far", label=label, n=count)), file=sys.stderr, flush=True)

    return tick


def ensure_cards(db_path: Path, source: Source | None = None, *, force: bool = False,
                 keep: list[Card] | None = None) -> bool:
    """Build the card tables if the stored ones come from another source; True if built (and
    then the cards imported are appended to ``keep``, when given: see ``build_cards``)."""
    source = source or source_from_env()
    db = connect(db_path)
    try:
        if not force and is_current(db, source):
            return False
        tick = terminal_progress(str(say("cards.importing", source=source_said(source.label))))
        n = build_cards(db, source, tick, keep)
        print("\r" + str(say("cards.imported", n=n, source=source_said(source.label))), file=sys.stderr)
        return True
    finally:
        db.conn.close()


def open_runtime(db_path: Path, source: Source | None = None, *, rebuild: bool = True,
                 built: list[Card] | None = None, variants: bool = False, defer_cache: bool = False) -> Runtime:
    """Load the pool and its default index (and with ``variants``, a server's, each rule set's:
    storage/carddb.variant_indexes), first making the card tables current.

    ``rebuild=False`` (the CLI's look-ups) builds only an empty database and
    otherwise uses the stored cards as they are: a judge's query must never
    swap the cards under a running server. ``stale_source()`` says when they differ.
    ``built``: the cards the caller has just imported into the tables (``ensure_cards(keep=)``).
    ``defer_cache``: a pool built here (not read from its cache) leaves the cache's writing in
    ``Runtime.later``, for ``write_aside`` once the server answers.
    """
    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    if rebuild or not has_cards(db_path):
        imported: list[Card] = []
        if ensure_cards(db_path, source, keep=imported):
            built = imported
    # with the default format's index, from the pool cache when current, else from the cards just imported
    later: list = []
    finder = read_finder(db_path, cards=built or None, variants=variants, later=later if defer_cache else None)
    return Runtime(db_path=db_path, pool=finder.pool, finder=finder, later=later)


def write_aside(rt: Runtime) -> None:
    """Do what the start left for later (``Runtime.later``: the pool cache of a first start) in
    another process where there is fork, so the server starts its workers and answers meanwhile,
    and the pages the writing touches are that process's own, gone with it (the server's stay
    shared with its workers); elsewhere, here and now. Nothing waits for it: a start that finds
    no cache builds the pool, as this one did. The writer is a grandchild, so the server's
    children are its workers alone (the one between exits at once, reaped here)."""
    tasks, rt.later = rt.later, []
    if not tasks:
        return
    if not hasattr(os, "fork"):
        for task in tasks:
            task()
        return
    pid = os.fork()
    if pid == 0:  # never returns into the server's code
        code = 1
        try:
            if os.fork() == 0:
                # a stop of the server's process group lets it finish its file (well under a second)
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                for task in tasks:
                    task()
            code = 0
        finally:
            os._exit(code)
    os.waitpid(pid, 0)


_EMBEDDED = EMBEDDED_LABEL.split(" ", 1)[0] + " "  # "embedded: ", then the file's path in the checkout


def source_said(label: str, short: bool = False) -> Message | str:
    """A card source's label as stored (``card_source.label``, ``PoolInfo.source``: English, the
    embedded snapshot's or a file's path) as a message the reader's language words, the path in it as
    it is (``short``: a file by its name alone, as the page shows it). A label of another kind as it is."""
    if label.startswith(_EMBEDDED):
        return say("source.embedded", path=label[len(_EMBEDDED):])
    if os.path.isabs(label):
        return say("source.file", path=Path(label).name if short else label)
    return label


def has_cards(db_path: Path) -> bool:
    db = connect(db_path)
    try:
        return stored_source(db) is not None
    finally:
        db.conn.close()


def stale_source(db_path: Path, source: Source | None = None) -> Message | None:
    """A warning when the stored cards come from another source than the setting names."""
    source = source or source_from_env()
    db = connect(db_path)
    try:
        stored = stored_source(db)
    finally:
        db.conn.close()
    if stored and stored["signature"] != source.signature:
        return say("cards.stale_source", stored=source_said(stored["label"]), source=source_said(source.label))
    return None


# -- the self-check at start, and /health after it ---------------------------------------------
class StartupError(Exception):
    """Why the arbiter won't start: one line naming the file and what to do about it, a message
    (``str(e)`` words it in the process's language: the CLI's --lang)."""


# What reading a broken card file raises: truncated (EOFError), not xz/gzip, not JSON, not AtomicCards.
CARD_FILE_ERRORS = (OSError, EOFError, ValueError, lzma.LZMAError, zlib.error, KeyError, TypeError, AttributeError)


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__


def check_card_file(source: Source) -> None:
    """The card file named by MENTALMAGIC_CARDS can be read and isn't empty."""
    if source.path is None:
        return
    try:
        with open(source.path, "rb") as fh:
            empty = not fh.read(1)
    except OSError as e:
        raise StartupError(say("startup.card_file_unreadable", path=str(source.path), why=e.strerror or str(e))) \
            from None
    if empty:
        raise StartupError(say("startup.card_file_empty", path=str(source.path)))


# What to do about a database the disk won't let us write, by kind (storage/failures.py)
_UNWRITABLE = {"disk_full": "startup.unwritable.disk_full", "read_only": "startup.unwritable.read_only",
               "io_error": "startup.unwritable.io_error", "cant_open": "startup.unwritable.io_error",
               "corrupt": "startup.unwritable.io_error"}


def unwritable(db_path: Path, kind: str, detail: str | Message) -> StartupError:
    """The one line refusing a database the disk won't let us write (never "restore a backup": the
    file is fine, where it lies is not)."""
    why = detail if kind == "read_only" else say("startup.why", says=SAYS[kind], detail=detail)  # read-only: it says
    return StartupError(say(_UNWRITABLE[kind], path=str(db_path), why=why))


def _refusal(db_path: Path, e: sqlite3.DatabaseError, what: Message) -> StartupError:
    """The line for a database SQLite can't use: the disk's fault (WAL can't open its -shm on a
    read-only mount) or the file's."""
    kind, where = kind_of(e), read_only(db_path)
    kind = kind if kind in DISK_KINDS else None  # a damaged file is the file's fault: restore it
    if kind or where:
        return unwritable(db_path, "read_only" if where else kind, where or _one_line(e))
    return StartupError(say("startup.unusable", path=str(db_path), why=_one_line(e), what=what))


def check_database(db_path: Path) -> None:
    """An existing database file is SQLite and passes PRAGMA quick_check."""
    if not db_path.exists():
        return  # a first start creates it
    what = say("startup.restore_or_move_away")
    try:
        conn = sqlite3.connect(str(db_path), timeout=30)
        try:
            rows = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise _refusal(db_path, e, what) from None
    if rows != ["ok"]:
        raise StartupError(say("startup.quick_check", path=str(db_path), why=_one_line(rows[0]), what=what))


def card_table_problem(db_path: Path) -> Message | None:
    """Why the card tables don't hold what their import recorded, or None when they do."""
    try:
        conn = sqlite3.connect(existing(db_path), timeout=30, uri=True)  # never an empty file made in its place
    except sqlite3.DatabaseError as e:
        return say("cards.tables_unreadable", path=str(db_path), why=_one_line(e))
    try:
        stored = conn.execute("select card_count, label from card_source where id = 1").fetchone()
        cards = conn.execute("select count(*) from cards").fetchone()[0]
        faces = conn.execute("select count(*) from faces").fetchone()[0]
    except sqlite3.DatabaseError as e:
        return say("cards.tables_unreadable", path=str(db_path), why=_one_line(e))
    finally:
        conn.close()
    if stored is None:
        return say("cards.tables_empty", path=str(db_path))
    if cards != stored[0] or (cards and not faces) or not cards:
        return say("cards.tables_mismatch", path=str(db_path), cards=cards, faces=faces, n=stored[0],
                   source=source_said(stored[1]))
    return None


def checked_runtime(db_path: Path, source: Source | None = None, *, defer_cache: bool = False) -> Runtime:
    """``open_runtime`` after the self-check: card file, database, card tables; else StartupError.
    A server's: with every rule set's index (``variants``)."""
    db_path = Path(db_path)
    try:
        source = source or source_from_env()
    except (OSError, ValueError) as e:  # MENTALMAGIC_CARDS names no file
        raise StartupError(_one_line(e)) from None
    check_card_file(source)
    check_database(db_path)
    built: list[Card] = []  # the cards imported, if any: the pool is built from them, not read back
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
        ensure_cards(db_path, source, keep=built)
    except sqlite3.DatabaseError as e:
        raise _refusal(db_path, e, say("startup.restore_or_move")) from None
    except OSError as e:  # the directory can't be made
        if kind_of(e) is None:
            raise
        raise unwritable(db_path, kind_of(e), _one_line(e)) from None
    except SourceRefused as e:  # checked before anything was replaced: the tables are as they were
        raise StartupError(say("startup.source_refused", path=str(source.path or source.label), why=e.args[0])) \
            from None
    except CARD_FILE_ERRORS as e:
        raise StartupError(say("startup.card_file_broken", path=str(source.path or source.label),
                               why=_one_line(e))) from None
    problem = card_table_problem(db_path)
    if problem:
        raise StartupError(say("startup.rebuild_cards", problem=problem))
    refused = probe(db_path)  # read-only file or mount, a full disk: every write would fail
    if refused:
        raise unwritable(db_path, *refused)
    try:
        return open_runtime(db_path, source, rebuild=False, built=built, variants=True, defer_cache=defer_cache)
    except ValueError as e:  # a bad MENTALMAGIC_BANLIST
        raise StartupError(_one_line(e)) from None


class HealthCheck:
    """What is wrong now with the cards or the database of a running server (cached ``interval`` s),
    ``trouble`` included: the disk failures this process has seen (storage/failures.py)."""

    def __init__(self, rt: Runtime, interval: float = 5.0, trouble: Trouble | None = None, *,
                 checked: bool = False):
        self.rt, self.interval = rt, interval
        self.trouble = trouble or Trouble(rt.db_path)
        self._lock = threading.Lock()
        # ``checked``: the start-up self-check (checked_runtime) has just found nothing wrong, so the
        # first /health of each worker reuses it, as later ones reuse theirs, instead of writing and
        # syncing its probe while a restart waits for that first answer
        self._at, self._problems = (time.monotonic() if checked else float("-inf")), []

    def problems(self) -> list[Message]:
        with self._lock:
            if time.monotonic() - self._at >= self.interval:
                self._problems = self._check()
                self._at = time.monotonic()
            return list(self._problems)

    def _check(self) -> list[Message]:
        problems = []
        if not len(self.rt.pool):
            problems.append(say("health.no_cards"))
        if getattr(self.rt.games, "failed", None):  # the disk failed a sync: no more writes (storage/durable.py)
            problems.append(self.rt.games.failed)
        file = getattr(self.rt.games, "file", None)  # the file the server started on, still at its path
        lost = file.problem() if file is not None else None
        if lost or not self.rt.db_path.exists():
            return [*problems, lost or say("health.database_gone", path=str(self.rt.db_path))]
        try:
            return [*problems, *self._file_problems()]
        except (sqlite3.Error, OSError) as e:  # the disk or the file failing under the checks themselves
            kind = kind_of(e)
            if kind is None:
                raise
            self.trouble.failed(kind, _one_line(e), log=lambda line: None)
            return [*problems, self.trouble.current]

    def _file_problems(self) -> list[Message]:
        problems = []
        table_problem = card_table_problem(self.rt.db_path)  # also fails on a file that isn't a database
        if table_problem:
            problems.append(table_problem)
        else:
            conn = sqlite3.connect(existing(self.rt.db_path), timeout=5, uri=True)
            try:
                conn.execute("select 1 from games limit 1").fetchall()
                label = conn.execute("select label, signature from card_source where id = 1").fetchone()
            except sqlite3.DatabaseError as e:
                problems.append(say("health.games_unreadable", path=str(self.rt.db_path), why=_one_line(e)))
                label = None
            finally:
                conn.close()
            if label and label[1].startswith("file:") and not os.access(label[0], os.R_OK):
                problems.append(say("health.card_file_unreadable", path=label[0]))
        refused = probe(self.rt.db_path)
        if refused:
            self.trouble.failed(*refused, log=lambda line: None)  # a failing probe is no request's: not logged
        else:
            self.trouble.recovered()  # the disk takes writes again: so do we
        if self.trouble.current:
            problems.append(self.trouble.current)
        return problems
