"""A game's part of a /candidates question (lookups.candidate_query: its format, option, rule set,
taken names, a player's commanders) is kept per game version and player: the same question after
the game changed reads the new version, and a refusal is never kept."""

from __future__ import annotations

from urllib.parse import quote

from support import assert_envelope, checked

API = "/api/v1"


def test_a_players_question_reads_each_new_version_and_an_unknown_player_is_refused_each_time(client):
    created = checked(client.post(f"{API}/games", json={
        "players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Lightning Bolt", "Shock", "Savannah Lions"],
        "shuffle": False})).get_json()
    gid, ana = created["id"], {"Authorization": f"Bearer {created['players'][0]['token']}"}
    path = f"{API}/candidates?printed={quote('Lightning Bolt')}&game={gid}&player=p1"

    def taken() -> dict:
        response = checked(client.get(path))
        assert response.status_code == 200, response.get_json()
        return {c["name"]: c["taken"] for c in response.get_json()["candidates"]}

    assert taken()["Shock"] is False
    assert taken()["Shock"] is False  # asked again at the same version
    drawn = checked(client.post(f"{API}/games/{gid}/actions", json={"type": "draw", "count": 1},
                                headers=ana)).get_json()["event"]["data"]["cards"][0]
    named = checked(client.post(f"{API}/games/{gid}/actions", headers=ana,
                                json={"type": "move", "card": drawn, "to": "stack", "name": "Shock"}))
    assert named.status_code == 200, named.get_json()
    assert taken()["Shock"] is True
    undone = checked(client.post(f"{API}/games/{gid}/undo", headers={
        "Authorization": f"Bearer {created['judge_token']}"}))
    assert undone.status_code == 200, undone.get_json()
    assert taken()["Shock"] is False  # the undo is a new version too
    for _ in range(2):
        assert_envelope(checked(client.get(path.replace("player=p1", "player=p9"))), 422)
