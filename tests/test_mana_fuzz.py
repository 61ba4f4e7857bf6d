"""The mana-cost parser on arbitrary text (issue 9): a cost or a ManaCostError (a ValueError
that quotes the input), never another exception; what it reads prints back to itself."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mentalmagic.mana import ManaCost, ManaCostError

pytestmark = pytest.mark.fuzz

# Text made mostly of what costs are made of, so the parser's deeper paths are reached too.
COSTLIKE = st.lists(st.sampled_from(list("{}/0123456789WUBRGCPXYZSHwubrgcpxs ½∞²-") + ["none", "{W}", "{2/R}"]),
                    max_size=40).map("".join)


def read(text: str) -> ManaCost | None:
    try:
        cost = ManaCost.parse(text)
    except ManaCostError as e:
        assert isinstance(e, ValueError) and str(e)
        return None
    assert isinstance(cost, ManaCost)
    return cost


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
@example("{" * 10_000)
@example("\x00")
@example("{\ud800}")
@example("9" * 5000)
def test_any_text_is_a_cost_or_a_mana_cost_error(text):
    read(text)


@settings(max_examples=500, deadline=None)
@given(COSTLIKE)
@example("{2/W}{G/P}{X}")
@example("1RR")
@example("none")
def test_any_cost_like_text_is_a_cost_or_a_mana_cost_error_and_round_trips(text):
    cost = read(text)
    if cost is not None:
        assert ManaCost.parse(str(cost)) == cost
