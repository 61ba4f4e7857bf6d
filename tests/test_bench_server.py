"""The bench's server (bench/server.py) is the production server: what `make bench` times is what
`mentalmagic serve` runs. Figures are the bench's; this only checks the configuration."""

from __future__ import annotations

import gc

import pytest
from test_importers import TINY, write

import bench.server
from mentalmagic.settings import from_env
from mentalmagic.web import serving


@pytest.mark.parametrize("server", ["waitress", "gunicorn"])
def test_the_bench_server_serves_with_the_limits_mentalmagic_serve_passes(server, tmp_path, monkeypatch):
    """The same MENTALMAGIC_* limits reach waitress (connections, timeouts, poll()) or gunicorn as
    `mentalmagic serve` gives them; before, the bench's waitress ran on its own defaults."""
    monkeypatch.setenv("MENTALMAGIC_DB", str(tmp_path / "bench.sqlite"))
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(write(tmp_path / "AtomicCards.json", TINY)))
    monkeypatch.setenv("MENTALMAGIC_CHANNEL_TIMEOUT", "17")
    served = {}
    monkeypatch.setattr(serving, f"serve_{server}", lambda app, *a, **kw: served.update(kw))
    monkeypatch.setattr("sys.argv", ["server.py", "--server", server, "--port", "5077", "--workers", "2"])
    try:
        bench.server.main()
    finally:
        gc.unfreeze()  # main() froze what it built, as serve does: give this test process its collector back
    assert served["settings"] == from_env() and served["settings"].channel_timeout == 17
