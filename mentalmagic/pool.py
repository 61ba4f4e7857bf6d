"""The card pool: every printed card of the source, found by any name in two languages."""

from __future__ import annotations

import re
import sys
from array import array
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, replace

from .cards import SPLIT_LAYOUTS, Card, Nameable
from .closenames import suggestions
from .errors import UnknownCard
from .formats import BanList, Refusal, format_refusal
from .messages import CardName
from .names import fold

# Where a word starts inside a folded name: after a separator, on a character that isn't one.
_WORD_START = re.compile(r"(?<=[ \-,'/])[^ \-,'/]")


@dataclass(frozen=True)
class PoolInfo:
    """Where the cards came from and what the source is known to lack."""

    source: str
    built_at: str
    lacks: tuple[str, ...] = ()
    legalities_known: bool = True
    french_known: bool = True


def with_list_names(cards: list[Card], bans: BanList) -> list[Card]:
    """The cards, each whose data has no French name given the one the Mental Magic list knows
    (Illusionary Mask: Masque illusoire), so that name is found wherever a name is typed."""
    french = {e.english_name: e.french_name for e in bans.entries
              if e.english_name and e.french_name and fold(e.french_name) != fold(e.english_name)}
    if not french:
        return list(cards)
    out = []
    for card in cards:
        name = french.get(card.name)
        if name and not card.french_name and len(card.faces) == 1:
            card = replace(card, french_name=name, faces=(replace(card.faces[0], french_name=name),))
        out.append(card)
    return out


def said_name(pool, name: str) -> CardName | str:
    """``name`` (a printed card or a name a game or deck keeps) as a message parameter: the name of
    the card ``pool`` finds by it, which knows its French (messages.CardName); as it is when none."""
    card = pool.find(name) if name else None
    return card.said_as(name) if card is not None else name


