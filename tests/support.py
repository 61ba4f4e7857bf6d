"""Helpers shared by several test modules (imported as ``support``: pytest puts tests/ on sys.path)."""

from __future__ import annotations

import functools
import re
import shutil
import signal
import sqlite3
import threading
from contextlib import contextmanager

from waitress.server import create_server


def games_app(tmp_path_factory, card_db_path, pool, finder, name: str):
    """The Flask app over a fresh copy of the session card database (its own games) and the session pool."""
    from mentalmagic.runtime import Runtime
    from mentalmagic.web import create_app

    db = fresh_games_db(card_db_path, tmp_path_factory.mktemp(name) / "games.sqlite")
    return create_app({"TESTING": True, "DATABASE": str(db), "RUNTIME": Runtime(db_path=db, pool=pool, finder=finder)})


@functools.cache
def schema(cls):
    """One instance of a marshmallow schema class for the whole run: building one (and its nested
    schemas) costs more than the validation it is used for, and validating keeps no state."""
    return cls()


def checked(response):
    """Every answer under /api/ is JSON and never a 500 (a Flask test response)."""
    assert response.status_code != 500, response.data[:500]
    assert response.is_json, (response.status_code, response.content_type, response.data[:200])
    assert b"<html" not in response.data.lower()
    return response


def _own_rules() -> frozenset[str]:
    """The rules a rule set of its own source cites instead of the default's (rulesets.py)."""
    from mentalmagic.rulesets import PRESETS

    return frozenset(part for rs in PRESETS.values()
                     for cited in (*rs.cites.values(), *rs.renumbered.values(), *rs.allowed_by.values())
                     for part in cited.split(", "))


_OWN_RULES = _own_rules()


def assert_envelope(response, status: int, *, cites_rule: bool = True) -> dict:
    """The one error envelope (docs/api.md, "Conventions") with ``status``; its ``error`` object.

    Exactly one ``error`` key holding a code, a message and nothing undocumented; a 409 (refused by
    a rule) cites its rule unless ``cites_rule`` is false (a finished or archived game), a 422 names
    its fields."""
    from mentalmagic.web.schemas import ErrorOut

    checked(response)
    body = response.get_json()
    assert response.status_code == status, (response.status_code, body)
    assert set(body) == {"error"}, body
    error = body["error"]
    assert {"code", "message"} <= error.keys() <= {"code", "message", "rule", "fields", "field_codes", "message_code",
                                                   "params", "suggestions"}, error
    assert "field_codes" not in error or "fields" in error, error  # the codes of the fields' worded messages
    assert ("message_code" in error) == ("params" in error), error  # a worded message comes with what it is made of
    if error["code"] in ("unknown_card", "unknown_word"):  # did you mean: an unknown card, a filter's unknown
        assert "suggestions" in error, error  # word; and a naming of a name no card has
    elif error["code"] != "not_a_candidate":
        assert "suggestions" not in error, error
    assert isinstance(error["code"], str) and error["code"] and isinstance(error["message"], str) and error["message"]
    assert schema(ErrorOut).validate(body) == {}
    if status == 409 and cites_rule:
        # a refusal cites its rule: the comprehensive rules' or a decision's, or a rule set's own (Xom 6)
        rule = error.get("rule", "")
        assert re.fullmatch(r"\d{3}(\.\d+[a-z]?)?|D\d+", rule) or rule in _OWN_RULES, error
    if status == 422:
        assert error.get("fields"), error  # a validation error names its fields
    return error


def cli_over_session_pool(monkeypatch, pool, finder) -> None:
    """The CLI's commands use the session's pool instead of loading one per command (the suite's speed)."""
    from mentalmagic.cli import context as cli
    from mentalmagic.runtime import Runtime

    monkeypatch.setattr(cli, "open_runtime", lambda path, **kw: Runtime(db_path=path, pool=pool, finder=finder))


