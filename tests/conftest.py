"""Shared fixtures, in two tiers.

The core tier (``mini_pool``, ``mini_finder``) builds a few dozen real cards in
memory from ``minipool.py``: no file, milliseconds. The snapshot tier reads the
full card snapshot, ``cards/AtomicCards.json.xz`` (or the file named by
MENTALMAGIC_TEST_CARDS), and imports it once per session into a temporary SQLite
file. Every test that uses the snapshot, through any fixture, is marked
``snapshot`` here, so ``pytest -m "not snapshot"`` runs the core tier alone.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import shutil
import sys
import types
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: each xdist worker builds what the run would share
    fcntl = None

# Keep the compiled test modules (their assertions rewritten by pytest) and the package's bytecode
# in __pycache__ (ignored) even where PYTHONDONTWRITEBYTECODE is set: otherwise each process, every
# xdist worker and every server a test starts, compiles them all again. Before the imports below.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def _ram_temp_root() -> str | None:
    """/dev/shm, where it is a writable file system in memory with room for a run (Linux)."""
    try:
        free = os.statvfs("/dev/shm")
    except (OSError, AttributeError):
        return None
    return "/dev/shm" if free.f_bavail * free.f_frsize >= 2 << 30 and os.access("/dev/shm", os.W_OK) else None


# tmp_path and the databases of a run in memory where there is room (pytest's own setting for where
# its temporary folders go): every commit of a game still calls fdatasync, which a disk shared with
# other runs makes wait milliseconds, and memory doesn't. A caller's own setting wins.
if "PYTEST_DEBUG_TEMPROOT" not in os.environ and (_root := _ram_temp_root()):
    os.environ["PYTEST_DEBUG_TEMPROOT"] = _root

import minipool  # noqa: E402
import pytest  # noqa: E402
import support  # noqa: E402
from minipool import mini_pool as build_mini_pool  # noqa: E402

from mentalmagic.carddata import EMBEDDED_PATH, source_from_env  # noqa: E402
from mentalmagic.index import CandidateFinder  # noqa: E402
from mentalmagic.messages import use_translations  # noqa: E402
from mentalmagic.storage import connect  # noqa: E402
from mentalmagic.storage.carddb import build_cards, pool_cache_path, read_finder, read_pool  # noqa: E402

# The suite creates many games from one address: no rate limit and no access log unless a test
# asks for them (tests/test_limits.py passes its own SETTINGS). Set before any app is built.
os.environ["MENTALMAGIC_RATE_LIMIT"] = "0"
os.environ["MENTALMAGIC_GAMES_PER_HOUR"] = "0"
os.environ["MENTALMAGIC_ACCESS_LOG"] = "0"
SNAPSHOT = Path(os.environ.get("MENTALMAGIC_TEST_CARDS") or EMBEDDED_PATH)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    for item in items:  # before the other plugins: -m deselects by these marks
        fixtures = getattr(item, "fixturenames", ())
        if "snapshot_path" in fixtures:
            item.add_marker(pytest.mark.snapshot)
        if "browser" in fixtures or _imports_playwright(item.module):
            item.add_marker(pytest.mark.browser)
    yield
    _longest_modules_first(config, items)  # after: only the tests that will run


# -- the order the modules run in: the longest first -----------------------------------------
# xdist's --dist loadfile hands each worker the next module in the order collected (its own order,
# by number of tests, is turned off below): a long module handed out last would leave the other
# core idle until it ends. The modules that took longest in earlier runs go first, the short
# ones fill in at the end (longest processing time first). Each test's seconds are kept in
# .pytest_cache, so a run of some tests (make test-core) times those and leaves the others' times.
TEST_SECONDS = "mentalmagic/test-seconds"  # {test id: seconds of its setup, call and teardown}
_timed: dict[str, float] = {}


def pytest_configure(config):
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False  # the order below, not xdist's by number of tests


def _module(nodeid: str) -> str:
    return nodeid.split("::")[0]


_KEPT = pytest.StashKey[dict]()


def _kept_seconds(config) -> dict:
    """The seconds earlier runs kept, read once by the process that runs the session and handed to
    each xdist worker: the same to all, who must collect in the same order (xdist checks)."""
    if hasattr(config, "workerinput"):
        return config.workerinput.get(TEST_SECONDS, {})
    if _KEPT not in config.stash:
        config.stash[_KEPT] = config.cache.get(TEST_SECONDS, {}) if getattr(config, "cache", None) else {}
    return config.stash[_KEPT]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    node.workerinput[TEST_SECONDS] = _kept_seconds(node.config)


# A test never timed (a fresh clone's first run, a new test) is expected to take what the timed
# tests of its kind took on average; with none of its kind timed, a rough share by kind: a page in
# Chromium or a server process costs about a hundred in-process tests, a snapshot sweep about ten.
_KINDS = {"browser": 100.0, "processes": 100.0, "fuzz": 100.0, "snapshot": 10.0, "core": 1.0}


def _kind(item) -> str:
    return next((k for k in _KINDS if k != "core" and item.get_closest_marker(k)), "core")


def _longest_modules_first(config, items) -> None:
    """Sort ``items`` by their module's expected seconds, longest first, each module's tests kept in
    their order: the sum of its tests' seconds in earlier runs, a test never timed counted as the
    mean of the timed tests of its kind (``_KINDS``)."""
    kept = _kept_seconds(config)
    kinds = {item.nodeid: _kind(item) for item in items}
    timed: dict[str, list[float]] = {}
    for item in items:
        if item.nodeid in kept:
            timed.setdefault(kinds[item.nodeid], []).append(kept[item.nodeid])
    expected = {k: sum(v) / len(v) if (v := timed.get(k)) else share / 100 for k, share in _KINDS.items()}
    seconds: dict[str, float] = {}
    for item in items:
        guess = kept.get(item.nodeid, expected[kinds[item.nodeid]])
        seconds[_module(item.nodeid)] = seconds.get(_module(item.nodeid), 0.0) + guess
    items.sort(key=lambda item: -seconds[_module(item.nodeid)])  # stable: a module's tests stay together


def pytest_runtest_logreport(report):
    """Each test's seconds, in the process that runs the session: xdist's controller gets every
    worker's reports (a worker keeps none: they are its own copies)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        _timed[report.nodeid] = _timed.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session):
    cache = getattr(session.config, "cache", None)
    if cache is None or os.environ.get("PYTEST_XDIST_WORKER") or not _timed:
        return
    root = Path(session.config.rootpath)
    kept = {t: s for t, s in cache.get(TEST_SECONDS, {}).items() if (root / _module(t)).is_file()}  # modules gone
    kept.update({t: round(s, 3) for t, s in _timed.items()})
    cache.set(TEST_SECONDS, kept)


