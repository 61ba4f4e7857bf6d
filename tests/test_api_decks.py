"""The decks API (docs/api.md, "Decks"): save a list, read it back, change and delete it with its
edit token, export it as text; every refusal in the one error envelope, nothing half-saved."""

from __future__ import annotations

import json

import pytest
from support import assert_envelope

from mentalmagic.storage import connect
from mentalmagic.web.decks import DeckOut, DecksOut, deck_library

API = "/api/v1"
LIST = "// cube\n4 Shock\nLightning Blot\n2 lions des savanes\nIce\n1 Black Lotus\n"


def valid(body, schema):
    assert schema().validate(body) == {}, schema().validate(body)
    return body


def saved(client, name="Cube", text=LIST):
    r = client.post(f"{API}/decks", json={"name": name, "list": text})
    assert r.status_code == 201, r.get_data(as_text=True)
    return valid(r.get_json(), DeckOut)


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _count(app) -> int:
    db = connect(app.extensions["mentalmagic"].db_path, apply_schema=False)
    try:
        return db["decks"].count
    finally:
        db.conn.close()


# -- POST /decks ------------------------------------------------------------------------------------
def test_saving_a_list_answers_201_with_cards_problems_flags_and_the_edit_token_once(client):
    d = saved(client)
    assert d["name"] == "Cube" and d["id"] and len(d["edit_token"]) >= 24
    assert [(c["count"], c["name"], c["line"]) for c in d["cards"]] == [
        (4, "Shock", 2), (2, "Savannah Lions", 4), (1, "Fire // Ice", 5), (1, "Black Lotus", 6)]
    assert d["size"] == 8
    (p,) = d["problems"]
    assert (p["line"], p["text"]) == (3, "Lightning Blot") and p["suggestions"][0] == "Lightning Bolt"
    (flag,) = d["flags"]
    assert flag["name"] == "Black Lotus" and flag["formats"]["vintage"] == "restricted"
    assert flag["mental_magic"] is None


def test_a_dry_run_answers_the_same_and_saves_nothing(client, app):
    before = _count(app)
    r = client.post(f"{API}/decks?dry_run=1", json={"name": "Cube", "list": LIST})
    assert r.status_code == 200
    d = valid(r.get_json(), DeckOut)
    assert d["id"] is None and "edit_token" not in d and d["dry_run"] is True
    assert d["size"] == 8 and len(d["problems"]) == 1
    assert _count(app) == before


@pytest.mark.parametrize("body, field", [
    ({"list": "4 Shock"}, "name"),
    ({"name": "Cube"}, "list"),
    ({"name": "", "list": "4 Shock"}, "name"),
    ({"name": "Cube", "list": ""}, "list"),
    ({"name": "x" * 101, "list": "4 Shock"}, "name"),
    ({"name": "Cube", "list": 4}, "list"),
    ({"name": "Cube", "list": "4 Shock", "cards": []}, "cards"),
])
def test_a_bad_body_is_422_naming_the_field_and_saves_nothing(client, app, body, field):
    before = _count(app)
    error = assert_envelope(client.post(f"{API}/decks", json=body), 422)
    assert field in error["fields"]
    assert _count(app) == before


def test_a_list_too_long_is_422_and_a_body_too_large_413(client):
    error = assert_envelope(client.post(f"{API}/decks", json={"name": "Cube", "list": "Shock\n" * 34_000}), 422)
    assert "list" in error["fields"]  # 204,000 characters: over MAX_TEXT, under the body limit
    assert_envelope(client.post(f"{API}/decks", json={"name": "Cube", "list": "Shock\n" * 60_000}), 413)


def test_a_body_that_isnt_a_json_object_is_400(client):
    assert_envelope(client.post(f"{API}/decks", data="4 Shock", headers={"Content-Type": "text/plain"}), 400)
    assert_envelope(client.post(f"{API}/decks", json=["4 Shock"]), 400)
    raw = json.dumps({"name": "\ud800", "list": "4 Shock"})
    assert_envelope(client.post(f"{API}/decks", data=raw, headers={"Content-Type": "application/json"}), 400)


