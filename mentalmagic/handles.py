"""Who sees which card, and the handle they know it by (D15: hidden cards can't be followed).

The judge, and a player who may see a card, know it by its one stable id. A player who can't
see it knows it by a handle keyed by the game's secret, the card, the player and the last event
that hid it from them (``CardState.epoch``; for a hand card, the last event a card went into that
hand: ``PlayerState.hand_epoch``). So the handle changes each time the card enters a zone or state
hidden from them, and nothing links two handles of one card, or a handle to its stable id (CR
400.7). Events and names get handles of their own, which no view shows. Actions accept the
handles their caller was shown (``Viewer.resolve``).
"""

from __future__ import annotations

import hashlib
import secrets
import weakref
from dataclasses import replace

from .errors import ArbiterError, UnknownGameCard
from .game import GameSetup, GameState
from .grammar import handle_of
from .messages import CardRef, Message, card_ref
from .permissions import Caller
from .zones import HAND, LIBRARY, REMOVED, CardState


def sees(c: CardState, caller: Caller) -> bool:
    """May ``caller`` see which printed card ``c`` is? The judge always; a looker at what they
    looked at (702.2c); a library card once revealed (702.2b); a hand card its owner; a face-down
    card its controller; anybody a face-up card."""
    if caller.is_judge:
        return True
    viewer = caller.player
    if viewer is not None and viewer in c.looked_by:
        return True
    zone = c.left_from if c.zone == REMOVED else c.zone
    if zone == LIBRARY:
        return c.revealed
    if zone == HAND:
        return c.revealed or (viewer is not None and viewer == c.owner)
    if c.face_down:
        return viewer is not None and viewer == (c.controller or c.owner)
    return True


def _key(setup: GameSetup) -> bytes:
    """The game's secret; a game created before secrets (issue 21) is keyed by its whole library,
    card ids included, which no player ever sees whole."""
    if setup.secret:
        return setup.secret.encode()[:64]
    return hashlib.blake2b(repr((setup.library, setup.commanders)).encode(), digest_size=32).digest()


def _keyed(key: bytes):
    return hashlib.blake2b(key=key, digest_size=5)


def _handle(keyed, *parts) -> str:
    """Ten hex digits, as a card id: keyed, so no player can compute or invert one."""
    h = keyed.copy()  # the key's block hashed once per viewer, not once per card
    h.update("\x1f".join(map(str, parts)).encode())
    return h.hexdigest()


class Viewer:
    """One caller's handles in one state of one game."""

    def __init__(self, setup: GameSetup, state: GameState, caller: Caller):
        self.setup, self.state, self.caller = setup, state, caller
        self.key = _keyed(_key(setup) if not caller.is_judge else b"")
        self._back: dict[str, str] | None = None

    @property
    def is_judge(self) -> bool:
        return self.caller.is_judge

    def sees(self, c: CardState) -> bool:
        return sees(c, self.caller)

    def shown(self, c: CardState) -> str:
        """The id this caller knows ``c`` by now."""
        if self.caller.is_judge or self.sees(c):
            return c.id
        epoch = self.state.players[c.owner].hand_epoch if c.zone == HAND and c.owner in self.state.players else c.epoch
        return _handle(self.key, "card", c.id, self.caller.player, epoch)

    def in_event(self, c: CardState, seq: int) -> str:
        """An event's handle for a card hidden from the caller before and after it: its own, shown nowhere else."""
        return _handle(self.key, "event", c.id, self.caller.player, seq)

    def in_names(self, c: CardState, seq: int) -> str:
        """A name record's handle for a card hidden from the caller now."""
        return _handle(self.key, "name", c.id, self.caller.player, seq)

    def resolve(self, ref) -> str:
        """The card id behind a reference this caller was shown; unknown otherwise (a 404 alike for
        a made-up id and for the stable id of a card hidden from them: nothing to probe)."""
        if self.caller.is_judge:
            return ref
        c = self.state.cards.get(ref) if isinstance(ref, str) else None
        if c is not None and sees(c, self.caller):
            return ref
        if self._back is None:
            self._back = {self.shown(c): c.id for c in self.state.cards.values() if not sees(c, self.caller)}
        cid = self._back.get(ref) if isinstance(ref, str) else None
        if cid is None:
            raise UnknownGameCard(ref)
        return cid

    def command(self, command):
        """``command`` with the card references it holds turned into card ids."""
        if self.caller.is_judge:
            return command
        changes = {}
        for name in ("card", "commander"):
            value = getattr(command, name, None)
            if isinstance(value, str):
                changes[name] = self.resolve(value)
        for name in ("cards", "returned"):
            value = getattr(command, name, None)
            if value:
                changes[name] = tuple(self.resolve(v) for v in value)
        if getattr(command, "names", None):  # leave_game's {card: name}
            changes["names"] = tuple((self.resolve(cid), name) for cid, name in command.names)
        return replace(command, **changes) if changes else command

    def error(self, e: ArbiterError) -> ArbiterError:
        """``e`` naming each card as its caller knows it (D15): a card they can't see by the handle
        they know it by, everywhere; in its words, a card they see by its number (#N, as the page and
        `show` number it), never by an id no page shows. Its JSON keeps that card's id (``params``,
        and ``fields``' keys: what an action takes back)."""
        said = repr(e.said) + repr(e.fields)
        named = [c for c in self.state.cards.values() if c.id in said]
        refs = {}
        for c in named:
            if sees(c, self.caller):
                refs[c.id] = c.id
            else:
                handle = self.shown(c)
                e.said = _replaced(e.said, c.id, handle)
                e.fields = _replaced(e.fields, c.id, handle)
        if refs:
            numbers = handle_of(self.setup)
            refs = {cid: card_ref(cid, numbers[cid]) for cid in refs if cid in numbers}
            e.said, e.fields = _referred(e.said, refs), _referred(e.fields, refs)
        return e


