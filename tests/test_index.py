"""The cost index and the finder (index.py) on the full snapshot: decisions D1–D5,
filters, and the reasons a check gives (704.1, 704.2, 706.1, 706.2, 706.4a)."""

from __future__ import annotations

import pytest

from mentalmagic.errors import UnknownFormat
from mentalmagic.formats import FORMATS
from mentalmagic.mana import NO_COST, ManaCost


def parse(text: str) -> ManaCost:
    return ManaCost.parse(text)


def names(result) -> list[str]:
    return [n.name for n in result.candidates]


def by_cost(finder, text, **kw) -> list[str]:
    return names(finder.candidates(cost=parse(text), **kw))


# -- the shape of an answer ------------------------------------------------------------------------
def test_candidates_are_sorted_by_name_and_never_repeat_a_name(finder):
    result = finder.candidates(cost=parse("{1}{U}"))
    listed = names(result)
    assert listed == sorted(listed, key=lambda s: (s.casefold(), s))
    assert len({n.key for n in result.candidates}) == len(listed)
    assert result.format == "vintage"
    assert result.printed is None


def test_costs_list_every_concrete_reading_of_the_printed_card(finder, pool):
    result = finder.candidates(printed=pool.lookup("Rise of the Hobgoblins"))
    assert set(result.costs) == {parse("{R}{R}"), parse("{R}{W}"), parse("{W}{W}")}
    assert finder.candidates(printed=pool.lookup("Fire // Ice")).costs == [parse("{1}{R}"), parse("{1}{U}")]


def test_every_candidate_matches_the_cost_and_is_allowed_in_the_format(finder, pool):
    cost = parse("{2}{W/U}")
    for n in finder.candidates(cost=cost, fmt="legacy").candidates:
        assert n.cost.matches(cost)
        assert pool.refusal(n.card, "legacy") is None


def test_one_index_is_built_per_format_and_house_option(finder):
    assert finder.index("vintage") is finder.index("vintage")
    assert finder.index("vintage") is not finder.index("vintage", phyrexian_as_hybrid=True)
    assert finder.index("modern") is not finder.index("vintage")


@pytest.mark.parametrize("fmt", ["standard", "Vintage2", "extended"])
def test_an_unknown_format_is_refused(finder, fmt):
    with pytest.raises(UnknownFormat):
        finder.candidates(cost=parse("{W}"), fmt=fmt)


def test_no_format_means_vintage(finder):
    assert finder.candidates(cost=parse("{W}"), fmt="").format == "vintage"


# -- D2: no mana cost is not {0} -------------------------------------------------------------------
def test_a_land_can_only_be_named_as_a_card_with_no_mana_cost(finder, pool):
    result = finder.candidates(printed=pool.lookup("Forest"))
    assert result.costs == [NO_COST]
    assert result.candidates
    assert all(n.cost == NO_COST for n in result.candidates)
    listed = names(result)
    assert "Ancestral Vision" in listed  # D2: no mana cost, like a land
    assert "Ornithopter" not in listed
    assert "Forest" not in listed


def test_zero_can_only_be_named_as_a_zero_cost_card(finder):
    result = finder.candidates(cost=parse("{0}"))
    assert all(str(n.cost) == "{0}" for n in result.candidates)
    assert {"Ornithopter", "Memnite"} <= set(names(result))
    assert "Ancestral Vision" not in names(result)


@pytest.mark.parametrize("text", ["", "none"])
def test_a_transformed_back_face_is_never_a_no_cost_candidate(finder, text):
    listed = by_cost(finder, text)
    assert "Insectile Aberration" not in listed
    assert "Delver of Secrets" not in listed


# -- D3: other symbols -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cost", "present", "absent", "phyrexian_as_hybrid"),
    [
        ("{X}{R}", ["Fireball"], ["Lightning Bolt"], False),
        ("{R}", ["Lightning Bolt"], ["Fireball", "Gut Shot"], False),
        ("{W/P}", ["Marrow Shards"], ["Savannah Lions", "Mind Stone"], False),
        ("{W}", ["Savannah Lions"], ["Marrow Shards"], False),
        ("{2}", ["Mind Stone"], ["Marrow Shards", "Gut Shot"], False),
        ("{W/P}", ["Marrow Shards", "Savannah Lions", "Mind Stone"], [], True),
        ("{W}", ["Savannah Lions", "Marrow Shards"], ["Gut Shot"], True),
        ("{2}", ["Mind Stone", "Marrow Shards", "Gut Shot"], [], True),
        ("{R}", ["Lightning Bolt", "Gut Shot"], ["Marrow Shards"], True),
        ("{W/U/P}", ["Marrow Shards"], ["Savannah Lions"], False),
    ],
)
def test_plain_and_phyrexian_symbols_follow_decision_d3(finder, cost, present, absent, phyrexian_as_hybrid):
    listed = by_cost(finder, cost, phyrexian_as_hybrid=phyrexian_as_hybrid)
    for name in present:
        assert name in listed
    for name in absent:
        assert name not in listed


