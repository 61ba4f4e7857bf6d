"""A game as data: its setup, its events, and the state they fold into (702–705).

``GameState.apply_event`` folds an event without checking anything, so a game is
always ``replay(setup, events)`` and undo is a replay of all events but the last.
Nothing here draws random numbers, reads a clock or touches storage.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

from .closenames import suggestions
from .errors import (
    GameFinished,
    InvalidInput,
    NothingToUndo,
    UnknownCard,
    UnknownGameCard,
)
from .formats import check_format
from .messages import say
from .names import fold, has_control
from .registry import NameRecord, NameRegistry
from .zones import (
    BATTLEFIELD,
    COMMAND,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    REMOVED,
    STACK,
    CardState,
)

LEAVE_RULE = "800.4a"  # Magic's multiplayer rule on leaving the game (700.1a; seeds/multiplayer-rules)
IN_GAME, LOST, LEFT = "in_game", "lost", "left"
# Magic's 104.2a: a player still in the game wins once all their opponents have left it (D7: the
# players of other teams); the game is then over and the arbiter records nothing more.
WIN_RULE = "104.2a"
ACTIVE, FINISHED = "active", "finished"
PUBLIC_ZONES = frozenset({GRAVEYARD, BATTLEFIELD, EXILE, STACK, COMMAND})


# -- setup and events ---------------------------------------------------------------
@dataclass(frozen=True)
class Player:
    id: str
    name: str
    team: str | None = None


@dataclass(frozen=True)
class GameSetup:
    """What a game starts from: format, house options, players, and the library top first."""

    format: str
    players: tuple[Player, ...]
    library: tuple[tuple[str, str], ...]  # (card id, printed name)
    options: dict = field(default_factory=dict, hash=False)
    # D14(a): the commanders, physical cards that never were in the library: (card id, printed, player)
    commanders: tuple[tuple[str, str, str], ...] = ()
    # D15: the key of the handles players see for cards hidden from them (handles.py); never shown
    secret: str = field(default="", compare=False, repr=False)
    # Xom 6: the folded names the other games of its series took, read as an action is decided; never stored
    # (each with the game that took it)
    carried_names: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def phyrexian_as_hybrid(self) -> bool:
        return bool(self.options.get("phyrexian_as_hybrid", False))

    def player(self, pid: str | None) -> Player | None:
        return next((p for p in self.players if p.id == pid), None)

    def opponents(self, pid: str | None) -> frozenset[str]:
        """D7: the players of other teams when teams are set, else every other player."""
        me = self.player(pid)
        if me is None:
            return frozenset()
        if any(p.team is not None for p in self.players):
            return frozenset(p.id for p in self.players if p.id != me.id and (me.team is None or p.team != me.team))
        return frozenset(p.id for p in self.players if p.id != me.id)

    def commanders_of(self, pid: str | None) -> tuple[str, ...]:
        """The card ids of a player's commander(s) (D14(a)); none outside a commander game."""
        return tuple(cid for cid, _, owner in self.commanders if owner == pid)

    def to_dict(self) -> dict:
        d = {
            "format": self.format,
            "options": dict(self.options),
            "players": [asdict(p) for p in self.players],
            "library": [list(c) for c in self.library],
        }
        if self.commanders:
            d["commanders"] = [list(c) for c in self.commanders]
        if self.secret:
            d["secret"] = self.secret
        return d

    @classmethod
    def from_dict(cls, d: dict) -> GameSetup:
        return cls(
            format=d["format"],
            players=tuple(Player(**p) for p in d["players"]),
            library=tuple((c[0], c[1]) for c in d["library"]),
            options=dict(d.get("options") or {}),
            commanders=tuple((c[0], c[1], c[2]) for c in d.get("commanders") or ()),
            secret=d.get("secret") or "",
        )


def commander_tax(earlier_casts: int) -> str:
    """903.8: {2} more for each earlier cast from the command zone ('{0}' for the first)."""
    return "{" + str(2 * earlier_casts) + "}"


