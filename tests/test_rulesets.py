"""The rule sets (mentalmagic/rulesets.py): each relation against its source's own examples, its
properties with Hypothesis, and a brute-force oracle per rule set, written from the rule texts
apart from the code, over the core mini pool and a few more real cards (minipool_variants.py)."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from minipool_variants import VARIANT_ATOMIC, variant_pool

from mentalmagic.formats import FORMATS, format_refusal
from mentalmagic.mana import NO_COST, ManaCost
from mentalmagic.names import fold
from mentalmagic.rulesets import (
    ANEW,
    DEFAULT_RULES,
    DROP,
    KEEP,
    MAGERING,
    MAGIC_VILLE,
    PRESETS,
    RULE_SETS,
    XOM,
    BadRuleOption,
    Ban,
    LandPlay,
    UnknownRuleSet,
    cost_keys,
    costs_match,
    face_down_refusal,
    land_play_refusal,
    name_taken_rule,
    naming_on_move,
    rule_set,
    ruleset_refusal,
)
from mentalmagic.zones import BATTLEFIELD, EXILE, GRAVEYARD, HAND, LIBRARY, MOVE_ZONES, STACK

SETTINGS = settings(deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow])
COLOURS = "WUBRG"
PAIRS = [a + "/" + b for a in COLOURS for b in COLOURS if a != b]
SYMBOLS = (
    list(COLOURS) + ["C", "X", "S"] + PAIRS + [f"2/{c}" for c in COLOURS]
    + [f"{c}/P" for c in COLOURS + "C"] + [f"{p}/P" for p in PAIRS] + [f"C/{c}" for c in COLOURS]
)
# every rule set, and magic-ville under D3's house option
ALL = [rule_set(k) for k in RULE_SETS] + [rule_set(MAGIC_VILLE, {"phyrexian_as_hybrid": True})]


@st.composite
def cost_texts(draw, max_symbols: int = 5) -> str:
    symbols = draw(st.lists(st.sampled_from(SYMBOLS), max_size=max_symbols))
    generic = draw(st.one_of(st.none(), st.integers(0, 8)))
    raw = symbols + ([str(generic)] if generic is not None else [])
    return "".join("{" + s + "}" for s in raw)


costs = cost_texts().map(ManaCost.parse)
rule_sets = st.sampled_from(ALL)


@pytest.fixture(scope="module")
def vpool():
    return variant_pool()


# -- the oracle, read from each rule text on its own --------------------------------------------
def halves(symbol: str, phyrexian: str) -> list[str]:
    """One printed symbol's readings: D1 for hybrids; D3 (strict), its house option, or Xom 5g."""
    parts = symbol.split("/")
    if parts[-1] == "P":
        if phyrexian == "colour":  # 5g: a Phyrexian symbol is the plain symbol of its colour
            return halves("/".join(parts[:-1]), phyrexian)
        if len(parts) == 3:  # {W/U/P}: {W/P} or {U/P}
            return [h for c in parts[:2] for h in halves(f"{c}/P", phyrexian)]
        return [parts[0], "2"] if phyrexian == "hybrid" else [symbol]
    return parts


def readings(cost: ManaCost, phyrexian: str) -> set:
    out = set()
    for pick in product(*(halves(s, phyrexian) for s in cost.symbols)):
        numbers = [int(h) for h in pick if h.isdigit()]
        plain = Counter(h for h in pick if not h.isdigit())
        generic = None if cost.generic is None and not numbers else (cost.generic or 0) + sum(numbers)
        if generic == 0 and plain:  # {0}{W} is {W}
            generic = None
        out.add((generic, frozenset(plain.items())))
    return out


def value(cost: ManaCost) -> Fraction:
    """Converted mana cost, as Magic counts it: {2/W} is 2, X is 0."""
    return (cost.generic or 0) + sum(2 if s.startswith("2/") else 0 if s == "X" else 1 for s in cost.symbols)


def xom_5e(cost: ManaCost) -> bool:
    """'A multicolor card costing at least one non-hybrid colored mana' (Phyrexian read as 5g says)."""
    syms = [s[:-2] if s.endswith("/P") else s for s in cost.symbols]
    colours = {c for s in syms for c in s.split("/") if c in COLOURS}
    return len(colours) >= 2 and any(s in COLOURS for s in syms)


