"""The card pool (cards.py, formats.py, pool.py): printed cards, the names they offer
(704.3, D4), format refusals (706, D5) and name look-ups in two languages.

The first half runs on a handful of records built here (no file, no database);
the second on the session's full snapshot.
"""

from __future__ import annotations

import pytest

from mentalmagic.carddata import KNOWN_GAPS, SNAPSHOT_2026_11_21
from mentalmagic.cards import card_from_record
from mentalmagic.errors import UnknownCard
from mentalmagic.formats import FORMATS, BanEntry, BanList
from mentalmagic.index import CandidateFinder
from mentalmagic.mana import NO_COST
from mentalmagic.names import fold
from mentalmagic.pool import CardPool, PoolInfo

LEGAL = {"vintage": "legal", "legacy": "legal", "commander": "legal", "modern": "legal", "pauper": "legal"}


def face(name, cost, type_line="Instant", french=None, keywords=(), position=0):
    return {"position": position, "name": name, "french_name": french, "mana_cost": cost,
            "mana_value": None, "type_line": type_line, "types": [type_line.split()[0]],
            "keywords": list(keywords), "text": ""}


def record(name, layout, faces, french=None, legalities=LEGAL):
    for pos, f in enumerate(faces):
        f["position"] = pos
    return {"name": name, "french_name": french, "layout": layout, "legalities": dict(legalities),
            "faces": faces}


RECORDS = [
    record("Savannah Lions", "normal", [face("Savannah Lions", "{W}", "Creature — Cat", "Lions des savanes")],
           french="Lions des savanes"),
    record("Figure of Destiny", "normal",
           [face("Figure of Destiny", "{R/W}", "Creature — Kithkin", "Représentation de la destinée")],
           french="Représentation de la destinée"),
    record("Fire // Ice", "split", [face("Fire", "{1}{R}", french="Feu"), face("Ice", "{1}{U}", french="Glace")],
           french="Feu // Glace"),
    record("Bonecrusher Giant // Stomp", "adventure",
           [face("Bonecrusher Giant", "{2}{R}", "Creature — Giant"), face("Stomp", "{1}{R}")]),
    record("Brazen Borrower // Petty Theft", "adventure",
           [face("Brazen Borrower", "{1}{U}{U}", "Creature — Faerie"), face("Petty Theft", None)]),
    record("Shatterskull Smashing // Shatterskull, the Hammer Pass", "modal_dfc",
           [face("Shatterskull Smashing", "{X}{R}{R}", "Sorcery"), face("Shatterskull, the Hammer Pass", "", "Land")]),
    record("Delver of Secrets // Insectile Aberration", "transform",
           [face("Delver of Secrets", "{U}", "Creature — Human Wizard", "Sondeur de secrets"),
            face("Insectile Aberration", "", "Creature — Human Insect", "Aberration insectoïde")],
           french="Sondeur de secrets // Aberration insectoïde"),
    record("Akki Lavarunner // Tok-Tok, Volcano Born", "flip",
           [face("Akki Lavarunner", "{3}{R}", "Creature — Goblin Warrior"),
            face("Tok-Tok, Volcano Born", "{3}{R}", "Legendary Creature — Goblin Shaman")]),
    record("Appeal // Authority", "aftermath",
           [face("Appeal", "{G}", "Sorcery"), face("Authority", "{1}{W}", "Sorcery")]),
    record("Forest", "normal", [face("Forest", "", "Basic Land — Forest", "Forêt")], french="Forêt"),
    record("Ancestral Vision", "normal", [face("Ancestral Vision", "", "Sorcery", keywords=["Suspend"])]),
    record("Ornithopter", "normal", [face("Ornithopter", "{0}", "Artifact Creature — Thopter", keywords=["Flying"])]),
    record("Black Lotus", "normal", [face("Black Lotus", "{0}", "Artifact")],
           legalities={"vintage": "restricted", "legacy": "banned", "commander": "banned"}),
    record("Abundance", "normal", [face("Abundance", "{2}{G}{G}", "Enchantment", "Abondance")], french="Abondance"),
    record("Liar's Pendulum", "normal", [face("Liar's Pendulum", "{1}", "Artifact", "Pendule du menteur")],
           french="Pendule du menteur"),
    record("Erayo, Soratami Ascendant // Erayo's Essence", "flip",
           [face("Erayo, Soratami Ascendant", "{1}{U}", "Legendary Creature — Moonfolk Monk"),
            face("Erayo's Essence", "{1}{U}", "Legendary Enchantment")]),
    record("Counterspell", "normal", [face("Counterspell", "{U}{U}")],
           legalities={"vintage": "legal", "legacy": "legal", "commander": "legal", "pauper": "legal"}),
    record("Brisela, Voice of Nightmares", "meld_result",
           [face("Brisela, Voice of Nightmares", "", "Legendary Creature")], legalities={}),
    record("Bant", "planar", [face("Bant", "", "Plane — Alara")], legalities={}),
]

