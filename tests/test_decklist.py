"""Deck lists (rule 700.2): the line grammar, card resolution with suggestions, flags (706, 704.1/D2),
export and its round trip. The core needs no app and no database: the pool is the session's."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mentalmagic.decklist import (
    MAX_COUNT,
    MAX_SIZE,
    MAX_SUGGESTED,
    MAX_TEXT,
    DeckListError,
    LineForm,
    export,
    name_variants,
    parse_deck,
    read_line,
)


# -- the grammar: one line ------------------------------------------------------------------------
@pytest.mark.parametrize("text, count, name", [
    ("4 Shock", 4, "Shock"),
    ("4x Shock", 4, "Shock"),
    ("4X Shock", 4, "Shock"),
    ("4 x Shock", 4, "Shock"),
    ("4xShock", 4, "Shock"),
    ("x4 Shock", 4, "Shock"),
    ("Shock x4", 4, "Shock"),
    ("Shock", 1, "Shock"),
    ("  12   Savannah Lions  ", 12, "Savannah Lions"),
    ("4\tShock", 4, "Shock"),
    ("2 Fire // Ice", 2, "Fire // Ice"),
    ("Ice", 1, "Ice"),
    ("1 Lions des savanes", 1, "Lions des savanes"),
    ("4 Xenagos, the Reveler", 4, "Xenagos, the Reveler"),  # an X that starts a name is no "x"
    ("SB: 2 Shock", 2, "Shock"),  # MTGO's sideboard prefix
    ("4 Shock # burn", 4, "Shock"),  # a trailing comment
    ("1 Sol Ring #!Ramp", 1, "Sol Ring"),  # Moxfield's tags
    ("4 Shock *F*", 4, "Shock"),  # a foil marker
    ("4 Shock (M19) 156", 4, "Shock (M19) 156"),  # the set suffix goes at resolution (name_variants)
    (f"{MAX_COUNT} Shock", MAX_COUNT, "Shock"),
])
def test_a_card_line_gives_its_count_and_name(text, count, name):
    assert read_line(text) == LineForm("card", count=count, name=name)


@pytest.mark.parametrize("text, kind", [
    ("", "blank"),
    ("   \t ", "blank"),
    ("// Burn", "comment"),
    ("# Mental Magic cube", "comment"),
    ("//4 Shock", "comment"),
    ("Deck", "header"),
    ("Sideboard", "header"),
    ("SIDEBOARD:", "header"),
    ("Creatures (12)", "header"),
    ("Lands (24)", "header"),
    ("Instants:", "header"),
    ("Commander", "header"),
    ("Créatures (12)", "header"),
    ("Terrains", "header"),
    ("Removal:", "header"),  # any label ending with ':' is a section
    ("About", "header"),
])
def test_blank_lines_comments_and_section_headers_are_not_cards(text, kind):
    assert read_line(text).kind == kind


@pytest.mark.parametrize("text, message", [
    ("0 Shock", "between 1 and 1000, not 0"),
    (f"{MAX_COUNT + 1} Shock", f"not {MAX_COUNT + 1}"),
    ("99999999999999999999 Shock", "between 1 and 1000"),
    ("4", "a count without a card name"),
    ("4x", "a count without a card name"),
    ("4 " + "a" * 400, "longer than 300 characters"),
])
def test_a_line_with_a_bad_count_or_no_name_says_why(text, message):
    form = read_line(text)
    assert form.kind == "bad" and message in str(form.message)


@pytest.mark.parametrize("name, first", [
    ("Shock (M19) 156", "Shock"),
    ("Shock (M19)", "Shock"),
    ("Shock [M19]", "Shock"),
    ("Shock (PLST) M19-156", "Shock"),
    ("Fire/Ice", "Fire/Ice"),
])
def test_set_and_collector_suffixes_are_tried_off_first(name, first):
    assert name_variants(name)[0] == first


def test_a_single_slash_is_also_read_as_a_split_card():
    assert "Fire // Ice" in name_variants("Fire/Ice")


def test_a_name_with_words_in_parentheses_is_kept_whole():
    assert name_variants("B.F.M. (Big Furry Monster)") == ["B.F.M. (Big Furry Monster)"]


# -- resolution -------------------------------------------------------------------------------------
LIST = """\
// The playgroup's cube
Deck
4 Shock
4x Lightning Bolt
Savannah Lions
lions des savanes
2 Fire // Ice
Ice
Creatures (12)
2 Choc (M19) 156

