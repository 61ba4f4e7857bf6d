"""The judge's text commands: one line (`ana draw 2`, `ben cast 3 as Shock`, `undo`) into a typed command.

A line is ``PLAYER VERB ARGUMENTS`` (or ``undo``): the player by name or id, any case; a card by
its handle (the number ``game show`` prints, ``#3`` too) or its id. The grammar knows the game's
players and card handles, never the rules: what a line asks is decided like any other command
(actions.py), so the CLI's ``game do`` and the console page refuse exactly what the API refuses.
A line that can't be read raises ``GrammarError``, never another exception.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from .commands import (
    Command,
    CommanderDamage,
    Draw,
    EndGame,
    EndLook,
    EndReveal,
    LeaveGame,
    Look,
    MayLeave,
    Move,
    Name,
    Reveal,
    Shuffle,
    Turn,
    TurnFaceUp,
)
from .errors import InvalidInput
from .game import GameSetup
from .messages import Message
from .names import fold
from .zones import BATTLEFIELD, EXILE, GRAVEYARD, HAND, LIBRARY, MOVE_ZONES, STACK, VIAS

MAX_LINE = 1000
MAX_COUNT = 500  # as the API's schemas: draw, reveal or look at most 500 cards at once
FACE_DOWN_WORDS = frozenset({"down", "face-down", "facedown"})
FACE_UP_WORDS = frozenset({"face-up", "faceup"})


class GrammarError(InvalidInput):
    """A line the grammar can't read: says what it expected (a 422 on the API, exit status 2 on the CLI)."""

    code = "grammar"

    def __init__(self, said: str | Message, /, **params):
        said = said if isinstance(said, Message) else Message(said, params)
        super().__init__(said, fields={"line": [said]})


@dataclass(frozen=True)
class Undo:
    """``undo``: take back the last event. Not an action but the judge's own use case (services.undo)."""

    type: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Table:
    """What a line may refer to: players by folded name or id, cards by handle or id."""

    players: Mapping[str, str]  # fold(name) or fold(id) -> player id
    cards: Mapping[str, str]  # handle or lower-cased card id -> card id
    names: tuple[str, ...] = ()  # the players' names as written, for suggestions

    @classmethod
    def of(cls, setup: GameSetup) -> Table:
        players = {fold(p.id): p.id for p in setup.players}
        players.update({fold(p.name): p.id for p in setup.players})  # a name wins over another's id
        cards = {cid.lower(): cid for cid, _ in setup.library}
        cards.update({cid.lower(): cid for cid, _, _ in setup.commanders})
        cards.update(card_handles(setup))
        return cls(players, cards, tuple(p.name for p in setup.players))


def card_handles(setup: GameSetup) -> dict[str, str]:
    """Short handles of a game's cards: '1'... in the order of the library at the start.

    Fixed for the whole game, and saying nothing of a card a shuffled library didn't already say.
    A commander game's commanders (D14) follow the library's last number."""
    handles = {str(i): cid for i, (cid, _) in enumerate(setup.library, 1)}
    handles.update({str(len(setup.library) + i): cid for i, (cid, _, _) in enumerate(setup.commanders, 1)})
    return handles


def handle_of(setup: GameSetup) -> dict[str, str]:
    """Card id -> its handle."""
    return {cid: h for h, cid in card_handles(setup).items()}


# -- reading a line ------------------------------------------------------------------------------
_TOKEN = re.compile(r'"([^"]*)"|(\S+)')


def tokens(line: str) -> list[str]:
    """Words; "double quotes" group words (a player called "Ana Maria"). Apostrophes are letters."""
    if not isinstance(line, str):
        raise GrammarError("grammar.not_text")
    if len(line) > MAX_LINE:
        raise GrammarError("grammar.too_long", n=MAX_LINE)
    if line.count('"') % 2:
        raise GrammarError("grammar.quote")
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _TOKEN.finditer(line)]


