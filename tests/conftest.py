"""Shared fixtures: the full card snapshot is imported once per test session.

Tests read the snapshot from ../shared/cards/ (or MENTALMAGIC_TEST_CARDS);
it is never copied into the project.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cards import source_from_env
from mentalmagic.index import CandidateFinder
from mentalmagic.storage import connect
from mentalmagic.storage.carddb import build_cards, read_pool

ROOT = Path(__file__).resolve().parents[1]

# The suite creates many games from one address: no rate limit and no access log unless a test
# asks for them (tests/test_limits.py passes its own SETTINGS). Set before any app is built.
os.environ["MENTALMAGIC_RATE_LIMIT"] = "0"
os.environ["MENTALMAGIC_GAMES_PER_HOUR"] = "0"
os.environ["MENTALMAGIC_ACCESS_LOG"] = "0"
SNAPSHOT = Path(
    os.environ.get("MENTALMAGIC_TEST_CARDS") or ROOT.parent / "shared" / "cards" / "AtomicCards.json.xz"
)


@pytest.fixture(scope="session")
def snapshot_path() -> Path:
    if not SNAPSHOT.is_file():
        pytest.fail(f"the card snapshot is missing at {SNAPSHOT}; set MENTALMAGIC_TEST_CARDS")
    return SNAPSHOT


@pytest.fixture(scope="session")
def card_db_path(tmp_path_factory, snapshot_path) -> Path:
    """A real SQLite card database built from the full snapshot, once per session."""
    path = tmp_path_factory.mktemp("cards") / "mentalmagic.sqlite"
    db = connect(path)
    build_cards(db, source_from_env(str(snapshot_path)))
    db.conn.close()
    return path


@pytest.fixture(scope="session")
def pool(card_db_path):
    return read_pool(card_db_path)


@pytest.fixture(scope="session")
def finder(pool) -> CandidateFinder:
    return CandidateFinder(pool)


# -- the cards API (issue 2): one app over the session's card pool ---------------------
# Named cards_app / cards_client so that fixtures other engineers append can't shadow them.
@pytest.fixture(scope="session")
def cards_app(card_db_path, pool, finder):
    """The Flask app over the full snapshot; the runtime is preloaded, nothing is rebuilt."""
    from mentalmagic.runtime import Runtime
    from mentalmagic.web import create_app

    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(card_db_path),
            "RUNTIME": Runtime(db_path=card_db_path, pool=pool, finder=finder),
        }
    )


@pytest.fixture
def cards_client(cards_app):
    return cards_app.test_client()
