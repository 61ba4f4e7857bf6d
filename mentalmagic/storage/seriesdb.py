"""Series of games (mentalmagic/series.py) in SQLite: the series' row, and its games found by the
``series`` their options carry."""

from __future__ import annotations

import json

from ..series import UnknownSeries


class SeriesStore:
    """The series of one games database, over its connection (writes inside its unit of work)."""

    def __init__(self, database):
        self.database = database  # the games' database: its connection per thread (``.db``)

    def add(self, series_id: str, created_at: str, rules: str, options: dict, token_hash: str,
            name: str | None = None) -> None:
        self.database.db["series"].insert({"id": series_id, "created_at": created_at, "rules": rules,
                                        "options": json.dumps(options), "token_hash": token_hash, "name": name})

    def get(self, series_id: str) -> dict:
        rows = list(self.database.db.query("select * from series where id = ?", [series_id]))
        if not rows:
            raise UnknownSeries(series_id)
        row = rows[0]
        return {**row, "options": json.loads(row["options"])}

    def game_versions(self, series_id: str) -> list[tuple[str, int]]:
        """The series' games in the order they were made, each with its version (a write bumps it)."""
        # the connection's own cursor, not sqlite-utils' rows as dicts: every look-up about a series
        # game asks it (services._series_versions)
        return self.database.db.conn.execute(
            "select id, version from games where json_extract(options, '$.series') = ? order by created_at, rowid",
            [series_id]).fetchall()