def parse(line: str, table: Table) -> Command | Undo:
    """The command ``line`` asks for, for the player it names; GrammarError when it can't be read.
    French verbs and words read as their English ones (``ana pioche 2``, ``ben lance 3 comme Foudre``)."""
    words = tokens(line)
    if not words:
        raise GrammarError("grammar.empty")
    if len(words) == 1 and english(words[0]) == "undo":
        return Undo()
    if len(words) == 1 and english(words[0]) == "end":  # the judge's end of the game (issue 9)
        return EndGame()
    player, rest = _player(words, table)
    if not rest:
        raise GrammarError("grammar.no_verb", player=words[0], verbs=list(VERBS))
    verb = english(rest[0], FRENCH_VERBS)
    if verb not in _VERBS:
        raise GrammarError("grammar.unknown_verb", verb=rest[0], verbs=list(VERBS))
    rest, names = _naming(rest, table)
    command = _VERBS[verb](_Args(_english_words(verb, rest[1:]), table), player)
    if names:
        if not isinstance(command, MayLeave):
            raise GrammarError("grammar.naming_here")
        command = replace(command, names=names)
    return command


def _naming(words: list[str], table: Table) -> tuple[list[str], tuple[tuple[str, str], ...]]:
    """The line's words before its `naming C [as] NAME…` clauses, and those (card, name) pairs: the
    face-down cards of a player who leaves in this action (leaving, or losing: D8, 903.10a), named as
    they go (D12); ``names`` of the action. Each clause runs to the next `naming` or the line's end."""
    at = [i for i, w in enumerate(words) if i >= 1 and english(w, FRENCH_WORDS) == "naming"]
    if not at:
        return words, ()
    names: dict[str, str] = {}
    for start, end in zip(at, [*at[1:], len(words)], strict=True):
        clause = _Args(words[start + 1:end], table)
        card = clause.card()
        if clause.words and english(clause.words[0], FRENCH_WORDS) == "as":
            clause.words.pop(0)
        if card in names:
            raise GrammarError("grammar.card_twice")
        names[card] = clause.rest_as_name("grammar.expected_name")
    return words[:at[0]], tuple(sorted(names.items()))


# -- French: each French verb or word of a line stands for its English one -------------------------
# Keys are folded (accents and case dropped): `pioche`, `Piocher`, `défausse`, `defausse` all read.
FRENCH_VERBS: dict[str, str] = {
    "pioche": "draw", "piocher": "draw", "lance": "cast", "lancer": "cast", "joue": "play", "jouer": "play",
    "deplace": "move", "deplacer": "move", "defausse": "discard", "defausser": "discard", "exiler": "exile",
    "renvoie": "bounce", "renvoyer": "bounce", "nomme": "name", "nommer": "name", "choisit": "choose",
    "choisir": "choose", "retourne": "up", "retourner": "up", "revele": "reveal", "reveler": "reveal",
    "regarde": "look", "regarder": "look", "cache": "unreveal", "fin-revelation": "end-reveal",
    "fin-regard": "unlook", "exile": "exile", "quitte": "leave", "quitter": "leave", "melange": "shuffle",
    "melanger": "shuffle", "blesse": "damaged", "annuler": "undo", "annule": "undo", "fin": "end", "terminer": "end",
    "tour": "turn",
}
FRENCH_WORDS: dict[str, str] = {
    "comme": "as", "face-cachee": "face-down", "cachee": "face-down", "face-visible": "face-up",
    "visible": "face-up", "dessus": "top", "dessous": "bottom", "vers": "to", "main": "hand",
    "champ": "battlefield", "champ-de-bataille": "battlefield", "pile": "stack", "cimetiere": "graveyard",
    "exil": "exile", "bibliotheque": "library", "commandement": "command", "continu": "continuous",
    "rendant": "returning", "a": "at", "par": "by", "imprimee": "printed", "nommant": "naming",
}
# What a French page offers for each English verb or word (accents as written).
VERB_SHOWN: dict[str, str] = {
    "draw": "pioche", "cast": "lance", "play": "joue", "pentaland": "pentaland", "move": "déplace",
    "discard": "défausse", "exile": "exile", "bounce": "renvoie", "name": "nomme", "up": "retourne",
    "reveal": "révèle", "look": "regarde", "unreveal": "cache", "unlook": "fin-regard", "leave": "quitte",
    "choose": "choisit", "shuffle": "mélange", "damaged": "blessé", "undo": "annuler", "end": "fin",
    "turn": "tour",
}
WORD_SHOWN: dict[str, str] = {
    "as": "comme", "via": "via", "face-down": "face-cachée", "face-up": "face-visible", "top": "dessus",
    "bottom": "dessous", "to": "vers", "hand": "main", "battlefield": "champ", "stack": "pile",
    "graveyard": "cimetière", "exile": "exil", "library": "bibliothèque", "command": "commandement",
    "continuous": "continu", "returning": "rendant", "at": "à", "by": "par", "printed": "imprimée",
    "naming": "nommant",
}
# The ways a card goes face down, as the catalogue says them in French (via.*): `ana joue 4 via mue`.
VIA_SHOWN: dict[str, str] = {
    "morph": "mue", "megamorph": "mégamue", "disguise": "déguisement", "manifest": "manifestation",
    "cloak": "camouflage", "effect": "effet",
}
FRENCH_VIAS: dict[str, str] = {fold(fr): en for en, fr in VIA_SHOWN.items()}
_NAME_VERBS = frozenset({"name", "choose"})  # the words after the card are a name, as typed