def check_setup(setup: GameSetup, pool) -> None:
    """Raise InvalidInput unless the format is known, ids are unique and every printed name is a card."""
    check_format(setup.format)
    errors: dict[str, list] = {}
    pids = [p.id for p in setup.players]
    if not pids:
        errors.setdefault("players", []).append(say("setup.no_player"))
    if len(set(pids)) != len(pids):
        errors.setdefault("players", []).append(say("setup.player_ids"))
    errors.update(_name_faults(setup.players))
    ids = [c[0] for c in setup.library] + [c[0] for c in setup.commanders]
    if len(set(ids)) != len(ids):
        errors.setdefault("library", []).append(say("setup.card_ids"))
    if any(setup.player(pid) is None or pool.find(printed) is None for _, printed, pid in setup.commanders):
        errors.setdefault("commanders", []).append(say("setup.commanders"))
    unknown = sorted({name for _, name in setup.library if pool.find(name) is None})
    if unknown and not errors:  # a misspelt card, as wherever a card is named: its close names
        first = unknown[0]
        raise UnknownCard(first, lambda: suggestions(first, pool), fields={"library": [
            say("setup.unknown_cards", cards=unknown[:10])]})
    if unknown:
        errors.setdefault("library", []).append(say("setup.unknown_cards", cards=unknown[:10]))
    if errors:
        [(field, [why, *more])] = list(errors.items())[:1]
        one = len(errors) == 1 and not more  # the one fault said at the top too, as the CLI prints it
        raise InvalidInput(say("invalid.field", field=field, why=why) if one else "setup.invalid", fields=errors)


def _name_faults(players: tuple[Player, ...]) -> dict[str, list]:
    """Each player's name (and team) holds no control character, and no two names are equal ignoring
    case and accents (`Ana`, `ana`, `Ána`): a line's `ana` names one player, never one of two."""
    faults: dict[str, list] = {}
    seen: dict[str, Player] = {}
    for i, p in enumerate(players):
        for what, text in (("name", p.name), ("team", p.team or "")):
            if has_control(text):
                faults[f"players.{i}.{what}"] = [say("setup.control_character")]
        other = seen.setdefault(fold(p.name), p)
        if other is not p and f"players.{i}.name" not in faults:
            faults[f"players.{i}.name"] = [say("setup.same_name", name=p.name, other=other.name)]
    return faults


@dataclass
class Game:
    """A stored game as loaded: its setup and its state after the last event."""

    id: str
    setup: GameSetup
    state: GameState
    created_at: str
    version: int = 0  # bumped by every write: seq alone repeats after an undo
    archived_at: str | None = None  # an archived game is read-only: its log kept, out of the hot cache


@dataclass
class Event:
    """One thing that happened; ``data`` holds everything the fold needs (ids moved, names given)."""

    seq: int
    type: str
    player: str | None
    data: dict
    rule: str | None = None
    at: str | None = None

    def to_dict(self) -> dict:
        return {"seq": self.seq, "at": self.at, "type": self.type, "player": self.player,
                "data": self.data, "rule": self.rule}

    @classmethod
    def from_dict(cls, d: dict) -> Event:
        return cls(seq=d["seq"], type=d["type"], player=d.get("player"), data=d.get("data") or {},
                   rule=d.get("rule"), at=d.get("at"))


