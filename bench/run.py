"""Figures a judge or a bot author feels, measured in one run on the full card snapshot: `make bench`.

    .venv/bin/python bench/run.py --cards ../shared/cards/AtomicCards.json.xz

Honest by construction (issue 8):

- in process, the index is timed cold (no remembered answers) and warm, next to a brute-force
  scan that does the same job the same way (format and ban list filtered once, like the index);
- HTTP routes are driven by a real load generator (Debian's ``wrk``) against the production
  server started as ``mentalmagic serve`` starts it (bench/server.py: waitress with a process per
  core and one more, beside gunicorn and one waitress process), routes interleaved in rounds so that the
  machine's noise hits all alike; ratios are taken within a round, then their median reported;
- every rule set (docs/rule-sets.md): in process, each preset's index cold and warm; over HTTP,
  ``/candidates?rules=<preset>`` beside the default's, with its ratio (``candidates_<preset>``);
- process start to first answer (cards stored, and a fresh database), a variant's first question
  right after a restart (its index comes with the start), the CLI look-up, RSS/PSS
  of every server process, and the game paths: the judge's read of a 300-card game (wrk, with the
  routes above); durable actions through HTTP (wrk: one bot, and 8 at once, each on its own game)
  against raw durable SQLite inserts on the same disk (one writer; and as many writers at once,
  written as the server writes), interleaved in rounds; 1,000- and 10,000-event games with every
  action type written by this process and rebuilt from their log, then read by a server that
  didn't write them: first read, read after the writer added two events, and ``/events`` whole,
  ``?since=`` and ``?limit=``.

The actions' figures (wrk, a baseline before and after each run, on files warmed past their
first checkpoint: bench/raw.py) don't compare with runs of this bench before those changes,
which drove the bots with Python clients and timed the baselines on new files (~30 % high ratios).

Rate limits and the access log are switched off in the servers' environment (MENTALMAGIC_RATE_LIMIT=0,
MENTALMAGIC_GAMES_PER_HOUR=0, MENTALMAGIC_ACCESS_LOG=0). The last line sums up the ratios. These are
measurements, not tests.
Random choices use a fixed seed, so two runs ask the same questions.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/run.py` puts bench/, not the project, on the path
    sys.path.insert(0, str(ROOT))

from bench.figures import Run, write_figures  # noqa: E402
from bench.raw import sqlite_inserts, sqlite_inserts_at_once, warm  # noqa: E402
from mentalmagic.carddata import source_from_env  # noqa: E402
from mentalmagic.cards import Card  # noqa: E402
from mentalmagic.index import CandidateFinder, CostIndex  # noqa: E402
from mentalmagic.pool import CardPool  # noqa: E402
from mentalmagic.rulesets import DEFAULT_RULES, RULE_SETS, rule_set  # noqa: E402
from mentalmagic.storage import connect  # noqa: E402
from mentalmagic.storage.carddb import build_cards, load_pool, pool_cache_path, read_finder  # noqa: E402
from mentalmagic.web.serving import default_server, default_workers  # noqa: E402

DEFAULT_CARDS = ROOT.parent / "shared" / "cards" / "AtomicCards.json.xz"
VARIANTS = [key for key in RULE_SETS if key != DEFAULT_RULES]  # the presets beside the default
PRESET_ROUTES = [f"candidates_{key}" for key in VARIANTS]
SERVER = Path(__file__).resolve().with_name("server.py")
MENTALMAGIC = Path(sys.executable).with_name("mentalmagic")
FMT = "vintage"


# -- shared state and small helpers ---------------------------------------------------
@dataclass
class Row:
    section: str
    metric: str
    value: float
    unit: str


@dataclass
class Context:
    args: argparse.Namespace
    workdir: Path
    db_path: Path | None = None
    pool: CardPool | None = None
    finder: CandidateFinder | None = None
    ratios: dict = field(default_factory=dict)  # the last line's figures
    extra: dict = field(default_factory=dict)

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

    def env(self, db_path: Path | None = None) -> dict:
        """The servers' environment: this run's database and cards, rate limits and access log off
        (as `make bench` sets them, so that running bench/run.py directly measures the same)."""
        env = {**os.environ, "MENTALMAGIC_DB": str(db_path or self.db_path),
               "MENTALMAGIC_CARDS": str(self.args.cards), "MENTALMAGIC_RATE_LIMIT": "0",
               "MENTALMAGIC_GAMES_PER_HOUR": "0", "MENTALMAGIC_ACCESS_LOG": "0", "PYTHONUNBUFFERED": "1"}
        # bytecode cached, as an installed package has it: a start times the arbiter, not compiling it
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return env


def say(line: str = "") -> None:
    print(line, flush=True)


def timed(fn: Callable, *a, **kw) -> tuple[object, float]:
    t = time.perf_counter()
    out = fn(*a, **kw)
    return out, time.perf_counter() - t


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[max(0, min(len(s) - 1, round(p / 100 * len(s)) - 1))]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port: int, method: str, path: str, body: dict | None = None, token: str | None = None,
            conn: http.client.HTTPConnection | None = None) -> tuple[int, dict | None]:
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    if own:
        conn.close()
    return resp.status, (json.loads(data) if data else None)


class Server:
    """One server process (bench/server.py or a command), on 127.0.0.1, stopped on leaving."""

    def __init__(self, ctx: Context, server: str = "waitress", workers: int | None = None, *,
                 db_path: Path | None = None, cmd: list[str] | None = None, args: tuple[str, ...] = ()):
        self.port = free_port()
        if cmd:  # a command of its own (`mentalmagic serve`): bench/server.py's options don't apply
            assert not args, "args are bench/server.py's options"
            self.cmd = [*cmd, "--port", str(self.port)]
        else:
            self.cmd = [sys.executable, str(SERVER), "--server", server, "--port", str(self.port), *args]
            if workers:
                self.cmd += ["--workers", str(workers)]
        self.env = ctx.env(db_path)
        self.proc: subprocess.Popen | None = None
        self.log = None
        self.log_path = ctx.workdir / f"server-{self.port}.log"

    def start(self, timeout: float = 120) -> float:
        """Start it; the seconds from the command to its first answer (GET /api/v1/health)."""
        t0 = time.perf_counter()
        # Its log goes to a file, never to a pipe nobody reads: an access log would fill it and stall the server.
        self.log = open(self.log_path, "ab")  # closed by stop()
        self.proc = subprocess.Popen(self.cmd, env=self.env, stdout=subprocess.DEVNULL, stderr=self.log,
                                     start_new_session=True, cwd=ROOT)
        while time.perf_counter() - t0 < timeout:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"GET /api/v1/health HTTP/1.0\r\n\r\n")
                    if s.recv(16)[8:13] == b" 200 ":  # HTTP/1.x 200
                        return time.perf_counter() - t0
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited: {self.log_path.read_text(errors='replace')[-2000:]}") from None
                time.sleep(0.005)
        raise RuntimeError("server did not answer in time")

    def pids(self) -> list[int]:
        """The server's processes: the master first, then its workers."""
        out = [self.proc.pid]
        try:
            kids = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        except OSError:
            kids = []
        return out + [int(k) for k in kids]

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, 9)
                self.proc.wait(5)
        if self.log:
            self.log.close()

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()  # a server that never answered is still running: never leave it behind
            raise
        return self

    def __exit__(self, *exc):
        self.stop()


def cpu_s(pid: int) -> float:
    """The CPU time (user + system) a process has used so far, in seconds; 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def memory_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of one process in MiB; PSS shares each shared page among the processes mapping it."""
    fields = {}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
            name, value, *_ = line.split()
            fields[name.rstrip(":")] = int(value)
    except OSError:
        return float("nan"), float("nan")
    return fields.get("Rss", 0) / 1024, fields.get("Pss", 0) / 1024


