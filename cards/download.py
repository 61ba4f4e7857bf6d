"""Download the current AtomicCards file from MTGJSON (when the machine is online)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

DEFAULT_URL = "https://mtgjson.com/api/v5/AtomicCards.json.xz"
CHUNK = 1 << 16


def download_url() -> str:
    """MENTALMAGIC_CARDS_URL overrides the MTGJSON address (a mirror, or a test server)."""
    return os.environ.get("MENTALMAGIC_CARDS_URL") or DEFAULT_URL


def download(url: str, dest: Path, progress=None, timeout: float = 60) -> Path:
    """Fetch ``url`` into ``dest`` atomically: a failed download leaves ``dest`` untouched.

    ``progress(done_bytes, total_bytes_or_None)`` is called as bytes arrive.
    """
    import urllib.request  # here: every CLI command imports this module, few download (~15 ms)

    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    req = urllib.request.Request(url, headers={"User-Agent": "mentalmagic-arbiter"})
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=dest.name, suffix=".part")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp, os.fdopen(fd, "wb") as out:
            total = resp.headers.get("Content-Length")
            total = int(total) if total and total.isdigit() else None
            done = 0
            while chunk := resp.read(CHUNK):
                out.write(chunk)
                done += len(chunk)
                if progress:
                    progress(done, total)
        shutil.move(tmp, dest)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return dest
