"""Colour identity (903.4, D14(b)) and commanders (903.3, D14(a)/(c)) on the full snapshot:
which cards can be a commander, which two can share the command zone, the identity a player
names within, and the index's answers within it (903.5c)."""

from __future__ import annotations

import pytest

from mentalmagic.cards import Card, Face, Nameable
from mentalmagic.commander import (
    can_be_commander,
    commander_refusal,
    find_commanders,
    identity_of,
    pair_refusal,
)
from mentalmagic.errors import NotACommander
from mentalmagic.identity import identity_text, parse_identity, symbol_colours, wubrg
from mentalmagic.mana import ManaCost

R, U, W = frozenset("R"), frozenset("U"), frozenset("W")


# -- identity from symbols (903.4) ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "colours"),
    [
        ("{R/W}{R/W}", "RW"),  # a hybrid counts every colour
        ("{2/R}", "R"),
        ("{R/P}", "R"),
        ("{W/U/P}", "WU"),
        ("{HW}", "W"),
        ("{C}{X}{T}{S}{Q}{E}", ""),  # colourless and non-mana symbols have no colour
        ("{T}: Add {G}.", "G"),  # rules text counts
        ("Cycling {2} ({2}, Discard this card: Draw a card. Add {B}.)", ""),  # reminder text doesn't (903.4c)
        ("", ""),
    ],
)
def test_the_colours_of_mana_symbols_in_cost_and_text(text, colours):
    assert symbol_colours(text) == frozenset(colours)


def test_identities_read_and_print_in_wubrg_order():
    assert wubrg(parse_identity(["G", "r", "W"])) == ["W", "R", "G"]
    assert identity_text(frozenset("GRW")) == "{W}{R}{G}"
    assert str(identity_text(frozenset())) == "colourless"
    with pytest.raises(ValueError, match="not a colour: X"):
        parse_identity(["R", "X"])


# -- the card data's identity, and a split half's own (D14(b)) -----------------------------------------
@pytest.mark.parametrize(
    ("name", "colours"),
    [
        ("Fire", "R"),  # MTGJSON gives Fire // Ice {U}{R} on both faces: each half is its own
        ("Ice", "U"),
        ("Wear", "R"),
        ("Tear", "W"),
        ("Boros Guildmage", "RW"),  # hybrid
        ("Counterspell", "U"),
        ("Sol Ring", ""),
        ("Ancestral Vision", "U"),  # no mana cost: its colour indicator
        ("Dryad Arbor", "G"),
        ("Bonecrusher Giant", "R"),  # an adventurer is the whole card (903.4e)
        ("Delver of Secrets", "U"),
    ],
)
def test_each_name_carries_its_colour_identity(pool, name, colours):
    (n,) = {n.name: n for n in pool.nameables_called(name)}.values()
    assert n.identity == frozenset(colours)


def test_a_split_half_reads_its_own_colour_indicator_and_text_within_the_cards_identity():
    half = Face("Left", None, ManaCost.parse("{1}"), 1, "Instant", text="Add {G}.", colors=frozenset("B"))
    other = Face("Right", None, ManaCost.parse("{W}"), 1, "Instant")
    card = Card("Left // Right", None, "split", (half, other), color_identity=frozenset("WBG"))
    left, right = card.nameables()
    assert left.identity == frozenset("BG") and right.identity == W
    # data without the whole card's identity: the half's own reading stands alone
    loose = Card("Left // Right", None, "split", (half, other))
    assert loose.nameables()[0].identity == frozenset("BG")


def test_a_card_whose_data_lacks_its_identity_has_none():
    face = Face("Mystery", None, ManaCost.parse("{R}"), 1, "Instant")
    (n,) = Card("Mystery", None, "normal", (face,)).nameables()
    assert isinstance(n, Nameable) and n.identity is None


def test_every_nameable_of_the_snapshot_has_a_known_identity_within_its_cards(pool):
    for n in pool.nameables:
        assert n.identity is not None and n.identity <= n.card.color_identity, n.name


