"""Read the Mental Magic ban list (706.2–706.4a), a CSV a playgroup may edit.

Columns: ``rule,french_name,english_name,status``; status is ``banned`` or
``watched``. An empty ``english_name`` is an unresolved French name: it is
kept and shown as unresolved, never guessed. Lines starting with ``#`` are
comments (say where a resolved name comes from).
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

from mentalmagic.formats import BanEntry, BanList

from . import BANLIST_PATH

STATUSES = {"banned", "watched"}


def banlist_path() -> Path:
    """MENTALMAGIC_BANLIST names a house list; the project's own file is the default."""
    return Path(os.environ.get("MENTALMAGIC_BANLIST") or BANLIST_PATH)


def read_banlist(path: Path | None = None) -> BanList:
    path = Path(path or banlist_path())
    with open(path, encoding="utf-8", newline="") as fh:
        # comment lines are dropped before the CSV reader sees them; line numbers stay the file's
        kept = [(n, text) for n, text in enumerate(fh, start=1) if not text.lstrip().startswith("#")]
    rows = csv.DictReader(text for _, text in kept)
    entries = []
    for (line, _), row in zip(kept[1:], rows, strict=False):
        status = (row.get("status") or "").strip().lower()
        if status not in STATUSES:
            raise ValueError(f"{path}:{line}: status must be banned or watched, not {status!r}")
        entries.append(
            BanEntry(
                rule=(row.get("rule") or "").strip(),
                french_name=(row.get("french_name") or "").strip(),
                english_name=(row.get("english_name") or "").strip() or None,
                status=status,
            )
        )
    return BanList(entries)
