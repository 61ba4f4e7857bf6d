"""Issue 20: `dry_run=1` on an action or a line says what it would do (a loss, the game's end) and
records nothing; a refusal is the same refusal."""

from __future__ import annotations

import pytest
from driver import ANA, API, BOB, CID, JUDGE, Game
from support import assert_envelope, checked

from mentalmagic.web import schemas


def dry(g: Game, who, **action) -> dict:
    before = g.record()
    response = checked(g.client.post(f"{API}/games/{g.id}/actions?dry_run=1", json=action, headers=g.headers(who)))
    body = response.get_json()
    assert response.status_code == 200, body
    assert schemas.ActionOut().validate(body) == {}
    assert body["dry_run"] is True
    assert g.record() == before, "a dry run left a trace"
    return body


def test_a_dry_run_of_a_d8_loss_says_who_loses_and_records_nothing(client):
    # D7: Ana and Cid are team A; Cid's Root Elemental (since the morph) opens no 705.4a for Ana
    g = Game(client, ["Craw Wurm", "Craw Wurm"], players=("Ana", "Bob", "Cid"), teams=("A", "B", "A"))
    [morph] = g.draw(ANA)
    g.morph(ANA, morph)
    [wurm] = g.draw(CID)
    g.cast(CID, wurm, "Root Elemental")
    seen = dry(g, ANA, type="move", card=morph, to="graveyard")
    loss = seen["event"]["data"]["game_loss"]
    assert (loss["player"], loss["rule"], seen["event"]["rule"]) == (ANA, "705.4a", "705.4a")
    assert loss["why"] == "own_side"  # 705.4a closed by a teammate's name (D7)
    assert seen["finished"] is None  # Bob and Cid are two sides: the game goes on
    assert any(c["id"] == morph and c["zone"] == "removed" for c in seen["cards"])
    done = g.do(ANA, type="move", card=morph, to="graveyard")["event"]
    assert {k: v for k, v in done.items() if k != "at"} == {k: v for k, v in seen["event"].items() if k != "at"}


def test_a_dry_run_of_the_last_departure_says_the_game_would_end(client):
    g = Game(client, ["Shock"], players=("Ana", "Bob"))
    seen = dry(g, JUDGE, type="leave_game", player=BOB)
    assert seen["finished"] == {"seq": 1, "by": "last_side", "winners": [ANA], "rule": "104.2a"}
    assert g.view()["status"] == "active"


def test_a_dry_run_is_refused_as_the_action_would_be(client):
    g = Game(client, ["Shock"])
    before = g.record()
    error = assert_envelope(g.client.post(f"{API}/games/{g.id}/actions?dry_run=1", json={
        "type": "search", "player": ANA}, headers=g.headers(ANA)), 409)
    assert (error["code"], error["rule"]) == ("search_refused", "701.1a")
    assert_envelope(g.client.post(f"{API}/games/{g.id}/actions?dry_run=maybe", json={
        "type": "draw", "player": ANA, "count": 1}, headers=g.headers(ANA)), 422)
    assert g.record() == before


@pytest.mark.parametrize(("line", "key"), [("ben leave", "event"), ("undo", "undone")])
def test_a_line_dry_run_records_nothing(client, line, key):
    g = Game(client, ["Shock", "Savannah Lions"], players=("Ana", "Ben"))
    g.draw(ANA)
    before = g.record()
    response = checked(g.client.post(f"{API}/games/{g.id}/line?dry_run=1", json={"line": line},
                                     headers=g.headers(JUDGE)))
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["dry_run"] is True and body[key]["seq"] in (1, 2)
    assert g.record() == before