# -- 1. cards: import, load, cache --------------------------------------------------------
def section_cards(ctx: Context) -> list[Row]:
    name = "cards"
    say("== 1. Cards: import, load from SQLite, load from the pool cache, index")
    source = source_from_env(str(ctx.args.cards))
    ctx.db_path = ctx.workdir / "mentalmagic.sqlite"
    db = connect(ctx.db_path)
    try:
        n_cards, t_build = timed(build_cards, db, source)
        pool, t_load = timed(load_pool, db)
    finally:
        db.conn.close()
    _, t_index = timed(CostIndex, pool, FMT)
    _, t_first = timed(read_finder, ctx.db_path)  # builds and writes the cache
    reps = [timed(read_finder, ctx.db_path)[1] for _ in range(3)]
    t_variants = statistics.median([timed(read_finder, ctx.db_path, variants=True)[1] for _ in range(3)])
    ctx.finder = read_finder(ctx.db_path)
    ctx.pool = ctx.finder.pool
    t_cached = statistics.median(reps)
    size = pool_cache_path(ctx.db_path).stat().st_size / 1e6
    say(f"  build_cards            {t_build:6.2f} s   {n_cards:,} cards, {len(pool.nameables):,} nameable entries")
    say(f"  load_pool (SQLite)     {t_load:6.2f} s   + CostIndex({FMT}) {t_index:.2f} s: a start without the cache")
    say(f"  read_finder (cache)    {t_cached:6.2f} s   pool + {FMT} index unpickled ({size:.0f} MB file; "
        f"first read, which builds every rule set's index and writes it: {t_first:.2f} s)")
    say(f"  the same, a server's   {t_variants:6.2f} s   with the {FMT} index of every other rule set "
        f"({', '.join(VARIANTS)})")
    return [Row(name, "build_cards", t_build, "s"), Row(name, "load_pool + index (no cache)", t_load + t_index, "s"),
            Row(name, "read_finder from the cache", t_cached, "s"),
            Row(name, "read_finder from the cache, every rule set's index (a server)", t_variants, "s")]


# -- 2. candidates in process: index cold and warm, against a fair brute-force scan ---------
class Brute:
    """The same job as the index without one: the format and ban list filtered once, then a scan."""

    def __init__(self, pool: CardPool, fmt: str):
        self.allowed = [n for n in pool.nameables if pool.refusal(n.card, fmt) is None]

    def candidates(self, printed: Card) -> list:
        concrete = {c for pc in printed.printed_costs for c in pc.instantiations()}
        excluded, seen, out = printed.face_names, set(), []
        for n in self.allowed:
            if n.key in excluded or n.key in seen or concrete.isdisjoint(n.cost.instantiations()):
                continue
            seen.add(n.key)
            out.append(n)
        return out


def section_index(ctx: Context) -> list[Row]:
    name = "index"
    a = ctx.args
    say(f"== 2. Candidates in process ({FMT}): index cold (no remembered answers) and warm, fair brute force")
    finder, pool = ctx.finder, ctx.pool
    sample = ctx.printed_sample("candidates", a.queries)
    idx = finder.index(FMT)
    brute, t_brute_build = timed(Brute, pool, FMT)

    cold = []
    for card in sample:
        idx._answers.clear()  # nothing remembered: every query unions the filings afresh
        cold.append(timed(finder.candidates, printed=card, fmt=FMT)[1])
    warm = [timed(finder.candidates, printed=card, fmt=FMT)[1] for card in sample]
    bsample = sample[: a.brute]
    blat, mismatches = [], 0
    for card in bsample:
        got, t = timed(brute.candidates, card)
        blat.append(t)
        mismatches += [n.key for n in got] != [n.key for n in finder.candidates(printed=card, fmt=FMT).candidates]
    med = {k: statistics.median(v) * 1e6 for k, v in (("cold", cold), ("warm", warm), ("brute", blat))}
    same_cold = statistics.median(cold[: len(bsample)]) * 1e6
    say(f"  index cold   median {med['cold']:8,.0f} us   p99 {percentile(cold, 99) * 1e6:8,.0f} us   n={len(cold)}")
    say(f"  index warm   median {med['warm']:8,.0f} us   p99 {percentile(warm, 99) * 1e6:8,.0f} us")
    say(f"  brute force  median {med['brute']:8,.0f} us   p99 {percentile(blat, 99) * 1e6:8,.0f} us   n={len(blat)} "
        f"(filter built once in {t_brute_build * 1e3:.0f} ms; answers differ on {mismatches})")
    say(f"  brute / cold index on the same cards: x{statistics.median(blat) * 1e6 / same_cold:,.1f}")
    return [Row(name, "index cold median", med["cold"], "us"), Row(name, "index warm median", med["warm"], "us"),
            Row(name, "brute force median", med["brute"], "us")]


# -- 2b. the same within a commander's colour identity (903.5c, #10) --------------------------
IDENTITIES = {"Krenko, Mob Boss": "R", "Mayael the Anima": "WRG", "Thrasios + Tymna": "WUBG", "colourless": ""}


def section_identity(ctx: Context) -> list[Row]:
    """Section 2's sample within four identities: the filter must not cost the index its speed."""
    name = "identity"
    finder = ctx.finder
    sample = ctx.printed_sample("candidates", ctx.args.queries)
    idx = finder.index(FMT)
    say(f"== 2b. Candidates in process ({FMT}) within a commander's colour identity, same cards as 2")
    rows = []
    for label, letters in {"no identity": None, **IDENTITIES}.items():
        identity = None if letters is None else frozenset(letters)
        cold = []
        for card in sample:
            idx._answers.clear()  # nothing remembered, not even the cost's list without identity
            cold.append(timed(finder.candidates, printed=card, fmt=FMT, identity=identity)[1])
        warm = [timed(finder.candidates, printed=card, fmt=FMT, identity=identity)[1] for card in sample]
        med_cold, med_warm = statistics.median(cold) * 1e6, statistics.median(warm) * 1e6
        shown = label if letters is None else f"{label} ({letters or '-'})"
        say(f"  {shown:<26} cold median {med_cold:7,.0f} us"
            f"   warm median {med_warm:7,.0f} us   warm p99 {percentile(warm, 99) * 1e6:7,.0f} us")
        rows.append(Row(name, f"{label} warm median", med_warm, "us"))
    return rows


# -- 2c. the same under each rule set (docs/rule-sets.md, #25) ----------------------------------
def section_rulesets(ctx: Context) -> list[Row]:
    """Section 2's sample under every preset: a variant's index is built like the default's and must
    answer at its speed (the ratio to magic-ville on the same cards)."""
    name = "rulesets"
    finder = ctx.finder
    sample = ctx.printed_sample("candidates", ctx.args.queries)
    say(f"== 2c. Candidates in process ({FMT}) under each rule set, same cards as 2")
    rows, base = [], None
    for key in RULE_SETS:
        rules = rule_set(key)
        idx, t_build = timed(finder.index, FMT, rules=rules)
        cold = []
        for card in sample:
            idx._answers.clear()
            cold.append(timed(finder.candidates, printed=card, fmt=FMT, rules=rules)[1])
        warm = [timed(finder.candidates, printed=card, fmt=FMT, rules=rules)[1] for card in sample]
        med_cold, med_warm = statistics.median(cold) * 1e6, statistics.median(warm) * 1e6
        base = base or (med_cold, med_warm)
        say(f"  {key:<12} index {t_build:5.2f} s   cold median {med_cold:7,.0f} us (x{med_cold / base[0]:.2f})"
            f"   warm median {med_warm:7,.0f} us (x{med_warm / base[1]:.2f})   warm p99 "
            f"{percentile(warm, 99) * 1e6:7,.0f} us")
        rows += [Row(name, f"{key} cold median", med_cold, "us"), Row(name, f"{key} warm median", med_warm, "us")]
    return rows