Sideboard
SB: 1 Delver of Secrets
1 Æther Vial
1 aether vial
"""


@pytest.fixture(scope="module")
def deck(pool):
    return parse_deck(LIST, pool)


def test_every_card_line_loads_as_the_english_printed_card(deck):
    assert [(e.count, e.name, e.line) for e in deck.entries] == [
        (4, "Shock", 3),
        (4, "Lightning Bolt", 4),
        (1, "Savannah Lions", 5),
        (1, "Savannah Lions", 6),  # French, any case
        (2, "Fire // Ice", 7),
        (1, "Fire // Ice", 8),  # a half's name is the whole printed card
        (2, "Shock", 10),  # French, with an MTGA set suffix
        (1, "Delver of Secrets // Insectile Aberration", 13),  # the front face names the card
        (1, "Aether Vial", 14),  # accents and ligatures don't count
        (1, "Aether Vial", 15),
    ]
    assert deck.problems == ()
    assert deck.size == 18
    assert deck.entries[0].french_name == "Choc"


def test_the_library_holds_every_physical_card(deck):
    lib = deck.library()
    assert len(lib) == deck.size and lib.count("Shock") == 6 and lib.count("Fire // Ice") == 3


def test_a_misspelt_line_is_a_problem_with_suggestions_and_the_rest_loads(pool):
    d = parse_deck("4 Shock\nLightning Blot\n2 Savannah Lions", pool)
    assert [e.name for e in d.entries] == ["Shock", "Savannah Lions"]
    (p,) = d.problems
    assert (p.line, p.text) == (2, "Lightning Blot")
    assert "no card named 'Lightning Blot'" in str(p.message)
    assert p.suggestions[0] == "Lightning Bolt"


@pytest.mark.parametrize("typed, meant", [
    ("Savanah Lions", "Savannah Lions"),  # spelling
    ("Jace the Mind Sculpter", "Jace, the Mind Sculptor"),  # punctuation and spelling
    ("Lions des savane", "Lions des savanes"),  # French, missing a letter
    ("Eclair foudroyan", "Éclair foudroyant"),  # French without its accent, cut short
    ("Grizzly Bea", "Grizzly Bears"),  # cut short
    ("Shock // burn", "Shock"),  # a '//' comment after a card is no split card: asked, not guessed
    ("Fire // Iec", "Fire // Ice"),
])
def test_suggestions_find_what_was_meant(pool, typed, meant):
    (p,) = parse_deck(typed, pool).problems
    assert meant in p.suggestions, p.suggestions


def test_only_the_first_problem_lines_get_suggestions(mini_pool):
    """The cap counts lines, whatever the pool: the mini pool's Lightning Bolt is as close to each
    line as the snapshot's, and its close-name searches take no time."""
    text = "\n".join(f"Lightning Blot {i}" for i in range(MAX_SUGGESTED + 3))
    d = parse_deck(text, mini_pool)
    assert len(d.problems) == MAX_SUGGESTED + 3
    assert all(p.suggestions for p in d.problems[:MAX_SUGGESTED])
    assert not any(p.suggestions for p in d.problems[MAX_SUGGESTED:])


def test_a_card_no_library_holds_is_a_problem_citing_700_2(pool):
    (p,) = parse_deck("1 Agyrem", pool).problems
    assert p.rule == "700.2" and str(p.message) == "Agyrem is a Planechase card, not a card a library holds"


def test_a_plane_that_shares_a_cards_first_word_suggests_the_cards(pool):
    (p,) = parse_deck("Llanowar", pool).problems  # the plane Llanowar
    assert p.rule == "700.2" and p.suggestions
    assert all(s.startswith("Llanowar ") for s in p.suggestions)  # library cards, never the plane again


def test_bad_counts_are_problems_and_do_not_stop_the_list(pool):
    d = parse_deck("0 Shock\n1001 Shock\n4\n3 Shock", pool)
    assert [p.line for p in d.problems] == [1, 2, 3]
    assert d.size == 3


def test_the_deck_never_grows_past_its_bound(pool):
    d = parse_deck("\n".join(["1000 Shock", "1000 Shock", "1 Shock", "1000 Shock"]), pool)
    assert d.size == MAX_SIZE
    assert [p.line for p in d.problems] == [3, 4]
    assert f"more than {MAX_SIZE} cards" in str(d.problems[0].message)


def test_mtga_about_block_names_the_deck_not_a_card(pool):
    d = parse_deck("About\nName My cube\n\nDeck\n4 Shock", pool)
    assert d.problems == () and d.size == 4


def test_a_card_named_with_a_leading_number_still_loads(pool):
    d = parse_deck("1996 World Champion", pool)
    assert [(e.count, e.name) for e in d.entries] == [(1, "1996 World Champion")]