def oracle_match(a: ManaCost, b: ManaCost, rs) -> bool:
    if readings(a, rs.matching.phyrexian) & readings(b, rs.matching.phyrexian):
        return True  # 704.1 and D1 (Xom 5f: "some or all of the hybrid symbols treated as one of their halves")
    if rs.matching.zero_is_no_cost and {a, b} <= {NO_COST, ManaCost.parse("{0}")}:
        return True  # Xom 5d
    return rs.matching.multicolour_by_value and xom_5e(a) and xom_5e(b) and value(a) == value(b)  # Xom 5e


# -- cost matching ----------------------------------------------------------------------------------
@SETTINGS
@given(costs, st.booleans())
def test_the_default_files_every_cost_exactly_as_today(cost, phyrexian_as_hybrid):
    rs = rule_set(None, {"phyrexian_as_hybrid": phyrexian_as_hybrid})
    assert cost_keys(cost, rs.matching) == cost.instantiations(phyrexian_as_hybrid)


@SETTINGS
@given(costs, costs, rule_sets)
def test_costs_match_as_the_rule_texts_say(a, b, rs):
    assert costs_match(a, b, rs.matching) == oracle_match(a, b, rs)


@SETTINGS
@given(costs, costs, rule_sets)
def test_matching_is_symmetric_and_reflexive(a, b, rs):
    assert costs_match(a, b, rs.matching) == costs_match(b, a, rs.matching)
    assert costs_match(a, a, rs.matching)


@SETTINGS
@given(costs, costs)
def test_xom_matches_whatever_the_default_matches_once_phyrexian_symbols_are_read_as_colour(a, b):
    plain = [ManaCost.of(c.generic, [s[:-2] if s.endswith("/P") else s for s in c.symbols]) for c in (a, b)]
    if costs_match(*plain, PRESETS[MAGIC_VILLE].matching):
        assert costs_match(a, b, PRESETS[XOM].matching)


def m(text: str) -> ManaCost:
    return ManaCost.parse(text)


@pytest.mark.parametrize("printed", ["{R}{R}{R}", "{2}{R}{R}", "{4}{R}", "{6}"])
@pytest.mark.parametrize("key", RULE_SETS)
def test_xom_5f_flame_javelin_under_every_rule_set(printed, key):
    """Xom 5f's example, which is also 704.1's third: these costs can become Flame Javelin."""
    assert costs_match(m(printed), m("{2/R}{2/R}{2/R}"), PRESETS[key].matching)


def test_xom_5d_zero_matches_no_mana_cost_and_back_only_under_xom():
    zero_vs_none = [costs_match(m("{0}"), NO_COST, PRESETS[k].matching) for k in RULE_SETS]
    assert zero_vs_none == [k == XOM for k in RULE_SETS]  # D2 stands elsewhere
    assert not costs_match(m("{0}"), m("{1}"), PRESETS[XOM].matching)


def test_xom_5e_and_5c_multicolour_by_mana_value_and_not_transitive():
    xom = PRESETS[XOM].matching
    assert costs_match(m("{1}{R}{G}"), m("{1}{U}{R}"), xom)  # Fires of Yavimaya as Electrolyze
    assert costs_match(m("{1}{R}{G}"), m("{R}{G}{B}"), xom)
    assert not costs_match(m("{1}{R}{G}"), m("{2}{R}{G}"), xom)  # not the same mana value
    assert not costs_match(m("{1}{R}{G}"), m("{1}{G/W}{G/W}"), xom)  # Kitchen Finks: only hybrid colours
    # 5c: {1}{G/W}{G/W} = {1}{G}{W} (5f) and {1}{G}{W} = {1}{R}{G} (5e), yet not {1}{G/W}{G/W} = {1}{R}{G}
    assert costs_match(m("{1}{G/W}{G/W}"), m("{1}{G}{W}"), xom) and costs_match(m("{1}{G}{W}"), m("{1}{R}{G}"), xom)
    assert not costs_match(m("{1}{R}{G}"), m("{1}{U}{R}"), PRESETS[MAGIC_VILLE].matching)


