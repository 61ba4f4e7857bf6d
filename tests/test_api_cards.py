"""The cards API (docs/api.md, "Conventions" and "Cards and costs"): every endpoint's status
and shape, validated with the marshmallow output schemas, and the OpenAPI document.

The last tests walk the whole snapshot through the test client."""

from __future__ import annotations

import random
import re
from urllib.parse import quote, urlencode

import pytest

from mentalmagic.carddata import KNOWN_GAPS, SNAPSHOT_2026_11_21
from mentalmagic.formats import FORMATS
from mentalmagic.mana import ManaCost
from mentalmagic.names import fold
from mentalmagic.web import schemas

API = "/api/v1"

# Field names docs/api.md makes binding (more may be added, none renamed or dropped).
CARD_FIELDS = {"name", "french_name", "layout", "faces", "legalities", "mental_magic"}
FACE_FIELDS = {"name", "french_name", "mana_cost", "mana_value", "type_line", "keywords", "text"}
SUMMARY_FIELDS = {"name", "french_name", "mana_cost"}
CANDIDATES_FIELDS = {"printed", "costs", "format", "count", "candidates"}
CANDIDATE_FIELDS = {"name", "french_name", "mana_cost", "type_line", "taken", "watched"}
CHECK_FIELDS = {"legal", "reasons"}
REASON_FIELDS = {"rule", "message"}


def get(client, path: str, **params):
    url = API + path + ("?" + urlencode(params) if params else "")
    response = client.get(url)
    assert response.is_json, (url, response.status_code, response.data[:200])
    return response.status_code, response.get_json()


def card_url(name: str) -> str:
    return "/cards/" + quote(name, safe="")


def ok(client, path: str, schema, **params) -> dict:
    status, body = get(client, path, **params)
    assert status == 200, body
    assert schema.validate(body) == {}, body
    return body


def assert_card_shape(card: dict) -> None:
    assert CARD_FIELDS <= card.keys()
    for f in card["faces"]:
        assert FACE_FIELDS <= f.keys()
    assert set(card["legalities"].values()) <= {"legal", "banned", "restricted"}
    assert card["mental_magic"] in ("banned", "watched", None)


# -- /health ---------------------------------------------------------------------------------------
def test_health_describes_the_card_source(snapshot_client, pool):
    body = ok(snapshot_client, "/health", schemas.HealthOut())
    assert body["status"] == "ok"
    assert body["card_count"] == len(pool) == 34344
    # the embedded snapshot's known gaps (cards/README.md), also listed in the page footer
    assert body["lacks"] == KNOWN_GAPS[SNAPSHOT_2026_11_21] == list(pool.info.lacks)
    assert [c["message_code"] for c in body["lack_codes"]] == [
        "source.gap.french_names", "source.gap.later_faces", "source.gap.legalities"]
    assert body["legalities_known"] is True and body["french_known"] is True
    assert body["unresolved_bans"] == []  # Arrache-pensées and Sorcier devin are resolved in the CSV
    assert set(FORMATS) <= set(body["formats"])


# -- /cards/{name} ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("Savannah Lions", "Savannah Lions"),
        ("savannah lions", "Savannah Lions"),
        ("SAVANNAH LIONS", "Savannah Lions"),
        ("Lions des savanes", "Savannah Lions"),
        ("lions des savanes", "Savannah Lions"),
        ("Représentation de la destinée", "Figure of Destiny"),
        ("representation de la destinee", "Figure of Destiny"),
        ("Esclavagiste d'âmes", "Mindslaver"),
        ("esclavagiste d’ames", "Mindslaver"),
        ("Fire // Ice", "Fire // Ice"),
        ("fire // ice", "Fire // Ice"),
        ("Ice", "Fire // Ice"),
        ("Feu // Glace", "Fire // Ice"),
        ("glace", "Fire // Ice"),
        ("Delver of Secrets // Insectile Aberration", "Delver of Secrets // Insectile Aberration"),
        ("Insectile Aberration", "Delver of Secrets // Insectile Aberration"),
        ("Sondeur de secrets", "Delver of Secrets // Insectile Aberration"),
        ("aberration insectoide", "Delver of Secrets // Insectile Aberration"),
        ("Stomp", "Bonecrusher Giant // Stomp"),
        ("Æther Vial", "Aether Vial"),
    ],
)
def test_a_card_is_found_in_english_or_french_by_any_face(snapshot_client, query, name):
    body = ok(snapshot_client, card_url(query), schemas.CardOut())
    assert body["name"] == name
    assert_card_shape(body)


