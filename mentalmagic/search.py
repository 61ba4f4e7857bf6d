"""The search language over candidates: a subset of Scryfall's syntax (docs/search.md), read by Lark.

A query narrows the list the rules produce (704.1, 704.2, 706, 903.5c): it is a predicate over
the names the index answers, never a source of names. ``parse`` reads the text once into a
``Search`` (remembered per text); ``Search.keep`` filters a candidate list, ``sorted_names`` orders
one. A query that can't be read raises ``QueryError`` with a message code saying which part (its
position and token): an edge answers 422 with it, never a 500.

French words are read where a French player types them (``t:créature``, ``kw:vol``, ``is:libre``,
``c:rouge``); rules text is the card data's English, searched as it is.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from threading import Lock
from typing import TYPE_CHECKING

from .cards import SPLIT_LAYOUTS, Nameable
from .errors import InvalidInput
from .filterwords import FRENCH_IS, FRENCH_KEYWORDS, FRENCH_SUBTYPES, FRENCH_TYPES
from .identity import COLOURS, Identity
from .messages import say
from .names import fold

if TYPE_CHECKING:  # Lark is imported with the first query: a look-up without one never loads it
    from lark import Lark, Token

MAX_LENGTH = 500  # what a search box holds; a longer text is refused before it is parsed

# LALR(1): implicit AND binds tighter than OR, as in Scryfall; "-" negates the term or group after it.
GRAMMAR = r"""
?start: or_expr
?or_expr: and_expr (_OR and_expr)*
?and_expr: unary (_AND? unary)*
?unary: "-" unary -> negated
      | atom
?atom: "(" or_expr ")"
     | FIELD OP value -> compared
     | "!" value -> exact
     | WORD -> word
     | STRING -> phrase
?value: VALUE | STRING

