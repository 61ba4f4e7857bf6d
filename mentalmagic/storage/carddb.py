"""The card tables: build them from a card source, load them into a CardPool."""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import os
import pickle
import sqlite3
import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from ..carddata import Source
from ..carddata.banlist import banlist_path, read_banlist
from ..cards import Card, card_from_record
from ..formats import BanList
from ..index import CandidateFinder
from ..mana import ManaCost
from ..messages import say
from ..pool import CardPool, PoolInfo
from ..rulesets import DEFAULT_RULES, RULE_SETS, rule_set
from . import connect, transaction

# What the card tables hold: bumped when a build stores something new, so that tables built
# before it are rebuilt from their source (2: colour identity and face colours, #10; tables
# from before it also lack the power, toughness, loyalty and defense columns' values; 3: the
# readings of every printed cost, cost_readings).
CARD_SCHEMA = 3
COST_READINGS_SCHEMA = 3  # the first tables with cost_readings filled


def stored_source(db: sqlite_utils.Database) -> dict | None:
    rows = list(db.query("select * from card_source where id = 1"))
    return rows[0] if rows else None


def is_current(db: sqlite_utils.Database, source: Source) -> bool:
    row = stored_source(db)
    return bool(row) and row["signature"] == source.signature and row.get("card_schema", 1) == CARD_SCHEMA


_FACE_COLUMNS = ("card_name", "position", "name", "french_name", "mana_cost", "mana_value", "type_line", "text",
                 "types", "keywords", "power", "toughness", "loyalty", "defense", "colors")


class SourceRefused(ValueError):
    """A card source that would leave the tables with less than they need: no card at all, or not
    the cards the stored games were played with (issue 23). Nothing was replaced."""


def cards_in_use(db: sqlite_utils.Database) -> set[str]:
    """The card names the stored games rest on: their libraries and commanders, and every name taken."""
    used: set[str] = set()
    for (setup,) in db.conn.execute("select setup from games"):
        d = json.loads(setup)
        used.update(c[1] for c in d.get("library", ()))
        used.update(c[1] for c in d.get("commanders", ()))
    used.update(r[0] for r in db.conn.execute("select distinct name from names"))
    used.update(r[0] for r in db.conn.execute(  # archived games keep their names only in the log
        "select distinct json_extract(data, '$.naming.name') from events "
        "where json_extract(data, '$.naming.name') is not null"))
    return used


def build_cards(db: sqlite_utils.Database, source: Source, progress=None, keep: list[Card] | None = None) -> int:
    """Replace the card tables with ``source``'s cards in one transaction; return the count.

    With ``keep``, the imported cards are also appended to it as the domain's Cards, built from
    the same records (``load_pool(db, cards=keep)``): a first start doesn't read back the tables
    it just wrote.
    """
    cards, faces = [], []
    shared: dict = {}
    texts: dict = {}  # ~35k cards have a few hundred distinct lists of types, keywords, colours: each dumped once

    def dumped(value, **kw) -> str | None:
        if value is None:
            return None
        key = (dict, *value.items()) if isinstance(value, dict) else tuple(value)
        text = texts.get(key)
        if text is None:
            text = texts[key] = json.dumps(value if isinstance(value, dict) else list(value), **kw)
        return text

    for rec in source.records(progress):
        if keep is not None and rec["faces"]:
            keep.append(card_from_record(rec, shared))
        cards.append((rec["name"], rec["french_name"], rec["layout"], dumped(rec["legalities"], sort_keys=True),
                      dumped(rec.get("color_identity"))))
        for f in rec["faces"]:
            faces.append((rec["name"], f["position"], f["name"], f["french_name"], f["mana_cost"], f["mana_value"],
                          f["type_line"], f["text"], dumped(f["types"]), dumped(f["keywords"]),
                          f.get("power"), f.get("toughness"), f.get("loyalty"), f.get("defense"),
                          dumped(f.get("colors"))))
    if not cards:
        raise SourceRefused(say("source.no_card"))
    known = {name.casefold() for name, *_ in cards} | {f[2].casefold() for f in faces}
    with transaction(db):  # all or nothing: a failed import leaves the old pool in place
        # checked in the transaction that replaces them: no game can start meanwhile with a card it lacks
        missing = sorted(n for n in cards_in_use(db) if n.casefold() not in known)
        if missing:
            shown = missing[:5] + ["…"] * (len(missing) > 5)
            raise SourceRefused(say("source.lacks_used", n=len(missing), cards=shown))
        db.execute("delete from faces")
        db.execute("delete from cards")
        # Plain executemany: the tables are fixed by schema.sql, and it inserts ~70k rows
        # several times faster than building each batch's statement does.
        db.conn.executemany("insert into cards (name, french_name, layout, legalities, color_identity) "
                            "values (?, ?, ?, ?, ?)", cards)
        db.conn.executemany(f"insert into faces ({', '.join(_FACE_COLUMNS)}) "
                            f"values ({', '.join('?' * len(_FACE_COLUMNS))})", faces)
        db.execute("delete from cost_readings")
        db.conn.executemany("insert into cost_readings (hybrid, reading, mana_cost) values (?, ?, ?)",
                            _cost_readings({f[4] for f in faces if f[4] is not None}))
        db["card_source"].upsert(
            {
                "id": 1,
                "label": source.label,
                "signature": source.signature,
                "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "card_count": len(cards),
                "lacks": json.dumps(source.lacks),
                "legalities_known": int(source.legalities_known),
                "french_known": int(source.french_known),
                "card_schema": CARD_SCHEMA,
            },
            pk="id",
        )
    return len(cards)