def test_a_split_card_shows_both_halves_in_both_languages(client):
    body = ok(client, card_url("Fire // Ice"), schemas.CardOut())
    assert body["french_name"] == "Feu // Glace"
    assert body["layout"] == "split"
    assert [(f["name"], f["french_name"], f["mana_cost"], f["mana_value"]) for f in body["faces"]] == [
        ("Fire", "Feu", "{1}{R}", 2), ("Ice", "Glace", "{1}{U}", 2)]
    assert body["legalities"]["vintage"] == "legal"
    assert body["mental_magic"] is None


def test_an_unknown_face_cost_is_null_and_no_mana_cost_is_empty(client):
    giant = ok(client, card_url("Bonecrusher Giant // Stomp"), schemas.CardOut())
    assert giant["french_name"] is None  # unknown: printed after the French data
    assert [f["mana_cost"] for f in giant["faces"]] == ["{2}{R}", None]
    forest = ok(client, card_url("Forest"), schemas.CardOut())
    assert forest["faces"][0]["mana_cost"] == ""
    assert forest["faces"][0]["mana_value"] == 0


@pytest.mark.parametrize(
    ("name", "status"),
    [("Abundance", "banned"), ("Scroll Rack", "banned"), ("Liar's Pendulum", "watched"),
     ("Erayo's Essence", "watched"), ("Savannah Lions", None)],
)
def test_a_card_shows_its_mental_magic_status(snapshot_client, name, status):
    assert ok(snapshot_client, card_url(name), schemas.CardOut())["mental_magic"] == status


def test_a_restricted_card_shows_its_legalities(client):
    body = ok(client, card_url("Ancestral Recall"), schemas.CardOut())
    assert body["legalities"]["vintage"] == "restricted"
    assert body["legalities"]["legacy"] == "banned"


# -- /cards?q= -------------------------------------------------------------------------------------
def matches_query(card, q: str) -> bool:
    labels = {card.name, card.french_name, *(f.name for f in card.faces), *(f.french_name for f in card.faces)}
    pattern = re.compile(r"(^|[\s\-,'/(])" + re.escape(fold(q)))
    return any(pattern.search(fold(label)) for label in labels if label)


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("savannah", "Savannah Lions"),
        ("lions des", "Savannah Lions"),  # a French prefix
        ("savanes", "Savannah Lions"),  # a French word
        ("LIONS DES SAVANES", "Savannah Lions"),
        ("destinée", "Figure of Destiny"),
        ("glace", "Fire // Ice"),
        ("insectile", "Delver of Secrets // Insectile Aberration"),
    ],
)
def test_search_finds_prefix_and_word_matches_in_both_languages(snapshot_client, pool, q, expected):
    body = ok(snapshot_client, "/cards", schemas.SearchOut(), q=q, limit=100)
    names = [c["name"] for c in body["cards"]]
    assert expected in names
    for c in body["cards"]:
        assert SUMMARY_FIELDS <= c.keys()
        assert matches_query(pool.lookup(c["name"]), q), c["name"]


def test_search_honours_the_limit_and_defaults_to_twenty(snapshot_client):
    assert len(ok(snapshot_client, "/cards", schemas.SearchOut(), q="lion", limit=3)["cards"]) == 3
    assert len(ok(snapshot_client, "/cards", schemas.SearchOut(), q="a")["cards"]) == 20


def test_search_shows_the_split_cost_of_a_split_card(client):
    body = ok(client, "/cards", schemas.SearchOut(), q="Fire // Ice", limit=1)
    assert body["cards"] == [{"name": "Fire // Ice", "french_name": "Feu // Glace", "mana_cost": "{1}{R} // {1}{U}"}]


# -- /candidates -----------------------------------------------------------------------------------
def test_candidates_for_a_cost_have_the_documented_shape(snapshot_client):
    body = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{W}{U}")
    assert CANDIDATES_FIELDS <= body.keys()
    assert body["printed"] is None
    assert body["format"] == "vintage"
    assert body["costs"] == ["{W}{U}"]
    assert body["count"] == len(body["candidates"]) > 0
    for c in body["candidates"]:
        assert CANDIDATE_FIELDS <= c.keys()
        assert c["taken"] is False
        assert ManaCost.parse(c["mana_cost"]).matches(ManaCost.parse("{W}{U}"))
    names = [c["name"] for c in body["candidates"]]
    assert names == sorted(names, key=lambda s: (s.casefold(), s))