def english(word: str, french: Mapping[str, str] = FRENCH_VERBS) -> str:
    """The English word ``word`` stands for (itself, casefolded, when it is no French one)."""
    return french.get(fold(word), word.casefold())


def _english_words(verb: str, words: list[str]) -> list[str]:
    """The words after the verb with the grammar's French words in English; a card name (after
    `as`, `printed`, or a name verb's card) is left as typed, but for a last `via V`."""
    out: list[str] = []
    for i, word in enumerate(words):
        low = english(word, FRENCH_WORDS)
        if low in ("as", "printed"):
            return [*out, low, *words[i + 1:]]
        if (verb in _NAME_VERBS and i >= 1) or (verb == "draw" and not word.isdigit()):
            return out + words[i:]
        out.append(low if fold(word) in FRENCH_WORDS else word)
    return out


def player_ref(text: str, table: Table) -> str:
    """The player ``text`` names (a name, the start of one only they have, or an id; any case)."""
    key = fold(text)
    pid = table.players.get(key)
    if pid is not None:
        return pid
    starting = {pid for name, pid in table.players.items() if key and name.startswith(key)}
    if len(starting) == 1:  # `cara` for Cara Mia, `an` for Ana: a start no other player shares
        return starting.pop()
    players = sorted(set(table.players))
    raise GrammarError("grammar.player_ambiguous" if starting else "grammar.no_player", text=text, players=players)


def card_ref(text: str, table: Table) -> str:
    """The card ``text`` names: its handle (``3``, ``#3``) or its id."""
    return _Args([], table).card_ref(text)


def _player(words: list[str], table: Table) -> tuple[str, list[str]]:
    """The longest run of leading words that names a player, and the words after it."""
    for k in range(len(words) - 1 if len(words) > 1 else 1, 1, -1):
        pid = table.players.get(fold(" ".join(words[:k])))
        if pid is not None:
            return pid, words[k:]
    try:
        return player_ref(words[0], table), words[1:]
    except GrammarError as e:
        raise GrammarError("grammar.starts_with_player", why=e.said) from None