def fresh_games_db(card_db_path, path):
    """A copy of the session card database (schema applied, no game yet) at ``path``, with the pool
    cache beside it where it has one, as a copied instance folder has it: a start over the copy
    reads the pool as a restart does (the cache's signature still says whether it fits the tables)
    instead of building it again from the tables."""
    from mentalmagic.storage.carddb import pool_cache_path

    src, dst = sqlite3.connect(card_db_path), sqlite3.connect(path)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
    if pool_cache_path(card_db_path).exists():
        shutil.copyfile(pool_cache_path(card_db_path), pool_cache_path(path))
    return path


@contextmanager
def time_limit(seconds: float):
    """Fail (instead of hanging the suite) when the block runs longer than ``seconds``."""

    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextmanager
def served(app, threads: int = 8, timeout: float = 60, **options):
    """The app over real HTTP: waitress on 127.0.0.1, a free port, in a background thread.

    ``options`` are more waitress settings (``mentalmagic.settings.waitress_options``). A worker's page
    server serves every browser module, whose kept contexts each hold keep-alive connections: room
    for them all, past waitress's default of 100 open connections. The production servers set their
    own limit (``connection_limit``)."""
    options.setdefault("connection_limit", 2000)
    # poll(), as the production servers (settings.waitress_options): a worker of a long run holds
    # over 1,024 descriptors (each in-process CLI test's database connections), and select() can't
    # watch one numbered past that: the server's loop died and every page waited on its requests.
    options.setdefault("asyncore_use_poll", True)
    server = create_server(app, host="127.0.0.1", port=0, threads=threads, **options)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        # Closed in the loop's own thread: closing sockets from here raced its select(), which then
        # saw a closed descriptor (EBADF) when a browser still held a keep-alive connection.
        server.trigger.pull_trigger(lambda: [channel.close() for channel in list(server._map.values())])
        thread.join(timeout=timeout)
        assert not thread.is_alive(), "the server did not stop"
        server.task_dispatcher.shutdown(timeout=timeout)


CARD_REFS = ("card", "cards", "returned", "commander")


def shown_to(client, game_id: str, who: str, ref):
    """The id player ``who`` knows a card by now: its own where they see it, else the handle they were
    shown for it (D15), read in the app's game as the judge could; for a list, each. A test acts for
    a player on the card the player sees, whatever id the test keeps for it."""
    from mentalmagic.handles import viewer
    from mentalmagic.permissions import Caller

    if isinstance(ref, list):
        return [shown_to(client, game_id, who, r) for r in ref]
    game = client.application.extensions["mentalmagic"].games.load(game_id)
    if who == "judge" or not isinstance(ref, str) or ref not in game.state.cards:
        return ref
    return viewer(game.setup, game.state, Caller(who)).shown(game.state.cards[ref])


def as_shown(client, game_id: str, who: str, action: dict) -> dict:
    """``action`` with its card references as ``who`` was shown them."""
    return {k: shown_to(client, game_id, who, v) if k in CARD_REFS else v for k, v in action.items()}


def terminal_code(out: str) -> str:
    """What a QR code drawn in a terminal's half blocks holds (segno's compact drawing: a full block is
    two light modules, one above the other; a space two dark ones), read with zxing-cpp."""
    import zxingcpp
    from PIL import Image

    halves = {"█": (255, 255), "▀": (255, 0), "▄": (0, 255), " ": (0, 0)}
    rows = [line for line in out.splitlines() if line and set(line) <= set(halves)]
    width, scale = max(map(len, rows)), 8
    picture = Image.new("L", (width, 2 * len(rows)), 255)
    for y, line in enumerate(rows):
        for x, char in enumerate(line):
            top, bottom = halves[char]
            picture.putpixel((x, 2 * y), top)
            picture.putpixel((x, 2 * y + 1), bottom)
    picture = picture.resize((width * scale, 2 * len(rows) * scale), Image.NEAREST)
    found = zxingcpp.read_barcodes(picture, formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(found) == 1
    return found[0].text
