"""Candidate lists encoded once and spliced per request (issue 8) mean exactly what the plain
encoding (views.candidate_json, card_json) says: same fields, same order, same values."""

from __future__ import annotations

import json
import random
import urllib.request
from urllib.parse import quote

import pytest
import support

from mentalmagic.index import explain_empty
from mentalmagic.search import Narrowed, parse
from mentalmagic.web.encoding import FILE_BODY_BYTES, Encoded, OrjsonProvider
from mentalmagic.web.views import candidate_json, card_json


def plain(finder, card, fmt="vintage", taken=frozenset(), offset=0, limit=None, type_=None, keyword=None):
    """The answer as the view used to build it: dicts, then one encoding."""
    res = finder.candidates(printed=card, fmt=fmt, type_=type_, keyword=keyword)
    bans = finder.pool.bans
    end = None if limit is None else offset + limit
    body = {
        "printed": card_json(card, finder.pool),
        "costs": [str(c) for c in res.costs],
        "format": res.format,
        "count": len(res.candidates),
        "candidates": [candidate_json(n, n.key in taken, bans.status(n.card) == "watched")
                       for n in res.candidates[offset:end]],
        "unknown_faces": list(res.unknown_faces),
    }
    if not res.candidates:  # an empty answer says why (index.explain_empty)
        body["excluded"] = [{"name": x.name, "french_name": x.french_name, "rule": x.rule, "reason": str(x.reason)}
                            for x in explain_empty(finder.pool, printed=card, fmt=fmt, type_=type_, keyword=keyword)]
    return body


def drawable(pool, n, seed):
    rng = random.Random(seed)
    cards = [c for c in pool.cards if c.in_library and c.printed_costs]
    return rng.sample(cards, n)


def test_every_candidates_answer_is_the_plain_encoding(cards_client, finder):
    cards = drawable(finder.pool, 40, 8) + [finder.pool.lookup(n) for n in ("Boros Guildmage", "Fire // Ice")]
    for card in cards:
        got = cards_client.get("/api/v1/candidates", query_string={"printed": card.name})
        assert got.status_code == 200 and got.mimetype == "application/json"
        want = plain(finder, card)
        assert got.get_json() == want, card.name
        assert list(json.loads(got.data)) == list(want)  # docs/api.md's field order
        assert got.data.decode("utf-8")  # UTF-8 as is, like ensure_ascii=False


@pytest.mark.parametrize("query", [
    {"offset": 0, "limit": 50}, {"offset": 3, "limit": 1}, {"offset": 10**6}, {"offset": 0, "limit": 2},
    {"type": "creature"}, {"keyword": "flying", "limit": 5}, {"format": "pauper", "offset": 7},
])
def test_pages_and_filters_are_the_plain_encoding(cards_client, finder, query):
    for card in drawable(finder.pool, 8, str(query)) + [finder.pool.lookup("Boros Guildmage")]:
        got = cards_client.get("/api/v1/candidates", query_string={"printed": card.name, **query})
        assert got.status_code == 200
        want = plain(finder, card, fmt=query.get("format", "vintage"), offset=query.get("offset", 0),
                     limit=query.get("limit"), type_=query.get("type"), keyword=query.get("keyword"))
        assert got.get_json() == want, (card.name, query)


def test_a_splice_drops_the_printed_faces_and_marks_taken_names_anywhere_in_a_page(finder):
    enc = Encoded(finder.pool)
    rng = random.Random(704)
    for card in drawable(finder.pool, 30, 704):
        base = finder.names_for(card.printed_costs)
        keys = [n.key for n in base]
        taken = frozenset(rng.sample(keys, min(len(keys), rng.randint(0, 40)))) | {"not a name"}
        if keys and rng.random() < 0.3:
            taken |= card.face_names  # a taken name that is also excluded stays excluded
        offset = rng.choice([0, 0, 1, rng.randint(0, len(keys) + 2)])
        limit = rng.choice([None, 1, 2, 50, rng.randint(0, len(keys) + 2)])
        count, page = enc.candidates(base).render(card.face_names, taken, offset, limit)
        want = plain(finder, card, taken=taken, offset=offset, limit=limit)
        assert count == want["count"]
        assert json.loads(b"[" + b"".join(page) + b"]") == want["candidates"], card.name
        # a list answered once (a search's, new at each key) is made from the kept entries alike
        once_count, once = enc.render_once(base, card.face_names, taken, offset, limit)
        assert (once_count, b"".join(once)) == (count, b"".join(page)), card.name


@pytest.mark.parametrize("q", ["t:creature", "-t:basic", "c:r -t:instant", "zz", "t:land or mv=0"])
def test_a_searchs_list_is_cut_from_its_whole_lists_entries_as_the_list_itself_encodes(finder, q):
    """A search's answer (search.Narrowed) is cut from the entries of the list it narrowed, kept per
    list: the same bytes as the narrowed names encoded one by one, taken names marked anywhere."""
    enc = Encoded(finder.pool)
    rng = random.Random(q)
    for card in drawable(finder.pool, 12, q):
        base = finder.names_for(card.printed_costs)
        narrowed = parse(q).keep(base, finder.context())
        assert isinstance(narrowed, Narrowed) and narrowed.within is base
        keys = [n.key for n in narrowed]
        taken = frozenset(rng.sample(keys, min(len(keys), rng.randint(0, 5))))
        for offset, limit in ((0, None), (1, 2), (0, 100)):
            want = enc.candidates(tuple(narrowed)).render(frozenset(), taken, offset, limit)  # a list of its own
            count, page = enc.render_once(narrowed, frozenset(), taken, offset, limit)
            assert (count, b"".join(page)) == (want[0], b"".join(want[1])), (card.name, q)


