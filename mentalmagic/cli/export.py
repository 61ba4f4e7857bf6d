"""`game export` as text in the CLI's language: the page's export (static/js/export.js, gamelog.js) read
with the same catalogue keys (web/console_strings.py), so the terminal and the page say the same words."""

from __future__ import annotations

import re

from babel import Locale

from ..catalogue import primary, translations
from ..game import game_losses
from ..messages import N_

_VIA = ("morph", "megamorph", "disguise", "manifest", "cloak", "effect")
_RULE = N_("rule {rule}")  # the page's "rule" (web/script_strings.py)


class Words:
    """The console's strings in ``lang``: ``t(key, **vars)`` as the page's i18n.js does it."""

    def __init__(self, lang: str):
        from ..web.console_strings import console_strings  # outside a request: the msgids, in English

        tr = translations(lang)
        self.strings = {k: tr.gettext(v) for k, v in console_strings(_msgids).items()}
        self.strings["rule"] = tr.gettext(_RULE)
        for key, (one, other) in _PLURALS.items():
            self.strings[f"{key}.one"], self.strings[f"{key}.other"] = (
                tr.ngettext(one, other, 1),
                tr.ngettext(one, other, 2),
            )
        self.plural = Locale(primary(lang)).plural_form

    def __call__(self, key: str, **v) -> str:
        s = self.strings.get(key, key)
        if "n" in v:
            s = self.strings.get(f"{key}.{self.plural(v['n'])}") or self.strings.get(f"{key}.other", s)
        return re.sub(r"\{(\w+)\}", lambda m: str(v[m[1]]) if m[1] in v else m[0], s)


_PLURALS: dict[str, tuple[str, str]] = {}


def _msgids(key: str, singular: str, plural: str) -> dict[str, str]:
    _PLURALS[key] = (singular, plural)
    return {}


def game_text(t: Words, game: dict, events: list[dict], names: list[dict], ref, said=lambda name: name) -> str:
    """The game as text: who played and how it ended, each zone's cards, the names taken, then the log.
    ``said`` words a card's English name (a printed card, a name taken) in the reader's language."""
    players = {p["id"]: p["name"] for p in game["players"]}
    cards = {c["id"]: c for c in game["cards"]}

    def who(pid):
        return players.get(pid) or pid or "—"

    def card(cid):  # a commander is named: everybody knows it (903.3)
        c = cards.get(cid)
        return f"{ref(cid)} {said(c['printed'])}" if c and c.get("commander") and c.get("printed") else ref(cid)

    log = _Log(t, who, card, said)
    fmt = t("format.all") if game["format"] == "all" else game["format"]  # the others: the formats' names
    lines = [t("game.title", id=game["id"]), t("game.format", format=fmt), ""]
    if game.get("finished"):
        lines += [f"{t('end.title')} — {log.end(game['finished'])}", ""]
    lines.append(t("export.players"))
    for p in game["players"]:
        key = "export.player_team" if p.get("team") else "export.player"
        lines.append(f"- {t(key, name=p['name'], id=p['id'], team=p.get('team'), status=log.out(p, events))}")
    lines += ["", t("export.zones")]
    for zone in dict.fromkeys(c["zone"] for c in game["cards"]):
        inside = [c for c in game["cards"] if c["zone"] == zone]
        lines.append(f"{t(f'zone.{zone}')} ({len(inside)})")
        lines += [f"  {_card_line(t, c, ref, who, said)}" for c in inside]
    lines += ["", t("game.names_title")]
    lines += [f"- {said(n['name'])} — {who(n['player'])} ({card(n['card'])})" for n in names]
    lines += ["", t("export.log")]
    for e in events:
        lines.append(f"{e['seq']}. {log.describe(e)}" + (f" ({t('rule', rule=e['rule'])})" if e.get("rule") else ""))
    return "\n".join(lines) + "\n"


def _card_line(t: Words, c: dict, ref, who, said) -> str:
    marks = [t("game.named", name=said(c["named_as"]))] if c.get("named_as") else []
    if c.get("earlier_names"):  # MageRing: the names it dropped, to who sees the card (D15)
        marks.append(t("game.earlier_names", names=", ".join(str(said(n)) for n in c["earlier_names"])))
    if c.get("pentaland"):
        marks.append(t("game.pentaland"))
    elif c.get("face_down"):
        marks.append(t("game.face_down"))
    if c.get("revealed"):
        marks.append(t("game.revealed"))
    owner = (
        t("game.owner_controller", owner=who(c["owner"]), controller=who(c.get("controller") or c["owner"]))
        if c.get("owner")
        else ""
    )
    printed = said(c["printed"]) if c.get("printed") else t("game.hidden")
    return " ".join(w for w in (ref(c["id"]), printed, *marks, owner) if w)