# -- who can be a commander (903.3, 903.3a) ----------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "colours"),
    [
        ("Mayael the Anima", "RGW"),
        ("Krenko, Mob Boss", "R"),
        ("Teferi, Temporal Archmage", "U"),  # a planeswalker whose text says it can be (903.3a)
        ("Thrasios, Triton Hero", "GU"),
        ("Delver of Secrets", None),  # not legendary
    ],
)
def test_a_commander_is_a_legendary_creature_or_says_it_can_be_one(pool, name, colours):
    card = pool.lookup(name)
    assert can_be_commander(card) is (colours is not None)
    if colours is not None:
        assert identity_of([card]) == frozenset(colours)


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Savannah Lions", "not a legendary creature"),
        ("Jace, the Mind Sculptor", "not a legendary creature"),  # a planeswalker that doesn't say so
        ("Candlekeep Sage", "Choose a Background"),  # a Background alone
        ("Brisela, Voice of Nightmares", "not a card that can be in a deck"),  # a meld result never is a card of a deck
    ],
)
def test_a_card_that_cant_be_a_commander_is_refused_with_the_reason_and_903_3(pool, name, says):
    card = pool.lookup(name)
    assert not can_be_commander(card)
    with pytest.raises(NotACommander) as e:
        find_commanders(pool, [name])
    assert says.lower().replace("'", "") in e.value.message.lower().replace("'", "")
    assert e.value.rule == "903.3" and e.value.fields == {"commander": [e.value.said]}
    assert commander_refusal(card) == e.value.said


@pytest.mark.parametrize(
    ("pair", "colours"),
    [
        (("Thrasios, Triton Hero", "Tymna the Weaver"), "WUBG"),  # Partner on both
        (("Pir, Imaginative Rascal", "Toothy, Imaginary Friend"), "UG"),  # Partner with each other
        (("Abdel Adrian, Gorion's Ward", "Candlekeep Sage"), "WU"),  # Choose a Background
        (("Candlekeep Sage", "Abdel Adrian, Gorion's Ward"), "WU"),  # in either order
        (("Amy Pond", "The Tenth Doctor"), "UR"),  # Doctor's companion
        (("Bjorna, Nightfall Alchemist", "Cecily, Haunted Mage"), "UBR"),  # Friends forever
        (("Atreus, Impulsive Son", "Kratos, Stoic Father"), "WUR"),  # Partner—Father & son
    ],
)
def test_two_commanders_that_may_share_the_command_zone_name_within_their_union(pool, pair, colours):
    cards = find_commanders(pool, list(pair))
    assert [c.name for c in cards] == list(pair)
    assert identity_of(cards) == frozenset(colours)


@pytest.mark.parametrize(
    ("pair", "rule"),
    [
        (("Krenko, Mob Boss", "Tymna the Weaver"), "D14(c)"),  # only one has partner
        (("Pir, Imaginative Rascal", "Thrasios, Triton Hero"), "D14(c)"),  # "Partner with" someone else
        (("Thrasios, Triton Hero", "Thrasios, Triton Hero"), "D14(c)"),  # the same card twice
        (("Krenko, Mob Boss", "Candlekeep Sage"), "903.3"),  # a Background, but Krenko doesn't choose one
        (("Tymna the Weaver", "Savannah Lions"), "903.3"),  # a partner beside a card that can't be a commander
        (("Atreus, Impulsive Son", "Abby, Merciless Soldier"), "D14(c)"),  # two groups: Father & son, Survivors
        (("Bjorna, Nightfall Alchemist", "Thrasios, Triton Hero"), "D14(c)"),  # Friends forever beside Partner
    ],
)
def test_a_pair_that_cant_share_the_command_zone_is_refused(pool, pair, rule):
    cards = [pool.lookup(n) for n in pair]
    why = pair_refusal(*cards)
    assert why
    with pytest.raises(NotACommander) as e:
        identity_of(cards)
    assert (e.value.said, e.value.rule) == (why, rule)