def _cost_readings(texts) -> list[tuple[int, str, str]]:
    """(hybrid, reading, printed cost) of each printed cost text: every concrete cost it reads as
    (D1), without and with D3's house option; ~900 distinct texts among ~35k faces."""
    rows = []
    for text in sorted(texts):
        cost = ManaCost.parse(text)
        for hybrid in (0, 1):
            rows += [(hybrid, reading.text, text) for reading in cost.instantiations(bool(hybrid))]
    return rows


def _costs_reading_as(db: sqlite_utils.Database, readings: list[str], hybrid: bool) -> list[str]:
    """The printed costs of the faces some reading of which is one of ``readings``, from the table
    built with them (no cost parsed); asked 500 at a time, under SQLite's limit of variables."""
    found: set[str] = set()
    for at in range(0, len(readings), 500):
        part = readings[at:at + 500]
        found.update(row[0] for row in db.conn.execute(
            f"select mana_cost from cost_readings where hybrid = ? and reading in ({', '.join('?' * len(part))})",
            [int(hybrid), *part]))
    return sorted(found)


def load_pool(db: sqlite_utils.Database, bans: BanList | None = None, cards: list[Card] | None = None) -> CardPool:
    """Read every card into memory as the domain's CardPool; ``cards``, when given, are the
    tables' cards already in memory (``build_cards(..., keep=)``), and only the source is read."""
    meta = stored_source(db)
    if meta is None:
        raise LookupError("the card database is empty: run `mentalmagic build-cards`")
    if cards is None:
        cards = _read_cards(db)
    info = PoolInfo(
        source=meta["label"],
        built_at=meta["built_at"],
        lacks=tuple(json.loads(meta["lacks"])),
        legalities_known=bool(meta["legalities_known"]),
        french_known=bool(meta["french_known"]),
    )
    return CardPool(cards, bans if bans is not None else read_banlist(), info)


def _read_cards(db: sqlite_utils.Database, named: str | None = None, costs: list[str] | None = None) -> list[Card]:
    """Every card, or (``named``, ``costs``) the cards whose full name or one face's name is exactly
    ``named``, and those with a face whose printed mana cost is one of ``costs``."""
    parsed: dict[str, object] = {}  # a few hundred distinct texts among ~100k: parse each once
    where, params = "", []
    if named is not None or costs is not None:
        asked = []
        if named is not None:
            asked.append("select name from cards where name = ? union select card_name from faces where name = ?")
            params = [named, named]
        if costs:
            asked.append(f"select card_name from faces where mana_cost in ({', '.join('?' * len(costs))})")
            params += costs
        where = " where {col} in (" + (" union ".join(asked) or "select null") + ")"

    def loads(text: str):
        value = parsed.get(text)
        if value is None:
            value = parsed[text] = json.loads(text)
        return value  # shared: card_from_record copies what it keeps

    faces: dict[str, list[dict]] = defaultdict(list)
    for f in db.query("select * from faces" + where.format(col="card_name"), params):
        f["types"] = loads(f["types"])
        f["keywords"] = loads(f["keywords"])
        f["colors"] = None if f.get("colors") is None else loads(f["colors"])
        faces[f["card_name"]].append(f)
    cards = []
    shared: dict = {}
    for c in db.query("select * from cards" + where.format(col="name"), params):
        c["legalities"] = loads(c["legalities"])
        c["color_identity"] = None if c.get("color_identity") is None else loads(c["color_identity"])
        c["faces"] = faces.get(c["name"], [])
        if c["faces"]:
            cards.append(card_from_record(c, shared))
    return cards


