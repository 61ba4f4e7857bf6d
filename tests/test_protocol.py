"""HTTP details a careful client relies on (issue 9): Allow on 405, OPTIONS in JSON, echoed
input cut short, over-long numbers named, security headers, the CORS choice, and an access
log that never writes a token."""

from __future__ import annotations

import json
import logging

import pytest
from support import assert_envelope, fresh_games_db

from mentalmagic.runtime import Runtime
from mentalmagic.settings import Settings
from mentalmagic.web import accesslog, create_app

API = "/api/v1"
GAME = {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Shock", "Lightning Bolt"]}


@pytest.fixture(scope="module")
def db(tmp_path_factory, mini_card_db_path):
    return fresh_games_db(mini_card_db_path, tmp_path_factory.mktemp("protocol") / "games.sqlite")


def make_app(db, finder, **settings):
    s = Settings(**{"rate_limit": 0, "games_per_hour": 0, "access_log": "0", **settings})
    runtime = Runtime(db_path=db, pool=finder.pool, finder=finder)
    return create_app({"DATABASE": str(db), "RUNTIME": runtime, "SETTINGS": s})


@pytest.fixture(scope="module")
def client(db, mini_db_finder):
    return make_app(db, mini_db_finder).test_client()


@pytest.fixture(scope="module")
def game(client):
    created = client.post(f"{API}/games", json=GAME).get_json()
    return created["id"], {"Authorization": f"Bearer {created['judge_token']}"}


# -- 405 and OPTIONS -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [("post", "/health", "GET, HEAD, OPTIONS"), ("delete", "/cards/Shock", "GET, HEAD, OPTIONS"),
     ("get", "/games", "OPTIONS, POST"), ("put", "/openapi.json", "GET, HEAD, OPTIONS")],
)
def test_a_405_says_which_methods_are_allowed(client, method, path, allow):
    response = getattr(client, method)(API + path)
    assert assert_envelope(response, 405)["code"] == "method_not_allowed"
    assert response.headers["Allow"] == allow


@pytest.mark.parametrize(
    ("path", "allow"),
    [("/cards", ["GET", "HEAD", "OPTIONS"]), ("/games", ["OPTIONS", "POST"]),
     ("/games/anything/actions", ["OPTIONS", "POST"])],
)
def test_options_under_the_api_answers_json_with_allow(client, path, allow):
    response = client.options(API + path)
    assert response.status_code == 200 and response.is_json
    assert response.get_json() == {"allow": allow}
    assert response.headers["Allow"] == ", ".join(allow)


def test_options_on_an_unknown_api_path_is_the_404_envelope(client):
    assert assert_envelope(client.options(f"{API}/nothing"), 404)["code"] == "not_found"


# -- what an error repeats back --------------------------------------------------------------------
def test_a_100_kb_name_is_not_echoed_whole(client):
    name = "x" * 100_000
    response = client.get(f"{API}/candidates", query_string={"printed": name})
    error = assert_envelope(response, 422)
    assert len(response.data) < 2_000
    response = client.get(f"{API}/cards/{name}")
    error = assert_envelope(response, 404)
    assert len(response.data) < 2_000
    assert "characters left out" in error["message"] and "xxxxx" in error["message"]


def test_a_100_kb_player_name_is_refused_without_echoing_it(client):
    body = {**GAME, "players": [{"name": "Ana" * 33_000}, {"name": "Bob"}]}
    response = client.post(f"{API}/games", json=body)
    assert_envelope(response, 422)
    assert len(response.data) < 2_000


def test_a_5000_digit_count_is_named_as_a_number_too_long(client, game):
    gid, judge = game
    raw = '{"type": "draw", "player": "p1", "count": ' + "9" * 5000 + "}"
    response = client.post(f"{API}/games/{gid}/actions", data=raw,
                           headers={**judge, "Content-Type": "application/json"})
    error = assert_envelope(response, 400)
    assert "5,000 digits" in error["message"] and "nested" not in error["message"]


def test_a_number_python_reads_still_reaches_validation(client, game):
    gid, judge = game
    raw = '{"type": "draw", "player": "p1", "count": ' + "9" * 400 + "}"
    response = client.post(f"{API}/games/{gid}/actions", data=raw,
                           headers={**judge, "Content-Type": "application/json"})
    assert response.status_code in (409, 422), response.get_json()


# -- security headers and CORS ---------------------------------------------------------------------
def test_the_page_allows_only_its_own_assets_and_no_framing(client):
    response = client.get("/")
    assert response.status_code == 200
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Frame-Options"] == "DENY"
    static = client.get("/static/lookup.js")
    assert static.headers["X-Content-Type-Options"] == "nosniff"
    static.close()


@pytest.mark.parametrize("path", ["/health", "/cards/Shock", "/nothing", "/games/nothing"])
def test_every_api_answer_is_nosniff_and_no_document(client, path):
    response = client.get(API + path)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"


@pytest.mark.parametrize("path", ["/health", "/cards/Shock", "/cards?q=lion", "/candidates?cost=%7BW%7D",
                                  "/check?cost=%7BW%7D&name=Savannah%20Lions", "/openapi.json"])
def test_the_read_only_card_routes_answer_any_origin(client, path):
    response = client.get(API + path, headers={"Origin": "https://decks.example"})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_a_cors_preflight_to_a_card_route_is_allowed(client):
    response = client.options(f"{API}/candidates", headers={"Origin": "https://decks.example",
                                                            "Access-Control-Request-Method": "GET"})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "GET" in response.headers["Access-Control-Allow-Methods"]


