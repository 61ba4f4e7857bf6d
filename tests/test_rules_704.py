"""Every example of rules 704.1 and 704.3 (the French seed), through the index and
through the HTTP API: one row per example."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from mentalmagic.mana import ManaCost
from mentalmagic.web import schemas


@pytest.fixture(scope="module")
def finder(mini_finder):
    """The core tier: every card of the examples is in tests/minipool.py (the API rows use the snapshot)."""
    return mini_finder


@pytest.fixture(scope="module")
def pool(mini_pool):
    return mini_pool


# 704.1 — (printed cost, names it may be given)
EXAMPLES_704_1 = [
    pytest.param("{W}", ["Savannah Lions", "Figure of Destiny"], id="704.1-a {W} card"),
    pytest.param("{R/W}{R/W}", ["Serra Avenger", "Slith Firewalker", "Rise of the Hobgoblins", "Vexing Shusher"],
                 id="704.1-a {R/W}{R/W} card"),
    pytest.param("{6}", ["Flame Javelin", "Mindslaver"], id="704.1-a {6} card"),
]

# 704.1 — a printed card may be named as another card of the same cost, never as itself
PRINTED_704_1 = [
    pytest.param("Savannah Lions", ["Figure of Destiny"], id="Savannah Lions"),
    pytest.param("Figure of Destiny", ["Savannah Lions", "Lightning Bolt"],
                 id="Figure of Destiny, any cost it composes"),
    pytest.param("Rise of the Hobgoblins", ["Serra Avenger", "Slith Firewalker", "Vexing Shusher"],
                 id="Rise of the Hobgoblins"),
    pytest.param("Mindslaver", ["Flame Javelin"], id="Mindslaver"),
    pytest.param("Flame Javelin", ["Mindslaver", "Ball Lightning", "Hellrider"],
                 id="Flame Javelin, any cost it composes"),
]

# 704.3 — a {1}{R}{1}{U} Fire // Ice is named as a {1}{R} or a {1}{U} card, never Fire or Ice
PRINTED_704_3 = [
    pytest.param("Fire // Ice", ["Incinerate", "Mana Leak"], ["Fire", "Ice", "Lightning Bolt", "Counterspell"],
                 id="Fire // Ice"),
]

# 704.3 — a {1}{R} card may be named Fire; Ice stays for a {1}{U} card
HALVES_704_3 = [
    pytest.param("{1}{R}", "Fire", "Ice", id="a {1}{R} card may be Fire, not Ice"),
    pytest.param("{1}{U}", "Ice", "Fire", id="a {1}{U} card may be Ice, not Fire"),
]


def candidate_names(result) -> list[str]:
    return [n.name for n in result.candidates]


def api_candidates(client, **params) -> dict:
    response = client.get("/api/v1/candidates?" + urlencode(params))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert schemas.CandidatesOut().validate(body) == {}
    if "limit" not in params:
        assert body["count"] == len(body["candidates"])
    return body


def api_check(client, **params) -> dict:
    response = client.get("/api/v1/check?" + urlencode(params))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert schemas.CheckOut().validate(body) == {}
    return body


# -- 704.1 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("cost", "expected"), EXAMPLES_704_1)
def test_704_1_a_cost_may_be_named_as_each_card_of_the_example_through_the_index(finder, cost, expected):
    listed = candidate_names(finder.candidates(cost=ManaCost.parse(cost)))
    for name in expected:
        assert name in listed


@pytest.mark.parametrize(("cost", "expected"), EXAMPLES_704_1)
def test_704_1_a_cost_may_be_named_as_each_card_of_the_example_through_the_api(cards_client, cost, expected):
    body = api_candidates(cards_client, cost=cost)
    listed = [c["name"] for c in body["candidates"]]
    for name in expected:
        assert name in listed
    for name in expected:
        verdict = api_check(cards_client, cost=cost, name=name)
        assert verdict["legal"] is True, verdict
        assert verdict["reasons"][0]["rule"] == "704.1"


@pytest.mark.parametrize(("printed", "expected"), PRINTED_704_1)
def test_704_1_a_printed_card_may_be_named_as_another_card_never_itself_through_the_index(
    finder, pool, printed, expected
):
    result = finder.candidates(printed=pool.lookup(printed))
    listed = candidate_names(result)
    for name in expected:
        assert name in listed
    assert printed not in listed
    verdict = finder.check(printed, printed=pool.lookup(printed))
    assert not verdict.legal
    assert [r.rule for r in verdict.reasons] == ["704.1"]


@pytest.mark.parametrize(("printed", "expected"), PRINTED_704_1)
def test_704_1_a_printed_card_may_be_named_as_another_card_never_itself_through_the_api(
    cards_client, printed, expected
):
    body = api_candidates(cards_client, printed=printed)
    assert body["printed"]["name"] == printed
    listed = [c["name"] for c in body["candidates"]]
    for name in expected:
        assert name in listed
        assert api_check(cards_client, printed=printed, name=name)["legal"] is True
    assert printed not in listed
    verdict = api_check(cards_client, printed=printed, name=printed)
    assert verdict["legal"] is False
    assert [r["rule"] for r in verdict["reasons"]] == ["704.1"]


def test_704_1_a_printed_hybrid_card_lists_every_cost_it_composes(finder, pool, cards_client):
    expected = {ManaCost.parse(c) for c in ("{R}{R}", "{R}{W}", "{W}{W}")}
    assert set(finder.candidates(printed=pool.lookup("Rise of the Hobgoblins")).costs) == expected
    body = api_candidates(cards_client, printed="Rise of the Hobgoblins", limit=1)
    assert {ManaCost.parse(c) for c in body["costs"]} == expected
    assert len(body["costs"]) == 3


def test_704_1_a_name_may_be_given_in_french(finder, cards_client):
    verdict = finder.check("Lions des savanes", cost=ManaCost.parse("{W}"))
    assert verdict.legal and verdict.nameable.name == "Savannah Lions"
    body = api_check(cards_client, cost="{W}", name="lions des savanes")
    assert body["legal"] is True
    assert body["name"] == "Savannah Lions"
    listed = {c["name"]: c["french_name"] for c in api_candidates(cards_client, cost="{W}")["candidates"]}
    assert listed["Savannah Lions"] == "Lions des savanes"
    assert listed["Figure of Destiny"] == "Représentation de la destinée"


# -- 704.3 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("printed", "present", "absent"), PRINTED_704_3)
def test_704_3_a_split_card_is_named_as_either_cost_never_as_a_half_through_the_index(
    finder, pool, printed, present, absent
):
    result = finder.candidates(printed=pool.lookup(printed))
    assert result.costs == [ManaCost.parse("{1}{R}"), ManaCost.parse("{1}{U}")]
    listed = candidate_names(result)
    for name in present:
        assert name in listed
    for name in absent:
        assert name not in listed
    for half in ("Fire", "Ice", "Feu", "Glace", "Fire // Ice"):
        assert not finder.check(half, printed=pool.lookup(printed)).legal


@pytest.mark.parametrize(("printed", "present", "absent"), PRINTED_704_3)
def test_704_3_a_split_card_is_named_as_either_cost_never_as_a_half_through_the_api(
    cards_client, printed, present, absent
):
    body = api_candidates(cards_client, printed=printed)
    assert body["costs"] == ["{1}{R}", "{1}{U}"]
    listed = [c["name"] for c in body["candidates"]]
    for name in present:
        assert name in listed
        assert api_check(cards_client, printed=printed, name=name)["legal"] is True
    for name in absent:
        assert name not in listed
        assert api_check(cards_client, printed=printed, name=name)["legal"] is False


@pytest.mark.parametrize(("cost", "half", "other"), HALVES_704_3)
def test_704_3_each_half_is_a_separate_card_through_the_index(finder, cost, half, other):
    listed = candidate_names(finder.candidates(cost=ManaCost.parse(cost)))
    assert half in listed
    assert other not in listed
    assert "Fire // Ice" not in listed
    # naming one half takes that name only: the other half stays available (704.2, 704.3)
    assert finder.check(half, cost=ManaCost.parse(cost), taken=[other]).legal
    taken = finder.check(half, cost=ManaCost.parse(cost), taken=[half])
    assert not taken.legal
    assert [r.rule for r in taken.reasons] == ["704.2"]


@pytest.mark.parametrize(("cost", "half", "other"), HALVES_704_3)
def test_704_3_each_half_is_a_separate_card_through_the_api(cards_client, cost, half, other):
    entries = {c["name"]: c for c in api_candidates(cards_client, cost=cost)["candidates"]}
    assert half in entries
    assert other not in entries
    assert entries[half]["mana_cost"] == cost
    assert entries[half]["card"] == "Fire // Ice"
    assert entries[half]["french_name"] == {"Fire": "Feu", "Ice": "Glace"}[half]
    assert api_check(cards_client, cost=cost, name=half)["legal"] is True
    refused = api_check(cards_client, cost=cost, name=other)
    assert refused["legal"] is False
    assert [r["rule"] for r in refused["reasons"]] == ["704.1"]