BANS = BanList([
    BanEntry("706.2", "Abondance", "Abundance", "banned"),
    BanEntry("706.2", "Arrache-pensées", None, "banned"),
    BanEntry("706.4a", "Pendule du menteur", "Liar's Pendulum", "watched"),
    BanEntry("706.4a", "Erayo, ascendante soratami", "Erayo, Soratami Ascendant // Erayo's Essence", "watched"),
])


@pytest.fixture(scope="module")
def mini():
    return CardPool([card_from_record(r) for r in RECORDS], BANS, PoolInfo(source="test", built_at="now"))


# -- printed cards and what they offer (704.1, 704.3, D4) ------------------------------------------
@pytest.mark.parametrize(
    ("card", "nameable_as"),
    [
        ("Savannah Lions", [("Savannah Lions", "{W}")]),
        ("Fire // Ice", [("Fire", "{1}{R}"), ("Ice", "{1}{U}")]),  # 704.3: two separate cards
        ("Appeal // Authority", [("Appeal", "{G}"), ("Authority", "{1}{W}")]),  # aftermath too
        ("Bonecrusher Giant // Stomp", [("Bonecrusher Giant", "{2}{R}")]),  # adventure: the front
        ("Shatterskull Smashing // Shatterskull, the Hammer Pass", [("Shatterskull Smashing", "{R}{R}{X}")]),
        ("Delver of Secrets // Insectile Aberration", [("Delver of Secrets", "{U}")]),  # transform: front only
        ("Akki Lavarunner // Tok-Tok, Volcano Born", [("Akki Lavarunner", "{3}{R}")]),  # flip: front only
        ("Forest", [("Forest", "")]),
        ("Brisela, Voice of Nightmares", []),  # never in a library
        ("Bant", []),
    ],
)
def test_a_card_offers_the_names_of_decision_d4(mini, card, nameable_as):
    assert [(n.name, str(n.cost)) for n in mini.lookup(card).nameables()] == nameable_as


@pytest.mark.parametrize(
    ("card", "printed_costs", "unknown"),
    [
        ("Fire // Ice", ["{1}{R}", "{1}{U}"], []),  # a split card offers both costs
        ("Appeal // Authority", ["{G}", "{1}{W}"], []),
        ("Bonecrusher Giant // Stomp", ["{2}{R}", "{1}{R}"], []),  # adventure: both parts, when known
        ("Brazen Borrower // Petty Theft", ["{1}{U}{U}"], ["Petty Theft"]),  # unknown: offers nothing
        ("Shatterskull Smashing // Shatterskull, the Hammer Pass", ["{R}{R}{X}", ""], []),  # MDFC: both
        ("Delver of Secrets // Insectile Aberration", ["{U}"], []),  # transform: front only
        ("Akki Lavarunner // Tok-Tok, Volcano Born", ["{3}{R}"], []),
        ("Forest", [""], []),
        ("Ornithopter", ["{0}"], []),
    ],
)
def test_a_printed_card_offers_the_costs_of_decision_d4(mini, card, printed_costs, unknown):
    c = mini.lookup(card)
    assert [str(x) for x in c.printed_costs] == printed_costs
    assert list(c.unknown_faces) == unknown


