"""The read model: who may see which card, the questions answerable without naming (705.4,
705.7–705.11), and the game, card, event and name views as plain dicts (docs/api.md's shapes).

The API, the pages and the CLI all read a game through these functions.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable

from .cards import Card, Face, nonland
from .closenames import suggestions
from .commander import commander_cards, identity_of
from .errors import UnknownCard
from .game import Event, Game, GameSetup, GameState, commander_tax
from .grammar import handle_of
from .handles import Viewer, render_event_data, sees, viewer
from .identity import wubrg
from .index import CandidateFinder
from .mana import mana_value_number
from .messages import ALREADY_NAMED, Message
from .names import fold
from .naming import FaceUpChoice, Naming, check_turn_up_via
from .permissions import JUDGE, Caller
from .pool import CardPool
from .rulesets import game_rules, rules_view
from .zones import HAND, LIBRARY, CardState


# -- who sees what ------------------------------------------------------------------------------
def visible_printed(state: GameState, card_id: str, viewer: str | None, is_judge: bool = False) -> bool:
    """May ``viewer`` (a player id) or the judge see which printed card ``card_id`` is?"""
    return sees(state.card(card_id), Caller(viewer, is_judge))


def listed(c: CardState, caller: Caller, shown: Viewer | None = None) -> bool:
    """A game lists the cards out of the library, and library cards the caller may see (through
    ``shown``, when given: a dry run's ``Preview`` sees less)."""
    return c.zone != LIBRARY or (shown.sees(c) if shown is not None else sees(c, caller))


# -- what a card tells without naming ---------------------------------------------------------
def printed_facts(card: Card, named: Face | None = None, pentaland: bool = False) -> dict:
    """705.7–705.9: what a card tells without naming: printed cost, mana value, colours, and whether
    it is known to be nonland (a boolean, D13(b): ``cards.nonland``)."""
    costs = [f.cost for f in card.own_faces]
    known = all(c is not None for c in costs)
    mana_value = sum(c.mana_value for c in costs) if known else None  # a split card's total (709.4)
    colours = {col for c in costs if c is not None for col in c.colours}
    return {
        "mana_cost": card.mana_cost_text,
        "mana_value": mana_value_number(mana_value),  # 1, never 1.0: the card endpoints' type
        "colours": [col for col in "WUBRG" if col in colours],
        "nonland": nonland(card, named, pentaland=pentaland),
    }


def named_face(pool: CardPool, c: CardState) -> Face | None:
    """The face of the card ``c`` is named (704.4), if it is named."""
    if c.named_as is None:
        return None
    return next((n.face for n in pool.nameables_called(c.named_as) if n.name == c.named_as), None)


def shown_name(c: CardState, caller: Caller) -> str | None:
    """D10: a named card played as a Pentaland shows its name only to the judge and its controller."""
    if c.pentaland and not caller.is_judge and caller.player != c.controller:
        return None
    return c.named_as


_FACTS: weakref.WeakKeyDictionary[CardPool, dict[tuple, dict]] = weakref.WeakKeyDictionary()


def facts_of(pool: CardPool, c: CardState) -> dict:
    """``printed_facts`` of card ``c`` as named and played, computed once per (printed card, name,
    Pentaland) (issue 8: the judge's read of a 300-card game computed them for every card of every
    request). Read-only."""
    known = _FACTS.get(pool)
    if known is None:
        known = _FACTS.setdefault(pool, {})
    key = (c.printed, c.named_as, c.pentaland)
    facts = known.get(key)
    if facts is None:  # a pool never changes: the facts of a card so named never do
        facts = known[key] = printed_facts(pool.lookup(c.printed), named_face(pool, c), c.pentaland)
    return facts


def share_a_name(state: GameState, card_ids: list[str]) -> bool:
    """705.10: do these cards share a name? Never while one of them is unnamed (no naming needed)."""
    cards = [state.card(cid) for cid in card_ids]
    if any(c.named_as is None for c in cards):
        return False
    return len({fold(c.named_as) for c in cards}) == 1


def name_taken(state: GameState, finder: CandidateFinder, name: str, carried: Iterable[str] = ()) -> bool:
    """Is ``name`` (English or French) already the name of a card in this game (704.2), or, with
    the names its series' other games took (``carried``, Xom 6), in one of those?"""
    entries = finder.pool.nameables_called(name)
    if not entries:
        raise UnknownCard(name, lambda: suggestions(name, finder.pool))
    taken = state.names.taken_keys()
    return any(n.key in taken or n.key in carried for n in entries)


def could_be(state: GameState, setup: GameSetup, finder: CandidateFinder, player: str, name: str) -> list[str]:
    """705.11: the unnamed cards of ``player``'s hand that could be named ``name`` (none if it is taken)."""
    if name_taken(state, finder, name):
        return []
    taken = state.names.taken_keys()
    naming = Naming.for_game(setup, finder)
    return [c.id for c in state.zone(HAND, player)
            if c.named_as is None and not c.commander_of
            and naming.verdict(finder.pool.lookup(c.printed), name, taken, namer=player).legal]


def face_up_options(state: GameState, setup: GameSetup, finder: CandidateFinder, card_id: str,
                    via: str | None = None) -> FaceUpChoice:
    """705.4/705.4a: the names a face-down card may take if turned face up now by ``via``."""
    c = state.card(card_id)
    check_turn_up_via(c.face_down_via, c.turn_up_via(via))  # D13(d): a cost the card can't have
    return Naming.for_game(setup, finder).face_up_choice(
        finder.pool.lookup(c.printed), c.turn_up_via(via), state.names, c.face_down_seq or 0,
        setup.opponents(c.namer), face_down_via=c.face_down_via, namer=c.namer)


# -- the views: plain dicts in docs/api.md's shapes ------------------------------------------------
def card_view(c: CardState, caller: Caller, pool: CardPool, shown: Viewer | None = None) -> dict:
    """One physical card as ``caller`` may see it: ``printed`` and its facts only where allowed, and
    by the handle ``shown`` gives them where they can't see it (D15)."""
    out = {
        "id": shown.shown(c) if shown is not None else c.id,
        "zone": c.zone, "owner": c.owner, "controller": c.controller,
        # a name is announced when it is given (705.1-705.4) and listed by GET /names: it is public,
        # even once a named card is turned face down (704.4); a Pentaland shows no name (D10)
        "face_down": c.face_down, "pentaland": c.pentaland, "named_as": shown_name(c, caller),
        "revealed": c.revealed,
    }
    # 903.3: a commander in every zone, face down included (D14(a)), to everyone: its card id was
    # public in the command zone, so hiding the flag in a hand would hide nothing
    if c.commander_of:
        out["commander"] = True
    if shown.sees(c) if shown is not None else sees(c, caller):
        if c.former_names:  # MageRing: not to who can't see the card (D15: its names would link its handles)
            out["earlier_names"] = list(c.former_names)
        facts = facts_of(pool, c)
        out["printed"] = c.printed
        out["printed_mana_cost"] = facts["mana_cost"]  # 705.7: answerable without naming
        out["mana_value"] = facts["mana_value"]  # 705.7
        out["colors"] = facts["colours"]  # 705.8
        out["nonland"] = facts["nonland"]  # 705.9
    return out


def commander_ids(setup: GameSetup, pid: str) -> dict:
    """A player's ``commander``: its card id, or a list of the two (partners, or a commander and a
    background: D14(c)); and ``commanders``, every one as a list. Stable ids to every caller: a
    commander starts face up in the command zone (903.6), so its id is public (D15)."""
    ids = setup.commanders_of(pid)
    return {"commander": ids[0] if len(ids) == 1 else list(ids), "commanders": list(ids)} if ids else {}


def commander_view(setup: GameSetup, state: GameState, pid: str, pool: CardPool) -> dict:
    """A player's commander(s) and what 903.8 and 903.10a count for them (D14); nothing outside a
    commander game."""
    if not setup.commanders:
        return {}
    ids, p = setup.commanders_of(pid), state.players[pid]
    identity = identity_of(commander_cards(setup, pool, pid)) if ids else frozenset()
    return {
        **commander_ids(setup, pid),
        "color_identity": wubrg(identity),
        "commander_casts": {cid: p.commander_casts.get(cid, 0) for cid in ids},
        # 903.8: what the next cast from the command zone costs more
        "commander_tax": {cid: commander_tax(p.commander_casts.get(cid, 0)) for cid in ids},
        "commander_damage": dict(sorted(p.commander_damage.items())),
    }


# 704.4's note, as the events stored before it was a code wrote it (always in English)
_OLD_NOTE = re.compile(r"already named (.+) \(704\.4\): no naming")


def said_note(data: dict, said_name: Callable[[str], str] | None = None) -> dict:
    """An event's data with its ``note`` (704.4: a name given again, ``actions.already_named``) as a
    ``Message`` the edge words in its reader's language, the card's name in it too (``said_name``),
    beside ``note_code`` and ``note_params``, what a bot words itself. A note stored as English
    text by older code reads the same."""
    note = data.get("note")
    if isinstance(note, str) and (old := _OLD_NOTE.fullmatch(note)):
        note = {"message_code": ALREADY_NAMED, "params": {"name": old[1]}}
    if not isinstance(note, dict):
        return data
    code, params = note["message_code"], dict(note.get("params") or {})
    shown = {**params, "name": said_name(params["name"])} if said_name and "name" in params else params
    return {**data, "note": Message(code, shown), "note_code": code, "note_params": params}


def event_view(e: Event, caller: Caller, before: GameState | None = None, after: GameState | None = None,
               setup: GameSetup | None = None, said_name: Callable[[str], str] | None = None,
               shown: Viewer | None = None) -> dict:
    """An event as ``caller`` may read it; given the states around it, a card hidden from them
    before and after it shows by a handle of the event's own (D15); ``shown``: their handles in
    ``after``, when not the game's (a dry run's: handles.Preview). ``said_name``: a card's English
    name as the reader's language says it, for the note of 704.4 (``said_note``)."""
    d = e.to_dict()
    if not caller.is_judge:  # the printed identity of a drawn card is the drawer's secret
        d["data"] = {k: v for k, v in d["data"].items() if k != "printed"}
        if after is not None and setup is not None:
            d["data"] = render_event_data(d["data"], before.cards if before else {}, after, e.seq,
                                          shown or viewer(setup, after, caller))
    d["data"] = said_note(d["data"], said_name)
    d["at"] = d.get("at") or ""
    return d


def player_events(setup: GameSetup, events: list[Event], caller: Caller, since: int | None = None,
                  limit: int | None = None, said_name: Callable[[str], str] | None = None) -> list[dict]:
    """A page of the log as a player may read it: each event read between the states around it,
    replayed from the start (D15: who saw a card then decides how it shows). One private state is
    folded in place (replay's way), keeping only the cards each event names as they were before it."""
    out: list[dict] = []
    state = GameState.initial(setup)
    shown = Viewer(setup, state, caller)
    for e in events:
        if limit is not None and len(out) >= limit:
            break
        before = {cid: state.cards[cid].copy() for cid in _card_ids(e.data, state)}
        state.fold_in_place(e)
        if since is None or e.seq > since:
            d = event_view(e, caller, said_name=said_name)
            d["data"] = render_event_data(d["data"], before, state, e.seq, shown)
            out.append(d)
    return out


def _card_ids(value, state: GameState) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(_card_ids(v, state) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_card_ids(v, state) for v in value)) if value else set()
    return {value} if isinstance(value, str) and value in state.cards else set()


