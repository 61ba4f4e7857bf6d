"""Mana costs: parsing, canonical form, and the instantiations of decision D1.

A cost is a multiset of symbols. Generic symbols are summed into one number;
every other symbol keeps its own identity. "No mana cost" (a land, Ancestral
Vision) is the cost with no symbol at all and is distinct from ``{0}`` (D2).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import combinations_with_replacement
from math import comb

from .messages import Message, say

COLOURS = "WUBRG"
_COLOUR_SET = frozenset(COLOURS)  # membership by symbol, never by substring ("WU" in "WUBRG")
_DIGITS = re.compile(r"[0-9]+")
# Two-colour hybrids in the order Magic prints them (allied pairs, then enemy).
_PAIR_ORDER = ["W/U", "U/B", "B/R", "R/G", "G/W", "W/B", "U/R", "B/G", "R/W", "G/U"]
_PLAIN_OTHERS = ["X", "Y", "Z", "C", "S", "D", "L", "½", "∞"]
MAX_SYMBOLS = 40  # no printed card comes near (Progenitus has 10)
# The readings of a cost grow fast with its hybrid symbols (40 hybrids: over a million).
# Printed cards stay far below (Reaper King, Ulalek: 32); this bounds the work a query can ask for.
MAX_READINGS = 4096
MAX_GENERIC_DIGITS = 7
_HALF = {f"H{c}" for c in COLOURS} | {"HC"}


class ManaCostError(ValueError):
    """A mana cost that can't be read; ``said`` quotes the input and says why (messages.py)."""

    def __init__(self, text: str, detail: Message | None = None):
        self.text, self.detail = text, detail
        shown = text if len(text) <= 300 else text[:300] + "…"  # quote it, not a megabyte of it
        self.said = say("cost.invalid.why", text=shown, why=detail) if detail else say("cost.invalid", text=shown)
        super().__init__(str(self.said))


def _canonical_symbol(raw: str) -> str:
    """Normalise the inside of one brace pair, e.g. 'u/w' -> 'W/U'; raise KeyError if unknown."""
    s = raw.strip().upper()
    if _DIGITS.fullmatch(s):
        if len(s.lstrip("0")) > MAX_GENERIC_DIGITS:
            raise KeyError(raw)  # Gleemax's {1000000} is the largest printed number
        return str(int(s))
    if s in _COLOUR_SET or s in _PLAIN_OTHERS or s in _HALF:
        return s
    parts = s.split("/")
    if len(parts) == 2:
        a, b = parts
        if b == "P" and (a in _COLOUR_SET or a == "C"):
            return f"{a}/P"
        if a == "P" and (b in _COLOUR_SET or b == "C"):
            return f"{b}/P"
        if a == "2" and b in _COLOUR_SET:
            return f"2/{b}"
        if b == "2" and a in _COLOUR_SET:
            return f"2/{a}"
        if a == "C" and b in _COLOUR_SET:
            return f"C/{b}"
        if b == "C" and a in _COLOUR_SET:
            return f"C/{a}"
        if a in _COLOUR_SET and b in _COLOUR_SET and a != b:
            return f"{a}/{b}" if f"{a}/{b}" in _PAIR_ORDER else f"{b}/{a}"
    if len(parts) == 3 and parts[2] == "P" and all(p in _COLOUR_SET for p in parts[:2]):
        pair = f"{parts[0]}/{parts[1]}"
        if parts[0] != parts[1]:
            pair = pair if pair in _PAIR_ORDER else f"{parts[1]}/{parts[0]}"
            return f"{pair}/P"
    raise KeyError(raw)


def _sort_key(sym: str) -> tuple:
    if sym in _COLOUR_SET:
        return (1, COLOURS.index(sym), sym)
    if sym in _PAIR_ORDER:
        return (2, _PAIR_ORDER.index(sym), sym)
    if sym.startswith("2/"):
        return (3, COLOURS.index(sym[2]), sym)
    if sym.startswith("C/") and sym != "C/P":
        return (4, COLOURS.index(sym[2]), sym)
    if sym.endswith("/P") and len(sym) == 3:
        return (5, (COLOURS + "C").index(sym[0]), sym)
    if sym.endswith("/P"):
        return (6, _PAIR_ORDER.index(sym[:3]), sym)
    if sym in _PLAIN_OTHERS:
        return (7, _PLAIN_OTHERS.index(sym), sym)
    return (8, 0, sym)  # half mana