# -- 3. HTTP with wrk, routes interleaved in rounds ------------------------------------------
def wrk_script(path: Path, paths: list[str], token: str | None = None) -> Path:
    lines = ["local paths = {", *[f'  "{p}",' for p in paths], "}"]
    lines.append(f'local headers = {{["Authorization"] = "Bearer {token}"}}' if token else "local headers = {}")
    lines += ["local i = 0", "request = function()", "  i = i + 1",
              '  return wrk.format("GET", paths[(i % #paths) + 1], headers)', "end"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_wrk(ctx: Context, port: int, script: Path, seconds: float | None = None, connections: int | None = None,
            threads: int = 1) -> dict:
    """wrk on ``script``: requests/s, refusals (non-2xx), socket errors, and the median and p99 latency (s)."""
    a = ctx.args
    seconds = max(1, round(seconds or a.seconds))  # wrk takes whole seconds
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections or a.connections}", f"-d{seconds}s", "--latency",
                          "--timeout", "10s", "-s", str(script), f"http://127.0.0.1:{port}"],
                         capture_output=True, text=True, timeout=seconds + 60, check=True).stdout
    res = {"rps": 0.0, "non2xx": 0, "errors": "", "p50": float("nan"), "p99": float("nan")}
    units = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}
    for line in out.splitlines():
        s = line.strip()
        if s.startswith("Requests/sec:"):
            res["rps"] = float(s.split()[1])
        elif s.startswith("Non-2xx"):
            res["non2xx"] = int(s.split()[-1])
        elif s.startswith("Socket errors"):
            res["errors"] = s
        elif s.startswith(("50% ", "99% ")):  # the --latency distribution: "99%    3.21ms"
            value = s.split()[1]
            number = value.rstrip("usm")
            res[f"p{s[:2]}"] = float(number) * units[value[len(number):]]
    return res


def make_game(port: int, library: list[str], draws: int = 0, players: int = 2) -> dict:
    """A game of ``library``; each player draws ``draws`` cards, so the judge's read shows them."""
    status, game = request(port, "POST", "/api/v1/games",
                           {"players": [{"name": n} for n in ("Ana", "Bob", "Cid")[:players]], "library": library})
    if status != 201:
        raise RuntimeError(f"game refused: {game}")
    for p in game["players"]:
        if draws:
            status, body = request(port, "POST", f"/api/v1/games/{game['id']}/actions",
                                   {"type": "draw", "count": draws}, p["token"])
            if status != 200:
                raise RuntimeError(f"draw refused: {body}")
    return game


def make_commander_game(port: int, library: list[str]) -> dict:
    """A commander game (#10): Ana's Krenko (mono-red), Bob's two partners; /candidates for p1 in it."""
    status, game = request(port, "POST", "/api/v1/games", {
        "format": "commander", "library": library,
        "players": [{"name": "Ana", "commander": "Krenko, Mob Boss"},
                    {"name": "Bob", "commander": ["Thrasios, Triton Hero", "Tymna the Weaver"]}]})
    if status != 201:
        raise RuntimeError(f"commander game refused: {game}")
    return game


def section_http(ctx: Context) -> list[Row]:
    name = "http"
    a = ctx.args
    say(f"== 3. HTTP with wrk ({a.connections} connections, {a.seconds:g} s a route, {a.rounds} interleaved rounds)")
    scripts = ctx.workdir / "wrk"
    scripts.mkdir(exist_ok=True)
    cards = ctx.printed_sample("http", 2000)
    rng = ctx.rng("autocomplete")
    prefixes = [c.name[: rng.randint(2, 5)] for c in ctx.printed_sample("autocomplete", 2000)]
    routes = {
        "health": ["/api/v1/health"],
        "trivial": ["/bench/trivial"],
        "candidates": [f"/api/v1/candidates?printed={quote(c.name, safe='')}" for c in cards],
        "candidates_limit50": [f"/api/v1/candidates?printed={quote(c.name, safe='')}&limit=50" for c in cards],
        # every other preset (docs/rule-sets.md), the same cards: served at the default's speed (#25)
        **{f"candidates_{key}": [f"/api/v1/candidates?printed={quote(c.name, safe='')}&rules={key}" for c in cards]
           for key in VARIANTS},
        "autocomplete": [f"/api/v1/cards?q={quote(p, safe='')}" for p in prefixes],
    }
    library = [c.name for c in ctx.printed_sample("judge", 300)]
    # the default (`make serve`: waitress, a process per core and one more) gives the ratios; gunicorn and one
    # waitress process beside it, on the same routes in the same run
    servers = [("waitress", a.workers), ("gunicorn", a.workers), ("waitress", 1)]
    results: dict[str, dict[str, list[float]]] = {}
    rows = []
    for server, workers in servers:
        label = f"{server} x{workers}"
        with Server(ctx, server, workers) as srv:
            game = make_game(srv.port, library, draws=100)  # 200 of the 300 cards out of the library
            cgame = make_commander_game(srv.port, library)  # a player's identity, read from the game (903.5c)
            jpaths = {**routes, "judge_game": [f"/api/v1/games/{game['id']}"],
                      "candidates_player": [f"/api/v1/candidates?printed={quote(c.name, safe='')}"
                                            f"&game={cgame['id']}&player=p1" for c in cards]}
            files = {r: wrk_script(scripts / f"{r}.lua", p, game["judge_token"] if r == "judge_game" else None)
                     for r, p in jpaths.items()}
            if a.warmup:  # every route once, unmeasured: answers remembered as in service
                for f in files.values():
                    run_wrk(ctx, srv.port, f, 1)
            per = results[label] = {r: [] for r in files}
            bad = {}
            for _ in range(a.rounds):
                for r, f in files.items():
                    res = run_wrk(ctx, srv.port, f)
                    per[r].append(res["rps"])
                    if res["non2xx"] or res["errors"]:
                        bad[r] = (res["non2xx"], res["errors"])
            mem = [memory_mib(p) for p in srv.pids()]
        say(f"  -- {label}" + (f"   NON-2xx/errors: {bad}" if bad else ""))
        for r, v in per.items():
            ratio = statistics.median([x / h for x, h in zip(v, per["health"], strict=True)])
            say(f"  {r:<20} {statistics.median(v):9,.0f} req/s   ratio to /health {ratio:5.2f}   "
                f"(rounds: {', '.join(f'{x:,.0f}' for x in v)})")
            rows.append(Row(name, f"{label} {r}", statistics.median(v), "req/s"))
            if (server, workers) == ("waitress", a.workers) and r in ("candidates", "autocomplete", "judge_game",
                                                                    "candidates_player", *PRESET_ROUTES):
                ctx.ratios[r] = ratio
        roles = ["master", *["worker"] * (len(mem) - 1)] if workers > 1 else ["process"]
        say("  memory  " + "; ".join(f"{role} RSS {rss:,.0f} MiB, PSS {pss:,.0f} MiB"
                                     for role, (rss, pss) in zip(roles, mem, strict=False)))
        for i, (rss, pss) in enumerate(mem):
            rows.append(Row("memory", f"{label} process {i} RSS/PSS", rss, f"MiB (PSS {pss:,.0f})"))
    w = results["waitress x1"]
    for multi in (f"waitress x{a.workers}", f"gunicorn x{a.workers}"):
        g = results[multi]
        say(f"  {multi} / waitress x1: health x{statistics.median(g['health']) / statistics.median(w['health']):.2f}, "
            f"candidates x{statistics.median(g['candidates']) / statistics.median(w['candidates']):.2f}")
    return rows