class SharedView(dict):
    """A view kept and handed to every caller who asks for it again: never change one. The web edge
    keeps its encoding in ``encoded``, so a game polled at one version is encoded once."""

    __slots__ = ("encoded",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.encoded: bytes | None = None


# A published state is never folded in place (game.py): its views can be kept while it lives.
_VIEWS: weakref.WeakKeyDictionary[GameState, dict] = weakref.WeakKeyDictionary()


def game_view(game: Game, caller: Caller, pool: CardPool) -> dict:
    """The game as ``caller`` may see it; built once per state and caller (the judge and bots poll
    a game far more often than it changes), so the answer is shared: read-only."""
    kept = _VIEWS.get(game.state)
    if kept is None:
        kept = _VIEWS.setdefault(game.state, {})
    key = (game.id, caller.player, caller.is_judge, id(pool))
    view = kept.get(key)
    if view is None:
        view = kept[key] = SharedView(_build_game_view(game, caller, pool))
    return view


def _build_game_view(game: Game, caller: Caller, pool: CardPool) -> dict:
    state = game.state
    handles = handle_of(game.setup)  # the numbers a judge's line reads (`ben cast 3`), fixed for the game
    return {
        "id": game.id,
        "format": game.setup.format,
        "options": game.setup.options,
        "rules": rules_view(game_rules(game.setup.options)),
        "players": [{"id": p.id, "name": p.name, "team": p.team, "status": state.players[p.id].status,
                     **commander_view(game.setup, state, p.id, pool)}
                    for p in game.setup.players],
        "library_size": len(state.library),
        "seq": state.seq,
        "cards": _judge_cards(state, handles, pool) if caller.is_judge else _player_cards(game, caller, handles, pool),
        "you": caller.player if not caller.is_judge else "judge",
        "status": state.status,  # "finished" once one side remains (104.2a) or the judge ended it
        "finished": state.finished,
        "archived": game.archived_at is not None,
        # public at the table: whose turn, and whether a face-down land was played in it (Xom 4a)
        "turn": dict(state.turn) if state.turn else None,
    }


def _judge_cards(state: GameState, handles: dict[str, str], pool: CardPool) -> list[dict]:
    """Every card by its id and number (the judge's read stays as cheap as it was)."""
    return [{**card_view(state.cards[cid], JUDGE, pool), "handle": int(handles[cid])} for cid in sorted(state.cards)]


def _player_cards(game: Game, caller: Caller, handles: dict[str, str], pool: CardPool) -> list[dict]:
    """D15: the cards listed to a player, in the order of the ids shown, and a number only for a card
    they see: a card's place in the library at the start is a place in a deck list that may be public."""
    shown = viewer(game.setup, game.state, caller)
    cards = sorted(((shown.shown(c), c) for c in game.state.cards.values() if listed(c, caller)), key=lambda p: p[0])
    return [{**card_view(c, caller, pool, shown), **({"handle": int(handles[c.id])} if sid == c.id else {})}
            for sid, c in cards]


def names_view(state: GameState, shown: Viewer | None = None) -> list[dict]:
    """Every name taken (704.2), in the order taken: the commanders' from the start (seq 0, rule
    D14(e)), then each naming; public to every player of the game, each card by its id where the
    caller sees it, else by a handle of the record's own (D15)."""
    def card(r) -> str:
        c = state.cards[r.card]
        return r.card if shown is None or shown.sees(c) else shown.in_names(c, r.seq)
    held = [{"name": r.name, "card": card(r), "player": r.player, "seq": 0, "exception": None, "rule": r.rule}
            for r in state.names.from_start]
    return held + [{"name": r.name, "card": card(r), "player": r.player, "seq": r.seq, "exception": r.exception}
                   for r in sorted(state.names.records(), key=lambda r: (r.seq, r.name))]
