"""Properties of the mana algebra and of the index, with Hypothesis: parse ↔ str,
order never matters, matching is symmetric and reflexive, readings follow D1/D3
symbol by symbol, and the index answers exactly what a scan of the whole pool does."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from mentalmagic.formats import FORMATS
from mentalmagic.mana import ManaCost, ManaCostError
from mentalmagic.names import fold

COLOURS = "WUBRG"
PAIRS = [a + "/" + b for a in COLOURS for b in COLOURS if a != b]  # both written orders
SYMBOLS = (
    list(COLOURS)
    + ["C", "S", "X", "Y", "Z", "D", "L"]
    + PAIRS
    + [f"2/{c}" for c in COLOURS] + [f"{c}/2" for c in COLOURS]
    + [f"{c}/P" for c in COLOURS + "C"] + [f"P/{c}" for c in COLOURS + "C"]
    + [f"{p}/P" for p in PAIRS]
    + [f"C/{c}" for c in COLOURS] + [f"{c}/C" for c in COLOURS]
    + [f"H{c}" for c in COLOURS]
)

SETTINGS = settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def cost_texts(draw, max_symbols: int = 7) -> str:
    """A printed cost as a bot might type it: any order, any case, maybe a generic part."""
    symbols = draw(st.lists(st.sampled_from(SYMBOLS), max_size=max_symbols))
    generic = draw(st.one_of(st.none(), st.integers(0, 20), st.just(1000000)))
    raw = symbols + ([str(generic)] if generic is not None else [])
    if not raw:
        return draw(st.sampled_from(["", "none"]))
    raw = draw(st.permutations(raw))
    raw = [s.lower() if draw(st.booleans()) else s for s in raw]
    text = "".join("{" + s + "}" for s in raw)
    try:
        ManaCost.parse(text)
    except ManaCostError:  # more readings than the parser enumerates (test_mana.py checks that refusal)
        reject()
    return text


costs = cost_texts().map(ManaCost.parse)


# -- the algebra -----------------------------------------------------------------------------------
@SETTINGS
@given(cost_texts())
def test_str_of_a_parsed_cost_parses_back_to_the_same_cost(text):
    cost = ManaCost.parse(text)
    assert ManaCost.parse(str(cost)) == cost
    assert str(ManaCost.parse(str(cost))) == str(cost)
    assert eval(repr(cost), {"ManaCost": ManaCost}) == cost


@SETTINGS
@given(cost_texts(), st.randoms(use_true_random=False))
def test_symbol_order_never_matters(text, rnd):
    symbols = text.replace("}", "}\n").split("\n")
    rnd.shuffle(symbols)
    assert ManaCost.parse("".join(symbols)) == ManaCost.parse(text)


def category(symbol: str) -> int:
    if symbol.isdigit():
        return 0
    if symbol in COLOURS:
        return 1
    if "/" in symbol:
        return 2
    return 3


@SETTINGS
@given(costs)
def test_str_writes_generic_then_wubrg_then_hybrids_then_others(cost):
    written = str(cost)[1:-1].split("}{") if str(cost) else []
    cats = [category(s) for s in written]
    assert cats == sorted(cats)
    assert cats.count(0) <= 1
    colours = [s for s in written if s in COLOURS]
    assert colours == sorted(colours, key=COLOURS.index)


@SETTINGS
@given(costs, st.booleans())
def test_a_cost_always_matches_itself(cost, phyrexian_as_hybrid):
    assert cost.matches(cost, phyrexian_as_hybrid)
    assert cost.matches(ManaCost.parse(str(cost)), phyrexian_as_hybrid)


@SETTINGS
@given(costs, costs, st.booleans())
def test_matching_is_symmetric(a, b, phyrexian_as_hybrid):
    assert a.matches(b, phyrexian_as_hybrid) == b.matches(a, phyrexian_as_hybrid)


@SETTINGS
@given(costs)
def test_the_house_option_changes_nothing_without_phyrexian_mana(cost):
    if not any(s.endswith("/P") for s in cost.symbols):
        assert cost.instantiations(False) == cost.instantiations(True)


def halves(symbol: str, phyrexian_as_hybrid: bool) -> list[str]:
    """D1/D3 for one canonical symbol, written out independently of mana.py."""
    parts = symbol.split("/")
    if len(parts) == 3:  # {W/U/P}
        return [h for c in parts[:2] for h in halves(f"{c}/P", phyrexian_as_hybrid)]
    if len(parts) == 2 and parts[1] == "P":
        return [parts[0], "2"] if phyrexian_as_hybrid else [symbol]
    if len(parts) == 2:
        return parts
    return [symbol]


def oracle_readings(cost: ManaCost, phyrexian_as_hybrid: bool) -> set[tuple]:
    out = set()
    for pick in product(*(halves(s, phyrexian_as_hybrid) for s in cost.symbols)):
        numbers = [int(h) for h in pick if h.isdigit()]
        plain = Counter(h for h in pick if not h.isdigit())
        generic = None if cost.generic is None and not numbers else (cost.generic or 0) + sum(numbers)
        if generic == 0 and plain:
            generic = None
        out.add((generic, frozenset(plain.items())))
    return out


@SETTINGS
@given(cost_texts(max_symbols=6), st.booleans())
def test_readings_pick_one_half_of_every_hybrid_symbol_and_sum_generic_parts(text, phyrexian_as_hybrid):
    cost = ManaCost.parse(text)
    got = {(c.generic, frozenset(Counter(c.symbols).items())) for c in cost.instantiations(phyrexian_as_hybrid)}
    assert got == oracle_readings(cost, phyrexian_as_hybrid)


@SETTINGS
@given(costs)
def test_mana_value_and_colours_do_not_depend_on_the_reading_order(cost):
    again = ManaCost.parse(str(cost))
    assert again.mana_value == cost.mana_value
    assert again.colours == cost.colours
    assert cost.mana_value >= (cost.generic or 0)


# -- the index against a brute-force scan ----------------------------------------------------------
# A card is drawn by its place in the pool: st.sampled_from(pool.cards) would hash all 34k cards, deeply,
# each time a test builds it.
@pytest.fixture(scope="module")
def allowed(pool):
    """Per format, the nameables whose card may be chosen there (D5), in pool order."""
    return {fmt: [n for n in pool.nameables if pool.refusal(n.card, fmt) is None] for fmt in FORMATS}


def brute_force(allowed_nameables, printed_costs, excluded, phyrexian_as_hybrid) -> list[str]:
    matching: dict[ManaCost, bool] = {}  # each cost matched once: thousands of cards share a few hundred costs
    seen, out = set(), []
    for n in allowed_nameables:
        if n.cost not in matching:
            matching[n.cost] = any(n.cost.matches(c, phyrexian_as_hybrid) for c in printed_costs)
        if not matching[n.cost] or fold(n.name) in excluded or fold(n.name) in seen:
            continue
        seen.add(fold(n.name))
        out.append(n.name)
    return out


@settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(FORMATS), st.booleans())
def test_the_index_answers_what_a_scan_of_the_pool_answers_for_a_printed_card(
    pool, finder, allowed, data, fmt, phyrexian_as_hybrid
):
    card = pool.cards[data.draw(st.integers(0, len(pool.cards) - 1), label="printed")]
    excluded = {fold(card.name), *(fold(f.name) for f in card.faces)}
    expected = brute_force(allowed[fmt], card.printed_costs, excluded, phyrexian_as_hybrid)
    result = finder.candidates(printed=card, fmt=fmt, phyrexian_as_hybrid=phyrexian_as_hybrid)
    assert [n.name for n in result.candidates] == expected


@settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(FORMATS), st.booleans())
def test_the_index_answers_what_a_scan_of_the_pool_answers_for_a_cost(
    pool, finder, allowed, data, fmt, phyrexian_as_hybrid
):
    # Costs are drawn from real cards half the time, so that answers are rarely empty.
    real = pool.nameables[data.draw(st.integers(0, len(pool.nameables) - 1), label="a real card's cost")].cost
    cost = data.draw(st.one_of(st.just(real), costs), label="cost")
    expected = brute_force(allowed[fmt], [cost], set(), phyrexian_as_hybrid)
    result = finder.candidates(cost=cost, fmt=fmt, phyrexian_as_hybrid=phyrexian_as_hybrid)
    assert [n.name for n in result.candidates] == expected


def test_the_scan_itself_finds_the_rule_examples(pool, allowed):
    """Guards the brute force: it must agree with 704.1's first example."""
    names = brute_force(allowed["vintage"], [ManaCost.parse("{W}")], set(), False)
    assert {"Savannah Lions", "Figure of Destiny"} <= set(names)


