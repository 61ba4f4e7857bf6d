"""A game under each rule set (docs/rule-sets.md) names, plays its face-down land and turns cards
up with that rule set's answers, citing its own rules; played through ``decide`` as the service
does, on real cards (the core mini pool and minipool_variants.py)."""

from __future__ import annotations

import pytest
from minipool_variants import variant_pool
from test_ledger import ANA, Table

from mentalmagic import errors
from mentalmagic.index import CandidateFinder
from mentalmagic.rulesets import MAGERING, MAGIC_VILLE, XOM


@pytest.fixture(scope="module")
def finder():
    return CandidateFinder(variant_pool())


def table(finder, rules: str | None, *printed: str) -> Table:
    t = Table(finder, *printed, **({"rules": rules} if rules else {}))
    t.draw(ANA, len(printed))
    return t


# -- naming ---------------------------------------------------------------------------------------
def test_xom_names_by_its_own_cost_relations(finder):
    t = table(finder, XOM, "Fires of Yavimaya", "Gitaxian Probe", "Ornithopter", "Kitchen Finks")
    assert t.cast(ANA, "c1", "Electrolyze").data["naming"]["name"] == "Electrolyze"  # 5e
    assert t.cast(ANA, "c2", "Ancestral Recall").data["naming"]["name"] == "Ancestral Recall"  # 5g; restricted is fine
    assert t.cast(ANA, "c3", "Evermind").data["naming"]["name"] == "Evermind"  # 5d
    err = t.refused(ANA, errors.NotACandidate, type="move", card="c4", to="stack", name="Fires of Yavimaya")
    assert err.rule == "5c"  # 5e needs a non-hybrid coloured symbol: not transitive through 5f


def test_the_same_plays_are_refused_under_magic_ville_as_ever(finder):
    t = table(finder, None, "Fires of Yavimaya", "Gitaxian Probe", "Ornithopter")
    assert t.refused(ANA, errors.NotACandidate, type="move", card="c1", to="stack", name="Electrolyze").rule == "704.1"
    assert t.refused(ANA, errors.NotACandidate, type="move", card="c2", to="stack",
                     name="Ancestral Recall").rule == "704.1"  # D3, and 706.1 besides
    assert t.refused(ANA, errors.NotACandidate, type="move", card="c3", to="stack", name="Evermind").rule == "704.1"


def test_xom_refuses_a_taken_name_under_its_rule_6(finder):
    t = table(finder, XOM, "Shock", "Lightning Bolt")
    t.cast(ANA, "c1", "Chain Lightning")
    err = t.refused(ANA, errors.NameTaken, type="move", card="c2", to="stack", name="Chain Lightning")
    assert (err.code, err.rule) == ("name_taken", "6")


def test_xom_bans_its_kinds_and_magering_its_list(finder):
    t = table(finder, XOM, "Air Elemental", "Elvish Visionary")
    assert t.refused(ANA, errors.NotACandidate, type="move", card="c1", to="stack",
                     name="Battle of Wits").rule == "2a"
    m = table(finder, MAGERING, "Elvish Visionary", "Grizzly Bears")
    assert m.refused(ANA, errors.NotACandidate, type="move", card="c1", to="stack",
                     name="Sylvan Library").rule == "ban list"
    assert m.cast(ANA, "c2", "Life from the Loam").data["naming"]["name"] == "Life from the Loam"  # dredge stripped


def test_magering_names_by_the_same_cost_only(finder):
    t = table(finder, MAGERING, "Fires of Yavimaya", "Savannah Lions")
    err = t.refused(ANA, errors.NotACandidate, type="move", card="c1", to="stack", name="Electrolyze")
    assert err.rule == "Richard Garfield, Ph.D."
    assert t.cast(ANA, "c2", "Figure of Destiny").data["naming"]["name"] == "Figure of Destiny"  # D1, ours