# -- 4. starting: from the command to the first answer ----------------------------------------
def section_start(ctx: Context) -> list[Row]:
    name = "start"
    a = ctx.args
    say("== 4. From the command to the first answer (`mentalmagic serve`, the default server)")
    serve = [str(MENTALMAGIC), "serve"]
    restart, restart_cpu, idle = [], [], []
    variant_first: dict[str, list[float]] = {key: [] for key in VARIANTS}
    for _ in range(a.starts):
        srv = Server(ctx, cmd=serve)
        try:
            restart.append(srv.start())
            # what the start cost the server's processes, which the machine's load changes least
            restart_cpu.append(sum(cpu_s(pid) for pid in srv.pids()))
            if not idle:  # what each process holds before any request (section 3 measures it after its load)
                time.sleep(0.5)  # the workers have forked and answered nothing yet
                idle = [memory_mib(p) for p in srv.pids()]
            for key in VARIANTS:  # a variant's first question: its index came with the start (#25)
                (status, _), t = timed(request, srv.port, "GET", f"/api/v1/candidates?printed=Shock&rules={key}")
                assert status == 200, status
                variant_first[key].append(t)
        finally:
            srv.stop()
    nocache = []
    for _ in range(a.starts):
        pool_cache_path(ctx.db_path).unlink(missing_ok=True)
        srv = Server(ctx, cmd=serve)
        try:
            nocache.append(srv.start())
        finally:
            srv.stop()
    fresh = []
    for i in range(max(1, a.starts - 1)):
        srv = Server(ctx, cmd=serve, db_path=ctx.workdir / f"fresh{i}" / "mentalmagic.sqlite")
        try:
            fresh.append(srv.start())
        finally:
            srv.stop()
    cli = []
    for _ in range(max(10, a.starts)):  # a tenth of a second each: a median of ten
        t = time.perf_counter()
        subprocess.run([str(MENTALMAGIC), "candidates", "Boros Guildmage"], env=ctx.env(), check=True,
                       capture_output=True)
        cli.append(time.perf_counter() - t)
    game_cmds = cli_game(ctx)
    ctx.ratios["restart_s"] = statistics.median(restart)
    each = ", ".join(f"{x:.2f}" for x in restart)
    say(f"  restart, cards stored    median {statistics.median(restart):5.2f} s   ({each}; best {min(restart):.2f} s, "
        f"goal 1.0 s; CPU of the server's processes {min(restart_cpu):.2f} s)")
    say(f"  restart, no pool cache   median {statistics.median(nocache):5.2f} s   (the cache rebuilt each time)")
    say(f"  first start, fresh DB    median {statistics.median(fresh):5.2f} s   (imports the snapshot)")
    for key, times in variant_first.items():
        say(f"  after a restart, a first ?rules={key:<9} question  median {statistics.median(times) * 1e3:6.1f} ms "
            "(its index came with the start)")
    say(f"  CLI candidates 'Boros Guildmage'  median {statistics.median(cli):5.2f} s   ({len(cli)} runs, cards stored)")
    for label, times in game_cmds.items():
        say(f"  CLI {label:<30} median {statistics.median(times):5.2f} s   ({len(times)} runs; goal 0.4 s, issue 20)")
    roles = ["master", *["worker"] * (len(idle) - 1)] if len(idle) > 1 else ["process"]
    say("  memory at start, before any request: " + "; ".join(
        f"{role} RSS {rss:,.0f} MiB, PSS {pss:,.0f} MiB" for role, (rss, pss) in zip(roles, idle, strict=False)))
    return [Row(name, f"restart, cards stored (best of {len(restart)}; goal 1.0 s)", min(restart), "s"),
            Row(name, "restart, cards stored (median)", statistics.median(restart), "s"),
            Row(name, "restart, CPU of the server's processes to the first answer (best)", min(restart_cpu), "s"),
            Row(name, "restart, no pool cache", statistics.median(nocache), "s"),
            Row(name, "first start, fresh database", statistics.median(fresh), "s"),
            Row(name, "CLI candidates", statistics.median(cli), "s"),
            *(Row(name, f"after a restart, a first ?rules={key} question", statistics.median(times) * 1e3, "ms")
              for key, times in variant_first.items()),
            *(Row(name, f"CLI {label}", statistics.median(times), "s") for label, times in game_cmds.items()),
            *(Row("memory", f"at start, {role} {i} RSS/PSS", rss, f"MiB (PSS {pss:,.0f})")
              for i, (role, (rss, pss)) in enumerate(zip(roles, idle, strict=False)))]


def cli_game(ctx: Context) -> dict[str, list[float]]:
    """The terminal's game commands on the current game (no id typed), each a whole process: a read
    (`game show`), an action and its undo (`game do`), a naming (its candidates read by cost) and its undo."""
    deck = ctx.workdir / "cli-deck.txt"
    deck.write_text("Shock\nLightning Bolt\nSavannah Lions\nGrizzly Bears\n" * 5, encoding="utf-8")

    def run(*words: str) -> None:
        subprocess.run([str(MENTALMAGIC), "game", *words], env=ctx.env(), check=True, capture_output=True)

    run("new", "Ana", "Ben", "--list", str(deck), "--no-shuffle")
    run("do", "ana", "draw", "1")  # Shock (#1), to name
    naming = "game do ana cast 1 as Lava Spike"
    out: dict[str, list[float]] = {"game show": [], "game do ana draw 1": [], "game do undo": [], naming: []}
    for _ in range(max(10, ctx.args.starts)):
        for label in (*out, "game do undo"):  # the naming undone: Shock back in hand, Lava Spike free
            t = time.perf_counter()
            run(*label.split()[1:])
            out[label].append(time.perf_counter() - t)
    return out


# -- 5. games through HTTP ------------------------------------------------------------------------
def play(port: int, game: dict, n: int) -> tuple[float, list[float]]:
    """``n`` durable actions by one bot on one keep-alive connection: a draw, then that card back."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    path, token = f"/api/v1/games/{game['id']}/actions", game["players"][0]["token"]
    lat, drawn = [], None
    t0 = time.perf_counter()
    for i in range(n):
        t = time.perf_counter()
        if i % 2 == 0:
            status, body = request(port, "POST", path, {"type": "draw", "count": 1}, token, conn)
            drawn = body["event"]["data"]["cards"][0] if status == 200 else None
        else:
            status, body = request(port, "POST", path, {"type": "move", "card": drawn, "to": "library",
                                                        "position": "bottom"}, token, conn)
        lat.append(time.perf_counter() - t)
        if status != 200:
            raise RuntimeError(f"action {i} refused: {body}")
    conn.close()
    return n / (time.perf_counter() - t0), lat


ACTIONS_LUA = """\
-- One bot per wrk thread (one connection each), on a game of its own: a draw, then that card
-- back to the bottom of the library, in turn; every action durable before it is answered.
local games = {%s}
local next_game = 1
function setup(thread)
  thread:set("game", games[next_game][1])
  thread:set("token", games[next_game][2])
  next_game = next_game + 1
end
local drawn
function request()
  local path = "/api/v1/games/" .. game .. "/actions"
  local headers = {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}
  if drawn == nil then
    return wrk.format("POST", path, headers, '{"type":"draw","count":1}')
  end
  local body = '{"type":"move","card":"' .. drawn .. '","to":"library","position":"bottom"}'
  drawn = nil
  return wrk.format("POST", path, headers, body)
end
function response(status, headers, body)
  if status == 200 and string.find(body, '"type":"draw"', 1, true) then
    drawn = string.match(body, '"cards":%%["([^"]+)"')  -- the event's card, not the card views
  end
end
"""


INSERT_ROUTE_LUA = """\
-- One client posting what a bot's draw posts to the bench server's route that does only the raw insert.
wrk.method = "POST"
wrk.path = "/bench/insert"
wrk.body = '{"type":"draw","count":1}'
wrk.headers["Content-Type"] = "application/json"
"""


def with_rounds(ratios: list[float]) -> str:
    """A ratio as the bench reports it: the median of its rounds, then each round's."""
    return f"{statistics.median(ratios):.2f} (rounds: {', '.join(f'{x:.2f}' for x in ratios)})"


