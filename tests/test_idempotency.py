"""``Idempotency-Key`` (issue 23) on the real server: a retry with the same key gets the first
answer and writes nothing more, a retry after a broken connection included; the key is the
caller's and the body's own; the kept answer never holds a token in clear."""

from __future__ import annotations

import json
import socket
import sqlite3
import time

import pytest
from served import Served, call, tiny_env

pytestmark = pytest.mark.processes

GAME = {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Savannah Lions"] * 40}
DRAW = {"type": "draw", "count": 1}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("idempotency")
    served = Served(tiny_env(tmp), "--workers", "2", log=tmp / "server.log")
    served.db = tmp / "arbiter.sqlite"
    yield served
    served.stop()


def key(name: str) -> dict:
    return {"Idempotency-Key": f"{name}-{time.monotonic_ns()}"}


def draws(server, game) -> int:
    status, events, _ = call(server.port, "GET", f"/games/{game['id']}/events",
                             headers={"Authorization": f"Bearer {game['judge_token']}"})
    assert status == 200
    return sum(e["type"] == "draw" for e in events["events"])


def new_game(server) -> dict:
    status, game, _ = call(server.port, "POST", "/games", GAME)
    assert status == 201
    return game


def test_a_game_created_twice_with_one_key_is_one_game_and_the_same_answer(server):
    k = key("game")
    first = call(server.port, "POST", "/games", GAME, k)
    again = call(server.port, "POST", "/games", GAME, k)
    assert first[0] == again[0] == 201
    assert again[1] == first[1] and again[2].get("Idempotent-Replayed") == "true"
    assert "Idempotent-Replayed" not in first[2]
    with sqlite3.connect(server.db) as conn:
        assert conn.execute("select count(*) from games where id = ?", [first[1]["id"]]).fetchone()[0] == 1
        sealed = b"".join(bytes(r[0]) for r in conn.execute("select answer from idempotency"))
    assert first[1]["judge_token"].encode() not in sealed  # the kept answer holds no token in clear
    assert call(server.port, "POST", "/games", GAME, key("game"))[1]["id"] != first[1]["id"]  # a new key: a new game


def test_an_action_retried_with_its_key_acts_once(server):
    game = new_game(server)
    ana = {"Authorization": f"Bearer {game['players'][0]['token']}"}
    k = {**ana, **key("draw")}
    first = call(server.port, "POST", f"/games/{game['id']}/actions", DRAW, k)
    again = call(server.port, "POST", f"/games/{game['id']}/actions", DRAW, k)
    assert first[0] == again[0] == 200 and again[1] == first[1]
    assert draws(server, game) == 1
    # the same key from another caller is that caller's own request
    bob = {"Authorization": f"Bearer {game['players'][1]['token']}", "Idempotency-Key": k["Idempotency-Key"]}
    assert call(server.port, "POST", f"/games/{game['id']}/actions", DRAW, bob)[0] == 200
    assert draws(server, game) == 2


def test_a_key_reused_for_another_body_is_422_and_a_bad_key_400(server):
    game = new_game(server)
    ana = {"Authorization": f"Bearer {game['players'][0]['token']}", **key("reuse")}
    assert call(server.port, "POST", f"/games/{game['id']}/actions", DRAW, ana)[0] == 200
    status, body, _ = call(server.port, "POST", f"/games/{game['id']}/actions", {"type": "draw", "count": 2}, ana)
    assert status == 422 and body["error"]["code"] == "idempotency_key_reused"
    status, body, _ = call(server.port, "POST", "/games", GAME, {"Idempotency-Key": "x" * 256})
    assert status == 400 and body["error"]["code"] == "bad_idempotency_key"
    assert draws(server, game) == 1


def test_a_deck_saved_twice_with_one_key_is_one_deck(server):
    k = key("deck")
    deck = {"name": "Lions", "list": "4 Savannah Lions\nLlanowar Elves"}  # a problem: a message, worded
    first = call(server.port, "POST", "/decks", deck, k)
    again = call(server.port, "POST", "/decks", deck, k)
    assert first[0] == again[0] == 201 and again[1] == first[1]
    assert isinstance(again[1]["problems"][0]["message"], str)
    listed = call(server.port, "GET", "/decks")[1]["decks"]
    assert [d["id"] for d in listed].count(first[1]["id"]) == 1 and sum(d["name"] == "Lions" for d in listed) == 1


def test_a_retry_after_a_broken_connection_gets_the_first_answer_and_acts_once(server):
    """The bot sends its action and the connection breaks before the answer: it can't know whether
    the action counted. It retries with the same key: one draw in the log, and the answer says which."""
    game = new_game(server)
    k = key("broken")
    body = json.dumps(DRAW).encode()
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    raw.sendall(f"POST /api/v1/games/{game['id']}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {game['players'][0]['token']}\r\nIdempotency-Key: {k['Idempotency-Key']}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
    raw.close()  # broken: no answer read
    status, answer, _ = call(server.port, "POST", f"/games/{game['id']}/actions", DRAW,
                             {"Authorization": f"Bearer {game['players'][0]['token']}", **k})
    assert status == 200 and answer["event"]["type"] == "draw"
    deadline = time.monotonic() + 10  # the first try may still be running: it adds nothing
    while time.monotonic() < deadline and draws(server, game) < 1:
        time.sleep(0.05)
    time.sleep(0.5)
    assert draws(server, game) == 1
    assert call(server.port, "POST", f"/games/{game['id']}/actions", DRAW,
                {"Authorization": f"Bearer {game['players'][0]['token']}", **k})[1] == answer