# -- the face-down land -----------------------------------------------------------------------------
def test_xom_plays_an_unnamed_card_as_utopia_and_never_a_named_one(finder):
    t = table(finder, XOM, "Shock", "Savannah Lions", "Grizzly Bears")
    e = t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True, name="Utopia")  # !u
    assert e.data["pentaland"] is True and e.rule == "703.2"
    t.do(ANA, type="move", card="c2", to="battlefield", pentaland=True)
    t.cast(ANA, "c3", "Elvish Visionary")
    t.do(ANA, type="move", card="c3", to="hand")
    err = t.refused(ANA, errors.PentalandRefused, type="move", card="c3", to="battlefield", pentaland=True)
    assert err.rule == "4"  # "an unnamed card" (D10 allows it under magic-ville)


def test_magering_plays_any_card_of_a_hand_as_utopia_but_nothing_from_exile(finder):
    t = table(finder, MAGERING, "Shock", "Savannah Lions")
    t.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)
    t.do(ANA, type="move", card="c2", to="exile", face_down=True, via="effect")  # exiled face down
    err = t.refused(ANA, errors.PentalandRefused, type="move", card="c2", to="battlefield", pentaland=True)
    assert err.rule == "Utopia"
    under_magic_ville = table(finder, None, "Savannah Lions")
    under_magic_ville.do(ANA, type="move", card="c1", to="exile", face_down=True, via="effect")
    under_magic_ville.do(ANA, type="move", card="c1", to="battlefield", pentaland=True)  # 703.3


# -- face down and face up ----------------------------------------------------------------------------
def test_xom_refuses_every_way_of_making_a_face_down_card(finder):
    t = table(finder, XOM, "Goblin Taskmaster", "Den Protector")
    assert t.refused(ANA, errors.FaceDownRefused, type="move", card="c1", to="battlefield", face_down=True,
                     via="morph").rule == "6b"
    assert t.refused(ANA, errors.FaceDownRefused, type="move", card="c2", to="battlefield", face_down=True,
                     via="megamorph").rule == "6b"


def test_magering_strips_morph_but_not_megamorph(finder):
    t = table(finder, MAGERING, "Goblin Taskmaster", "Den Protector")
    assert t.refused(ANA, errors.FaceDownRefused, type="move", card="c1", to="battlefield", face_down=True,
                     via="morph").rule == "ban list"
    # megamorph is not on the list: the play goes on to its naming (no other {1}{G} megamorph card here)
    err = t.refused(ANA, errors.NotACandidate, type="move", card="c2", to="battlefield", face_down=True,
                    via="megamorph", name="Den Protector")
    assert err.rule == "Richard Garfield, Ph.D."  # 704.1's "not the printed card itself", in MageRing's words


def test_a_face_down_card_turns_up_under_each_rule_sets_answers(finder):
    # a card an effect put face down (the judge records it) turns up by the effect, named as the
    # rule set matches costs; by morph only where morph is played
    expected = {MAGIC_VILLE: (None, False), XOM: ("6b", True), MAGERING: ("ban list", False)}
    for rules, (morph_rule, electrolyze) in expected.items():
        t = table(finder, rules if rules != MAGIC_VILLE else None, "Fires of Yavimaya")
        t.do(None, judge=True, type="move", card="c1", to="battlefield", face_down=True, via="effect")
        if morph_rule is not None:
            assert t.refused(ANA, errors.FaceDownRefused, type="turn_face_up", card="c1", via="morph",
                             name="Electrolyze").rule == morph_rule
        if electrolyze:
            assert t.do(ANA, type="turn_face_up", card="c1", name="Electrolyze").data["naming"]["rule"] == "705.4"
        else:
            t.refused(ANA, errors.NotACandidate, type="turn_face_up", card="c1", name="Electrolyze")


def test_an_unknown_rule_set_or_option_is_refused_when_the_game_is_made(finder):
    from mentalmagic.rulesets import BadRuleOption, UnknownRuleSet, game_rules

    with pytest.raises(UnknownRuleSet):
        game_rules({"rules": "house"})
    with pytest.raises(BadRuleOption):
        game_rules({"rules": XOM, "phyrexian_as_hybrid": True})
    assert game_rules({"rules": XOM, "phyrexian_as_hybrid": False}).key == XOM
    assert game_rules({"phyrexian_as_hybrid": True}).options == {"phyrexian_as_hybrid": True}