_BRACES = re.compile(r"\{([^{}]*)\}")
_SHORTHAND = re.compile(r"^([0-9]*)([WUBRGCXYZS]*)$", re.IGNORECASE)


@dataclass(frozen=True)
class ManaCost:
    """An immutable mana cost. ``generic`` is None when no number is printed."""

    generic: int | None
    symbols: tuple[str, ...]

    @classmethod
    def parse(cls, text: str | None) -> ManaCost:
        """Read a printed cost such as '{2}{W}{U/B}'; '', 'none' or the French 'aucun' is no mana cost.

        Judges may also type the brace-less shorthand '1RR' or '2WU'.
        """
        if text is None:
            return NO_COST
        if not isinstance(text, str):
            raise ManaCostError(str(text), say("cost.expected_text"))
        cached = _PARSED.get(text)
        if cached is not None:  # a pool has ~900 distinct costs for 35,000 faces
            return cached
        cost = cls._parse(text)
        if len(_PARSED) < 20_000:  # what users type must not grow it forever
            _PARSED[text] = cost
        return cost

    @classmethod
    def _parse(cls, text: str) -> ManaCost:
        stripped = text.strip()
        if stripped == "" or stripped.lower() in ("none", "aucun"):
            return NO_COST
        if "{" not in stripped and "}" not in stripped:
            m = _SHORTHAND.match(stripped)
            if not m or not stripped:
                raise ManaCostError(text, say("cost.braces"))
            raw = ([m.group(1)] if m.group(1) else []) + list(m.group(2))
        else:
            raw = _BRACES.findall(stripped)
            if _BRACES.sub("", stripped).strip():
                raise ManaCostError(text, say("cost.outside_braces"))
        if not raw:
            raise ManaCostError(text, say("cost.no_symbol"))
        if len(raw) > MAX_SYMBOLS:
            raise ManaCostError(text, say("cost.too_many_symbols", n=MAX_SYMBOLS))
        generic: int | None = None
        symbols: list[str] = []
        for r in raw:
            try:
                sym = _canonical_symbol(r)
            except KeyError:
                if _DIGITS.fullmatch(r.strip()):
                    raise ManaCostError(text, say("cost.long_number", n=MAX_GENERIC_DIGITS)) from None
                raise ManaCostError(text, say("cost.unknown_symbol", symbol="{" + r + "}")) from None
            if _DIGITS.fullmatch(sym):
                generic = (generic or 0) + int(sym)
            else:
                symbols.append(sym)
        if _reading_bound(symbols) > MAX_READINGS:
            raise ManaCostError(text, say("cost.too_many_readings", n=MAX_READINGS))
        return cls.of(generic, symbols)

    @classmethod
    def of(cls, generic: int | None, symbols) -> ManaCost:
        """Build a cost in canonical form ({0} only survives alone)."""
        symbols = tuple(sorted(symbols, key=_sort_key))
        if generic == 0 and symbols:
            generic = None
        return cls(generic, symbols)

    def __str__(self) -> str:
        return self.text

    @cached_property
    def text(self) -> str:
        """The canonical printed form, '' for no mana cost."""
        head = f"{{{self.generic}}}" if self.generic is not None else ""
        return head + "".join(f"{{{s}}}" for s in self.symbols)

    def __repr__(self) -> str:
        return f"ManaCost.parse({str(self)!r})"

    @property
    def is_none(self) -> bool:
        """True for "no mana cost" (D2), which is not {0}."""
        return self.generic is None and not self.symbols

    @cached_property
    def mana_value(self) -> float:
        """The printed mana value (705.7): hybrid {2/W} counts 2, X counts 0, half mana 0.5."""
        total = Fraction(self.generic or 0)
        for s in self.symbols:
            if s in ("X", "Y", "Z"):
                continue
            if s.startswith("2/"):
                total += 2
            elif s in _HALF or s == "½":
                total += Fraction(1, 2)
            elif s == "∞":
                return float("inf")
            else:
                total += 1
        return float(total)

    @cached_property
    def colours(self) -> tuple[str, ...]:
        """The colours of the printed symbols (705.8), in WUBRG order."""
        present = {c for s in self.symbols for c in s.replace("H", "") if c in COLOURS}
        return tuple(c for c in COLOURS if c in present)

    def instantiations(self, phyrexian_as_hybrid: bool = False) -> frozenset[ManaCost]:
        """Every concrete cost this one can be read as under D1/D3.

        Each hybrid symbol becomes one of its halves and generic parts are summed,
        so '{R/W}{R/W}' gives {R}{R}, {R}{W} and {W}{W}. Two costs match when their
        instantiation sets meet.
        """
        key = (self, phyrexian_as_hybrid)
        cached = _INST_CACHE.get(key)
        if cached is not None:
            return cached
        # Order never matters (D1), so k copies of one symbol pick a multiset of
        # halves, and partial readings that agree are merged as we go: forty
        # hybrid symbols give a few thousand readings, not 3**40 picks.
        alphabet: list[str] = []
        groups = []
        for sym, n in Counter(self.symbols).items():
            halves = _halves(sym, phyrexian_as_hybrid)
            alphabet += [h for h in halves if not h.isdigit() and h not in alphabet]
            groups.append(list(combinations_with_replacement(halves, n)))
        slot = {h: i for i, h in enumerate(alphabet)}
        states = {(self.generic, (0,) * len(alphabet))}
        for options in groups:
            nxt = set()
            for generic, counts in states:
                for pick in options:
                    g, c = generic, list(counts)
                    for half in pick:
                        if half.isdigit():
                            g = (g or 0) + int(half)
                        else:
                            c[slot[half]] += 1
                    nxt.add((g, tuple(c)))
            states = nxt
        result = frozenset(
            ManaCost.of(g, [h for h, n in zip(alphabet, counts, strict=True) for _ in range(n)])
            for g, counts in states
        )
        if len(_INST_CACHE) > 100_000:  # arbitrary user costs must not grow it forever
            _INST_CACHE.clear()
        _INST_CACHE[key] = result
        return result

    def matches(self, other: ManaCost, phyrexian_as_hybrid: bool = False) -> bool:
        """D1: some instantiation of one equals some instantiation of the other."""
        return not self.instantiations(phyrexian_as_hybrid).isdisjoint(
            other.instantiations(phyrexian_as_hybrid)
        )


