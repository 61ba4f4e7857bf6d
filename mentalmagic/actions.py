"""Deciding: one action checked against the state, turned into the event to append.

Every refusal is a domain error with its rule (702–705); the event carries
everything the fold needs, so replay never re-checks.
"""

from __future__ import annotations

from .cards import Card
from .errors import (
    AlreadyNamed,
    CardLeftGame,
    FaceDownRefused,
    Forbidden,
    InvalidInput,
    LibraryEmpty,
    NameRequired,
    NotACandidate,
    NotInLibrary,
    OwnershipRefused,
    PentalandRefused,
    PlayerOutOfGame,
    WrongNamer,
)
from .game import ACTION_TYPES, LEAVE_RULE, LEFT, LOST, PUBLIC_ZONES, Event, GameSetup, GameState
from .index import CandidateFinder
from .names import fold
from .registry import PLAYED_AS, face_up_filter
from .zones import (
    BATTLEFIELD,
    CONTROLLED_ZONES,
    GRAVEYARD,
    HAND,
    HIDDEN_ZONES,
    LIBRARY,
    MOVE_ZONES,
    REMOVED,
    STACK,
    VIAS,
    CardState,
)


# -- deciding: one action checked against the state --------------------------------
def decide(state: GameState, setup: GameSetup, finder: CandidateFinder, action: dict,
           actor: str | None, is_judge: bool = False, at: str | None = None) -> Event:
    """Check ``action`` by ``actor`` (or the judge) and return the event to append; raise if refused."""
    if not isinstance(action, dict):
        raise InvalidInput("an action is a JSON object", fields={"action": ["expected an object"]})
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise InvalidInput(f"unknown action type {kind!r}",
                           fields={"type": [f"choose one of {', '.join(ACTION_TYPES)}"]})
    d = _Decider(state, setup, finder, action, actor, is_judge)
    data, rule = getattr(d, f"_{kind}")()
    if is_judge:
        data["judge"] = True
    return Event(seq=state.seq + 1, type=kind, player=d.acting, data=data, rule=rule, at=at)


