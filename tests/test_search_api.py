"""/candidates?q=…&sort=…: the search language over the candidates through the API (docs/search.md)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest
from support import assert_envelope, checked
from werkzeug.datastructures import MultiDict

from mentalmagic.search import stat_number
from mentalmagic.web.api import _search_apart

API = "/api/v1"


def get(client, **args):
    response = checked(client.get(f"{API}/candidates?{urlencode(args, doseq=True)}"))
    return response, response.get_json()


def test_a_query_narrows_the_candidates_and_never_adds_one(client):
    _, plain = get(client, cost="{R}")
    _, some = get(client, cost="{R}", q="t:creature pow>=2")
    plain_names = [c["name"] for c in plain["candidates"]]
    got = [c["name"] for c in some["candidates"]]
    assert got and set(got) < set(plain_names)
    assert got == [n for n in plain_names if n in got]  # in the plain answer's order
    assert some["count"] == len(got)
    assert all("Creature" in c["type_line"] and stat_number(c["power"]) >= 2 for c in some["candidates"])


def test_type_and_keyword_stay_shorthands_beside_a_query(client):
    _, both = get(client, cost="{R}", type="creature", q="pow>=2")
    _, query = get(client, cost="{R}", q="t:creature pow>=2")
    assert both["candidates"] == query["candidates"]


def test_french_words_read_as_the_card_datas_english(client):
    _, fr = get(client, cost="{R}", q="t:créature kw:célérité or t:éphémère")
    _, en = get(client, cost="{R}", q="t:creature kw:célérité or t:instant")
    assert fr["candidates"] == en["candidates"] and fr["count"]


@pytest.mark.parametrize("sort, key", [("mv", "mana_value"), ("power", "power"), ("toughness", "toughness")])
def test_sort_orders_the_candidates_then_by_name(client, sort, key):
    _, plain = get(client, cost="{2}{W}")
    _, by = get(client, cost="{2}{W}", sort=sort)
    assert sorted(c["name"] for c in by["candidates"]) == sorted(c["name"] for c in plain["candidates"])
    values = [c[key] if key == "mana_value" else stat_number(c[key]) for c in by["candidates"]]
    known = [v for v in values if v is not None]
    assert known == sorted(known) and all(v is None for v in values[len(known):])
    _, page = get(client, cost="{2}{W}", sort=sort, offset=1, limit=2)
    assert page["candidates"] == by["candidates"][1:3]  # a page of the sorted list


def test_an_unknown_sort_is_a_422(client):
    assert_envelope(client.get(f"{API}/candidates?cost=R&sort=price"), 422)


@pytest.mark.parametrize("q, code, at", [("t:creature foo:bar", "query.unknown_key", 12),
                                         ("t:creature (o:flying", "query.unfinished", 21),
                                         ("pow>=two", "query.not_a_number", 6)])
def test_a_query_that_cant_be_read_is_a_422_saying_where(client, q, code, at):
    error = assert_envelope(client.get(f"{API}/candidates?{urlencode({'cost': '{R}', 'q': q})}"), 422)
    assert error["code"] == "invalid_query" and error["message_code"] == code
    assert error["params"]["at"] == at and "q" in error["fields"]
    fr = assert_envelope(client.get(f"{API}/candidates?{urlencode({'cost': '{R}', 'q': q, 'lang': 'fr'})}"), 422)
    assert fr["message_code"] == code and fr["message"] != error["message"]  # worded from the catalogue


def test_an_empty_answer_says_the_query_left_the_names_out_not_a_rule(client):
    _, body = get(client, printed="Shock", q="t:planeswalker")
    assert body["count"] == 0 and body["excluded"]
    queried = [x for x in body["excluded"] if x["rule"] is None]
    assert queried and all("t:planeswalker" in x["reason"] for x in queried)
    ruled = [x for x in body["excluded"] if x["rule"]]
    assert {x["name"] for x in ruled} == {"Shock"}  # the printed card itself (704.1), by a rule


def test_is_free_and_is_taken_read_the_games_names(client):
    from driver import Game

    g = Game(client, library=["Shock"] * 4)
    ana = g.pids[0]
    card = g.draw(ana)[0]
    g.cast(ana, card, "Goblin Guide")  # Shock named Goblin Guide: the name is taken (704.2)
    game = g.id
    _, taken = get(client, cost="{R}", game=game, q="is:taken")
    assert [c["name"] for c in taken["candidates"]] == ["Goblin Guide"]
    _, free = get(client, cost="{R}", game=game, q="t:goblin is:free")
    assert "Goblin Guide" not in [c["name"] for c in free["candidates"]] and free["count"]


def test_the_openapi_document_lists_q_and_sort(client):
    doc = checked(client.get(f"{API}/openapi.json")).get_json()
    params = {p["name"]: p for p in doc["paths"]["/candidates"]["get"]["parameters"] if p["in"] == "query"}
    assert {"q", "sort"} <= params.keys()
    assert params["sort"]["schema"]["enum"] == ["name", "mv", "power", "toughness"]


# -- the command line: mentalmagic candidates CARD --query … --sort …
@pytest.fixture
def db(tmp_path, monkeypatch, mini_pool, mini_finder):
    import support

    from mentalmagic.storage import connect

    path = tmp_path / "cli.sqlite"
    connect(path).conn.close()
    support.cli_over_session_pool(monkeypatch, mini_pool, mini_finder)
    return path


def cli(db, *args):
    from click.testing import CliRunner

    from mentalmagic.cli import main

    return CliRunner().invoke(main, ["--db", str(db), *args])


def test_the_cli_narrows_and_sorts_the_candidates_as_the_api_does(db, client):
    out = cli(db, "candidates", "Shock", "--query", "t:creature pow>=2", "--sort", "power", "--json")
    assert out.exit_code == 0, out.output
    _, body = get(client, printed="Shock", q="t:creature pow>=2", sort="power")
    assert __import__("json").loads(out.stdout)["candidates"] == [c["name"] for c in body["candidates"]]
    bad = cli(db, "--lang", "fr", "candidates", "Shock", "-q", "t:creature foo:bar")
    assert bad.exit_code != 0 and "foo" in bad.output and "position 12" in bad.output


@pytest.mark.parametrize("raw", ["cost=%7BR%7D&q=t%3Acreature", "q=t:creature+pow>%3D2&cost={R}",
                                 "%71=t:creature&cost={R}", "cost={R}&q=t:creature&q=t:instant", "cost={R}&q=",
                                 "cost={R}&q", "q=t:créature&cost={R}"])
def test_a_search_is_read_apart_from_the_rest_of_its_question_as_the_whole_query_string_would_be(client, raw):
    """The rest of a question with a search is loaded and resolved once, the search read alone at each
    key (web/api.py _search_apart): the same answer as the whole query string read at once (spelt
    with %, +, a key written %71, a repeated q whose first counts, an empty one), asked again too."""
    got = [checked(client.get(f"{API}/candidates?{raw}")).get_json() for _ in range(2)]
    args = MultiDict(parse_qsl(raw, keep_blank_values=True))
    plain = {k: args.getlist(k) for k in args if k != "q"}
    q = args.get("q")  # the first, as request.args.to_dict() takes it
    whole = {**plain, **({"q": q} if q is not None else {})}
    want = checked(client.get(f"{API}/candidates?{urlencode(whole, doseq=True)}"))
    assert got[0] == got[1] == want.get_json()
    apart = _search_apart(raw.encode())  # None: read whole, as before (a key written %71 is rare)
    assert apart is None or (apart[1] == q and ("q", q) not in apart[0])


def test_a_bad_search_and_a_bad_other_field_are_one_422_naming_both(client):
    both = urlencode({"cost": "{R}", "limit": 0, "q": "x" * 501})
    error = assert_envelope(client.get(f"{API}/candidates?{both}"), 422)
    assert {"limit", "q"} <= set(error["fields"])
    alone = assert_envelope(client.get(f"{API}/candidates?{urlencode({'cost': '{R}', 'q': 'x' * 501})}"), 422)
    assert set(alone["fields"]) == {"q"}