def test_the_same_question_reuses_its_bytes(finder):
    enc = Encoded(finder.pool)
    base = finder.names_for(finder.pool.lookup("Boros Guildmage").printed_costs)
    assert base is finder.names_for(finder.pool.lookup("Boros Guildmage").printed_costs)
    assert enc.candidates(base) is enc.candidates(base)


def test_the_json_provider_keeps_flask_shapes(cards_app):
    provider = OrjsonProvider(cards_app)
    assert provider.loads(provider.dumps({"é": 1, "b": [1.5, None], 2: "x"})) == {"é": 1, "b": [1.5, None], "2": "x"}
    assert list(provider.loads(provider.dumps({"z": 1, "a": 2}))) == ["z", "a"]  # never sorted
    import datetime

    assert provider.dumps(datetime.date(2026, 1, 2)) == '"Fri, 02 Jan 2026 00:00:00 GMT"'  # Flask's own
    with pytest.raises(ValueError):
        provider.loads("{not json")


def test_autocomplete_answers_are_the_plain_encoding(cards_client, finder):
    from mentalmagic.web.views import card_summary

    for q in ["fire", "lions des", "st", "Æther", "zzzz-none", "bo"]:
        got = cards_client.get("/api/v1/cards", query_string={"q": q, "limit": 7})
        assert got.status_code == 200 and got.mimetype == "application/json"
        assert got.get_json() == {"cards": [card_summary(c) for c in finder.pool.search(q, 7)]}


def test_large_answers_reach_a_real_server_whole(cards_app):
    """A body over FILE_BODY_BYTES goes to waitress as a file (encoding.body_response): over real
    HTTP it is the very bytes the app answers, with their Content-Length; HEAD sends none of them."""
    client = cards_app.test_client()
    paths = ["/api/v1/candidates?printed=" + quote("Boros Guildmage"),  # ~60 kB
             "/api/v1/candidates?printed=" + quote("Boros Guildmage") + "&limit=2",  # small
             "/api/v1/cards?q=bo&limit=100", "/api/v1/openapi.json"]
    sizes = []
    with support.served(cards_app) as root:
        for path in paths:
            want = client.get(path).data
            with cards_app.test_request_context(path):  # the app's own response, before any client
                made = cards_app.full_dispatch_request()
                assert made.direct_passthrough is (len(want) >= FILE_BODY_BYTES)  # handed over as a file
                made.close()
            with urllib.request.urlopen(root + path, timeout=30) as r:
                got, length = r.read(), r.headers["Content-Length"]
            assert got == want and int(length) == len(want), path
            sizes.append(len(want))
            head = urllib.request.Request(root + path, method="HEAD")
            with urllib.request.urlopen(head, timeout=30) as r:
                assert r.read() == b"" and int(r.headers["Content-Length"]) == len(want), path
    assert min(sizes) < FILE_BODY_BYTES < max(sizes)  # both ways of answering were taken


def test_a_remembered_question_still_reads_the_game_afresh(tmp_path_factory, card_db_path, pool, finder):
    """/candidates remembers a query string's validation (api.loaded_args), never the game's taken
    names: the same question asked after a card was named marks that name taken (704.2)."""
    app = support.games_app(tmp_path_factory, card_db_path, pool, finder, "encoding_taken")
    client = app.test_client()
    created = client.post("/api/v1/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}],
                                                 "library": ["Lightning Bolt", "Shock", "Savannah Lions"],
                                                 "shuffle": False}).get_json()
    ana = {"Authorization": f"Bearer {created['players'][0]['token']}"}
    path = "/api/v1/candidates?" + f"printed={quote('Lightning Bolt')}&game={created['id']}"

    def taken() -> dict:
        return {c["name"]: c["taken"] for c in client.get(path).get_json()["candidates"]}

    assert taken()["Shock"] is False
    drawn = client.post(f"/api/v1/games/{created['id']}/actions", json={"type": "draw", "count": 1},
                        headers=ana).get_json()["event"]["data"]["cards"][0]
    named = client.post(f"/api/v1/games/{created['id']}/actions", headers=ana,
                        json={"type": "move", "card": drawn, "to": "stack", "name": "Shock"})
    assert named.status_code == 200, named.get_json()
    assert taken()["Shock"] is True
    bad = client.get(path + "&limit=0")  # a refused question is refused each time it is asked
    assert bad.status_code == 422 and client.get(path + "&limit=0").status_code == 422


def test_only_short_questions_are_remembered(cards_client):
    """A query the schema reads once may still be long (a key repeated): loaded, answered, not kept."""
    from mentalmagic.web import api

    short = "printed=Shock&limit=3"
    long = "printed=Shock&limit=3&printed=" + "A" * 2000  # the first printed= is the one read
    for query in (short, long):
        got = cards_client.get("/api/v1/candidates?" + query)
        assert got.status_code == 200 and got.get_json()["printed"]["name"] == "Shock"
    kept = {q for (_, q) in api._LOADED}
    assert short.encode() in kept and long.encode() not in kept


def test_an_empty_answers_reasons_are_kept_per_language(cards_client):
    """The reasons of an empty answer are encoded once per question and language: a French
    question first never words the next English one in French."""
    query = {"printed": "Amnesia", "format": "pauper", "offset": 7}
    french = cards_client.get("/api/v1/candidates", query_string={**query, "lang": "fr"}).get_json()
    english = cards_client.get("/api/v1/candidates", query_string=query).get_json()
    assert french["count"] == english["count"] == 0 or french["excluded"]
    assert [x["reason"] for x in french["excluded"]] != [x["reason"] for x in english["excluded"]]
    assert "printed card itself" in english["excluded"][0]["reason"]