def test_phyrexian_mana_matches_only_phyrexian_mana_by_default(finder):
    result = finder.candidates(cost=parse("{W/P}"))
    assert names(result) == ["Marrow Shards"]
    assert result.costs == [parse("{W/P}")]
    assert set(finder.candidates(cost=parse("{W/P}"), phyrexian_as_hybrid=True).costs) == {parse("{W}"), parse("{2}")}


# -- D4: multi-face cards --------------------------------------------------------------------------
def test_an_adventure_is_named_under_its_front_name_and_offers_its_known_costs(finder, pool):
    result = finder.candidates(printed=pool.lookup("Bonecrusher Giant // Stomp"))
    assert result.costs == [parse("{2}{R}")]  # Stomp's cost is unknown to the snapshot
    assert result.unknown_faces == ("Stomp",)
    assert "Bonecrusher Giant" not in names(result)
    assert "Stone Rain" in names(result)
    assert "Bonecrusher Giant" in by_cost(finder, "{2}{R}")
    assert "Stomp" not in by_cost(finder, "{1}{R}")


def test_a_modal_double_faced_card_is_named_under_its_front_name(finder):
    assert "Shatterskull Smashing" in by_cost(finder, "{X}{R}{R}")
    assert "Shatterskull Smashing // Shatterskull, the Hammer Pass" not in by_cost(finder, "{X}{R}{R}")


def test_a_transform_card_offers_its_front_face_only(finder, pool):
    result = finder.candidates(printed=pool.lookup("Delver of Secrets // Insectile Aberration"))
    assert result.costs == [parse("{U}")]
    assert "Delver of Secrets" not in names(result)
    assert "Delver of Secrets" in by_cost(finder, "{U}")


def test_a_meld_card_is_named_under_its_front_face_name(finder):
    listed = by_cost(finder, "{5}{W}{W}")
    assert "Bruna, the Fading Light" in listed
    assert "Bruna, the Fading Light // Brisela, Voice of Nightmares" not in listed
    verdict = finder.check("Bruna, the Fading Light", cost=parse("{5}{W}{W}"))
    assert verdict.legal, verdict.reasons


@pytest.mark.parametrize(
    ("printed", "name"),
    [
        ("Fire // Ice", "Fire"),
        ("Fire // Ice", "Ice"),
        ("Fire // Ice", "Glace"),
        ("Delver of Secrets // Insectile Aberration", "Delver of Secrets"),
        ("Delver of Secrets // Insectile Aberration", "Sondeur de secrets"),
        ("Bonecrusher Giant // Stomp", "Bonecrusher Giant"),
        ("Shatterskull Smashing // Shatterskull, the Hammer Pass", "Shatterskull Smashing"),
        ("Savannah Lions", "Savannah Lions"),
        ("Savannah Lions", "lions des savanes"),
    ],
)
def test_naming_a_printed_card_as_any_face_of_itself_is_refused(finder, pool, printed, name):
    verdict = finder.check(name, printed=pool.lookup(printed))
    assert not verdict.legal
    assert [r.rule for r in verdict.reasons] == ["704.1"]
    assert "printed card itself" in str(verdict.reasons[0].message)


@pytest.mark.parametrize(
    ("name", "cost", "nameable"),
    [
        ("Delver of Secrets // Insectile Aberration", "{U}", "Delver of Secrets"),
        ("Sondeur de secrets // Aberration insectoïde", "{U}", "Delver of Secrets"),
        ("Bonecrusher Giant // Stomp", "{2}{R}", "Bonecrusher Giant"),
    ],
)
def test_a_single_name_card_may_be_checked_under_its_full_name(finder, name, cost, nameable):
    """docs/api.md: a multi-face card is found by its full name as well as by a face's."""
    verdict = finder.check(name, cost=parse(cost))
    assert verdict.legal, verdict.reasons
    assert verdict.nameable.name == nameable


@pytest.mark.parametrize(
    ("name", "cost"),
    [
        ("Insectile Aberration", "none"),  # a transform back face, though it has no mana cost (D4)
        ("Aberration insectoïde", "none"),
        ("Stomp", "{1}{R}"),  # an adventure's second part (D4), whatever it costs
        ("Shatterskull, the Hammer Pass", "none"),  # a modal DFC's back face
    ],
)
def test_a_back_face_is_never_a_name_to_choose(finder, name, cost):
    verdict = finder.check(name, cost=parse(cost))
    assert not verdict.legal
    assert {r.rule for r in verdict.reasons} == {"704.1"}
    assert name not in by_cost(finder, cost)