class CardsAsked:
    """The pool as one game command uses it (issue 20): each card asked for by its exact English
    name (a game's printed cards and names) is read from SQLite alone, in a pool of its own; any
    other question loads the whole pool (``whole``) once, and every question goes there after.
    A terminal command that shows or changes a game thus skips loading ~34k cards."""

    def __init__(self, db_path, whole):
        self._db_path = db_path
        self._whole_loader = whole
        self._whole: CardPool | None = None
        self._asked: dict[str, CardPool | None] = {}
        self._bans: BanList | None = None
        self._info: PoolInfo | None = None

    def whole(self) -> CardPool:
        if self._whole is None:
            self._whole = self._whole_loader()
        return self._whole

    def _pool_for(self, name: str) -> CardPool:
        if self._whole is not None:
            return self._whole
        if name not in self._asked:
            db = connect(self._db_path, apply_schema=False)
            try:
                cards = _read_cards(db, named=name)
                self._info = self._info or load_pool(db, self.bans, cards=[]).info
            finally:
                db.conn.close()
            self._asked[name] = CardPool(cards, self.bans, self._info) if cards else None
        return self._asked[name] or self.whole()  # a French name, an unknown one: the whole pool answers

    def by_cost(self, costs, phyrexian_as_hybrid: bool, named: str | None = None) -> CardPool | None:
        """The cards with a face some reading of which is a reading of ``costs`` (D1), with the card
        called ``named``: all a naming's candidates and check look at, read from SQLite without the
        whole pool. None once the whole pool is loaded, or when no card is called ``named`` exactly
        (a French name, a misspelling: the whole pool answers those), or when the card tables were
        built before ``cost_readings`` (a look-up never rebuilds them: the whole pool answers)."""
        if self._whole is not None:
            return None
        wanted = sorted({c.text for cost in costs for c in cost.instantiations(phyrexian_as_hybrid)})
        db = connect(self._db_path, apply_schema=False)
        try:
            stored = stored_source(db)
            if stored is None or stored.get("card_schema", 1) < COST_READINGS_SCHEMA:
                return None  # its cost_readings is missing or empty
            cards = _read_cards(db, named=named, costs=_costs_reading_as(db, wanted, phyrexian_as_hybrid))
            self._info = self._info or load_pool(db, self.bans, cards=[]).info
        finally:
            db.conn.close()
        pool = CardPool(cards, self.bans, self._info)
        if named is not None and not pool.nameables_called(named) and pool.find(named) is None:
            return None
        return pool

    @property
    def bans(self) -> BanList:
        if self._bans is None:
            self._bans = self._whole.bans if self._whole is not None else read_banlist()
        return self._bans

    def lookup(self, name: str) -> Card:
        return self._pool_for(name or "").lookup(name)

    def find(self, name: str) -> Card | None:
        return self._pool_for(name or "").find(name)

    def nameables_called(self, name: str) -> list:
        return self._pool_for(name or "").nameables_called(name)

    def __getattr__(self, attr: str):
        return getattr(self.whole(), attr)


# The modules whose classes a cached finder holds: a change to any of them invalidates the cache.
_POOL_CODE = ("cards.py", "mana.py", "names.py", "pool.py", "formats.py", "index.py", "identity.py", "rulesets.py")
_CODE_DIR = Path(__file__).resolve().parents[1]
CACHED_FORMATS = ("vintage",)  # the default format answers the first query at once


def variant_indexes() -> list[tuple[str, object]]:
    """(format, rule set) of the indexes the pool cache keeps beside the default ones: the default
    format's under each other preset (docs/rule-sets.md). A server loads them before its workers
    fork, so no worker builds one on a request; a look-up from the CLI leaves them unread."""
    return [(fmt, rule_set(key)) for fmt in CACHED_FORMATS for key in RULE_SETS if key != DEFAULT_RULES]


def pool_cache_path(db_path) -> Path:
    """The built pool and index, pickled beside the database: instance/mentalmagic.sqlite.pool.pickle."""
    return Path(f"{db_path}.pool.pickle")


def pool_signature(meta: dict) -> str:
    """What a cached finder was built from: the stored source and its build, what its tables
    hold (CARD_SCHEMA), the ban list file, this code and this Python. Any change and the cache
    is rebuilt."""
    code = hashlib.sha256(banlist_path().read_bytes())
    for name in _POOL_CODE:
        code.update((_CODE_DIR / name).read_bytes())
    return "|".join([meta["signature"], meta["built_at"], str(meta["card_count"]), code.hexdigest()[:24],
                     f"tables {meta.get('card_schema', 1)}", sys.version])


