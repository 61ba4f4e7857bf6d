"""A SIGKILL of the real server (``mentalmagic serve``: its master and worker processes, on loopback) in the middle of a
load of several bots, then a restart on the same database (issue 9).

What "nothing lost" means here:
- every acknowledged action (a 200 answer) is in the log after the restart, at its seq, as answered;
- no name is held twice (704.2), in the names table and in the state replayed from the log;
- every state the judge read before the kill (GET /games/{id}, the last one just before it) equals
  the state replayed from the recovered log up to that read's ``seq``; and the restarted server
  answers exactly the replay of the whole recovered log (the state after the last durable event,
  which is at least the last acknowledged one: an action may land and die before its answer).
Bounded: the kill comes after a fixed number of acknowledged actions, each bot stops at its first
failed connection, and the whole test runs under a time limit.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest
from served import free_port
from support import fresh_games_db, time_limit

from mentalmagic.game import GameSetup, replay
from mentalmagic.names import fold
from mentalmagic.permissions import JUDGE as JUDGE_CALLER
from mentalmagic.views import game_view

pytestmark = pytest.mark.processes

API = "/api/v1"
BOTS = 4
KILL_AFTER = 40  # acknowledged actions before the SIGKILL
PER_BOT = 60  # no bot sends more than this: the load is bounded even if the kill never came
# Cards whose costs they share with many others, so the bots' names collide (704.2).
PRINTED = ["Shock", "Savannah Lions", "Grizzly Bears", "Giant Growth", "Llanowar Elves", "Lightning Bolt"]


class Server:
    """``mentalmagic serve`` on a free loopback port, over one database file: its master and its
    two worker processes, in a process group of their own."""

    def __init__(self, db, cards):
        self.port = free_port()
        self.root = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "MENTALMAGIC_DB": str(db), "MENTALMAGIC_CARDS": str(cards),
               "MENTALMAGIC_ACCESS_LOG": "0", "MENTALMAGIC_RATE_LIMIT": "0", "MENTALMAGIC_GAMES_PER_HOUR": "0"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mentalmagic.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", "2"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True)
        self._wait_until_serving()

    def _wait_until_serving(self) -> None:
        while True:  # bounded by the test's time limit
            if self.proc.poll() is not None:
                raise AssertionError(f"the server stopped: {self.proc.stdout.read()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                threading.Event().wait(0.1)

    def kill(self) -> None:
        """SIGKILL to every serving process at once (the master and the workers), as a crash would."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.proc.stdout.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # the master stops its workers
            self.proc.wait(timeout=30)
        if not self.proc.stdout.closed:
            self.proc.stdout.close()


