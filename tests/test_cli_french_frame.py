"""Issue 19: every sentence the terminal prints is the catalogue's, in --lang. A French judge runs
the main commands (decks, a game from `game new` to its end, its show, log, list, tokens, could-be,
face-up choices, export, refusals, the look-ups) and reads no English sentence of the catalogue; the
same run in English reads no French one.

Each line printed is checked against the catalogue itself: the literal words of every message's
English (``messages.WORDS``, between its placeholders) must not show at a French table, nor the
French of the CLI's own messages at an English one. Card names (English where the data lacks a
French one, marked "(en)"), type lines (English in the data, marked) and the formats' names are
the data's, not sentences, and are left out before the check.

Core tier: the CLI over a real SQLite database imported from the mini pool's cards."""

from __future__ import annotations

import functools
import re
import string
from pathlib import Path

import pytest
import support
from babel.messages.pofile import read_po
from click.testing import CliRunner

from mentalmagic.catalogue import TRANSLATIONS
from mentalmagic.cli import main
from mentalmagic.cli.words import commands, help_texts
from mentalmagic.grammar import VERB_SHOWN, WORD_SHOWN
from mentalmagic.messages import ELIDED, WORDS

HELP = help_texts()

DECK = "4 Shock\nBonecrusher Giant\nBlack Lotus\nlions des savanes\nAbundance\nLightnig Bolt\n"
# --no-shuffle: #1–#4 Shock, #5 Fire // Ice, #6 Savannah Lions, #7 Goblin Taskmaster (a {R} morph)...
LIST = "4 Shock\nFire // Ice\nSavannah Lions\nGoblin Taskmaster\nBonecrusher Giant\nLightning Bolt\nGrizzly Bears\n"
LINES = ("ana draw 2", "ana cast 1 as Lightning Bolt", "ben draw 1", "ben cast 3 as Chain Lightning", "cara draw 4",
         "cara cast 7 face-down via morph", "cara reveal 4", "cara pentaland 6", "ana shuffle at 2",
         "cara discard 5 as Incinerate")
# a command typed, in any language: `game undo`, the one whose help to read ('main game use --help'),
# a usage line's command (mentalmagic game draw [OPTIONS] ...), a path or a URL (GET /games/GAME/events)
CODE = re.compile(r"`[^`]*`|[«'][^«»'\n]*--help[^«»'\n]*[»']|\bmentalmagic(?: [a-z][\w-]*)*|\S*/\S*")
# click's usage errors: an unknown option, command and choice, an argument missing, one too many, a bad number
CLICK_ERRORS = (("game", "new", "Ana", "--bogus"), ("nope",), ("candidates", "Shock", "--format", "xx"),
                ("candidates",), ("check", "Shock", "Foudre", "Choc"), ("game", "draw", "ana", "two"))
REFUSED = {"cara cast 4 as Lightning Bolt": 1, "cara up 7 as Shock": 1, "dan draw 1": 2}  # 704.2, 705.4, no player


def run(db, lang: str, *args, code: int = 0) -> str:
    result = CliRunner().invoke(main, ["--db", str(db), "--lang", lang, *map(str, args)], prog_name="mentalmagic")
    assert result.exit_code == code, (args, result.output)
    return result.stdout + result.stderr


