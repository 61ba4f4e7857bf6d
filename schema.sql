-- The Mental Magic arbiter's SQLite schema. Applied at every start (idempotent).
PRAGMA foreign_keys = ON;

-- The card pool. Rebuilt as a whole when MENTALMAGIC_CARDS changes.
CREATE TABLE IF NOT EXISTS card_source (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    label            TEXT NOT NULL,      -- a path, or "embedded: cards/AtomicCards.json.xz"
    signature        TEXT NOT NULL,      -- changes when the source does
    built_at         TEXT NOT NULL,      -- ISO 8601, UTC
    card_count       INTEGER NOT NULL,
    lacks            TEXT NOT NULL DEFAULT '[]',  -- JSON list of what the source lacks
    legalities_known INTEGER NOT NULL DEFAULT 1,
    french_known     INTEGER NOT NULL DEFAULT 1,
    card_schema      INTEGER NOT NULL DEFAULT 1   -- carddb.CARD_SCHEMA the tables were built with
);

CREATE TABLE IF NOT EXISTS cards (
    name        TEXT PRIMARY KEY,       -- full English name: "Fire // Ice"
    french_name TEXT,
    layout      TEXT NOT NULL,
    legalities  TEXT NOT NULL DEFAULT '{}',  -- JSON {format: legal|banned|restricted}
    color_identity TEXT                 -- JSON ["R", "U"] (903.4); NULL = unknown to the source
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
    power       TEXT,                   -- as printed ("*", "1+*"); NULL when the face has none
    toughness   TEXT,
    loyalty     TEXT,
    defense     TEXT,
    colors      TEXT,                   -- JSON ["R"]: the face's colours; NULL = unknown
    PRIMARY KEY (card_name, position)
);
CREATE INDEX IF NOT EXISTS faces_name ON faces(name);

-- Each printed mana cost of the faces, under every concrete cost it reads as (D1), with the house
-- option (D3) or without: which costs a naming's cards may have, found without parsing them all
-- (carddb.CardsAsked.by_cost). Built with the faces.
CREATE TABLE IF NOT EXISTS cost_readings (
    hybrid    INTEGER NOT NULL,         -- 1: Phyrexian symbols read as hybrid (D3's house option)
    reading   TEXT NOT NULL,            -- a concrete cost, as ManaCost writes it: '{1}{R}'
    mana_cost TEXT NOT NULL,            -- faces.mana_cost ('' = no mana cost)
    PRIMARY KEY (hybrid, reading, mana_cost)
) WITHOUT ROWID;

-- Games. The events are the truth; game_cards and names are their projection,
-- rewritten in the same transaction as the event that changes them.
CREATE TABLE IF NOT EXISTS games (
    id               TEXT PRIMARY KEY,
    created_at       TEXT NOT NULL,
    format           TEXT NOT NULL,
    options          TEXT NOT NULL DEFAULT '{}',
    setup            TEXT NOT NULL,          -- JSON GameSetup: players and the library order (secret)
    judge_token_hash TEXT NOT NULL,          -- sha256 of the token; the token itself is never stored
    seq              INTEGER NOT NULL DEFAULT 0,  -- seq of the last event
    version          INTEGER NOT NULL DEFAULT 0,  -- bumped by every write, undo included: a cache key
    updated_at       TEXT,                   -- the last write (NULL: none since created_at)
    finished_at      TEXT,                   -- when the game ended (104.2a or the judge); NULL while it goes on
    archived_at      TEXT                    -- read-only from then on; its projection rows are dropped
);
-- a series' games, read on every move and look-up in one of them (Xom 6): without a scan of every game
CREATE INDEX IF NOT EXISTS games_series ON games(json_extract(options, '$.series'));

CREATE TABLE IF NOT EXISTS players (
    game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    id         TEXT NOT NULL,
    position   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    team       TEXT,
    token_hash TEXT NOT NULL UNIQUE,
    PRIMARY KEY (game_id, id)
);

CREATE TABLE IF NOT EXISTS game_cards (
    game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    id         TEXT NOT NULL,                -- opaque: says nothing of the printed card
    printed    TEXT NOT NULL,
    zone       TEXT NOT NULL,
    owner      TEXT,
    controller TEXT,
    face_down  INTEGER NOT NULL DEFAULT 0,
    pentaland  INTEGER NOT NULL DEFAULT 0,
    named_as   TEXT,
    state      TEXT NOT NULL,                -- the whole CardState as JSON
    PRIMARY KEY (game_id, id)
);

CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    at      TEXT NOT NULL,
    type    TEXT NOT NULL,
    player  TEXT,
    data    TEXT NOT NULL,
    rule    TEXT,
    PRIMARY KEY (game_id, seq)
);