@functools.cache
def _imports_playwright(module) -> bool:
    """A page test's module imports Playwright (``sync_api`` or a name from it)."""
    for value in vars(module).values() if module else ():
        if isinstance(value, types.ModuleType):
            name = value.__name__
        elif isinstance(value, (type, types.FunctionType)):
            name = value.__module__ or ""
        else:
            continue
        if name.split(".")[0] == "playwright":
            return True
    return False


@pytest.fixture(autouse=True)
def _process_words_back_to_english():
    """The CLI's ``--lang`` sets the language ``str(message)`` words in for its whole process
    (messages.use_translations): a test that ran the CLI in French must not leave the next one
    (an API test matching an English message) reading French."""
    yield
    use_translations(None)


# -- the core tier ---------------------------------------------------------------------
@pytest.fixture(scope="session")
def mini_pool():
    return build_mini_pool()


@pytest.fixture(scope="session")
def mini_finder(mini_pool) -> CandidateFinder:
    return CandidateFinder(mini_pool)


# -- the snapshot tier -----------------------------------------------------------------
@pytest.fixture(scope="session")
def snapshot_path() -> Path:
    if not SNAPSHOT.is_file():
        why = ("MENTALMAGIC_TEST_CARDS names no file" if os.environ.get("MENTALMAGIC_TEST_CARDS")
               else "the embedded snapshot is missing (git checkout cards/AtomicCards.json.xz)")
        pytest.fail(f"{why}: {SNAPSHOT}")
    return SNAPSHOT