# -- the state: a fold of events ------------------------------------------------------
@dataclass
class PlayerState:
    id: str
    status: str = IN_GAME
    rule: str | None = None
    seq: int | None = None
    commander_casts: dict[str, int] = field(default_factory=dict)  # commander card id -> casts (903.8)
    commander_damage: dict[str, int] = field(default_factory=dict)  # commander card id -> total (903.10a)
    hand_epoch: int = 0  # D15: the last event a card went into this hand, or was hidden there again

    @property
    def in_game(self) -> bool:
        return self.status == IN_GAME

    def copy(self) -> PlayerState:
        """A copy a fold may change, its dicts its own (``asdict`` went through deepcopy: 10× slower)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.commander_casts, new.commander_damage = dict(self.commander_casts), dict(self.commander_damage)
        return new


class GameState:
    """Cards, library order, names taken and players' status after some events."""

    def __init__(self, seq: int, cards: dict[str, CardState], library: list[str], names: NameRegistry,
                 players: dict[str, PlayerState], sides: dict[str, str] | None = None,
                 finished: dict | None = None):
        self.seq = seq
        self.cards = cards
        self.library = library  # card ids, top first
        self.names = names
        self.players = players
        self.sides = sides or {}  # player id -> their side (team, or themselves): who wins together (D7)
        self.finished = finished  # how the game ended ({"seq", "by", "winners", "rule"}), None while it goes on
        # the turn, where the judge keeps them ({"player", "number", "land": a face-down land played in it})
        self.turn: dict | None = None
        self.touched: frozenset[str] = frozenset()  # set by apply_events: the cards its folds read
        self.folded_from: weakref.ref | None = None  # ...and the state they were folded from
        self._names_shared = False  # names still the state's folded from: copied by the first fold that names

    @classmethod
    def initial(cls, setup: GameSetup) -> GameState:
        """The state before any event: every card in the library, nothing named."""
        cards = {cid: CardState(id=cid, printed=printed) for cid, printed in setup.library}
        for cid, printed, pid in setup.commanders:  # 903.6: face up in the command zone, its player's
            cards[cid] = CardState(id=cid, printed=printed, zone=COMMAND, owner=pid, controller=pid,
                                   commander_of=pid)
        players = {p.id: PlayerState(p.id) for p in setup.players}
        teams = any(p.team is not None for p in setup.players)
        sides = {p.id: f"team:{p.team}" if teams and p.team is not None else f"player:{p.id}" for p in setup.players}
        # D14(e): a commander's name is taken from the start (its front face's: D4), by no naming
        held = tuple(NameRecord(printed.split(" // ")[0], cid, pid, 0, rule="D14(e)")
                     for cid, printed, pid in setup.commanders)
        return cls(0, cards, [cid for cid, _ in setup.library], NameRegistry(from_start=held), players, sides)

    def _with_cards(self, cards: dict[str, CardState], share_names: bool = False) -> GameState:
        new = GameState(self.seq, cards, list(self.library),
                        self.names if share_names else self.names.copy(),
                        {k: p.copy() for k, p in self.players.items()},
                        self.sides, dict(self.finished) if self.finished else None)
        new._names_shared = share_names
        new.turn = dict(self.turn) if self.turn else None
        return new

    @property
    def status(self) -> str:
        return FINISHED if self.finished else ACTIVE

    def check_not_finished(self) -> None:
        """Refuse any new event once the game is over (only the judge's undo takes the end back)."""
        if self.finished:
            raise GameFinished("game.finished", rule=self.finished.get("rule"))

    def apply_event(self, event: Event) -> GameState:
        """A new state with ``event`` folded in; this one is left as it was."""
        return self.apply_events((event,))

    def apply_events(self, events) -> GameState:
        """A new state with ``events`` folded in, in order; this one is left as it was.

        Only the cards the folds read are copied (issue 8: an action touches what it changes);
        the others are shared with this state, which is why a published state is never folded
        in place. The new state's ``touched`` names the cards copied, so that the store compares
        and writes those alone (``changed_cards``)."""
        cards = _CopiedOnRead(self.cards)
        new = self._with_cards(cards, share_names=True)  # most events name nothing: copied when one does
        for e in events:
            new._fold(e)
        new.cards = dict(cards)  # a plain dict again: later reads copy nothing
        new.touched, new.folded_from = frozenset(cards.touched), weakref.ref(self)
        return new

    def changed_cards(self, before: GameState) -> list[str]:
        """The ids of the cards that differ from ``before``, in the library's order; only those the
        folds touched when this state was folded from ``before``."""
        derived = self.folded_from is not None and self.folded_from() is before
        if not derived:
            return [cid for cid, c in self.cards.items() if before.cards[cid] != c]
        touched, old = self.touched, before.cards
        ids = touched if len(touched) < 2 else [cid for cid in self.cards if cid in touched]  # one: no order to keep
        return [cid for cid in ids if old[cid] != self.cards[cid]]

    def card(self, card_id) -> CardState:
        if not isinstance(card_id, str) or card_id not in self.cards:
            raise UnknownGameCard(card_id)
        return self.cards[card_id]

    def zone(self, zone: str, player: str | None = None) -> list[CardState]:
        """The cards in a zone (a player's part of it when ``player`` is given); library in order."""
        if zone == LIBRARY:
            return [self.cards[c] for c in self.library]
        return [c for c in self.cards.values() if c.zone == zone and (player is None or c.owner == player)]

    def in_game(self, pid: str | None) -> bool:
        p = self.players.get(pid)  # type: ignore[arg-type]
        return p is not None and p.in_game

    def snapshot(self) -> dict:
        """Everything the state holds, as plain comparable data."""
        return {
            "seq": self.seq,
            "cards": {k: c.to_dict() for k, c in sorted(self.cards.items())},
            "library": list(self.library),
            "names": self.names.snapshot(),
            "players": {k: asdict(p) for k, p in sorted(self.players.items())},
            "finished": self.finished,
        }

    def fold_in_place(self, e: Event) -> None:
        """Fold ``e`` into this very state: only for a private copy nobody else reads (``replay``'s way)."""
        self._fold(e)

    # -- the fold: no checks, only the event's data ------------------------------------
    def _fold(self, e: Event) -> None:
        FOLDS[e.type](self, e)
        self.seq = e.seq
        self._derive_finished(e.seq)

    def _derive_finished(self, seq: int) -> None:
        """104.2a with D7: once the players still in the game are all of one side, that side has won.
        A game that started with a single side (a solo test) ends only by the judge."""
        if self.finished or len(set(self.sides.values())) < 2:
            return
        left = sorted(pid for pid, p in self.players.items() if p.in_game)
        if len({self.sides[pid] for pid in left}) <= 1:
            self.finished = {"seq": seq, "by": "last_side", "winners": left, "rule": WIN_RULE}

    def _fold_turn(self, e: Event) -> None:
        self.turn = {"player": e.data["player"], "number": e.data["number"], "land": False}

    def _fold_end_game(self, e: Event) -> None:
        self.finished = {"seq": e.seq, "by": "judge", "winners": list(e.data.get("winners", [])), "rule": None}

    def _take_from_library(self, c: CardState) -> None:
        if c.zone == LIBRARY:
            self.library.remove(c.id)
        _clear_seen(c)

    def _fold_draw(self, e: Event) -> None:
        for cid in e.data["cards"]:
            c = self.cards[cid]
            self._take_from_library(c)
            c.zone, c.owner, c.controller = HAND, e.data["player"], e.data["player"]
            c.face_down = c.pentaland = False
            self._hidden_anew(c, e.seq)

    def _fold_move(self, e: Event) -> None:
        d = e.data
        c = self.cards[d["card"]]
        self._take_from_library(c)
        c.zone, c.owner, c.controller = d["to"], d["owner"], d["controller"]
        if d["to"] == LIBRARY:
            self.library.insert(len(self.library) if d.get("position") == "bottom" else 0, c.id)
        if d["pentaland"] and not c.pentaland and self.turn is not None:  # a face-down land played this turn
            self.turn["land"] = True
        c.pentaland = d["pentaland"]
        if d["face_down"]:
            if "face_down_by" in d:  # it goes face down now; a card staying face down keeps its moment
                c.face_down_seq, c.face_down_by, c.face_down_via = e.seq, d["face_down_by"], d.get("via")
        else:
            c.face_down_seq = c.face_down_by = c.face_down_via = None
        c.face_down = d["face_down"]
        self._hidden_anew(c, e.seq)
        if "unnamed" in d:
            _drop_name(c)
        if "land_name" in d:  # Xom 4, 3b: named Utopia for good, no card's name: nothing is taken
            c.named_as = d["land_name"]
        self._fold_naming(c, d.get("naming"), e.seq)
        self._fold_loss(d.get("game_loss"), e.seq)
        cast = d.get("commander_cast")
        if cast:  # 903.8: one more cast from the command zone
            self.players[cast["player"]].commander_casts[c.id] = cast["count"]

    def _fold_commander_damage(self, e: Event) -> None:
        d = e.data
        self.players[d["player"]].commander_damage[d["commander"]] = d["total"]
        self._fold_loss(d.get("game_loss"), e.seq)

    def _fold_name(self, e: Event) -> None:
        self._fold_naming(self.cards[e.data["card"]], e.data.get("naming"), e.seq)

    def _fold_turn_face_up(self, e: Event) -> None:
        c = self.cards[e.data["card"]]
        c.face_down = False
        c.face_down_seq = c.face_down_by = c.face_down_via = None
        self._fold_naming(c, e.data.get("naming"), e.seq)
        self._fold_loss(e.data.get("game_loss"), e.seq)

    def _fold_reveal(self, e: Event) -> None:
        for cid in e.data["cards"]:
            c = self.cards[cid]
            c.revealed, c.revealed_by, c.reveal_continuous = True, e.data["player"], e.data["continuous"]
            _library_ownership(c)

    def _fold_look(self, e: Event) -> None:
        for cid in e.data["cards"]:
            c = self.cards[cid]
            if c.zone == LIBRARY:
                c.look_owner = e.data["player"]
            if e.data["looker"] not in c.looked_by:
                c.looked_by = (*c.looked_by, e.data["looker"])
            _library_ownership(c)

    def _fold_end_reveal(self, e: Event) -> None:
        for cid in e.data["cards"]:
            c = self.cards[cid]
            c.revealed, c.revealed_by, c.reveal_continuous = False, None, False
            _library_ownership(c)
            self._hidden_anew(c, e.seq)

    def _fold_end_look(self, e: Event) -> None:
        for cid in e.data["cards"]:
            c = self.cards[cid]
            c.look_owner, c.looked_by = None, ()
            _library_ownership(c)
            self._hidden_anew(c, e.seq)

    def _hidden_anew(self, c: CardState, seq: int) -> None:
        """D15: the card moved, or was hidden again: whoever can't see it gets a new handle for it;
        in a hand, every card of that hand does (an opponent can't tell which one came in)."""
        c.epoch = seq
        if c.zone == HAND and c.owner in self.players:
            self.players[c.owner].hand_epoch = seq

    def _fold_leave_game(self, e: Event) -> None:
        self._fold_leaving(e.data["player"], e.data, e.seq)
        p = self.players[e.data["player"]]
        p.status, p.rule, p.seq = LEFT, LEAVE_RULE, e.seq

    def _fold_leaving(self, pid: str, d: dict, seq: int) -> None:
        """A player leaving, whichever way (leave_game, a loss: actions.py ``leaving``): their face-down
        cards turned face up as they go, named by them (D12), what goes with them (D9), and the loss
        a card with no legal name left cost another player (D8), who leaves the same way."""
        for cid in d.get("revealed", ()):
            c = self.cards[cid]
            c.face_down, c.face_down_seq, c.face_down_by, c.face_down_via = False, None, None, None
            self._fold_naming(c, d["namings"].get(cid), seq)
        self._depart(pid, d, seq)
        self._fold_loss(d.get("game_loss"), seq)

    def _depart(self, pid: str, d: dict, seq: int) -> None:
        """The multiplayer rule on leaving (D9): its ``removed``, ``returned``, ``exiled`` and ``released``
        card lists."""
        for cid in d.get("returned", ()):  # back under their owner's control, where they are
            c = self.cards[cid]
            c.controller = c.owner
        for cid in d["removed"]:
            c = self.cards[cid]
            c.left_from, c.zone, c.controller, c.epoch = c.zone, REMOVED, None, seq
        for cid in d["exiled"]:
            c = self.cards[cid]
            c.zone, c.controller, c.epoch = EXILE, c.owner, seq
        for cid in d.get("unnamed", ()):
            _drop_name(self.cards[cid])
        for cid in d["released"]:  # library cards they owned or looked at stay, without them
            c = self.cards[cid]
            if c.revealed_by == pid:
                c.revealed, c.revealed_by, c.reveal_continuous = False, None, False
            c.looked_by = tuple(p for p in c.looked_by if p != pid)
            if c.look_owner == pid or not c.looked_by:
                c.look_owner, c.looked_by = None, ()
            _library_ownership(c)

    def _fold_shuffle(self, e: Event) -> None:
        """701.1b: the cut recorded in the event; revealed or looked-at cards keep their state."""
        at = e.data["at"]
        self.library[:] = self.library[at:] + self.library[:at]

    def _fold_search(self, e: Event) -> None:
        raise InvalidInput("library.no_search_event")

    def _fold_naming(self, c: CardState, naming: dict | None, seq: int) -> None:
        if not naming:
            return
        c.named_as = naming["name"]
        if self._names_shared:  # the state folded from keeps its own
            self.names, self._names_shared = self.names.copy(), False
        self.names.add(NameRecord(name=naming["name"], card=c.id, player=naming["player"], seq=seq,
                                  exception=naming.get("exception"), rule=naming.get("rule"),
                                  anew=bool(c.former_names)))

    def _fold_loss(self, loss: dict | None, seq: int) -> None:
        if not loss:
            return
        p = self.players.get(loss["player"])
        if p is not None and p.in_game:
            p.status, p.rule, p.seq = LOST, loss["rule"], seq
            if "removed" in loss:  # a player who loses leaves the game (multiplayer rules), as any leaver
                self._fold_leaving(p.id, loss, seq)