def test_a_list_too_long_is_refused_whole(pool):
    with pytest.raises(DeckListError, match="longer than"):
        parse_deck("Shock\n" * (MAX_TEXT // 6 + 1), pool)


def test_a_list_that_is_not_text_is_refused(pool):
    with pytest.raises(DeckListError):
        parse_deck(b"4 Shock", pool)  # type: ignore[arg-type]


# -- flags before a game starts ---------------------------------------------------------------------
def _flag(deck, name):
    return next(f for f in deck.flags if f.name == name)


def test_flags_say_mental_magic_bans_watch_list_format_bans_and_unknown_costs(pool):
    d = parse_deck("Abundance\nJace, the Mind Sculptor\nBlack Lotus\nAgadeem's Awakening\n4 Shock", pool)
    assert [f.name for f in d.flags] == ["Abundance", "Jace, the Mind Sculptor", "Black Lotus",
                                         "Agadeem's Awakening // Agadeem, the Undercrypt"]
    ab = _flag(d, "Abundance")
    assert (ab.mental_magic, ab.mental_magic_rule) == ("banned", "706.2")
    jace = _flag(d, "Jace, the Mind Sculptor")
    assert (jace.mental_magic, jace.mental_magic_rule) == ("watched", "706.4a")
    lotus = _flag(d, "Black Lotus")
    assert lotus.mental_magic is None and lotus.formats["vintage"] == "restricted"
    assert lotus.formats["legacy"] == "banned" and set(lotus.formats) <= {"vintage", "legacy", "commander",
                                                                          "modern", "pauper"}
    assert any(rule == "706.1" for rule, _ in lotus.reasons)
    agadeem = _flag(d, "Agadeem's Awakening // Agadeem, the Undercrypt")
    assert agadeem.unknown_cost == ("Agadeem, the Undercrypt",)
    assert any(rule == "704.1" and "D2" in str(msg) for rule, msg in agadeem.reasons)
    assert agadeem.to_dict()["mental_magic"] is None


def test_a_card_is_flagged_once_however_many_lines_name_it(pool):
    d = parse_deck("2 Black Lotus\nBlack Lotus", pool)
    assert len(d.flags) == 1


def test_a_plain_card_has_no_flag(pool):
    assert parse_deck("4 Shock\nSavannah Lions", pool).flags == ()


# -- export ------------------------------------------------------------------------------------------
def test_export_writes_one_count_line_per_card_and_reads_back(deck, pool):
    text = export(deck, "My cube")
    assert text.splitlines() == ["# My cube", "6 Shock", "4 Lightning Bolt", "2 Savannah Lions", "3 Fire // Ice",
                                 "1 Delver of Secrets // Insectile Aberration", "2 Aether Vial"]
    assert parse_deck(text, pool).counts() == deck.counts()


def test_export_splits_a_card_held_more_than_one_line_allows(pool):
    d = parse_deck("1000 Shock\n500 Shock", pool)
    assert export(d).splitlines() == ["1000 Shock", "500 Shock"]
    assert parse_deck(export(d), pool).counts() == {"Shock": 1500}


# -- properties ----------------------------------------------------------------------------------------
SOME_NAMES = ["Shock", "Fire // Ice", "Ice", "Choc", "Savannah Lions", "lions des savanes", "Black Lotus",
              "Delver of Secrets", "Æther Vial", "Lightning Bolt", "Jace, the Mind Sculptor"]
line = st.one_of(
    st.builds(lambda n, name, sep: f"{n}{sep}{name}", st.integers(-5, 1200), st.sampled_from(SOME_NAMES),
              st.sampled_from([" ", "x ", "x", " x ", "\t"])),
    st.sampled_from(SOME_NAMES),
    st.sampled_from(["", "// c", "# c", "Sideboard", "Creatures (3)", "About", "Name x", "4", "SB: 1 Shock"]),
    st.text(max_size=40),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(line, max_size=12).map("\n".join))
def test_any_text_gives_a_deck_or_a_clear_error_never_another_exception(pool, text):
    d = parse_deck(text, pool, suggest=False)
    assert 0 <= d.size <= MAX_SIZE
    assert all(1 <= e.count <= MAX_COUNT for e in d.entries)
    assert all(p.line >= 1 and p.message for p in d.problems)
    assert parse_deck(export(d), pool, suggest=False).counts() == d.counts()  # the round trip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_arbitrary_characters_never_break_the_reader(pool, text):
    d = parse_deck(text, pool, suggest=False)
    assert d.size >= 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, MAX_COUNT), st.sampled_from(SOME_NAMES)), max_size=6))
def test_export_then_parse_is_the_same_deck(pool, rows):
    d = parse_deck("\n".join(f"{n} {name}" for n, name in rows), pool, suggest=False)
    again = parse_deck(export(d), pool, suggest=False)
    assert again.counts() == d.counts() and again.problems == ()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.text(max_size=30), st.sampled_from(SOME_NAMES).map(lambda n: n[:-1])), max_size=3)
       .map("\n".join))
def test_suggestions_never_break_on_odd_text(pool, text):
    d = parse_deck(text, pool)
    assert all(isinstance(s, str) and s for p in d.problems for s in p.suggestions)


def test_a_french_name_only_the_ban_list_knows_loads_and_is_flagged_banned(pool):
    """'Masque illusoire': the card data has no French name for Illusionary Mask, the Mental Magic
    list does (706.4); the line loads the card and flags it, never drops it."""
    d = parse_deck("1 Masque illusoire\n4 Shock", pool)
    assert d.problems == () and d.counts() == {"Illusionary Mask": 1, "Shock": 4}
    mask = _flag(d, "Illusionary Mask")
    assert (mask.french_name, mask.mental_magic, mask.mental_magic_rule) == ("Masque illusoire", "banned", "706.4")
    assert [rule for rule, _ in mask.reasons][:1] == ["706.4"] and "706.4" not in str(mask.reasons[0][1])
    assert pool.lookup("masque ILLUSOIRE").name == "Illusionary Mask"
