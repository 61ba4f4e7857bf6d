"""The judge's text grammar (mentalmagic/grammar.py): a table of lines and the commands they are,
a table of lines it refuses and why, and Hypothesis: any text is a command or a GrammarError."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mentalmagic.commands import (
    Draw,
    EndLook,
    EndReveal,
    LeaveGame,
    Look,
    Move,
    Name,
    Reveal,
    Shuffle,
    TurnFaceUp,
)
from mentalmagic.errors import InvalidInput
from mentalmagic.game import GameSetup, Player
from mentalmagic.grammar import (
    HELP,
    VERBS,
    VIA_SHOWN,
    GrammarError,
    Suggestion,
    Table,
    Undo,
    card_handles,
    card_ref,
    handle_of,
    help_text,
    parse,
    player_ref,
    suggest,
    tokens,
)

SETUP = GameSetup(
    format="vintage",
    players=(Player("p1", "Ana"), Player("p2", "Ben", "red"), Player("p3", "Cara Mia", "red")),
    library=tuple((f"c{i:02d}x", "Shock") for i in range(1, 11)),
)
TABLE = Table.of(SETUP)


def c(n: int) -> str:
    return f"c{n:02d}x"


@pytest.mark.parametrize(("line", "command"), [
    ("ana draw 2", Draw(player="p1", count=2)),
    ("ana draw", Draw(player="p1")),
    ("ANA DRAW 1", Draw(player="p1", count=1)),
    ("p2 draw 3", Draw(player="p2", count=3)),
    ("ana draw Shock", Draw(player="p1", printed="Shock")),
    ("ana draw printed Fire // Ice", Draw(player="p1", printed="Fire // Ice")),
    ("ben cast 3 as Shock", Move(player="p2", card=c(3), to="stack", name="Shock")),
    ("ben cast #3 as Lightning Bolt", Move(player="p2", card=c(3), to="stack", name="Lightning Bolt")),
    ("ben cast 3", Move(player="p2", card=c(3), to="stack")),
    ("ben cast 3 face-down via morph", Move(player="p2", card=c(3), to="stack", face_down=True, via="morph")),
    ("ben cast 3 via morph", Move(player="p2", card=c(3), to="stack", face_down=True, via="morph")),
    ("ben cast 3 down as Akroma, Angel of Fury", Move(player="p2", card=c(3), to="stack", face_down=True,
                                                     name="Akroma, Angel of Fury")),
    ("cara mia pentaland 5", Move(player="p3", card=c(5), to="battlefield", pentaland=True)),
    ('"Cara Mia" pentaland 5', Move(player="p3", card=c(5), to="battlefield", pentaland=True)),
    ("cara pentaland 5", Move(player="p3", card=c(5), to="battlefield", pentaland=True)),
    ("an draw", Draw(player="p1")),
    ("ana play 4", Move(player="p1", card=c(4), to="battlefield")),
    ("ana play 4 as Jace's Erasure", Move(player="p1", card=c(4), to="battlefield", name="Jace's Erasure")),
    ("ana move 4 to library bottom", Move(player="p1", card=c(4), to="library", position="bottom")),
    ("ana move 4 graveyard as Shock", Move(player="p1", card=c(4), to="graveyard", name="Shock")),
    ("ana move c04x exile", Move(player="p1", card=c(4), to="exile")),
    ("ana move C04X exile", Move(player="p1", card=c(4), to="exile")),
    ("ben discard 3 as Shock", Move(player="p2", card=c(3), to="graveyard", name="Shock")),
    ("ben exile 3", Move(player="p2", card=c(3), to="exile")),
    ("ben bounce 3", Move(player="p2", card=c(3), to="hand")),
    ("ben name 3 Shock", Name(player="p2", card=c(3), name="Shock")),
    ("ben name 3 as Fire // Ice", Name(player="p2", card=c(3), name="Fire // Ice")),
    ("ana up 5 as Shock via morph", TurnFaceUp(player="p1", card=c(5), name="Shock", via="morph")),
    ("ana up 5 via megamorph as Shock", TurnFaceUp(player="p1", card=c(5), name="Shock", via="megamorph")),
    ("ana face-up 5", TurnFaceUp(player="p1", card=c(5))),
    ("ana reveal 2", Reveal(player="p1", cards=(c(2),))),
    ("ana reveal 2 7 continuous", Reveal(player="p1", cards=(c(2), c(7)), continuous=True)),
    ("ana reveal top 2", Reveal(player="p1", count=2)),
    ("ben look top 3", Look(player="p2", count=3)),
    ("ben look 1 2", Look(player="p2", cards=(c(1), c(2)))),
    ("ana unreveal 2", EndReveal(player="p1", cards=(c(2),))),
    ("ben unlook 1 2", EndLook(player="p2", cards=(c(1), c(2)))),
    ("ana leave", LeaveGame(player="p1")),
    ("ana leave returning 6 #7", LeaveGame(player="p1", returned=(c(6), c(7)))),
    ("ben choose 3 as Shock", Name(player="p2", card=c(3), name="Shock", choice=True)),
    ("ana shuffle", Shuffle(player="p1")),
    ("ana shuffle at 4", Shuffle(player="p1", at=4)),
    ("  undo  ", Undo()),
    ("UNDO", Undo()),
])
def test_a_line_is_the_command_it_says(line, command):
    assert parse(line, TABLE) == command


@pytest.mark.parametrize(("line", "says"), [
    ("", "empty command"),
    ("   ", "empty command"),
    ("dan draw 2", "'dan' names no player"),
    ("p draw 2", "'p' is the start of more than one player's name"),
    ("ana", "a verb follows the player"),
    ("ana fly 2", "unknown verb 'fly'"),
    ("ana draw 0", "from 1 to 500"),
    ("ana draw 501", "from 1 to 500"),
    ("ana draw ²", "from 1 to 500"),
    ("ben cast 11 as Shock", "no card '11'"),
    ("ben cast as Shock", "no card 'as'"),
    ("ben cast", "expected a card"),
    ("ben cast 3 as", "expected a name after `as`"),
    ("ben cast 3 via tapping", "unknown way 'tapping'"),
    ("ben cast 3 top", "top or bottom is for a card put into the library"),
    ("ben cast 3 Shock", "unexpected 'Shock'"),
    ("ben move 3 to the moon", "expected where to"),
    ("ben name 3", "expected the name to give"),
    ("cara mia pentaland 5 as Shock", "unexpected 'as'"),
    ("ana reveal", "expected cards"),
    ("ana reveal top", "expected `top N`"),
    ("ana reveal 2 2", "a card is named twice"),
    ("ana look top 3 4", "expected `top N`"),
    ("ana leave now", "`leave` takes only `returning CARDS…`"),
    ("ana leave returning", "expected cards"),
    ("ana shuffle at", "expected `at N`"),
    ("ana shuffle at 0", "expected `at N`"),
    ("ana shuffle now", "`shuffle` takes only `at N`"),
    ('ana cast 3 as "Shock', "not closed"),
    ("undo ana", "'undo' names no player"),
])
def test_a_line_it_cant_read_says_why(line, says):
    with pytest.raises(GrammarError, match=says.replace("(", r"\(").replace("?", r"\?")):
        parse(line, TABLE)


def test_a_grammar_error_is_invalid_input_with_the_line_field():
    with pytest.raises(InvalidInput) as info:
        parse("ana fly", TABLE)
    assert info.value.code == "grammar" and list(info.value.fields) == ["line"]


def test_handles_number_the_library_as_it_started_and_map_back():
    handles = card_handles(SETUP)
    assert handles["1"] == c(1) and handles["10"] == c(10) and len(handles) == 10
    assert handle_of(SETUP)[c(7)] == "7"


def test_a_name_wins_over_another_players_id():
    setup = GameSetup("vintage", (Player("p1", "p2"), Player("p2", "Ben")), (("a", "Shock"),))
    assert parse("p2 draw", Table.of(setup)) == Draw(player="p1")
    assert parse("ben draw", Table.of(setup)) == Draw(player="p2")


def test_double_quotes_group_words_and_apostrophes_are_letters():
    assert tokens('"Cara Mia" cast 3 as Jace\'s Erasure') == ["Cara Mia", "cast", "3", "as", "Jace's", "Erasure"]


@pytest.mark.parametrize(("usage", "example", "meaning"), HELP)
def test_every_example_of_the_help_parses(usage, example, meaning):
    parse(example, TABLE)


def test_the_french_help_shows_the_french_words_the_grammar_reads():
    """`game do help` in French: each example in French words parses as its English one does."""
    french = help_text(french={"P": "J", "NAME": "NOM"}).splitlines()
    assert french[0].startswith("J pioche [N]") and french[-1].startswith("fin")
    for (_, english, _), line in zip(HELP, french, strict=True):
        said = re.split(r"\s{2,}", line)[-1]
        assert said != english or said in ("cara pentaland 5",), said
        assert parse(said, TABLE) == parse(english, TABLE), said


WORDS = st.sampled_from(["ana", "Ben", "cara", "mia", "draw", "cast", "play", "pentaland", "move", "to", "name",
                         "up", "reveal", "look", "unreveal", "unlook", "leave", "undo",
                         "choose", "shuffle", "at", "returning", "as", "via", "morph",
                         "top", "bottom", "face-down", "continuous", "library", "1", "3", "#5", "0", "11",
                         "Shock", '"', "'", "Fire // Ice", "c04x", ""])


@given(st.one_of(st.text(max_size=60), st.lists(WORDS, max_size=8).map(" ".join)))
@example("END")  # the judge's end of the game: one word a random draw found
def test_any_text_is_a_command_or_a_grammar_error(line):
    try:
        command = parse(line, TABLE)
    except GrammarError as e:
        assert e.message and e.fields == {"line": [e.said]}
    else:
        assert command.type in {"undo", "draw", "move", "name", "turn_face_up", "reveal", "look", "end_reveal",
                                "end_look", "leave_game", "shuffle", "end_game", "commander_damage"}


def test_a_line_too_long_is_refused_before_reading():
    with pytest.raises(GrammarError, match="at most 1000"):
        parse("ana draw " + "1" * 2000, TABLE)


@pytest.mark.parametrize(("text", "pid"), [("ana", "p1"), ("ANA", "p1"), ("p2", "p2"), ("Cara Mia", "p3"),
                                           ("cara", "p3"), ("b", "p2")])
def test_a_player_is_a_name_its_unique_start_or_an_id(text, pid):
    assert player_ref(text, TABLE) == pid


@pytest.mark.parametrize("text", ["dan", "p", "", "ana draw"])
def test_a_player_reference_that_names_no_one_is_a_grammar_error(text):
    with pytest.raises(GrammarError):
        player_ref(text, TABLE)


def test_a_card_is_its_handle_or_its_id():
    assert card_ref("3", TABLE) == card_ref("#3", TABLE) == card_ref("C03X", TABLE) == c(3)
    with pytest.raises(GrammarError, match="no card '0'"):
        card_ref("0", TABLE)


@pytest.mark.parametrize(("line", "kind", "prefix", "words"), [
    ("", "player", "", ("Ana", "Ben", "Cara Mia", "undo")),
    ("b", "player", "b", ("Ben",)),
    ("un", "player", "un", ("undo",)),
    ("ana ", "verb", "", VERBS),
    ("ana c", "verb", "c", ("cast", "choose")),
    ("ana ca", "verb", "ca", ("cast",)),
    ("ana un", "verb", "un", ("unreveal", "unlook")),
    ("ben cast ", "card", "", ()),
    ("ben cast 3 ", "word", "", ("as", "via", "face-down")),
    ("ben cast 3 v", "word", "v", ("via",)),
    ("ben cast 3 via ", "via", "", ("morph", "megamorph", "disguise", "manifest", "cloak", "effect")),
    ("ben cast 3 via m", "via", "m", ("morph", "megamorph", "manifest")),
    ("ben cast 3 as Light", "name", "Light", ()),
    ("ben cast 3 as Lightning B", "name", "Lightning B", ()),
    ("ben cast 3 as ", "name", "", ()),
    ("ben name 3 Fire // I", "name", "Fire // I", ()),
    ("ana move 4 ", "zone", "", ("to", "library", "hand", "battlefield", "graveyard", "exile", "stack", "command")),
    ("ana move 4 to g", "zone", "g", ("graveyard",)),
    ("ana move 4 to library ", "word", "", ("as", "via", "face-down", "top", "bottom")),
    ("ana up 5 ", "word", "", ("as", "via")),
    ("ana draw ", "count", "", ()),
    ("ana reveal ", "card", "", ("top",)),
    ("ana reveal top ", "count", "", ()),
    ("ana reveal top 2 ", "word", "", ("continuous",)),
    ("ana reveal 2 c", "card", "c", ("continuous",)),
    ("ben look 1 ", "card", "", ()),
    ("ben unlook ", "card", "", ()),
    ("ana leave ", "word", "", ("returning", "naming")),
    ("ana leave returning ", "card", "", ()),
    ("ana shuffle ", "word", "", ("at",)),
    ("ana shuffle at ", "count", "", ()),
    ("ben choose 3 as Sh", "name", "Sh", ()),
    ("dan ", "", "", ()),
    ('ana cast 3 as "Sh', "", "", ()),
])
def test_what_may_come_next(line, kind, prefix, words):
    assert suggest(line, TABLE) == Suggestion(kind, prefix, words)


@given(st.one_of(st.text(max_size=60), st.lists(WORDS, max_size=8).map(" ".join)))
def test_a_suggestion_never_raises(line):
    assert isinstance(suggest(line, TABLE), Suggestion)


# -- French (issue 19): the same commands in the table's language ---------------------------------------
@pytest.mark.parametrize(("line", "english"), [
    ("ana pioche 2", "ana draw 2"),
    ("Ana Piocher", "ana draw"),
    ("ana pioche Foudre", "ana draw Foudre"),
    ("ana pioche imprimée Feu // Glace", "ana draw printed Feu // Glace"),
    ("ben lance 3 comme Foudre", "ben cast 3 as Foudre"),
    ("ben lance 3 comme Comme un as", "ben cast 3 as Comme un as"),  # a name is read as typed
    ("ben lance 3 face-cachée via morph", "ben cast 3 face-down via morph"),
    ("ana joue 4 comme Forêt", "ana play 4 as Forêt"),
    ("cara pentaland 5", "cara pentaland 5"),
    ("ana déplace 4 vers bibliothèque dessous", "ana move 4 to library bottom"),
    ("ana deplace 4 cimetiere", "ana move 4 graveyard"),
    ("ben défausse 3 comme Choc", "ben discard 3 as Choc"),
    ("ben nomme 3 Choc", "ben name 3 Choc"),
    ("ben choisit 3 comme Choc", "ben choose 3 as Choc"),
    ("ana retourne 5 comme Choc via morph", "ana up 5 as Choc via morph"),
    ("ana retourne 5 comme Choc via mue", "ana up 5 as Choc via morph"),  # issue 35: the page's French example
    ("ana joue 4 via mue", "ana play 4 via morph"),
    ("ana joue 4 via Mégamue", "ana play 4 via megamorph"),
    ("ana joue 4 via déguisement", "ana play 4 via disguise"),
    ("ana révèle dessus 2", "ana reveal top 2"),
    ("ana revele 2 continu", "ana reveal 2 continuous"),
    ("ana cache 2", "ana unreveal 2"),
    ("ben regarde dessus 3", "ben look top 3"),
    ("ana quitte rendant 6", "ana leave returning 6"),
    ("ana mélange à 7", "ana shuffle at 7"),
    ("ben blessé 7 par 10", "ben damaged 7 by 10"),
    ("annuler", "undo"),
    ("fin", "end"),
])
def test_a_french_line_reads_as_its_english_one(line, english):
    assert parse(line, TABLE) == parse(english, TABLE)


def test_an_unknown_french_verb_is_still_a_grammar_error_listing_the_verbs():
    with pytest.raises(GrammarError) as e:
        parse("ana vole 2", TABLE)
    assert e.value.said.code == "grammar.unknown_verb"


@pytest.mark.parametrize(("line", "words"), [
    ("ana pi", ("pioche",)),
    ("ana déplace 4 vers cim", ("cimetière",)),
    ("ana lance 3 ", ("comme", "via", "face-cachée")),
    ("ana joue 4 via ", ("mue", "mégamue", "déguisement", "manifestation", "camouflage", "effet")),  # issue 35
    ("ana joue 4 via m", ("mue", "mégamue", "manifestation", "morph", "megamorph", "manifest")),
    ("", ("Ana", "Ben", "Cara Mia", "annuler")),
])
def test_a_french_page_completes_in_french(line, words):
    assert suggest(line, TABLE, "fr").words == words


def test_every_french_via_offered_reads_back_as_its_english_one():
    for english, french in VIA_SHOWN.items():
        assert parse(f"ana play 4 via {french}", TABLE) == parse(f"ana play 4 via {english}", TABLE)


def test_every_french_word_offered_reads_back_as_its_english_one():
    from mentalmagic.grammar import FRENCH_WORDS, VERB_SHOWN, WORD_SHOWN, english

    assert all(english(fr) == en for en, fr in VERB_SHOWN.items())
    assert all(english(fr, FRENCH_WORDS) == en for en, fr in WORD_SHOWN.items() if fr != en)


def test_the_consoles_french_examples_read_as_its_english_ones():
    """game.html's examples are catalogue messages; each French one is the same command."""
    import re
    from pathlib import Path

    from babel.messages.pofile import read_po

    import mentalmagic.web as web
    from mentalmagic.names import fold

    html = (Path(web.__file__).parent / "templates" / "game.html").read_text(encoding="utf-8")
    examples = re.findall(r'<code>\{\{ _\("([^"]+)"\) \}\}</code>', html)
    assert len(examples) >= 20
    with open(Path(web.__file__).parent / "translations/fr/LC_MESSAGES/messages.po", "rb") as fh:
        french = {m.id: m.string for m in read_po(fh)}
    names = {"choc": "Shock", "lions des savanes": "Savannah Lions",  # the examples' card names
             "surveillant gobelin": "Goblin Taskmaster"}
    questions = {"ana could Shock": "ana pourrait Choc", "same 3 4": "même 3 4"}  # commandline.js reads them
    for english, said in questions.items():
        assert french[english] == said
    for english in (e for e in examples if e not in questions):
        parsed = parse(french[english], TABLE)
        if getattr(parsed, "names", None):  # `… naming C as NAME` (D12)
            parsed = type(parsed)(**{**parsed.__dict__, "names": tuple((c, names[fold(n)]) for c, n in parsed.names)})
        if getattr(parsed, "name", None):
            parsed = type(parsed)(**{**parsed.__dict__, "name": names[fold(parsed.name)]})
        if getattr(parsed, "printed", None):
            parsed = type(parsed)(**{**parsed.__dict__, "printed": names[fold(parsed.printed)]})
        assert parsed == parse(english, TABLE), (english, french[english])