def test_xom_5g_phyrexian_symbols_are_their_colour_and_only_that():
    xom, mv = PRESETS[XOM].matching, PRESETS[MAGIC_VILLE].matching
    house = rule_set(MAGIC_VILLE, {"phyrexian_as_hybrid": True}).matching
    assert costs_match(m("{U/P}"), m("{U}"), xom) and not costs_match(m("{U/P}"), m("{2}"), xom)
    assert costs_match(m("{U/P}"), m("{2}"), house) and costs_match(m("{U/P}"), m("{U}"), house)
    assert not costs_match(m("{U/P}"), m("{U}"), mv) and costs_match(m("{U/P}"), m("{U/P}"), mv)  # D3
    assert costs_match(m("{1}{B/P}{B/P}"), m("{1}{B}{B}"), xom)  # Dismember
    assert costs_match(m("{W/U/P}"), m("{U}"), xom)  # to {W/U}, then a half (5f)


# -- the oracle over a pool, per rule set ------------------------------------------------------------
def allowed(pool, rs, fmt):
    return [n for n in pool.nameables if ruleset_refusal(rs, n.card, fmt, pool.bans) is None]


def index_answer(entries, rs, printed) -> list[str]:
    """What an index filed by cost_keys answers: a few look-ups, no scan."""
    by_key: dict = {}
    for pos, n in enumerate(entries):
        for k in cost_keys(n.cost, rs.matching):
            by_key.setdefault(k, []).append(pos)
    found = sorted({pos for c in printed.printed_costs for k in cost_keys(c, rs.matching) for pos in by_key.get(k, ())})
    out, seen = [], set()
    for n in (entries[p] for p in found):
        if n.key not in printed.face_names and n.key not in seen:
            seen.add(n.key)
            out.append(n.name)
    return out


def scan_answer(entries, rs, printed) -> list[str]:
    out, seen = [], set()
    for n in entries:
        if n.key in printed.face_names or n.key in seen:
            continue
        if any(oracle_match(c, n.cost, rs) for c in printed.printed_costs):
            seen.add(n.key)
            out.append(n.name)
    return out


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), rule_sets, st.sampled_from(FORMATS))
def test_an_index_by_cost_keys_answers_what_a_scan_of_the_pool_answers(vpool, data, rs, fmt):
    entries = allowed(vpool, rs, fmt)
    printed = data.draw(st.sampled_from(vpool.cards), label="printed")
    assert index_answer(entries, rs, printed) == scan_answer(entries, rs, printed)


def test_the_scan_finds_each_rule_sets_own_examples(vpool):
    def names(key, printed, fmt="vintage"):
        rs = PRESETS[key]
        return scan_answer(allowed(vpool, rs, fmt), rs, vpool.lookup(printed))

    assert "Forest" in names(XOM, "Ornithopter") and "Evermind" in names(XOM, "Ornithopter")  # 5d's examples
    assert "Ornithopter" not in names(MAGIC_VILLE, "Forest")  # D2
    assert "Electrolyze" in names(XOM, "Fires of Yavimaya")  # 5e
    assert "Electrolyze" not in names(MAGERING, "Fires of Yavimaya")
    assert names(MAGIC_VILLE, "Gitaxian Probe", "all") == ["Mental Misstep"]  # D3: {U/P} is only {U/P}
    assert "Ancestral Recall" in names(XOM, "Gitaxian Probe")  # 5g, and restricted is not banned
    assert "Mana Leak" not in names(XOM, "Gitaxian Probe")


# -- bans -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_default_refuses_exactly_what_the_format_and_the_706_list_refuse(vpool, fmt):
    rs = PRESETS[DEFAULT_RULES]
    for card in vpool.cards:
        assert ruleset_refusal(rs, card, fmt, vpool.bans) == format_refusal(card, fmt, vpool.bans), card.name


def refusal(vpool, key, name):
    return ruleset_refusal(PRESETS[key], vpool.lookup(name), "vintage", vpool.bans)


