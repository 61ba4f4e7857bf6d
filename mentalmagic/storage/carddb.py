"""The card tables: build them from a card source, load them into a CardPool."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import UTC, datetime

import sqlite_utils

from cards import Source
from cards.banlist import read_banlist

from ..cards import card_from_record
from ..formats import BanList
from ..pool import CardPool, PoolInfo
from . import connect, transaction

BATCH = 2000
# What the card tables hold: bumped when a build stores something new, so that tables built
# before it are rebuilt from their source (2: colour identity and face colours, #10; tables
# from before it also lack the power, toughness, loyalty and defense columns' values).
CARD_SCHEMA = 2


def _json_or_none(value) -> str | None:
    return None if value is None else json.dumps(list(value))


def stored_source(db: sqlite_utils.Database) -> dict | None:
    rows = list(db.query("select * from card_source where id = 1"))
    return rows[0] if rows else None


def is_current(db: sqlite_utils.Database, source: Source) -> bool:
    row = stored_source(db)
    return bool(row) and row["signature"] == source.signature and row.get("card_schema", 1) == CARD_SCHEMA


def build_cards(db: sqlite_utils.Database, source: Source, progress=None) -> int:
    """Replace the card tables with ``source``'s cards in one transaction; return the count."""
    cards, faces = [], []
    for rec in source.records(progress):
        cards.append(
            {
                "name": rec["name"],
                "french_name": rec["french_name"],
                "layout": rec["layout"],
                "legalities": json.dumps(rec["legalities"], sort_keys=True),
                "color_identity": _json_or_none(rec.get("color_identity")),
            }
        )
        for f in rec["faces"]:
            faces.append(
                {
                    "card_name": rec["name"],
                    **{k: f[k] for k in ("position", "name", "french_name", "mana_cost", "mana_value",
                                         "type_line", "text")},
                    "types": json.dumps(f["types"]),
                    "keywords": json.dumps(f["keywords"]),
                    "colors": _json_or_none(f.get("colors")),
                    **{k: f.get(k) for k in ("power", "toughness", "loyalty", "defense")},
                }
            )
    with transaction(db):  # all or nothing: a failed import leaves the old pool in place
        db.execute("delete from faces")
        db.execute("delete from cards")
        db["cards"].insert_all(cards, batch_size=BATCH)
        db["faces"].insert_all(faces, batch_size=BATCH)
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


def load_pool(db: sqlite_utils.Database, bans: BanList | None = None) -> CardPool:
    """Read every card into memory as the domain's CardPool."""
    meta = stored_source(db)
    if meta is None:
        raise LookupError("the card database is empty: run `mentalmagic build-cards`")
    faces: dict[str, list[dict]] = defaultdict(list)
    for f in db.query("select * from faces"):
        f["types"] = json.loads(f["types"])
        f["keywords"] = json.loads(f["keywords"])
        f["colors"] = None if f.get("colors") is None else json.loads(f["colors"])
        faces[f["card_name"]].append(f)
    cards = []
    for c in db.query("select * from cards"):
        c["legalities"] = json.loads(c["legalities"])
        c["color_identity"] = None if c.get("color_identity") is None else json.loads(c["color_identity"])
        c["faces"] = faces.get(c["name"], [])
        if c["faces"]:
            cards.append(card_from_record(c))
    info = PoolInfo(
        source=meta["label"],
        built_at=meta["built_at"],
        lacks=tuple(json.loads(meta["lacks"])),
        legalities_known=bool(meta["legalities_known"]),
        french_known=bool(meta["french_known"]),
    )
    return CardPool(cards, bans if bans is not None else read_banlist(), info)


def read_pool(db_path, bans: BanList | None = None) -> CardPool:
    """Open the database file, load its pool, and close it again."""
    db = connect(db_path, apply_schema=False)
    try:
        return load_pool(db, bans)
    finally:
        db.conn.close()
