"""Messages as data (issue 19): the core says codes and parameters; the catalogue words them.

Every code has its French, with the same placeholders; every code the core raises is in the
catalogue; a refusal is worded in English or French from the same ``Message``.
"""

from __future__ import annotations

import ast
import re
import string
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from mentalmagic import errors
from mentalmagic.catalogue import TRANSLATIONS, text, translations
from mentalmagic.messages import ELIDED, WORDS, Message, both, card_name, either, render, render_all, say

ROOT = Path(__file__).resolve().parent.parent / "mentalmagic"
PO = TRANSLATIONS / "fr" / "LC_MESSAGES" / "messages.po"
CODE = re.compile(r"[a-z_0-9]+(\.[a-z_0-9]+)+")
LEFT_OUT = {"n", "number_type"}


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@cache  # read once for the module's tests: they only read it
def _catalogue():
    with open(PO, "rb") as fh:
        return read_po(fh)


def test_every_message_code_has_its_french_with_the_same_placeholders():
    catalogue = _catalogue()
    missing, wrong = [], []
    for code, words in WORDS.items():
        english = words if isinstance(words, tuple) else (words,)
        entry = catalogue.get(english[0])
        french = entry.string if entry else None
        french = french if isinstance(french, tuple) else (french,)
        if entry is None or entry.fuzzy or not all(french):
            missing.append(code)
            continue
        # each form against its English (click's singular and plural may name different ones); French
        # may leave out the count, and the kind of number click names in English (integer, float)
        if any(_placeholders(f) != _placeholders(english[min(i, len(english) - 1)]) - (LEFT_OUT - _placeholders(f))
               for i, f in enumerate(french)):
            wrong.append(code)
    assert not missing, f"message codes with no French text: {missing}"
    assert not wrong, f"French texts whose placeholders differ from the English: {wrong}"


def test_no_catalogue_entry_is_empty_or_fuzzy():
    bad = [m.id for m in _catalogue() if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple)
                                                                         else (m.string,)))]
    assert not bad



def test_a_code_a_message_names_is_worded_from_the_catalogue():
    """A code the core passes as a parameter reads in the sentence's language ("retournée par un
    effet", never "par effect"): each way a card goes face down or up, each keyword and type a
    face-down card's name must have (705.4), each layout a deck line can't load (700.2)."""
    from mentalmagic.cards import NON_LIBRARY_LAYOUTS
    from mentalmagic.naming import PLAYED_AS, VIA_FILTERS
    from mentalmagic.zones import VIAS

    codes = {f"via.{v}" for v in VIAS} | {f"layout.{k}" for k in NON_LIBRARY_LAYOUTS} | {
        f"keyword.{k}" for k in (*PLAYED_AS.values(), *(k for _, ks in VIA_FILTERS.values() for k in ks))} | {
        f"card_type.{t}" for t, _ in VIA_FILTERS.values() if t}
    assert not codes - WORDS.keys()


# A pronoun standing for a player: players have no gender in the data ("la carte que possède Ana",
# "un joueur ne pioche que pour son propre compte").
PLAYER = re.compile(r"\{(who|player|players|winners)\}|\b(JOUEURS?|joueurs?)\b")
PRONOUN = re.compile(r"\b(qu|s|l)[’'](il|elle)s?\b|\b(avec|pour|sans|de|à|par|chez) (lui|elle|eux|elles)(-mêmes?)?\b"
                     r"|(?<![’'])\b(il|elle)s? (possède|contrôle|perd|nomme)|\bcelui dont\b")


def test_no_french_sentence_about_a_player_says_him_or_her():
    gendered = [s for m in _catalogue() for s in (m.string if isinstance(m.string, tuple) else (m.string,))
                if s and PLAYER.search(s) and PRONOUN.search(s)]
    assert not gendered

def _error_classes() -> set[str]:
    out, todo = set(), [errors.ArbiterError]
    while todo:
        cls = todo.pop()
        out.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    import mentalmagic.decklist  # noqa: F401  (their errors subclass ArbiterError)
    import mentalmagic.grammar  # noqa: F401
    return out | {c.__name__ for c in _subclasses(errors.ArbiterError)}


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _saying_classes() -> set[str]:
    """The error classes whose first argument is what they say (a code), not a name or an id."""
    import inspect

    _error_classes()  # imports the modules whose errors subclass ArbiterError
    classes = {errors.ArbiterError, *_subclasses(errors.ArbiterError)}
    return {c.__name__ for c in classes if list(inspect.signature(c.__init__).parameters)[1:2] == ["said"]}


