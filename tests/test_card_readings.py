"""Issue 11, the card side: D4 (prepare cards, meld results, a half's name shared by two cards),
D13(b) (705.9's non-empty cost includes {0}), one type for mana_value, and answers that say
exactly why (no mana cost in words, every reason in rule order, the printed card itself first).

Each reading is tested on the core (cards.py, index.py) and through the HTTP card API or the CLI.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from click.testing import CliRunner
from support import fresh_games_db

from mentalmagic.cards import card_from_record, nonland
from mentalmagic.cli import main
from mentalmagic.formats import BanList
from mentalmagic.index import CandidateFinder, Reason, in_rule_order, rule_order
from mentalmagic.mana import NO_COST, ManaCost, cost_phrase, cost_words, mana_value_number
from mentalmagic.pool import CardPool, PoolInfo
from mentalmagic.web import schemas

API = "/api/v1"
OSTEOMANCER = "Cheerful Osteomancer // Raise Dead"
DYNASTORIAN = "Eiganjo Dynastorian // Replenish"


def parse(text: str) -> ManaCost:
    return ManaCost.parse(text)


def get(client, path: str, schema=None, **params) -> dict:
    response = client.get(API + path + "?" + urlencode(params))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    if schema is not None:
        assert schema.validate(body) == {}, body
    return body


def names(result) -> list[str]:
    return [n.name for n in result.candidates]


# -- D4: a prepare card offers its front cost only, like a transform card ---------------------------
def test_d4_every_prepare_card_offers_its_front_face_only_by_name_and_by_cost(pool):
    prepare = [c for c in pool.cards if c.layout == "prepare"]
    assert len(prepare) == 50  # the snapshot's count (../shared/cards/README.md)
    for card in prepare:
        assert [n.name for n in card.nameables()] == ([card.front.name] if card.front.known else [])
        assert card.printed_costs == ((card.front.cost,) if card.front.known else ())
        assert card.unknown_faces == (() if card.front.known else (card.front.name,))


@pytest.mark.parametrize(("printed", "front", "back"), [(OSTEOMANCER, "{3}{B}", "{B}"),
                                                        (DYNASTORIAN, "{2}{W}", "{3}{W}")])
def test_d4_a_prepare_card_is_named_as_a_card_of_its_front_cost_never_of_its_spells(finder, pool, printed,
                                                                                       front, back):
    card = pool.lookup(printed)
    result = finder.candidates(printed=card)
    assert result.costs == [parse(front)]
    # exactly the names of its front cost, less itself: nothing of the spell's cost
    same_front = [n for n in names(finder.candidates(cost=parse(front))) if n != card.front.name]
    assert names(result) == same_front
    assert not set(names(result)) & {n.name for n in finder.candidates(cost=parse(back)).candidates}
    assert card.front.name in names(finder.candidates(cost=parse(front)))  # named by its front face


def test_d4_a_prepare_card_through_the_api_no_longer_offers_the_spells_cost(cards_client, finder, pool):
    body = get(cards_client, "/candidates", schemas.CandidatesOut(), printed=OSTEOMANCER)
    assert body["costs"] == ["{3}{B}"]
    assert body["printed"]["printed_costs"] == ["{3}{B}"]
    assert body["printed"]["nameable_as"] == ["Cheerful Osteomancer"]
    listed = {c["name"] for c in body["candidates"]}
    assert "Dark Ritual" not in listed and "Raise Dead" not in listed  # {B} cards: the spell's cost
    assert body["count"] == len(finder.candidates(cost=parse("{3}{B}")).candidates) - 1  # less itself


def test_d4_a_prepare_cards_spell_is_no_name_for_it_and_the_card_of_that_name_stays_its_own(finder, pool,
                                                                                             cards_client):
    """Replenish is also a card of its own ({3}{W}): that card may be named so; the prepare card may not."""
    verdict = finder.check("Replenish", printed=pool.lookup(DYNASTORIAN))
    assert not verdict.legal and "printed card itself" in str(verdict.first.message)
    assert verdict.nameable.card.name == "Replenish"
    body = get(cards_client, "/check", schemas.CheckOut(), printed="Replenish", name="Replenish")
    assert body["legal"] is False
    assert finder.check("Replenish", cost=parse("{3}{W}")).legal


# -- D4: a meld result is no card of a library: never nameable -------------------------------------
def test_d4_a_meld_result_is_never_a_name(finder, pool, cards_client):
    assert pool.lookup("Brisela, Voice of Nightmares").layout == "meld_result"
    assert pool.nameables_called("Brisela, Voice of Nightmares") == []
    for fmt in ("vintage", "all"):
        verdict = finder.check("Brisela, Voice of Nightmares", cost=NO_COST, fmt=fmt)
        assert not verdict.legal
        assert [r.rule for r in verdict.reasons] == ["704.1"]
        assert "can be in a library" in str(verdict.first.message) and "meld" in str(verdict.first.message)
        assert "Brisela, Voice of Nightmares" not in names(finder.candidates(cost=NO_COST, fmt=fmt))
    body = get(cards_client, "/check", schemas.CheckOut(), cost="none", name="Brisela, Voice of Nightmares",
               format="all")
    assert body["legal"] is False and body["reasons"][0]["rule"] == "704.1"
    body = get(cards_client, "/candidates", schemas.CandidatesOut(), cost="none", format="all")
    assert "Brisela, Voice of Nightmares" not in {c["name"] for c in body["candidates"]}


# -- D4: two cards sharing a half's name: one name, taken once -------------------------------------
def test_d4_start_is_one_name_though_two_cards_have_a_half_called_so(finder, pool, cards_client):
    assert {pool.lookup(n).name for n in ("Start // Finish", "Start // Fire")} == {"Start // Finish",
                                                                                 "Start // Fire"}
    assert len(pool.nameables_called("Start")) == 2  # two entries, one per card...
    assert names(finder.candidates(cost=parse("{2}{W}"), fmt="all")).count("Start") == 1  # ...one name
    verdict = finder.check("Start", cost=parse("{2}{W}"), fmt="all", taken=["start"])
    assert not verdict.legal and verdict.first.rule == "704.2"  # taken by either card: taken
    body = get(cards_client, "/candidates", schemas.CandidatesOut(), cost="{2}{W}", format="all")
    assert [c["name"] for c in body["candidates"]].count("Start") == 1


# -- D13(b): 705.9's non-empty mana cost includes {0} ------------------------------------------------
@pytest.mark.parametrize(
    ("printed", "named", "expected"),
    [
        ("Ornithopter", None, True),  # {0} is a non-empty cost: nonland without naming
        ("Shock", None, True),
        ("Bonecrusher Giant // Stomp", None, True),  # the front's cost
        # no mana cost: not known to be nonland (it could be named Forest or Ancestral Vision): false,
        # never null; its owner names it when an effect must know (705.6)
        ("Forest", None, False),
        ("Ancestral Vision", None, False),
        ("Dryad Arbor", None, False),
        ("Forest", "Forest", False),  # named: the card it is named (704.4)
        ("Forest", "Ancestral Vision", True),
        ("Ornithopter", "Memnite", True),
        ("Ancestral Vision", "Dryad Arbor", False),
    ],
)
def test_d13b_is_the_card_known_to_be_nonland(pool, printed, named, expected):
    face = pool.lookup(named).front if named else None
    assert nonland(pool.lookup(printed), face) is expected


def test_d13b_a_pentaland_is_a_land_whatever_it_is(pool):
    assert nonland(pool.lookup("Shock"), pentaland=True) is False
    assert nonland(pool.lookup("Forest"), pool.lookup("Forest").front, pentaland=True) is False


# -- mana_value: one type everywhere --------------------------------------------------------------------
def test_mana_value_is_an_int_when_whole_and_a_half_when_half():
    assert mana_value_number(3.0) == 3 and type(mana_value_number(3.0)) is int
    assert type(mana_value_number(0)) is int
    assert mana_value_number(0.5) == 0.5
    assert mana_value_number(None) is None
    assert mana_value_number(float("inf")) is None  # JSON has no infinity
    assert type(mana_value_number(parse("{2}{W/U}").mana_value)) is int


def test_mana_value_has_one_type_in_the_card_endpoints(cards_client):
    shock = get(cards_client, "/cards/Shock", schemas.CardOut())
    assert shock["faces"][0]["mana_value"] == 1 and type(shock["faces"][0]["mana_value"]) is int
    girl = get(cards_client, "/cards/Little Girl", schemas.CardOut())
    assert girl["faces"][0]["mana_value"] == 0.5
    body = get(cards_client, "/candidates", schemas.CandidatesOut(), cost="{R}", limit=5)
    assert all(type(c["mana_value"]) is int for c in body["candidates"])


# -- answers that say exactly why: "no mana cost" in words ------------------------------------------
def test_no_mana_cost_reads_as_words():
    assert str(cost_words(NO_COST)) == "no mana cost" and cost_words(parse("{0}")) == "{0}"
    assert str(cost_phrase(NO_COST)) == "has no mana cost" and str(cost_phrase(parse("1R"))) == "costs {1}{R}"


@pytest.mark.parametrize(
    ("params", "legal", "message"),
    [
        ({"printed": "Forest", "name": "Island"}, True, "Island has no mana cost; Forest has no mana cost (D2)"),
        ({"cost": "none", "name": "Island"}, True,
         "Island has no mana cost, and a card with no mana cost is named only as one (D2)"),
        ({"printed": "Shock", "name": "Lightning Bolt"}, True, "Lightning Bolt costs {R}; Shock can be read as {R}"),
        ({"cost": "R", "name": "Lightning Bolt"}, True,
         "Lightning Bolt costs {R}; a card costing {R} can be read as {R}"),
        ({"printed": "Forest", "name": "Shock"}, False, "Shock costs {R}, which can't match a card with no mana cost"),
        ({"printed": "Shock", "name": "Island"}, False, "Island has no mana cost, which can't match {R}"),
        ({"printed": "Ornithopter", "name": "Island"}, False, "Island has no mana cost, which can't match {0}"),
    ],
)
def test_check_says_no_mana_cost_in_words(cards_client, params, legal, message):
    body = get(cards_client, "/check", schemas.CheckOut(), **params)
    assert body["legal"] is legal
    assert body["reasons"][0]["message"] == message
    assert all(" ;" not in r["message"] and "costs ," not in r["message"] for r in body["reasons"])


@pytest.fixture
def cli_db(tmp_path, card_db_path, snapshot_path, monkeypatch):
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(snapshot_path))
    return str(fresh_games_db(card_db_path, tmp_path / "cli.sqlite"))


def test_cli_check_and_candidates_say_no_mana_cost_in_words(cli_db):
    result = CliRunner().invoke(main, ["--db", cli_db, "check", "Forest", "Island"])
    assert result.exit_code == 0, result.output
    assert "704.1: Island has no mana cost; Forest has no mana cost (D2)" in result.output
    result = CliRunner().invoke(main, ["--db", cli_db, "candidates", "none"])
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]  # the source's notes go to standard error
    assert first.startswith("A card with no mana cost may be named as a card with no mana cost in vintage: ")
    assert "no mana cost     Island" in result.output  # the cost column in words, not blank
    result = CliRunner().invoke(main, ["--db", cli_db, "candidates", "1R"])
    assert result.stdout.splitlines()[0].startswith("A card costing {1}{R} may be named as {1}{R} in vintage")
    result = CliRunner().invoke(main, ["--db", cli_db, "candidates", "Rise of the Hobgoblins"])
    assert "may be named as {R}{R} or {W}{R} or {W}{W} in vintage" in result.stdout.splitlines()[0]


# -- a refusal lists every reason, in rule order; the first gives its code and rule ---------------------
def test_rule_order_sorts_rule_numbers_as_numbers():
    rules = ["706.4a", "704.2", "D4", "706.10", "706.1", "704.1", "800.4a", "706.4"]
    assert sorted(rules, key=rule_order) == ["704.1", "704.2", "706.1", "706.4", "706.4a", "706.10", "800.4a", "D4"]
    found = [Reason("704.2", "b"), Reason("704.1", "itself"), Reason("704.1", "cost")]
    assert [r.message for r in in_rule_order(found)] == ["itself", "cost", "b"]  # stable under one rule


def test_naming_fire_ice_as_a_taken_lightning_bolt_gives_both_reasons_704_1_first(finder, pool):
    verdict = finder.check("Lightning Bolt", printed=pool.lookup("Fire // Ice"), taken=["lightning bolt"])
    assert [r.rule for r in verdict.reasons] == ["704.1", "704.2"]
    assert verdict.first.rule == "704.1"


def test_a_taken_and_banned_name_answers_first_with_704_2(finder):
    verdict = finder.check("Demonic Consultation", cost=parse("{B}"), taken=["demonic consultation"])
    assert [r.rule for r in verdict.reasons] == ["704.2", "706.2"]


def test_the_printed_card_itself_comes_before_the_format(finder, pool):
    verdict = finder.check("Black Lotus", printed=pool.lookup("Black Lotus"), fmt="legacy")
    assert [r.rule for r in verdict.reasons] == ["704.1", "706.1"]
    assert "printed card itself" in str(verdict.reasons[0].message)


def _record(name, layout, faces):
    return {"name": name, "french_name": None, "layout": layout, "legalities": {"vintage": "legal"},
            "faces": [{"position": i, "name": n, "french_name": fr, "mana_cost": cost, "mana_value": None,
                       "type_line": "Instant", "types": ["Instant"], "keywords": [], "text": ""}
                      for i, (n, fr, cost) in enumerate(faces)]}


@pytest.fixture(scope="module")
def lacking():
    """A pool like the embedded corpus: Fire // Ice knows Fire's cost, not Ice's."""
    records = [_record("Fire // Ice", "split", [("Fire", "Feu", "{1}{R}"), ("Ice", "Glace", None)]),
               _record("Mana Leak", "normal", [("Mana Leak", None, "{1}{U}")])]
    pool = CardPool([card_from_record(r) for r in records], BanList([]), PoolInfo(source="test", built_at="now"))
    return CandidateFinder(pool)


