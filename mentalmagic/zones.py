"""Zones, and the state of one physical card of the common library during a game (702, 703)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

LIBRARY = "library"
HAND = "hand"
GRAVEYARD = "graveyard"
BATTLEFIELD = "battlefield"
EXILE = "exile"
STACK = "stack"
COMMAND = "command"
REMOVED = "removed"  # left the game with its owner (multiplayer rule)

MOVE_ZONES = (LIBRARY, HAND, BATTLEFIELD, GRAVEYARD, EXILE, STACK, COMMAND)
HIDDEN_ZONES = frozenset({LIBRARY, HAND})  # a card there is neither face up nor face down
CONTROLLED_ZONES = frozenset({BATTLEFIELD, STACK})  # where a controller differs from the owner

# How a face-down card was played or is turned face up, and what a legal name must then be (705.4).
VIAS = ("morph", "megamorph", "disguise", "manifest", "cloak", "effect")


@dataclass
class CardState:
    """Where one physical card is and what the game knows of it; ``printed`` is its printed card."""

    id: str
    printed: str
    zone: str = LIBRARY
    owner: str | None = None
    controller: str | None = None
    face_down: bool = False
    pentaland: bool = False
    named_as: str | None = None
    # MageRing: the names it had before, oldest first, each dropped as it left the battlefield or
    # the stack (it is its printed card elsewhere); always () under the other rule sets (704.4)
    former_names: tuple[str, ...] = ()
    revealed: bool = False
    revealed_by: str | None = None
    reveal_continuous: bool = False
    look_owner: str | None = None  # 702.2c: the player whose library is looked at
    looked_by: tuple[str, ...] = ()
    face_down_seq: int | None = None  # 705.4a: when it went face down...
    face_down_by: str | None = None  # ...who played it so (D8 loser)...
    face_down_via: str | None = None  # ...and how (a morph must be named as a morph card)
    left_from: str | None = None  # the zone it left the game from
    commander_of: str | None = None  # D14(a): whose commander it is, in every zone (903.3)
    epoch: int = 0  # D15: the last event that moved it or hid it again (a new handle for who can't see it)

    def copy(self) -> CardState:
        new = object.__new__(type(self))  # a fold copies the cards it reads: 5× faster than replace()
        new.__dict__.update(self.__dict__)  # every field is immutable (str, bool, int, tuple, None)
        return new

    def to_dict(self) -> dict:
        d = asdict(self)
        d["looked_by"] = list(self.looked_by)
        d["former_names"] = list(self.former_names)
        return d

    @property
    def library_owner(self) -> str | None:
        """Who owns it while it sits in the library: its revealer (702.2b) or the looked-at player (702.2c)."""
        if self.revealed and not self.reveal_continuous and self.revealed_by:
            return self.revealed_by
        if self.looked_by and self.look_owner:
            return self.look_owner
        return None

    @property
    def holder(self) -> str | None:
        """The player who acts for it: its controller where control exists, else its owner."""
        return self.controller if self.zone in CONTROLLED_ZONES and self.controller else self.owner

    @property
    def namer(self) -> str | None:
        """705.4: who names it when it is turned face up: its controller (its owner out of play)."""
        return self.controller or self.owner

    def turn_up_via(self, via: str | None = None) -> str:
        """How a turn-face-up action turns it up: as asked, else by its own ability (the way it
        went face down: a morph's cost, manifest's), else by an effect."""
        return via or self.face_down_via or "effect"