_INST_CACHE: dict = {}
_PARSED: dict[str, ManaCost] = {}
NO_COST = ManaCost(None, ())


def cost_words(cost: ManaCost) -> Message | str:
    """A cost as a judge reads it: '{1}{R}', '{0}', or the words 'no mana cost' (D2), never ''."""
    return say("cost.none") if cost.is_none else cost.text


def cost_phrase(cost: ManaCost) -> Message:
    """'costs {1}{R}' or 'has no mana cost': what follows a card's name in an answer."""
    return say("cost.has_none") if cost.is_none else say("cost.costs", cost=cost.text)


def mana_value_number(value: float | None) -> int | float | None:
    """A mana value (705.7) as every answer gives it: an int when whole (3, never 3.0), else the
    exact half an Un-card's half mana gives (0.5); None when unknown, or infinite (JSON has no ∞)."""
    if value is None or value != value or value in (float("inf"), float("-inf")):
        return None
    return int(value) if float(value).is_integer() else float(value)


def _reading_bound(symbols) -> int:
    """An upper bound on len(instantiations()), under either house option, without enumerating."""
    bound = 1
    for sym, n in Counter(symbols).items():
        bound *= comb(n + len(_halves(sym, True)) - 1, n)
    return bound


def _halves(sym: str, phyrexian_as_hybrid: bool) -> tuple[str, ...]:
    """What one symbol may be instantiated to (a 1-tuple for a plain symbol)."""
    if sym in _PAIR_ORDER:
        return tuple(sym.split("/"))
    if sym.startswith("2/") or (sym.startswith("C/") and sym != "C/P"):
        return tuple(sym.split("/"))
    if sym.endswith("/P") and len(sym) == 5:  # {W/U/P} -> {W/P} or {U/P}
        a, b, _ = sym.split("/")
        return tuple(h for p in (f"{a}/P", f"{b}/P") for h in _halves(p, phyrexian_as_hybrid))
    if sym.endswith("/P") and phyrexian_as_hybrid:  # house option of D3
        return (sym[0], "2")
    return (sym,)