def actions_script(path: Path, games: list[dict]) -> Path:
    """wrk's script for ``len(games)`` bots, one per game (run it with as many threads as games)."""
    pairs = ", ".join(f'{{"{g["id"]}", "{g["players"][0]["token"]}"}}' for g in games)
    path.write_text(ACTIONS_LUA % pairs, encoding="utf-8")
    return path


class Table:
    """A game played in process with every action type, for the long games: the bench is the
    writing process, a server the reading one. Refused actions are skipped (the bench only needs
    events, of every kind); the judge, who may act for anyone, acts here."""

    SPECIAL = 60  # cards named or turned face up, each kept out of the library: the rest keep cycling

    def __init__(self, store, game_id: str):
        from mentalmagic import services
        from mentalmagic.errors import ArbiterError
        from mentalmagic.permissions import Caller

        self.store, self.id = store, game_id
        self.services, self.refused_error, self.judge = services, ArbiterError, Caller(is_judge=True)
        self.types: dict[str, int] = {}
        self.seq = 0

    def act(self, command) -> dict | None:
        try:
            out = self.services.act(self.store.unit_of_work(), self.id, self.judge, command)
        except self.refused_error:
            return None
        event = out["event"]
        self.types[event["type"]] = self.types.get(event["type"], 0) + 1
        self.seq = event["seq"]
        return event

    def free_name(self, card_id: str) -> str | None:
        """A name the printed card may take and nobody took (704.1, 704.2), if any."""
        game = self.store.load(self.id)
        finder = self.store.finder
        taken = game.state.names.taken_keys()
        printed = finder.pool.lookup(game.state.cards[card_id].printed)
        for n in finder.candidates(printed=printed, fmt=game.setup.format).candidates:
            if n.key not in taken:
                return n.name
        return None

    def play(self, n: int) -> None:
        """At least ``n`` events: draws, moves, names, face-down moves turned face up, reveals and looks
        with their ends, and a player leaving at the end."""
        from mentalmagic import commands as c
        from mentalmagic.views import face_up_options

        i = 0
        while self.seq < n - 1:
            i += 1
            player = ("p1", "p2")[i % 2]
            drew = self.act(c.Draw(player=player, count=1))
            if drew is None:
                break  # nothing left to draw: the library ran out of unnamed cards
            x = drew["data"]["cards"][0]
            special = i // 7 < self.SPECIAL
            if special and i % 7 == 0 and (name := self.free_name(x)):  # named, then put in the graveyard
                if self.act(c.Name(card=x, name=name, player=player)):
                    self.act(c.Move(card=x, to="graveyard", player=player))
                    continue
            if special and i % 7 == 1:  # put onto the battlefield face down, then turned face up under a free name
                if self.act(c.Move(card=x, to="battlefield", face_down=True, via="manifest", player=player)):
                    game = self.store.load(self.id)
                    free = face_up_options(game.state, game.setup, self.store.finder, x).free
                    if free and self.act(c.TurnFaceUp(card=x, name=free[0], player=player)):
                        continue
                    x = None
            top = self.act(c.Reveal(count=1, player=player))
            if top:
                self.act(c.EndReveal(cards=tuple(top["data"]["cards"]), player=player))
            look = self.act(c.Look(count=1, player=player))
            if look:
                self.act(c.EndLook(cards=tuple(look["data"]["cards"]), player=player))
            if x is not None:
                self.act(c.Move(card=x, to="library", position="bottom", player=player))
        self.act(c.LeaveGame(player="p3"))


def actions_against_inserts(ctx: Context, port: int, library: list[str],
                            route_file: Path) -> dict[int, dict[str, list[float]]]:
    """Durable actions through HTTP (wrk: one bot, and ``--connections`` bots at once, each on a game
    of its own) against raw durable inserts on the same disk, measured right before and right after
    each run (their mean is its baseline: the disk is not the same after a run of writes as before),
    in interleaved rounds so that the disk's and the machine's noise hit both alike. Two baselines:
    one writer with synchronous=FULL (issue 8's), and, for bots at once, as many raw writers at once
    written the way the server writes (``sqlite_inserts_at_once``); each on a file whose WAL has
    reached its size, as the server's has (``raw.warm``). Beside one bot, between the same
    baselines and first or second in turn, one client of ``POST /bench/insert`` (the server writes
    ``route_file``), a route that does only the raw insert: what waitress and Flask leave of one raw
    writer's rate. Per number of bots, one entry a round: actions/s, each baseline and its ratio,
    the latencies (and, for one bot, the route's rate and ratio)."""
    a = ctx.args
    scripts = {n: actions_script(ctx.workdir / f"actions-{n}.lua", [make_game(port, library) for _ in range(n)])
               for n in sorted({1, a.connections})}
    route = ctx.workdir / "insert-route.lua"
    route.write_text(INSERT_ROUTE_LUA, encoding="utf-8")
    raw_file, at_once_file = ctx.workdir / "raw.sqlite", ctx.workdir / "raw-at-once.sqlite"
    held = [warm(f) for f in (raw_file, at_once_file, route_file)]  # open until the end: the WALs keep their size
    try:
        if a.warmup:
            run_wrk(ctx, port, route, 1, connections=1)
            for n, script in scripts.items():
                run_wrk(ctx, port, script, 1, connections=n, threads=n)
        out = {n: {k: [] for k in ("rate", "raw", "ratio", "raw_same", "ratio_same", "p50", "p99", "route",
                                   "route_ratio")} for n in scripts}

        def baselines(n: int) -> tuple[float, float]:
            raw = sqlite_inserts(raw_file, a.actions)
            return raw, (sqlite_inserts_at_once(at_once_file, a.actions, n) if n > 1 else raw)

        for r in range(a.rounds):
            for n, script in scripts.items():
                before = baselines(n)
                runs = [("actions", script, n)] + ([("inserts", route, 1)] if n == 1 else [])
                if r % 2:  # the insert-only route beside one bot, second and first in turn
                    runs.reverse()
                res = {what: run_wrk(ctx, port, lua, connections=c, threads=c) for what, lua, c in runs}
                after = baselines(n)
                for what, got in res.items():
                    if got["non2xx"] or got["errors"]:
                        raise RuntimeError(f"{n} bot(s): {got['non2xx']} {what} refused {got['errors']}")
                raw, same = ((x + y) / 2 for x, y in zip(before, after, strict=True))
                bots = res["actions"]
                for k, v in (("rate", bots["rps"]), ("raw", raw), ("ratio", bots["rps"] / raw), ("raw_same", same),
                             ("ratio_same", bots["rps"] / same), ("p50", bots["p50"]), ("p99", bots["p99"])):
                    out[n][k].append(v)
                if "inserts" in res:
                    out[n]["route"].append(res["inserts"]["rps"])
                    out[n]["route_ratio"].append(res["inserts"]["rps"] / raw)
        return out
    finally:
        for conn in held:
            conn.close()


