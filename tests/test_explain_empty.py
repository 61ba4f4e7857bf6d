"""explain_empty: why a printed card or cost has no candidate, each reason with its rule."""

from __future__ import annotations

from mentalmagic.index import explain_empty
from mentalmagic.mana import ManaCost


def test_the_only_matches_are_restricted_in_vintage(pool, finder):
    cost = ManaCost.parse("{U/P}")
    assert finder.candidates(cost=cost).candidates == []
    why = {x.name: x for x in explain_empty(pool, cost=cost)}
    assert set(why) == {"Gitaxian Probe", "Mental Misstep"}
    assert why["Mental Misstep"].rule == "706.1"
    assert str(why["Mental Misstep"].reason) == ("Mental Misstep is restricted in vintage, so banned in Mental "
                                                 "Magic vintage")


def test_the_printed_card_itself_is_named_with_704_1(pool, finder):
    printed = pool.lookup("Mental Misstep")
    assert finder.candidates(printed=printed).candidates == []
    why = {x.name: x for x in explain_empty(pool, printed=printed)}
    assert why["Mental Misstep"].rule == "704.1" and "printed card itself" in str(why["Mental Misstep"].reason)
    assert why["Gitaxian Probe"].rule == "706.1"


def test_a_filter_is_no_rule_and_the_format_changes_the_reason(pool, finder):
    cost = ManaCost.parse("{R/P}")  # Gut Shot: an instant, legal in vintage
    assert finder.candidates(cost=cost, type_="creature").candidates == []
    [gut] = [x for x in explain_empty(pool, cost=cost, type_="creature") if x.name == "Gut Shot"]
    assert gut.rule is None and "creature" in str(gut.reason)
    # a candidate is never reported as excluded
    assert "Gut Shot" not in {x.name for x in explain_empty(pool, cost=cost)}


def test_nothing_to_explain_when_no_card_has_the_cost(pool):
    assert explain_empty(pool, cost=ManaCost.parse("{X}{X}{X}{W}{U}{B}{R}{G}{C}")) == []


def test_the_house_option_reads_phyrexian_as_hybrid(pool, finder):
    cost = ManaCost.parse("{U/P}")
    assert finder.candidates(cost=cost, phyrexian_as_hybrid=True).candidates  # {U} or {2}
    names = {x.name for x in explain_empty(pool, cost=cost, phyrexian_as_hybrid=True, limit=1000)}
    assert "Mental Misstep" in names and "Ancestral Recall" in names  # {U}, restricted in vintage