def test_an_unknown_commander_and_three_commanders_are_refused(pool):
    with pytest.raises(NotACommander) as e:
        find_commanders(pool, ["Krenko, Mob Bos"])
    assert "Krenko, Mob Bos" in e.value.message and e.value.fields["commander"]
    with pytest.raises(NotACommander, match="not 3"):
        identity_of([pool.lookup(n) for n in ("Thrasios, Triton Hero", "Tymna the Weaver", "Krenko, Mob Boss")])
    with pytest.raises(NotACommander, match="not 0"):
        identity_of([])


# -- the index within an identity (903.5c) ---------------------------------------------------------
def names(result) -> list[str]:
    return [n.name for n in result.candidates]


def test_a_mono_red_player_cant_name_counterspell_but_can_name_red_or_colourless_cards(pool, finder):
    krenko = identity_of([pool.lookup("Krenko, Mob Boss")])
    verdict = finder.check("Counterspell", cost=ManaCost.parse("{U}{U}"), identity=krenko,
                           whose="Krenko, Mob Boss's")
    assert not verdict.legal
    assert [(r.rule, str(r.message)) for r in verdict.reasons] == [
        ("903.5c", "Counterspell's colour identity is {U}; Krenko, Mob Boss's is {R}")]
    assert finder.check("Lightning Bolt", cost=ManaCost.parse("{R}"), identity=krenko).legal
    stone = finder.check("Mind Stone", cost=ManaCost.parse("{2}"), identity=krenko)
    assert stone.legal and [r.rule for r in stone.reasons] == ["704.1", "903.5c"]
    assert str(stone.reasons[-1].message) == "Mind Stone's colour identity is colourless, within the commander's ({R})"
    assert "Counterspell" not in names(finder.candidates(cost=ManaCost.parse("{U}{U}"), identity=krenko))
    assert "Mind Stone" in names(finder.candidates(cost=ManaCost.parse("{2}"), identity=krenko))
    red = names(finder.candidates(cost=ManaCost.parse("{R}"), identity=krenko))
    assert "Lightning Bolt" in red and "Boros Recruit" not in red  # {R/W} reads as {R}, but is white too
    assert "Boros Recruit" in names(finder.candidates(cost=ManaCost.parse("{R}")))


def test_a_boros_hybrid_card_cant_be_named_by_a_mono_white_player(finder):
    verdict = finder.check("Boros Guildmage", cost=ManaCost.parse("{W}{W}"), identity=W)
    assert not verdict.legal and verdict.first.rule == "903.5c"
    assert str(verdict.first.message) == "Boros Guildmage's colour identity is {W}{R}; the commander's is {W}"
    assert finder.check("Boros Guildmage", cost=ManaCost.parse("{W}{W}"), identity=frozenset("RW")).legal


def test_a_split_half_is_named_within_its_own_identity(finder):
    blue = names(finder.candidates(cost=ManaCost.parse("{1}{U}"), identity=U))
    red = names(finder.candidates(cost=ManaCost.parse("{1}{R}"), identity=R))
    assert "Ice" in blue and "Fire" not in blue
    assert "Fire" in red and "Ice" not in red


def test_identity_reasons_come_in_rule_order_after_704_and_706(pool, finder):
    verdict = finder.check("Counterspell", printed=pool.lookup("Counterspell"), identity=R,
                           taken=["Counterspell"])
    assert [r.rule for r in verdict.reasons] == ["704.1", "704.2", "903.5c"]
    banned = finder.check("Channel", cost=ManaCost.parse("{G}{G}"), fmt="commander", identity=R)
    assert [r.rule for r in banned.reasons] == ["706.1", "903.5c"]


def test_without_an_identity_the_answers_are_unchanged(finder):
    cost = ManaCost.parse("{U}{U}")
    everything = names(finder.candidates(cost=cost))
    assert "Counterspell" in everything
    assert names(finder.candidates(cost=cost, identity=frozenset("WUBRG"))) == everything
    assert all(r.rule != "903.5c" for r in finder.check("Counterspell", cost=cost).reasons)