def test_an_unknown_query_argument_is_422(client):
    error = assert_envelope(client.post(f"{API}/decks?dryrun=1", json={"name": "Cube", "list": "Shock"}), 422)
    assert "dryrun" in error["fields"]


# -- GET ------------------------------------------------------------------------------------------------
def test_a_saved_deck_reads_back_without_its_edit_token(client):
    d = saved(client, "Read back")
    r = client.get(f"{API}/decks/{d['id']}")
    got = valid(r.get_json(), DeckOut)
    assert "edit_token" not in got
    assert got["list"] == LIST and got["cards"] == d["cards"] and got["problems"] == d["problems"]


def test_the_listing_shows_every_deck_with_its_size(client):
    d = saved(client, "Listed", "3 Shock")
    listing = valid(client.get(f"{API}/decks").get_json(), DecksOut)["decks"]
    mine = next(x for x in listing if x["id"] == d["id"])
    assert (mine["name"], mine["size"]) == ("Listed", 3)
    assert all("edit_token" not in x and "list" not in x for x in listing)


@pytest.mark.parametrize("method, path", [
    ("get", "/decks/nope"), ("get", "/decks/nope/export"), ("put", "/decks/nope"), ("delete", "/decks/nope"),
])
def test_an_unknown_deck_is_404(client, method, path):
    error = assert_envelope(getattr(client, method)(f"{API}{path}", json={"name": "x"}, headers=bearer("t")), 404)
    assert error["code"] == "unknown_deck"


def test_export_is_text_that_reads_back_to_the_same_cards(client):
    d = saved(client, "Exported")
    r = client.get(f"{API}/decks/{d['id']}/export")
    assert r.status_code == 200 and r.mimetype == "text/plain"
    text = r.get_data(as_text=True)
    assert text.splitlines() == ["# Exported", "4 Shock", "2 Savannah Lions", "1 Fire // Ice", "1 Black Lotus"]
    again = saved(client, "Again", text)
    assert [(c["count"], c["name"]) for c in again["cards"]] == [(c["count"], c["name"]) for c in d["cards"]]
    assert again["problems"] == []


# -- PUT and DELETE: the edit token ---------------------------------------------------------------------
@pytest.mark.parametrize("method", ["put", "delete"])
def test_changing_a_deck_without_a_token_is_401_and_with_another_is_403(client, method):
    d = saved(client, "Guarded")
    other = saved(client, "Other")
    call = getattr(client, method)
    body = {"name": "Renamed"}
    assert assert_envelope(call(f"{API}/decks/{d['id']}", json=body), 401)["code"] == "unauthorized"
    assert_envelope(call(f"{API}/decks/{d['id']}", json=body, headers={"Authorization": d["edit_token"]}), 401)
    assert assert_envelope(call(f"{API}/decks/{d['id']}", json=body, headers=bearer(other["edit_token"])),
                    403)["code"] == "forbidden"
    got = client.get(f"{API}/decks/{d['id']}").get_json()
    assert got["name"] == "Guarded" and got["list"] == LIST  # nothing changed


def test_put_with_the_edit_token_changes_the_name_and_the_list(client):
    d = saved(client, "Before")
    r = client.put(f"{API}/decks/{d['id']}", json={"name": "After"}, headers=bearer(d["edit_token"]))
    assert r.status_code == 200 and r.get_json()["name"] == "After" and r.get_json()["size"] == 8
    r = client.put(f"{API}/decks/{d['id']}", json={"list": "Fire // Ice\n2 Choc"}, headers=bearer(d["edit_token"]))
    got = valid(r.get_json(), DeckOut)
    assert got["name"] == "After" and got["size"] == 3 and "edit_token" not in got
    assert client.get(f"{API}/decks/{d['id']}").get_json()["list"] == "Fire // Ice\n2 Choc"