class CardPool:
    """All cards, their nameable entries, and name look-ups (English or French, any face)."""

    def __init__(self, cards: list[Card], bans: BanList, info: PoolInfo):
        memo: dict[str, str] = {}  # each name is folded ~4 times below: once is enough

        def folded(name: str) -> str:
            key = memo.get(name)
            if key is None:
                key = memo[name] = sys.intern(fold(name))  # the same object as its Nameable's key
            return key

        self.cards = tuple(sorted(with_list_names(cards, bans), key=lambda c: folded(c.name)))
        self.bans = bans
        self.info = info
        self._exact: dict[str, Card] = {}
        self._face: dict[str, Card] = {}
        self.nameables: list[Nameable] = []
        by_name: dict[str, list[Nameable]] = defaultdict(list)
        by_french: dict[str, list[Nameable]] = defaultdict(list)
        for card in self.cards:
            self._exact.setdefault(folded(card.name), card)
            for f in card.faces:
                self._face.setdefault(folded(f.name), card)
                if f.french_name:
                    self._face.setdefault(folded(f.french_name), card)
            self.nameables.extend(card.nameables())
        # Sorted by name once, so an index can keep positions and a query sorts integers.
        self.nameables.sort(key=lambda n: (n.name.casefold(), n.name))
        for n in self.nameables:
            by_name[n.key].append(n)
            if n.french_name:
                by_french[folded(n.french_name)].append(n)
        # tuples: ~50k of them, most of one name, live as long as the pool (and in every process)
        self._by_name = {k: tuple(v) for k, v in by_name.items()}
        self._by_french = {k: tuple(v) for k, v in by_french.items()}
        for card in self.cards:  # French full names rank after every English name
            if card.french_name:
                self._exact.setdefault(folded(card.french_name), card)
        self._search_texts, self._search_scores = self._build_search_keys(folded)
        self._best: dict[str, array] = {}  # the best answers of common prefixes, kept on first use

    def __len__(self) -> int:
        return len(self.cards)

    # -- look-ups ----------------------------------------------------------
    def lookup(self, name: str, field: str = "name") -> Card:
        """The card called ``name`` (full name or one face's, English or French); ``UnknownCard``
        with close names, about ``field`` (the field that named it), when there is none."""
        key = fold(name or "")
        card = self._exact.get(key) or self._face.get(key)
        if card is None:
            raise UnknownCard(name, lambda: suggestions(name, self), field)
        return card

    def find(self, name: str) -> Card | None:
        key = fold(name or "")
        return self._exact.get(key) or self._face.get(key)

    def nameables_called(self, name: str) -> list[Nameable]:
        """Entries that answer to ``name``: English first, else French (one French name may
        translate two cards), else a one-name card's full name ("Delver of Secrets // ...")."""
        key = fold(name or "")
        found = self._by_name.get(key) or self._by_french.get(key)
        if found:
            return list(found)
        card = self._exact.get(key)
        if card is not None and card.layout not in SPLIT_LAYOUTS:  # a split card's full name is two names
            return list(card.nameables())
        return []

    # -- formats -------------------------------------------------------------
    def refusal(self, card: Card, fmt: str) -> Refusal | None:
        """Why ``card`` can't be chosen as a name in ``fmt`` (706, D5), or None."""
        return format_refusal(card, fmt, self.bans, self.info.legalities_known)

    def mental_magic_status(self, card: Card) -> str | None:
        return self.bans.status(card)

    # -- autocomplete ----------------------------------------------------------
    # A key's score packs (rank, folded name length, card position) into one int, so that a
    # query sorts plain ints: rank 0 for a whole name, 1 for a word inside it.
    _RANK, _LEN = 1 << 40, 1 << 20

    def _build_search_keys(self, folded=fold) -> tuple[list[str], array]:
        """Folded texts from each word start, sorted, and their scores: prefix search by bisect."""
        texts: list[str] = []
        scores: list[int] = []
        for pos, card in enumerate(self.cards):
            labels = {card.name, *(f.name for f in card.faces)}
            if card.french_name:
                labels |= {card.french_name, *(f.french_name for f in card.faces if f.french_name)}
            base = len(folded(card.name)) * self._LEN + pos  # folded once here, never per query
            for label in labels:
                text = folded(label)
                texts.append(text)  # the whole name: ranks first
                scores.append(base)
                for m in _WORD_START.finditer(text):
                    texts.append(text[m.start():])
                    scores.append(self._RANK + base)
        order = sorted(range(len(texts)), key=texts.__getitem__)  # strings compare faster than tuples
        return [texts[i] for i in order], array("q", [scores[i] for i in order])

    # A prefix that starts more keys than this keeps its best answers (at most ~600 prefixes
    # of the snapshot do, a bound set by the card names, not by what users type).
    _BIG_PREFIX, _KEEP = 128, 100

    def search(self, query: str, limit: int = 20) -> list[Card]:
        """Cards whose name, in either language, starts with ``query`` or has a word that does.

        Ranked: the exact whole name first, then whole names before inner words, then shorter
        names, then by name. Work per query: two bisections and a sort of at most ~128 scores;
        a shorter, commoner prefix sorts its many scores once and keeps the best.
        """
        q = fold(query or "")
        if not q or limit <= 0:
            return []
        texts = self._search_texts
        lo = bisect_left(texts, q)
        hi = bisect_left(texts, q[:-1] + chr(ord(q[-1]) + 1), lo)  # every text that starts with q
        if hi - lo <= self._BIG_PREFIX or limit > self._KEEP:
            return [self.cards[p] for p in self._ranked(q, lo, hi, limit)]
        best = self._best.get(q)
        if best is None:
            best = self._best[q] = array("i", self._ranked(q, lo, hi, self._KEEP))
        return [self.cards[p] for p in best[:limit]]

    def _ranked(self, q: str, lo: int, hi: int, limit: int) -> list[int]:
        """The positions of the ``limit`` best cards among the keys ``lo:hi`` (all start with ``q``)."""
        texts = self._search_texts
        found = self._search_scores[lo:hi].tolist()
        exact = 1 << 60  # everything but an exact whole name goes after it
        k = 0
        while k < len(found) and texts[lo + k] == q:  # texts equal to q sort first in the range
            if found[k] >= self._RANK:
                found[k] += exact
            k += 1
        found[k:] = [s + exact for s in found[k:]]
        found.sort()
        out: list[int] = []
        seen: set[int] = set()
        for s in found:  # a card's first score is its best
            pos = s % self._LEN
            if pos not in seen:
                seen.add(pos)
                out.append(pos)
                if len(out) == limit:
                    break
        return out
