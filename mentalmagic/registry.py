"""The names taken in a game: who took which name, when, under which exception (704.2, 705.4a)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .names import fold


@dataclass(frozen=True)
class NameRecord:
    """One name taken: by which card, named by which player, at which event, under which exception."""

    name: str
    card: str
    player: str | None
    seq: int
    exception: str | None = None
    rule: str | None = None
    anew: bool = False  # MageRing: the card had a name before, dropped as it left the battlefield or the stack

    @property
    def key(self) -> str:
        return fold(self.name)

    def to_dict(self) -> dict:
        return asdict(self)


class NameRegistry:
    """Every name taken in a game, keyed by folded name (704.2); names are never given back, not
    even the one a card drops under MageRing (its 'once per game': docs/rule-sets.md)."""

    def __init__(self, records: tuple[NameRecord, ...] | list[NameRecord] = (),
                 from_start: tuple[NameRecord, ...] = ()):
        self._by_key: dict[str, list[NameRecord]] = {}
        # D14(e): the commanders' names, taken from the start (seq 0) by no card's naming: taken for
        # 704.2 and before any card went face down (D6); listed with the names taken (each by its
        # commander's card and player) but never as a card's naming (records(), of_card())
        self.from_start = tuple(from_start)
        self.reserved = frozenset(r.key for r in self.from_start)
        for r in records:
            self.add(r)

    def add(self, record: NameRecord) -> None:
        self._by_key.setdefault(record.key, []).append(record)

    def copy(self) -> NameRegistry:
        new = NameRegistry()  # the lists copied as they are: no re-sorting, no re-folding (issue 8)
        new.from_start, new.reserved = self.from_start, self.reserved
        new._by_key = {k: list(rs) for k, rs in self._by_key.items()}
        return new

    def taken_after(self, seq: int) -> list[NameRecord]:
        """The records of the names taken by events after ``seq``, in the order taken."""
        return sorted((r for rs in self._by_key.values() for r in rs if r.seq > seq), key=lambda r: (r.seq, r.key))

    def records(self) -> list[NameRecord]:
        """Every record, in the order they were taken."""
        return sorted((r for rs in self._by_key.values() for r in rs), key=lambda r: (r.seq, r.key))

    def of_card(self, card: str) -> list[NameRecord]:
        """Every name ``card`` took, in the order taken (more than one only under MageRing)."""
        return [r for r in self.records() if r.card == card]

    def records_for(self, name: str) -> list[NameRecord]:
        return list(self._by_key.get(fold(name), ()))

    def taken_keys(self) -> frozenset[str]:
        return frozenset(self._by_key) | self.reserved

    def taken_before(self, name: str, seq: int) -> bool:
        """Was ``name`` already taken when event ``seq`` happened (strictly before it)?"""
        key = fold(name)
        return key in self.reserved or any(r.seq < seq for r in self._by_key.get(key, ()))

    def snapshot(self) -> dict:
        return {k: [r.to_dict() for r in rs] for k, rs in sorted(self._by_key.items())}

    def __len__(self) -> int:
        return len(self._by_key)
