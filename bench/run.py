"""Figures a judge feels, measured in one run on the full card snapshot: `make bench`.

    .venv/bin/python bench/run.py --cards ../shared/cards/AtomicCards.json.xz

Sections run in order and share one Context (the temp database, the pool, the
finder). Each section is a function ``section(ctx) -> list[Row]`` that prints
its own short report as it goes and returns rows for the summary table; add a
new one (game actions per second through the API, the rebuild of a 1,000-event
game, ...) by writing such a function and listing it in SECTIONS.

These are measurements, not tests: nothing passes or fails. Timings use
time.perf_counter; random choices use a fixed seed so two runs ask the same
questions. The HTTP section serves only on 127.0.0.1, with a bounded number of
requests and a time cap per route, and stops its server before returning.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/run.py` puts bench/, not the project, on the path
    sys.path.insert(0, str(ROOT))

from cards import source_from_env  # noqa: E402
from mentalmagic.cards import Card  # noqa: E402
from mentalmagic.index import CandidateFinder, CostIndex  # noqa: E402
from mentalmagic.pool import CardPool  # noqa: E402
from mentalmagic.storage import connect  # noqa: E402
from mentalmagic.storage.carddb import build_cards, is_current, load_pool  # noqa: E402

DEFAULT_CARDS = ROOT.parent / "shared" / "cards" / "AtomicCards.json.xz"
LOADGEN = Path(__file__).resolve().with_name("loadgen.py")
FMT = "vintage"


# -- shared state and small helpers ---------------------------------------------------
@dataclass
class Row:
    section: str
    metric: str
    value: float
    unit: str

    def text(self) -> str:
        return f"{fmt_num(self.value)} {self.unit}".rstrip()


@dataclass
class Context:
    args: argparse.Namespace
    workdir: Path
    db_path: Path | None = None
    pool: CardPool | None = None
    finder: CandidateFinder | None = None
    extra: dict = field(default_factory=dict)  # anything a later section wants to hand on

    def rng(self, salt: str) -> random.Random:
        """A generator per purpose, so adding a section never shifts another's sample."""
        return random.Random(f"{self.args.seed}:{salt}")

    def printed_sample(self, salt: str, n: int) -> list[Card]:
        """``n`` random printed cards a judge could draw: in a library, with a known printed cost."""
        drawable = self.extra.get("drawable")
        if drawable is None:
            drawable = self.extra["drawable"] = [c for c in self.pool.cards if c.in_library and c.printed_costs]
        rng = self.rng(salt)
        return [rng.choice(drawable) for _ in range(n)]


def fmt_num(x: float) -> str:
    if x == 0:
        return "0"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:#.3g}"


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    s = sorted(values)
    k = max(0, math.ceil(p / 100 * len(s)) - 1)
    return s[k]


def timed(fn: Callable, *a, **kw) -> tuple[object, float]:
    t = time.perf_counter()
    out = fn(*a, **kw)
    return out, time.perf_counter() - t


def say(line: str = "") -> None:
    print(line, flush=True)


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


# -- 1. card import and the index a judge waits for ----------------------------------------
def section_import(ctx: Context) -> list[Row]:
    name = "import"
    say("== 1. Card import and index build (what a judge waits for at start)")
    source = source_from_env(str(ctx.args.cards))
    ctx.db_path = ctx.workdir / "mentalmagic.sqlite"

    # Reading + parsing the snapshot alone, to split build_cards' time (not part of a start).
    records, t_parse = timed(lambda: sum(1 for _ in source.records()))

    db = connect(ctx.db_path)
    try:
        n_cards, t_build = timed(build_cards, db, source)
        current = is_current(db, source)
    finally:
        db.conn.close()
    size_mb = ctx.db_path.stat().st_size / 1e6

    db = connect(ctx.db_path)
    try:
        pool, t_load = timed(load_pool, db)
    finally:
        db.conn.close()
    ctx.pool = pool
    ctx.finder = CandidateFinder(pool)
    idx, t_index = timed(ctx.finder.index, FMT)  # what open_runtime builds: CostIndex(pool, "vintage")

    # A second, standalone build of the same index: the index is cheap next to the pool.
    _, t_index2 = timed(CostIndex, pool, FMT)

    cold = t_build + t_load + t_index
    warm = t_load + t_index
    say(f"  snapshot            {ctx.args.cards}")
    say(f"  cards / nameables   {n_cards:,} cards imported, {len(pool):,} in pool, "
        f"{len(pool.nameables):,} nameable entries; tables current: {current}")
    say(f"  build_cards         {t_build:6.2f} s   (fresh SQLite file, {size_mb:.1f} MB; "
        f"read+parse of the snapshot alone: {t_parse:.2f} s = {t_parse / t_build:.0%} of it; {records:,} records)")
    say(f"  load_pool           {t_load:6.2f} s")
    say(f"  CostIndex(vintage)  {t_index:6.2f} s   ({idx.size:,} filings under {len(idx.by_cost):,} concrete "
        f"costs; rebuilt standalone: {t_index2:.2f} s)")
    say(f"  start, cards stored {warm:6.2f} s   (load_pool + index; load_pool is {t_load / warm:.0%})")
    say(f"  start, first import {cold:6.2f} s   (build_cards + load_pool + index)")
    return [
        Row(name, "build_cards", t_build, "s"),
        Row(name, "load_pool", t_load, "s"),
        Row(name, "CostIndex(vintage)", t_index, "s"),
        Row(name, "start, cards stored (load+index)", warm, "s"),
        Row(name, "start, first import (build+load+index)", cold, "s"),
    ]


