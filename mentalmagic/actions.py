"""Deciding: one typed command checked against the state, turned into the event to append.

``decide`` asks permissions.py who acts, then the command's handler (the ``HANDLERS``
table) applies the rules of 702–705 and returns the event's data and rule. Every refusal
is a domain error with its rule; the event carries everything the fold needs, so replay
never re-checks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .cards import Card
from .commands import (
    Command,
    CommanderDamage,
    Draw,
    EndGame,
    EndLook,
    EndReveal,
    LeaveGame,
    Look,
    Move,
    Name,
    Reveal,
    Search,
    Shuffle,
    Turn,
    TurnFaceUp,
)
from .errors import (
    CardLeftGame,
    CommanderRefused,
    FaceDownRefused,
    InvalidInput,
    LibraryEmpty,
    LibraryRefused,
    NameRequired,
    NotACandidate,
    NotInLibrary,
    OwnershipRefused,
    PentalandRefused,
    PlayerOutOfGame,
    ReturnRefused,
    WrongNamer,
)
from .game import LEAVE_RULE, LEFT, PUBLIC_ZONES, Event, GameSetup, GameState, commander_tax, game_losses
from .index import CandidateFinder
from .messages import ALREADY_NAMED, Message, say
from .names import fold
from .naming import PLAYED_AS, Naming, check_turn_up_via, via_word
from .permissions import authorize, for_whom, player_in
from .rulesets import (
    DEFAULT_RULES,
    LandPlay,
    face_down_refusal,
    holds_land_name,
    is_face_card,
    land_play_refusal,
    turn_refusal,
)
from .zones import (
    BATTLEFIELD,
    COMMAND,
    CONTROLLED_ZONES,
    GRAVEYARD,
    HAND,
    HIDDEN_ZONES,
    LIBRARY,
    REMOVED,
    STACK,
    CardState,
)


def decide(state: GameState, setup: GameSetup, finder: CandidateFinder, command: Command,
           actor: str | None, is_judge: bool = False, at: str | None = None) -> Event:
    """Check ``command`` by ``actor`` (or the judge) and return the event to append; raise if refused."""
    acting = authorize(state, setup, actor, is_judge, command)
    ctx = _Context(state, setup, finder, Naming.for_game(setup, finder), actor, is_judge, acting,
                   dict(getattr(command, "names", ())))
    data, rule = HANDLERS[type(command)](ctx, command)
    _check_names_used(ctx.names, data)
    # 104.2a: a finished game records nothing more. Checked last, so that an action the rules refuse
    # anyway (a player who already left) hears its own rule first; deciding changed nothing yet.
    state.check_not_finished()
    if is_judge:
        data["judge"] = True
    return Event(seq=state.seq + 1, type=command.type, player=acting, data=data, rule=rule, at=at)


def _check_names_used(names: Mapping[str, str], data: dict) -> None:
    """D12: ``names`` names the face-down cards turned face up as a player leaves in this action, and
    only those: a name for any other card (not the leaver's, not face down, no card at all) is a 422
    rather than dropped unheard."""
    revealed = {cid for d in game_losses(data) for cid in d.get("revealed", ())}  # the action's, then each loss's
    for cid in names:
        if cid not in revealed:
            raise InvalidInput("names.not_leaving", card=cid,
                               fields={"names": {cid: [say("names.not_leaving.field")]}})


@dataclass(frozen=True)
class _Context:
    """What every handler reads: the game, the naming rules, who acts (already authorised)."""

    state: GameState
    setup: GameSetup
    finder: CandidateFinder
    naming: Naming
    actor: str | None  # the player whose token sent it; None for the judge
    is_judge: bool
    acting: str | None  # the actor, or the player the judge acts for
    # D12: {card: name} for the face-down cards of whoever leaves in this action (leave_game, a loss)
    names: Mapping[str, str] = field(default_factory=dict)

    def card(self, cid: str) -> CardState:
        c = self.state.card(cid)
        if c.zone == REMOVED:
            raise CardLeftGame("card.left_game", card=cid)
        return c

    def cards(self, ids: tuple[str, ...] | None, count: int | None = None) -> list[CardState]:
        """These cards, or the top ``count`` cards of the library (the schema asks for exactly one)."""
        if count is not None:
            if count > len(self.state.library):
                raise LibraryEmpty("library.only", n=len(self.state.library))
            return [self.state.cards[c] for c in self.state.library[:count]]
        return [self.card(cid) for cid in ids or ()]

    def printed(self, c: CardState) -> Card:
        return self.finder.pool.lookup(c.printed)

    # -- naming: who names, and the name checked in the same step ----------------------------
    def check_namer(self, namer: str | None, rule: str, why: Message) -> None:
        if not self.is_judge and namer != self.actor:
            if self.setup.player(namer):
                raise WrongNamer("namer.other", player=self.setup.player(namer).name, why=why, rule=rule)
            raise WrongNamer("namer.nobody", why=why, rule=rule)

    def plain_naming(self, c: CardState, name: str, namer: str | None, rule: str) -> dict:
        n = self.naming.resolve(self.printed(c), name, self.state.names, namer)
        return {"name": n.name, "player": namer, "rule": rule, "exception": None}

    def face_up_naming(self, c: CardState, name: str | None, via: str, namer: str | None = None,
                       moving_to: str | None = None, gone: _Gone | None = None) -> tuple[dict | None, dict | None]:
        """705.4/705.4a/D8 for an unnamed face-down card turned face up: (naming, game loss).
        ``gone``: who already leaves in this action, and what they took (leaving)."""
        namer = namer or c.namer
        self.check_namer(namer, "705.4", say("namer.why.face_up"))
        printed = self.printed(c)
        choice = self.naming.face_up_choice(printed, via, self.state.names, c.face_down_seq or 0,
                                            self.setup.opponents(namer), face_down_via=c.face_down_via,
                                            namer=namer)
        if name is None:
            if choice.loses:  # D8: the card turns face up unnamed and its player loses...
                gone = gone or _Gone()
                loser = c.face_down_by or namer
                if loser in gone.players:  # ...unless they leave in this very action anyway
                    return None, None
                loss = self.loss(loser, "705.4a", gone.with_card(c.id), why=choice.why_no_exception)
                if moving_to is not None and moving_to not in CONTROLLED_ZONES:
                    loss["exiled"] = [cid for cid in loss["exiled"] if cid != c.id]
                if moving_to == LIBRARY:  # nobody owns it there (702.2a): it stays
                    loss["removed"] = [cid for cid in loss["removed"] if cid != c.id]
                return None, loss
            raise NameRequired("name.required_face_up", advice=choice.advice(), rule="705.4",
                               fields={"name": [say("field.required")]})
        n, exception = self.naming.face_up_name(printed, name, choice)
        return {"name": n.name, "player": namer, "rule": exception or "705.4", "exception": exception}, None

    # -- leaving the game: every way out, in one place ------------------------------------------
    def loss(self, pid: str, rule: str, gone: _Gone | None = None, **why) -> dict:
        """``pid`` loses the game (D8, 903.10a), and a player who loses leaves it (multiplayer
        rules, D9; 903.10a's "recorded like D8"): exactly as ``leave_game`` leaves (leaving)."""
        return {"player": pid, "rule": rule, **why, **self.leaving(pid, gone=gone)}

    def leaving(self, pid: str, returned: tuple[str, ...] = (), gone: _Gone | None = None) -> dict:
        """What happens as ``pid`` leaves the game, whichever way (leave_game, a D8 loss, 903.10a):
        what goes with them (800.4a, D9: departure); their face-down permanents and spells that
        leave with them or are exiled (not those ``returned``), revealed as they go and named by
        their controller, the leaver or whoever controls a card the leaver owns (D12: 705.4,
        705.4a; ``names`` of the action); and, when no legal name is left for such a card another
        player played face down, that player's loss (D8), who leaves the same way in turn. Two such
        losses are chained: the second is the first's last ``game_loss``."""
        before = gone or _Gone()
        out = self.departure(pid, returned, exiled_not=before.removed)
        gone = _Gone(before.players | {pid}, before.removed | set(out["removed"]),
                     before.settled | set(out["removed"]) | set(out["exiled"]))
        revealed, namings, loss = [], {}, None
        face_cards = self.naming.rules is not None and self.naming.rules.renamed_on_return  # MageRing: named by nobody
        for cid in () if face_cards else (*out["removed"], *out["exiled"]):
            c = self.state.cards[cid]
            if cid in before.settled or c.zone not in CONTROLLED_ZONES or not c.face_down or c.pentaland \
                    or c.commander_of or c.named_as:
                continue
            revealed.append(cid)
            namer = c.controller if c.controller not in gone.players and self.state.in_game(c.controller) else pid
            try:
                naming, lost = self.face_up_naming(c, self.names.get(cid), "effect", namer=namer, gone=gone)
            except NameRequired as e:
                if "names" in (e.fields or {}):  # a card of the player this one costs the game (D8): said so
                    raise
                said = Message("name.required_leaving", {**e.said.params, "card": cid})  # which card: D12
                raise NameRequired(said, rule=e.rule, fields={"names": {cid: [say("field.required")]}}) from None
            if naming:
                namings[cid] = naming
            elif lost:
                if loss is None:
                    loss = lost
                else:
                    game_losses(loss)[-1]["game_loss"] = lost
                for d in game_losses(lost):
                    gone = _Gone(gone.players | {d["player"]}, gone.removed | set(d["removed"]),
                                 gone.settled | set(d["removed"]) | set(d["exiled"]))
        if revealed:
            out["revealed"], out["namings"] = revealed, namings
        if loss:
            out["game_loss"] = loss
        return out

    def departure(self, pid: str, returned: tuple[str, ...] = (), exiled_not: frozenset[str] = frozenset()) -> dict:
        """What leaves with a player (multiplayer rules, D9): what they own leaves the game, what
        they control only through a control-changing effect (``returned``) goes back to its owner's
        control, what else they control is exiled (not what an earlier leaver of the same action
        took out of the game: ``exiled_not``), library cards they revealed or looked at stay,
        without them."""
        removed, exiled, released = [], [], []
        for c in self.state.cards.values():
            if c.zone == LIBRARY:
                if pid in (c.revealed_by, c.look_owner) or pid in c.looked_by:
                    released.append(c.id)
            elif c.zone != REMOVED and c.owner == pid:
                removed.append(c.id)
            elif c.zone in CONTROLLED_ZONES and c.controller == pid and c.id not in returned \
                    and c.id not in exiled_not:
                exiled.append(c.id)
        out = {"removed": removed, "exiled": exiled, "released": released}
        if returned:
            out["returned"] = list(returned)
        return {**out, **self.names_dropped([*removed, *exiled])}

    def names_dropped(self, ids: list[str]) -> dict:
        """MageRing's "face cards": these cards leave the battlefield and the stack for exile or
        out of the game, and drop their names there; {} under the other rule sets."""
        rules = self.naming.rules
        if rules is None or not rules.renamed_on_return:
            return {}
        dropped = [cid for cid in ids if self.state.cards[cid].named_as is not None]
        return {"unnamed": dropped, "unnamed_rule": rules.cite("face_cards")} if dropped else {}


@dataclass(frozen=True)
class _Gone:
    """Who already leaves in the action being decided (a leaver, then a player their cards cost the
    game), the cards they took out of the game, and the cards already turned up as they left."""

    players: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()
    settled: frozenset[str] = frozenset()

    def with_card(self, cid: str) -> _Gone:
        return _Gone(self.players, self.removed, self.settled | {cid})


# -- the handlers: one per command type -------------------------------------------------------
def _draw(ctx: _Context, cmd: Draw):
    pid = for_whom(ctx.state, ctx.setup, ctx.actor, cmd)
    if cmd.printed is not None:
        want = _identity(ctx.finder, cmd.printed)
        hit = next((cid for cid in ctx.state.library
                    if _identity(ctx.finder, ctx.state.cards[cid].printed) == want), None)
        if hit is None:
            raise NotInLibrary("library.no_printed", printed=cmd.printed,
                               fields={"printed": [say("library.no_printed.field")]})
        return {"player": pid, "cards": [hit], "printed": ctx.state.cards[hit].printed}, "702.2"
    count = cmd.count or 1
    if count > len(ctx.state.library):
        raise LibraryEmpty("library.cannot_draw", count=count, n=len(ctx.state.library))
    return {"player": pid, "cards": list(ctx.state.library[:count])}, "702.2"


def _move(ctx: _Context, cmd: Move):
    c = ctx.card(cmd.card)
    to, player, name, via = cmd.to, cmd.player, cmd.name, cmd.via
    face_down_asked, pentaland_asked = cmd.face_down, cmd.pentaland
    src = c.zone
    if to == COMMAND:
        return _to_command_zone(ctx, c, cmd)
    if src == LIBRARY:
        _check_not_searched(ctx, c)
    if c.commander_of and src == COMMAND and to == STACK:
        _check_brought_by(ctx, c, "903.8", "brought_by.casts")
    if c.commander_of and pentaland_asked:
        raise CommanderRefused("commander.no_pentaland", rule="903.3")

    # 702.2 / 702.2a: owner and controller after the move.
    if to == LIBRARY:
        owner = controller = None
    else:
        if src == LIBRARY:  # the player whose library it is: named, else its revealer or looked-at owner
            owner = player or c.owner or ctx.actor
            if owner is None:
                raise InvalidInput("library.whose", fields={"player": [say("field.required")]})
        else:
            owner = c.owner
            if player is not None and to in (HAND, GRAVEYARD) and player != owner:
                raise OwnershipRefused("ownership.hand" if to == HAND else "ownership.graveyard")
        if to in CONTROLLED_ZONES:
            if src != LIBRARY and player is not None:
                controller = player
            else:
                controller = ctx.actor or player or owner
        else:
            controller = owner

    # 703: playing as a Pentaland, and a Pentaland moving on.
    if pentaland_asked:
        _check_pentaland(ctx, c, to, name, face_down_asked)
        pentaland, face_down = True, True
    elif c.pentaland and to not in HIDDEN_ZONES:
        if face_down_asked is False or name is not None:
            raise PentalandRefused("pentaland.moving", rule="703.7")
        pentaland, face_down = True, True
    else:
        pentaland = False  # 703.8 into a hand or the library
        if to in HIDDEN_ZONES:
            face_down = False
        elif to == GRAVEYARD and face_down_asked:
            raise InvalidInput("graveyard.face_up", fields={"face_down": [say("graveyard.face_up.field")]})
        elif face_down_asked is not None:
            face_down = face_down_asked
        else:  # a face-down permanent changing control, or a face-down spell resolving, stays so (CR 708.4)
            face_down = c.face_down and (src == to or (src, to) == (STACK, BATTLEFIELD))

    if face_down and not pentaland and via is not None:
        _check_face_down_via(ctx, via)
    unnamed = _face_card(ctx, c, to, name)
    naming, loss = _move_naming(ctx, c, src, to, face_down, pentaland, name, via, owner, controller) \
        if unnamed is None else (None, None)
    was_face_down = c.face_down and src not in HIDDEN_ZONES
    if face_down and not was_face_down and not pentaland and c.named_as and via in PLAYED_AS:
        ctx.naming.check_fits_face_down(c.named_as, via, "effect")  # a named Shock can't be cast as a morph

    data = {"card": c.id, "from": src, "to": to, "owner": owner, "controller": controller,
            "face_down": face_down, "pentaland": pentaland}
    if to == LIBRARY:
        data["position"] = cmd.position or "top"
    if face_down and not was_face_down:
        data["face_down_by"] = ctx.acting or controller or owner  # who played it so: D8's loser
        if not pentaland:
            data["via"] = via or "effect"
    elif via is not None:
        data["via"] = via
    if _turned_up_by_move(c, src, to, face_down) and src in CONTROLLED_ZONES:
        data["revealed"] = "D12"  # CR 708.9: revealed as it leaves, so named as it turns up (705.4)
    if naming:
        data["naming"] = naming
    else:
        data.update(_repeated_name(c, name))
    if loss:
        data["game_loss"] = loss
    rule = (naming or {}).get("rule") or ("705.4a" if loss else None) or _move_rule(
        c, src, to, pentaland_asked, pentaland, face_down and not was_face_down)
    if unnamed:
        data["unnamed"] = unnamed
        rule = rule or unnamed["rule"]
    if pentaland_asked and c.named_as is None and ctx.naming.rules is not None and ctx.naming.rules.land.takes_name:
        data["land_name"] = ctx.naming.rules.land.name  # Xom 4: "name and play ... as Utopia"
    if c.commander_of and src == COMMAND and to == STACK:  # cast from the command zone: 903.8's tax
        count = ctx.state.players[c.commander_of].commander_casts.get(c.id, 0) + 1
        data["commander_cast"] = {"player": c.commander_of, "count": count, "tax": commander_tax(count - 1)}
        rule = "903.8"
    return data, rule


def _face_card(ctx: _Context, c: CardState, to: str, name: str | None) -> dict | None:
    """MageRing's "face cards": going anywhere but the battlefield or the stack, a card is its printed
    card there, so it takes no name (705.2, 705.3 and D12 name nothing) and drops the one it had,
    which stays taken: back on the battlefield or the stack it is named anew, as another card (its
    "once per game"). The name dropped and the rule ({} when it had none); None under the other
    rule sets, or where the card goes on as named."""
    rules = ctx.naming.rules
    if rules is None or not is_face_card(rules, to):
        return None
    rule = rules.cite("face_cards")
    if name is not None:
        raise NotACandidate("rules.face_card", name=name, rule=rule,
                            fields={"name": [say("rules.face_card.field", name=name)]})
    return {"name": c.named_as, "rule": rule} if c.named_as is not None else {}


def _move_rule(c: CardState, src: str, to: str, pentaland_asked: bool, pentaland: bool,
               turned_down: bool) -> str | None:
    """The rule of a move that names nothing: a Pentaland played (703.2), moving on face down (703.7)
    or into a hand or the library, where it stops being one (703.8); a card into or out of the
    library (702.2a, 702.2); a card played face down, a 2/2 without name, cost or colour (708.2)."""
    if pentaland_asked:
        return "703.2"
    if c.pentaland:
        return "703.7" if pentaland else "703.8"
    if to == LIBRARY:
        return "702.2a"
    if src == LIBRARY:
        return "702.2"
    return "708.2" if turned_down else None


def _to_command_zone(ctx: _Context, c: CardState, cmd: Move):
    """903.9a/903.9b (D14(c)): a commander put into a graveyard or exile, or that would go to a hand
    or the library, may go to the command zone instead; that is its owner's choice. No other card
    goes there."""
    if not c.commander_of:
        raise CommanderRefused("command_zone.not_commander", rule="903.9a")
    if c.zone == COMMAND:
        raise InvalidInput("command_zone.already", fields={"to": [say("command_zone.already.field")]})
    rule = "903.9b" if c.zone in (HAND, LIBRARY) else "903.9a"
    if cmd.name is not None:
        raise CommanderRefused("commander.never_named", rule="903.3")
    if cmd.face_down or cmd.pentaland:
        raise InvalidInput("command_zone.face_up", fields={"face_down" if cmd.face_down else "pentaland":
                                                           [say("command_zone.face_up.field")]})
    _check_brought_by(ctx, c, rule, "brought_by.command_zone")
    owner = c.commander_of  # back where it started (903.6), its player's
    return {"card": c.id, "from": c.zone, "to": COMMAND, "owner": owner, "controller": owner,
            "face_down": False, "pentaland": False}, rule


def _check_brought_by(ctx: _Context, c: CardState, rule: str, what: str) -> None:
    """D14(f): whoever owns a commander under 702, the player who brought it is its owner for 903
    (``what``: the message code of the refusal)."""
    if not ctx.is_judge and ctx.actor != c.commander_of:
        raise CommanderRefused(what, player=ctx.setup.player(c.commander_of).name, rule=rule)


def _check_not_searched(ctx: _Context, c: CardState) -> None:
    """701.1a (its decision): a player moves out of the library only its top card or cards revealed
    or looked at by them; picking another is a search. The judge may record any move."""
    if ctx.is_judge or c.id == ctx.state.library[0] or c.revealed or ctx.actor in c.looked_by:
        return
    raise LibraryRefused("library.top_only", fields={"card": [say("library.top_only.field")]})


def _check_face_down_via(ctx: _Context, via: str) -> None:
    """A rule set that bans a way of making face-down cards refuses it (Xom 6b; MageRing strips morph)."""
    rules = ctx.naming.rules
    rule = face_down_refusal(rules, via) if rules is not None else None
    if rule is not None:
        raise FaceDownRefused("rules.face_down_refused", rule=rule, via=via_word(via), rules=rules.key)


def _check_pentaland(ctx: _Context, c: CardState, to: str, name: str | None, face_down_asked: bool | None) -> None:
    """703.2–703.3: what may be played face down as a Pentaland, and how; a variant's own land
    under its own rule (rulesets.land_play_refusal)."""
    rules = ctx.naming.rules
    if rules is not None and rules.key != DEFAULT_RULES:
        named = c.named_as is not None and not holds_land_name(rules.land, c.named_as)  # Xom 3b: a Utopia stays one
        turn = ctx.state.turn  # Xom 4, 4a: read only where the judge keeps turns
        play = LandPlay(zone=c.zone, to=to, named=named, face_down=c.face_down,
                        revealed=bool(c.revealed), own=c.owner == ctx.actor, by_judge=ctx.is_judge, name_given=name,
                        active=turn["player"] if turn else None,
                        player=ctx.acting if ctx.acting is not None else (turn["player"] if turn else None),
                        played_this_turn=bool(turn and turn["land"]))
        for_turn = turn_refusal(rules.land, play) if face_down_asked is not False else None
        if for_turn is not None:  # said as such: whose turn it is, or a second one this turn
            raise PentalandRefused(for_turn[1], rule=for_turn[0], land=rules.land.name)
        rule = land_play_refusal(rules.land, play) if face_down_asked is not False else rules.land.rule
        if rule is not None:
            raise PentalandRefused("rules.land_refused", rule=rule, land=rules.land.name, rules=rules.key)
        return
    if to != BATTLEFIELD:
        raise PentalandRefused("pentaland.battlefield", rule="703.4")
    if name is not None or face_down_asked is False:
        raise PentalandRefused("pentaland.face_down", rule="703.2")
    if c.zone == HAND:  # any card of the hand, a named one included: it keeps its name (D10, 704.4)
        if not ctx.is_judge and c.owner != ctx.actor:
            raise PentalandRefused("pentaland.own_hand", rule="703.2")
        return
    if c.zone == LIBRARY and not c.revealed:
        raise PentalandRefused("pentaland.hidden", rule="703.3")
    if c.named_as is not None and not c.face_down:  # 703.3 as written: an unnamed face-up card (D10)
        raise PentalandRefused("pentaland.named", name=c.named_as, rule="703.3")


def _move_naming(ctx: _Context, c: CardState, src, to, face_down, pentaland, name, via, owner, controller):
    """705.1–705.4: the naming a move needs (or allows), checked in the same step."""
    if c.commander_of:
        _never_named(name)
        return None, None
    if pentaland:  # never named while it is one (a name was refused above)
        return None, None
    if c.named_as is not None:
        ctx.naming.check_same_name(c.named_as, name)
        return None, None
    face_up_public = to in PUBLIC_ZONES and not face_down
    if _turned_up_by_move(c, src, to, face_down):
        # turned up by the move itself (it dies, it is bounced): by an effect, not its own ability;
        # cast face up: its caster; else its controller, or its owner once the controller has left (D12)
        namer = controller if to in CONTROLLED_ZONES else _d12_namer(ctx.state, c)
        return ctx.face_up_naming(c, name, "effect", namer=namer, moving_to=to)
    if to in CONTROLLED_ZONES and not face_down:  # cast from a hand: its player names it (705.1, 705.2)
        needed, namer, why = "705.1", c.owner if src == HAND else controller, say("namer.why.cast")
    elif src == HAND and face_up_public:
        needed, namer, why = "705.2", c.owner, say("namer.why.hand")
    elif to == GRAVEYARD and face_up_public:
        needed, namer, why = "705.3", owner, say("namer.why.graveyard")
    elif to in CONTROLLED_ZONES and face_down and _visible_source(c) and (via is None or via in PLAYED_AS):
        # played face down (cast as a morph...), not put so by an effect like manifest
        needed, namer, why = "705.1", controller, say("namer.why.face_down")
    else:
        needed, namer, why = None, ctx.acting or owner, None
    if needed:
        ctx.check_namer(namer, needed, why)
        if name is None:
            raise NameRequired("name.required", why=why, rule=needed, fields={"name": [say("field.required")]})
        naming = ctx.plain_naming(c, name, namer, needed)
        if face_down:  # a card played by morph must be named as a morph card (705.4)
            ctx.naming.check_fits_face_down(naming["name"], via, "effect")
        return naming, None
    if name is None:
        return None, None
    if not ctx.is_judge and ctx.actor not in (c.owner, c.controller, owner, controller):
        raise WrongNamer("namer.own_or_control", rule="705.6")
    return ctx.plain_naming(c, name, namer, "704.1"), None  # a name given freely is still checked


def _turned_up_by_move(c: CardState, src: str, to: str, face_down: bool) -> bool:
    """Is a face-down card turned face up by this move itself, and so named under 705.4/705.4a?

    Face up into a public zone, it is. D12: a face-down permanent or spell leaving the battlefield
    or the stack for any other zone (a hand, a graveyard, exile, the library; a countered spell) is
    revealed as it moves (CR 708.9) and named like a morph that dies. Not so a card an effect moves
    face down (exiled face down: ``face_down`` on the move), nor a Pentaland (703.6, 703.7).
    """
    if not c.face_down or c.pentaland or src in HIDDEN_ZONES or face_down:
        return False
    return to in PUBLIC_ZONES or (src in CONTROLLED_ZONES and to not in CONTROLLED_ZONES)


def _d12_namer(state: GameState, c: CardState) -> str | None:
    """705.4, D12: a face-down card turned up names its controller, or its owner once the controller
    has left the game."""
    return c.namer if c.controller is None or state.in_game(c.controller) else c.owner


def _repeated_name(c: CardState, name: str | None) -> dict:
    """704.4: an action that gives a named card its own name again names nothing; the event says so."""
    if name is None or c.named_as is None:
        return {}
    return {"naming": None, "note": say(ALREADY_NAMED, name=c.named_as).as_json()}


def _never_named(name: str | None) -> None:
    """D14(a): a commander is played as itself; it takes no name."""
    if name is not None:
        raise CommanderRefused("commander.never_named", rule="903.3")


def _name(ctx: _Context, cmd: Name):
    c = ctx.card(cmd.card)
    if c.commander_of:
        _never_named(cmd.name)
    if c.pentaland:
        raise PentalandRefused("pentaland.never_named", rule="703.6")
    if c.named_as is not None:
        ctx.naming.check_same_name(c.named_as, cmd.name)
        return {"card": c.id, "name": c.named_as, **_repeated_name(c, cmd.name)}, "704.4"
    if c.face_down and c.zone not in HIDDEN_ZONES:
        raise FaceDownRefused("face_down.named_when_up", rule="705.4")
    _face_card(ctx, c, c.zone, cmd.name)  # MageRing: its printed card here takes no name
    rule = "705.5" if cmd.choice else "704.1"
    if ctx.is_judge:
        namer = cmd.player if cmd.player is not None else c.holder
    else:
        namer = ctx.actor
        # D11: an effect has the chooser name a card revealed to them (permissions.py checked the
        # reveal), though they neither own nor control it
        if ctx.actor not in (c.owner, c.controller) and not cmd.choice:
            raise WrongNamer("namer.own_or_control_choice", rule="705.6")
    data = {"card": c.id, "naming": ctx.plain_naming(c, cmd.name, namer, rule)}
    if cmd.choice:
        data["choice"] = True
    return data, rule


def _turn_face_up(ctx: _Context, cmd: TurnFaceUp):
    c = ctx.card(cmd.card)
    if c.pentaland:
        raise PentalandRefused("pentaland.not_turned_up", rule="703.6")
    if not c.face_down or c.zone in HIDDEN_ZONES:
        raise FaceDownRefused("face_down.not", rule="705.4")
    via = c.turn_up_via(cmd.via)
    check_turn_up_via(c.face_down_via, via)
    _check_face_down_via(ctx, via)
    data: dict = {"card": c.id, "via": via}
    if _face_card(ctx, c, c.zone, cmd.name) is not None:  # MageRing: face up in exile, it is its printed card
        return data, ctx.naming.rules.cite("face_cards")
    if c.commander_of:  # turned face up as itself, unnamed (D14(a))
        ctx.check_namer(c.namer, "705.4", say("namer.why.turns_up"))
        _never_named(cmd.name)
        return data, "903.3"
    if c.named_as is not None:
        ctx.check_namer(c.namer, "705.4", say("namer.why.turns_up"))
        ctx.naming.check_same_name(c.named_as, cmd.name)
        ctx.naming.check_fits_face_down(c.named_as, c.face_down_via, via)
        return {**data, **_repeated_name(c, cmd.name)}, "705.4"
    naming, loss = ctx.face_up_naming(c, cmd.name, via)
    if naming:
        data["naming"] = naming
    if loss:
        data["game_loss"] = loss
    return data, "705.4a" if loss else naming["rule"]


def _reveal(ctx: _Context, cmd: Reveal):
    pid = for_whom(ctx.state, ctx.setup, ctx.actor, cmd)
    cards = ctx.cards(cmd.cards, cmd.count)
    for c in cards:
        if c.zone not in HIDDEN_ZONES:
            raise InvalidInput("reveal.not_hidden", card=c.id,
                               fields={"cards": [say("reveal.not_hidden.field", card=c.id)]})
    return {"cards": [c.id for c in cards], "player": pid, "continuous": cmd.continuous}, "702.2b"


def _look(ctx: _Context, cmd: Look):
    pid = for_whom(ctx.state, ctx.setup, ctx.actor, cmd)
    cards = ctx.cards(cmd.cards, cmd.count)
    for c in cards:
        if c.zone not in HIDDEN_ZONES and not c.face_down:
            raise InvalidInput("look.face_up", card=c.id, fields={"cards": [say("look.face_up.field", card=c.id)]})
    return {"cards": [c.id for c in cards], "player": pid, "looker": ctx.actor or pid}, "702.2c"


def _ending(ctx: _Context, ids: tuple[str, ...], ongoing: Callable[[CardState], bool], what: str) -> dict:
    """The cards a reveal or look ends for; each must still be under it (``what``: the message code)."""
    cards = ctx.cards(ids)
    for c in cards:
        if not ongoing(c):
            raise InvalidInput(what, card=c.id, fields={"cards": [say(what, card=c.id)]})
    return {"cards": [c.id for c in cards]}


def _end_reveal(ctx: _Context, cmd: EndReveal):
    return _ending(ctx, cmd.cards, lambda c: c.revealed, "reveal.not_revealed"), "702.2b"


def _end_look(ctx: _Context, cmd: EndLook):
    return _ending(ctx, cmd.cards, lambda c: bool(c.looked_by), "look.not_looked"), "702.2c"


def _leave_game(ctx: _Context, cmd: LeaveGame):
    pid = cmd.player if cmd.player is not None else ctx.actor
    if ctx.state.players[pid].status == LEFT:
        raise PlayerOutOfGame("player.already_left", player=ctx.setup.player(pid).name)
    for cid in cmd.returned:
        c = ctx.card(cid)
        if c.zone not in CONTROLLED_ZONES or c.controller != pid or c.owner == pid:
            why = "return.owns" if c.owner == pid else "return.not_controlled"
            raise ReturnRefused(why, card=cid, player=ctx.setup.player(pid).name,
                                fields={"returned": [say(why + ".field", card=cid)]})
    return {"player": pid, **ctx.leaving(pid, cmd.returned)}, LEAVE_RULE


def _shuffle(ctx: _Context, cmd: Shuffle):
    """701.1b: a shuffle is replaced by a cut; the point is in the event, so the fold draws nothing."""
    pid = for_whom(ctx.state, ctx.setup, ctx.actor, cmd)
    size = len(ctx.state.library)
    at = cmd.at if cmd.at is not None else cmd.random_at
    if at is None:
        raise InvalidInput("cut.needs_point", fields={"at": [say("field.required")]})
    if not 0 <= at <= size:  # 701.1a's decision: a cut at 0 or at the size is recorded and changes nothing
        raise InvalidInput("cut.range", n=size, fields={"at": [say("cut.range.field", n=size)]})
    return {"player": pid, "at": at, "random": cmd.at is None, "library_size": size}, "701.1b"


def _search(ctx: _Context, cmd: Search):
    raise LibraryRefused("library.no_search")


def _end_game(ctx: _Context, cmd: EndGame):
    """The judge's end (permissions: judge only); no winner is recorded, the fold marks it finished."""
    return {"winners": []}, None


COMMANDER_DAMAGE_LOSS = 21  # 903.10a


def _commander_damage(ctx: _Context, cmd: CommanderDamage):
    """903.10a (D14(d)): combat damage from one commander, totalled; at 21 the player loses and leaves.
    Only a commander on the battlefield deals combat damage: one on the stack, in a hand or in the
    command zone deals none."""
    pid = player_in(ctx.state, ctx.setup, cmd.player)  # the schema asks for it
    c = ctx.card(cmd.commander)
    if not c.commander_of:
        raise CommanderRefused("commander_damage.not_commander", rule="903.10a")
    if c.zone != BATTLEFIELD:  # 903.10a: combat damage, dealt by a creature on the battlefield
        raise CommanderRefused("commander_damage.not_on_battlefield", rule="903.10a")
    total = ctx.state.players[pid].commander_damage.get(c.id, 0) + cmd.amount
    data: dict = {"player": pid, "commander": c.id, "amount": cmd.amount, "total": total}
    if total >= COMMANDER_DAMAGE_LOSS:  # recorded like D8; a player who loses leaves the game
        data["game_loss"] = ctx.loss(pid, "903.10a")
    return data, "903.10a"


def _turn(ctx: _Context, cmd: Turn):
    """A new turn (issue 32): the active player, still in the game, and the turn's number, the last
    one's and one unless given. Turns are a record the judge may keep; a rule set reads them (Xom 4)."""
    pid = player_in(ctx.state, ctx.setup, cmd.player or ctx.actor)
    last = ctx.state.turn
    number = cmd.number if cmd.number is not None else (last["number"] + 1 if last else 1)
    return {"player": pid, "number": number}, None


HANDLERS: dict[type[Command], Callable[[_Context, Command], tuple[dict, str | None]]] = {
    Draw: _draw, Move: _move, Name: _name, TurnFaceUp: _turn_face_up, Reveal: _reveal, Look: _look,
    EndReveal: _end_reveal, EndLook: _end_look, LeaveGame: _leave_game, Shuffle: _shuffle, Search: _search,
    EndGame: _end_game, CommanderDamage: _commander_damage, Turn: _turn,
}


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