class _Args:
    """The words after the verb, read from the left."""

    def __init__(self, words: list[str], table: Table):
        self.words, self.table = list(words), table

    def card(self, what: str = "grammar.expected_card") -> str:
        if not self.words:
            raise GrammarError(what)
        return self.card_ref(self.words.pop(0))

    def card_ref(self, word: str) -> str:
        ref = word.removeprefix("#").lower()
        cid = self.table.cards.get(ref)
        if cid is None:
            raise GrammarError("grammar.no_card", card=word)
        return cid

    def cards(self) -> tuple[str, ...]:
        """One card or more; each once."""
        if not self.words:
            raise GrammarError("grammar.expected_cards")
        ids = tuple(self.card_ref(w) for w in self.words)
        self.words = []
        if len(set(ids)) != len(ids):
            raise GrammarError("grammar.card_twice")
        return ids

    def count(self, word: str) -> int:
        if not word.isascii() or not word.isdigit() or not 1 <= int(word) <= MAX_COUNT:
            raise GrammarError("grammar.count", n=MAX_COUNT, word=word)
        return int(word)

    def take(self, *choices: str) -> str | None:
        """The next word if it is one of ``choices`` (any case), consumed."""
        if self.words and self.words[0].casefold() in choices:
            return self.words.pop(0).casefold()
        return None

    def options(self, *, allow_name: bool = True, allow_down: bool = True) -> dict:
        """Trailing `face-down`, `top`/`bottom`, `via VIA` and `as NAME…` (the name runs to the end
        of the line, but for a last `via VIA`)."""
        out: dict = {}
        while self.words:
            word = self.words.pop(0)
            low = word.casefold()
            if low in FACE_DOWN_WORDS and allow_down:
                out["face_down"] = True
            elif low in FACE_UP_WORDS and allow_down:
                out["face_down"] = False
            elif low in ("top", "bottom") and "position" not in out:
                out["position"] = low
            elif low == "via":
                out["via"] = self._via()
            elif low == "as" and allow_name:
                name_words = self.words
                self.words = []
                if len(name_words) >= 2 and name_words[-2].casefold() == "via":
                    out["via"] = self._via_word(name_words[-1])
                    name_words = name_words[:-2]
                name = " ".join(name_words).strip()
                if not name:
                    raise GrammarError("grammar.name_after_as")
                out["name"] = name
            else:
                raise GrammarError("grammar.unexpected_name" if allow_name else "grammar.unexpected", word=word)
        return out

    def _via(self) -> str:
        if not self.words:
            raise GrammarError("grammar.via_expected", vias=list(VIAS))
        return self._via_word(self.words.pop(0))

    @staticmethod
    def _via_word(word: str) -> str:
        via = FRENCH_VIAS.get(fold(word), word.casefold())
        if via not in VIAS:
            raise GrammarError("grammar.via_unknown", word=word, vias=list(VIAS))
        return via

    def rest_as_name(self, what: str) -> str:
        """The rest of the line as a name; ``what``: the message code when there is none."""
        name = " ".join(self.words).strip()
        self.words = []
        if not name:
            raise GrammarError(what)
        return name

    def top_or_cards(self) -> dict:
        if self.take("top") is not None:
            if len(self.words) != 1:
                raise GrammarError("grammar.top_n")
            return {"count": self.count(self.words.pop(0))}
        return {"cards": self.cards()}


# -- the verbs -------------------------------------------------------------------------------------
def _draw(a: _Args, pid: str) -> Command:
    if not a.words:
        return Draw(player=pid)
    if len(a.words) == 1 and a.words[0].isdigit():
        return Draw(player=pid, count=a.count(a.words.pop(0)))
    a.take("printed")
    return Draw(player=pid, printed=a.rest_as_name("grammar.expected_printed"))


def _to(zone: str, **fixed):
    def verb(a: _Args, pid: str) -> Command:
        card = a.card()
        opts = a.options()
        if "position" in opts and zone != LIBRARY:
            raise GrammarError("grammar.top_bottom")
        if "via" in opts and zone in (STACK, BATTLEFIELD) and "face_down" not in opts:
            opts["face_down"] = True  # `ben cast 3 via morph`: a morph is cast face down
        return Move(player=pid, card=card, to=zone, **{**opts, **fixed})
    return verb


def _move(a: _Args, pid: str) -> Command:
    card = a.card()
    a.take("to")
    if not a.words or a.words[0].casefold() not in MOVE_ZONES:
        raise GrammarError("grammar.where_to", zones=list(MOVE_ZONES))
    zone = a.words.pop(0).casefold()
    return _to(zone)(_Args([card, *a.words], a.table), pid)


def _pentaland(a: _Args, pid: str) -> Command:
    card = a.card()
    a.options(allow_name=False, allow_down=False)  # anything more is an error
    return Move(player=pid, card=card, to=BATTLEFIELD, pentaland=True)


def _name(a: _Args, pid: str) -> Command:
    card = a.card()
    a.take("as")
    return Name(player=pid, card=card, name=a.rest_as_name("grammar.expected_name"))