@pytest.mark.parametrize(("name", "rule", "code"), [
    ("Battle of Wits", "2a", "banned_card"), ("Traumatize", "2a", "banned_card"),
    ("Doomsday", "2a", "banned_card"), ("Leveler", "2a", "banned_card"),
    ("Tainted Pact", "2b", "banned_card"), ("Mind Funeral", "2b", "banned_card"),
    ("Abundance", "2b", "reveal_until"), ("Illusionary Mask", "6b", "banned_card"),
    ("Goblin Taskmaster", "6b", "banned_mechanic"), ("Den Protector", "6b", "banned_mechanic"),
    ("Whisperwood Elemental", "6b", "banned_mechanic"),
])
def test_xom_bans_its_examples_and_their_kinds(vpool, name, rule, code):
    ban = refusal(vpool, XOM, name)
    assert isinstance(ban, Ban) and (ban.rule, ban.code) == (rule, code)


def test_xom_reads_its_kinds_from_the_text_and_leaves_the_rest_alone(vpool):
    xom = PRESETS[XOM].bans
    by_text = {t.code: t.pattern for t in xom.texts}
    assert by_text["library_size"].search(vpool.lookup("Battle of Wits").front.text)
    assert by_text["library_size"].search(vpool.lookup("Traumatize").front.text)
    assert by_text["reveal_until"].search(vpool.lookup("Mind Funeral").front.text)
    assert by_text["face_down_maker"].search(vpool.lookup("Illusionary Mask").front.text)
    assert by_text["ante_card"].search(vpool.lookup("Contract from Below").front.text)
    # a hideaway land exiles face down: no face-down spell or permanent; a look at the top is no size
    for fine in ("Windbrisk Heights", "Sensei's Divining Top", "Mishra's Bauble", "Savannah Lions",
                 "Ancestral Recall", "Black Lotus"):
        assert refusal(vpool, XOM, fine) is None, fine


def test_restricted_cards_are_banned_only_by_706_1(vpool):
    assert refusal(vpool, MAGIC_VILLE, "Ancestral Recall").rule == "706.1"
    assert refusal(vpool, XOM, "Ancestral Recall") is None and refusal(vpool, MAGERING, "Black Lotus") is None
    assert refusal(vpool, XOM, "Contract from Below").rule == "706.1"  # banned in vintage: not of the format
    assert refusal(vpool, MAGIC_VILLE, "Abundance").rule == "706.2" and refusal(vpool, MAGERING, "Abundance") is None


@pytest.mark.parametrize("name", ["Fastbond", "Sylvan Library", "Sundering Titan", "Sensei's Divining Top"])
def test_magering_bans_its_list(vpool, name):
    ban = refusal(vpool, MAGERING, name)
    assert isinstance(ban, Ban) and ban.rule == "ban list" and ban.params["card"] == name


def test_magering_strips_morph_and_dredge_but_names_their_cards(vpool):
    """'Cards with banned mechanics can still be cast, they simply don't have that keyword.'"""
    for name in ("Goblin Taskmaster", "Life from the Loam", "Den Protector"):
        assert refusal(vpool, MAGERING, name) is None
    assert face_down_refusal(PRESETS[MAGERING], "morph") == "ban list"
    assert face_down_refusal(PRESETS[MAGERING], "megamorph") is None  # the list names morph only
    assert face_down_refusal(PRESETS[XOM], "manifest") == "6b" and face_down_refusal(PRESETS[XOM], "effect") is None
    assert all(face_down_refusal(PRESETS[MAGIC_VILLE], via) is None for via in ("morph", "manifest", "disguise"))


# -- the face-down land ---------------------------------------------------------------------------
def test_each_face_down_land_is_what_its_source_says():
    mv, xom, mr = (PRESETS[k].land for k in (MAGIC_VILLE, XOM, MAGERING))
    assert (mv.name, mv.supertypes, mv.subtypes, mv.takes_name) == ("Pentaland", ("Basic",), (), False)  # 703.1
    assert (xom.name, xom.supertypes, xom.subtypes, xom.takes_name) == ("Utopia", ("Basic",), ("Utopia",), True)
    assert (mr.name, set(mr.subtypes)) == ("Utopia", {"Plains", "Island", "Swamp", "Mountain", "Forest"})