# -- within a commander's colour identity (903.5c, D14(b)) -----------------------------------------
identities = st.sets(st.sampled_from(COLOURS)).map(frozenset)


def brute_force_within(allowed_nameables, printed_costs, excluded, phyrexian_as_hybrid, identity) -> list[str]:
    """The scan above over only the entries whose identity is within ``identity``, read from the
    card data directly: the card's colorIdentity, or a split half's own symbols and colours."""
    def own(n):
        if n.card.layout in ("split", "aftermath") and len(n.card.faces) > 1:
            f = n.face
            symbols = f"{f.cost.text} {f.text}"
            for part in ("(", ")"):
                symbols = symbols.replace(part, "\0")
            text = "".join(s for i, s in enumerate(symbols.split("\0")) if i % 2 == 0)  # no reminder text
            letters = {c for sym in text.split("{")[1:] for c in sym.split("}")[0].upper().split("/")}
            letters |= {s[1] for s in letters if len(s) == 2 and s[0] == "H"}
            return (frozenset(letters) & set(COLOURS) | (f.colors or frozenset())) & n.card.color_identity
        return n.card.color_identity

    inside = [n for n in allowed_nameables if own(n) <= identity]
    return brute_force(inside, printed_costs, excluded, phyrexian_as_hybrid)


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(FORMATS), st.booleans(), identities)
def test_the_index_within_an_identity_answers_what_a_filtered_scan_answers(
    pool, finder, allowed, data, fmt, phyrexian_as_hybrid, identity
):
    card = pool.cards[data.draw(st.integers(0, len(pool.cards) - 1), label="printed")]
    excluded = {fold(card.name), *(fold(f.name) for f in card.faces)}
    expected = brute_force_within(allowed[fmt], card.printed_costs, excluded, phyrexian_as_hybrid, identity)
    result = finder.candidates(printed=card, fmt=fmt, phyrexian_as_hybrid=phyrexian_as_hybrid, identity=identity)
    assert [n.name for n in result.candidates] == expected
    # and asked twice, the remembered answer is the same
    again = finder.candidates(printed=card, fmt=fmt, phyrexian_as_hybrid=phyrexian_as_hybrid, identity=identity)
    assert [n.name for n in again.candidates] == expected


def test_the_filtered_scan_itself_reads_fire_and_ice_apart(pool, allowed):
    """Guards the brute force within an identity: a split half is its own identity (D14(b))."""
    costs = [ManaCost.parse("{1}{R}"), ManaCost.parse("{1}{U}")]
    red = brute_force_within(allowed["vintage"], costs, set(), False, frozenset("R"))
    assert "Fire" in red and "Ice" not in red and "Counterspell" not in red
