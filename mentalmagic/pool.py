"""The card pool: every printed card of the source, found by any name in two languages."""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass

from .cards import SPLIT_LAYOUTS, Card, Nameable
from .errors import UnknownCard
from .formats import BanList, Refusal, format_refusal
from .names import fold


@dataclass(frozen=True)
class PoolInfo:
    """Where the cards came from and what the source is known to lack."""

    source: str
    built_at: str
    lacks: tuple[str, ...] = ()
    legalities_known: bool = True
    french_known: bool = True


class CardPool:
    """All cards, their nameable entries, and name look-ups (English or French, any face)."""

    def __init__(self, cards: list[Card], bans: BanList, info: PoolInfo):
        self.cards = tuple(sorted(cards, key=lambda c: fold(c.name)))
        self.bans = bans
        self.info = info
        self._exact: dict[str, Card] = {}
        self._face: dict[str, Card] = {}
        self.nameables: list[Nameable] = []
        self._by_name: dict[str, list[Nameable]] = defaultdict(list)
        self._by_french: dict[str, list[Nameable]] = defaultdict(list)
        for card in self.cards:
            self._exact.setdefault(fold(card.name), card)
            for f in card.faces:
                self._face.setdefault(fold(f.name), card)
                if f.french_name:
                    self._face.setdefault(fold(f.french_name), card)
            self.nameables.extend(card.nameables())
        # Sorted by name once, so an index can keep positions and a query sorts integers.
        self.nameables.sort(key=lambda n: (n.name.casefold(), n.name))
        for n in self.nameables:
            self._by_name[n.key].append(n)
            if n.french_name:
                self._by_french[fold(n.french_name)].append(n)
        for card in self.cards:  # French full names rank after every English name
            if card.french_name:
                self._exact.setdefault(fold(card.french_name), card)
        self._search_keys = self._build_search_keys()

    def __len__(self) -> int:
        return len(self.cards)

    # -- look-ups ----------------------------------------------------------
    def lookup(self, name: str) -> Card:
        """The card called ``name`` (full name or one face's, English or French)."""
        key = fold(name or "")
        card = self._exact.get(key) or self._face.get(key)
        if card is None:
            raise UnknownCard(name)
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
    def _build_search_keys(self) -> list[tuple[str, int, int]]:
        """(folded text from a word start, rank, card position): prefix search by bisect."""
        keys = []
        for pos, card in enumerate(self.cards):
            labels = {card.name, *(f.name for f in card.faces)}
            if card.french_name:
                labels |= {card.french_name, *(f.french_name for f in card.faces if f.french_name)}
            for label in labels:
                text = fold(label)
                keys.append((text, 0, pos))  # the whole name: ranks first
                for i, ch in enumerate(text):
                    if i and text[i - 1] in " -,'/" and ch not in " -,'/":
                        keys.append((text[i:], 1, pos))
        keys.sort()
        return keys

    def search(self, query: str, limit: int = 20) -> list[Card]:
        """Cards whose name, in either language, starts with ``query`` or has a word that does."""
        q = fold(query or "")
        if not q:
            return []
        hits: dict[int, tuple] = {}
        i = bisect_left(self._search_keys, (q,))
        while i < len(self._search_keys) and self._search_keys[i][0].startswith(q):
            text, rank, pos = self._search_keys[i]
            exact = 0 if text == q and rank == 0 else 1
            score = (exact, rank, len(fold(self.cards[pos].name)), pos)
            if pos not in hits or score < hits[pos]:
                hits[pos] = score
            i += 1
        best = sorted(hits, key=hits.__getitem__)[: max(0, limit)]
        return [self.cards[p] for p in best]