def test_candidates_accept_symbols_in_any_order_and_answer_in_canonical_order(client):
    a = ok(client, "/candidates", schemas.CandidatesOut(), cost="{U}{1}{R/W}")
    b = ok(client, "/candidates", schemas.CandidatesOut(), cost="{W/R}{U}{1}")
    assert a == b
    assert a["costs"] == sorted(a["costs"], key=lambda c: (ManaCost.parse(c).mana_value, c))
    assert set(a["costs"]) == {"{1}{U}{R}", "{1}{W}{U}"}


def test_candidates_for_a_printed_card_include_the_printed_card(client):
    body = ok(client, "/candidates", schemas.CandidatesOut(), printed="Lions des savanes")
    assert body["printed"]["name"] == "Savannah Lions"
    assert_card_shape(body["printed"])
    assert body["costs"] == ["{W}"]
    assert "Savannah Lions" not in [c["name"] for c in body["candidates"]]


@pytest.mark.parametrize(("cost", "none"), [("", "none"), ("none", "")])
def test_empty_cost_and_none_both_mean_no_mana_cost(client, cost, none):
    a = ok(client, "/candidates", schemas.CandidatesOut(), cost=cost)
    assert a == ok(client, "/candidates", schemas.CandidatesOut(), cost=none)
    assert a["costs"] == [""]
    assert {c["mana_cost"] for c in a["candidates"]} == {""}
    zero = ok(client, "/candidates", schemas.CandidatesOut(), cost="{0}")
    assert {c["mana_cost"] for c in zero["candidates"]} == {"{0}"}


def test_limit_and_offset_page_through_the_same_list(snapshot_client):
    full = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{1}{R}")["candidates"]
    assert len(full) > 50
    pages = []
    for offset in range(0, len(full), 50):
        body = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{1}{R}", limit=50, offset=offset)
        assert body["count"] == len(full)
        assert len(body["candidates"]) <= 50
        pages.extend(body["candidates"])
    assert pages == full
    past = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{1}{R}", offset=len(full) + 5)
    assert past["candidates"] == [] and past["count"] == len(full)


def test_offset_alone_skips_the_first_candidates(client):
    full = ok(client, "/candidates", schemas.CandidatesOut(), cost="{U}")["candidates"]
    assert ok(client, "/candidates", schemas.CandidatesOut(), cost="{U}", offset=10)["candidates"] == full[10:]


def test_the_type_filter_keeps_only_that_type(snapshot_client, pool):
    body = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{1}{W}", type="creature")
    assert body["candidates"]
    assert all("creature" in c["type_line"].lower() for c in body["candidates"])
    everything = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{1}{W}")
    assert body["count"] < everything["count"]


def test_the_keyword_filter_keeps_only_that_keyword(snapshot_client, pool):
    body = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{4}{W}{W}", keyword="morph")
    names = [c["name"] for c in body["candidates"]]
    assert "Exalted Angel" in names
    for name in names:
        assert "Morph" in pool.lookup(name).front.keywords
    both = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{4}{W}{W}", keyword="morph",
              type="creature")
    assert both["candidates"] == body["candidates"]


@pytest.mark.parametrize(
    ("fmt", "card", "present"),
    [("vintage", "Ancestral Recall", False), ("legacy", "Brainstorm", True), ("vintage", "Brainstorm", False),
     ("all", "Ancestral Recall", True), ("pauper", "Counterspell", True), ("modern", "Counterspell", False)],
)
def test_the_format_decides_which_cards_are_candidates(snapshot_client, pool, fmt, card, present):
    cost = str(pool.lookup(card).front.cost)
    body = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost=cost, format=fmt)
    assert body["format"] == fmt
    assert (card in [c["name"] for c in body["candidates"]]) is present


@pytest.mark.parametrize("fmt", FORMATS)
def test_abundance_is_never_a_candidate_in_any_format(client, fmt):
    body = ok(client, "/candidates", schemas.CandidatesOut(), cost="{2}{G}{G}", format=fmt)
    assert "Abundance" not in [c["name"] for c in body["candidates"]]


def test_a_watched_card_is_a_candidate_flagged_watched(snapshot_client):
    body = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{1}")
    flags = {c["name"]: c["watched"] for c in body["candidates"]}
    assert flags["Liar's Pendulum"] is True
    assert [n for n, w in flags.items() if w] == ["Liar's Pendulum"]