def session(db, lang: str, tmp_path) -> list[str]:
    """Everything a judge reads of the main commands, in ``lang``."""
    deck, game_list = tmp_path / "deck.txt", tmp_path / "list.txt"
    deck.write_text(DECK, encoding="utf-8")
    game_list.write_text(LIST, encoding="utf-8")
    out = [run(db, lang, "init-db"), run(db, lang, "deck", "check", deck, code=1),
           run(db, lang, "deck", "add", "cube", deck), run(db, lang, "deck", "list")]
    out.append(run(db, lang, "deck", "show", out[-1].split()[0]))
    out.append(run(db, lang, "game", "new", "Ana:red", "Ben:blue", "Cara:red", "--list", game_list, "--no-shuffle"))
    game = re.search(r"^\S+ (\S+) ?:", out[-1]).group(1)
    out.append(run(db, lang, "game", "use", game))
    out.append(run(db, lang, "game", "do", "help"))  # the grammar's lines, with their French verbs in French
    out += [run(db, lang, "game", "do", game, line) for line in LINES]
    out += [run(db, lang, "game", "do", game, line, code=code) for line, code in REFUSED.items()]
    out += [run(db, lang, "game", "face-up", "7", "--choices"),
            run(db, lang, "game", "draw", "ana", "--printed", "Grizzly Bears"),
            run(db, lang, "game", "could-be", "cara", "Ornithopter", code=1),
            run(db, lang, "game", "could-be", "cara", "Chain Lightning", code=1),
            run(db, lang, "game", "could-be", "ana", "Goblin Guide"),
            run(db, lang, "game", "show"), run(db, lang, "game", "show", "--as", "ben"),
            run(db, lang, "game", "show", "--library"), run(db, lang, "game", "tokens"),
            run(db, lang, "game", "tokens", "ana"), run(db, lang, "game", "undo"),
            run(db, lang, "game", "leave", "ben"),
            run(db, lang, "game", "do", "end", code=1),  # Ben gone, the red team won (104.2a)
            run(db, lang, "game", "show"), run(db, lang, "game", "log"), run(db, lang, "game", "list"),
            run(db, lang, "game", "export"), run(db, lang, "game", "use", "nope", code=2)]
    out += [run(db, lang, "candidates", "Shock"), run(db, lang, "candidates", "{R}"),
            run(db, lang, "candidates", "none"),
            run(db, lang, "candidates", "Shock", "--commander", "Krenko, Mob Boss"),
            run(db, lang, "candidates", "Bonecrusher Giant"), run(db, lang, "candidates", "nope nope", code=1),
            run(db, lang, "check", "Shock", "Foudre"), run(db, lang, "check", "Shock", "Grizzly Bears", code=1),
            run(db, lang, "card", "feu // glace"), run(db, lang, "card", "Abundance"),
            run(db, lang, "card", "Krenko, Mob Boss")]
    out += [run(db, lang, *args, code=2) for args in CLICK_ERRORS]  # click's own words, worded from the catalogue
    return [line for text in out for line in text.splitlines()]


def _fragments(text: str) -> set[str]:
    """The words of a message between its placeholders, as a reader sees them (a help text's lines
    joined: click wraps them its own way)."""
    out = set()
    for literal, *_ in string.Formatter().parse(CODE.sub("", text)):
        for part in re.split(r"[:;,.()\[\]«»—?]", literal):
            part = " ".join(part.split()).strip(" '\"`-")
            if re.search(r"[^\W\d_]{3,}", part):
                out.add(part)
    return out


@functools.cache
def _catalogue():
    with open(TRANSLATIONS / "fr" / "LC_MESSAGES" / "messages.po", "rb") as fh:
        return read_po(fh)


def _english() -> list[str]:
    """Every msgid the CLI may print: the messages' (both forms of a plural) and the help texts'."""
    return [text for words in WORDS.values() for text in (words if isinstance(words, tuple) else (words,))] + HELP


@functools.cache
def english_words() -> frozenset[str]:
    """The literal words of every message's English and every help text, but those French says alike
    (Pentaland, Mental Magic)."""
    return frozenset({f for text in _english() for f in _fragments(text)} - french_words(every=True))


@functools.cache
def french_words(every: bool = False) -> frozenset[str]:
    """The literal words of the French of the CLI's own messages (``cli.*``, click's, the help texts),
    or of every message."""
    wanted = {w for code, words in WORDS.items() if every or code.startswith(("cli.", "click."))
              for w in (words if isinstance(words, tuple) else (words,))}
    wanted |= {text for _, text in ELIDED.values()} | set(HELP)
    out = set()
    for m in _catalogue():
        if m.id and (m.id[0] if isinstance(m.id, tuple) else m.id) in wanted:
            for text in m.string if isinstance(m.string, tuple) else (m.string,):
                out |= _fragments(text)
    if every:
        return frozenset(out)
    english = "\n".join(_english())
    return frozenset(f for f in out if not _occurs(f, english))  # "deck", "Pentaland"


def _occurs(word: str, text: str) -> bool:
    r"""Does ``word`` stand in ``text`` as a word (no letter, digit, _ or - beside it)? As the
    pattern ``(?<![\w-])word(?![\w-])`` says, without compiling one for each of thousands of words."""
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        if not (start and _wordish(text[start - 1])) and not (end < len(text) and _wordish(text[end])):
            return True
        start = text.find(word, start + 1)
    return False


def _wordish(c: str) -> bool:
    return c.isalnum() or c in "_-"


