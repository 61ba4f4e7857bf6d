"""One game as the judge types and reads it: players and cards by name or handle (#1), events as lines."""

from __future__ import annotations

import click

from ..game import game_losses
from ..messages import say, word_of
from .context import names_said, store


class Seat:
    """One game's players and card handles, to read what the judge typed and to print answers."""

    def __init__(self, ctx: click.Context, game_id: str):
        from ..grammar import Table, handle_of

        self.store = store(ctx)
        self.game = self.store.load(game_id)
        self.table = Table.of(self.game.setup)
        self.handles = handle_of(self.game.setup)
        self.names = {p.id: p.name for p in self.game.setup.players}
        self.said = names_said(ctx, self.store.finder.pool)  # a card's English name in the CLI's language

    @classmethod
    def over(cls, game, events: list, said=str) -> Seat:
        """A game read as the CLI reads it, from the game and its log rather than a database (the
        property tests print a seat's `game show` from the states a state machine plays)."""
        from ..grammar import Table, handle_of

        seat = cls.__new__(cls)
        seat.store, seat.game, seat.said = None, game, said
        seat.table, seat.handles = Table.of(game.setup), handle_of(game.setup)
        seat.names = {p.id: p.name for p in game.setup.players}
        seat._events = events
        return seat

    def player(self, text: str) -> str:
        from ..grammar import player_ref

        return player_ref(text, self.table)

    def card(self, text: str) -> str:
        from ..grammar import card_ref

        return card_ref(text, self.table)

    def caller(self, as_player: str | None):
        from ..permissions import JUDGE, Caller

        return JUDGE if as_player is None else Caller(player=self.player(as_player))

    def game_events(self) -> list[dict]:
        """The whole log, as the judge reads it (dicts, as the API answers them)."""
        events = self._events if self.store is None else self.store.events(self.game.id)
        return [e.to_dict() for e in events]

    def who(self, pid: str | None) -> str:
        return self.names.get(pid, pid or str(say("cli.judge")))

    def ref(self, cid: str) -> str:
        """A card's number (#4); "?" for a handle the reader was shown instead of a card they can't
        see (D15: a seat's names and events name it by a handle of their own, which says nothing)."""
        return "#" + self.handles[cid] if cid in self.handles else "?"

    def event_line(self, e: dict) -> str:
        """One event as a line: seq, type, who, the cards by handle, where, the naming, the rule."""
        d = e["data"]
        cards = d.get("cards") or ([d["card"]] if "card" in d else [])
        parts = [f"{e['seq']:>4}  {word_of('cli.event', e['type']):<13}", self.who(e["player"] or d.get("player"))]
        if cards:
            parts.append(" ".join(self.ref(c) for c in cards))
        if d.get("printed"):
            parts.append(f"({self.said(d['printed'])})")
        if "to" in d:
            parts.append(str(say("cli.moved", **{"from": _zone(d.get("from")), "to": _zone(d["to"])}))
                         + (f" {say('cli.position.' + d['position'])}" if d.get("position") else ""))
        if e["type"] == "commander_damage":  # 903.10a: the amount and the total, as the JSON has them
            parts.append(str(say("cli.commander_damage", n=d["amount"], commander=self.ref(d["commander"]),
                                 total=d["total"])))
        if e["type"] == "shuffle":
            parts.append(str(say("cli.cut_random" if d.get("random") else "cli.cut", at=d["at"])))
        if d.get("returned"):
            parts.append(str(say("cli.returned", cards=" ".join(self.ref(c) for c in d["returned"]))))
        if d.get("pentaland"):
            parts.append(str(say("cli.as_pentaland")))
        elif d.get("face_down") and d.get("face_down_by"):
            parts.append(str(say("cli.face_down_via", via=word_of("via", d.get("via", "effect")))))
        if isinstance(d.get("unnamed"), dict):  # MageRing: its printed card where it went
            parts.append(str(say("cli.unnamed", name=self.said(d["unnamed"]["name"]))))
        if d.get("land_name"):  # Xom 4
            parts.append(str(say("cli.named", name=d["land_name"])))
        if d.get("naming"):
            parts.append(str(say("cli.named", name=self.said(d["naming"]["name"]))))
        for loss in game_losses(d.get("game_loss")):  # and those it caused in turn (D8)
            parts.append(str(say("cli.loses", player=self.who(loss["player"]), rule=loss["rule"])))
        if e.get("rule"):
            parts.append(f"[{e['rule']}]")
        return "  ".join(parts)


def _zone(zone: str | None):
    """A zone's word ('hand', 'main')."""
    return word_of("cli.zone", zone)
