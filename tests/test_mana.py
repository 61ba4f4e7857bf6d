"""Mana costs (mana.py): every symbol printed on real cards, the canonical form,
mana value and colours (705.7, 705.8), and the readings of D1–D3."""

from __future__ import annotations

import pytest
from support import time_limit

from mentalmagic.mana import NO_COST, ManaCost, ManaCostError


def costs(*texts: str) -> set[ManaCost]:
    return {ManaCost.parse(t) for t in texts}


# -- parsing: one row per kind of symbol printed on a real card ------------------------------------
@pytest.mark.parametrize(
    ("text", "generic", "symbols"),
    [
        ("{0}", 0, ()),  # Ornithopter
        ("{1}", 1, ()),
        ("{10}", 10, ()),  # Blightsteel Colossus's {12} is just as plain
        ("{1000000}", 1000000, ()),  # Gleemax
        ("{W}", None, ("W",)),
        ("{U}", None, ("U",)),
        ("{B}", None, ("B",)),
        ("{R}", None, ("R",)),
        ("{G}", None, ("G",)),
        ("{2}{W}{U}{B}{R}{G}", 2, ("W", "U", "B", "R", "G")),
        ("{C}", None, ("C",)),  # Eldrazi colourless mana
        ("{S}", None, ("S",)),  # snow: Arcum's Astrolabe
        ("{X}{Y}{Z}", None, ("X", "Y", "Z")),
        ("{X}{X}{G}", None, ("G", "X", "X")),
        ("{R/W}", None, ("R/W",)),  # Figure of Destiny
        ("{W/R}", None, ("R/W",)),  # either written order
        ("{W/U}", None, ("W/U",)),
        ("{U/W}", None, ("W/U",)),
        ("{2/W}", None, ("2/W",)),  # Spectral Procession
        ("{W/2}", None, ("2/W",)),
        ("{W/P}", None, ("W/P",)),  # Marrow Shards
        ("{P/W}", None, ("W/P",)),
        ("{C/P}", None, ("C/P",)),  # Kozilek, Compleated
        ("{G/W/P}", None, ("G/W/P",)),  # Ajani, Sleeper Agent
        ("{W/G/P}", None, ("G/W/P",)),
        ("{C/W}", None, ("C/W",)),  # Ulalek, Fused Atrocity
        ("{W/C}", None, ("C/W",)),
        ("{HW}", None, ("HW",)),  # Little Girl
        ("{D}", None, ("D",)),  # Boulder Jockey
        ("{L}", None, ("L",)),  # Keeper of the Crown
        ("{w}{u/b}", None, ("W", "U/B")),  # lower case is read as upper case
    ],
)
def test_every_symbol_printed_on_a_card_is_read(text, generic, symbols):
    cost = ManaCost.parse(text)
    assert cost.generic == generic
    assert sorted(cost.symbols) == sorted(symbols)


@pytest.mark.parametrize("text", ["", "none", "None", "NONE", "  "])
def test_empty_text_and_none_mean_no_mana_cost(text):
    cost = ManaCost.parse(text)
    assert cost == NO_COST
    assert cost.is_none
    assert str(cost) == ""


def test_no_mana_cost_is_not_zero():
    """D2: a land's missing cost and {0} are two different real costs."""
    zero = ManaCost.parse("{0}")
    assert zero != NO_COST
    assert not zero.is_none
    assert str(zero) == "{0}"
    assert not zero.matches(NO_COST)
    assert not NO_COST.matches(zero)
    assert zero.matches(ManaCost.parse("{0}"))
    assert NO_COST.matches(ManaCost.parse("none"))


@pytest.mark.parametrize(
    ("text", "same_as"),
    [
        ("{1}{1}", "{2}"),  # generic parts are summed
        ("{0}{0}", "{0}"),
        ("{0}{W}", "{W}"),  # {0} only survives alone
        ("{W}{1}", "{1}{W}"),  # symbol order never matters (D1)
        ("{U}{W}{2}", "{2}{W}{U}"),
        ("{ 2 }{ W }", "{2}{W}"),
    ],
)
def test_costs_that_are_the_same_multiset_parse_equal(text, same_as):
    assert ManaCost.parse(text) == ManaCost.parse(same_as)