def _data_words(pool) -> re.Pattern:
    """The card data's own words: every card and face name, a type line marked (en), the formats'
    names and a card's layout; and the words `game do` reads alike in French and English, typed as
    names are (exile, via)."""
    alike = {w for w in (*VERB_SHOWN.values(), *WORD_SHOWN.values()) if w in VERB_SHOWN or w in WORD_SHOWN}
    names = {x.name for card in pool.cards for x in (card, *card.faces)} | alike
    names |= {x.french_name for card in pool.cards for x in (card, *card.faces) if x.french_name}
    formats = {f for card in pool.cards for f in card.legalities} | {"mental-magic", "magic-ville"}
    alternatives = sorted(names | formats, key=len, reverse=True)
    return re.compile(r"— [^—\n]*\(en\)$|\[\w+\]$|" + "|".join(re.escape(a) for a in alternatives), re.M)


@functools.cache
def _patterns(words: frozenset[str]) -> list[tuple[str, re.Pattern]]:
    # compiled once: thousands of words overflow re's cache, which then compiled each one for every line
    return [(w, re.compile(rf"(?<![\w-]){re.escape(w)}(?![\w-])")) for w in words]


def shown(words: frozenset[str], lines: list[str], data: re.Pattern) -> list[tuple[str, str]]:
    found = []
    patterns = _patterns(words)
    for line in lines:
        text = CODE.sub("", data.sub("", line))
        for w, pattern in patterns:
            if w in text and pattern.search(text):  # `in` first: far quicker than a pattern that starts looking behind
                found.append((w, line))
    return found


@pytest.fixture
def dbs(tmp_path, mini_card_db_path, mini_db_finder, monkeypatch):
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(mini_card_db_path.parent / "AtomicCards.json"))
    support.cli_over_session_pool(monkeypatch, mini_db_finder.pool, mini_db_finder)
    for lang in ("fr", "en"):
        (tmp_path / lang).mkdir()
    return {lang: support.fresh_games_db(mini_card_db_path, tmp_path / lang / "cli.sqlite") for lang in ("fr", "en")}


def test_a_french_judge_reads_no_english_sentence_and_an_english_one_no_french(dbs, tmp_path, mini_db_finder):
    data = _data_words(mini_db_finder.pool)
    french = session(dbs["fr"], "fr", tmp_path / "fr")
    english = session(dbs["en"], "en", tmp_path / "en")
    assert len(french) == len(english) > 100  # the same lines, each in its language
    assert "\n".join(f"{w!r} in {line!r}" for w, line in shown(english_words(), french, data)) == ""
    assert "\n".join(f"{w!r} in {line!r}" for w, line in shown(french_words(), english, data)) == ""
    for line in ("main d’Ana (1)", "8 cartes sur 5 lignes", "PARTIE TERMINÉE", "nommée Foudre",
                 "Erreur : pas de partie 'nope'", "refusé (704.2) : Foudre est déjà le nom",
                 ": Ana, Cara ont gagné ;", "position 1 depuis le dessus",
                 "Utilisation : mentalmagic game new [OPTIONS] JOUEURS...", "Erreur : pas d’option '--bogus'.",
                 "Essayez « mentalmagic candidates --help » pour l’aide.", "Erreur : argument manquant 'IMPRIMÉE'.",
                 "Erreur : pas de commande 'nope'.", "argument en trop (Choc)",
                 "valeur invalide pour '--format' : 'xx' n’est pas l’un de 'vintage',",
                 "valeur invalide pour '[NOMBRE]' : 'two' n’est pas un nombre valide."):
        assert any(line in x for x in french), (line, french)
    assert not [line for line in french if "integer" in line]  # the kind of number click names in English
    for line in ("hand of Ana (1)", "8 cards on 5 lines", "GAME OVER", "named Lightning Bolt",
                 "Error: no game 'nope'", "refused (704.2): Lightning Bolt is already the name",
                 ": Ana, Cara won;", "1 from the top", "Usage: mentalmagic game new [OPTIONS] PLAYERS...",
                 "Error: Missing argument 'PRINTED'.", "Invalid value for '[COUNT]': 'two' is not a valid integer"):
        assert any(line in x for x in english), (line, english)


def test_the_check_sees_an_english_sentence_where_one_shows(mini_db_finder):
    """The check itself can fail: an English line of the catalogue at a French table is found."""
    data = _data_words(mini_db_finder.pool)
    line = "  #3  Choc   named Foudre; Ana"
    assert shown(english_words(), [line], data) == [("named", line)]
    assert shown(english_words(), ["noms pris (704.2) : Foudre (#1, Ana)"], data) == []
    assert shown(french_words(), ["names taken (704.2): main de Cara"], data)
    assert {w for w, _ in shown(english_words(), ["Usage: mentalmagic game draw [OPTIONS] PLAYER"], data)} == {
        "Usage", "PLAYER"}  # click's words and a placeholder, not the command typed


