"""Past one machine, tried on one: two arbiter instances (MENTALMAGIC_SHARD s1, s2; a SQLite file
each) behind nginx with docs/shards.nginx.conf, on loopback. `make shards` (needs Debian's nginx).

    .venv/bin/python bench/shards.py --cards ../shared/cards/AtomicCards.json.xz

Creates games through nginx, checks that they spread over both instances and that every request
about a game (its read, its actions, /candidates?game=) reaches the instance holding it, then
runs bots through nginx for a few seconds. On one 2-core machine the two instances share the CPU
and the disk: this shows the routing, not the scaling (docs/deployment.md, "Past one machine").
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.capacity import bot, new_game, say  # noqa: E402
from bench.run import DEFAULT_CARDS, MENTALMAGIC, Context, Server, free_port, request  # noqa: E402
from mentalmagic.storage.carddb import read_pool  # noqa: E402

CONF = ROOT / "docs" / "shards.nginx.conf"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cards", type=Path, default=DEFAULT_CARDS)
    p.add_argument("--games", type=int, default=24)
    p.add_argument("--seconds", type=int, default=5)
    args = p.parse_args(argv)
    if not shutil.which("nginx"):
        say("needs nginx: sudo apt-get install nginx-light")
        return 1
    work = Path(tempfile.mkdtemp(prefix="mm-shards-"))
    ctx = Context(SimpleNamespace(cards=args.cards), work)
    servers, nginx = [], None
    try:
        for name in ("s1", "s2"):
            srv = Server(ctx, cmd=[str(MENTALMAGIC), "serve", "--host", "127.0.0.1", "--workers", "1"],
                         db_path=work / f"{name}.sqlite")
            srv.env.update(MENTALMAGIC_SHARD=name, MENTALMAGIC_PROXIES="1", MENTALMAGIC_ACCESS_LOG="0")
            srv.start()
            servers.append(srv)
        front = free_port()
        conf = CONF.read_text(encoding="utf-8")
        conf = conf.replace("127.0.0.1:8080", f"127.0.0.1:{front}")
        conf = conf.replace("127.0.0.1:5001", f"127.0.0.1:{servers[0].port}")
        conf = conf.replace("127.0.0.1:5002", f"127.0.0.1:{servers[1].port}")
        (work / "logs").mkdir()
        (work / "nginx.conf").write_text(conf, encoding="utf-8")
        nginx = subprocess.Popen(["nginx", "-p", str(work), "-c", str(work / "nginx.conf"), "-g", "daemon off;"],
                                 stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                if request(front, "GET", "/api/v1/health")[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)
        pool = read_pool(work / "s1.sqlite")
        rng = random.Random(704)
        drawable = [c for c in pool.cards if c.in_library and c.printed_costs]
        library = [rng.choice(drawable).name for _ in range(300)]
        games = [new_game(front, library) for _ in range(args.games)]
        shards = {g["id"].split(".")[0] for g in games}
        per = {s: sum(g["id"].startswith(s + ".") for g in games) for s in sorted(shards)}
        say(f"{len(games)} games created through nginx: {per}")
        for g in games:
            judge = g["judge_token"]
            assert request(front, "GET", f"/api/v1/games/{g['id']}", token=judge)[0] == 200
            status, body = request(front, "POST", f"/api/v1/games/{g['id']}/actions", {"type": "draw", "count": 1},
                                   g["players"][0]["token"])
            assert status == 200, body
            q = f"/api/v1/check?printed={quote(library[0], safe='')}&name=Shock&game={quote(g['id'], safe='')}"
            assert request(front, "GET", q)[0] == 200
        say("every game's read, action and /check?game= answered 200 through nginx (each from its own shard)")
        on = {name: [g for g in games if g["id"].startswith(name + ".")] for name in ("s1", "s2")}
        for label, chosen in (("1 shard (s1)", on["s1"][:4]), ("2 shards", on["s1"][4:6] + on["s2"][:2])):
            until = time.perf_counter() + args.seconds
            lats: list[list[float]] = []
            threads = [threading.Thread(target=bot, args=(front, g, until, lats)) for g in chosen]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            say(f"actions  {sum(map(len, lats)) / args.seconds:5.0f} /s through nginx, 4 bots, their games on {label}")
        assert re.fullmatch(r"s[12]", next(iter(shards))) and len(shards) == 2
    finally:
        if nginx:
            nginx.terminate()
            nginx.wait(10)
        for srv in servers:
            srv.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