@pytest.mark.parametrize(("key", "play", "rule"), [
    (MAGIC_VILLE, LandPlay(HAND), None),
    (MAGIC_VILLE, LandPlay(HAND, named=True), None),  # D10: a named card of the hand
    (MAGIC_VILLE, LandPlay(HAND, own=False), "703.2"),
    (MAGIC_VILLE, LandPlay(HAND, own=False, by_judge=True), None),
    (MAGIC_VILLE, LandPlay(HAND, name_given="Forest"), "703.2"),
    (MAGIC_VILLE, LandPlay(HAND, to=GRAVEYARD), "703.4"),
    (MAGIC_VILLE, LandPlay(LIBRARY), "703.3"),
    (MAGIC_VILLE, LandPlay(LIBRARY, revealed=True), None),
    (MAGIC_VILLE, LandPlay(EXILE), None),  # 703.3's example: a card exiled by Colfenor's Plans
    (MAGIC_VILLE, LandPlay(EXILE, named=True), "703.3"),
    (MAGIC_VILLE, LandPlay(EXILE, named=True, face_down=True), None),
    (XOM, LandPlay(HAND), None),
    (XOM, LandPlay(HAND, name_given="Utopia"), None),  # !u: "name and play an unnamed card as Utopia"
    (XOM, LandPlay(HAND, name_given="Forest"), "4"),
    (XOM, LandPlay(HAND, named=True), "4"),
    (XOM, LandPlay(EXILE), "4"),
    (XOM, LandPlay(HAND, to=STACK), "4a"),
    (MAGERING, LandPlay(HAND), None),
    (MAGERING, LandPlay(HAND, named=True), None),  # "any card may be played face-down as a land"
    (MAGERING, LandPlay(EXILE), "Utopia"),
])
def test_who_may_play_what_as_the_face_down_land(key, play, rule):
    assert land_play_refusal(PRESETS[key].land, play) == rule


plays = st.builds(
    LandPlay, zone=st.sampled_from(MOVE_ZONES), to=st.sampled_from(MOVE_ZONES), named=st.booleans(),
    face_down=st.booleans(), revealed=st.booleans(), own=st.booleans(), by_judge=st.booleans(),
)


@SETTINGS
@given(plays)
def test_xom_allows_no_more_than_magering_and_magering_no_more_than_magic_ville(play):
    land = {k: PRESETS[k].land for k in RULE_SETS}
    if land_play_refusal(land[XOM], play) is None:
        assert land_play_refusal(land[MAGERING], play) is None
    if land_play_refusal(land[MAGERING], play) is None:
        assert land_play_refusal(land[MAGIC_VILLE], play) is None
    if play.to != BATTLEFIELD:  # a land is played onto the battlefield, under every rule set
        assert all(land_play_refusal(x, play) is not None for x in land.values())


# -- names ------------------------------------------------------------------------------------------
@SETTINGS
@given(st.sampled_from(MOVE_ZONES), st.sampled_from(MOVE_ZONES))
def test_only_magering_drops_or_renews_a_name(src, to):
    assert naming_on_move(PRESETS[MAGIC_VILLE], src, to) == KEEP  # 704.4
    assert naming_on_move(PRESETS[XOM], src, to) == KEEP  # 3a
    kept = {STACK, BATTLEFIELD}
    expected = (KEEP if src in kept else ANEW) if to in kept else DROP
    assert naming_on_move(PRESETS[MAGERING], src, to) == expected


def test_magering_a_card_that_leaves_and_reenters_the_battlefield_is_named_anew():
    mr = PRESETS[MAGERING]
    assert naming_on_move(mr, STACK, BATTLEFIELD) == KEEP  # a spell resolving
    assert naming_on_move(mr, BATTLEFIELD, EXILE) == DROP  # its printed "face" card in exile
    assert naming_on_move(mr, EXILE, BATTLEFIELD) == ANEW
    assert naming_on_move(mr, GRAVEYARD, BATTLEFIELD) == ANEW