# -- 2. candidates in process: index against a brute-force scan ----------------------------
def brute_candidates(pool: CardPool, printed: Card, fmt: str = FMT) -> list:
    """What the index answers, by scanning every nameable (the reference to beat)."""
    costs = printed.printed_costs
    excluded = printed.face_names
    seen: set[str] = set()
    out = []
    for n in pool.nameables:
        if n.key in excluded or n.key in seen:
            continue
        if pool.refusal(n.card, fmt) is None and any(n.cost.matches(pc) for pc in costs):
            seen.add(n.key)
            out.append(n)
    return out


def section_candidates(ctx: Context) -> list[Row]:
    name = "candidates"
    a = ctx.args
    say(f"== 2. finder.candidates(printed=card) in process, format {FMT}")
    finder, pool = ctx.finder, ctx.pool
    sample = ctx.printed_sample("candidates", a.queries)

    for card in sample[:200]:  # warm-up (the index itself is already built)
        finder.candidates(printed=card, fmt=FMT)
    lat, counts = [], []
    for card in sample:
        t = time.perf_counter()
        res = finder.candidates(printed=card, fmt=FMT)
        lat.append(time.perf_counter() - t)
        counts.append(len(res.candidates))

    brute_sample = sample[: a.brute]
    blat, mismatches = [], 0
    for card in brute_sample:
        t = time.perf_counter()
        got = brute_candidates(pool, card)
        blat.append(time.perf_counter() - t)
        want = finder.candidates(printed=card, fmt=FMT).candidates
        mismatches += [n.key for n in got] != [n.key for n in want]
    # The index on exactly the brute-force sample, so the ratio compares like with like.
    same = [lat[i] for i in range(len(brute_sample))]

    med, p99 = statistics.median(lat) * 1e6, percentile(lat, 99) * 1e6
    bmed, bp99 = statistics.median(blat) * 1e6, percentile(blat, 99) * 1e6
    speedup = statistics.median(blat) / statistics.median(same)
    speedup_all = bmed / med
    say(f"  index    n={len(lat):>5}  median {med:9,.0f} us   p99 {p99:9,.0f} us   "
        f"(mean {statistics.fmean(lat) * 1e6:,.0f} us, max {max(lat) * 1e6:,.0f} us)")
    say(f"  brute    n={len(blat):>5}  median {bmed:9,.0f} us   p99 {bp99:9,.0f} us   "
        f"(scan of {len(pool.nameables):,} nameables; answers differ from the index's on "
        f"{mismatches} of {len(blat)})")
    say(f"  speed-up brute/index  x{speedup:,.0f} on the same {len(blat)} cards "
        f"(x{speedup_all:,.0f} against the index's median over all {len(lat)})")
    say(f"  answers  candidates per card: median {statistics.median(counts):,.0f}, "
        f"p99 {percentile(counts, 99):,.0f}, max {max(counts):,}  "
        f"-> {sum(lat) / max(1, sum(counts)) * 1e9:,.0f} ns per candidate returned (total time / total candidates)")
    slow = sorted(zip(lat, sample, counts, strict=True), key=lambda x: x[0], reverse=True)[:3]
    say("  slowest  " + "; ".join(f"{c.name} ({c.mana_cost_text or 'no mana cost'}, {k:,} candidates, "
                                   f"{t * 1e6:,.0f} us)"
                                   for t, c, k in slow))
    return [
        Row(name, "index median", med, "us"),
        Row(name, "index p99", p99, "us"),
        Row(name, "brute median", bmed, "us"),
        Row(name, "brute p99", bp99, "us"),
        Row(name, "speed-up brute/index (median, same cards)", speedup, "x"),
    ]