def _core_trees():
    for path in sorted(ROOT.rglob("*.py")):
        if "web" in path.relative_to(ROOT).parts[:1] or path.name == "messages.py":
            continue
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _callee(node: ast.Call) -> str | None:
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)


def _said_argument(node: ast.Call, position: dict[str, int | str]):
    """The argument of ``node`` that says something, or None."""
    where = position.get(_callee(node))
    if isinstance(where, int) and len(node.args) > where:
        return node.args[where]
    return next((k.value for k in node.keywords if k.arg == where), None) if isinstance(where, str) else None


def _code_positions() -> dict[str, int]:
    """Callee -> the position of the argument that says something: the first of an error class that
    says what it says, of ``say`` and ``Message``; a rule or a line first for some; and every core
    function that hands one of its parameters on to such an argument (``only_the_judge(caller, what)``),
    found by walking the core to a fixed point."""
    position: dict[str, int | str] = {name: 0 for name in _saying_classes() | {"say", "Message"}}
    position |= {"Reason": 1, "Refusal": 1, "Problem": 2}
    trees = list(_core_trees())
    while True:
        found = {}
        for _, tree in trees:
            for fn in ast.walk(tree):
                if not isinstance(fn, ast.FunctionDef) or fn.name in position:
                    continue
                params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
                for node in ast.walk(fn):
                    arg = _said_argument(node, position) if isinstance(node, ast.Call) else None
                    if isinstance(arg, ast.BinOp):  # what + ".field"
                        arg = arg.left
                    if isinstance(arg, ast.Name) and arg.id in params:
                        found[fn.name] = params.index(arg.id) - (1 if params[:1] in (["self"], ["cls"]) else 0)
        if not found:
            return position
        position |= found


def _core_calls():
    """(file, line, callee, argument) of every call in the core that says something, and of every
    constant a function assigns to a name it then says (``why = "a" if … else "b"``)."""
    position, seen = _code_positions(), set()
    for path, tree in _core_trees():
        for fn in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]:
            assigned: dict[str, list] = {}
            for node in (ast.walk(fn) if fn is not tree else tree.body):  # a module's names: its own, not its classes'
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    assigned.setdefault(node.targets[0].id, []).append(node.value)
            for node in ast.walk(fn):
                if isinstance(node, ast.Call):
                    arg = _said_argument(node, position)
                    if arg is None or id(node) in seen:  # a function's call, met again in its module's walk
                        continue
                    seen.add(id(node))
                    yield path.name, node.lineno, _callee(node), arg
                    if isinstance(arg, ast.Name):
                        for value in assigned.get(arg.id, ()):
                            yield path.name, node.lineno, _callee(node), value


def test_the_core_says_codes_the_catalogue_has_never_sentences():
    """Every refusal the core and the services can raise says a catalogue code (whose French
    test_every_message_code_has_its_french… checks): given to the error or ``say`` directly, through a
    function that hands its parameter on (``only_the_judge(caller, "judge_only.undo")``), or through a
    name the function sets (``why = "return.owns" if … else …``). Issue 30: a bare ``"undo"`` passed."""
    assert {"only_the_judge", "_ending", "bearer"} <= set(_code_positions())
    unknown, sentences = [], []
    for file, line, name, arg in _core_calls():
        for value in ([arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]):
            if isinstance(value, ast.JoinedStr):
                sentences.append(f"{file}:{line} {name}(f-string)")
            elif isinstance(value, ast.Constant) and isinstance(value.value, str):
                if " " in value.value:
                    sentences.append(f"{file}:{line} {name}({value.value!r})")
                elif value.value not in WORDS:  # a bare word too (``undo``): a code the catalogue lacks
                    unknown.append(f"{file}:{line} {value.value}")
    assert not unknown, f"codes with no words in messages.WORDS: {unknown}"
    assert not sentences, f"the core builds sentences; give a message code instead: {sentences}"


