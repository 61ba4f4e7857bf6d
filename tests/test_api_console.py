"""What the console needs of the API (issue 7): a game from a saved deck (``"deck": id``), and
the game's ETag with conditional GETs (304 while nothing happened; a new tag after an event
and after an undo; one tag per seat)."""

from __future__ import annotations

import pytest

from mentalmagic.web import schemas

API = "/api/v1"


def new_game(client, **body) -> dict:
    body = {"players": [{"name": "Ana"}, {"name": "Ben"}], "shuffle": False, **body}
    resp = client.post(f"{API}/games", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_a_game_starts_from_a_saved_deck(client):
    deck = client.post(f"{API}/decks", json={"name": "Cube", "list": "2 Shock\nlions des savanes\n"}).get_json()
    game = new_game(client, deck=deck["id"])
    assert schemas.CreateGameOut().validate(game) == {}
    assert game["library_size"] == 3
    drawn = client.post(f"{API}/games/{game['id']}/actions", headers=auth(game["judge_token"]),
                        json={"type": "draw", "player": "p1", "count": 3}).get_json()
    assert sorted(c["printed"] for c in drawn["cards"]) == ["Savannah Lions", "Shock", "Shock"]  # the list's order


@pytest.mark.parametrize("body,field", [
    ({"library": ["Shock"], "deck": "x"}, "library"),  # both
    ({}, "library"),  # neither
])
def test_exactly_one_of_library_or_deck(client, body, field):
    resp = client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Ben"}], **body})
    assert resp.status_code == 422
    assert field in resp.get_json()["error"]["fields"]


def test_an_unknown_deck_is_a_404(client):
    resp = client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Ben"}], "deck": "nope"})
    assert resp.status_code == 404
    assert set(resp.get_json()) == {"error"}


def test_the_openapi_document_says_library_or_deck(client):
    from openapi_schema_validator import OAS30Validator

    doc = client.get(f"{API}/openapi.json").get_json()
    schema = {**doc["components"]["schemas"]["CreateGameIn"], "components": doc["components"]}
    players = [{"name": "Ana"}, {"name": "Ben"}]

    def valid(**body) -> bool:
        return OAS30Validator(schema).is_valid({"players": players, **body})

    assert valid(library=["Shock"]) and valid(deck="d1")
    assert not valid() and not valid(library=["Shock"], deck="d1")


def test_conditional_get_answers_304_until_something_happens(client):
    game = new_game(client, library=["Shock", "Savannah Lions", "Goblin Guide"])
    url, judge = f"{API}/games/{game['id']}", auth(game["judge_token"])
    first = client.get(url, headers=judge)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag
    assert "Authorization" in first.headers["Vary"]

    same = client.get(url, headers={**judge, "If-None-Match": etag})
    assert same.status_code == 304 and same.data == b"" and same.headers["ETag"] == etag

    client.post(f"{url}/actions", headers=judge, json={"type": "draw", "player": "p1", "count": 1})
    after_draw = client.get(url, headers={**judge, "If-None-Match": etag})
    assert after_draw.status_code == 200 and after_draw.get_json()["seq"] == 1
    assert after_draw.headers["ETag"] != etag

    client.post(f"{url}/undo", headers=judge)
    after_undo = client.get(url, headers={**judge, "If-None-Match": after_draw.headers["ETag"]})
    assert after_undo.status_code == 200 and after_undo.get_json()["seq"] == 0
    # seq is back to 0, yet the tag is new: a page that saw the draw must see it undone
    assert after_undo.headers["ETag"] not in (etag, after_draw.headers["ETag"])


def test_each_seat_has_its_own_tag(client):
    game = new_game(client, library=["Shock", "Savannah Lions"])
    url = f"{API}/games/{game['id']}"
    judge_tag = client.get(url, headers=auth(game["judge_token"])).headers["ETag"]
    ana = auth(game["players"][0]["token"])
    ana_view = client.get(url, headers={**ana, "If-None-Match": judge_tag})
    assert ana_view.status_code == 200  # the judge's document is not Ana's
    assert client.get(url, headers={**ana, "If-None-Match": ana_view.headers["ETag"]}).status_code == 304
    assert client.get(url, headers={"If-None-Match": judge_tag}).status_code == 401  # no token, no tag


def test_a_line_of_the_grammar_is_an_action_or_undo(client):
    game = new_game(client, library=["Shock", "Savannah Lions", "Grizzly Bears"])
    url, judge = f"{API}/games/{game['id']}", auth(game["judge_token"])
    view = client.get(url, headers=judge).get_json()
    assert [c["handle"] for c in view["cards"] if c["printed"] == "Savannah Lions"] == [2]  # its place at the start
    assert schemas.GameOut().validate(view) == {}

    drawn = client.post(f"{url}/line", headers=judge, json={"line": "ana draw 2"})
    assert drawn.status_code == 200 and drawn.get_json()["event"]["type"] == "draw"
    assert schemas.LineOut().validate(drawn.get_json()) == {}
    cast = client.post(f"{url}/line", headers=judge, json={"line": "ana cast 1 as Lightning Bolt"}).get_json()
    assert cast["event"]["data"]["naming"]["name"] == "Lightning Bolt"
    refused = client.post(f"{url}/line", headers=judge, json={"line": "ana name 2 Lightning Bolt"})
    assert refused.status_code == 409 and refused.get_json()["error"]["rule"] in ("704.1", "704.2")
    unreadable = client.post(f"{url}/line", headers=judge, json={"line": "ana dance"})
    assert unreadable.status_code == 422 and "line" in unreadable.get_json()["error"]["fields"]
    undone = client.post(f"{url}/line", headers=judge, json={"line": "undo"}).get_json()
    assert undone["undone"]["seq"] == 2 and undone["seq"] == 1

    # a player's line acts for that player only
    ben = auth(game["players"][1]["token"])
    assert client.post(f"{url}/line", headers=ben, json={"line": "ana draw 1"}).status_code == 403
    assert client.post(f"{url}/line", headers=ben, json={"line": "undo"}).status_code == 403
    assert client.post(f"{url}/line", headers=ben, json={"line": "ben draw 1"}).status_code == 200


def test_the_grammar_suggests_what_comes_next(client):
    game = new_game(client, library=["Shock", "Savannah Lions"])
    url, judge = f"{API}/games/{game['id']}", auth(game["judge_token"])

    def suggest(line: str) -> dict:
        resp = client.get(f"{url}/suggest", headers=judge, query_string={"line": line})
        assert resp.status_code == 200
        assert schemas.SuggestOut().validate(resp.get_json()) == {}
        return resp.get_json()

    assert suggest("a")["words"] == ["Ana"]
    assert "draw" in suggest("ana d")["words"]
    assert suggest("ana cast ")["kind"] == "card"
    assert suggest("ana cast 1 as Lightn") == {"kind": "name", "prefix": "Lightn", "words": []}
    assert client.get(f"{url}/suggest", query_string={"line": "a"}).status_code == 401
