"""The production server as `mentalmagic serve` runs it, plus one trivial route: the bench's target.

    python bench/server.py [--server waitress|gunicorn] --port 5077 [--workers N] [--inserts FILE]

Same app, same settings (mentalmagic/web/serving.py); ``/bench/trivial`` answers a constant, so
the bench can tell Flask's and the server's own floor from what a route adds. With ``--inserts``,
``POST /bench/insert`` does one raw durable insert into FILE (bench/raw.py, the actions' baseline)
and answers a constant: what waitress and Flask leave of one raw writer's rate, for one client.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask import request  # noqa: E402

from bench.raw import Inserter  # noqa: E402
from mentalmagic.runtime import load_frozen, write_aside  # noqa: E402
from mentalmagic.web import create_app, serving  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--server", choices=serving.SERVERS, default=serving.default_server())
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--workers", type=int, default=serving.default_workers())
    p.add_argument("--inserts", type=Path, default=None, help="the file POST /bench/insert writes to")
    args = p.parse_args()
    # as `mentalmagic serve` builds it: the pool out of the collector's sight, a first start's cache written aside
    app = load_frozen(create_app, {"POOL_CACHE_LATER": True})
    app.add_url_rule("/bench/trivial", "bench_trivial", lambda: {"ok": True})
    if args.inserts:
        insert = Inserter(args.inserts)

        def bench_insert():
            request.get_data()  # read like an action's body, then stored as the baseline stores it
            insert()
            return {"ok": True}

        app.add_url_rule("/bench/insert", "bench_insert", bench_insert, methods=["POST"])
    # served as `mentalmagic serve` serves: its limits (connections, timeouts, waitress's poll()), its threads
    write_aside(app.extensions["mentalmagic"])
    serving.serve(app, args.server, "127.0.0.1", args.port, args.workers)


if __name__ == "__main__":
    main()