@pytest.mark.parametrize(
    ("printed", "present", "absent"),
    [
        # an adventure printed offers both costs: {2}{R} and Stomp's {1}{R} (Fire)
        ("Bonecrusher Giant // Stomp", ["Fire"], ["Bonecrusher Giant", "Stomp", "Ice"]),
        # a modal DFC with a land back offers "no mana cost" too
        ("Shatterskull Smashing // Shatterskull, the Hammer Pass", ["Forest", "Ancestral Vision"],
         ["Shatterskull Smashing", "Ornithopter"]),
        # a split card: either half's cost, never itself
        ("Fire // Ice", ["Erayo, Soratami Ascendant"], ["Fire", "Ice"]),
        # a transform card: the front's cost only, and never its own front
        ("Delver of Secrets // Insectile Aberration", [], ["Delver of Secrets", "Forest"]),
    ],
)
def test_a_printed_multi_face_card_is_named_from_every_cost_it_offers(mini, printed, present, absent):
    listed = [n.name for n in CandidateFinder(mini).candidates(printed=mini.lookup(printed), fmt="all").candidates]
    for name in present:
        assert name in listed
    for name in absent:
        assert name not in listed


def test_a_face_of_unknown_cost_is_not_a_face_with_no_mana_cost(mini):
    theft = mini.lookup("Brazen Borrower // Petty Theft").faces[1]
    assert theft.cost is None
    assert not theft.known
    land = mini.lookup("Forest").front
    assert land.cost == NO_COST
    assert land.known


def test_a_printed_card_excludes_every_face_of_itself(mini):
    assert mini.lookup("Fire // Ice").face_names == {"fire // ice", "fire", "ice"}
    assert mini.lookup("Delver of Secrets // Insectile Aberration").face_names == {
        "delver of secrets // insectile aberration", "delver of secrets", "insectile aberration"}


# -- look-ups --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "card"),
    [
        ("Savannah Lions", "Savannah Lions"),
        ("savannah lions", "Savannah Lions"),
        ("  SAVANNAH   lions ", "Savannah Lions"),
        ("Lions des savanes", "Savannah Lions"),
        ("lions des savanes", "Savannah Lions"),
        ("Représentation de la destinée", "Figure of Destiny"),
        ("representation de la destinee", "Figure of Destiny"),
        ("Fire // Ice", "Fire // Ice"),
        ("Ice", "Fire // Ice"),
        ("fire", "Fire // Ice"),
        ("Feu // Glace", "Fire // Ice"),
        ("glace", "Fire // Ice"),
        ("Delver of Secrets // Insectile Aberration", "Delver of Secrets // Insectile Aberration"),
        ("Insectile Aberration", "Delver of Secrets // Insectile Aberration"),
        ("aberration insectoide", "Delver of Secrets // Insectile Aberration"),
        ("Stomp", "Bonecrusher Giant // Stomp"),
        ("liar’s pendulum", "Liar's Pendulum"),  # typographic apostrophe
    ],
)
def test_a_card_is_found_by_any_name_in_either_language(mini, query, card):
    assert mini.lookup(query).name == card
    assert mini.find(query).name == card


def test_an_unknown_name_raises_unknown_card(mini):
    with pytest.raises(UnknownCard) as info:
        mini.lookup("Lightning Bolt")
    assert info.value.code == "unknown_card"
    assert mini.find("Lightning Bolt") is None


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("Fire", ["Fire"]),
        ("feu", ["Fire"]),
        ("Glace", ["Ice"]),
        ("Delver of Secrets", ["Delver of Secrets"]),
        ("Sondeur de secrets", ["Delver of Secrets"]),
        ("Insectile Aberration", []),  # a back face is not a name (D4)
        ("Stomp", []),
        ("Lions des savanes", ["Savannah Lions"]),
    ],
)
def test_nameables_called_answers_english_and_french_nameable_names(mini, query, names):
    assert [n.name for n in mini.nameables_called(query)] == names


def test_the_pool_lists_nameables_sorted_by_name(mini):
    names = [n.name for n in mini.nameables]
    assert names == sorted(names, key=lambda s: (s.casefold(), s))
    assert "Fire" in names and "Ice" in names and "Fire // Ice" not in names