# -- 2b. the same within a commander's colour identity (903.5c, #10) --------------------------
IDENTITIES = {"Krenko, Mob Boss": "R", "Mayael the Anima": "WRG", "Thrasios + Tymna": "WUBG", "colourless": ""}


def section_identity(ctx: Context) -> list[Row]:
    """finder.candidates(printed=card, identity=...) on the sample of section 2: the filter runs on
    the remembered list of a cost, so it must cost the index nothing it can feel."""
    name = "identity"
    finder = ctx.finder
    sample = ctx.printed_sample("candidates", ctx.args.queries)  # the same cards as section 2
    say(f"== 2b. finder.candidates(printed=card, identity=...) in process, format {FMT}, "
        f"{len(sample)} cards; cold = first time per (cost, identity)")

    def run(identity) -> list[float]:
        lat = []
        for card in sample:
            t = time.perf_counter()
            finder.candidates(printed=card, fmt=FMT, identity=identity)
            lat.append(time.perf_counter() - t)
        return lat

    base = run(None)
    say(f"  {'no identity':<26} median {statistics.median(base) * 1e6:7,.0f} us   "
        f"p99 {percentile(base, 99) * 1e6:7,.0f} us")
    rows = [Row(name, "no identity median", statistics.median(base) * 1e6, "us")]
    for label, letters in IDENTITIES.items():
        identity = frozenset(letters)
        cold, warm = run(identity), run(identity)
        say(f"  {label + ' (' + (letters or '-') + ')':<26} median {statistics.median(warm) * 1e6:7,.0f} us   "
            f"p99 {percentile(warm, 99) * 1e6:7,.0f} us   (cold: median {statistics.median(cold) * 1e6:,.0f} us, "
            f"p99 {percentile(cold, 99) * 1e6:,.0f} us)")
        rows.append(Row(name, f"{label} median", statistics.median(warm) * 1e6, "us"))
    return rows


