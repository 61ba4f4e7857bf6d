"""Issue 20: `dry_run=1` on an action or a line says what it would do (a loss, the game's end) and
records nothing; a refusal is the same refusal. Issue 30: it shows no more than the move would (D15):
a preview of an action that would show its caller hidden cards (a draw, a look, a reveal) shows the
event's shape and its consequences, never the cards' printed names or stable ids; the judge's token
sees everything, as the judge does."""

from __future__ import annotations

import json
import re

import pytest
from driver import ANA, API, BOB, CID, JUDGE, Game
from support import assert_envelope, checked

from mentalmagic.web import schemas


def dry(g: Game, who, **action) -> dict:
    return dry_at(g, who, "actions", action)


def dry_at(g: Game, who, path: str, sent: dict) -> dict:
    """A dry run to /actions or /line: a 200 its schema validates, and nothing recorded."""
    before = g.record()
    response = checked(g.client.post(f"{API}/games/{g.id}/{path}?dry_run=1", json=sent, headers=g.headers(who)))
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


# -- issue 30: a dry run shows no more than the move would (D15) ------------------------------------
LIBRARY = ["Shock", "Savannah Lions", "Lightning Bolt", "Craw Wurm", "Giant Growth", "Counterspell",
           "Grizzly Bears", "Mana Leak", "Llanowar Elves", "Opt", "Incinerate", "Ornithopter"]
HEX = re.compile(r"\b[0-9a-f]{10}\b")


def hidden_from(g: Game, who) -> tuple[set[str], set[str]]:
    """The stable ids and printed names of the library cards ``who`` doesn't see now."""
    mine = {c["id"] for c in g.view(who)["cards"] if "printed" in c}
    library = [c for c in g.view()["cards"] if c["zone"] == "library" and c["id"] not in mine]
    return {c["id"] for c in library}, {c["printed"] for c in library}


def assert_shows_no_hidden_card(g: Game, who, answer: dict) -> None:
    ids, printed = hidden_from(g, who)
    text = json.dumps(answer)
    assert not [cid for cid in ids if cid in text], answer
    assert not [name for name in printed if f'"{name}"' in text], answer
    assert all("printed" not in c for c in answer["cards"]), answer


ACTIONS = [
    ("actions", {"type": "look", "player": ANA, "count": 10}),
    ("actions", {"type": "draw", "player": ANA, "count": 3}),
    ("actions", {"type": "reveal", "player": ANA, "count": 2}),
    ("line", {"line": "ana draw 1"}),
    ("line", {"line": "ana look top 3"}),
    ("line", {"line": "ana reveal top 2"}),
]


@pytest.mark.parametrize(("path", "body"), ACTIONS)
def test_a_players_dry_run_shows_no_library_card(client, path, body):
    g = Game(client, LIBRARY)
    answer = dry_at(g, ANA, path, body)
    assert_shows_no_hidden_card(g, ANA, answer)
    count = body.get("count") or int(body.get("line", "0").split()[-1])
    assert len(answer["event"]["data"]["cards"]) == count  # the event's shape: how many, not which
    assert answer["event"]["type"] in ("look", "draw", "reveal")


@pytest.mark.parametrize(("path", "body"), ACTIONS)
def test_the_judges_dry_run_shows_the_cards_as_the_judge_sees_them(client, path, body):
    g = Game(client, LIBRARY)
    answer = dry_at(g, JUDGE, path, body)
    top = [c["id"] for c in g.view()["cards"] if c["zone"] == "library"]
    assert set(answer["event"]["data"]["cards"]) <= set(top)


def test_the_real_action_still_shows_what_it_shows(client):
    g = Game(client, LIBRARY)
    seen = g.do(ANA, type="look", player=ANA, count=3)
    assert sorted(c["printed"] for c in seen["cards"]) == sorted(LIBRARY[:3])


def test_a_dry_run_of_a_card_the_caller_sees_keeps_its_id(client):
    g = Game(client, LIBRARY)
    [card] = g.draw(ANA)
    answer = dry_at(g, ANA, "actions", {"type": "reveal", "player": ANA, "cards": [card]})
    assert answer["event"]["data"]["cards"] == [card]
    assert [c["printed"] for c in answer["cards"]] == ["Shock"]


def _normalised(answer: dict) -> str:
    """An answer with every id or handle as a placeholder, its time left out: what it tells of the cards."""
    answer = {**answer, "event": {k: v for k, v in answer["event"].items() if k != "at"}}
    return HEX.sub("#", json.dumps(answer, sort_keys=True))


def _around_a_draw(client, library: list[str]) -> list[str]:
    """Ana's dry runs before and after Bob draws two cards: what they tell her, normalised."""
    g = Game(client, library)
    said = [dry_at(g, ANA, "actions", {"type": "look", "player": ANA, "count": 4}),
            dry_at(g, ANA, "line", {"line": "ana draw 3"})]
    g.draw(BOB, 2)
    said += [dry_at(g, ANA, "actions", {"type": "look", "player": ANA, "count": 4}),
             dry_at(g, ANA, "line", {"line": "ana draw 3"})]
    for a in said:
        assert_shows_no_hidden_card(g, ANA, a)
    handles = [set(HEX.findall(json.dumps(a["event"]))) for a in said]
    assert not handles[0] & handles[2] and not handles[1] & handles[3], "a handle links two dry runs"
    return [_normalised(a) for a in said]


def test_two_dry_runs_around_an_opponents_draw_dont_tell_which_cards_they_drew(client):
    swapped = [LIBRARY[2], LIBRARY[3], LIBRARY[0], LIBRARY[1], *LIBRARY[4:]]  # Bob draws other cards
    assert _around_a_draw(client, LIBRARY) == _around_a_draw(client, swapped)