def call(root: str, method: str, path: str, token: str | None = None, body=None, timeout: float = 30):
    """(status, JSON body); raises OSError (URLError, reset, refused, an answer cut short) when the server
    is gone."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"{root}{API}{path}", data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read() or b"null")
        except http.client.HTTPException as cut:  # a refusal's body cut short by the kill
            raise ConnectionError(f"the answer was cut short: {cut!r}") from cut
    except http.client.HTTPException as e:  # killed while answering: no answer, so not acknowledged
        raise ConnectionError(f"the answer was cut short: {e!r}") from e


class Bot(threading.Thread):
    """One player: draws, then casts or plays what it drew under a name other bots want too."""

    def __init__(self, root, game_id, pid, token, names, acked, acked_lock, stop, seed):
        super().__init__(name=f"bot-{pid}", daemon=True)
        self.root, self.game_id, self.pid, self.token = root, game_id, pid, token
        self.names, self.acked, self.acked_lock, self.stop = names, acked, acked_lock, stop
        self.rng = random.Random(seed)
        self.hand: dict[str, str] = {}  # card id -> printed name (its owner sees it)
        self.statuses: list[int] = []

    def action(self) -> dict:
        if not self.hand or self.rng.random() < 0.35:
            return {"type": "draw", "count": 1}
        card = self.rng.choice(sorted(self.hand))
        return {"type": "move", "card": card, "to": self.rng.choice(["stack", "battlefield"]),
                "name": self.rng.choice(self.names[self.hand[card]])}

    def run(self) -> None:
        for _ in range(PER_BOT):
            if self.stop.is_set():
                return
            action = self.action()
            try:
                status, body = call(self.root, "POST", f"/games/{self.game_id}/actions", self.token, action)
            except OSError:
                return  # the server is gone: this action is unacknowledged (it may or may not have landed)
            self.statuses.append(status)
            assert status in (200, 409), (action, status, body)  # never a 5xx, even under load
            if status != 200:
                continue
            with self.acked_lock:
                self.acked.append(body["event"])
            for c in body["cards"]:
                if c["zone"] == "hand" and c["owner"] == self.pid:
                    self.hand[c["id"]] = c["printed"]
                else:
                    self.hand.pop(c["id"], None)


class Judge(threading.Thread):
    """Reads the whole game as the judge again and again while the bots play."""

    def __init__(self, root, game_id, token, stop):
        super().__init__(name="judge", daemon=True)
        self.root, self.game_id, self.token, self.stop = root, game_id, token, stop
        self.reads: list[dict] = []

    def run(self) -> None:
        while not self.stop.is_set() and len(self.reads) < PER_BOT * BOTS:
            try:
                status, body = call(self.root, "GET", f"/games/{self.game_id}", self.token)
            except OSError:
                return
            assert status == 200, body
            self.reads.append(body)


@pytest.fixture
def names_for(finder):
    """A few legal names for each printed card, the same for every bot (so they collide)."""
    out = {}
    for printed in PRINTED:
        found = finder.candidates(printed=finder.pool.lookup(printed)).candidates
        out[printed] = [n.name for n in found[:4]]
    return out


def test_a_sigkill_under_load_loses_no_acknowledged_action_and_no_name_is_held_twice(
        tmp_path, card_db_path, snapshot_path, pool, names_for):
    db = fresh_games_db(card_db_path, tmp_path / "games.sqlite")
    acked, acked_lock, stop = [], threading.Lock(), threading.Event()
    with time_limit(150):
        server = Server(db, snapshot_path)
        try:
            library = [PRINTED[i % len(PRINTED)] for i in range(120)]
            status, game = call(server.root, "POST", "/games", body={
                "players": [{"name": f"Bot {i}"} for i in range(1, BOTS + 1)], "library": library})
            assert status == 201, game
            tokens = {p["id"]: p["token"] for p in game["players"]}
            bots = [Bot(server.root, game["id"], pid, tok, names_for, acked, acked_lock, stop, seed=i)
                    for i, (pid, tok) in enumerate(sorted(tokens.items()))]
            judge = Judge(server.root, game["id"], game["judge_token"], stop)
            for t in (*bots, judge):
                t.start()
            while True:  # the kill comes in the middle of the load: after KILL_AFTER acknowledged actions
                with acked_lock:
                    if len(acked) >= KILL_AFTER:
                        break
                assert any(b.is_alive() for b in bots), "the bots stopped before the kill"
                threading.Event().wait(0.01)
            server.kill()
            stop.set()
            for t in (*bots, judge):
                t.join(timeout=60)
                assert not t.is_alive()
        finally:
            server.stop()
        assert all(s in (200, 409) for b in bots for s in b.statuses)
        assert sum(b.statuses.count(409) for b in bots) > 0  # the bots did compete for names
        assert len(judge.reads) > 0

        restarted = Server(db, snapshot_path)
        try:
            judge_token = game["judge_token"]
            status, body = call(restarted.root, "GET", f"/games/{game['id']}/events", judge_token)
            assert status == 200
            log = body["events"]
            status, after = call(restarted.root, "GET", f"/games/{game['id']}", judge_token)
            assert status == 200
            status, names = call(restarted.root, "GET", f"/games/{game['id']}/names", judge_token)
            assert status == 200
        finally:
            restarted.stop()

    # every acknowledged action is in the log, at its seq, as it was answered (the bot's view of it)
    by_seq = {e["seq"]: e for e in log}
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert len(acked) >= KILL_AFTER and len({e["seq"] for e in acked}) == len(acked)
    for event in acked:
        logged = by_seq.get(event["seq"])
        assert logged is not None, f"acknowledged event {event['seq']} lost"
        assert {**logged, "data": {k: v for k, v in logged["data"].items() if k != "printed"}} == event

    # no name is held twice: in the table the restarted server keeps, and in its answer
    keys = [fold(n["name"]) for n in names["names"] if n["exception"] is None]
    assert len(keys) == len(set(keys)) and len(keys) > 0
    with sqlite3.connect(db) as conn:
        twice = conn.execute("select name_key from names where exception is null group by game_id, name_key "
                             "having count(*) > 1").fetchall()
        setup = GameSetup.from_dict(json.loads(conn.execute("select setup from games where id = ?",
                                                            [game["id"]]).fetchone()[0]))
    assert twice == []

    # the states: each judge read before the kill is the replay of the recovered log up to its seq,
    # and the restarted server answers the replay of the whole log
    from mentalmagic.game import Event, Game

    events = [Event.from_dict(e) for e in log]

    def replayed(seq: int) -> dict:
        state = replay(setup, events[:seq])
        return game_view(Game(game["id"], setup, state, ""), JUDGE_CALLER, pool)

    for read in judge.reads:
        assert read == replayed(read["seq"]), f"the read at seq {read['seq']} differs from the replayed log"
    assert judge.reads[-1]["seq"] <= len(log)
    assert after == replayed(len(log)) and after["seq"] >= max(e["seq"] for e in acked)
    names_replayed = replay(setup, events).names.snapshot()
    assert len(names["names"]) == len(replay(setup, events).names.records()) and names_replayed