# event type -> how it folds; an event type missing here can't be appended (KeyError, never half-applied)
FOLDS = {
    "draw": GameState._fold_draw, "move": GameState._fold_move, "name": GameState._fold_name,
    "turn_face_up": GameState._fold_turn_face_up, "reveal": GameState._fold_reveal, "look": GameState._fold_look,
    "end_reveal": GameState._fold_end_reveal, "end_look": GameState._fold_end_look,
    "leave_game": GameState._fold_leave_game, "shuffle": GameState._fold_shuffle,
    "search": GameState._fold_search, "end_game": GameState._fold_end_game,
    "turn": GameState._fold_turn,
    "commander_damage": GameState._fold_commander_damage,
}


class _CopiedOnRead(dict):
    """The cards of a state being folded from another: each card is copied the first time the
    fold reads it, so the state folded from keeps its own, and ``touched`` says which were."""

    __slots__ = ("touched",)

    def __init__(self, base: dict[str, CardState]):
        super().__init__(base)
        self.touched: set[str] = set()

    def __getitem__(self, key: str) -> CardState:
        c = dict.__getitem__(self, key)
        if key not in self.touched:
            c = c.copy()
            dict.__setitem__(self, key, c)
            self.touched.add(key)
        return c

    def __setitem__(self, key: str, value: CardState) -> None:
        dict.__setitem__(self, key, value)
        self.touched.add(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def values(self):  # a fold that scans every card may change any of them: all are copied
        return [self[k] for k in self]

    def items(self):
        return [(k, self[k]) for k in self]


def _drop_name(c: CardState) -> None:
    """MageRing: the card is its printed card where it went; its name is kept as an earlier one,
    and stays taken (the registry never gives a name back)."""
    c.former_names, c.named_as = (*c.former_names, c.named_as), None


def _clear_seen(c: CardState) -> None:
    c.revealed, c.revealed_by, c.reveal_continuous = False, None, False
    c.look_owner, c.looked_by = None, ()


def _library_ownership(c: CardState) -> None:
    """702.2a–702.2c: a library card is owned only while revealed or looked at."""
    if c.zone == LIBRARY:
        c.owner, c.controller = c.library_owner, None


def game_losses(loss: dict | None) -> list[dict]:
    """A game loss an event records (its data's ``game_loss``) and the losses it caused in turn, in
    order: a leaver's card with no legal name left costs its player the game (D8), each recorded as
    the previous loss's ``game_loss``."""
    out = []
    while loss:
        out.append(loss)
        loss = loss.get("game_loss")
    return out


def replay(setup: GameSetup, events) -> GameState:
    """The state after folding ``events`` onto the setup, in order."""
    state = GameState.initial(setup)
    for e in events:
        state._fold(e)  # one private copy folded in place: replay stays linear
    return state


def undo(setup: GameSetup, events: list[Event]) -> tuple[list[Event], GameState]:
    """Take back the last event: the remaining events and exactly the state before it."""
    if not events:
        raise NothingToUndo("undo.nothing")
    rest = list(events[:-1])
    return rest, replay(setup, rest)