def test_the_root_words_its_own_help_and_errors_in_the_language_asked_before_reading_them():
    """--lang (or MENTALMAGIC_LANG) holds before the root reads its own options: its --help and its
    usage errors come before its callback; the next run in English reads English again."""
    french = CliRunner(env={"MENTALMAGIC_LANG": "fr"}).invoke(main, ["--bogus"], prog_name="mentalmagic")
    assert french.exit_code == 2
    assert french.stderr.startswith("Utilisation : mentalmagic [OPTIONS] COMMANDE [ARGS]...\n")
    assert "Erreur : pas d’option '--bogus'." in french.stderr
    helped = CliRunner().invoke(main, ["--lang", "fr", "--help"], prog_name="mentalmagic").stdout
    assert "\nCommandes :\n" in helped and "--help          Affiche cette aide et s’arrête." in helped
    english = CliRunner(env={"MENTALMAGIC_LANG": None}).invoke(main, ["--bogus"], prog_name="mentalmagic")
    assert "Usage: mentalmagic [OPTIONS] COMMAND [ARGS]...\n" in english.stderr
    assert "Error: No such option '--bogus'." in english.stderr


def help_pages(lang: str, group=main, path=()) -> list[str]:
    """Every command's --help in ``lang``, each page joined into one line (click wraps it its own
    way), without what is typed: the commands' and options' names and the choices of a value."""
    page = CliRunner().invoke(main, ["--lang", lang, *path, "--help"], prog_name="mentalmagic").stdout
    page = re.sub(r"^  [a-z][\w-]*(?=  |$)|--[\w-]+|\{[^{}]*\|[^{}]*\}|\[[\w.-]+(?:\|[\w.-]+)+\]", "", page,
                  flags=re.M)
    pages = [" ".join(page.split())]
    if hasattr(group, "list_commands"):
        for name in group.list_commands(None):
            pages += help_pages(lang, group.get_command(None, name), (*path, name))
    return pages


def test_every_help_page_reads_in_the_language_asked(mini_db_finder):
    """`--help` of every command: its texts, headings, placeholders and click's words in French
    under --lang fr (from the catalogue), and no French in English."""
    data = _data_words(mini_db_finder.pool)
    french, english = help_pages("fr"), help_pages("en")
    assert len(french) == len(english) == 1 + sum(1 for _ in commands(None, main))
    assert "\n".join(f"{w!r} in {page!r}" for w, page in shown(english_words(), french, data)) == ""
    assert "\n".join(f"{w!r} in {page!r}" for w, page in shown(french_words(), english, data)) == ""
    for said in ("Utilisation : mentalmagic game draw [OPTIONS] [PARTIE] JOUEUR [NOMBRE] JOUEUR pioche NOMBRE cartes",
                 "Options : TEXTE Enregistrer quelle carte imprimée", "Affiche cette aide et s’arrête.",
                 "[par défaut : vintage]", "Commandes : Copier toute la base", "Importe la source des cartes",
                 "J déplace C [vers] ZONE",
                 "[face-cachée] [comme NOM] [via V] ana déplace 4 vers bibliothèque dessous"):
        assert any(said in page for page in french), said
    for said in ("Usage: mentalmagic game draw [OPTIONS] [GAME] PLAYER [COUNT] PLAYER draws COUNT cards",
                 "P move C [to] ZONE", "[face-down] [as NAME] [via V] ana move 4 to library bottom"):
        assert any(said in page for page in english), said


def test_every_help_text_has_its_french_and_clicks_words_are_clicks():
    """A help text changed without `make messages` would show in English; a msgid of click.* that
    click no longer uses would leave click's new words in English."""
    catalogue = _catalogue()
    assert [text for text in HELP if not (catalogue.get(text) and catalogue.get(text).string)] == []
    import click

    source = "".join(path.read_text(encoding="utf-8") for path in Path(click.__file__).parent.glob("*.py"))
    said = [w for code, words in WORDS.items() if code.startswith("click.")
            for w in (words if isinstance(words, tuple) else (words,))]
    assert [w for w in said if repr(w) not in source and f'"{w}"' not in source] == []