def section_games(ctx: Context) -> list[Row]:
    from mentalmagic.storage.gamedb import GameStore

    name = "games"
    a = ctx.args
    server = default_server()  # what `make serve` runs
    say(f"== 5. Games: durable actions ({server} x{a.workers}) and long games written here, read by another process")
    rows = []
    library = [c.name for c in ctx.printed_sample("games", 300)]
    route_file = ctx.workdir / "insert-route.sqlite"
    with Server(ctx, server, a.workers, args=("--inserts", str(route_file))) as srv:
        med = statistics.median
        for n, m in actions_against_inserts(ctx, srv.port, library, route_file).items():
            who = "one bot" if n == 1 else f"{n} bots at once"
            say(f"  {who:<15} {med(m['rate']):7,.0f} actions/s   latency median {med(m['p50']) * 1e3:.1f} ms, "
                f"p99 {med(m['p99']) * 1e3:.1f} ms")
            say(f"  {'':<15} to one raw writer ({med(m['raw']):,.0f} inserts/s): {with_rounds(m['ratio'])}")
            rows += [Row(name, f"{who}, actions through HTTP", med(m["rate"]), "/s"),
                     Row(name, f"{who}, p99 latency", med(m["p99"]) * 1e3, "ms"),
                     Row(name, f"{who}, actions / raw inserts, one writer (median of rounds)", med(m["ratio"]), "")]
            if n > 1:
                say(f"  {'':<15} to {n} raw writers at once, written as the server writes ({med(m['raw_same']):,.0f} "
                    f"inserts/s): {with_rounds(m['ratio_same'])}")
                rows.append(Row(name, f"{who}, actions / {n} raw writers at once (median of rounds)",
                                med(m["ratio_same"]), ""))
                ctx.ratios[f"actions{n}_vs_sqlite"] = med(m["ratio"])
                ctx.ratios[f"actions{n}_vs_sqlite{n}"] = med(m["ratio_same"])
            else:
                ctx.ratios["actions_vs_sqlite"] = med(m["ratio"])
                ctx.ratios["insert_route_vs_sqlite"] = med(m["route_ratio"])
                kept = [x / y for x, y in zip(m["rate"], m["route"], strict=True)]
                say(f"  {'':<15} a route doing only the raw insert, one client: {med(m['route']):,.0f}/s, "
                    f"{with_rounds(m['route_ratio'])} of the raw writer; one bot's actions are {med(kept):.2f} of it "
                    "(medians of rounds)")
                rows += [Row(name, "a route doing only the raw insert, one client / raw inserts",
                             med(m["route_ratio"]), ""),
                         Row(name, "one bot's actions / that route", med(kept), "")]
        say("  (raw inserts: sqlite3, WAL, a transaction each, same disk, on files past their WAL's first checkpoint; "
            "one writer with synchronous=FULL, or writers at once committing with NORMAL, each then fdatasync "
            "after the lock)")

        # What the judge's read costs when the game just changed: the view built and encoded afresh
        # (section 3's judge_game reads one version again and again, kept and encoded once).
        from mentalmagic import views
        from mentalmagic.permissions import Caller
        from mentalmagic.web.encoding import dumps

        judged_game = make_game(srv.port, library, draws=100)
        judged = GameStore(ctx.db_path, ctx.finder).load(judged_game["id"])
        fresh = [timed(lambda: dumps(views._build_game_view(judged, Caller(is_judge=True), ctx.pool)))[1]
                 for _ in range(200)]
        say(f"  judge's view of a 300-card game built and encoded afresh (in process): median "
            f"{statistics.median(fresh) * 1e6:,.0f} us")
        rows.append(Row(name, "judge view of a 300-card game, built afresh", statistics.median(fresh) * 1e6, "us"))

        # Long games with every action type, written by this process; the servers read them.
        writer = GameStore(ctx.db_path, ctx.finder)
        long_games = {}
        for n in a.events:
            g = make_game(srv.port, library, players=3)
            table = Table(writer, g["id"])
            _, t_play = timed(table.play, n)
            long_games[n] = g
            kinds = ", ".join(f"{k} {v:,}" for k, v in sorted(table.types.items()))
            say(f"  {table.seq:>6,}-event game played in process in {t_play:5.1f} s: {kinds}")
            rebuild = []
            for _ in range(3):  # a process that never read it: the whole log read and folded
                fresh = GameStore(ctx.db_path, ctx.finder)
                rebuild.append(timed(fresh.load, g["id"])[1])
            say(f"  {'':>6}  rebuild (read the log, fold it) median {statistics.median(rebuild) * 1e3:7.1f} ms")
            rows.append(Row(name, f"{n}-event game, rebuild in process", statistics.median(rebuild) * 1e3, "ms"))
        with Server(ctx, "waitress", 1) as reader:  # one process: its first read is the one timed
            # the game routes' code warmed on another game, so the first read below is the log's cost
            request(reader.port, "GET", f"/api/v1/games/{judged_game['id']}/events?limit=1", None,
                    judged_game["judge_token"])
            for n, g in long_games.items():
                path, judge = f"/api/v1/games/{g['id']}", g["judge_token"]
                (_, _), t_first = timed(request, reader.port, "GET", path, None, judge)
                cached = statistics.median([timed(request, reader.port, "GET", path, None, judge)[1]
                                            for _ in range(5)])
                after = []
                for _ in range(5):  # the writing server adds two events; the reader reads next
                    play(srv.port, g, 2)
                    after.append(timed(request, reader.port, "GET", path, None, judge)[1])
                (_, events), t_events = timed(request, reader.port, "GET", f"{path}/events", None, judge)
                last = events["events"][-1]["seq"]
                (_, tail), t_since = timed(request, reader.port, "GET", f"{path}/events?since={last - 2}", None,
                                           judge)
                (_, page), t_page = timed(request, reader.port, "GET", f"{path}/events?since=0&limit=100", None,
                                          judge)
                assert len(tail["events"]) == 2 and len(page["events"]) == 100
                size = len(json.dumps(events))
                say(f"  {n:>6,}-event game read by another process: first read {t_first * 1e3:7.1f} ms, "
                    f"unchanged {cached * 1e3:5.1f} ms, after the writer added 2 events "
                    f"{statistics.median(after) * 1e3:5.1f} ms (each: {', '.join(f'{x * 1e3:.1f}' for x in after)})")
                say(f"  {'':>6}  GET /events whole {t_events * 1e3:6.1f} ms ({size / 1e3:,.0f} kB); "
                    f"?since=<last-2> {t_since * 1e3:5.1f} ms; ?limit=100 {t_page * 1e3:5.1f} ms")
                rows += [Row(name, f"{n}-event game, first read by another process", t_first * 1e3, "ms"),
                         Row(name, f"{n}-event game, read after another process wrote",
                             statistics.median(after) * 1e3, "ms"),
                         Row(name, f"{n}-event game, GET /events whole", t_events * 1e3, "ms"),
                         Row(name, f"{n}-event game, GET /events?since=<last-2>", t_since * 1e3, "ms")]
                if n == max(a.events):
                    ctx.ratios["catch_up_ms"] = statistics.median(after) * 1e3
    return rows


# -- 5b. a game carried to another machine (issue 31): the judge's export imported, every event replayed ---------
MOVED_EVENTS = 300


def section_moves(ctx: Context) -> list[Row]:
    """A game of every action type played in process, exported by the judge, then imported on a server (every
    event decided again by the rules, then stored with new tokens) and checked (?dry_run=1) through HTTP; and the
    replay alone in process."""
    from mentalmagic import replay
    from mentalmagic.storage.gamedb import GameStore

    name = "moves"
    say(f"== 5b. A {MOVED_EVENTS}-event game carried to another machine: export, import (replayed), verify")
    library = [c.name for c in ctx.printed_sample("games", 300)]
    rows = []
    with Server(ctx, "waitress", 1) as srv:
        g = make_game(srv.port, library, players=3)
        table = Table(GameStore(ctx.db_path, ctx.finder), g["id"])
        table.play(MOVED_EVENTS)
        (status, record), t_export = timed(request, srv.port, "GET", f"/api/v1/games/{g['id']}/export", None,
                                           g["judge_token"])
        assert status == 200, record
        size = len(json.dumps(record))
        imports, dry = [], []
        for _ in range(5):
            (status, body), t = timed(request, srv.port, "POST", "/api/v1/games/import", record)
            assert status == 201 and body["events"] == table.seq, body
            imports.append(t)
            (status, body), t = timed(request, srv.port, "POST", "/api/v1/games/import?dry_run=1", record)
            assert status == 200, body
            dry.append(t)
        doc = replay.read(record)
        alone = [timed(replay.replay, doc.setup, doc.events, ctx.finder)[1] for _ in range(5)]
    med = statistics.median
    kinds = ", ".join(f"{k} {v:,}" for k, v in sorted(table.types.items()))
    say(f"  {table.seq}-event game ({kinds}); its export {size / 1e3:,.0f} kB, read in {t_export * 1e3:.1f} ms")
    say(f"  import through HTTP (replayed, stored, new tokens) median {med(imports) * 1e3:.1f} ms "
        f"(each: {', '.join(f'{x * 1e3:.0f}' for x in imports)}); verify (?dry_run=1) {med(dry) * 1e3:.1f} ms; "
        f"the replay alone in process {med(alone) * 1e3:.1f} ms")
    rows += [Row(name, f"{MOVED_EVENTS}-event game, import through HTTP (replayed, stored)", med(imports) * 1e3, "ms"),
             Row(name, f"{MOVED_EVENTS}-event game, verify through HTTP (?dry_run=1)", med(dry) * 1e3, "ms"),
             Row(name, f"{MOVED_EVENTS}-event game, replay alone in process", med(alone) * 1e3, "ms")]
    return rows


