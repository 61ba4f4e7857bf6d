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


def test_a_check_within_a_game_is_answered_anew_when_a_name_is_taken_and_in_each_language(client):
    """/check's answers are kept per question and language (encoding.Encoded.checked): the same
    query string after the game took the name reads the new version, and each language its own words."""
    created = checked(client.post(f"{API}/games", json={
        "players": [{"name": "Ana"}, {"name": "Bob"}], "library": ["Lightning Bolt", "Shock"],
        "shuffle": False})).get_json()
    gid, ana = created["id"], {"Authorization": f"Bearer {created['players'][0]['token']}"}
    path = f"{API}/check?printed={quote('Lightning Bolt')}&name=Shock&game={gid}"

    def verdict(lang: str = "en") -> dict:
        response = checked(client.get(path, headers={"Accept-Language": lang}))
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    english, french = verdict(), verdict("fr")
    assert english["legal"] is True and french["legal"] is True
    assert english["reasons"][0]["rule"] == french["reasons"][0]["rule"] == "704.1"
    assert english["reasons"][0]["message"] != french["reasons"][0]["message"]
    assert verdict() == english and verdict("fr") == french  # asked again: the same answer
    drawn = checked(client.post(f"{API}/games/{gid}/actions", json={"type": "draw", "count": 1},
                                headers=ana)).get_json()["event"]["data"]["cards"][0]
    named = checked(client.post(f"{API}/games/{gid}/actions", headers=ana,
                                json={"type": "move", "card": drawn, "to": "stack", "name": "Shock"}))
    assert named.status_code == 200, named.get_json()
    for lang in ("en", "fr"):
        taken = verdict(lang)
        assert taken["legal"] is False and [r["rule"] for r in taken["reasons"]] == ["704.2"], taken


def test_a_question_without_a_game_is_resolved_per_card_pool(client, snapshot_client):
    """The same query string, resolved once and kept (api.load_query), answers from each app's own
    pool: the mini pool's few cards of {R}, the snapshot's many; and a card only one pool holds is
    found there and refused (404) by the other, each time."""
    path = f"{API}/candidates?printed={quote('Lightning Bolt')}"
    for _ in range(2):
        mini, full = (checked(c.get(path)).get_json()["count"] for c in (client, snapshot_client))
        assert 0 < mini < full, (mini, full)
    only_full = f"{API}/candidates?printed={quote('Storm Crow')}"
    for _ in range(2):
        assert checked(snapshot_client.get(only_full)).status_code == 200
        assert_envelope(checked(client.get(only_full)), 404)