class Preview(Viewer):
    """What a dry run shows its caller of the state an action would make (D15, issue 30): only what
    they see now and would still see after it. A card the action would show them (a draw, a look,
    a reveal) stays hidden, as it is until the action is recorded; and every card hidden from them
    goes by a handle of this preview's own, keyed by a random key: linked to nothing they were or
    will be shown, not even to another dry run's. The judge sees everything, as in every view."""

    def __init__(self, setup: GameSetup, now: GameState, after: GameState, caller: Caller):
        super().__init__(setup, after, caller)
        self.now = now
        if not caller.is_judge:
            self.key = _keyed(secrets.token_bytes(32))

    def sees(self, c: CardState) -> bool:
        was = self.now.cards.get(c.id)
        return sees(c, self.caller) and (was is None or sees(was, self.caller))


def _referred(value, refs: dict[str, CardRef]):
    """``value`` with each parameter that is a card's id as that card's ``CardRef``; keys as they are."""
    if type(value) is str:
        return refs.get(value, value)
    if isinstance(value, Message):
        return Message(value.code, {k: _referred(v, refs) for k, v in value.params.items()})
    if isinstance(value, dict):
        return {k: _referred(v, refs) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_referred(v, refs) for v in value]
    return value


def _replaced(value, old: str, new: str):
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, Message):
        return Message(value.code, _replaced(dict(value.params), old, new))
    if isinstance(value, dict):
        return {_replaced(k, old, new): _replaced(v, old, new) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_replaced(v, old, new) for v in value]
    return value


def render_event_data(data, before: dict[str, CardState], after: GameState, seq: int, viewer: Viewer):
    """An event's data as ``viewer`` may read it: each card id becomes the card's stable id where
    they saw it before or see it after the event, else a handle of this event's own."""
    if viewer.is_judge:
        return data
    if isinstance(data, dict):
        return {render_event_data(k, before, after, seq, viewer): render_event_data(v, before, after, seq, viewer)
                for k, v in data.items()}  # keys too: leave_game's namings are keyed by card
    if isinstance(data, list | tuple):
        return [render_event_data(v, before, after, seq, viewer) for v in data]
    if isinstance(data, str) and data in after.cards:
        c = after.cards[data]
        if viewer.sees(c) or (data in before and viewer.sees(before[data])):
            return data
        return viewer.in_event(c, seq)
    return data


_VIEWERS: weakref.WeakKeyDictionary[GameState, dict] = weakref.WeakKeyDictionary()


def viewer(setup: GameSetup, state: GameState, caller: Caller) -> Viewer:
    """The caller's handles in ``state``, kept while the state lives (a published state never changes)."""
    kept = _VIEWERS.get(state)
    if kept is None:
        kept = _VIEWERS.setdefault(state, {})
    key = (caller.player, caller.is_judge, setup.secret)
    v = kept.get(key)
    if v is None:
        v = kept[key] = Viewer(setup, state, caller)
    return v