class _Log:
    """gamelog.js in Python: each event, a loss, a departure and the end in words."""

    def __init__(self, t: Words, who, card, said):
        self.t, self.who, self.card, self.said = t, who, card, said

    def via(self, v):
        return self.t(f"via.{v}") if v in _VIA else v

    def loss(self, loss: dict, e: dict) -> str:
        t, name = self.t, self.who(loss["player"])
        if loss["rule"] == "903.10a":
            return t(
                "loss.commander_damage", who=name, total=e["data"]["total"], commander=self.card(e["data"]["commander"])
            )
        return t("loss.d8", who=name) + (f" {t('loss.why.' + loss['why'])}" if loss.get("why") else "")

    def end(self, finished: dict) -> str:
        if finished.get("by") == "judge":
            return self.t("end.by_judge")
        names = [self.who(p) for p in finished.get("winners") or []]
        return self.t("end.winners", names=", ".join(names), n=len(names)) if names else self.t("end.no_winner")

    def out(self, p: dict, events: list[dict]) -> str:
        status = self.t(f"pstatus.{p['status']}")
        e = next(
            (
                x
                for x in reversed(events)
                if _loss_of(x, p["id"]) or (x["type"] == "leave_game" and x["data"].get("player") == p["id"])
            ),
            None,
        )
        if p["status"] == "in_game" or e is None:
            return status
        loss = _loss_of(e, p["id"])
        words, rule = (
            (self.loss(loss, e), loss["rule"]) if loss else (self.t("log.leave", who=p["name"]), e.get("rule"))
        )
        return f"{status} — {words}" + (f" ({self.t('rule', rule=rule)})" if rule else "")

    def describe(self, e: dict) -> str:  # noqa: C901 - one branch per event type, as gamelog.js
        t, d, card = self.t, e.get("data") or {}, self.card
        who = self.who(e.get("player") or d.get("player"))
        naming = d.get("naming") or {}
        named = f" {t('log.named', name=self.said(naming['name']))}" if naming.get("name") else ""
        exception = f" {t('log.exception')}" if naming.get("exception") else ""
        losses = " ".join(self.loss(x, e) for x in game_losses(d.get("game_loss")))
        loss = f" — {losses}" if losses else ""
        again = (d.get("note_params") or {}).get("name") or d.get("name") or ""  # 704.4: the name it already has
        note = f" {t('log.already_named', name=self.said(again))}" if d.get("note") else ""
        cards = " ".join(card(c) for c in d.get("cards") or [])
        kind = e["type"]
        if kind == "draw":
            return t("log.draw", who=who, n=len(d.get("cards") or []), cards=cards)
        if kind == "move":
            if d.get("commander_cast"):
                cast = d["commander_cast"]
                return t("log.commander_cast", who=who, card=card(d["card"]), count=cast["count"], tax=cast["tax"])
            if d.get("to") == "command":
                return t("log.to_command", who=who, card=card(d["card"]), **{"from": t(f"zone.{d['from']}")})
            how = ""
            if d.get("pentaland"):
                how = " " + t(
                    "log.as_pentaland"
                    if (d.get("from"), d.get("to")) == ("hand", "battlefield")
                    else "log.still_pentaland"
                )
            elif d.get("face_down") and d.get("via"):
                how = " " + t("log.face_down_via", via=self.via(d["via"]))
            elif d.get("face_down"):
                how = " " + t("game.face_down")
            revealed = f" {t('log.revealed_d12')}" if d.get("revealed") else ""
            dropped = d.get("unnamed") if isinstance(d.get("unnamed"), dict) else {}  # MageRing: its printed card there
            revealed += f" {t('log.unnamed', name=self.said(dropped['name']))}" if dropped.get("name") else ""
            revealed += f" {t('log.named', name=d['land_name'])}" if d.get("land_name") else ""  # Xom 4
            return (
                t(
                    "log.move",
                    who=who,
                    card=card(d["card"]),
                    **{"from": t(f"zone.{d['from']}")},
                    to=t(f"zone.{d['to']}"),
                )
                + how
                + revealed
                + named
                + exception
                + note
                + loss
            )
        if kind == "name":
            return t(
                "log.choose" if d.get("choice") else "log.name",
                who=who,
                card=card(d["card"]),
                name=self.said(naming.get("name") or d.get("name") or ""),
            ) + note
        if kind == "turn_face_up":
            by = f" {t('log.by_via', via=self.via(d['via']))}" if d.get("via") else ""
            return t("log.up", who=who, card=card(d["card"])) + by + named + exception + note + loss
        if kind in ("reveal", "look", "end_reveal", "end_look"):
            return t(f"log.{kind}", who=who, cards=cards)
        if kind == "leave_game":
            return t("loss.departure", who=self.who(d.get("player")), n=len(d.get("removed") or [])) + loss
        if kind == "shuffle":
            return t("log.shuffle", who=who) if d.get("random") else t("log.shuffle_at", who=who, at=d.get("at"))
        if kind == "commander_damage":
            return (
                t("log.commander_damage", who=who, n=d["amount"], commander=card(d["commander"]), total=d["total"])
                + loss
            )
        if kind == "end_game":
            return t("log.end_game")
        if kind == "turn":
            return t("log.turn", who=who, n=d["number"])
        return f"{who}: {kind}"


def _loss_of(e: dict, pid: str) -> dict | None:
    """The loss of ``pid`` event ``e`` records: its game loss, or one that loss caused in turn (D8)."""
    return next((x for x in game_losses(e["data"].get("game_loss")) if x.get("player") == pid), None)