-- Append-only: an event is never changed, and only the last one may go (undo).
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_only_undo_last BEFORE DELETE ON events
WHEN old.seq < (SELECT max(seq) FROM events WHERE game_id = old.game_id)
BEGIN SELECT RAISE(ABORT, 'only the last event can be undone'); END;

-- What undo took back, kept for the judge's record.
CREATE TABLE IF NOT EXISTS undone_events (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    undone_at TEXT NOT NULL,
    event     TEXT NOT NULL                  -- the event as it was, JSON
);

-- One card per name (704.2); only a recorded 705.4a exception may share one. A card is named once
-- (704.4), save a card named anew under MageRing (a card that re-enters is renamed as another card:
-- docs/rule-sets.md): its earlier names stay, each row its own, in the order taken (seq).
CREATE TABLE IF NOT EXISTS names (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    name_key  TEXT NOT NULL,                 -- folded name
    name      TEXT NOT NULL,
    card      TEXT NOT NULL,
    player    TEXT,
    seq       INTEGER NOT NULL,
    exception TEXT CHECK (exception IS NULL OR exception = '705.4a'),
    anew      INTEGER NOT NULL DEFAULT 0 CHECK (anew IN (0, 1)),  -- 1: the card had a name before
    PRIMARY KEY (game_id, card, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS names_one_card_per_name ON names(game_id, name_key) WHERE exception IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS names_one_name_per_card ON names(game_id, card) WHERE anew = 0;

-- Idempotency-Key (issue 23): the answer of a write, kept a day, written in the write's own
-- transaction. key_hash: sha256 of the route, the caller's Authorization and the key; request:
-- sha256 of the body (a key reused with another body is refused); answer: sealed under the key.
CREATE TABLE IF NOT EXISTS idempotency (
    key_hash   TEXT PRIMARY KEY,
    request    TEXT NOT NULL,
    status     INTEGER NOT NULL,
    answer     BLOB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idempotency_created ON idempotency(created_at);

-- One row, rewritten by the self-check and /health to learn whether the disk takes writes.
CREATE TABLE IF NOT EXISTS health (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    checked_at TEXT NOT NULL
);

-- Saved common decks (700.2). The list is kept as written and read again against the card
-- pool each time, so a deck follows the cards (French names, a new source) without a migration.
CREATE TABLE IF NOT EXISTS decks (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    list            TEXT NOT NULL,
    edit_token_hash TEXT NOT NULL,          -- sha256 of the edit token; the token itself is never stored
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);

-- Series (mentalmagic/series.py): a playgroup's games under one rule set; a game of one carries
-- its id in games.options ("series"). Names may last the whole series (Xom 6).
CREATE TABLE IF NOT EXISTS series (
    id         TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    rules      TEXT NOT NULL,                -- a rule set's key (rulesets.py)
    options    TEXT NOT NULL DEFAULT '{}',   -- its options, JSON
    token_hash TEXT NOT NULL,                -- sha256 of the series' token: who makes its games
    name       TEXT                          -- what the playgroup calls it, shown instead of its id (optional)
);