def _choose(a: _Args, pid: str) -> Command:
    """705.5, D11: the player an effect has choose a card names it."""
    card = a.card()
    a.take("as")
    return Name(player=pid, card=card, name=a.rest_as_name("grammar.expected_name"), choice=True)


def _up(a: _Args, pid: str) -> Command:
    card = a.card()
    opts = a.options(allow_down=False)
    if "position" in opts:
        raise GrammarError("grammar.top_bottom")
    return TurnFaceUp(player=pid, card=card, **opts)


def _reveal(a: _Args, pid: str) -> Command:
    continuous = False
    if a.words and a.words[-1].casefold() == "continuous":
        a.words.pop()
        continuous = True
    return Reveal(player=pid, continuous=continuous, **a.top_or_cards())


def _look(a: _Args, pid: str) -> Command:
    return Look(player=pid, **a.top_or_cards())


def _end_reveal(a: _Args, pid: str) -> Command:
    return EndReveal(player=pid, cards=a.cards())


def _end_look(a: _Args, pid: str) -> Command:
    return EndLook(player=pid, cards=a.cards())


def _leave(a: _Args, pid: str) -> Command:
    if a.take("returning", "returned") is not None:  # D9: cards they control only through an effect
        return LeaveGame(player=pid, returned=a.cards())
    if a.words:
        raise GrammarError("grammar.leave_extra", word=a.words[0])
    return LeaveGame(player=pid)


def _shuffle(a: _Args, pid: str) -> Command:
    """701.1b: a cut, at the point seen at the table (`at N`), else at one the service draws."""
    if a.take("at") is not None:
        if len(a.words) != 1 or not a.words[0].isascii() or not a.words[0].isdigit() or int(a.words[0]) < 1:
            raise GrammarError("grammar.at_n")
        return Shuffle(player=pid, at=int(a.words.pop()))
    if a.words:
        raise GrammarError("grammar.shuffle_extra", word=a.words[0])
    return Shuffle(player=pid)


def _damaged(a: _Args, pid: str) -> Command:
    """903.10a: P was dealt N combat damage by commander C."""
    if len(a.words) != 3 or a.words[1].casefold() != "by" or not a.words[0].isascii() \
            or not a.words[0].isdigit() or not 1 <= int(a.words[0]) <= 1000:
        raise GrammarError("grammar.damaged")
    amount = int(a.words.pop(0))
    a.words.pop(0)
    return CommanderDamage(player=pid, commander=a.card("grammar.expected_commander"), amount=amount)


def _turn(a: _Args, pid: str) -> Command:
    """P's turn begins: the next one, or turn N (issue 32; Xom 4 and 4a read it)."""
    if not a.words:
        return Turn(player=pid)
    if len(a.words) != 1 or not a.words[0].isascii() or not a.words[0].isdigit() \
            or not 1 <= int(a.words[0]) <= 100_000:
        raise GrammarError("grammar.turn_n")
    return Turn(player=pid, number=int(a.words.pop()))


_VERBS = {
    "draw": _draw, "cast": _to(STACK), "play": _to(BATTLEFIELD), "pentaland": _pentaland, "move": _move,
    "discard": _to(GRAVEYARD), "exile": _to(EXILE), "bounce": _to(HAND), "name": _name,
    "up": _up, "face-up": _up, "reveal": _reveal, "look": _look, "unreveal": _end_reveal,
    "end-reveal": _end_reveal, "unlook": _end_look, "end-look": _end_look, "leave": _leave, "choose": _choose,
    "shuffle": _shuffle, "damaged": _damaged, "turn": _turn,
}

