"""Issue 30, retries: an ``Idempotency-Key`` answer is the caller's, whoever they are however they spell
the scheme (``bearer`` or ``Bearer``); a dry run checks the key as the write does; a boolean is JSON's
``true`` or ``false`` in every body, never a 0 read as false."""

from __future__ import annotations

import pytest
from driver import ANA, API, Game
from support import assert_envelope, checked

GAME = {"players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Savannah Lions"] * 10}


def draws(g: Game) -> int:
    return sum(e["type"] == "draw" for e in g.events())


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "Bearer "])
def test_a_retry_spelling_the_scheme_otherwise_is_the_same_caller_and_acts_once(client, scheme):
    g = Game(client, GAME["library"])
    sent = {"type": "draw", "player": ANA, "count": 1}
    first = checked(client.post(f"{API}/games/{g.id}/actions", json=sent, headers={
        "Authorization": f"Bearer {g.tokens[ANA]}", "Idempotency-Key": "draw-1"}))
    again = checked(client.post(f"{API}/games/{g.id}/actions", json=sent, headers={
        "Authorization": f"{scheme} {g.tokens[ANA]}", "Idempotency-Key": "draw-1"}))
    assert first.status_code == again.status_code == 200, again.get_json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json() == first.get_json()
    assert draws(g) == 1


def test_another_token_with_the_same_key_is_another_caller(client):
    g = Game(client, GAME["library"])
    for who in g.pids:
        response = checked(client.post(f"{API}/games/{g.id}/actions", json={"type": "draw", "count": 1}, headers={
            **g.headers(who), "Idempotency-Key": "draw-1"}))
        assert response.status_code == 200 and "Idempotent-Replayed" not in response.headers
    assert draws(g) == 2


BAD_KEYS = ["\xc3\xa9", "tab\there", "x" * 256]  # the first: the bytes of "é" as WSGI reads a header


@pytest.mark.parametrize("bad", BAD_KEYS)
@pytest.mark.parametrize("dry", ["", "?dry_run=1"])
def test_a_dry_run_checks_the_idempotency_key_as_the_write_does(client, bad, dry):
    g = Game(client, GAME["library"])
    before = g.record()
    error = assert_envelope(client.post(f"{API}/games/{g.id}/actions{dry}", json={"type": "draw", "count": 1},
                                        headers={**g.headers(ANA), "Idempotency-Key": bad}), 400)
    assert error["code"] == "bad_idempotency_key"
    error = assert_envelope(client.post(f"{API}/decks{dry}", json={"name": "cube", "list": "4 Shock"},
                                        headers={"Idempotency-Key": bad}), 400)
    assert error["code"] == "bad_idempotency_key"
    assert g.record() == before


def test_a_dry_run_with_a_good_key_answers_as_before(client):
    g = Game(client, GAME["library"])
    response = checked(client.post(f"{API}/games/{g.id}/actions?dry_run=1", json={"type": "draw", "count": 1},
                                   headers={**g.headers(ANA), "Idempotency-Key": "k"}))
    assert response.status_code == 200 and response.get_json()["dry_run"] is True


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/series", {"options": {"phyrexian_as_hybrid": 0}}, "options"),
    ("/series", {"options": {"phyrexian_as_hybrid": "true"}}, "options"),
    ("/games", {**GAME, "options": {"phyrexian_as_hybrid": 1}}, "options"),
    ("/games", {**GAME, "shuffle": 0}, "shuffle"),
    ("/games", {**GAME, "shuffle": "false"}, "shuffle"),
])
def test_a_boolean_is_true_or_false_never_a_number_or_a_word(client, path, body, field):
    error = assert_envelope(client.post(f"{API}{path}", json=body), 422)
    assert field in error["fields"], error
    if field == "options":
        assert "phyrexian_as_hybrid" in error["fields"]["options"], error


def test_a_series_option_given_as_a_boolean_is_kept(client):
    response = checked(client.post(f"{API}/series", json={"options": {"phyrexian_as_hybrid": True}}))
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["rules"]["options"] == {"phyrexian_as_hybrid": True}
