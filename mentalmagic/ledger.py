"""The game ledger's public face: a game is its setup plus an append-only list of events.

``decide`` (actions.py) checks one action against the state and returns the event to
append; ``GameState.apply_event`` (game.py) folds it. The queries below read a state
without changing it (705.4, 705.7–705.11, who may see what).
"""

from __future__ import annotations

from .actions import decide
from .cards import Card
from .errors import (
    UnknownCard,
)
from .game import (
    ACTION_TYPES,
    IN_GAME,
    LEAVE_RULE,
    LEFT,
    LOST,
    Event,
    GameSetup,
    GameState,
    Player,
    check_setup,
    replay,
    undo,
)
from .index import CandidateFinder
from .names import fold
from .registry import FaceUpChoice
from .zones import (
    HAND,
)

__all__ = ["ACTION_TYPES", "IN_GAME", "LEAVE_RULE", "LEFT", "LOST", "Event", "GameSetup", "GameState", "Player",
           "check_setup", "could_be", "decide", "face_up_options", "name_taken", "printed_facts", "replay",
           "share_a_name",
           "undo",
           "visible_printed"]


# -- reading the state ----------------------------------------------------------------
def visible_printed(state: GameState, card_id: str, viewer: str | None, is_judge: bool = False) -> bool:
    """May ``viewer`` see which printed card ``card_id`` is?"""
    return state.card(card_id).visible_to(viewer, is_judge)


def printed_facts(card: Card) -> dict:
    """705.7–705.9: what an unnamed card tells without naming: printed cost, mana value, colours."""
    costs = [f.cost for f in card.own_faces]
    known = all(c is not None for c in costs)
    mana_value = sum(c.mana_value for c in costs) if known else None  # a split card's total (709.4)
    colours = {col for c in costs if c is not None for col in c.colours}
    has_cost = any(c is not None and not c.is_none for c in costs)
    return {
        "mana_cost": card.mana_cost_text,
        "mana_value": mana_value,
        "colours": [col for col in "WUBRG" if col in colours],
        "nonland": True if has_cost else None,  # 705.9 answers only for a non-empty cost
    }


def share_a_name(state: GameState, card_ids: list[str]) -> bool:
    """705.10: do these cards share a name? Never while one of them is unnamed (no naming needed)."""
    cards = [state.card(cid) for cid in card_ids]
    if any(c.named_as is None for c in cards):
        return False
    return len({fold(c.named_as) for c in cards}) == 1


def name_taken(state: GameState, finder: CandidateFinder, name: str) -> bool:
    """Is ``name`` (English or French) already the name of a card in this game (704.2)?"""
    entries = finder.pool.nameables_called(name)
    if not entries:
        raise UnknownCard(name)
    taken = state.names.taken_keys()
    return any(n.key in taken for n in entries)


def could_be(state: GameState, setup: GameSetup, finder: CandidateFinder, player: str, name: str) -> list[str]:
    """705.11: the unnamed cards of ``player``'s hand that could be named ``name`` (none if it is taken)."""
    if name_taken(state, finder, name):
        return []
    taken = state.names.taken_keys()
    naming = setup.naming(finder)
    return [c.id for c in state.zone(HAND, player)
            if c.named_as is None and naming.verdict(finder.pool.lookup(c.printed), name, taken).legal]


def face_up_options(state: GameState, setup: GameSetup, finder: CandidateFinder, card_id: str,
                    via: str | None = None) -> FaceUpChoice:
    """705.4/705.4a: the names a face-down card may take if turned face up now by ``via``."""
    c = state.card(card_id)
    return setup.naming(finder).face_up_choice(
        finder.pool.lookup(c.printed), c.turn_up_via(via), state.names, c.face_down_seq or 0,
        setup.opponents(c.namer), face_down_via=c.face_down_via)