# -- 706, D5 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "fmt", "rule"),
    [
        ("Savannah Lions", "vintage", None),
        ("Black Lotus", "vintage", "706.1"),  # restricted is banned in Mental Magic
        ("Black Lotus", "legacy", "706.1"),
        ("Black Lotus", "modern", "704.1"),  # not a card of the format
        ("Black Lotus", "all", None),
        ("Counterspell", "modern", "704.1"),
        ("Counterspell", "pauper", None),
        ("Abundance", "vintage", "706.2"),  # the Mental Magic list wins in every format
        ("Abundance", "all", "706.2"),
        ("Liar's Pendulum", "vintage", None),  # watched, not banned (706.4a)
        ("Brisela, Voice of Nightmares", "all", "704.1"),  # never in a library
        ("Bant", "all", "704.1"),
    ],
)
def test_format_refusal_cites_the_rule_that_stops_a_card(mini, card, fmt, rule):
    refusal = mini.refusal(mini.lookup(card), fmt)
    assert (refusal.rule if refusal else None) == rule
    if refusal:
        assert refusal.message


def test_without_known_legalities_only_the_mental_magic_list_applies():
    info = PoolInfo(source="test", built_at="now", legalities_known=False)
    pool = CardPool([card_from_record(r) for r in RECORDS], BANS, info)
    assert pool.refusal(pool.lookup("Black Lotus"), "vintage") is None
    assert pool.refusal(pool.lookup("Abundance"), "vintage").rule == "706.2"


@pytest.mark.parametrize(
    ("card", "status"),
    [
        ("Abundance", "banned"),
        ("Liar's Pendulum", "watched"),
        ("Erayo, Soratami Ascendant // Erayo's Essence", "watched"),  # listed by its full name
        ("Savannah Lions", None),
    ],
)
def test_the_mental_magic_list_gives_each_card_its_status(mini, card, status):
    assert mini.mental_magic_status(mini.lookup(card)) == status


def test_a_list_entry_by_front_name_covers_the_whole_card():
    bans = BanList([BanEntry("706.4a", "Erayo", "Erayo, Soratami Ascendant", "watched")])
    pool = CardPool([card_from_record(r) for r in RECORDS], bans, PoolInfo(source="t", built_at="now"))
    assert pool.mental_magic_status(pool.lookup("Erayo's Essence")) == "watched"


def test_unresolved_french_names_stay_on_the_list(mini):
    assert [e.french_name for e in mini.bans.unresolved] == ["Arrache-pensées"]


# -- the full snapshot -----------------------------------------------------------------------------
def test_the_snapshot_pool_holds_every_card_of_the_readme(pool):
    assert len(pool) == 34344
    assert pool.info.lacks == tuple(KNOWN_GAPS[SNAPSHOT_2026_11_21])  # cards/README.md, "What is missing"
    assert pool.info.legalities_known and pool.info.french_known


def test_every_card_name_of_the_snapshot_finds_its_own_card(pool):
    assert all(pool.find(c.name) is c for c in pool.cards)
    assert all(pool.find(fold(c.name).upper()) is c for c in pool.cards[::50])


def test_the_snapshot_ban_list_resolves_every_english_name_to_a_card(pool):
    assert len(pool.bans.entries) == 53
    for entry in pool.bans.entries:
        if entry.english_name:
            card = pool.lookup(entry.english_name)
            assert card.name == entry.english_name
            assert pool.mental_magic_status(card) == entry.status
    assert pool.bans.unresolved == ()


@pytest.mark.parametrize(("name", "french"), [("Thought Lash", "Arrache-pensées"), ("Divining Witch", "Sorcier devin")])
def test_the_two_french_names_resolved_by_hand_are_banned_by_706_2(pool, finder, name, french):
    card = pool.lookup(name)
    entry = pool.bans.entry_for(card)
    assert (entry.rule, entry.french_name, entry.status) == ("706.2", french, "banned")
    verdict = finder.check(name, cost=card.front.cost)
    assert not verdict.legal and verdict.reasons[0].rule == "706.2"