def test_game_routes_answer_no_other_origin(client, game):
    gid, judge = game
    origin = {"Origin": "https://evil.example"}
    assert "Access-Control-Allow-Origin" not in client.post(f"{API}/games", json=GAME, headers=origin).headers
    assert "Access-Control-Allow-Origin" not in client.get(f"{API}/games/{gid}", headers={**judge, **origin}).headers
    preflight = client.options(f"{API}/games/{gid}/actions",
                               headers={**origin, "Access-Control-Request-Method": "POST",
                                        "Access-Control-Request-Headers": "authorization"})
    assert "Access-Control-Allow-Origin" not in preflight.headers
    assert "Access-Control-Allow-Headers" not in preflight.headers


# -- the access log --------------------------------------------------------------------------------
@pytest.fixture
def logged(tmp_path, db, mini_db_finder):
    path = tmp_path / "access.log"
    app = make_app(db, mini_db_finder, access_log=str(path))
    yield app.test_client(), path
    log = logging.getLogger(accesslog.LOGGER)
    for handler in list(log.handlers):
        log.removeHandler(handler)
        handler.close()


def test_the_access_log_has_client_method_path_status_and_time(logged, game):
    client, path = logged
    client.get(f"{API}/cards/Shock").close()  # a server closes every answer: the line is written then
    client.post(f"{API}/games", json={"players": []}).close()
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    assert ' 127.0.0.1 "GET /api/v1/cards/Shock" 200 ' in lines[0]
    assert ' 127.0.0.1 "POST /api/v1/games" 422 ' in lines[1]
    assert all(line.endswith("ms") and line[:4].isdigit() for line in lines)


def test_the_access_log_never_writes_a_token(logged, game):
    client, path = logged
    gid, judge = game
    token = judge["Authorization"].split()[1]
    client.get(f"{API}/games/{gid}", headers=judge).close()
    client.get(f"{API}/games/{gid}?token={token}&since=3").close()  # a bot putting it in the query by mistake
    client.get(f"{API}/candidates?cost=%7BW%7D&game={gid}&auth=hunter2").close()
    client.get(f"{API}/games/{token}").close()  # or in the path
    text = path.read_text()
    assert token not in text and "hunter2" not in text and "Bearer" not in text
    assert text.count("[redacted]") == 3
    assert f"/api/v1/games/{gid}?token=[redacted]&since=3" in text
    assert f"game={gid}" in text  # a game id is not a secret: the judge needs it


@pytest.mark.parametrize("where", [
    "/api/v1/games/{gid}%23token={token}",  # a player's link with its '#' encoded (issue 23)
    "/api/v1/games/{token}.json",
    "/api/v1/games/{gid}/Bearer%20{token}",
    "/api/v1/games/{gid}%2523token%253D{token}",  # encoded twice
    "/api/v1/games/{gid}/%{hex}",  # every character of the token encoded, then the '%' again
    "/api/v1/games/{gid}?{token}",  # the query's name
    "/api/v1/games/{gid}?next=%2Fgames%2F{token}",
])
def test_the_access_log_never_writes_a_token_in_any_encoding(logged, game, where):
    client, path = logged
    gid, judge = game
    token = judge["Authorization"].split()[1]
    hexed = "%25".join(f"{ord(c):02X}" for c in token)
    client.get(where.format(gid=gid, token=token, hex=hexed)).close()
    text = path.read_text()
    assert token not in text and "[redacted]" in text, text
    assert gid in text or "{gid}" not in where  # a game id is not a secret


def test_a_crafted_path_cannot_forge_a_log_line(logged):
    client, path = logged
    client.get(f"{API}/cards/x%0A2026-01-01T00:00:00Z%20127.0.0.1%20%22GET%20/admin%22%20200").close()
    lines = path.read_text().splitlines()
    assert len(lines) == 1 and "\\x0a" in lines[0]


def test_the_access_log_can_be_turned_off(tmp_path, db, mini_db_finder):
    app = make_app(db, mini_db_finder, access_log="0")
    assert not isinstance(app.wsgi_app, accesslog.AccessLog)
    assert json.loads(app.test_client().get(f"{API}/health").data)["status"] == "ok"


def test_the_access_log_obeys_logging_and_never_fails_a_request(tmp_path, monkeypatch):
    """Its direct write (the handlers open_log makes, and no others) keeps logging's rules: off
    under logging.disable; a stream that can't be written (pythonw has no stderr) is reported by
    logging's handleError, never raised into the request."""
    path = tmp_path / "access.log"
    log = accesslog.open_log(str(path))
    extra = [h for h in log.handlers if type(h) is not logging.FileHandler]  # pytest's own capture
    for h in extra:
        log.removeHandler(h)
    (handler,) = log.handlers
    app = accesslog.AccessLog(lambda environ, start: (start("200 OK", [("Content-Length", "2")]), [b"ok"])[1], log)

    def get() -> None:
        body = app({"REQUEST_METHOD": "GET", "PATH_INFO": "/api/v1/health", "REMOTE_ADDR": "127.0.0.1"},
                   lambda status, headers, exc_info=None: None)
        assert b"".join(body) == b"ok"
        body.close()

    try:
        logging.disable(logging.INFO)
        try:
            get()
        finally:
            logging.disable(logging.NOTSET)
        assert path.read_text() == ""
        get()
        assert '127.0.0.1 "GET /api/v1/health" 200 2 ' in path.read_text()
        reported = []
        stream = handler.stream
        monkeypatch.setattr(handler, "stream", None)  # stream.write: an AttributeError
        monkeypatch.setattr(handler, "handleError", lambda record: reported.append(record.getMessage()))
        get()
        assert len(reported) == 1 and '"GET /api/v1/health" 200 2 ' in reported[0]
        monkeypatch.setattr(handler, "stream", stream)
    finally:
        for h in list(log.handlers):
            log.removeHandler(h)
            h.close()
        for h in extra:
            log.addHandler(h)
