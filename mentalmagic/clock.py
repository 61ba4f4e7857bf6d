"""The one clock: every time stored or answered is UTC ISO 8601 to the millisecond."""

from __future__ import annotations

from datetime import UTC, datetime


def stamp(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds")


def now() -> str:
    return stamp(datetime.now(UTC))