def test_a_name_two_cards_share_stays_when_either_card_is_within_the_identity():
    from mentalmagic.formats import BanList
    from mentalmagic.index import CandidateFinder
    from mentalmagic.pool import CardPool, PoolInfo

    def split(name: str, left: Face, right: Face, identity: str) -> Card:
        return Card(name, None, "split", (left, right), color_identity=frozenset(identity))

    # a made-up shared half "Start" {2}{W}: one card gives it text with {B}, the other doesn't
    plain = Face("Start", None, ManaCost.parse("{2}{W}"), 3, "Instant")
    inked = Face("Start", None, ManaCost.parse("{2}{W}"), 3, "Instant", text="Add {B}.")
    cards = [split("Start // Alpha", inked, Face("Alpha", None, ManaCost.parse("{B}"), 1, "Instant"), "WB"),
             split("Start // Omega", plain, Face("Omega", None, ManaCost.parse("{R}"), 1, "Instant"), "WR")]
    pool = CardPool(cards, BanList([]), PoolInfo(source="test", built_at="now"))
    finder = CandidateFinder(pool)
    cost = ManaCost.parse("{2}{W}")
    assert names(finder.candidates(cost=cost, fmt="all")) == ["Start"]
    assert names(finder.candidates(cost=cost, fmt="all", identity=W)) == ["Start"]  # the Omega card's
    assert finder.check("Start", cost=cost, fmt="all", identity=W).legal
    assert names(finder.candidates(cost=cost, fmt="all", identity=frozenset("U"))) == []


@pytest.mark.parametrize(
    ("name", "legal"),
    [("Mountain", True), ("Wastes", True), ("Forest", False), ("Tundra", False), ("Murmuring Bosk", False)],
)
def test_a_land_counts_its_basic_land_types_in_its_identity(finder, name, legal):
    """903.5d: the card data's identity counts the colours a basic land type makes (Tundra is {W}{U})."""
    verdict = finder.check(name, cost=ManaCost.parse(""), identity=R)
    assert verdict.legal is legal
    assert verdict.reasons[-1].rule == "903.5c"


def test_the_core_tiers_mini_pool_carries_identities_too(mini_pool, mini_finder):
    """The in-memory pool of tests/minipool.py keeps colorIdentity and colors, so the core tier
    can test namings within an identity without the snapshot."""
    assert {n.name: n.identity for n in mini_pool.lookup("Fire // Ice").nameables()} == {"Fire": R, "Ice": U}
    assert all(c.color_identity is not None for c in mini_pool.cards)
    verdict = mini_finder.check("Counterspell", cost=ManaCost.parse("{U}{U}"), identity=R)
    assert not verdict.legal and [r.rule for r in verdict.reasons] == ["903.5c"]
    assert "Counterspell" in names(mini_finder.candidates(cost=ManaCost.parse("{U}{U}"), identity=U))
    hybrid = mini_finder.check("Figure of Destiny", cost=ManaCost.parse("{W}"), identity=W)  # {R/W}
    assert [(r.rule, str(r.message)) for r in hybrid.reasons] == [
        ("903.5c", "Figure of Destiny's colour identity is {W}{R}; the commander's is {W}")]


def test_an_identity_is_the_cards_own_however_often_it_was_asked(pool):
    """identity_of remembers its answers; a card whose data gives another identity (or none)
    still gets its own answer, never one remembered for an equal-looking card."""
    from dataclasses import replace

    krenko = pool.lookup("Krenko, Mob Boss")
    assert identity_of([krenko]) == frozenset("R")
    assert identity_of([replace(krenko, color_identity=frozenset("G"))]) == frozenset("G")
    with pytest.raises(NotACommander) as e:
        identity_of([replace(krenko, color_identity=None)])
    assert e.value.rule == "903.4"
    assert identity_of([krenko]) == frozenset("R")