def _built_once(tmp_path_factory, name: str, build) -> Path:
    """``build(path)`` once per run, however many xdist workers ask: the first builds it under a lock
    in the run's own temporary folder, the others wait for it and read the same file."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER") and fcntl:
        root = root.parent  # the run's folder, above each worker's own
    folder = root / name
    folder.mkdir(exist_ok=True)
    path = folder / "mentalmagic.sqlite"
    with open(folder / "lock", "w") as lock:
        if fcntl:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "built").exists():
            build(path)
            (folder / "built").touch()
    return path


ROOT = Path(__file__).resolve().parents[1]
KEPT_CARDS = ROOT / ".pytest_cache" / "snapshot-cards"  # ignored by git; `make clean` removes it


def _snapshot_key(snapshot_path: Path) -> str:
    """What the imported snapshot depends on: the card file (by path, size and time), every file of
    the package and of cards/ (the importer, the schema, the ban list), Python, SQLite, sqlite-utils."""
    import sqlite3
    from importlib.metadata import version

    stat = snapshot_path.stat()
    key = hashlib.sha256(f"{snapshot_path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{sys.version}|"
                         f"{sqlite3.sqlite_version}|{version('sqlite-utils')}".encode())
    for folder in (ROOT / "mentalmagic", ROOT / "cards"):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".xz":
                key.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return key.hexdigest()[:32]


@pytest.fixture(scope="session")
def card_db_path(tmp_path_factory, snapshot_path) -> Path:
    """A real SQLite card database built from the full snapshot, once per run, and its pool cache
    beside it (``read_finder``), written before any worker reads it. The tests only read it.

    The built pair is kept between runs in .pytest_cache, under a key of all it was built from, and
    copied into the run's folder: a run after a change of the code or the card file builds it anew."""

    def build(path):
        kept = KEPT_CARDS / _snapshot_key(snapshot_path)
        if (kept / "done").exists():
            with contextlib.suppress(OSError):  # gone meanwhile (another run's newer build): build it here
                shutil.copyfile(kept / path.name, path)
                shutil.copyfile(pool_cache_path(kept / path.name), pool_cache_path(path))
                return
        db = connect(path)
        build_cards(db, source_from_env(str(snapshot_path)))
        db.conn.close()
        read_finder(path)
        with contextlib.suppress(OSError):  # a read-only checkout keeps nothing: the next run builds it again
            shutil.rmtree(KEPT_CARDS, ignore_errors=True)  # only the latest is kept
            kept.mkdir(parents=True)
            shutil.copyfile(path, kept / path.name)
            shutil.copyfile(pool_cache_path(path), pool_cache_path(kept / path.name))
            (kept / "done").touch()

    return _built_once(tmp_path_factory, "cards", build)


@pytest.fixture(scope="session")
def snapshot_pool(card_db_path):
    return read_pool(card_db_path)


@pytest.fixture(scope="session")
def snapshot_finder(snapshot_pool) -> CandidateFinder:
    return CandidateFinder(snapshot_pool)


# ``pool`` and ``finder`` are the full snapshot's; a core-tier module overrides them at its top
# with the mini pool's (the apps below ask for the snapshot's by name, so they never mix).
@pytest.fixture(scope="session")
def pool(snapshot_pool):
    return snapshot_pool


@pytest.fixture(scope="session")
def finder(snapshot_finder) -> CandidateFinder:
    return snapshot_finder


# -- the cards API (issue 2): one app over the session's card pool ---------------------
# Named cards_app / cards_client so that fixtures other engineers append can't shadow them.
@pytest.fixture(scope="session")
def cards_app(card_db_path, snapshot_pool, snapshot_finder):
    """The Flask app over the full snapshot; the runtime is preloaded, nothing is rebuilt."""
    from mentalmagic.runtime import Runtime
    from mentalmagic.web import create_app

    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(card_db_path),
            "RUNTIME": Runtime(db_path=card_db_path, pool=snapshot_pool, finder=snapshot_finder),
        }
    )


@pytest.fixture
def cards_client(cards_app):
    return cards_app.test_client()


# -- one app over a fresh database, for the API tests -------------------------------------------
@pytest.fixture(scope="session")
def mini_card_db_path(tmp_path_factory) -> Path:
    """A real SQLite card database imported, as the snapshot is, from the mini pool's cards."""
    folder = tmp_path_factory.mktemp("minicards")
    atomic = folder / "AtomicCards.json"
    atomic.write_text(json.dumps({"data": minipool.ATOMIC}), encoding="utf-8")
    path = folder / "mentalmagic.sqlite"
    db = connect(path)
    build_cards(db, source_from_env(str(atomic)))
    db.conn.close()
    return path