# The grammar as the judge reads it (the CLI's `game do --help`, the console page): usage, example, meaning.
HELP: tuple[tuple[str, str, str], ...] = (
    ("P draw [N]", "ana draw 2", "P draws N cards (1 if not said) from the top of the library (702.2)"),
    ("P draw NAME", "ana draw Shock", "the judge records which printed card P drew at the table"),
    ("P cast C [as NAME] [face-down] [via V]", "ben cast 3 as Shock", "C onto the stack, named (705.1)"),
    ("P play C [as NAME] [face-down] [via V]", "ana play 4 as Forest", "C onto the battlefield"),
    ("P pentaland C", "cara pentaland 5", "C played face down as a Pentaland (703)"),
    ("P move C [to] ZONE [top|bottom] [face-down] [as NAME] [via V]", "ana move 4 to library bottom",
     "any move; ZONE: " + ", ".join(MOVE_ZONES)),
    ("P discard|exile|bounce C [as NAME]", "ben discard 3 as Shock", "C to a graveyard, exile, or a hand"),
    ("P name C [as] NAME", "ben name 3 Shock", "name C (704.1)"),
    ("P choose C [as] NAME", "ben choose 3 as Shock", "P names C an effect has them choose (705.5, D11)"),
    ("P up C [as NAME] [via V]", "ana up 5 as Shock via morph", "turn face-down C face up (705.4)"),
    ("P reveal C… | top N [continuous]", "ana reveal 2", "P reveals cards (702.2b)"),
    ("P look C… | top N", "ben look top 3", "P looks at cards (702.2c)"),
    ("P unreveal C…", "ana unreveal 2", "the reveal ends (702.2b)"),
    ("P unlook C…", "ben unlook 3", "the look ends (702.2c)"),
    ("P leave [returning C…]", "ana leave returning 6", "P leaves the game; C… go back to their owners (D9)"),
    ("… naming C [as] NAME", "ana leave naming 5 as Goblin Taskmaster",
     "after leave, up, a move or damaged: a face-down card of the player who leaves or loses, named as it goes (D12)"),
    ("P shuffle [at N]", "ana shuffle at 12", "the library is cut instead, N cards from the top or at random (701.1b)"),
    ("P damaged N by C", "ben damaged 7 by 10", "commander C dealt P N combat damage; 21 from one loses (903.10a)"),
    ("P turn [N]", "ana turn", "P's turn begins, the next or turn N: Xom's once-a-turn Utopia reads it (4, 4a)"),
    ("undo", "undo", "take back the last event"),
    ("end", "end", "the judge ends the game: finished, every action refused until undone (issue 9)"),
)
VERBS: tuple[str, ...] = tuple(_VERBS)
# The action kinds no line of the grammar makes: a search is refused whatever it says (701.1a);
# the API takes it only so that a bot learns why.
NOT_IN_GRAMMAR = frozenset({"search"})


def help_text(french: Mapping[str, str] | None = None) -> str:
    """The grammar as text, one usage a line with its example (`game do --help`, `help`). In French
    (``french``: the edge's words for the slots, P and NAME), with the verbs and words a French
    page offers, which the grammar reads (VERB_SHOWN, WORD_SHOWN)."""
    rows = [(usage, example) for usage, example, _ in HELP]
    if french is not None:
        rows = [(_in_french(usage, french), _in_french(example, french)) for usage, example in rows]
    width = max(len(usage) for usage, _ in rows)
    return "\n".join(f"{usage:<{width}}  {example}" for usage, example in rows)


def _in_french(line: str, slots: Mapping[str, str]) -> str:
    """A usage or an example of HELP with its French verb (the first word that is one, with its
    alternatives: discard|exile|bounce) and words; a slot as ``slots`` says it; a name as it is."""
    out, verb_seen = [], False
    for token in line.split(" "):
        words = WORD_SHOWN
        if not verb_seen and any(w in VERB_SHOWN for w in re.findall(r"[a-z][\w-]*", token)):
            words, verb_seen = VERB_SHOWN, True
        out.append(re.sub(r"[A-Za-z][\w-]*", lambda m, words=words: slots.get(m[0], words.get(m[0], m[0])), token))
    return " ".join(out)


# -- what may come next (completion) -------------------------------------------------------------
@dataclass(frozen=True)
class Suggestion:
    """What may be typed where a line ends: the kind of word, what is typed of it so far, and the
    choices the grammar knows. For ``card`` (a handle) and ``name`` (a card name: ``prefix`` is the
    whole name typed so far, spaces included) the caller knows the choices: the game's zones, the pool."""

    kind: str  # player, verb, card, zone, word, via, name, count, or "" (nothing more)
    prefix: str
    words: tuple[str, ...] = ()


_CARD_VERBS = frozenset({"cast", "play", "pentaland", "move", "discard", "exile", "bounce", "name", "choose", "up",
                         "face-up"})
