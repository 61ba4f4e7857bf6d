"""The core tier's mini pool (tests/minipool.py): real cards, and the kinds the core tests need."""

from __future__ import annotations

import json

import pytest
from minipool import ATOMIC, FIELDS

from mentalmagic.carddata import EMBEDDED_PATH
from mentalmagic.carddata.atomic import open_text
from mentalmagic.mana import NO_COST, ManaCost


@pytest.mark.snapshot
def test_every_card_of_the_mini_pool_is_copied_exactly_from_the_embedded_snapshot():
    with open_text(EMBEDDED_PATH) as fh:
        data = json.load(fh)["data"]
    for name, faces in ATOMIC.items():
        assert faces == [{k: f[k] for k in FIELDS if k in f} for f in data[name]], name


def test_the_mini_pool_holds_every_kind_of_card_the_core_tests_need(mini_pool):
    layouts = {c.layout for c in mini_pool.cards}
    assert {"normal", "split", "adventure", "prepare"} <= layouts
    costs = {f.cost for c in mini_pool.cards for f in c.faces}
    assert {NO_COST, ManaCost.parse("{0}"), ManaCost.parse("{2/R}{2/R}{2/R}"),
            ManaCost.parse("{R/W}{R/W}")} <= costs
    keywords = {k for c in mini_pool.cards for k in c.front.keywords}
    assert {"Morph", "Megamorph", "Suspend"} <= keywords
    assert any("Land" in c.front.types for c in mini_pool.cards)
    assert mini_pool.lookup("Stomp").unknown_faces == ("Stomp",)  # a face the snapshot lacks
    assert mini_pool.lookup("lions des savanes").name == "Savannah Lions"