def test_the_house_option_reads_phyrexian_mana_as_hybrid(snapshot_client):
    plain = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{W/P}")
    assert [c["name"] for c in plain["candidates"]] == ["Marrow Shards"]
    house = ok(snapshot_client, "/candidates", schemas.CandidatesOut(), cost="{W/P}", phyrexian_as_hybrid="true")
    assert set(house["costs"]) == {"{W}", "{2}"}
    assert {"Marrow Shards", "Savannah Lions", "Mind Stone"} <= {c["name"] for c in house["candidates"]}


# -- /check ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("params", "legal", "rules"),
    [
        ({"cost": "{W}", "name": "Savannah Lions"}, True, ["704.1"]),
        ({"printed": "Figure of Destiny", "name": "Savannah Lions"}, True, ["704.1"]),
        ({"printed": "Savannah Lions", "name": "Savannah Lions"}, False, ["704.1"]),
        ({"cost": "{R}", "name": "Savannah Lions"}, False, ["704.1"]),
        ({"cost": "{U}", "name": "Ancestral Recall"}, False, ["706.1"]),
        ({"cost": "{U}", "name": "Ancestral Recall", "format": "all"}, True, ["704.1"]),
        ({"cost": "{2}{G}{G}", "name": "Abundance"}, False, ["706.2"]),
        ({"cost": "{1}", "name": "Liar's Pendulum"}, True, ["704.1", "706.4a"]),
        ({"cost": "{1}{U}", "name": "Glace"}, True, ["704.1"]),
        # a card's full name that is no name (a name no card has: unknown_card, issue 30)
        ({"cost": "{1}{U}", "name": "Fire // Ice"}, False, ["704.1"]),
    ],
)
def test_check_answers_legal_and_every_reason_with_its_rule(snapshot_client, params, legal, rules):
    body = ok(snapshot_client, "/check", schemas.CheckOut(), **params)
    assert CHECK_FIELDS <= body.keys()
    assert body["legal"] is legal
    assert sorted(r["rule"] for r in body["reasons"]) == sorted(rules)
    for r in body["reasons"]:
        assert REASON_FIELDS <= r.keys() and r["message"]


# -- OpenAPI ---------------------------------------------------------------------------------------
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def resolve(doc: dict, ref: str):
    assert ref.startswith("#/"), ref
    node = doc
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        assert part in node, f"unresolved $ref {ref}"
        node = node[part]
    return node


def walk_refs(doc, node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                resolve(doc, value)
            else:
                walk_refs(doc, value)
    elif isinstance(node, list):
        for item in node:
            walk_refs(doc, item)


def assert_valid_openapi_3(doc: dict) -> None:
    """The structural rules of OpenAPI 3.0 that a client generator relies on."""
    assert re.fullmatch(r"3\.\d+\.\d+", doc["openapi"])
    assert isinstance(doc["info"]["title"], str) and isinstance(doc["info"]["version"], str)
    assert isinstance(doc["paths"], dict) and doc["paths"]
    walk_refs(doc, doc)
    schemes = doc.get("components", {}).get("securitySchemes", {})
    for path, item in doc["paths"].items():
        assert path.startswith("/")
        templated = set(re.findall(r"{([^}]+)}", path))
        for method, op in item.items():
            assert method in HTTP_METHODS | {"parameters", "summary", "description", "servers"}, method
            if method not in HTTP_METHODS:
                continue
            assert op["responses"], (path, method)
            for code, response in op["responses"].items():
                assert code == "default" or re.fullmatch(r"[1-5](\d\d|XX)", code), code
                response = resolve(doc, response["$ref"]) if "$ref" in response else response
                assert isinstance(response["description"], str)
            params = op.get("parameters", []) + item.get("parameters", [])
            seen = set()
            for p in params:
                p = resolve(doc, p["$ref"]) if "$ref" in p else p
                assert p["in"] in {"query", "header", "path", "cookie"}
                assert isinstance(p["name"], str) and p["name"]
                assert ("schema" in p) != ("content" in p)
                assert (p["name"], p["in"]) not in seen, p["name"]
                seen.add((p["name"], p["in"]))
                if p["in"] == "path":
                    assert p["required"] is True and p["name"] in templated
            assert templated <= {name for name, where in seen if where == "path"}, path
            for requirement in op.get("security", []):
                assert set(requirement) <= set(schemes)


def test_the_openapi_document_is_valid_openapi_3(client):
    status, doc = get(client, "/openapi.json")
    assert status == 200
    assert_valid_openapi_3(doc)


def test_the_openapi_document_lists_every_api_route(client, app):
    _, doc = get(client, "/openapi.json")
    missing = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(API + "/") or rule.rule == API + "/openapi.json":
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule[len(API):])
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            if method.lower() not in doc["paths"].get(path, {}):
                missing.append(f"{method} {path}")
    assert missing == []