_OR.3: /or(?![^\s()])/i
_AND.3: /and(?![^\s()])/i
FIELD.2: /[a-zA-Z]+(?=:|!=|<=|>=|=|<|>)/
OP: ":" | "!=" | "<=" | ">=" | "=" | "<" | ">"
STRING: /"[^"]*"/ | /“[^”]*”/ | /«[^»]*»/
VALUE: /[^\s()"“”«»]+/
WORD: /[^\s()"“”«»!\-][^\s()"“”«»]*/
%ignore /\s+/
"""

# Each key a player may type, and the field it reads (Scryfall's spellings; docs/search.md).
KEYS: dict[str, str] = {
    "t": "type", "type": "type", "o": "oracle", "oracle": "oracle", "kw": "keyword", "keyword": "keyword",
    "c": "color", "color": "color", "colour": "color", "id": "identity", "identity": "identity", "ci": "identity",
    "mv": "mv", "cmc": "mv", "manavalue": "mv", "pow": "power", "power": "power", "tou": "toughness",
    "toughness": "toughness", "loy": "loyalty", "loyalty": "loyalty", "def": "defense", "defense": "defense",
    "is": "is", "not": "not", "name": "name", "n": "name",
}
PRIMARY_KEYS = ("t", "o", "kw", "c", "id", "mv", "pow", "tou", "loy", "def", "is", "not", "name")  # what an error lists
TEXT_FIELDS = frozenset({"type", "oracle", "keyword", "name", "is", "not"})
NUMBER_FIELDS = ("mv", "power", "toughness", "loyalty", "defense")
SORTS = ("name", "mv", "power", "toughness")

_PERMANENT_TYPES = frozenset({"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"})
_COLOUR_WORDS: dict[str, str] = {
    "white": "W", "blue": "U", "black": "B", "red": "R", "green": "G",
    "blanc": "W", "bleu": "U", "noir": "B", "rouge": "R", "vert": "G",
    "azorius": "WU", "dimir": "UB", "rakdos": "BR", "gruul": "RG", "selesnya": "GW",
    "orzhov": "WB", "izzet": "UR", "golgari": "BG", "boros": "RW", "simic": "GU",
    "colorless": "", "colourless": "", "incolore": "", "c": "",
}
_MULTI = frozenset({"m", "multicolor", "multicolour", "multicolore"})
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")


class QueryError(InvalidInput):
    """A query that can't be read: which part, as a message code with its parameters (422 ``q``)."""

    code = "invalid_query"

    def __init__(self, code: str, **params):
        super().__init__(code, fields={"q": [say(code, **params)]}, **params)


@dataclass(frozen=True)
class Context:
    """What the arbiter knows beyond the card: the game's taken names (folded, 704.2) and whether a
    card is watched on the Mental Magic list (706.4a)."""

    taken: frozenset[str] = frozenset()
    watched: Callable = lambda card: False  # noqa: E731


Test = Callable[[Nameable, Context], bool]


@dataclass(frozen=True, eq=False)
class Search:
    """A query read: ``test(n, ctx)`` says whether the name ``n`` fits; ``uses_taken`` whether the
    answer depends on the game's taken names (then it is never kept across games)."""

    text: str
    test: Test
    uses_taken: bool
    mask: Callable | None = None  # the whole list at once (_compile)

    def keep(self, names: Iterable[Nameable], ctx: Context) -> tuple[Nameable, ...]:
        """``names`` that fit, in their order (a ``Narrowed`` of them, where asked of the whole list)."""
        names = tuple(names)
        if self.mask is None or not names:
            test = self.test
            return tuple(n for n in names if test(n, ctx))
        every = _every(len(names))
        flags = self.mask(names, ctx, every).to_bytes(len(names), "little")
        return Narrowed(compress(names, flags), names, flags)


class Narrowed(tuple):
    """The names a search kept of the list ``within``, with which: ``flags``, a byte per name of
    ``within``, 1 where kept. Whatever is kept per name of ``within`` (an answer's encoded entries,
    web/encoding.py) is cut for these names by ``itertools.compress``, with no look-up per name."""

    within: tuple
    flags: bytes

    def __new__(cls, names: Iterable[Nameable], within: tuple, flags: bytes):
        self = super().__new__(cls, names)
        self.within, self.flags = within, flags
        return self


@lru_cache(maxsize=64)
def _every(length: int) -> int:
    """The mask of every name of a list of ``length`` (see _term_mask)."""
    return int.from_bytes(b"\x01" * length, "little")


# -- values of a face --------------------------------------------------------------------------
# Folded card texts a search compares, kept: ~35k cards have a few hundred type lines and keyword
# lists, and a name's French form is folded once (fold's accent path is the slow one).
_FOLDED: dict = {}


def folded(text: str) -> str:
    """``fold(text)``, kept (a type line, a French name: bounded by the pool)."""
    out = _FOLDED.get(text)
    if out is None:
        out = fold(text)
        if len(_FOLDED) < 200_000:
            _FOLDED[text] = out
    return out


def folded_keywords(keywords: tuple[str, ...]) -> frozenset[str]:
    """A face's keywords folded, kept per list (the pool shares each distinct list)."""
    out = _FOLDED.get(keywords)
    if out is None:
        out = frozenset(fold(k) for k in keywords)
        if len(_FOLDED) < 200_000:
            _FOLDED[keywords] = out
    return out


def _lower(text: str) -> str:
    """Rules text as a search reads it: case aside (the text is English; its dashes stay as printed)."""
    return text.casefold().replace("’", "'")


@lru_cache(maxsize=4096)  # a few hundred printed values in the whole pool
def stat_number(printed: str | None) -> float | None:
    """A printed power, toughness or loyalty as a number: '*' counts as 0, '1+*' as 1, '7-*' as 7,
    '∞' as infinity; None when there is none or it reads as no number ('?')."""
    if printed is None:
        return None
    text = printed.strip().replace("½", ".5")
    if "∞" in text:
        return math.inf
    m = _NUMBER.match(text)
    if m:
        return float(m.group(0))
    return 0.0 if "*" in text else None


def field_number(n: Nameable, name: str) -> float | None:
    face = n.face
    if name == "mv":
        return face.mana_value
    return stat_number(getattr(face, name))


def _is_hybrid(sym: str) -> bool:
    return len([p for p in sym.split("/") if p != "P"]) > 1


# Each ``is:`` word: a test of the name and the context (French words: filterwords.FRENCH_IS).
IS_TESTS: dict[str, Test] = {
    "taken": lambda n, ctx: n.key in ctx.taken,
    "free": lambda n, ctx: n.key not in ctx.taken,
    "watched": lambda n, ctx: ctx.watched(n.card),
    "split": lambda n, ctx: n.card.layout in SPLIT_LAYOUTS,
    "permanent": lambda n, ctx: not _PERMANENT_TYPES.isdisjoint(n.face.types),
    "spell": lambda n, ctx: "Land" not in n.face.types,
    "historic": lambda n, ctx: any(w in n.face.type_line for w in ("Legendary", "Artifact", "Saga")),
    "vanilla": lambda n, ctx: "Creature" in n.face.types and not n.face.text,
    "hybrid": lambda n, ctx: any(_is_hybrid(s) for s in n.cost.symbols),
    "phyrexian": lambda n, ctx: any("P" in s.split("/") for s in n.cost.symbols),
    "adventure": lambda n, ctx: n.card.layout == "adventure",
    "mdfc": lambda n, ctx: n.card.layout == "modal_dfc",
    "transform": lambda n, ctx: n.card.layout == "transform",
}
TAKEN_WORDS = frozenset({"taken", "free"})


# -- reading -----------------------------------------------------------------------------------
def _unquoted(token: str) -> str:
    return token[1:-1] if token[:1] in '"“«' and len(token) >= 2 else token


def _colours(value: str, at: int) -> Identity | str:
    """A colour value as a set of WUBRG letters, or "m" for multicolour."""
    word = fold(value)
    if word in _MULTI:
        return "m"
    if word in _COLOUR_WORDS:
        return frozenset(_COLOUR_WORDS[word])
    letters = word.upper()
    if letters and all(ch in COLOURS for ch in letters):
        return frozenset(letters)
    raise QueryError("query.bad_colors", value=value, at=at)


def _compare_sets(op: str, have: Identity, want: Identity) -> bool:
    if op == "=":
        return have == want
    if op == "!=":
        return have != want
    if op == ">=":
        return have >= want
    if op == ">":
        return have > want
    if op == "<=":
        return have <= want
    return have < want  # "<"


_NUMBER_OPS: dict[str, Callable[[float, float], bool]] = {
    "=": lambda a, b: a == b, ":": lambda a, b: a == b, "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _text_test(field: str, value: str, at: int) -> tuple[Test, bool]:
    """(the test, whether it reads the taken names) of a text key: t, o, kw, name, is, not."""
    word = fold(value)
    if field == "type":
        word = FRENCH_TYPES.get(word) or FRENCH_SUBTYPES.get(word) or word
        return _finding("type", word, lambda n, ctx: word in folded(n.face.type_line)), False
    if field == "oracle":
        text = _lower(" ".join(value.split()))
        if "~" in text:
            return (lambda n, ctx: text.replace("~", _lower(n.face.name)) in _lower(n.face.text)), False
        return _finding("oracle", text, lambda n, ctx: text in _lower(n.face.text)), False
    if field == "keyword":
        word = FRENCH_KEYWORDS.get(word, word)
        return (lambda n, ctx: word in folded_keywords(n.face.keywords)), False
    if field == "name":
        return _name_test(word), False
    key = FRENCH_IS.get(word, word)
    test = IS_TESTS.get(key)
    if test is None:
        raise QueryError("query.unknown_is", value=value, at=at, known=sorted(IS_TESTS))
    if field == "not":
        return (lambda n, ctx: not test(n, ctx)), key in TAKEN_WORDS
    return test, key in TAKEN_WORDS


def _name_test(word: str) -> Test:
    """A name word or phrase: in the English name or the French one, case and accents aside."""
    def test(n: Nameable, ctx: Context) -> bool:
        return word in n.key or (n.french_name is not None and word in folded(n.french_name))
    return _finding("name", word, test)


def _finding(kind: str, needle: str, test: Test) -> Test:
    """``test``, marked as finding ``needle`` in the ``kind`` texts of a name (_HAYSTACKS): a list's
    answer is then one search of its joined texts rather than a test per name."""
    test.needle = (kind, needle)  # type: ignore[attr-defined]
    return test


# The texts a term searches, one list's joined (by a character no needle holds) with where each
# name's starts: ``str.find`` runs over the whole list at C speed. Per (list, kind), bounded.
_TEXT_OF: dict[str, Callable[[Nameable], str]] = {
    "type": lambda n: folded(n.face.type_line),
    "oracle": lambda n: _lower(n.face.text),
    "name": lambda n: n.key + ("\x01" + folded(n.french_name) if n.french_name else ""),
}
_HAYSTACKS: dict = {}
_HAY_CHARS = [0]
MAX_HAY_CHARS = 4 << 20  # characters: a text with a dash is 2 bytes a character, so at most ~8 MB


def _haystack(names: tuple, kind: str) -> tuple[str, list[int]]:
    at = (id(names), kind)
    kept = _HAYSTACKS.get(at)
    if kept is not None and kept[0] is names:
        return kept[1], kept[2]
    text_of = _TEXT_OF[kind]
    texts = [text_of(n) for n in names]
    starts, pos = [], 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + 1
    joined = "\x00".join(texts)
    if _HAY_CHARS[0] + len(joined) > MAX_HAY_CHARS:
        _HAYSTACKS.clear()
        _HAY_CHARS[0] = 0
    _HAYSTACKS[at] = (names, joined, starts)
    _HAY_CHARS[0] += len(joined)
    return joined, starts


def _found(names: tuple, kind: str, needle: str) -> int:
    """The mask (see _term_mask) of the names whose ``kind`` text holds ``needle``."""
    joined, starts = _haystack(names, kind)
    flags = bytearray(len(names))
    at = joined.find(needle)
    while at >= 0:
        i = bisect_right(starts, at) - 1
        flags[i] = 1
        if i + 1 >= len(starts):
            break
        at = joined.find(needle, starts[i + 1])  # the next name's text on
    return int.from_bytes(flags, "little")


def _compared(field_token: Token, op: str, value_token: Token) -> tuple[Test, bool]:
    key, at = field_token.lower(), field_token.column
    field = KEYS.get(key)
    if field is None:
        raise QueryError("query.unknown_key", key=str(field_token), at=at, known=list(PRIMARY_KEYS))
    value = _unquoted(str(value_token))
    if field in TEXT_FIELDS:
        if op not in (":", "=", "!="):
            raise QueryError("query.bad_operator", key=str(field_token), op=op, at=at)
        test, uses = _text_test(field, value, value_token.column)
        if op == "!=":
            return (lambda n, ctx: not test(n, ctx)), uses
        return test, uses
    if field in ("color", "identity"):
        want = _colours(value, value_token.column)
        if want == "m":
            if op not in (":", "="):
                raise QueryError("query.bad_operator", key=str(field_token), op=op, at=at)
            if field == "color":
                return (lambda n, ctx: n.face.colors is not None and len(n.face.colors) > 1), False
            return (lambda n, ctx: n.identity is not None and len(n.identity) > 1), False
        if op == ":":  # Scryfall: c:rg holds red and green (at least); id:rg is within red and green
            op = ">=" if field == "color" and want else "=" if field == "color" else "<="
        if field == "color":
            return (lambda n, ctx: n.face.colors is not None and _compare_sets(op, n.face.colors, want)), False
        return (lambda n, ctx: n.identity is not None and _compare_sets(op, n.identity, want)), False
    compare = _NUMBER_OPS[op]
    other = KEYS.get(value.lower())
    if other in NUMBER_FIELDS:  # pow>tou: one field against another
        def against(n: Nameable, ctx: Context) -> bool:
            a, b = field_number(n, field), field_number(n, other)
            return a is not None and b is not None and compare(a, b)
        return against, False
    if value == "*" and field != "mv" and op in (":", "=", "!="):  # pow=*: a power printed with a star
        star = op != "!="
        return (lambda n, ctx: (getattr(n.face, field) or "").count("*") > 0 if star
                else getattr(n.face, field) is not None and "*" not in getattr(n.face, field)), False
    try:
        number = float(value)
    except ValueError:
        raise QueryError("query.not_a_number", key=str(field_token), value=value, at=value_token.column) from None
    if math.isnan(number):
        raise QueryError("query.not_a_number", key=str(field_token), value=value, at=value_token.column)

    def test(n: Nameable, ctx: Context) -> bool:
        have = field_number(n, field)
        return have is not None and compare(have, number)
    return test, False


# A term's answer over one candidate list, as an int whose bytes are 0 or 1 (bitwise AND, OR and XOR
# of two such ints are bytewise, so a whole search combines its terms' answers at C speed), kept per
# (term, list, taken names where it reads them): a player typing adds a letter to one term, and
# every other term's answer is already there.
_MASKS: dict = {}
_MASK_BYTES = [0]
MAX_MASK_BYTES = 8 << 20


def _term_mask(key: tuple, test: Test, uses: bool, names: tuple, ctx: Context) -> int:
    at = (key, id(names), ctx.taken if uses else None)
    kept = _MASKS.get(at)
    if kept is not None and kept[0] is names:
        return kept[1]
    needle = getattr(test, "needle", None)
    if needle is not None and needle[1] and "\x00" not in needle[1] and "\x01" not in needle[1]:
        mask = _found(names, *needle)
    else:
        mask = int.from_bytes(bytes([test(n, ctx) for n in names]), "little")
    if _MASK_BYTES[0] + len(names) > MAX_MASK_BYTES:  # bounded: start over, the live terms come back first
        _MASKS.clear()
        _MASK_BYTES[0] = 0
    _MASKS[at] = (names, mask)  # the list held, so that its id stays its own
    _MASK_BYTES[0] += len(names)
    return mask


def forget() -> None:
    """Forget every term's remembered answer and every joined text (the bench's figures with nothing
    remembered)."""
    _MASKS.clear()
    _MASK_BYTES[0] = 0
    _HAYSTACKS.clear()
    _HAY_CHARS[0] = 0


Mask = Callable[[tuple, Context, int], int]


def _compile(node) -> tuple[Test, bool, Mask]:
    """The parse tree into (test, uses_taken, mask): ``test`` asks of one name; ``mask(names, ctx,
    every)`` answers for a whole list at once (``every``: the mask of all its names), from each
    term's answer over that list (``_term_mask``). A tree walked by hand, its rules named in GRAMMAR."""
    kind, parts = node.data, node.children
    if kind in ("compared", "exact", "word", "phrase"):
        if kind == "compared":
            test, uses = _compared(parts[0], str(parts[1]), parts[2])
            key = (KEYS.get(parts[0].lower()), str(parts[1]), _unquoted(str(parts[2])))
        elif kind == "exact":
            word = fold(_unquoted(str(parts[0])))
            test, uses = (lambda n, ctx: n.key == word or (n.french_name is not None
                                                             and folded(n.french_name) == word)), False
            key = ("!", word)
        else:
            word = fold(_unquoted(str(parts[0])))
            test, uses, key = _name_test(word), False, ("name", word)
        return test, uses, lambda names, ctx, every: _term_mask(key, test, uses, names, ctx)
    inner = [_compile(p) for p in parts]
    tests = tuple(t for t, _, _ in inner)
    masks = tuple(m for _, _, m in inner)
    uses = any(u for _, u, _ in inner)
    if kind == "negated":
        test, mask = tests[0], masks[0]
        return (lambda n, ctx: not test(n, ctx)), uses, lambda names, ctx, every: every ^ mask(names, ctx, every)
    if kind == "and_expr":
        def both(names: tuple, ctx: Context, every: int) -> int:
            out = every
            for mask in masks:
                out &= mask(names, ctx, every)
                if not out:
                    break
            return out
        return (lambda n, ctx: all(t(n, ctx) for t in tests)), uses, both

    def either(names: tuple, ctx: Context, every: int) -> int:  # or_expr
        out = 0
        for mask in masks:
            out |= mask(names, ctx, every)
        return out
    return (lambda n, ctx: any(t(n, ctx) for t in tests)), uses, either


_PARSER: list[Lark] = []
_PARSER_LOCK = Lock()


def _parser() -> Lark:
    """The LALR parser, built on the first query (a look-up without one never pays for it)."""
    if not _PARSER:
        from lark import Lark

        with _PARSER_LOCK:
            if not _PARSER:
                _PARSER.append(Lark(GRAMMAR, parser="lalr", maybe_placeholders=False))
    return _PARSER[0]


def _everything(n: Nameable, ctx: Context) -> bool:
    return True


@lru_cache(maxsize=4096)  # a search box sends the same few texts again and again
def parse(text: str) -> Search:
    """``text`` read into a Search; QueryError (with the part that can't be read) otherwise.
    An empty text keeps every name."""
    if len(text) > MAX_LENGTH:
        raise QueryError("query.too_long", most=MAX_LENGTH)
    if not text.strip():
        return Search(text, _everything, False)
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    try:
        tree = _parser().parse(text)
    except UnexpectedEOF:
        raise QueryError("query.unfinished", at=len(text) + 1) from None
    except UnexpectedToken as e:
        if e.token.type == "$END":
            raise QueryError("query.unfinished", at=len(text) + 1) from None
        raise QueryError("query.unexpected", token=str(e.token), at=e.column) from None
    except UnexpectedCharacters as e:
        raise QueryError("query.unexpected", token=text[e.pos_in_stream], at=e.column) from None
    except UnexpectedInput as e:  # any other refusal of the grammar
        raise QueryError("query.unexpected", token=text, at=getattr(e, "column", 1)) from None
    test, uses, mask = _compile(tree)
    return Search(text, test, uses, mask)


# -- order ---------------------------------------------------------------------------------------
def sorted_names(names: tuple[Nameable, ...], sort: str) -> tuple[Nameable, ...]:
    """``names`` (in name order) ordered by ``sort``: name, mana value, power or toughness, then by
    name; a name without the value (a sorcery's power) after the others."""
    if sort == "name" or not names:
        return names
    field = "mv" if sort == "mv" else sort

    def key(pair):
        value = field_number(pair[1], field)
        return (value is None, value if value is not None else 0.0, pair[0])

    return tuple(n for _, n in sorted(enumerate(names), key=key))