@pytest.mark.parametrize(
    ("query", "card"),
    [
        ("lions des savanes", "Savannah Lions"),
        ("Représentation de la destinée", "Figure of Destiny"),
        ("Esclavagiste d’âmes", "Mindslaver"),
        ("javelot de flammes", "Flame Javelin"),
        ("Soulèvement des lutins", "Rise of the Hobgoblins"),
        ("museleur vexatoire", "Vexing Shusher"),
        ("Ice", "Fire // Ice"),
        ("Glace", "Fire // Ice"),
        ("Insectile Aberration", "Delver of Secrets // Insectile Aberration"),
        ("Stomp", "Bonecrusher Giant // Stomp"),
        ("Æther Vial", "Aether Vial"),
    ],
)
def test_snapshot_names_are_found_in_english_and_french(pool, query, card):
    assert pool.lookup(query).name == card


def test_split_and_aftermath_halves_of_the_snapshot_are_separate_nameables(pool):
    for card in pool.cards:
        if card.layout in ("split", "aftermath"):
            assert [n.name for n in card.nameables()] == [f.name for f in card.faces if f.cost is not None]


def test_every_other_multi_face_card_is_nameable_by_its_front_face_name_only(pool):
    """D4: adventure, modal DFC, transform, flip and meld cards take their front face's name."""
    wrong = [
        (card.name, [n.name for n in card.nameables()])
        for card in pool.cards
        if " // " in card.name and card.layout not in ("split", "aftermath") and card.in_library
        and card.front.cost is not None
        and [n.name for n in card.nameables()] != [card.front.name]
    ]
    assert wrong == []


def test_a_face_the_snapshot_lacks_has_unknown_cost_never_no_cost(pool):
    stomp = pool.lookup("Bonecrusher Giant // Stomp")
    assert stomp.faces[1].cost is None
    assert stomp.unknown_faces == ("Stomp",)
    assert [str(c) for c in stomp.printed_costs] == ["{2}{R}"]
    missing = [f for c in pool.cards for f in c.faces if f.cost is None]
    assert len(missing) == 344  # cards/README.md's isFaceDataMissing faces, each kept as "unknown"


@pytest.mark.parametrize(
    ("card", "fmt", "allowed"),
    [
        ("Ancestral Recall", "vintage", False),  # restricted
        ("Black Lotus", "vintage", False),
        ("Black Lotus", "all", True),
        ("Brainstorm", "vintage", False),
        ("Brainstorm", "legacy", True),
        ("Mana Drain", "vintage", True),
        ("Mana Drain", "legacy", False),  # banned in legacy
        ("Counterspell", "modern", False),  # not in the snapshot's modern pool
        ("Lightning Bolt", "modern", True),
        ("Abundance", "all", False),  # Mental Magic list
        ("Liar's Pendulum", "vintage", True),  # watched only
    ],
)
def test_snapshot_format_refusals(pool, card, fmt, allowed):
    assert (pool.refusal(pool.lookup(card), fmt) is None) is allowed


def test_every_format_is_known():
    assert set(FORMATS) >= {"vintage", "legacy", "commander", "modern", "pauper", "all"}


# -- autocomplete ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("savannah l", "Savannah Lions"),  # English prefix
        ("lions des", "Savannah Lions"),  # French prefix
        ("savanes", "Savannah Lions"),  # a French word
        ("destinee", "Figure of Destiny"),  # a French word, without its accent
        ("aberration", "Delver of Secrets // Insectile Aberration"),  # a back face's word
        ("glace", "Fire // Ice"),
    ],
)
def test_search_finds_prefixes_and_word_starts_in_both_languages(pool, query, expected):
    assert expected in [c.name for c in pool.search(query, limit=100)]


def test_search_ranks_the_exact_name_first_and_honours_the_limit(pool):
    hits = pool.search("Fire", limit=5)
    assert len(hits) == 5
    assert hits[0].name == "Fire // Ice"
    assert pool.search("", limit=5) == []
    assert pool.search("zzzzqqq") == []