# -- D5 / 706 --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cost", "card", "fmt", "allowed"),
    [
        ("{U}", "Ancestral Recall", "vintage", False),  # restricted in vintage (706.1)
        ("{U}", "Ancestral Recall", "legacy", False),  # banned in legacy
        ("{U}", "Ancestral Recall", "all", True),
        ("{0}", "Black Lotus", "vintage", False),
        ("{0}", "Black Lotus", "all", True),
        ("{U}{U}", "Mana Drain", "vintage", True),
        ("{U}{U}", "Mana Drain", "legacy", False),
        ("{U}{U}", "Counterspell", "pauper", True),
        ("{U}{U}", "Counterspell", "modern", False),  # not a card of the format (704.1)
        ("{1}", "Liar's Pendulum", "vintage", True),  # watched, allowed (706.4a)
    ],
)
def test_a_card_banned_or_restricted_in_the_format_is_not_a_candidate(finder, cost, card, fmt, allowed):
    assert (card in by_cost(finder, cost, fmt=fmt)) is allowed


@pytest.mark.parametrize("fmt", FORMATS)
def test_abundance_is_never_a_candidate(finder, pool, fmt):
    assert "Abundance" not in by_cost(finder, "{2}{G}{G}", fmt=fmt)
    verdict = finder.check("Abundance", cost=parse("{2}{G}{G}"), fmt=fmt)
    assert not verdict.legal
    assert [r.rule for r in verdict.reasons] == ["706.2"]


def test_no_card_on_the_mental_magic_ban_list_is_ever_a_candidate(finder, pool):
    banned = [pool.lookup(e.english_name) for e in pool.bans.entries if e.status == "banned" and e.english_name]
    for fmt in FORMATS:
        for card in banned:
            for n in card.nameables():
                assert n.name not in by_cost(finder, str(n.cost), fmt=fmt), (fmt, n.name)


@pytest.mark.parametrize(
    ("name", "kw", "legal", "rules"),
    [
        ("Savannah Lions", {"cost": "{W}"}, True, ["704.1"]),
        ("Lions des savanes", {"cost": "{W}"}, True, ["704.1"]),
        ("Savannah Lions", {"cost": "{R}"}, False, ["704.1"]),
        ("Savannah Lions", {"cost": "{W}", "taken": ["savannah lions"]}, False, ["704.2"]),
        ("Savannah Lions", {"cost": "{R}", "taken": ["Savannah Lions"]}, False, ["704.1", "704.2"]),
        ("Ancestral Recall", {"cost": "{U}"}, False, ["706.1"]),
        ("Black Lotus", {"cost": "{0}", "fmt": "legacy"}, False, ["706.1"]),
        ("Abundance", {"cost": "{2}{G}{G}"}, False, ["706.2"]),
        ("Abundance", {"cost": "{1}{U}"}, False, ["706.2", "704.1"]),
        ("Sensei's Divining Top", {"cost": "{1}"}, False, ["706.3"]),
        ("Battle of Wits", {"cost": "{3}{U}{U}"}, False, ["706.4"]),
        ("Liar's Pendulum", {"cost": "{1}"}, True, ["704.1", "706.4a"]),
        ("Counterspell", {"cost": "{U}{U}", "fmt": "modern"}, False, ["704.1"]),
        ("No Such Card At All", {"cost": "{U}"}, False, ["704.1"]),
    ],
)
def test_check_gives_every_reason_with_its_rule(finder, name, kw, legal, rules):
    kw = dict(kw)
    kw["cost"] = parse(kw["cost"])
    verdict = finder.check(name, **kw)
    assert verdict.legal is legal
    assert sorted(r.rule for r in verdict.reasons) == sorted(rules)
    assert all(r.message for r in verdict.reasons)


def test_a_french_name_shared_by_two_cards_is_checked_against_both(finder, pool):
    """Groundswell and Breaking Wave are both "Lame de fond" in French."""
    assert pool.lookup("Groundswell").french_name == pool.lookup("Breaking Wave").french_name == "Lame de fond"
    for cost, english in [("{G}", "Groundswell"), ("{2}{U}{U}", "Breaking Wave")]:
        verdict = finder.check("Lame de fond", cost=parse(cost))
        assert verdict.legal, (cost, verdict.reasons)
        assert verdict.nameable.name == english


# -- filters ---------------------------------------------------------------------------------------
def test_the_type_filter_keeps_only_cards_of_that_type(finder):
    result = finder.candidates(cost=parse("{2}{W}{W}"), type_="creature")
    assert result.candidates
    assert all("creature" in n.face.type_line.lower() for n in result.candidates)
    assert len(result.candidates) < len(finder.candidates(cost=parse("{2}{W}{W}")).candidates)


def test_the_keyword_filter_keeps_only_cards_with_that_keyword(finder):
    result = finder.candidates(cost=parse("{4}{W}{W}"), keyword="MORPH")
    assert "Exalted Angel" in names(result)
    assert all("Morph" in n.face.keywords for n in result.candidates)
    assert "Serra Angel" not in by_cost(finder, "{3}{W}{W}", keyword="morph")


def test_the_filters_combine(finder):
    listed = by_cost(finder, "{3}{B}{B}", type_="creature", keyword="morph")
    assert "Zombie Cutthroat" in listed
    assert by_cost(finder, "{3}{B}{B}", type_="enchantment", keyword="morph") == []