def test_names_taken_in_an_earlier_game_count_only_where_names_last_a_series():
    game, series = frozenset({fold("Shock")}), frozenset({fold("Lightning Bolt")})
    assert name_taken_rule(PRESETS[XOM], fold("Lightning Bolt"), game, series) == "6"
    assert name_taken_rule(PRESETS[XOM], fold("Shock"), game, series) == "6"
    assert name_taken_rule(PRESETS[MAGIC_VILLE], fold("Shock"), game, series) == "704.2"
    for key in (MAGIC_VILLE, MAGERING):
        assert name_taken_rule(PRESETS[key], fold("Lightning Bolt"), game, series) is None
    assert name_taken_rule(PRESETS[XOM], fold("Giant Growth"), game, series) is None


# -- presets and options ------------------------------------------------------------------------
def test_the_default_is_magic_ville_and_differs_from_itself_in_nothing():
    assert rule_set() is PRESETS[MAGIC_VILLE] or rule_set() == PRESETS[MAGIC_VILLE]
    assert rule_set().differs() == ()
    assert rule_set("Magic-Ville", {"phyrexian_as_hybrid": True}).differs() == ("matching",)
    assert rule_set(MAGIC_VILLE, {"phyrexian_as_hybrid": True}).cite("matching") == "D3"


def test_each_variant_cites_its_own_rule_where_it_differs():
    xom, mr = PRESETS[XOM], PRESETS[MAGERING]
    assert xom.differs() == ("matching", "zero", "multicolour", "land", "bans", "face_down", "scope")
    assert [xom.cite(a) for a in xom.differs()] == ["5c, 5f, 5g", "5d", "5e", "4", "2a, 2b, 6a, 6b", "6b", "6"]
    assert mr.differs() == ("land", "bans", "face_down", "returning")
    for rs in PRESETS.values():
        assert all(rs.cite(a) for a in rs.differs())


def test_unknown_rule_sets_and_options_are_refused_with_a_code():
    with pytest.raises(UnknownRuleSet) as e:
        rule_set("house")
    assert e.value.code == "unknown_rules" and e.value.said.params["name"] == "house"
    assert [m.code for m in e.value.fields["rules"]] == ["rules.unknown.field"]
    with pytest.raises(BadRuleOption):
        rule_set(XOM, {"phyrexian_as_hybrid": True})  # 5g fixes how Phyrexian symbols read
    with pytest.raises(BadRuleOption):
        rule_set(MAGIC_VILLE, {"phyrexian_as_hybrid": "yes"})
    assert rule_set(MAGERING, {"phyrexian_as_hybrid": True}).matching.phyrexian == "hybrid"


# -- the extra cards are the snapshot's ----------------------------------------------------------
@pytest.mark.snapshot
def test_every_extra_card_is_copied_exactly_from_the_embedded_snapshot():
    from minipool import FIELDS

    from mentalmagic.carddata import EMBEDDED_PATH
    from mentalmagic.carddata.atomic import open_text

    with open_text(EMBEDDED_PATH) as fh:
        data = json.load(fh)["data"]
    for name, faces in VARIANT_ATOMIC.items():
        assert faces == [{k: f[k] for k in FIELDS if k in f} for f in data[name]], name


# -- series ------------------------------------------------------------------------------------------
@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(["g1", "g2", "g3"]), st.frozensets(st.sampled_from("abcde"))),
                max_size=4), st.sampled_from(["g1", "g2", "g3"]), rule_sets)
def test_a_series_carries_every_other_games_names_only_where_names_last_a_series(games, me, rs):
    from mentalmagic.series import carried_names

    carried = carried_names(rs, games, me)
    if rs.name_scope == "series":
        assert carried.keys() == {k for gid, keys in games if gid != me for k in keys}
        for key, gid in carried.items():  # the first game, in the series' order, that took it
            assert gid == next(g for g, keys in games if g != me and key in keys)
    else:
        assert carried == {}


def test_every_ban_says_a_message_the_catalogue_has(vpool):
    from mentalmagic.messages import WORDS

    codes = {"banned_card", "banned_mechanic"} | {t.code for rs in PRESETS.values() for t in rs.bans.texts}
    for code in codes:
        assert Ban("2a", code, {"card": "X", "mechanic": "Morph"}).message.code in WORDS
    assert str(refusal(vpool, XOM, "Battle of Wits").message) == "Battle of Wits is banned under these rules"