# -- bad input -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "{W",  # unclosed
        "W}",
        "{Q}",  # no such symbol
        "{W} and {U}",  # text outside braces
        "{W}{U}junk",
        "hello",
        "{W}{{U}}",
        "{-1}",
        "{1.5}",
        "{W/W}",  # a hybrid needs two different halves
        "{W/U/B}",
        "{2/P}",
        "{W/W/P}",
        "{W}" * 41,  # more symbols than any card and than a query may ask for
    ],
)
def test_bad_cost_raises_a_value_error_quoting_the_input(text):
    with pytest.raises(ManaCostError) as info:
        ManaCost.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)
    assert str(info.value).startswith("invalid mana cost: ")


@pytest.mark.parametrize(
    "text",
    [
        "{}",  # an empty symbol
        "{ }",
        "{WU}",  # two colours in one brace pair is not a symbol
        "{UB}",
        "{WUBRG}",
        "{W/}",  # a hybrid with a missing half
        "{/P}",
        "{2/}",
        "{C/}",
        "{²}",  # a superscript digit is not a number of generic mana
    ],
)
def test_malformed_symbols_are_refused_with_a_mana_cost_error(text):
    with pytest.raises(ManaCostError) as info:
        ManaCost.parse(text)
    assert repr(text) in str(info.value)


def test_a_non_string_cost_is_refused_with_a_mana_cost_error():
    with pytest.raises(ManaCostError):
        ManaCost.parse(12)  # type: ignore[arg-type]


# -- canonical form --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("{G}{R}{B}{U}{W}{3}", "{3}{W}{U}{B}{R}{G}"),  # generic first, then W U B R G
        ("{R/W}{R}{1}", "{1}{R}{R/W}"),  # then hybrids
        ("{X}{R}", "{R}{X}"),  # then the other symbols
        ("{C}{2/W}{W}", "{W}{2/W}{C}"),
        ("{S}{G/P}{G}", "{G}{G/P}{S}"),
        ("{u/w}", "{W/U}"),
        ("{w/2}", "{2/W}"),
        ("{P/U}", "{U/P}"),
        ("{U/W/P}", "{W/U/P}"),
        ("{0}", "{0}"),
        ("none", ""),
    ],
)
def test_str_writes_the_canonical_order_and_parses_back(text, canonical):
    cost = ManaCost.parse(text)
    assert str(cost) == canonical
    assert ManaCost.parse(str(cost)) == cost


def test_repr_can_be_pasted_back():
    cost = ManaCost.parse("{2}{W}{U/B}{2/R}{G/P}{X}")
    assert eval(repr(cost), {"ManaCost": ManaCost}) == cost


# -- 705.7 mana value, 705.8 colours ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "mana_value"),
    [
        ("", 0),
        ("{0}", 0),
        ("{W}", 1),
        ("{1}{R}", 2),
        ("{R/W}{R/W}", 2),  # Rise of the Hobgoblins
        ("{2/R}{2/R}{2/R}", 6),  # Flame Javelin
        ("{6}", 6),  # Mindslaver
        ("{X}{R}", 1),  # X counts zero
        ("{X}{Y}{Z}{R}{R}", 2),
        ("{W/P}", 1),
        ("{8}{C/P}{C/P}", 10),  # Kozilek, Compleated
        ("{G/W/P}", 1),
        ("{C/W}{C/U}{C/B}{C/R}{C/G}", 5),  # Ulalek
        ("{HW}", 0.5),  # Little Girl
        ("{S}", 1),
        ("{C}", 1),
        ("{1000000}", 1000000),
    ],
)
def test_mana_value_is_that_of_the_printed_symbols(text, mana_value):
    assert ManaCost.parse(text).mana_value == mana_value


@pytest.mark.parametrize(
    ("text", "colours"),
    [
        ("", ()),
        ("{0}", ()),
        ("{6}", ()),
        ("{C}", ()),
        ("{X}{R}", ("R",)),
        ("{G}{W}{U}", ("W", "U", "G")),  # always in W U B R G order
        ("{R/W}", ("W", "R")),
        ("{2/R}", ("R",)),
        ("{W/P}", ("W",)),
        ("{C/P}", ()),
        ("{G/U/P}", ("U", "G")),
        ("{C/W}", ("W",)),
        ("{HW}", ("W",)),
        ("{S}", ()),
    ],
)
def test_colours_are_those_of_the_printed_symbols(text, colours):
    assert ManaCost.parse(text).colours == colours


