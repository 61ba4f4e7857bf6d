"""Limits that keep the arbiter serving (issue 9): per-client rate limits answered 429 with
Retry-After in the error envelope, the hourly cap on created games, and connections that a
slow or half-open client can't exhaust (real waitress on loopback, bounded in time)."""

from __future__ import annotations

import socket
import sqlite3
import urllib.request
from pathlib import Path

import pytest
from support import fresh_games_db, served, time_limit

from mentalmagic.runtime import Runtime
from mentalmagic.settings import Settings, from_env, gunicorn_options, waitress_options
from mentalmagic.web import create_app, schemas

API = "/api/v1"
GAME = {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock"]}
CSS = next((Path(__file__).parents[1] / "mentalmagic/web/static/css").glob("*.css")).name


@pytest.fixture(scope="module")
def db(tmp_path_factory, mini_card_db_path):
    return fresh_games_db(mini_card_db_path, tmp_path_factory.mktemp("limits") / "games.sqlite")


@pytest.fixture
def make_app(db, mini_db_finder, tmp_path):
    def make(**settings):
        # the default storage (shared://, a file of counts), this test's own: the db is the module's
        settings.setdefault("rate_limit_storage", f"shared://{tmp_path}/counts.limits")
        s = Settings(access_log="0", **settings)
        runtime = Runtime(db_path=db, pool=mini_db_finder.pool, finder=mini_db_finder)
        return create_app({"DATABASE": str(db), "RUNTIME": runtime, "SETTINGS": s})
    return make


def assert_rate_limited(response, most_wait: int) -> dict:
    assert response.status_code == 429, (response.status_code, response.data[:300])
    body = response.get_json()
    assert schemas.ErrorOut().validate(body) == {} and set(body) == {"error"}
    assert body["error"]["code"] == "rate_limited"
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= most_wait
    assert f"retry in {wait} s" in body["error"]["message"]
    return body["error"]


# -- settings --------------------------------------------------------------------------------------
def test_the_settings_default_to_600_a_minute_and_60_games_an_hour_and_0_turns_them_off():
    s = from_env({})
    assert (s.rate_limit, s.games_per_hour, s.rate_limit_storage, s.access_log) == (600, 60, "shared://", "-")
    off = from_env({"MENTALMAGIC_RATE_LIMIT": "0", "MENTALMAGIC_GAMES_PER_HOUR": " 0 "})
    assert (off.rate_limit, off.games_per_hour) == (0, 0)


@pytest.mark.parametrize("value", ["lots", "-1", "1.5"])
def test_a_setting_that_isnt_a_count_is_refused_naming_the_variable(value):
    with pytest.raises(ValueError, match="MENTALMAGIC_RATE_LIMIT"):
        from_env({"MENTALMAGIC_RATE_LIMIT": value})


def test_both_servers_get_the_same_connection_limits():
    s = Settings(connection_limit=500, channel_timeout=20, max_header_bytes=8000)
    w, g = waitress_options(s), gunicorn_options(s)
    assert (w["connection_limit"], w["channel_timeout"], w["max_request_header_size"]) == (500, 20, 8000)
    assert w["asyncore_use_poll"]  # select() can't watch more than 1024 descriptors
    assert (g["worker_connections"], g["timeout"], g["limit_request_field_size"]) == (500, 20, 8000)


# -- rate limits -----------------------------------------------------------------------------------
def test_a_client_over_its_rate_limit_gets_429_with_retry_after_in_the_envelope(make_app):
    client = make_app(rate_limit=5, games_per_hour=0).test_client()
    for left in range(4, -1, -1):
        response = client.get(f"{API}/cards/Shock")
        assert response.status_code == 200
        assert response.headers["X-RateLimit-Remaining"] == str(left)
        assert "Retry-After" not in response.headers
    error = assert_rate_limited(client.get(f"{API}/cards", query_string={"q": "lion"}), 60)
    assert "5 per 1 minute" in error["message"]
    # another client is counted apart
    other = client.get(f"{API}/cards/Shock", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 200


def test_health_counts_for_nothing_a_monitor_is_never_refused(make_app):
    client = make_app(rate_limit=2, games_per_hour=0).test_client()
    for _ in range(10):
        response = client.get(f"{API}/health")
        assert response.status_code == 200 and "X-RateLimit-Limit" not in response.headers
    assert client.get(f"{API}/cards/Shock").headers["X-RateLimit-Remaining"] == "1"


def test_the_page_over_its_limit_gets_a_429_with_retry_after_too(make_app):
    client = make_app(rate_limit=1, games_per_hour=0).test_client()
    assert client.get("/").status_code == 200
    response = client.get("/")
    assert response.status_code == 429 and int(response.headers["Retry-After"]) >= 1


def test_limits_set_to_0_never_answer_429(make_app):
    client = make_app(rate_limit=0, games_per_hour=0).test_client()
    statuses = {client.get(f"{API}/health").status_code for _ in range(700)}
    assert statuses == {200}
    assert "X-RateLimit-Limit" not in client.get(f"{API}/health").headers


def test_the_61st_game_in_an_hour_from_one_client_is_refused_with_429(make_app):
    client = make_app(rate_limit=0, games_per_hour=60).test_client()
    refused = [client.post(f"{API}/games", json={"players": []}) for _ in range(5)]
    assert {r.status_code for r in refused} == {422}  # created nothing: not counted
    created = [client.post(f"{API}/games", json=GAME) for _ in range(60)]
    assert [r.status_code for r in created] == [201] * 60
    error = assert_rate_limited(client.post(f"{API}/games", json=GAME), 3600)
    assert "60 created per client per hour" in error["message"]
    # reading and playing are not creating: the same client goes on
    game = created[0].get_json()
    token = {"Authorization": f"Bearer {game['judge_token']}"}
    assert client.get(f"{API}/games/{game['id']}", headers=token).status_code == 200
    assert client.post(f"{API}/games/{game['id']}/actions", headers=token,
                       json={"type": "draw", "player": "p1", "count": 1}).status_code == 200
    # and another client may still create
    assert client.post(f"{API}/games", json=GAME, environ_base={"REMOTE_ADDR": "192.0.2.8"}).status_code == 201


def test_the_hourly_cap_counts_saved_decks_but_not_dry_runs(make_app):
    """POST /decks creates what the server keeps: under the hourly cap, like a game. A dry run
    (?dry_run=1, the console's check of a pasted list) keeps nothing: never counted, never refused."""
    client = make_app(rate_limit=0, games_per_hour=2).test_client()
    deck = {"name": "Cube", "list": "4 Shock\nSavannah Lions"}
    dry = [client.post(f"{API}/decks?dry_run=1", json=deck) for _ in range(5)]
    assert [r.status_code for r in dry] == [200] * 5 and all(r.get_json()["id"] is None for r in dry)
    assert [client.post(f"{API}/decks", json=deck).status_code for _ in range(2)] == [201, 201]
    assert_rate_limited(client.post(f"{API}/decks", json=deck), 3600)
    assert_rate_limited(client.post(f"{API}/decks?dry_run=0", json=deck), 3600)  # saving, spelled out
    assert client.post(f"{API}/decks?dry_run=1", json=deck).status_code == 200  # still only reading
    assert client.get(f"{API}/decks").status_code == 200  # listing isn't creating
    # games count apart, and have no dry run: ?dry_run=1 creates one, and it counts
    assert [client.post(f"{API}/games?dry_run=1", json=GAME).status_code for _ in range(3)] == [201, 201, 429]



def test_an_idempotent_replay_counts_for_nothing_a_retrying_bot_never_locks_itself_out(make_app):
    """A retry with the same Idempotency-Key gets the first answer and creates nothing: it takes no
    place in the hourly count (issue 30: each replay counted, and a bot retrying its creation was
    soon refused)."""
    client = make_app(rate_limit=0, games_per_hour=2).test_client()
    key = {"Idempotency-Key": "create-once"}
    first = client.post(f"{API}/games", json=GAME, headers=key)
    assert first.status_code == 201
    for _ in range(4):
        replay = client.post(f"{API}/games", json=GAME, headers=key)
        assert replay.status_code == 201 and replay.headers["Idempotent-Replayed"] == "true"
        assert replay.get_json()["id"] == first.get_json()["id"]
        assert replay.headers["X-RateLimit-Remaining"] == "1"
    last = client.post(f"{API}/games", json=GAME, headers={"Idempotency-Key": "the-second"})
    assert last.status_code == 201  # the second game of two
    assert_rate_limited(client.post(f"{API}/games", json=GAME), 3600)
    assert_rate_limited(client.post(f"{API}/games", json=GAME, headers={"Idempotency-Key": "a-third"}), 3600)
    # past the cap, a retry of a creation still gets its answer: its game, not a 429
    again = client.post(f"{API}/games", json=GAME, headers={"Idempotency-Key": "the-second"})
    assert again.status_code == 201 and again.get_json()["id"] == last.get_json()["id"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert_rate_limited(client.post(f"{API}/games", json=GAME), 3600)  # and it took no place


def test_past_the_cap_a_key_whose_answer_cant_be_read_gets_the_429_without_a_traceback(make_app, monkeypatch,
                                                                                       caplog):
    from mentalmagic.web import idempotency

    client = make_app(rate_limit=0, games_per_hour=1).test_client()
    assert client.post(f"{API}/games", json=GAME).status_code == 201

    def failing(*args):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(idempotency.idempotency, "find", failing)
    assert_rate_limited(client.post(f"{API}/games", json=GAME, headers={"Idempotency-Key": "k"}), 3600)
    assert not [r for r in caplog.records if r.exc_info]


def test_series_creation_is_under_the_hourly_cap_counted_apart(make_app):
    """POST /series keeps what it creates: under the hourly cap, apart from games (issue 30: no limit,
    300 series in 0.8 s)."""
    client = make_app(rate_limit=0, games_per_hour=2).test_client()
    assert client.post(f"{API}/series", json={"rules": "no such rules"}).status_code == 422  # not counted
    assert [client.post(f"{API}/series", json={}).status_code for _ in range(2)] == [201, 201]
    error = assert_rate_limited(client.post(f"{API}/series", json={}), 3600)
    assert "2 created per client per hour" in error["message"]
    assert client.post(f"{API}/games", json=GAME).status_code == 201  # games count apart


def test_a_path_that_names_no_route_and_the_static_files_count_for_nothing(make_app):
    client = make_app(rate_limit=2, games_per_hour=0).test_client()
    assert {client.get(f"{API}/no-such-route").status_code for _ in range(5)} == {404}
    for _ in range(5):
        with client.get(f"/static/css/{CSS}") as response:  # a file: closed, not left to the collector
            assert response.status_code == 200
    response = client.get(f"{API}/cards/Shock")
    assert response.status_code == 200 and response.headers["X-RateLimit-Remaining"] == "1"


def test_counts_that_cant_be_reached_let_requests_through(make_app, monkeypatch, caplog):
    """MENTALMAGIC_RATE_LIMIT_STORAGE down (a redis that went away): requests are served, uncounted,
    and the log says why; nothing is created past the cap because of it either way."""
    from limits.strategies import FixedWindowRateLimiter

    client = make_app(rate_limit=1, games_per_hour=1).test_client()

    def unreachable(*args, **kwargs):
        raise ConnectionError("redis://counts:6379 refused the connection")
    monkeypatch.setattr(FixedWindowRateLimiter, "hit", unreachable)
    monkeypatch.setattr(FixedWindowRateLimiter, "test", unreachable)
    for _ in range(3):
        response = client.get(f"{API}/cards/Shock")
        assert response.status_code == 200 and "X-RateLimit-Limit" not in response.headers
    assert client.post(f"{API}/games", json=GAME).status_code == 201
    assert "the counts' storage failed" in caplog.text

# -- connections -----------------------------------------------------------------------------------
def test_health_answers_while_120_half_open_connections_wait(make_app):
    """A client that opens connections and never finishes a request can't starve the others.

    waitress stops accepting at its default of 100 connections; the settings raise that and
    close silent connections after ``channel_timeout``."""
    app = make_app(rate_limit=0, games_per_hour=0)
    options = waitress_options(Settings(channel_timeout=30))
    sockets = []
    with served(app, threads=4, timeout=30, **options) as root, time_limit(60):
        port = int(root.rsplit(":", 1)[1])
        try:
            for _ in range(120):
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
                sockets.append(s)
            with urllib.request.urlopen(f"{root}{API}/health", timeout=15) as response:
                assert response.status == 200
        finally:
            for s in sockets:
                s.close()


def test_a_nul_byte_in_a_header_is_refused_by_waitress_and_it_serves_on(make_app):
    """The HTTP parser refuses it before the app sees the request, so the answer is waitress's
    plain-text 400, not the envelope (docs/deployment.md, "Limits and logs")."""
    app = make_app(rate_limit=0, games_per_hour=0)
    with served(app, threads=2, timeout=30, **waitress_options(Settings())) as root, time_limit(30):
        port = int(root.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Bot: a\x00b\r\n\r\n")
            answer = b""
            while chunk := s.recv(4096):  # waitress closes after this answer
                answer += chunk
        assert answer.split(b" ", 2)[1] == b"400" and b"Invalid header" in answer
        with urllib.request.urlopen(f"{root}{API}/health", timeout=10) as response:
            assert response.status == 200