# -- 3. HTTP under waitress: /api/v1/candidates against a trivial route ---------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """Waitress on 127.0.0.1 in a background thread of this process; stop() ends it."""

    def __init__(self, app, threads: int):
        from waitress import create_server

        # Queue-depth warnings are expected when clients outnumber threads; keep the report clean.
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)
        self.server = create_server(app, host="127.0.0.1", port=free_port(), threads=threads,
                                    connection_limit=64, channel_timeout=30)
        self.port = self.server.effective_port
        self.thread = threading.Thread(target=self.server.run, name="bench-waitress", daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        srv = self.server
        srv.close()  # stop listening
        for ch in list(srv._map.values()):  # any channel a client left open
            try:
                ch.close()
            except OSError:
                pass
        srv.task_dispatcher.shutdown(timeout=5)
        self.thread.join(timeout=5)


def load(port: int, paths: list[str], ctx: Context) -> dict:
    """Run the load generator in its own process (its own GIL) and time the server side.

    The generator prints "go" and "done" around its measured window; this process reads
    its own CPU clock at those two lines, which gives the server's CPU use in the window
    (100% = one core, the most one Python process can use under the GIL).
    """
    a = ctx.args
    job = {"host": "127.0.0.1", "port": port, "paths": paths, "connections": a.connections,
           "requests": a.requests, "warmup": a.warmup, "max_seconds": a.max_seconds}
    proc = subprocess.Popen([sys.executable, str(LOADGEN)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(a.max_seconds + 60, proc.kill)  # the generator bounds itself; belt and braces
    watchdog.start()
    try:
        proc.stdin.write(json.dumps(job))
        proc.stdin.close()
        marks, result = {}, None
        for line in proc.stdout:
            line = line.strip()
            if line in ("go", "done"):
                marks[line] = (cpu_seconds(), time.perf_counter())
            elif line.startswith("{"):
                result = json.loads(line)
        err = proc.stderr.read()
        proc.wait()
    finally:
        watchdog.cancel()
    if proc.returncode != 0 or result is None or len(marks) != 2:
        raise RuntimeError(f"load generator failed (exit {proc.returncode}):\n{err}")
    (cpu0, t0), (cpu1, t1) = marks["go"], marks["done"]
    result["rps"] = result["completed"] / result["elapsed"] if result["elapsed"] else 0.0
    result["server_cpu"] = (cpu1 - cpu0) / (t1 - t0)
    result["client_cpu"] = result["cpu"] / result["elapsed"] if result["elapsed"] else 0.0
    return result


def section_http(ctx: Context) -> list[Row]:
    name = "http"
    a = ctx.args
    say(f"== 3. HTTP under waitress (threads={a.threads}), {a.connections} keep-alive connections, "
        f"{a.requests:,} requests per route (cap {a.max_seconds:g} s)")
    from mentalmagic.runtime import Runtime
    from mentalmagic.web import create_app

    rt = Runtime(db_path=ctx.db_path, pool=ctx.pool, finder=ctx.finder)
    app = create_app({"DATABASE": str(ctx.db_path), "RUNTIME": rt})
    app.add_url_rule("/bench/trivial", "bench_trivial", lambda: {"ok": True})  # Flask's own floor
    ctx.extra["app"] = app

    cards = ctx.printed_sample("http", a.requests)
    cand_paths = [f"/api/v1/candidates?printed={quote(c.name, safe='')}&limit=50" for c in cards]
    routes = [("trivial", ["/bench/trivial"]), ("candidates", cand_paths)]

    results = {}
    with Server(app, a.threads) as srv:  # stopped on leaving, even on error
        for label, paths in routes:
            r = results[label] = load(srv.port, paths, ctx)
            lat = r["latencies_us"]
            bad = {k: v for k, v in r["statuses"].items() if k != "200"}
            say(f"  {label:<10}  {r['rps']:8,.0f} req/s   {r['completed']:,} in {r['elapsed']:.2f} s   "
                f"latency median {statistics.median(lat):7,.0f} us  p99 {percentile(lat, 99):7,.0f} us   "
                f"server CPU {r['server_cpu']:.0%}  client CPU {r['client_cpu']:.0%}"
                + (f"   NON-200: {bad}" if bad else "") + (f"   ERRORS: {r['errors'][:3]}" if r["errors"] else ""))
    ratio = results["candidates"]["rps"] / results["trivial"]["rps"]
    per_req_extra = 1e6 / results["candidates"]["rps"] - 1e6 / results["trivial"]["rps"]
    say(f"  ratio candidates/trivial  {ratio:.2f}  (a candidates request costs "
        f"{per_req_extra:,.0f} us more server time than Flask+waitress's floor of "
        f"{1e6 / results['trivial']['rps']:,.0f} us)")
    return [
        Row(name, "trivial route", results["trivial"]["rps"], "req/s"),
        Row(name, "candidates limit=50", results["candidates"]["rps"], "req/s"),
        Row(name, "ratio candidates/trivial", ratio, ""),
    ]


# -- 4. the game ledger: actions through the API, and rebuilding a game from its log -------------
def _post(conn, path: str, body: dict, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request("POST", path, body=json.dumps(body), headers=headers)
    resp = conn.getresponse()
    return resp.status, json.loads(resp.read())


def section_games(ctx: Context) -> list[Row]:
    """Actions per second through real HTTP with durable commits (WAL, synchronous=FULL),
    and the time to rebuild a 1,000-event game from its stored log (a restart's first read)."""
    import http.client

    from mentalmagic.runtime import Runtime
    from mentalmagic.storage.gamedb import GameStore
    from mentalmagic.web import create_app

    name = "games"
    a = ctx.args
    say(f"== 4. Game ledger: {a.actions:,} actions through HTTP (one bot, keep-alive), then a rebuild")
    app = ctx.extra.get("app") or create_app(
        {"DATABASE": str(ctx.db_path), "RUNTIME": Runtime(db_path=ctx.db_path, pool=ctx.pool, finder=ctx.finder)})
    library = [c.name for c in ctx.printed_sample("games", 300)]
    with Server(app, a.threads) as srv:
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
        status, game = _post(conn, "/api/v1/games", {"players": [{"name": "Ana"}, {"name": "Bob"}],
                                                     "library": library})
        assert status == 201, game
        path, token = f"/api/v1/games/{game['id']}/actions", game["players"][0]["token"]
        lat = []
        t0 = time.perf_counter()
        for i in range(a.actions):
            # a draw, then the drawn card back under the library: every pair is two durable events
            t = time.perf_counter()
            if i % 2 == 0:
                status, body = _post(conn, path, {"type": "draw", "count": 1}, token)
                drawn = body["event"]["data"]["cards"][0] if status == 200 else None
            else:
                status, body = _post(conn, path, {"type": "move", "card": drawn, "to": "library",
                                                  "position": "bottom"}, token)
            lat.append((time.perf_counter() - t) * 1e6)
            if status != 200:
                raise RuntimeError(f"action {i} refused: {body}")
        elapsed = time.perf_counter() - t0
        conn.close()
    aps = a.actions / elapsed
    say(f"  actions   {aps:8,.0f} actions/s   {a.actions:,} in {elapsed:.2f} s   latency median "
        f"{statistics.median(lat):7,.0f} us  p99 {percentile(lat, 99):7,.0f} us   (each one transaction, fsynced)")

    # The same game, now {a.actions} events long, read by a store with an empty cache: a restart.
    fresh = GameStore(ctx.db_path, ctx.finder)
    (loaded, t_rebuild) = timed(fresh.load, game["id"])
    assert loaded.state.seq == a.actions
    reps = [timed(GameStore(ctx.db_path, ctx.finder).load, game["id"])[1] for _ in range(5)]
    t_med = statistics.median(reps + [t_rebuild])
    say(f"  rebuild   {t_med * 1e3:8.1f} ms   to read and fold a {loaded.state.seq:,}-event game "
        f"from SQLite with an empty cache (median of 6)")
    return [
        Row(name, "actions through HTTP", aps, "actions/s"),
        Row(name, "action latency median", statistics.median(lat), "us"),
        Row(name, f"rebuild a {loaded.state.seq:,}-event game", t_med * 1e3, "ms"),
    ]


SECTIONS: list[Callable[[Context], list[Row]]] = [
    section_import, section_candidates, section_identity, section_http, section_games,
]


# -- --profile: where the time goes (run after every measurement, so it skews none) --------
def profile_report(ctx: Context) -> None:
    """cProfile of load_pool, of finder.candidates and of the candidates view (Flask test client)."""
    import cProfile
    import io
    import pstats

    def show(title: str, fn: Callable[[], object], n: int = 14) -> None:
        prof = cProfile.Profile()
        prof.enable()
        fn()
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(n)
        lines = out.getvalue().splitlines()
        table = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls"))
        say(f"-- profile: {title}")
        for ln in lines[table:]:
            if ln.strip():
                say("  " + ln)

    def load_again():
        db = connect(ctx.db_path)
        try:
            load_pool(db)
        finally:
            db.conn.close()

    sample = ctx.printed_sample("profile", 1000)
    say()
    say("== Profiles (cProfile, sorted by own time; profiling slows every call, read shares not times)")
    show("load_pool", load_again)
    show("finder.candidates x1000", lambda: [ctx.finder.candidates(printed=c, fmt=FMT) for c in sample])
    app = ctx.extra.get("app")
    if app is not None:
        client = app.test_client()
        paths = [f"/api/v1/candidates?printed={quote(c.name, safe='')}&limit=50" for c in sample]
        show("GET /api/v1/candidates?limit=50 x1000 (test client, no server)",
             lambda: [client.get(p) for p in paths])


# -- driver ---------------------------------------------------------------------------------
def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cards", type=Path, default=DEFAULT_CARDS, help="AtomicCards snapshot (.json/.gz/.xz)")
    p.add_argument("--seed", type=int, default=704, help="seed of every random sample (default 704)")
    p.add_argument("--queries", type=int, default=3000, help="printed cards asked of the index")
    p.add_argument("--brute", type=int, default=40, help="printed cards asked of the brute-force scan")
    p.add_argument("--requests", type=int, default=3000, help="HTTP requests per route")
    p.add_argument("--warmup", type=int, default=100, help="unmeasured HTTP requests per route")
    p.add_argument("--connections", type=int, default=8, help="concurrent keep-alive client connections")
    p.add_argument("--threads", type=int, default=4, help="waitress worker threads")
    p.add_argument("--max-seconds", type=float, default=10.0, help="time cap per HTTP route")
    p.add_argument("--actions", type=int, default=1000, help="game actions sent through HTTP (and events rebuilt)")
    p.add_argument("--profile", action="store_true", help="after the figures, print cProfile tables")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    args.cards = args.cards.expanduser().resolve()
    if not args.cards.is_file():
        print(f"bench: no card snapshot at {args.cards} (pass --cards)", file=sys.stderr)
        return 2
    say(f"Mental Magic arbiter bench — Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, seed {args.seed}, "
        f"load average {os.getloadavg()[0]:.2f} (other work on the machine skews every figure)")
    rows: list[Row] = []
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mentalmagic-bench-") as tmp:
        ctx = Context(args=args, workdir=Path(tmp))
        for section in SECTIONS:
            say()
            rows += section(ctx)
        total = time.perf_counter() - t_all
        if args.profile:
            profile_report(ctx)

    say()
    say("== Summary")
    w = max(len(f"{r.section}: {r.metric}") for r in rows)
    for r in rows:
        say(f"  {f'{r.section}: {r.metric}':<{w}}  {r.text():>14}")
    say(f"  {'bench wall time':<{w}}  {fmt_num(total) + ' s':>14}")
    say(f"  {'load average (1 min) at the end':<{w}}  {os.getloadavg()[0]:>14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