@pytest.mark.parametrize(
    ("path", "schema", "errors"),  # issue 6: only the error statuses each operation can return
    [("/health", "HealthOut", ("503",)), ("/cards/{name}", "CardOut", ("404",)), ("/cards", "SearchOut", ("422",)),
     # with game=, a 503 storage_failed when the disk failed a sync (storage/durable.py)
     ("/candidates", "CandidatesOut", ("404", "422", "503")), ("/check", "CheckOut", ("404", "422", "503"))],
)
def test_the_openapi_document_describes_each_cards_endpoint_with_its_schemas(client, path, schema, errors):
    _, doc = get(client, "/openapi.json")
    op = doc["paths"][path]["get"]
    ok_schema = op["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok_schema == {"$ref": f"#/components/schemas/{schema}"}
    assert set(op["responses"]) == {"200", "429", *errors}  # issue 9: every route is rate-limited
    for code in (*errors, "429"):
        want = schema if (path, code) == ("/health", "503") else "ErrorOut"  # a degraded /health: HealthOut
        assert op["responses"][code]["content"]["application/json"]["schema"] == {
            "$ref": f"#/components/schemas/{want}"}
    for name, props in (("CardOut", CARD_FIELDS), ("CandidateOut", CANDIDATE_FIELDS)):
        assert props <= set(doc["components"]["schemas"][name]["properties"])


def test_the_openapi_document_lists_the_query_arguments_of_candidates(client):
    _, doc = get(client, "/openapi.json")
    params = {p["name"] for p in doc["paths"]["/candidates"]["get"]["parameters"] if p["in"] == "query"}
    assert {"printed", "cost", "format", "game", "type", "keyword", "limit", "offset"} <= params


# -- the whole snapshot ----------------------------------------------------------------------------
def test_every_kind_of_card_of_the_snapshot_answers_by_its_name(snapshot_client, pool):
    """Every card whose name or layout is out of the ordinary (several faces, a letter outside ASCII,
    punctuation a URL must escape) and a sample of the plain ones: one route, one lookup, so a sweep
    of the other ~30k plain names would find nothing these don't."""
    plain = re.compile(r"[A-Za-z ,'-]+")
    odd = [c for c in pool.cards if len(c.faces) > 1 or c.layout != "normal" or not plain.fullmatch(c.name)]
    rest = [c for c in pool.cards if len(c.faces) == 1 and c.layout == "normal" and plain.fullmatch(c.name)]
    assert len(odd) > 1500 and len(rest) > 30000  # the snapshot's, not a small pool
    schema = schemas.CardOut()
    wrong = []
    for card in odd + random.Random(22).sample(rest, 1500):
        response = snapshot_client.get(API + card_url(card.name))
        body = response.get_json()
        if response.status_code != 200 or body["name"] != card.name or schema.validate(body):
            wrong.append((card.name, response.status_code, body))
        elif len(body["faces"]) != len(card.faces) or not CARD_FIELDS <= body.keys():
            wrong.append((card.name, "shape", body))
    assert wrong == []


def test_no_printed_card_is_ever_its_own_candidate(snapshot_client, pool):
    multi = [c for c in pool.cards if c.layout in ("split", "aftermath", "adventure", "modal_dfc")]
    assert len(multi) == 109 + 27 + 153 + 98
    rest = [c for c in pool.cards if c.layout not in ("split", "aftermath", "adventure", "modal_dfc")]
    sample = multi + random.Random(704).sample(rest, 300)
    schema = schemas.CandidatesOut()
    wrong = []
    for i, card in enumerate(sample):
        response = snapshot_client.get(API + "/candidates?" + urlencode({"printed": card.name}))
        body = response.get_json()
        if response.status_code != 200:
            wrong.append((card.name, response.status_code, body))
            continue
        own = {fold(card.name), *(fold(f.name) for f in card.faces)}
        mine = [c["name"] for c in body["candidates"] if fold(c["name"]) in own or c["card"] == card.name]
        if mine or body["printed"]["name"] != card.name:
            wrong.append((card.name, mine))
        if i % 10 == 0 and schema.validate(body):
            wrong.append((card.name, schema.validate(body)))
    assert wrong == []
