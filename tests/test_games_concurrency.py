"""704.2 under load: many bots take one name at the same instant, over real HTTP (waitress on the
loopback) and from two processes sharing the SQLite file. Exactly one card gets the name; every
other request is refused 409 name_taken (704.2); the log and GET /names hold one naming.

Bounded: at most 16 threads and 2 processes, every wait has a timeout, loopback only.
"""

from __future__ import annotations

import json
import multiprocessing
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from support import fresh_games_db, served

from mentalmagic.runtime import Runtime
from mentalmagic.web import create_app

JUDGE = "judge"
THREADS = 16
TIMEOUT = 60  # seconds, for any one request or wait


@pytest.fixture(scope="module")
def db_path(tmp_path_factory, card_db_path):
    return fresh_games_db(card_db_path, tmp_path_factory.mktemp("games_concurrency") / "games.sqlite")


@pytest.fixture(scope="module")
def base_url(db_path, pool, finder):
    """The real app served by waitress on 127.0.0.1 (a free port, 8 threads) in a background thread."""
    app = create_app({"DATABASE": str(db_path), "RUNTIME": Runtime(db_path=db_path, pool=pool, finder=finder)})
    with served(app, threads=8, timeout=TIMEOUT) as root:
        yield f"{root}/api/v1"


def call(method: str, url: str, token: str | None = None, body=None) -> tuple[int, dict]:
    """One HTTP request on its own connection; returns the status and the JSON body."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status, raw, ctype = response.status, response.read(), response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        status, raw, ctype = e.code, e.read(), e.headers.get("Content-Type", "")
        e.close()
    assert status != 500, raw[:500]
    assert ctype.startswith("application/json"), (status, ctype, raw[:200])
    return status, json.loads(raw)


class RemoteGame:
    def __init__(self, base: str, library: list[str], players: int):
        status, created = call("POST", f"{base}/games", body={
            "players": [{"name": f"Bot {i}"} for i in range(1, players + 1)], "library": library, "shuffle": False})
        assert status == 201, created
        self.base, self.id = base, created["id"]
        self.tokens = {JUDGE: created["judge_token"], **{p["id"]: p["token"] for p in created["players"]}}
        self.pids = [p["id"] for p in created["players"]]

    def url(self, path: str = "") -> str:
        return f"{self.base}/games/{self.id}{path}"

    def act(self, who: str, **action) -> tuple[int, dict]:
        return call("POST", self.url("/actions"), self.tokens[who], action)

    def do(self, who: str, **action) -> dict:
        status, body = self.act(who, **action)
        assert status == 200, (action, body)
        return body

    def get(self, path: str, who: str = JUDGE) -> dict:
        status, body = call("GET", self.url(path), self.tokens[who])
        assert status == 200, body
        return body

    def draw(self, who: str, count: int = 1) -> list[str]:
        return self.do(who, type="draw", player=who, count=count)["event"]["data"]["cards"]


def at_the_same_instant(jobs) -> list:
    """Run every job in its own thread, released together by a barrier; results in job order."""
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)

    def run(i, job):
        barrier.wait(timeout=TIMEOUT)
        try:
            results[i] = job()
        except BaseException as e:  # reported below, in the test's thread
            results[i] = e

    threads = [threading.Thread(target=run, args=(i, job), name=f"bot-{i}") for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=2 * TIMEOUT)
    assert not any(t.is_alive() for t in threads), "a request never finished"
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return results


def assert_one_winner(game: RemoteGame, results: list, cards: list[str], name: str) -> str:
    """Exactly one 200; every other answer 409 name_taken 704.2; one holder, one naming in the log."""
    statuses = Counter(status for status, _ in results)
    assert statuses == {200: 1, 409: len(results) - 1}, statuses
    for status, body in results:
        if status == 409:
            assert (body["error"]["code"], body["error"]["rule"]) == ("name_taken", "704.2"), body
    [winner] = [body for status, body in results if status == 200]
    card = winner["event"]["data"]["card"]
    assert card in cards
    holders = [n for n in game.get("/names")["names"] if n["name"] == name]
    assert [(n["card"], n["exception"]) for n in holders] == [(card, None)]
    namings = [e for e in game.get("/events")["events"] if e["data"].get("naming")]
    assert [(e["data"]["card"], e["data"]["naming"]["name"]) for e in namings] == [(card, name)]
    view = game.get("")
    named = [c["id"] for c in view["cards"] if c["named_as"] == name]
    assert named == [card]
    return card


# == over HTTP =====================================================================================
def test_sixteen_players_naming_their_card_lightning_bolt_at_once_give_it_to_exactly_one(base_url):
    game = RemoteGame(base_url, ["Shock"] * THREADS, players=THREADS)
    cards = {pid: game.draw(pid)[0] for pid in game.pids}
    started = time.monotonic()
    results = at_the_same_instant([
        (lambda pid=pid: game.act(pid, type="name", card=cards[pid], name="Lightning Bolt")) for pid in game.pids])
    assert time.monotonic() - started < 2 * TIMEOUT
    card = assert_one_winner(game, results, list(cards.values()), "Lightning Bolt")
    owner = next(pid for pid, c in cards.items() if c == card)
    assert game.get("/names")["names"][0]["player"] == owner


def test_one_player_naming_sixteen_unnamed_cards_of_their_hand_alike_at_once_names_exactly_one(base_url):
    game = RemoteGame(base_url, ["Shock"] * THREADS, players=2)
    hand = game.draw("p1", THREADS)
    results = at_the_same_instant([
        (lambda cid=cid: game.act("p1", type="name", card=cid, name="Lightning Bolt")) for cid in hand])
    assert_one_winner(game, results, hand, "Lightning Bolt")


def test_casting_sixteen_cards_under_one_name_at_once_moves_exactly_one(base_url):
    # 705.1 in one step: the move and its name land together or not at all.
    game = RemoteGame(base_url, ["Shock"] * THREADS, players=THREADS)
    cards = {pid: game.draw(pid)[0] for pid in game.pids}
    results = at_the_same_instant([
        (lambda pid=pid: game.act(pid, type="move", card=cards[pid], to="stack", name="Lightning Bolt"))
        for pid in game.pids])
    card = assert_one_winner(game, results, list(cards.values()), "Lightning Bolt")
    zones = {c["id"]: c["zone"] for c in game.get("")["cards"]}
    assert [cid for cid, zone in zones.items() if zone == "stack"] == [card]  # the losers stayed in hand
    assert all(zones[cid] == "hand" for cid in cards.values() if cid != card)


def test_sixteen_players_drawing_at_once_each_get_a_different_card_in_one_unbroken_log(base_url):
    game = RemoteGame(base_url, ["Shock"] * THREADS + ["Savannah Lions"] * 4, players=THREADS)
    results = at_the_same_instant([
        (lambda pid=pid: game.act(pid, type="draw", player=pid, count=1)) for pid in game.pids])
    assert all(status == 200 for status, _ in results), results
    drawn = [body["event"]["data"]["cards"][0] for _, body in results]
    assert len(set(drawn)) == THREADS
    events = game.get("/events")["events"]
    assert [e["seq"] for e in events] == list(range(1, THREADS + 1))
    assert sorted(e["data"]["cards"][0] for e in events) == sorted(drawn)
    view = game.get("")
    assert view["library_size"] == 4 and view["seq"] == THREADS
    owners = {c["id"]: c["owner"] for c in view["cards"] if c["zone"] == "hand"}
    assert owners == {body["event"]["data"]["cards"][0]: pid for pid, (_, body) in zip(game.pids, results,
                                                                                            strict=True)}


# == two processes, two GameStores, one file ==========================================================
def race_in_another_process(db_path: str, game_id: str, token: str, card: str, name: str, barrier, results):
    """Run in a spawned process: its own card pool, its own GameStore on the shared file."""
    try:
        from mentalmagic import services
        from mentalmagic.commands import Name
        from mentalmagic.errors import ArbiterError
        from mentalmagic.index import CandidateFinder
        from mentalmagic.storage.carddb import read_pool
        from mentalmagic.storage.gamedb import GameStore

        store = GameStore(Path(db_path), CandidateFinder(read_pool(db_path)))
        caller = services.authenticate(store.unit_of_work(), game_id, f"Bearer {token}")
        store.load(game_id)  # a running service has the game in its cache
        barrier.wait(timeout=120)
        try:
            acted = services.act(store.unit_of_work(), game_id, caller, Name(card=card, name=name))
            results.put(("named", card, acted["event"]["seq"]))
        except ArbiterError as e:
            results.put(("refused", card, e.code, e.rule))
    except BaseException as e:  # reported to the test
        results.put(("error", card, repr(e)))


@pytest.mark.processes
def test_two_processes_racing_for_one_name_on_one_file_give_it_to_exactly_one(base_url, db_path):
    game = RemoteGame(base_url, ["Shock", "Shock"], players=2)
    first, second = game.draw("p1")[0], game.draw("p2")[0]
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=race_in_another_process,
                         args=(str(db_path), game.id, game.tokens[pid], card, "Lightning Bolt", barrier, results))
             for pid, card in (("p1", first), ("p2", second))]
    for p in procs:
        p.start()
    try:
        outcomes = [results.get(timeout=180) for _ in procs]
    finally:
        for p in procs:
            p.join(timeout=TIMEOUT)
            if p.is_alive():
                p.terminate()
                p.join(timeout=10)
    assert all(p.exitcode == 0 for p in procs), [p.exitcode for p in procs]
    assert not [o for o in outcomes if o[0] == "error"], outcomes
    kinds = Counter(o[0] for o in outcomes)
    assert kinds == {"named": 1, "refused": 1}, outcomes
    [refused] = [o for o in outcomes if o[0] == "refused"]
    assert refused[2:] == ("name_taken", "704.2")
    [named] = [o for o in outcomes if o[0] == "named"]
    # the service that didn't take part sees exactly one holder and one naming
    holders = game.get("/names")["names"]
    assert [(n["name"], n["card"]) for n in holders] == [("Lightning Bolt", named[1])]
    events = game.get("/events")["events"]
    assert [e["seq"] for e in events] == [1, 2, 3] and events[-1]["data"]["card"] == named[1]


def undo_then_draw_in_another_process(db_path: str, game_id: str, judge: str, player: str, results):
    """Run in a spawned process: undo the last event, then draw a card, through its own GameStore."""
    try:
        from mentalmagic import services
        from mentalmagic.commands import Draw
        from mentalmagic.index import CandidateFinder
        from mentalmagic.storage.carddb import read_pool
        from mentalmagic.storage.gamedb import GameStore

        store = GameStore(Path(db_path), CandidateFinder(read_pool(db_path)))
        judge_caller = services.authenticate(store.unit_of_work(), game_id, f"Bearer {judge}")
        undone = services.undo(store.unit_of_work(), game_id, judge_caller)
        drawn = services.act(store.unit_of_work(), game_id, judge_caller, Draw(player=player, count=1))
        results.put(("done", undone["undone"]["data"]["cards"], drawn["event"]["data"]["cards"]))
    except BaseException as e:  # reported to the test
        results.put(("error", repr(e)))


@pytest.mark.processes
def test_an_undo_and_a_new_event_by_another_process_show_in_the_next_read_as_a_fresh_replay(base_url, db_path,
                                                                                           pool, finder):
    from mentalmagic import views
    from mentalmagic.permissions import Caller
    from mentalmagic.storage.gamedb import GameStore

    game = RemoteGame(base_url, ["Shock", "Lightning Bolt", "Grizzly Bears", "Forest"], players=2)
    first = game.draw("p1")
    taken_back = game.draw("p1")
    before = game.get("")  # the server has the game in its cache, at seq 2
    assert before["seq"] == 2
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    proc = ctx.Process(target=undo_then_draw_in_another_process,
                       args=(str(db_path), game.id, game.tokens[JUDGE], "p2", results))
    proc.start()
    try:
        outcome = results.get(timeout=180)
    finally:
        proc.join(timeout=TIMEOUT)
        if proc.is_alive():
            proc.terminate()
            proc.join(timeout=10)
    assert outcome[0] == "done", outcome
    assert outcome[1] == taken_back
    after = game.get("")  # seq is 2 again, another event: only the version says the cache is stale
    assert after["seq"] == 2
    fresh = GameStore(db_path, finder).load(game.id)  # a process that never saw the game
    assert after == json.loads(json.dumps(views.game_view(fresh, Caller(is_judge=True), pool)))
    # the card taken back went back on top, so Bob drew it: a stale cache would still give it to Ana
    assert outcome[2] == taken_back
    hand = {c["id"]: c["owner"] for c in after["cards"] if c["zone"] == "hand"}
    assert hand == {first[0]: "p1", taken_back[0]: "p2"}
    assert [e["seq"] for e in game.get("/events")["events"]] == [1, 2]
