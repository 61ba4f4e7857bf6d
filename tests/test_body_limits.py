"""A body too large answers the API's JSON envelope on every route and at every size (issue 21):
the app refuses past 256 KiB, the production server itself (waitress) past 4 MiB, before the app
sees the request. Tested against `mentalmagic serve` with real bodies sent over a socket."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import urllib.error
import urllib.request

import pytest
from test_serving import get, served_tiny

pytestmark = pytest.mark.processes

API = "/api/v1"
MB = 1024 * 1024


@pytest.fixture(scope="module")
def port_of(tmp_path_factory):
    """The port of `mentalmagic serve ARGS`, one server for each ARGS for the whole module, started
    when first asked for: the tests send it bodies it refuses, and make a game and a deck of their
    own to name, nothing another test reads."""
    ports = {}
    with contextlib.ExitStack() as servers:
        def port(*args: str) -> int:
            if args not in ports:
                start = servers.enter_context(served_tiny(tmp_path_factory.mktemp("served")))
                ports[args] = start(*args)[1]
            return ports[args]

        yield port


def send(port: int, method: str, path: str, size: int, chunked: bool = False,
         token: str = "x", lang: str = "en") -> tuple[int, dict, bytes]:
    """``method path`` with a JSON-ish body of ``size`` bytes; (status, headers, body) of the answer.
    The server may answer and close before the whole body is sent: sending stops there."""
    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Type: application/json",
            f"Authorization: Bearer {token}", f"Accept-Language: {lang}", "Connection: close"]
    head.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}")
    piece = b"x" * (64 * 1024)
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        try:
            sent = 0
            while sent < size:
                n = min(len(piece), size - sent)
                s.sendall(b"%x\r\n%s\r\n" % (n, piece[:n]) if chunked else piece[:n])
                sent += n
            if chunked:
                s.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused early: the answer is waiting
        raw = read_all(s)
    header, _, body = raw.partition(b"\r\n\r\n")
    lines = header.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def post(port: int, path: str, body: dict) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{API}{path}", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as resp:
            return json.loads(resp.read())
    except urllib.error.HTTPError as e:
        raise AssertionError(e.read()) from None


def read_all(s: socket.socket) -> bytes:
    """What the server answers until it closes (a reset after its answer ends the read too)."""
    raw = b""
    try:
        while chunk := s.recv(65536):
            raw += chunk
    except ConnectionResetError:
        pass
    return raw


def write_routes(port: int) -> list[tuple[str, str, str]]:
    """Every POST and PUT of the API, from its OpenAPI document, as (method, path, token) for a real
    game and deck: what is refused is the body's size, not an unknown id or a token."""
    game = post(port, "/games", {"players": [{"name": "Ana"}, {"name": "Ben"}], "library": ["Savannah Lions"] * 3})
    deck = post(port, "/decks", {"name": "Cube", "list": "Savannah Lions"})
    ids = {"game_id": game["id"], "deck_id": deck["id"], "player_id": game["players"][0]["id"]}
    _, doc = get(port, f"{API}/openapi.json")
    routes = []
    for path, ops in doc["paths"].items():
        for method in ("post", "put"):
            if method in ops:
                filled = re.sub(r"\{(\w+)\}", lambda m: ids[m.group(1)], path)
                filled = filled if filled.startswith(API) else API + filled
                token = deck["edit_token"] if "/decks/" in filled else game["judge_token"]
                routes.append((method.upper(), filled, token))
    return routes


@pytest.mark.parametrize("server", ["waitress", "gunicorn"])
@pytest.mark.parametrize("size", [2 * MB, 12 * MB])
def test_a_body_too_large_gets_the_envelope_on_every_write_route(port_of, size, server):
    port = port_of("--server", server, "--workers", "1")
    routes = write_routes(port)
    said = {(m, p.split("/")[3], p.split("/")[-1]) for m, p, _ in routes}  # (method, "games", last part)
    assert {("POST", "games", "games"), ("POST", "decks", "decks"), ("POST", "games", "actions")} <= said, said
    assert any(m == "PUT" and kind == "decks" for m, kind, _ in said), said
    # a judge's whole record may be larger than any other body (web/errors.py, LARGER_BODIES): only past its own limit
    from mentalmagic.web.errors import LARGER_BODIES

    own_limit = {f"{API}/games/import": LARGER_BODIES["games.import_game"]}
    assert set(own_limit) <= {p for _, p, _ in routes}
    for method, path, token in routes:
        if size <= own_limit.get(path, 0):
            continue
        status, headers, body = send(port, method, path, size, token=token)
        assert status == 413, (method, path, size, body[:200])
        assert headers["content-type"].startswith("application/json"), (method, path, headers)
        error = json.loads(body)["error"]
        assert error["code"] == "too_large" and error["message_code"] == "server.too_large", (method, path, error)
        assert error["message"].startswith("the request body is too large"), error


def test_a_chunked_body_too_large_gets_the_envelope_too(port_of):
    port = port_of("--server", "waitress", "--workers", "2")
    for path in (f"{API}/games", f"{API}/decks"):
        status, headers, body = send(port, "POST", path, 12 * MB, chunked=True)
        assert status == 413 and headers["content-type"].startswith("application/json"), (path, body[:200])
        assert json.loads(body)["error"]["code"] == "too_large"


def test_what_waitress_refuses_before_the_app_is_in_the_envelope_too(port_of):
    """Headers over the limit (431) and a header with a NUL byte (400) never reach the app."""
    port = port_of("--server", "waitress", "--workers", "1")
    for extra, status, code in ((b"X-Big: " + b"a" * (65 * 1024), 431, "headers_too_large"),
                                (b"X-Bad: a\x00b", 400, "bad_request")):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n" + extra + b"\r\nConnection: close\r\n\r\n")
            raw = read_all(s)
        head, _, body = raw.partition(b"\r\n\r\n")
        assert head.split()[1] == str(status).encode() and b"application/json" in head, raw[:300]
        error = json.loads(body)["error"]
        assert error["code"] == code and error["message"], error


@pytest.mark.parametrize("size", [2 * MB, 12 * MB])
def test_the_refusal_is_worded_in_the_requests_language(port_of, size):
    port = port_of("--server", "waitress", "--workers", "1")
    status, _, body = send(port, "POST", f"{API}/games", size, lang="fr-FR,fr;q=0.9")
    error = json.loads(body)["error"]
    assert status == 413 and error["message"].startswith("le corps de la requête est trop grand"), error