def test_a_refusal_is_worded_in_english_or_french_from_one_message():
    advice = say("face_up.free", n=2, names=["Daru Lancer", "Zombie Cutthroat"])
    e = errors.NameTaken("name.taken_advice", name="Elite Vanguard", advice=advice)
    assert e.code == "name_taken" and e.rule == "704.2"
    assert e.message == ("Elite Vanguard is already the name of another card in this game; "
                         "2 legal names are still free, e.g. Daru Lancer, Zombie Cutthroat")
    assert render(e.said, translations("fr")) == (
        "Elite Vanguard est déjà le nom d’une autre carte de cette partie ; "
        "2 noms permis sont encore libres, par exemple Daru Lancer, Zombie Cutthroat")
    assert e.said.as_json() == {"message_code": "name.taken_advice", "params": {
        "name": "Elite Vanguard",
        "advice": {"message_code": "face_up.free", "params": {"n": 2, "names": ["Daru Lancer", "Zombie Cutthroat"]}}}}


@pytest.mark.parametrize("n, english, french", [
    (1, "1 legal name is still free, e.g. X", "1 nom permis est encore libre, par exemple X"),
    (3, "3 legal names are still free, e.g. X", "3 noms permis sont encore libres, par exemple X"),
])
def test_plurals_come_from_the_catalogue(n, english, french):
    m = say("face_up.free", n=n, names=["X"])
    assert (text(m, "en"), text(m, "fr"), text(m, "fr-CA")) == (english, french, french)


def test_an_elided_message_has_its_french_before_a_vowel_and_reads_plain_in_english():
    catalogue = _catalogue()
    for code, (param, english) in ELIDED.items():
        assert WORDS[code] == english and param in _placeholders(english), code  # the same English: only French elides
        entry = catalogue.get(english, context="before a vowel")
        assert entry is not None and entry.string and not entry.fuzzy, code
        assert _placeholders(entry.string) == _placeholders(english), code
    zone = say("cli.zone.hand")
    assert [text(say("cli.zone_of", zone=zone, name=who), "fr") for who in ("Ana", "Ben", "Éloi")] == [
        "main d’Ana", "main de Ben", "main d’Éloi"]
    assert text(say("cli.zone_of", zone=zone, name="Ana"), "en") == "hand of Ana"


@pytest.mark.parametrize("n, french", [(1, "1 carte sur 1 ligne"), (2, "2 cartes sur 2 lignes")])
def test_the_command_lines_counts_take_the_plural_of_their_own_number(n, french):
    m = say("cli.deck_size", n=n, lines=say("cli.lines", n=n))
    assert text(m, "fr") == french
    assert text(say("cli.deck_size", n=2, lines=say("cli.lines", n=1)), "en") == "2 cards on 1 line"


def test_words_that_join_follow_the_language():
    assert text(either(["morph", "megamorph", "disguise"]), "fr") == "morph ou megamorph ou disguise"
    assert text(both(["Thrasios", "Tymna"]), "en") == "Thrasios and Tymna"
    assert text(say("list.and", a="a", b="b"), "de") == "a and b"  # a language the catalogue lacks: English


def test_a_list_of_reasons_worded_at_once_reads_as_each_worded_alone():
    """render_all words a message the reasons share (whose identity) once: each reason still reads
    as render words it, in either language, the shared part and a part of its own alike."""
    whose = say("commander.whose", commander="Krenko, Mob Boss")
    other = say("commander.whose", commander="Thrasios, Triton Hero and Tymna the Weaver")
    reasons = [say("identity.outside", name=card_name("Plains", "Plaine"), identity="{W}", whose=whose, within="{R}"),
               say("identity.outside", name=card_name("Island"), identity="{U}", whose=whose, within="{R}"),
               say("identity.outside", name="Swamp", identity="{B}", whose=other, within="{W}{U}"),
               say("identity.unknown", name="Mystery", whose=say("commander.the"), within=say("identity.colourless")),
               say("commander.the"), "a library's own text"]
    for lang in ("en", "fr"):
        t = translations(lang)
        worded = render_all(reasons, t)
        assert worded == [render(m, t) for m in reasons], lang
        assert len(set(worded)) == len(reasons), lang  # the shared part never stands in for another's
    assert render_all(reasons)[2] == ("Swamp's colour identity is {B}; "
                                      "Thrasios, Triton Hero and Tymna the Weaver's is {W}{U}")
    assert "Plaine" in render_all(reasons, translations("fr"))[0]


def test_an_unknown_code_is_said_as_its_code_never_a_crash():
    assert render(Message("no.such.code")) == "no.such.code"
