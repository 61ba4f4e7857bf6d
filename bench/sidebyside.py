"""Two versions of the arbiter side by side, in CPU time: what a request, a start and a look-up cost.

    .venv/bin/python bench/sidebyside.py --tree old=/work/wt/old9f --tree new=. [--rounds 4]

Each tree runs with its own ``.venv`` (``make setup`` in it) and its own database (imported here
from the embedded snapshot on first use, under ``--workdir``). A round runs, for each tree in turn
(the order alternates from round to round, so that the machine's load hits both alike):

- a **request** child: the app built as ``mentalmagic serve`` builds it (``load_frozen(create_app)``),
  driven in process through WSGI (no HTTP, no server): per route, the CPU time per request
  (``time.process_time``) **cold** (every question asked for the first time in the process: nothing
  remembered) and **warm** (the same few questions asked again and again);
- **starts**, each a whole process measured by its children's user + system time: the app built
  on a stored database (a restart), the app built on a fresh database (a first start, importing
  the cards), and ``mentalmagic candidates "Boros Guildmage"`` (the CLI look-up).

CPU time, not wall time: the machine is shared, and CPU time is what the load changes least. Routes
a tree doesn't have (``?rules=`` before rule sets) are left out of its rows. These are
measurements, not tests: figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

COMMANDER_GAME = {
    "format": "commander",
    "players": [{"name": "Ana", "commander": "Krenko, Mob Boss"},
                {"name": "Bob", "commander": ["Thrasios, Triton Hero", "Tymna the Weaver"]}],
}


# -- the child: one tree's app, in process ---------------------------------------------------------
class _FileWrapper:
    """What waitress hands a large body through (``wsgi.file_wrapper``): read once as it is sent."""

    def __init__(self, fh, block_size=8192):
        self.fh = fh

    def __iter__(self):
        yield self.fh.read()

    def close(self):
        self.fh.close()


def _environ(path: str, method: str = "GET", body: bytes = b"", headers: dict | None = None) -> dict:
    target, _, query = path.partition("?")
    env = {
        "REQUEST_METHOD": method, "SCRIPT_NAME": "", "PATH_INFO": target, "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "5000", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:5000", "wsgi.url_scheme": "http",
        "wsgi.version": (1, 0), "wsgi.errors": sys.stderr, "wsgi.multithread": True,
        "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.file_wrapper": _FileWrapper,
        "CONTENT_LENGTH": str(len(body)) if body else "",
    }
    if body:
        env["CONTENT_TYPE"] = "application/json"
    for k, v in (headers or {}).items():
        env["HTTP_" + k.upper().replace("-", "_")] = v
    env["wsgi.input"] = io.BytesIO(body)
    return env


def _call(app, path: str, method: str = "GET", body: bytes = b"", headers: dict | None = None) -> tuple[int, bytes]:
    status = []

    def start_response(s, h, exc_info=None):
        status.append(int(s[:3]))

    out = app(_environ(path, method, body, headers), start_response)
    try:
        data = b"".join(out)
    finally:
        if hasattr(out, "close"):
            out.close()
    return status[0], data


def _cpu_per_request(app, paths: list[str], n: int) -> float:
    """CPU µs per request over ``n`` requests cycling through ``paths``."""
    envs = [_environ(p) for p in paths]
    sink = []

    def start_response(s, h, exc_info=None):
        sink.append(s)

    t = time.process_time()
    for i in range(n):
        env = dict(envs[i % len(envs)])
        env["wsgi.input"] = io.BytesIO()
        out = app(env, start_response)
        for _ in out:
            pass
        if hasattr(out, "close"):
            out.close()
    cpu = time.process_time() - t
    sink.clear()
    return cpu / n * 1e6


def child(args) -> int:
    from mentalmagic.runtime import load_frozen
    from mentalmagic.web import create_app

    t0 = time.process_time()
    app = load_frozen(create_app)
    t_app = time.process_time() - t0
    pool = app.extensions["mentalmagic"].pool
    drawable = sorted(c.name for c in pool.cards if c.in_library and c.printed_costs)
    rng = random.Random(args.seed)
    warm_cards = rng.sample(drawable, args.warm_cards)
    cold_cards = rng.sample(sorted(set(drawable) - set(warm_cards)), args.cold_cards)
    library = rng.sample(drawable, 60)
    status, body = _call(app, "/api/v1/games", "POST", json.dumps({**COMMANDER_GAME, "library": library}).encode())
    assert status == 201, body[:300]
    game = json.loads(body)["id"]

    def routes(cards: list[str]) -> dict[str, list[str]]:
        cand = [f"/api/v1/candidates?printed={quote(c, safe='')}" for c in cards]
        return {
            "health": ["/api/v1/health"],
            "candidates": cand,
            "candidates_player": [f"{p}&game={game}&player=p1" for p in cand],
            "check": [f"/api/v1/check?printed={quote(c, safe='')}&name=Shock" for c in cards],
            # the routes one tree may lack come last, so what both trees ask runs after the same work
            "candidates_fr": [f"{p}&lang=fr" for p in cand],
            **{f"candidates_{r}": [f"{p}&rules={r}" for p in cand] for r in ("magic-ville", "xom", "magering")},
        }

    warm_routes = routes(warm_cards)
    have = {}
    for r, paths in warm_routes.items():  # a route this tree lacks answers 4xx: left out
        have[r] = _call(app, paths[0])[0] == 200
    out: dict[str, dict] = {"app_cpu_s": t_app, "cold": {}, "warm": {}, "first_variant_s": {}}
    cold_routes = routes(cold_cards)
    for r, paths in cold_routes.items():
        if not have[r] or r == "health":
            continue
        out["cold"][r] = _cpu_per_request(app, paths, len(paths))
    for r, paths in warm_routes.items():
        if have[r]:
            _cpu_per_request(app, paths, len(paths) * 2)
    for _ in range(args.blocks):  # routes interleaved in blocks; the median block per route
        for r, paths in warm_routes.items():
            if have[r]:
                out["warm"].setdefault(r, []).append(_cpu_per_request(app, paths, args.requests))
    out["warm"] = {r: statistics.median(v) for r, v in out["warm"].items()}
    print(json.dumps(out))
    return 0


def first_variant(args) -> int:
    """A fresh app's first variant question: CPU seconds of that one request (an index built or not)."""
    from mentalmagic.runtime import load_frozen
    from mentalmagic.web import create_app

    app = load_frozen(create_app)
    _call(app, "/api/v1/candidates?printed=Shock")
    out = {}
    for r in ("xom", "magering"):
        t = time.process_time()
        status, _ = _call(app, f"/api/v1/candidates?printed=Shock&rules={r}")
        out[r] = time.process_time() - t if status == 200 else None
    print(json.dumps(out))
    return 0


