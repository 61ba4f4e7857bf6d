"""What one machine holds (issue 9): games on disk and in memory, actions/s, lookups/s. `make capacity`.

    .venv/bin/python bench/capacity.py --cards ../shared/cards/AtomicCards.json.xz [--seconds 8]

Against the production server as `make serve` starts it (`mentalmagic serve`: waitress, a worker
per core and one more), on a fresh database in a temporary directory, limits and access log off:

- disk: the database's growth per 300-card game, created and after ``--actions-per-game`` actions;
- memory: what one replayed 300-card game costs in the game cache (tracemalloc, in this process);
- actions/s: ``--bots`` threads, each a bot of its own game on a keep-alive connection, for
  ``--seconds`` (every action a durable SQLite transaction); the median latency;
- lookups/s: Debian's wrk on /candidates?printed=<random card> and /cards?q=<prefix>;
- a cache miss: the first read of a 300-card game with its actions, replayed from the log;
- the archive: what archiving every game frees (pages reused by new games).

Bounded (each phase a fixed time or count). A measurement, not a test: the machine is shared.
"""

from __future__ import annotations

import argparse
import http.client
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.run import DEFAULT_CARDS, MENTALMAGIC, Context, Server, request, run_wrk, wrk_script  # noqa: E402
from mentalmagic.storage.carddb import read_pool  # noqa: E402
from mentalmagic.storage.gamedb import GameStore  # noqa: E402


def say(line: str = "") -> None:
    print(line, flush=True)


def db_bytes(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, size, free = (conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "page_size",
                                                                                   "freelist_count"))
    return (pages - free) * size


def new_game(port: int, library: list[str]) -> dict:
    status, game = request(port, "POST", "/api/v1/games", {"players": [{"name": "Ana"}, {"name": "Bob"}],
                                                          "library": library})
    if status != 201:
        raise RuntimeError(f"game refused: {game}")
    return game


def bot(port: int, game: dict, until: float, out: list, n: int | None = None) -> None:
    """Draw a card, put it back at the bottom; again, until ``until`` (or ``n`` actions)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    path, token = f"/api/v1/games/{game['id']}/actions", game["players"][0]["token"]
    drawn, i, lat = None, 0, []
    while time.perf_counter() < until and (n is None or i < n):
        t = time.perf_counter()
        if drawn is None:
            status, body = request(port, "POST", path, {"type": "draw", "count": 1}, token, conn)
            drawn = body["event"]["data"]["cards"][0] if status == 200 else None
        else:
            status, body = request(port, "POST", path, {"type": "move", "card": drawn, "to": "library",
                                                        "position": "bottom"}, token, conn)
            drawn = None
        if status != 200:
            raise RuntimeError(f"action refused: {body}")
        lat.append(time.perf_counter() - t)
        i += 1
    conn.close()
    out.append(lat)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cards", type=Path, default=DEFAULT_CARDS)
    p.add_argument("--games", type=int, default=100, help="300-card games created for the disk figure")
    p.add_argument("--actions-per-game", type=int, default=100)
    p.add_argument("--bots", type=int, default=4)
    p.add_argument("--seconds", type=int, default=8, help="per throughput phase")
    p.add_argument("--seed", type=int, default=704)
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="mm-capacity-"))
    db = work / "mentalmagic.sqlite"
    ctx = Context(SimpleNamespace(cards=args.cards, connections=8, seconds=args.seconds), work, db)
    rng = random.Random(args.seed)
    try:
        with Server(ctx, cmd=[str(MENTALMAGIC), "serve", "--host", "127.0.0.1"]) as srv:
            pool = read_pool(db)
            drawable = [c for c in pool.cards if c.in_library and c.printed_costs]
            library = [rng.choice(drawable).name for _ in range(300)]
            say(f"mentalmagic serve (waitress, as `make serve` starts it) on {db}; {len(pool):,} cards")

            before = db_bytes(db)
            t = time.perf_counter()
            games = [new_game(srv.port, library) for _ in range(args.games)]
            created = args.games / (time.perf_counter() - t)
            per_game = (db_bytes(db) - before) / args.games
            say(f"disk     {per_game / 1024:8.1f} KiB per new 300-card game "
                f"({created:.0f} games created/s, one client)")
            before = db_bytes(db)
            played = games[: min(10, len(games))]
            for g in played:
                bot(srv.port, g, float("inf"), [], n=args.actions_per_game)
            per_action = (db_bytes(db) - before) / (len(played) * args.actions_per_game)
            say(f"disk     {per_action:8.0f} B per action (events, projection, indexes)")

            # actions/s: independent games, one bot each
            until = time.perf_counter() + args.seconds
            lats: list[list[float]] = []
            threads = [threading.Thread(target=bot, args=(srv.port, g, until, lats)) for g in games[-args.bots:]]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            count = sum(len(x) for x in lats)
            all_lat = sorted(v for x in lats for v in x)
            say(f"actions  {count / args.seconds:8.0f} /s   ({args.bots} bots, {args.seconds} s; median "
                f"{statistics.median(all_lat) * 1e3:.1f} ms, p99 {all_lat[int(len(all_lat) * .99)] * 1e3:.1f} ms)")

            # lookups/s with wrk
            sample = [rng.choice(drawable) for _ in range(2000)]
            for label, paths in (
                    ("candidates", [f"/api/v1/candidates?printed={quote(c.name, safe='')}" for c in sample]),
                    ("autocomplete", [f"/api/v1/cards?q={quote(c.name[:rng.randint(2, 5)], safe='')}"
                                      for c in sample])):
                res = run_wrk(ctx, srv.port, wrk_script(work / f"{label}.lua", paths), args.seconds)
                say(f"lookups  {res['rps']:8.0f} /s   {label} (wrk, 8 connections, {args.seconds} s)"
                    + (f"; non-2xx {res['non2xx']}" if res["non2xx"] else ""))

        # memory per cached game, and the cost of a miss: in this process, over the same file
        from mentalmagic.index import CandidateFinder

        store = GameStore(db, CandidateFinder(pool), cache_size=len(played))
        t = time.perf_counter()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        for g in played:
            store.load(g["id"])
        held = (tracemalloc.get_traced_memory()[0] - base) / len(played)
        tracemalloc.stop()
        miss = (time.perf_counter() - t) / len(played)
        say(f"memory   {held / 1024:8.0f} KiB per cached 300-card game with {args.actions_per_game} events "
            f"(x MENTALMAGIC_GAME_CACHE=256: {held * 256 / 2**20:.0f} MiB per worker at most)")
        say(f"miss     {miss * 1e3:8.1f} ms to replay such a game from the log (tracemalloc on: an upper bound)")
        from mentalmagic import services

        before = db_bytes(db)
        archived = services.archive_idle(store.unit_of_work(), hours=0)  # everything, as if idle for long
        say(f"archive  {(before - db_bytes(db)) / len(archived) / 1024:8.1f} KiB freed per archived game "
            "(its projection; the log and setup stay)")
        rows = sqlite3.connect(db).execute("select count(*) from games").fetchone()[0]
        say(f"({rows} games in {db.stat().st_size / 2**20:.1f} MiB)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
