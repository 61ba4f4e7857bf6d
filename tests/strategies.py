"""Hypothesis strategies for the ledger: a small game, and plausible typed commands against a state
(imported as ``strategies``: pytest puts tests/ on sys.path). Plausible, not valid: many are refused,
which is the point — a refusal must leave nothing behind."""

from __future__ import annotations

from hypothesis import strategies as st

from mentalmagic.commands import (
    Command,
    Draw,
    EndGame,
    EndLook,
    EndReveal,
    LeaveGame,
    Look,
    Move,
    Name,
    Reveal,
    Shuffle,
    TurnFaceUp,
)
from mentalmagic.errors import ArbiterError
from mentalmagic.game import GameSetup, GameState, Player
from mentalmagic.index import CandidateFinder
from mentalmagic.names import fold
from mentalmagic.views import face_up_options
from mentalmagic.zones import MOVE_ZONES, REMOVED, VIAS

PLAYERS = (Player("ana", "Ana"), Player("bob", "Bob"), Player("cid", "Cid"))
# Cards that share costs, so names collide: {R}, {4}{G}{G}, {3}{U}{U}, {1}{R}/{1}{U}, {G}, {W}...;
# {R} morphs and {R} spells compete for the same few names (704.2, 705.4a)
LIBRARY = (
    "Savannah Lions", "Shock", "Fire // Ice", "Rise of the Hobgoblins", "Vesuvan Shapeshifter",
    "Root Elemental", "Goblin Taskmaster", "Warbreak Trumpeter", "Lightning Bolt", "Craw Wurm",
    "Air Elemental", "Lightning Strike", "Mana Leak", "Shock", "Lightning Bolt",
    "Grizzly Bears", "Counterspell", "Llanowar Elves", "Giant Growth", "Craw Wurm",
)
SETUP = GameSetup("vintage", PLAYERS, tuple((f"c{i}", n) for i, n in enumerate(LIBRARY, 1)))

_names: dict[str, list[str]] = {}


def names_for(finder: CandidateFinder, printed: str) -> list[str]:
    """A few legal names for a printed card, chosen so that the library's cards compete for them."""
    if printed not in _names:
        found = finder.candidates(printed=finder.pool.lookup(printed)).candidates
        morphs = [n.name for n in found if n.face.has_keyword("Morph")]
        shared = [n.name for n in found if n.name in LIBRARY or fold(n.name) in ("fire", "ice")]
        _names[printed] = sorted({*morphs[:4], *shared, *(n.name for n in found[:2])})
    return _names[printed]


@st.composite
def commands(draw, state: GameState, finder: CandidateFinder) -> tuple[str | None, bool, Command]:
    """(actor, is_judge, command): mostly a player acting on their own cards, sometimes not."""
    in_game = [p.id for p in PLAYERS if state.in_game(p.id)]
    live = [c for c in state.cards.values() if c.zone != REMOVED]
    judge = draw(st.integers(0, 9)) == 0
    actor = None if judge or not in_game else draw(st.sampled_from(in_game))
    someone = draw(st.sampled_from([p.id for p in PLAYERS]))
    kind = draw(st.sampled_from(["draw", "move", "move", "move", "name", "morph", "turn_face_up", "reveal", "look",
                                 "end", "leave", "shuffle"]))
    if kind == "draw" or not live:
        return actor, judge, Draw(player=someone if judge else None, count=draw(st.integers(1, 2)))
    if kind == "leave" and draw(st.integers(0, 19)) == 0:  # rarer still: the judge ends the game (undo resumes it)
        return actor, judge, EndGame()
    if kind == "leave" and draw(st.integers(0, 3)) == 0:  # rare: keep games going
        leaver = someone if judge or draw(st.integers(0, 3)) == 0 else None
        # D9: cards under a control-changing effect go back (now and then a card that may not)
        borrowed = [c.id for c in live if c.controller == (leaver or actor) and c.owner != c.controller]
        returned = draw(st.lists(st.sampled_from(borrowed or [c.id for c in live]), max_size=2, unique=True))
        return actor, judge, LeaveGame(player=leaver, returned=tuple(returned))
    if kind == "shuffle":  # 701.1b: a cut, at a point the judge saw or the service drew
        point = draw(st.integers(0, len(state.library)))
        cut = Shuffle(player=someone if judge else None, at=point) if judge and draw(st.booleans()) else \
            Shuffle(player=someone if judge else None, random_at=point)
        return actor, judge, cut
    if kind in ("reveal", "look"):
        cls = Reveal if kind == "reveal" else Look
        extra = {"continuous": draw(st.booleans())} if cls is Reveal else {}
        if draw(st.booleans()):
            return actor, judge, cls(player=someone if judge else None, count=1, **extra)
        card = draw(st.sampled_from(live))
        return actor, judge, cls(player=someone if judge else None, cards=(card.id,), **extra)
    if kind == "end":
        seen = [c for c in live if c.revealed or c.looked_by] or live
        c = draw(st.sampled_from(seen))
        return actor, judge, (EndReveal if c.revealed else EndLook)(cards=(c.id,))
    if kind == "morph":  # a face-down play from a hand: what 705.4 and 705.4a are about
        hands = [c for c in live if c.zone == "hand"]
        if hands:
            c = draw(st.sampled_from(hands))
            who = c.owner if not judge and draw(st.integers(0, 3)) else actor
            if draw(st.integers(0, 3)) == 0:  # D10: any card of a hand as a Pentaland, a named one first
                c = draw(st.sampled_from([h for h in hands if h.named_as] or hands))
                return (c.owner if not judge else actor), judge, Move(card=c.id, to="battlefield", pentaland=True)
            return who, judge, Move(card=c.id, to="battlefield", face_down=True,
                                    via=draw(st.sampled_from(["morph", "manifest"])))
    face_down = [c for c in live if c.face_down and not c.pentaland]
    card = draw(st.sampled_from(face_down if kind == "turn_face_up" and face_down else live))
    if not judge and card.holder in in_game and draw(st.integers(0, 3)):
        actor = card.holder  # most actions come from the card's holder
    names = names_for(finder, card.printed)
    if card.face_down and not card.pentaland:
        try:
            names = [*face_up_options(state, SETUP, finder, card.id).allowed, *names]
        except ArbiterError:
            pass
    name = draw(st.one_of(st.none(), st.sampled_from(names))) if names else None
    if kind == "name":  # now and then as a 705.5 chooser (D11)
        return actor, judge, Name(card=card.id, name=name or names[0], choice=draw(st.integers(0, 3)) == 0)
    if kind == "turn_face_up":
        return actor, judge, TurnFaceUp(card=card.id, name=name, via=draw(st.one_of(st.none(), st.sampled_from(VIAS))))
    to = draw(st.sampled_from(MOVE_ZONES))
    face_down_via = draw(st.one_of(st.none(), st.sampled_from(["morph", "manifest", "effect"])))
    return actor, judge, Move(
        card=card.id, to=to, name=name, face_down=True if face_down_via else None, via=face_down_via,
        pentaland=True if draw(st.integers(0, 5)) == 0 else None,
        player=draw(st.sampled_from(in_game)) if in_game and draw(st.integers(0, 3)) == 0 else None,
        position=draw(st.sampled_from(["top", "bottom"])) if to == "library" else None,
    )