class _Decider:
    """The checks of one action; each ``_<type>`` returns (event data, rule)."""

    def __init__(self, state: GameState, setup: GameSetup, finder: CandidateFinder, action: dict,
                 actor: str | None, is_judge: bool):
        self.state, self.setup, self.finder, self.a = state, setup, finder, action
        self.actor, self.is_judge = actor, is_judge
        self.naming = setup.naming(finder)
        if actor is None and not is_judge:
            raise Forbidden("an action needs a player or the judge")
        if actor is not None and setup.player(actor) is None:
            raise Forbidden(f"{actor!r} is not a player of this game")
        # a player who lost (D8) may still leave the game, taking their objects with them
        lost_leaving = action.get("type") == "leave_game" and actor is not None \
            and state.players[actor].status == LOST
        if actor is not None and not state.in_game(actor) and not lost_leaving:
            raise PlayerOutOfGame(f"{setup.player(actor).name} is no longer in the game")
        self.acting = actor if actor is not None else self._player_field(optional=True, allow_out=True)

    # -- field readers ------------------------------------------------------------------
    def _player_field(self, optional: bool = True, allow_out: bool = False, default_actor: bool = True) -> str | None:
        """The ``player`` field (default: the actor); it must be a player still in the game."""
        pid = self.a.get("player")
        if pid is None:
            pid = self.actor if default_actor else None
            if pid is None and not optional:
                raise InvalidInput("say which player this is for", fields={"player": ["required"]})
            return pid
        if not isinstance(pid, str) or self.setup.player(pid) is None:
            raise InvalidInput(f"no player {pid!r} in this game", fields={"player": ["unknown player"]})
        if not allow_out and not self.state.in_game(pid):
            raise PlayerOutOfGame(f"{self.setup.player(pid).name} is no longer in the game")
        return pid

    def _not_for_another(self, what: str) -> None:
        """A player's token acts for that player only (API.md): a ``player`` field naming
        someone else is the judge's to send."""
        pid = self.a.get("player")
        if not self.is_judge and pid is not None and pid != self.actor:
            raise Forbidden(f"a player can only {what} for themselves")

    def _own_player(self, what: str) -> str:
        """The ``player`` field for actions a player only does for themselves."""
        pid = self._player_field(optional=False)
        if not self.is_judge and pid != self.actor:
            raise Forbidden(f"a player can only {what} for themselves")
        return pid  # type: ignore[return-value]

    def _bool(self, key: str) -> bool | None:
        v = self.a.get(key)
        if v is not None and not isinstance(v, bool):
            raise InvalidInput(f"{key} must be true or false", fields={key: ["expected a boolean"]})
        return v

    def _text(self, key: str) -> str | None:
        v = self.a.get(key)
        if v is None:
            return None
        if not isinstance(v, str) or not v.strip():
            raise InvalidInput(f"{key} must be a non-empty text", fields={key: ["expected a non-empty string"]})
        return v.strip()

    def _via(self) -> str | None:
        v = self.a.get("via")
        if v is not None and v not in VIAS:
            raise InvalidInput(f"unknown via {v!r}", fields={"via": [f"choose one of {', '.join(VIAS)}"]})
        return v

    def _count(self) -> int | None:
        n = self.a.get("count")
        if n is None:
            return None
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InvalidInput("count must be a whole number of at least 1",
                               fields={"count": ["expected an integer >= 1"]})
        return n

    def _card(self, key: str = "card") -> CardState:
        cid = self.a.get(key)
        if cid is None:
            raise InvalidInput(f"{key} is required", fields={key: ["required"]})
        c = self.state.card(cid)
        if c.zone == REMOVED:
            raise CardLeftGame(f"card {cid} has left the game")
        return c

    def _cards(self, allow_count: bool = True) -> list[CardState]:
        """The ``cards`` list, or the top ``count`` cards of the library."""
        ids, count = self.a.get("cards"), self._count() if allow_count else None
        if (ids is None) == (count is None):
            fields = {"cards": ["give cards or count, not both"]} if allow_count else {"cards": ["required"]}
            raise InvalidInput("say which cards", fields=fields)
        if count is not None:
            if count > len(self.state.library):
                raise LibraryEmpty(f"the library has only {len(self.state.library)} card(s)")
            return [self.state.cards[c] for c in self.state.library[:count]]
        if not isinstance(ids, list) or not ids or len(set(map(str, ids))) != len(ids):
            raise InvalidInput("cards must be a non-empty list of distinct card ids",
                               fields={"cards": ["expected a list of distinct ids"]})
        out = [self.state.card(cid) for cid in ids]
        for c in out:
            if c.zone == REMOVED:
                raise CardLeftGame(f"card {c.id} has left the game")
        return out

    def _printed(self, c: CardState) -> Card:
        return self.finder.pool.lookup(c.printed)

    # -- naming helpers -------------------------------------------------------------
    def _check_namer(self, namer: str | None, rule: str, why: str) -> None:
        if not self.is_judge and namer != self.actor:
            who = self.setup.player(namer).name if self.setup.player(namer) else "nobody"
            raise WrongNamer(f"{who} names this card ({why})", rule=rule)

    def _plain_naming(self, c: CardState, name: str, namer: str | None, rule: str) -> dict:
        n = self.naming.resolve(self._printed(c), name, self.state.names)
        return {"name": n.name, "player": namer, "rule": rule, "exception": None}

    def _check_same_name(self, c: CardState, name: str | None) -> None:
        """704.4: a named card keeps its name; giving its own name again is harmless."""
        if name is None or c.named_as is None:
            return
        if fold(name) == fold(c.named_as) or any(n.name == c.named_as
                                                  for n in self.finder.pool.nameables_called(name)):
            return
        raise AlreadyNamed(f"this card is already named {c.named_as}; a named card is never renamed",
                           fields={"name": [f"already named {c.named_as}"]})

    def _face_up_naming(self, c: CardState, name: str | None, via: str, namer: str | None = None,
                        moving_to: str | None = None) -> tuple[dict | None, dict | None]:
        """705.4/705.4a/D8 for an unnamed face-down card turned face up: (naming, game loss)."""
        namer = namer or c.namer
        self._check_namer(namer, "705.4", "its controller names a face-down card turned face up")
        printed = self._printed(c)
        choice = self.naming.face_up_choice(printed, via, self.state.names, c.face_down_seq or 0,
                                            self.setup.opponents(namer), face_down_via=c.face_down_via)
        if name is None:
            if choice.loses:  # D8: the card turns face up unnamed and its player loses...
                loser = c.face_down_by or namer
                departure = self._departure(loser)  # ...and a player who loses leaves the game
                if moving_to is not None and moving_to not in CONTROLLED_ZONES:
                    departure["exiled"] = [cid for cid in departure["exiled"] if cid != c.id]
                return None, {"player": loser, "rule": "705.4a", **departure}
            raise NameRequired(f"name this card as it turns face up; {choice.advice()}", rule="705.4",
                               fields={"name": ["required"]})
        n, exception = self.naming.face_up_name(printed, name, choice)
        return {"name": n.name, "player": namer, "rule": exception or "705.4", "exception": exception}, None

    def _fits_face_down(self, name: str | None, face_down_via: str | None, turn_up_via: str) -> None:
        """705.4: a name a face-down card carries must fit how it was played and how it turns up
        (a card played by morph is a morph card)."""
        type_, keywords = face_up_filter(face_down_via, turn_up_via)
        entries = self.finder.pool.nameables_called(name or "")
        if entries and not any(n.face.fits(type_, *keywords) for n in entries):
            must = " and ".join([f"have {k}" for k in keywords] + ([f"be a {type_}"] if type_ else []))
            raise NotACandidate(f"{name} can't be this face-down card: it must {must}", rule="705.4",
                                fields={"name": [f"must {must}"]})

    # -- actions ------------------------------------------------------------------------
    def _draw(self):
        pid = self._own_player("draw")
        count, printed = self._count(), self._text("printed")
        if count is not None and printed is not None:
            raise InvalidInput("give count or printed, not both", fields={"printed": ["not with count"]})
        if printed is not None:
            if not self.is_judge:
                raise Forbidden("only the judge records which physical card was drawn")
            want = _identity(self.finder, printed)
            hit = next((cid for cid in self.state.library
                        if _identity(self.finder, self.state.cards[cid].printed) == want), None)
            if hit is None:
                raise NotInLibrary(f"no card printed {printed!r} is in the library",
                                   fields={"printed": ["not in the library"]})
            return {"player": pid, "cards": [hit], "printed": self.state.cards[hit].printed}, "702.2"
        count = count or 1
        if count > len(self.state.library):
            raise LibraryEmpty(f"can't draw {count}: the library has {len(self.state.library)} card(s)")
        return {"player": pid, "cards": list(self.state.library[:count])}, "702.2"

    def _move(self):
        c = self._card()
        to = self.a.get("to")
        if to not in MOVE_ZONES:
            raise InvalidInput(f"unknown zone {to!r}", fields={"to": [f"choose one of {', '.join(MOVE_ZONES)}"]})
        player = self._player_field(default_actor=False)
        face_down_asked, pentaland_asked = self._bool("face_down"), self._bool("pentaland")
        name, via = self._text("name"), self._via()
        if not self.is_judge and c.zone != LIBRARY and c.holder != self.actor:
            # Anyone's effect may move another player's public card (bounce, destroy, reanimate),
            # but a bot must not peek: an unrevealed hand card, or a face-down card it would then
            # control, is moved by its holder or recorded by the judge.
            if c.zone == HAND and not c.revealed:
                raise Forbidden("a card in another player's hand is moved by that player (or the judge)")
            if c.face_down and to in CONTROLLED_ZONES:
                raise Forbidden("taking control of another player's face-down card is the judge's to record")
        position = self.a.get("position")
        if position is not None and (to != LIBRARY or position not in ("top", "bottom")):
            raise InvalidInput("position is top or bottom, for the library only",
                               fields={"position": ["top or bottom, with to=library"]})
        src = c.zone

        # 702.2 / 702.2a: owner and controller after the move.
        if to == LIBRARY:
            owner = controller = None
        else:
            if src == LIBRARY:  # the player whose library it is: named, else its revealer or looked-at owner
                owner = player or c.owner or self.actor
                if owner is None:
                    raise InvalidInput("say whose library it leaves", fields={"player": ["required"]})
            else:
                owner = c.owner
                if player is not None and to in (HAND, GRAVEYARD) and player != owner:
                    raise OwnershipRefused(f"a card goes to its owner's {to}, not another player's")
            if to in CONTROLLED_ZONES:
                if src != LIBRARY and player is not None:
                    controller = player
                else:
                    controller = self.actor or player or owner
            else:
                controller = owner

        # 703: playing as a Pentaland, and a Pentaland moving on.
        if pentaland_asked:
            self._check_pentaland(c, to, name, face_down_asked)
            pentaland, face_down = True, True
        elif c.pentaland and to not in HIDDEN_ZONES:
            if face_down_asked is False or name is not None:
                raise PentalandRefused("a Pentaland moving between zones stays face down and unnamed",
                                       rule="703.7")
            pentaland, face_down = True, True
        else:
            pentaland = False  # 703.8 into a hand or the library
            if to in HIDDEN_ZONES:
                face_down = False
            elif to == GRAVEYARD and face_down_asked:
                raise InvalidInput("a card goes face up into a graveyard (only a Pentaland stays face down)",
                                   fields={"face_down": ["not into a graveyard"]})
            elif face_down_asked is not None:
                face_down = face_down_asked
            else:  # a face-down permanent changing control, or a face-down spell resolving, stays so (CR 708.4)
                face_down = c.face_down and (src == to or (src, to) == (STACK, BATTLEFIELD))

        naming, loss = self._move_naming(c, src, to, face_down, pentaland, name, via, owner, controller)
        was_face_down = c.face_down and src not in HIDDEN_ZONES
        if face_down and not was_face_down and not pentaland and c.named_as and via in PLAYED_AS:
            self._fits_face_down(c.named_as, via, "effect")  # a named Shock can't be cast as a morph

        data = {"card": c.id, "from": src, "to": to, "owner": owner, "controller": controller,
                "face_down": face_down, "pentaland": pentaland}
        if to == LIBRARY:
            data["position"] = position or "top"
        if face_down and not was_face_down:
            data["face_down_by"] = self.acting or controller or owner  # who played it so: D8's loser
            if not pentaland:
                data["via"] = via or "effect"
        elif via is not None:
            data["via"] = via
        if naming:
            data["naming"] = naming
        if loss:
            data["game_loss"] = loss
        rule = (naming or {}).get("rule") or ("705.4a" if loss else None) or (
            "703.2" if pentaland_asked else "702.2a" if to == LIBRARY else "702.2" if src == LIBRARY else None)
        return data, rule

    def _check_pentaland(self, c: CardState, to: str, name: str | None, face_down_asked: bool | None) -> None:
        """703.2–703.3: what may be played face down as a Pentaland, and how."""
        if to != BATTLEFIELD:
            raise PentalandRefused("a Pentaland is played onto the battlefield", rule="703.4")
        if name is not None or face_down_asked is False:
            raise PentalandRefused("a Pentaland is played face down and is never named", rule="703.2")
        if c.named_as is not None:
            raise PentalandRefused(f"a named card ({c.named_as}) can't be played as a Pentaland", rule="703.3")
        if c.zone == HAND:
            if not self.is_judge and c.owner != self.actor:
                raise PentalandRefused("a player plays a Pentaland from their own hand", rule="703.2")
            return
        if c.zone == LIBRARY and not c.revealed:
            raise PentalandRefused("a hidden library card can't be played as a Pentaland", rule="703.3")

    def _move_naming(self, c, src, to, face_down, pentaland, name, via, owner, controller):
        """705.1–705.4: the naming a move needs (or allows), checked in the same step."""
        if pentaland:  # never named while it is one (a name was refused above)
            return None, None
        if c.named_as is not None:
            self._check_same_name(c, name)
            return None, None
        face_up_public = to in PUBLIC_ZONES and not face_down
        was_face_down = c.face_down and not c.pentaland and src not in HIDDEN_ZONES
        # CR 708.9/708.10: a face-down permanent or spell leaving its zone is revealed, so it is named
        # like one turned face up, even on its way to a hand or the library.
        if was_face_down and (face_up_public or (src in CONTROLLED_ZONES and to in HIDDEN_ZONES)):
            # turned up by the move itself (it dies, it is bounced): by an effect, not its own ability
            namer = controller if to in CONTROLLED_ZONES else c.namer  # cast face up: its caster
            return self._face_up_naming(c, name, "effect", namer=namer, moving_to=to)
        if to in CONTROLLED_ZONES and not face_down:  # cast from a hand: its player names it (705.1, 705.2)
            needed, namer, why = "705.1", c.owner if src == HAND else controller, \
                "a card cast or put onto the battlefield face up"
        elif src == HAND and face_up_public:
            needed, namer, why = "705.2", c.owner, "an unnamed card leaving a hand face up"
        elif to == GRAVEYARD and face_up_public:
            needed, namer, why = "705.3", owner, "an unnamed card put face up into a graveyard"
        elif to in CONTROLLED_ZONES and face_down and _visible_source(c) and (via is None or via in PLAYED_AS):
            # played face down (cast as a morph...), not put so by an effect like manifest
            needed, namer, why = "705.1", controller, "a card played face down from a visible zone"
        else:
            needed, namer, why = None, self.acting or owner, ""
        if needed:
            self._check_namer(namer, needed, why)
            if name is None:
                raise NameRequired(f"name this card: {why} is named first", rule=needed,
                                   fields={"name": ["required"]})
            naming = self._plain_naming(c, name, namer, needed)
            if face_down:  # a card played by morph must be named as a morph card (705.4)
                self._fits_face_down(naming["name"], via, "effect")
            return naming, None
        if name is None:
            return None, None
        if not self.is_judge and self.actor not in (c.owner, c.controller, owner, controller):
            raise WrongNamer("a player names only cards they own or control", rule="705.6")
        return self._plain_naming(c, name, namer, "704.1"), None  # a name given freely is still checked

    def _name(self):
        c = self._card()
        name = self._text("name")
        if name is None:
            raise InvalidInput("name is required", fields={"name": ["required"]})
        if c.pentaland:
            raise PentalandRefused("a Pentaland is never named while it is one", rule="703.6")
        if c.named_as is not None:
            self._check_same_name(c, name)
            return {"card": c.id, "name": c.named_as, "naming": None}, "704.4"
        if c.face_down and c.zone not in HIDDEN_ZONES:
            raise FaceDownRefused("a face-down card is named only as it is turned face up", rule="705.4")
        if self.is_judge:
            namer = self._player_field() if self.a.get("player") is not None else c.holder
        else:
            self._not_for_another("name a card")
            namer = self.actor
            if self.actor not in (c.owner, c.controller):
                raise WrongNamer("a player names only cards they own or control", rule="705.6")
        return {"card": c.id, "naming": self._plain_naming(c, name, namer, "704.1")}, "704.1"

    def _turn_face_up(self):
        c = self._card()
        self._not_for_another("turn a card face up")
        name, via = self._text("name"), self._via()
        if c.pentaland:
            raise PentalandRefused("a Pentaland is not a face-down permanent; it is not turned face up",
                                   rule="703.6")
        if not c.face_down or c.zone in HIDDEN_ZONES:
            raise FaceDownRefused("this card is not face down", rule="705.4")
        via = c.turn_up_via(via)
        data: dict = {"card": c.id, "via": via}
        if c.named_as is not None:
            self._check_namer(c.namer, "705.4", "its controller turns it face up")
            self._check_same_name(c, name)
            self._fits_face_down(c.named_as, c.face_down_via, via)
            return data, "705.4"
        naming, loss = self._face_up_naming(c, name, via)
        if naming:
            data["naming"] = naming
        if loss:
            data["game_loss"] = loss
        return data, "705.4a" if loss else naming["rule"]

    def _reveal(self):
        pid = self._own_player("reveal")
        continuous = bool(self._bool("continuous"))
        cards = self._cards()
        for c in cards:
            if c.zone not in HIDDEN_ZONES:
                raise InvalidInput(f"card {c.id} is not hidden: only library or hand cards are revealed",
                                   fields={"cards": [f"{c.id} is in the {c.zone}"]})
            if c.zone == HAND and c.owner != pid:
                raise Forbidden("a player reveals only the cards of their own hand")
        return {"cards": [c.id for c in cards], "player": pid, "continuous": continuous}, "702.2b"

    def _look(self):
        pid = self._player_field(optional=False)
        looker = self.actor or pid
        cards = self._cards()
        for c in cards:
            if c.zone not in HIDDEN_ZONES and not c.face_down:
                raise InvalidInput(f"card {c.id} is face up: everybody sees it",
                                   fields={"cards": [f"{c.id} is face up"]})
            # Anyone may look into the shared library (702.2c); another player's hidden card is
            # shown only by an effect the judge records, or a bot could peek at any hand.
            if c.zone != LIBRARY and not self.is_judge and c.holder != looker:
                raise Forbidden("only the judge records a look at another player's hidden card")
        return {"cards": [c.id for c in cards], "player": pid, "looker": looker}, "702.2c"

    def _end_reveal(self):
        return self._ending(lambda c: c.revealed, "revealed"), "702.2b"

    def _end_look(self):
        return self._ending(lambda c: bool(c.looked_by), "looked at"), "702.2c"

    def _ending(self, ongoing, what: str) -> dict:
        """The cards a reveal or look ends for; each must still be under it."""
        cards = self._cards(allow_count=False)
        for c in cards:
            if not ongoing(c):
                raise InvalidInput(f"card {c.id} is not {what}", fields={"cards": [f"{c.id} is not {what}"]})
        return {"cards": [c.id for c in cards]}

    def _leave_game(self):
        pid = self.a.get("player", self.actor)
        if pid is None or self.setup.player(pid) is None:
            raise InvalidInput(f"no player {pid!r} in this game", fields={"player": ["unknown player"]})
        if not self.is_judge and pid != self.actor:
            raise Forbidden("a player can only leave the game themselves")
        if self.state.players[pid].status == LEFT:
            raise PlayerOutOfGame(f"{self.setup.player(pid).name} has already left the game")
        return {"player": pid, **self._departure(pid)}, LEAVE_RULE

    def _departure(self, pid: str) -> dict:
        """What leaves with a player (multiplayer rules): what they own leaves the game, what they
        only control is exiled, library cards they revealed or looked at stay, without them."""
        removed, exiled, released = [], [], []
        for c in self.state.cards.values():
            if c.zone == LIBRARY:
                if pid in (c.revealed_by, c.look_owner) or pid in c.looked_by:
                    released.append(c.id)
            elif c.zone != REMOVED and c.owner == pid:
                removed.append(c.id)
            elif c.zone in CONTROLLED_ZONES and c.controller == pid:
                exiled.append(c.id)
        return {"removed": removed, "exiled": exiled, "released": released}


def _visible_source(c: CardState) -> bool:
    """705.1: is the card seen where it is (a graveyard, face up, or a revealed library card)?"""
    if c.zone == LIBRARY:
        return c.revealed
    if c.zone == HAND:
        return False
    return not c.face_down


def _identity(finder: CandidateFinder, name: str) -> str:
    """The folded name of the printed card ``name`` stands for (any language, any face)."""
    card = finder.pool.find(name)
    return fold(card.name if card is not None else name)