@pytest.mark.parametrize("name", ["Ice", "Glace", "ice"])
def test_fire_ice_named_as_its_own_half_is_refused_first_as_itself_whatever_the_data_knows(lacking, name):
    printed = lacking.pool.lookup("Fire // Ice")
    verdict = lacking.check(name, printed=printed)
    assert not verdict.legal
    assert [r.rule for r in verdict.reasons] == ["704.1", "704.1"]
    assert "printed card itself (Fire // Ice), D4" in str(verdict.first.message)
    assert "doesn't know its mana cost" in str(verdict.reasons[1].message)
    # another printed card: only the data's reason remains
    other = lacking.check(name, printed=lacking.pool.lookup("Mana Leak"))
    assert [r.message for r in other.reasons] == [verdict.reasons[1].message]


def test_fire_ice_named_as_ice_through_the_api_on_a_pool_lacking_ices_cost(lacking, card_db_path):
    from mentalmagic.runtime import Runtime
    from mentalmagic.web import create_app

    app = create_app({"TESTING": True, "DATABASE": str(card_db_path),
                      "RUNTIME": Runtime(db_path=card_db_path, pool=lacking.pool, finder=lacking)})
    body = get(app.test_client(), "/check", schemas.CheckOut(), printed="Fire // Ice", name="Ice")
    assert body["legal"] is False
    assert [r["rule"] for r in body["reasons"]] == ["704.1", "704.1"]
    assert body["reasons"][0]["message"].startswith("the chosen card can't be the printed card itself")
    assert "doesn't know its mana cost" in body["reasons"][1]["message"]


def test_cli_look_ups_suggest_close_names_and_refuse_an_empty_printed(cli_db):
    for args in (["card", "Boros Guildmag"], ["candidates", "boros guildmag"], ["check", "Boros Guildmag", "Shock"]):
        result = CliRunner().invoke(main, ["--db", cli_db, *args])
        assert result.exit_code == 1 and "did you mean: Boros Guildmage," in result.stderr, (args, result.output)
    result = CliRunner().invoke(main, ["--db", cli_db, "candidates", " "])
    assert result.exit_code == 2 and "PRINTED is empty" in result.stderr  # as the API refuses printed=
    result = CliRunner().invoke(main, ["--db", cli_db, "candidates", "Shock", "--commander", "Krenko, Mob Boss"])
    assert " in commander, within Krenko, Mob Boss's colour identity" in result.stdout.splitlines()[0]
