"""Issue 20: a game command's naming answered from SQLite by cost (carddb.CardsAsked.by_cost) gives the
whole index's answers, on the real card data: candidates, and a check of a name of the same cost, of
another cost, taken, and outside a commander's identity."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from mentalmagic.commander import identity_of
from mentalmagic.index import CandidateFinder
from mentalmagic.storage.carddb import CardsAsked


@pytest.fixture(scope="module")
def drawable(snapshot_pool):
    """The cards a game may hold, and the same by printed cost, for the samples below."""
    printed = [c for c in snapshot_pool.cards if c.in_library and c.nameables()]
    by_cost = defaultdict(list)
    for card in printed:
        by_cost[tuple(str(cost) for cost in card.printed_costs)].append(card)
    return printed, by_cost


def _sample(pool, drawable, n: int, seed: int):
    """``n`` cards a game may hold: one with no mana cost (D2: it matches only no mana cost); a third
    of the rest drawn by card, so mostly of the common costs ({1}{W}: a thousand cards, a long list
    to match whole); the others by cost, every printed cost alike, one card of each cost drawn:
    the rare readings (hybrid, Phyrexian, X, a split card's halves, ~900 costs) that a draw by card
    seldom meets, most of them a few dozen cards to read (a median of 60 to 100 a naming, not 650)."""
    rnd = random.Random(seed)
    printed, by_cost = drawable
    common = rnd.sample(printed, (n - 1) // 3)
    rare = [rnd.choice(by_cost[cost]) for cost in rnd.sample(sorted(by_cost), n - 1 - len(common))]
    return [pool.lookup("Ancestral Vision"), *common, *rare]


def _by_cost(card_db_path, printed, hybrid=False, named=None) -> CandidateFinder:
    def whole():
        raise AssertionError("the whole pool was loaded")

    pool = CardsAsked(card_db_path, whole).by_cost(printed.printed_costs, hybrid, named)
    assert pool is not None
    assert len(pool.cards) < 5000  # a cost's cards, not the pool's ~34k
    return CandidateFinder(pool)


@pytest.mark.parametrize("fmt, hybrid", [("vintage", False), ("legacy", True), ("commander", False)])
def test_candidates_by_cost_are_the_whole_index_answers(card_db_path, snapshot_pool, snapshot_finder, drawable, fmt,
                                                        hybrid):
    krenko = snapshot_pool.lookup("Krenko, Mob Boss")
    for printed in _sample(snapshot_pool, drawable, 25, hash(fmt) % 1000):
        identity = identity_of([krenko]) if fmt == "commander" else None
        small = _by_cost(card_db_path, printed, hybrid).candidates(
            printed=printed, fmt=fmt, phyrexian_as_hybrid=hybrid, identity=identity)
        whole = snapshot_finder.candidates(printed=printed, fmt=fmt, phyrexian_as_hybrid=hybrid, identity=identity)
        assert [n.name for n in small.candidates] == [n.name for n in whole.candidates], printed.name
        assert small.costs == whole.costs and small.excluded == whole.excluded


def test_a_check_by_cost_is_the_whole_index_verdict(card_db_path, snapshot_pool, snapshot_finder, drawable):
    krenko = snapshot_pool.lookup("Krenko, Mob Boss")
    others = _sample(snapshot_pool, drawable, 40, 7)
    for printed, other in zip(_sample(snapshot_pool, drawable, 40, 3), others, strict=True):
        same = snapshot_finder.candidates(printed=printed).candidates
        names = [other.nameables()[0].name, printed.nameables()[0].name] + ([same[0].name] if same else [])
        for name in names:
            by_cost = _by_cost(card_db_path, printed, named=name)  # what a game command reads for this naming
            for asked in ({}, {"taken": [name]}, {"identity": identity_of([krenko]), "fmt": "commander"}):
                small = by_cost.check(name, printed=printed, **asked)
                whole = snapshot_finder.check(name, printed=printed, **asked)
                assert small.legal == whole.legal, (printed.name, name, asked)
                assert [(r.rule, r.message.as_json()) for r in small.reasons] == [
                    (r.rule, r.message.as_json()) for r in whole.reasons], (printed.name, name, asked)


def test_a_name_no_card_has_exactly_goes_to_the_whole_pool(card_db_path, snapshot_pool):
    shock = snapshot_pool.lookup("Shock")
    asked = CardsAsked(card_db_path, lambda: snapshot_pool)
    assert asked.by_cost(shock.printed_costs, False, "Contresort") is None  # French, another cost: the whole pool
    assert asked.by_cost(shock.printed_costs, False, "Lava Spike") is not None
    assert asked.by_cost(shock.printed_costs, False, "Foudre").nameables_called("Foudre")  # French, of the cost


@pytest.mark.parametrize("hybrid", [False, True])
def test_the_cost_readings_table_finds_the_costs_parsing_them_would(mini_card_db_path, mini_pool, hybrid):
    """by_cost reads which printed costs match from cost_readings, built with the faces: for every
    printed cost of the mini pool (hybrids, Phyrexian, X, no mana cost, {0}), the cards it gives are
    those whose face cost some reading meets, found by parsing every stored cost as before."""
    from mentalmagic.mana import ManaCost
    from mentalmagic.storage import connect

    db = connect(mini_card_db_path, apply_schema=False)
    try:
        texts = [r[0] for r in db.conn.execute("select distinct mana_cost from faces where mana_cost is not null")]
    finally:
        db.conn.close()
    asked = CardsAsked(mini_card_db_path, lambda: pytest.fail("the whole pool was loaded"))
    for printed in sorted(set(texts)):
        cost = ManaCost.parse(printed)
        wanted = cost.instantiations(hybrid)
        expected = {c.name for c in mini_pool.cards
                    if any(f.cost is not None and f.cost.instantiations(hybrid) & wanted for f in c.faces)}
        pool = asked.by_cost([cost], hybrid)
        assert {c.name for c in pool.cards} == expected, printed


def test_card_tables_built_before_the_cost_readings_send_a_naming_to_the_whole_pool(mini_card_db_path, tmp_path):
    """A CLI command never rebuilds the card tables: on tables from before cost_readings (the schema
    applied, the table empty), a naming's question goes to the whole pool, never to an empty one."""
    import shutil

    from mentalmagic.mana import ManaCost
    from mentalmagic.storage import connect

    path = tmp_path / "mentalmagic.sqlite"
    shutil.copyfile(mini_card_db_path, path)
    shock = [ManaCost.parse("{R}")]
    assert CardsAsked(path, lambda: None).by_cost(shock, False).nameables_called("Lightning Bolt")
    db = connect(path)
    db.execute("delete from cost_readings")
    db.execute("update card_source set card_schema = 2")
    db.conn.close()
    assert CardsAsked(path, lambda: None).by_cost(shock, False) is None
    assert CardsAsked(path, lambda: None).by_cost(shock, False, "Lightning Bolt") is None