_MOVE_WORDS = ("as", "via", "face-down")


def suggest(line: str, table: Table, lang: str = "en") -> Suggestion:
    """What may come next at the end of ``line``, its words in ``lang`` (en, fr); never raises on
    what a judge may type. French words typed so far read as their English ones."""
    s = _suggest(line, table)
    if lang != "fr" or s.kind not in ("player", "verb", "zone", "word", "via"):
        return s
    every = _suggest(line[:len(line) - len(s.prefix)], table).words if s.prefix else s.words
    shown = VERB_SHOWN if s.kind == "verb" else VIA_SHOWN if s.kind == "via" else WORD_SHOWN
    if s.kind == "player":
        shown = {**{n: n for n in every}, "undo": VERB_SHOWN["undo"]}
    key = fold(s.prefix)
    french = [shown[w] for w in every if w in shown and fold(shown[w]).startswith(key)]
    # the French first; an English word typed is still completed in English (`ana dr` offers draw)
    return Suggestion(s.kind, s.prefix, tuple(dict.fromkeys([*french, *(w for w in s.words if s.prefix)])))


def _suggest(line: str, table: Table) -> Suggestion:
    try:
        words = tokens(line)
    except GrammarError:
        return Suggestion("", "")
    typing = not line[-1:].isspace() and bool(words)
    done, prefix = (words[:-1], words[-1]) if typing else (words, "")
    if not done:
        return _starting("player", prefix, (*table.names, "undo"))
    try:
        player_ref(done[0], table)
    except GrammarError:
        return Suggestion("", prefix)
    if len(done) == 1:
        return _starting("verb", prefix, VERBS)
    verb = english(done[1])
    args = [english(w, FRENCH_WORDS) for w in _english_words(verb, done[2:])]
    if args and args[-1] == "via":
        return _starting("via", prefix, VIAS)
    if "naming" in args:  # `… naming C [as] NAME`: a card, then its name
        after = done[2 + len(args) - args[::-1].index("naming"):]
        if not after:
            return Suggestion("card", prefix)
        name = after[2:] if len(after) > 1 and english(after[1], FRENCH_WORDS) == "as" else after[1:]
        return Suggestion("name", " ".join([*name, prefix]).strip())
    if "as" in args and verb != "pentaland":  # the name runs to the end of the line
        return Suggestion("name", " ".join([*done[2 + args.index("as") + 1:], prefix]).strip())
    if verb in _CARD_VERBS and not args:
        return Suggestion("card", prefix)
    if verb in ("name", "choose"):
        return Suggestion("name", " ".join([*done[3:], prefix]).strip())
    if verb == "leave":
        return Suggestion("card", prefix) if args else _starting("word", prefix, ("returning", "naming"))
    if verb == "shuffle":
        return Suggestion("count", prefix) if args else _starting("word", prefix, ("at",))
    if verb == "move":
        if len(args) == 1 or (len(args) == 2 and args[1] == "to"):
            return _starting("zone", prefix, ("to", *MOVE_ZONES) if len(args) == 1 else MOVE_ZONES)
        return _starting("word", prefix, (*_MOVE_WORDS, "top", "bottom"))
    if verb in ("cast", "play", "discard", "exile", "bounce"):
        return _starting("word", prefix, _MOVE_WORDS)
    if verb in ("up", "face-up"):
        return _starting("word", prefix, ("as", "via"))
    if verb == "draw":
        return Suggestion("count", prefix) if not args else Suggestion("", prefix)
    if verb in ("reveal", "look"):
        if args[-1:] == ["top"]:
            return Suggestion("count", prefix)
        if not args:
            return _starting("card", prefix, ("top",))
        return _starting("word" if args[0] == "top" else "card", prefix, ("continuous",) if verb == "reveal" else ())
    if verb in ("unreveal", "end-reveal", "unlook", "end-look"):
        return Suggestion("card", prefix)
    return Suggestion("", prefix)


def _starting(kind: str, prefix: str, choices: Iterable[str]) -> Suggestion:
    key = fold(prefix)
    return Suggestion(kind, prefix, tuple(c for c in choices if fold(c).startswith(key)))
