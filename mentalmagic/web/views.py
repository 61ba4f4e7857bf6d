"""Domain objects as the JSON shapes docs/api.md fixes (described in schemas.py)."""

from __future__ import annotations

from ..cards import Card, Nameable
from ..commander import can_be_commander
from ..identity import wubrg
from ..index import Exclusion
from ..mana import mana_value_number as _num  # one type for mana_value everywhere (705.7)
from ..messages import render
from ..pool import CardPool


def card_json(card: Card, pool: CardPool) -> dict:
    entry = pool.bans.entry_for(card)
    return {
        "name": card.name,
        "french_name": card.french_name,
        "layout": card.layout,
        "mana_cost": card.mana_cost_text,
        "faces": [
            {
                "name": f.name,
                "french_name": f.french_name,
                "mana_cost": None if f.cost is None else str(f.cost),
                "cost_known": f.cost is not None,
                "mana_value": _num(f.mana_value),
                "type_line": f.type_line,
                "keywords": list(f.keywords),
                "text": f.text,
                "power": f.power,
                "toughness": f.toughness,
                "loyalty": f.loyalty,
                "defense": f.defense,
            }
            for f in card.faces
        ],
        "legalities": dict(card.legalities),
        "mental_magic": entry.status if entry else None,
        "mental_magic_rule": entry.rule if entry else None,
        "nameable_as": [n.name for n in card.nameables()],
        "printed_costs": [str(c) for c in card.printed_costs],
        # 903.4: WUBRG order; null when the card data doesn't give it
        "color_identity": None if card.color_identity is None else wubrg(card.color_identity),
        "can_be_commander": can_be_commander(card),  # by itself (903.3); a Background only beside another
    }


def card_summary(card: Card) -> dict:
    return {"name": card.name, "french_name": card.french_name, "mana_cost": card.mana_cost_text}


def candidate_json(n: Nameable, taken: bool, watched: bool, taken_in: str | None = None) -> dict:
    """One candidate (docs/api.md). The /candidates route sends it encoded once (encoding.py).
    ``taken_in``: the series' other game that took the name (Xom 6), sent only then."""
    out = {
        "name": n.name,
        "french_name": n.french_name,
        "mana_cost": str(n.cost),
        "mana_value": _num(n.cost.mana_value),
        "type_line": n.face.type_line,
        "power": n.face.power,
        "toughness": n.face.toughness,
        "loyalty": n.face.loyalty,
        "card": n.card.name,
        "taken": taken,
        "watched": watched,
    }
    if taken_in is not None:
        out["taken_in"] = taken_in
    return out


def exclusion_json(x: Exclusion, translations=None, said: str | None = None) -> dict:
    """Why one same-cost card is no candidate: its rule and reason (an empty /candidates answer),
    the reason ``said`` when worded already, else worded in the language of ``translations`` when
    given (else where it is encoded)."""
    reason = said if said is not None else x.reason if translations is None else render(x.reason, translations)
    return {"name": x.name, "french_name": x.french_name, "rule": x.rule, "reason": reason}