# -- 6. the search over candidates (docs/search.md): the API against the plain answer, the page ----------
SEARCHES = ["t:creature o:flying pow>=2", "c:r -t:instant", "(is:permanent mv>=3) or kw:haste", "-t:basic"]


def list_sizes(ctx: Context) -> list[tuple[Card, int]]:
    """A printed card of the snapshot for each printed cost, with its number of candidates in vintage."""
    seen: dict[tuple, tuple[Card, int]] = {}
    for card in ctx.pool.cards:
        key = card.printed_costs
        if key and key not in seen and card.in_library:
            seen[key] = (card, len(ctx.finder.candidates(printed=card, fmt=FMT).names))
    return list(seen.values())


def section_search(ctx: Context) -> list[Row]:
    from bench.pagesearch import measure
    from mentalmagic.search import forget, parse

    name = "search"
    a = ctx.args
    sizes = list_sizes(ctx)
    card, size = max(sizes, key=lambda pair: pair[1])
    thousand, near = min(sizes, key=lambda pair: abs(pair[1] - 1000))  # the page's case: 1,000 rows shown
    say(f"== 6. Search over candidates: {card.name}'s {size:,} candidates in {FMT}, the largest list")
    rows = []
    names = ctx.finder.candidates(printed=card, fmt=FMT).names
    context = ctx.finder.context()
    for q in SEARCHES:  # in process: nothing remembered (the text read, every term asked of every name),
        cold, typed = [], []  # and one term new, the others' answers remembered (a player typing a letter)
        for i in range(20):
            parse.cache_clear()
            forget()
            cold.append(timed(lambda q=q: parse(q).keep(names, context))[1])
            parse(f"{q} -\"zy{i}\"").keep(names, context)  # the list's names joined once, as a page's first key
            typed.append(timed(lambda q=q, i=i: parse(f"{q} -\"zz{i}\"").keep(names, context))[1])
        kept = len(parse(q).keep(names, context))
        say(f"  in process  {q!r:<36} {statistics.median(cold) * 1e3:6.2f} ms nothing remembered, "
            f"{statistics.median(typed) * 1e3:5.2f} ms with one new term; {kept:,} kept")
        rows.append(Row(name, f"in process {q}, nothing remembered", statistics.median(cold) * 1e3, "ms"))
        rows.append(Row(name, f"in process {q}, one new term", statistics.median(typed) * 1e3, "ms"))
    scripts = ctx.workdir / "wrk"
    scripts.mkdir(exist_ok=True)
    plain = f"/api/v1/candidates?printed={quote(card.name, safe='')}"  # a bot's defaults: every candidate
    # the same four searches again and again (answers remembered, as a page or a bot repeats itself), and
    # 20,000 different ones (past every cache: each read and tested anew, as a player typing)
    cold = [f"{q} -\"zz{i}\"" for i in range(5000) for q in SEARCHES]
    files = {"plain": wrk_script(scripts / "search_plain.lua", [plain]),
             "query": wrk_script(scripts / "search_query.lua", [f"{plain}&q={quote(q, safe='')}" for q in SEARCHES]),
             "query_cold": wrk_script(scripts / "search_cold.lua", [f"{plain}&q={quote(q, safe='')}" for q in cold])}
    with Server(ctx, "waitress", a.workers) as srv:
        if a.warmup:
            for f in files.values():
                run_wrk(ctx, srv.port, f, 1)
        per = {r: [] for r in files}
        for _ in range(a.rounds):  # interleaved: the machine's noise hits both alike
            for r, f in files.items():
                per[r].append(run_wrk(ctx, srv.port, f)["rps"])
        for r, v in per.items():
            say(f"  http {r:<10} {statistics.median(v):9,.0f} req/s   (rounds: {', '.join(f'{x:,.0f}' for x in v)})")
            rows.append(Row(name, f"http {r}", statistics.median(v), "req/s"))
        for r, key in (("query", "search_vs_plain"), ("query_cold", "search_cold_vs_plain")):
            ratios = [p / q for p, q in zip(per["plain"], per[r], strict=True)]  # a query's time / a plain answer's
            say(f"  {r}: its time / the plain answer's: {with_rounds(ratios)} (target: within 2)")
            ctx.ratios[key] = statistics.median(ratios)
        say(f"  page: {thousand.name}'s {near:,} candidates, every row shown")
        rows += _page_search(ctx, srv.port, thousand, measure)
    return rows


def _xom_game(port: int, series: dict | None, names: list[str]) -> dict:
    """A Xom game (of ``series`` when given) where Ana casts a Shock as each of ``names``."""
    body = {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock"] * 40, "rules": "xom",
            "shuffle": False}
    if series is not None:
        body = {**body, "series": series["id"]}
        body.pop("rules")
    status, game = request(port, "POST", "/api/v1/games", body, series["token"] if series else None)
    if status != 201:
        raise RuntimeError(f"game refused: {game}")
    ana = game["players"][0]["token"]
    for name in names:
        request(port, "POST", f"/api/v1/games/{game['id']}/actions", {"type": "draw", "count": 1}, ana)
        _, seen = request(port, "GET", f"/api/v1/games/{game['id']}", token=game["judge_token"])
        card = [c["id"] for c in seen["cards"] if c["zone"] == "hand"][-1]
        status, body = request(port, "POST", f"/api/v1/games/{game['id']}/actions",
                               {"type": "move", "card": card, "to": "stack", "name": name}, ana)
        if status != 200:
            raise RuntimeError(f"cast refused: {body}")
    return game