# The cache file is three pickles written by one Pickler (so the variant indexes refer to the
# pool's own objects, not copies): the signature, the finder with its default indexes, then the
# variant indexes (variant_indexes), which only a reader that asks for them unpickles.
def _read_cached(path: Path, signature: str, variants: bool) -> CandidateFinder | None:
    try:
        with open(path, "rb") as fh:
            unpickler = pickle.Unpickler(fh)
            if unpickler.load() != signature:
                return None
            collecting = gc.isenabled()
            gc.disable()  # ~100k objects that all live on: collecting while they load is wasted work
            try:
                finder = unpickler.load()
                if variants:
                    finder.adopt(unpickler.load())
                return finder
            finally:
                if collecting:  # a caller that turned it off (the CLI, serve) freezes the pool first
                    gc.enable()
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        return None  # absent, half-written by a crash, or from older code: rebuild it


def _write_cached(path: Path, signature: str, finder: CandidateFinder, variant_keys: set[tuple]) -> None:
    built = finder.built()
    head = CandidateFinder(finder.pool)
    head.adopt({k: idx for k, idx in built.items() if k not in variant_keys})
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            pickler = pickle.Pickler(fh, protocol=pickle.HIGHEST_PROTOCOL)
            pickler.dump(signature)
            pickler.dump(head)
            pickler.dump({k: idx for k, idx in built.items() if k in variant_keys})
        os.replace(tmp, path)  # readers see the old file or the new one, never half of one
    except OSError:
        tmp.unlink(missing_ok=True)  # a read-only folder: every start loads from SQLite instead


def read_finder(db_path, *, cache: bool = True, cards: list[Card] | None = None,
                variants: bool = False, later: list | None = None) -> CandidateFinder:
    """The stored pool with the ban list and its default index, as a CandidateFinder; with
    ``variants`` (a server), the variant indexes too (``variant_indexes``).

    Built from the tables, it is cached in a pickle beside the database file (written here,
    read back only when ``pool_signature`` matches), so a restart or a CLI look-up reads it in
    a fraction of the time it takes to rebuild it. A build makes every cached index, variants
    included, so that the cache holds them for the next start. ``cards``: the tables' cards, just
    imported (``build_cards(..., keep=)``), so that a first start builds its pool without reading
    them back. ``later``: a list the cache's writing is appended to (a callable), instead of
    writing it now: a server writes it once it answers (runtime.write_aside).
    """
    db = connect(db_path, apply_schema=False)
    try:
        meta = stored_source(db)
        cache = cache and meta is not None and str(db_path) != ":memory:"
        if cache:
            signature, path = pool_signature(meta), pool_cache_path(db_path)
            finder = _read_cached(path, signature, variants)
            if finder is not None:
                return finder
        finder = CandidateFinder(load_pool(db, cards=cards))
    finally:
        db.conn.close()
    for fmt in CACHED_FORMATS:
        finder.index(fmt)
    variant_keys = set()
    if cache or variants:
        for fmt, rules in variant_indexes():
            finder.index(fmt, rules=rules)
            variant_keys.add(finder.index_key(fmt, rules))
    if cache:
        write = functools.partial(_write_cached, path, signature, finder, variant_keys)
        if later is None:
            write()
        else:
            later.append(write)
    return finder


def read_pool(db_path, bans: BanList | None = None) -> CardPool:
    """Open the database file, load its pool (from the cache when ``bans`` is the default), close it."""
    if bans is None:
        return read_finder(db_path).pool
    db = connect(db_path, apply_schema=False)
    try:
        return load_pool(db, bans)
    finally:
        db.conn.close()


def names_starting(db_path, prefix: str, limit: int = 50) -> list[str]:
    """Card and face names, English or French, that start with ``prefix`` (any ASCII case), read
    straight from the tables: the shell completes a name without loading the pool."""
    like = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    conn = sqlite3.connect(str(db_path), timeout=5)
    try:
        rows = conn.execute(
            "select name from (select name from cards where name like ?1 escape '\\' "
            "union select french_name from cards where french_name like ?1 escape '\\' "
            "union select name from faces where name like ?1 escape '\\' "
            "union select french_name from faces where french_name like ?1 escape '\\') "
            "order by length(name), name limit ?2", [like, limit])
        return [r[0] for r in rows]
    except sqlite3.DatabaseError:  # no card tables yet: nothing to offer
        return []
    finally:
        conn.close()