@pytest.fixture(scope="session")
def mini_db_finder(mini_card_db_path) -> CandidateFinder:
    return read_finder(mini_card_db_path)


@pytest.fixture(scope="module")
def mini_app(tmp_path_factory, mini_card_db_path, mini_db_finder):
    return support.games_app(tmp_path_factory, mini_card_db_path, mini_db_finder.pool, mini_db_finder, "mini_app")


@pytest.fixture(scope="module")
def snapshot_app(tmp_path_factory, card_db_path, snapshot_finder):
    return support.games_app(tmp_path_factory, card_db_path, snapshot_finder.pool, snapshot_finder, "snapshot_app")


@pytest.fixture(scope="module")
def app(request):
    """The Flask app over a fresh database of the module's own (its games, its decks).

    Its cards are the mini pool's; in a module marked ``pytestmark = pytest.mark.snapshot`` they are
    the full snapshot's. A test of a core-tier module that needs the snapshot asks for
    ``snapshot_client``. The card pool is preloaded: nothing is rebuilt per module."""
    return request.getfixturevalue("snapshot_app" if request.node.get_closest_marker("snapshot") else "mini_app")


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def snapshot_client(snapshot_app):
    return snapshot_app.test_client()


# -- the pages in Chromium (tests/browser.py): one browser per session, one server per module ----------
@pytest.fixture(scope="session")
def browser():
    import browser as pages

    yield from pages.chromium()


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


@pytest.fixture(scope="session")
def _kept_contexts(browser):
    kept: dict = {}
    yield kept
    for guarded in kept.values():
        guarded.context.close()


@pytest.fixture
def kept_context(browser, _kept_contexts, request):
    """``kept_context(base_url, **options)``: the ``browser.Guarded`` context of these options (``.page``
    its page, sized to the viewport asked: ``Guarded.resize``), kept from test to test, and from module
    to module where ``base_url`` is the same (the page servers below), emptied after each test
    (``Guarded.clear``) and checked: a request to another host or a script error fails the test.
    After a failed test, or one that left its page off the app, it is closed, and the next test of
    those options gets a new one."""
    import browser as pages

    used: dict = {}

    def context(base_url: str, **options):
        options = {**pages.CONTEXT, **options}
        viewport = options.pop("viewport")  # a page's size changes in place: one context for every size
        key = (base_url, repr(sorted(options.items())))
        if key not in _kept_contexts:
            _kept_contexts[key] = pages.Guarded(browser, base_url, viewport=viewport, **options)
        if key not in used:
            used[key] = _kept_contexts[key]
            used[key].errors.clear(), used[key].outside.clear()  # this test's own records
        used[key].resize(viewport)
        return used[key]

    yield context
    failed = request.node.stash.get(FAILED, False)
    for key, guarded in used.items():
        kept = False
        try:
            kept = not failed and guarded.clear()
        finally:
            if not kept:  # whatever its pages were left doing: a new context for the next test
                del _kept_contexts[key]
                guarded.context.close()
    for guarded in used.values() if not failed else ():
        guarded.check()


class _ModuleApp:
    """The WSGI app a page server serves: the app of the module under test, switched module by module."""

    app = None

    def __call__(self, environ, start_response):
        if self.app is None:
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
            return [b"no module under test"]
        return self.app(environ, start_response)


@pytest.fixture(scope="session")
def _page_servers():
    """A waitress on 127.0.0.1 per kind of app (the mini pool's, the snapshot's), started once per
    session (per xdist worker) and serving each module's app in turn: every module's pages have the
    same origin, so a browser context kept for it (``kept_context``) serves the next module too."""
    servers: dict = {}
    with contextlib.ExitStack() as stack:
        def serve(kind: str, app):
            if kind not in servers:
                current = _ModuleApp()
                servers[kind] = current, stack.enter_context(support.served(current))
            servers[kind][0].app = app
            return servers[kind]

        yield serve


@pytest.fixture(scope="module")
def base_url(app, _page_servers):
    """``app`` served over real HTTP (waitress on 127.0.0.1), for the browser and the module's bots."""
    current, root = _page_servers("app", app)
    yield root
    current.app = None


@pytest.fixture(scope="module")
def snapshot_url(snapshot_app, _page_servers):
    """The same over the full snapshot, for the page tests that need its 35k cards."""
    current, root = _page_servers("snapshot_app", snapshot_app)
    yield root
    current.app = None