def section_series(ctx: Context) -> list[Row]:
    """Look-ups in the third game of a Xom series, whose two earlier games took two names (Xom 6),
    against the same look-ups in a plain Xom game that took the same two names itself: the
    series' names are read from its games on every question (issue 32), and must cost within 10 %."""
    name = "series"
    a = ctx.args
    say("== 7. Look-ups in a game of a Xom series against a plain Xom game (the same two names taken)")
    taken = ["Lightning Bolt", "Chain Lightning"]
    scripts = ctx.workdir / "wrk"
    scripts.mkdir(exist_ok=True)
    rows = []
    with Server(ctx, "waitress", a.workers) as srv:
        status, series = request(srv.port, "POST", "/api/v1/series", {"rules": "xom"})
        if status != 201:
            raise RuntimeError(f"series refused: {series}")
        _xom_game(srv.port, series, taken[:1])
        _xom_game(srv.port, series, taken[1:])
        games = {"plain": _xom_game(srv.port, None, taken), "series": _xom_game(srv.port, series, [])}
        asks = {kind: [f"/api/v1/candidates?printed=Shock&game={g['id']}",
                       f"/api/v1/check?printed=Shock&name=Lightning%20Bolt&game={g['id']}"]
                for kind, g in games.items()}
        for kind in games:  # the same answers but for the reason's words
            _, listed = request(srv.port, "GET", asks[kind][0])
            assert {c["name"] for c in listed["candidates"] if c["taken"]} == set(taken), (kind, listed)
        files = {kind: wrk_script(scripts / f"series_{kind}.lua", paths) for kind, paths in asks.items()}
        if a.warmup:
            for f in files.values():
                run_wrk(ctx, srv.port, f, 1)
        warm: dict[str, list[float]] = {k: [] for k in files}
        cold: dict[str, list[float]] = {k: [] for k in files}
        for _ in range(a.rounds):  # interleaved: the machine's noise hits both alike
            for kind, f in files.items():
                warm[kind].append(run_wrk(ctx, srv.port, f)["rps"])
            for kind, g in games.items():  # cold: each question after a draw, a new version of the game
                times = []
                for _ in range(20):
                    request(srv.port, "POST", f"/api/v1/games/{g['id']}/actions", {"type": "draw", "count": 1},
                            g["players"][1]["token"])
                    times.append(timed(request, srv.port, "GET", asks[kind][0])[1])
                cold[kind].append(statistics.median(times))
        for kind in files:
            say(f"  {kind:<7} warm {statistics.median(warm[kind]):9,.0f} req/s, cold (after a draw) "
                f"{statistics.median(cold[kind]) * 1e3:6.2f} ms a /candidates")
            rows.append(Row(name, f"http {kind} game, warm", statistics.median(warm[kind]), "req/s"))
            rows.append(Row(name, f"http {kind} game, cold /candidates", statistics.median(cold[kind]) * 1e3, "ms"))
        warm_ratio = [p / s for p, s in zip(warm["plain"], warm["series"], strict=True)]
        cold_ratio = [s / p for p, s in zip(cold["plain"], cold["series"], strict=True)]
        say(f"  a series game's look-up time / a plain game's: warm {with_rounds(warm_ratio)}, "
            f"cold {with_rounds(cold_ratio)} (target: within 1.1)")
        ctx.ratios["series_vs_plain_warm"] = statistics.median(warm_ratio)
        ctx.ratios["series_vs_plain_cold"] = statistics.median(cold_ratio)
    return rows


def _page_search(ctx: Context, port: int, card: Card, measure) -> list[Row]:
    """The page's search box over every row of the largest list, in Debian's Chromium (bench/pagesearch.py)."""
    chromium = shutil.which("chromium")
    if not chromium:
        say("  page: no chromium (apt-get install chromium): not measured")
        return []
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            got = measure(page, f"http://127.0.0.1:{port}", card.name, SEARCHES, rounds=ctx.args.rounds)
        finally:
            browser.close()
    rows = []
    for q, m in got.items():
        say(f"  page {q!r:<36} {m['before']:,} -> {m['after']:,} rows: input to answer {m['input']:5.1f} ms, "
            f"answer to rows placed {m['rows']:5.1f} ms, to the next frame {m['frame']:5.1f} ms")
        rows.append(Row("search", f"page {q} ({m['before']} -> {m['after']} rows) answer to rows placed",
                        m["rows"], "ms"))
        rows.append(Row("search", f"page {q} answer to the next frame", m["frame"], "ms"))
    return rows


SECTIONS: list[Callable[[Context], list[Row]]] = [section_cards, section_index, section_identity, section_rulesets,
                                                    section_http, section_start, section_games, section_moves,
                                                    section_search, section_series]
SECTION_NAMES = [f.__name__.removeprefix("section_") for f in SECTIONS]


# -- driver ---------------------------------------------------------------------------------
def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cards", type=Path, default=DEFAULT_CARDS, help="AtomicCards snapshot (.json/.gz/.xz)")
    p.add_argument("--seed", type=int, default=704, help="seed of every random sample (default 704)")
    p.add_argument("--queries", type=int, default=2000, help="printed cards asked of the index")
    p.add_argument("--brute", type=int, default=200, help="printed cards asked of the brute-force scan")
    p.add_argument("--connections", type=int, default=8, help="wrk's keep-alive connections")
    p.add_argument("--seconds", type=int, default=2, help="wrk's time per route and round")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds over every route")
    p.add_argument("--no-warmup", dest="warmup", action="store_false", help="skip the unmeasured first pass")
    p.add_argument("--workers", type=int, default=default_workers(),
                   help="server processes (default: as `make serve`, one per core and one more)")
    p.add_argument("--starts", type=int, default=3, help="server starts timed per case")
    p.add_argument("--actions", type=int, default=2000, help="raw inserts timed before and after each run of bots")
    p.add_argument("--events", type=lambda s: [int(x) for x in s.split(",")], default=[1000, 10000],
                   help="lengths of the long games read by another process (default 1000,10000)")
    p.add_argument("--no-docs", dest="write_docs", action="store_false",
                   help="don't write the figures into docs/performance.md (\"The figures\")")
    p.add_argument("--only", type=lambda s: s.split(","), default=None, metavar="SECTION[,SECTION]",
                   help=f"run these sections only ({', '.join(SECTION_NAMES)}); cards always runs: the others read "
                        "what it builds")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.only and set(args.only) - set(SECTION_NAMES):
        print(f"bench: no section {sorted(set(args.only) - set(SECTION_NAMES))} (pass --only with "
              f"{', '.join(SECTION_NAMES)})", file=sys.stderr)
        return 2
    args.cards = args.cards.expanduser().resolve()
    if not args.cards.is_file():
        print(f"bench: no card snapshot at {args.cards} (pass --cards)", file=sys.stderr)
        return 2
    if not shutil.which("wrk"):
        print("bench: needs wrk (apt-get install wrk; `make bench` installs it)", file=sys.stderr)
        return 2
    say(f"Mental Magic arbiter bench — Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, seed {args.seed}, "
        f"load average {os.getloadavg()[0]:.2f} (other work on the machine skews every figure)")
    rows: list[Row] = []
    t_all, load_before = time.perf_counter(), os.getloadavg()[0]
    (ROOT / "instance").mkdir(exist_ok=True)  # the disk the arbiter's own database is on
    with tempfile.TemporaryDirectory(prefix="bench-", dir=ROOT / "instance") as tmp:
        ctx = Context(args=args, workdir=Path(tmp))
        for section in SECTIONS:
            wanted = section.__name__.removeprefix("section_") in (args.only or SECTION_NAMES)
            if section is not section_cards and not wanted:
                continue
            say()
            rows += section(ctx)
    say()
    say("== Summary")
    w = max(len(f"{r.section}: {r.metric}") for r in rows)
    for r in rows:
        say(f"  {f'{r.section}: {r.metric}':<{w}}  {r.value:>12,.2f} {r.unit}")
    say(f"  bench wall time {time.perf_counter() - t_all:.0f} s, load average at the end {os.getloadavg()[0]:.2f}")
    if args.write_docs:
        run = Run(date=time.strftime("%Y-%m-%d", time.gmtime()), cpus=os.cpu_count() or 0,
                  python=sys.version.split()[0], load=f"{load_before:.1f}→{os.getloadavg()[0]:.1f}")
        write_figures(ROOT / "docs" / "performance.md", [(r.section, r.metric, r.value, r.unit) for r in rows], run)
        say("  the figures are in docs/performance.md (\"The figures\")")
    r, c = ctx.ratios, args.connections
    say("ratios: " + " ".join(f"{k}={r[k]:.2f}" if k in r else f"{k}=n/a"
                              for k in ("candidates", "candidates_player", *PRESET_ROUTES, "autocomplete", "judge_game",
                                        "actions_vs_sqlite", "insert_route_vs_sqlite", f"actions{c}_vs_sqlite",
                                        f"actions{c}_vs_sqlite{c}",
                                        "restart_s", "catch_up_ms", "search_vs_plain", "search_cold_vs_plain")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