# -- D1 / D3 readings ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "phyrexian_as_hybrid", "readings"),
    [
        ("{W}", False, {"{W}"}),
        ("{R/W}", False, {"{R}", "{W}"}),
        ("{R/W}{R/W}", False, {"{R}{R}", "{R}{W}", "{W}{W}"}),
        ("{2/W}", False, {"{2}", "{W}"}),
        ("{1}{2/W}", False, {"{3}", "{1}{W}"}),
        ("{2/R}{2/R}{2/R}", False, {"{6}", "{4}{R}", "{2}{R}{R}", "{R}{R}{R}"}),
        ("{C/W}", False, {"{C}", "{W}"}),
        ("{X}{R}", False, {"{X}{R}"}),  # X is a plain symbol (D3)
        ("{HW}", False, {"{HW}"}),
        ("{S}", False, {"{S}"}),
        ("{W/P}", False, {"{W/P}"}),  # Phyrexian is not hybrid (D3)
        ("{W/P}", True, {"{W}", "{2}"}),  # ...unless the house option says so
        ("{C/P}", True, {"{C}", "{2}"}),
        ("{W/U/P}", False, {"{W/P}", "{U/P}"}),
        ("{W/U/P}", True, {"{W}", "{U}", "{2}"}),
        ("{R/W}", True, {"{R}", "{W}"}),  # the option changes nothing without {P}
        ("", False, {""}),
        ("{0}", False, {"{0}"}),
    ],
)
def test_instantiations_read_each_hybrid_symbol_as_one_of_its_halves(text, phyrexian_as_hybrid, readings):
    assert ManaCost.parse(text).instantiations(phyrexian_as_hybrid) == costs(*readings)


@pytest.mark.parametrize(
    ("a", "b", "phyrexian_as_hybrid", "match"),
    [
        ("{W}", "{R/W}", False, True),  # 704.1: Savannah Lions / Figure of Destiny
        ("{R/W}{R/W}", "{W}{W}", False, True),  # Serra Avenger
        ("{R/W}{R/W}", "{R}{R}", False, True),  # Slith Firewalker
        ("{R/W}{R/W}", "{R/G}{R/G}", False, True),  # Vexing Shusher, through {R}{R}
        ("{6}", "{2/R}{2/R}{2/R}", False, True),  # Mindslaver / Flame Javelin
        ("{1}{R}", "{1}{U}", False, False),  # Fire is not Ice
        ("{X}{R}", "{R}", False, False),  # D3
        ("{W/P}", "{W}", False, False),
        ("{W/P}", "{2}", False, False),
        ("{W/P}", "{W/P}", False, True),
        ("{W/P}", "{W}", True, True),
        ("{W/P}", "{2}", True, True),
        ("{W/U/P}", "{U/P}", False, True),
        ("", "{0}", False, False),  # D2
        ("", "", False, True),
        ("{0}", "{0}", False, True),
        ("{C}", "{1}", False, False),  # {C} is a plain symbol, not generic
        ("{C/W}", "{C}", False, True),
    ],
)
def test_two_costs_match_when_some_readings_meet(a, b, phyrexian_as_hybrid, match):
    ca, cb = ManaCost.parse(a), ManaCost.parse(b)
    assert ca.matches(cb, phyrexian_as_hybrid) is match
    assert cb.matches(ca, phyrexian_as_hybrid) is match


def test_many_copies_of_one_hybrid_symbol_stay_cheap():
    """Order never matters, so twenty {W/U} read as 21 costs, not 2**20."""
    cost = ManaCost.parse("{W/U}" * 20)
    with time_limit(5):
        assert len(cost.instantiations()) == 21


def test_a_cost_with_too_many_hybrid_readings_is_refused_at_once():
    """Forty hybrid symbols have over a million readings: the parser refuses them before any work."""
    kinds = ["W/U", "U/B", "B/R", "R/G", "G/W", "W/B", "U/R", "B/G", "R/W", "G/U",
             "2/W", "2/U", "2/B", "2/R", "2/G", "C/W", "C/U", "C/B", "C/R", "C/G"]
    text = "".join(f"{{{k}}}{{{k}}}" for k in kinds)
    with time_limit(1), pytest.raises(ManaCostError, match="too many hybrid symbols"):
        ManaCost.parse(text)


def test_the_most_hybrid_cost_the_parser_accepts_is_read_in_seconds():
    """Twelve different two-way hybrids: 4096 readings, the bound, all found quickly."""
    kinds = ["W/U", "U/B", "B/R", "R/G", "G/W", "W/B", "U/R", "B/G", "R/W", "G/U", "2/W", "C/U"]
    cost = ManaCost.parse("".join(f"{{{k}}}" for k in kinds))
    with time_limit(5):
        readings = cost.instantiations()
    assert len(readings) <= 4096
    assert ManaCost.parse("{2}{W}{U}{B}{R}{G}{W}{U}{B}{R}{G}{U}") in readings