def just_start(args) -> int:
    """The app built as `mentalmagic serve` builds it, up to where it can answer (a first start's
    pool cache is then written aside by a tree that does so: POOL_CACHE_LATER, ignored by older ones)."""
    from mentalmagic.runtime import load_frozen
    from mentalmagic.web import create_app

    load_frozen(create_app, {"POOL_CACHE_LATER": True})
    return 0


# -- the driver ------------------------------------------------------------------------------------
def run_child(python: Path, tree: Path, env: dict, *argv: str) -> tuple[float, str]:
    """Run this script's child mode under ``python`` in ``tree``; (its user + system CPU s, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([str(python), str(Path(__file__).resolve()), *argv], cwd=tree, env=env,
                          capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise RuntimeError(f"{tree}: {' '.join(argv)} failed:\n{proc.stderr[-3000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc.stdout


def run_cmd(cmd: list[str], tree: Path, env: dict) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", action="append", default=[], metavar="LABEL=PATH", help="a checkout with its .venv")
    p.add_argument("--workdir", type=Path, default=Path("/tmp/mentalmagic-sidebyside"))
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--seed", type=int, default=704)
    p.add_argument("--warm-cards", type=int, default=8)
    p.add_argument("--cold-cards", type=int, default=200)
    p.add_argument("--requests", type=int, default=2000, help="requests per warm block")
    p.add_argument("--blocks", type=int, default=3)
    p.add_argument("--only", default="requests,starts,variants", help="requests, starts, variants")
    p.add_argument("--child", choices=["requests", "start", "variant"], help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return {"requests": child, "start": just_start, "variant": first_variant}[args.child](args)
    trees = {}
    for t in args.tree:
        label, _, path = t.partition("=")
        trees[label] = Path(path).resolve()
    only = set(args.only.split(","))
    base_env = {**os.environ, "MENTALMAGIC_RATE_LIMIT": "0", "MENTALMAGIC_GAMES_PER_HOUR": "0",
                "MENTALMAGIC_ACCESS_LOG": "0", "PYTHONHASHSEED": "0"}
    base_env.pop("MENTALMAGIC_CARDS", None)
    # bytecode cached, as an installed package has it (pip compiles it): a start measures the
    # arbiter's work, not compiling every module afresh
    base_env.pop("PYTHONDONTWRITEBYTECODE", None)
    dbs = {}
    for label, tree in trees.items():
        db = args.workdir / label / "mentalmagic.sqlite"
        db.parent.mkdir(parents=True, exist_ok=True)
        dbs[label] = db
        if not db.exists():
            print(f"{label}: importing the cards into {db}", flush=True)
            run_child(tree / ".venv/bin/python", tree, {**base_env, "MENTALMAGIC_DB": str(db)}, "--child", "start")
    results: dict[str, dict[str, list]] = {label: {} for label in trees}

    def add(label, key, value):
        results[label].setdefault(key, []).append(value)

    child_args = ["--seed", str(args.seed), "--warm-cards", str(args.warm_cards), "--cold-cards",
                  str(args.cold_cards), "--requests", str(args.requests), "--blocks", str(args.blocks)]
    labels = list(trees)
    print(f"load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    for r in range(args.rounds):
        order = labels if r % 2 == 0 else labels[::-1]
        for label in order:
            tree, py = trees[label], trees[label] / ".venv/bin/python"
            env = {**base_env, "MENTALMAGIC_DB": str(dbs[label])}
            if "requests" in only:
                _, out = run_child(py, tree, env, "--child", "requests", *child_args)
                got = json.loads(out)
                for kind in ("cold", "warm"):
                    for route, us in got[kind].items():
                        add(label, f"{kind} {route}", us)
            if "starts" in only:
                add(label, "restart (app built, cards stored) s", run_child(py, tree, env, "--child", "start")[0])
                fresh = args.workdir / label / "fresh" / "mentalmagic.sqlite"
                shutil.rmtree(fresh.parent, ignore_errors=True)
                fresh.parent.mkdir(parents=True)
                add(label, "first start (fresh database) s",
                    run_child(py, tree, {**env, "MENTALMAGIC_DB": str(fresh)}, "--child", "start")[0])
                shutil.rmtree(fresh.parent, ignore_errors=True)
                add(label, "CLI candidates 'Boros Guildmage' s",
                    run_cmd([str(tree / ".venv/bin/mentalmagic"), "candidates", "Boros Guildmage"], tree, env))
            if "variants" in only:
                _, out = run_child(py, tree, env, "--child", "variant")
                for k, v in json.loads(out).items():
                    if v is not None:
                        add(label, f"first ?rules={k} request after start s", v)
        print(f"round {r + 1} done, load average {os.getloadavg()[0]:.2f}", flush=True)
    keys = list(dict.fromkeys(k for label in labels for k in results[label]))
    w = max(map(len, keys))
    print(f"\n{'':<{w}}  " + "  ".join(f"{label:>22}" for label in labels) + "   ratio")
    for k in keys:
        cells, meds = [], []
        for label in labels:
            v = results[label].get(k)
            if v:
                meds.append(statistics.median(v))
                unit = "s" if k.endswith(" s") else "us"
                fmt = (lambda x: f"{x:.3f}") if unit == "s" else (lambda x: f"{x:,.0f}")
                cells.append(f"{fmt(meds[-1])} ({fmt(min(v))}-{fmt(max(v))})")
            else:
                meds.append(None)
                cells.append("-")
        ratio = f"{meds[-1] / meds[0]:.3f}" if None not in meds and len(meds) > 1 and meds[0] else ""
        print(f"{k:<{w}}  " + "  ".join(f"{c:>22}" for c in cells) + f"   {ratio}")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
