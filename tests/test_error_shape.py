"""The ONE error envelope (docs/api.md, "Conventions"): every failure under /api/ answers
``{"error": {"code", "message", "rule"?, "fields"?}}`` as JSON with the right status —
never an HTML page, never a 500."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from support import assert_envelope, time_limit

API = "/api/v1"


def url(path: str, **params) -> str:
    return API + path + ("?" + urlencode(params) if params else "")


# -- 404 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        url("/cards/No Such Card"),
        url("/cards/%00"),
        url("/candidates", printed="No Such Card"),
        url("/check", printed="No Such Card", name="Savannah Lions"),
    ],
)
def test_an_unknown_card_is_404(client, path):
    error = assert_envelope(client.get(path), 404)
    assert error["code"] == "unknown_card"


@pytest.mark.parametrize("path", [url("/cards/Savannah Lion"), url("/candidates", printed="savanah lions"),
                                  url("/check", printed="Savannah Lion", name="Shock")])
def test_a_misspelt_card_name_gets_the_close_names(client, path):
    error = assert_envelope(client.get(path), 404)
    assert error["code"] == "unknown_card" and error["suggestions"][0] == "Savannah Lions"


def test_a_name_close_to_nothing_gets_no_suggestion_but_still_the_key(client):
    assert assert_envelope(client.get(url("/cards/Qzxqzxqzx")), 404)["suggestions"] == []


@pytest.mark.parametrize("path", ["/api/v1/nothing", "/api/v1/", "/api/v1/cards/", "/api/v2/cards", "/api/"])
def test_an_unknown_api_route_is_404_json_not_html(client, path):
    error = assert_envelope(client.get(path), 404)
    assert error["code"] == "not_found" and error["message_code"] == "server.no_route"
    assert error["params"] == {"path": path} and "requested URL" not in error["message"]


def test_an_unknown_route_is_said_in_the_readers_language(client):
    error = assert_envelope(client.get("/api/v1/cards/?lang=fr"), 404)
    assert error["message"] == "l’API n’a pas de /api/v1/cards/ : ses routes sont listées dans /api/v1/openapi.json"


@pytest.mark.parametrize(
    "path",
    [url("/candidates", cost="{W}", game="no-such-game"),
     url("/check", cost="{W}", name="Savannah Lions", game="no-such-game")],
)
def test_an_unknown_game_is_404(client, path):
    assert_envelope(client.get(path), 404)


# -- 405 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path"),
    [("post", "/cards/Fire"), ("put", "/cards/Fire"), ("delete", "/cards/Fire"), ("patch", "/cards"),
     ("post", "/candidates"), ("delete", "/check"), ("post", "/health"), ("post", "/openapi.json")],
)
def test_a_wrong_method_is_405_json(client, method, path):
    error = assert_envelope(getattr(client, method)(API + path), 405)
    assert error["code"] == "method_not_allowed" and error["message_code"] == "server.method_not_allowed"
    assert error["params"]["method"] == method.upper() and "not allowed for the requested URL" not in error["message"]


# -- 422 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cost",
    ["{W", "W}", "{Q}", "{W} and {U}", "{W/W}", "{2/P}", "{W}" * 41,
     "{}", "{WU}", "{WUBRG}", "{W/}", "{/P}", "{2/}", "{C/}", "{²}"],
)
@pytest.mark.parametrize("path", ["/candidates", "/check"])
def test_a_bad_cost_is_422_quoting_the_input(client, path, cost):
    params = {"cost": cost} if path == "/candidates" else {"cost": cost, "name": "Savannah Lions"}
    error = assert_envelope(client.get(url(path, **params)), 422)
    assert "cost" in error["fields"]
    assert cost in json.dumps(error, ensure_ascii=False) or repr(cost) in json.dumps(error, ensure_ascii=False)


@pytest.mark.parametrize("fmt", ["standard", "VINTAGE2", "1"])
def test_an_unknown_format_is_422(client, fmt):
    error = assert_envelope(client.get(url("/candidates", cost="{W}", format=fmt)), 422)
    assert "format" in error["fields"]
    error = assert_envelope(client.get(url("/check", cost="{W}", name="Savannah Lions", format=fmt)), 422)
    assert "format" in error["fields"]


@pytest.mark.parametrize(
    "params",
    [{}, {"printed": "Savannah Lions", "cost": "{W}"}, {"format": "vintage"}],
    ids=["neither printed nor cost", "both printed and cost", "only a format"],
)
@pytest.mark.parametrize("path", ["/candidates", "/check"])
def test_exactly_one_of_printed_or_cost_is_required(client, path, params):
    if path == "/check":
        params = {**params, "name": "Savannah Lions"}
    error = assert_envelope(client.get(url(path, **params)), 422)
    assert error["fields"]


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/candidates", {"cost": "{W}", "colour": "white"}, "colour"),
        ("/candidates", {"cost": "{W}", "Format": "vintage"}, "Format"),
        ("/check", {"cost": "{W}", "name": "Savannah Lions", "card": "x"}, "card"),
        ("/cards", {"q": "lion", "page": "2"}, "page"),
    ],
)
def test_an_unknown_query_argument_is_422(client, path, params, field):
    error = assert_envelope(client.get(url(path, **params)), 422)
    assert field in error["fields"]


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/candidates", {"cost": "{W}", "limit": "0"}, "limit"),
        ("/candidates", {"cost": "{W}", "limit": "many"}, "limit"),
        ("/candidates", {"cost": "{W}", "offset": "-1"}, "offset"),
        ("/candidates", {"cost": "{W}", "phyrexian_as_hybrid": "maybe"}, "phyrexian_as_hybrid"),
        ("/candidates", {"cost": "{W}", "type": ""}, "type"),
        ("/cards", {}, "q"),
        ("/cards", {"q": ""}, "q"),
        ("/cards", {"q": "lion", "limit": "1000"}, "limit"),
        ("/check", {"cost": "{W}"}, "name"),
    ],
)
def test_a_field_that_cant_be_read_is_422_with_its_name(client, path, params, field):
    error = assert_envelope(client.get(url(path, **params)), 422)
    assert field in error["fields"]


# -- never a 500, never a hang ---------------------------------------------------------------------
def test_the_longest_hybrid_cost_a_bot_may_send_is_answered_quickly(client):
    kinds = ["W/U", "U/B", "B/R", "R/G", "G/W", "W/B", "U/R", "B/G", "R/W", "G/U",
             "2/W", "2/U", "2/B", "2/R", "2/G", "C/W", "C/U", "C/B", "C/R", "C/G"]
    cost = "".join(f"{{{k}}}{{{k}}}" for k in kinds)
    with time_limit(5):
        response = client.get(url("/candidates", cost=cost, limit=1))
    assert response.status_code in (200, 422), response.get_json()
    if response.status_code == 422:
        assert_envelope(response, 422)


@pytest.mark.parametrize(
    "path",
    [
        url("/cards/" + "x" * 5000),
        url("/cards", q="\x00"),
        url("/cards", q="%"),
        url("/candidates", printed="\u00e9" * 300),
        url("/candidates", cost="{W}", type="\x00"),
        url("/candidates", cost="{1000000}"),
        url("/candidates", cost="{∞}"),
        url("/candidates", cost="{½}"),
        url("/check", cost="none", name="Forest"),
        url("/check", cost="{W}", name="\x00"),
    ],
)
def test_odd_but_readable_input_never_gets_a_500(client, path):
    response = client.get(path)
    assert response.status_code < 500, response.get_json()
    assert response.is_json
    if response.status_code >= 400:
        assert_envelope(response, response.status_code)


def test_a_page_outside_the_api_may_be_html(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert not response.is_json