def test_put_with_nothing_to_change_is_422(client):
    d = saved(client, "Same")
    assert_envelope(client.put(f"{API}/decks/{d['id']}", json={}, headers=bearer(d["edit_token"])), 422)
    emptied = client.put(f"{API}/decks/{d['id']}", json={"list": ""}, headers=bearer(d["edit_token"]))
    error = assert_envelope(emptied, 422)
    assert "list" in error["fields"]


def test_delete_with_the_edit_token_removes_the_deck(client):
    d = saved(client, "Gone")
    r = client.delete(f"{API}/decks/{d['id']}", headers=bearer(d["edit_token"]))
    assert r.status_code == 200 and r.get_json() == {"deleted": d["id"]}
    assert_envelope(client.get(f"{API}/decks/{d['id']}"), 404)
    assert d["id"] not in {x["id"] for x in client.get(f"{API}/decks").get_json()["decks"]}


# -- the service POST /games calls for "deck": id ------------------------------------------------------
def test_deck_library_gives_every_physical_card_of_a_saved_deck(client, app):
    d = saved(client, "For a game")
    with app.test_request_context():
        lib = deck_library(d["id"])
    assert len(lib) == 8 and lib.count("Shock") == 4 and lib.count("Savannah Lions") == 2
    # and the game service takes that library as it is
    r = client.post(f"{API}/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}], "library": lib})
    assert r.status_code == 201 and r.get_json()["library_size"] == 8


def test_deck_library_of_an_empty_or_unknown_deck_is_refused(client, app):
    from mentalmagic.decklist import UnknownDeck
    from mentalmagic.errors import InvalidInput

    d = saved(client, "Empty", "// nothing yet\nLightning Blot")
    with app.test_request_context():
        with pytest.raises(InvalidInput, match="no card"):
            deck_library(d["id"])
        with pytest.raises(UnknownDeck):
            deck_library("nope")


# -- the OpenAPI document ---------------------------------------------------------------------------------
def test_the_openapi_document_describes_the_deck_routes(client):
    from openapi_spec_validator import validate

    doc = client.get(f"{API}/openapi.json").get_json()
    validate(doc)
    assert {"post", "get"} <= set(doc["paths"]["/decks"])
    assert doc["paths"]["/decks/{deck_id}"]["put"]["security"] == [{"bearer": []}]
    assert doc["paths"]["/decks/{deck_id}"]["delete"]["security"] == [{"bearer": []}]
    assert "security" not in doc["paths"]["/decks"]["post"]
    assert "text/plain" in doc["paths"]["/decks/{deck_id}/export"]["get"]["responses"]["200"]["content"]
    assert "DeckOut" in doc["components"]["schemas"]


@pytest.mark.parametrize("key", [
    "3f1c9a4e-0b7d-4c52-9e11-5a2b6c7d8e9f", "a b", "!~", "x" * 255,  # allowed: 1 to 255 printable ASCII
    "a\tb", "clé", "x" * 256, "",  # a tab (a valid header character: schemathesis sends it), not ASCII, too long
])
def test_the_server_takes_an_idempotency_key_exactly_when_the_document_allows_it(client, key):
    """schemathesis generates keys from the document: one it allows but the server refused (a tab
    inside, issue 23) was a flaky 400 in test_schemathesis.py, and one it refuses must be refused."""
    from jsonschema import Draft4Validator

    doc = client.get(f"{API}/openapi.json").get_json()
    [param] = [p for p in doc["paths"]["/decks"]["post"]["parameters"] if p["name"] == "Idempotency-Key"]
    r = client.post(f"{API}/decks", json={"name": "Keyed", "list": "Shock"}, headers={"Idempotency-Key": key})
    if Draft4Validator(param["schema"]).is_valid(key):
        assert r.status_code == 201, r.get_json()
    else:
        assert assert_envelope(r, 400)["code"] == "bad_idempotency_key"
