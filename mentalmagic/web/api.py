"""The JSON API for cards and costs (API.md, "Cards and costs"): translate only."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, current_app, jsonify, request

from .. import __version__
from ..cards import Card
from ..commander import describe, find_commanders, identity_of
from ..formats import FORMATS
from ..identity import Identity, wubrg
from ..index import explain_empty
from ..mana import ManaCost
from . import schemas
from .views import candidate_json, card_json, card_summary

bp = Blueprint("api", __name__, url_prefix="/api/v1")

_search = schemas.SearchQuery()
_candidates = schemas.CandidatesQuery()
_check = schemas.CheckQuery()


def runtime():
    return current_app.extensions["mentalmagic"]


@dataclass
class Query:
    """What /candidates and /check ask under: the printed card or cost, format, option, taken names."""

    printed: Card | None
    cost: ManaCost | None
    fmt: str
    phyrexian_as_hybrid: bool
    taken: frozenset[str]
    commanders: tuple[Card, ...] = ()  # ?commander=…, once per commander (two for partners)
    identity: Identity | None = None  # theirs: names outside it are refused (903.5c)

    def within(self) -> dict:
        """What the answer says about the identity it was given under."""
        return {"commander": [c.name for c in self.commanders] or None,
                "color_identity": None if self.identity is None else wubrg(self.identity)}


def load_query(schema) -> tuple[dict, Query]:
    """Read the query string; a ``game`` gives its format, house option and taken names, and
    ``commander`` (repeated for partners: names may hold commas) the identity to answer within."""
    data = request.args.to_dict()
    if "commander" in data:
        data["commander"] = request.args.getlist("commander")
    args = schema.load(data)
    rt = runtime()
    # 422 when it can't be one (903.3, D14(c))
    commanders = find_commanders(rt.pool, args["commander"]) if "commander" in args else ()
    fmt, option, taken = args["format"], args.get("phyrexian_as_hybrid"), frozenset()
    if args.get("game"):
        game = rt.games.load(args["game"])
        if "format" not in request.args:
            fmt = game.setup.format
        if option is None:
            option = game.setup.phyrexian_as_hybrid
        taken = game.state.names.taken_keys()
    printed = rt.pool.lookup(args["printed"]) if "printed" in args else None
    identity = identity_of(commanders) if commanders else None
    return args, Query(printed, args.get("cost"), fmt, bool(option), taken, commanders, identity)


@bp.get("/health")
def health():
    """The card source and count; "degraded" with its reasons (503) when the cards or the database fail."""
    rt = runtime()
    info = rt.pool.info
    reasons = current_app.extensions["mentalmagic.health"].problems()
    body = {
        "status": "degraded" if reasons else "ok",
        "source": info.source,
        "card_count": len(rt.pool),
        "built_at": info.built_at,
        "lacks": list(info.lacks),
        "legalities_known": info.legalities_known,
        "french_known": info.french_known,
        "formats": list(FORMATS),
        "unresolved_bans": [e.french_name for e in rt.pool.bans.unresolved],
        "version": __version__,
    }
    if reasons:  # only then: schemas.HealthOut doesn't list the field yet
        body["reasons"] = reasons
    return jsonify(body), 503 if reasons else 200


@bp.get("/cards/<path:name>")
def card(name: str):
    pool = runtime().pool
    return jsonify(card_json(pool.lookup(name), pool))


@bp.get("/cards")
def search():
    args = _search.load(request.args.to_dict())
    cards = runtime().pool.search(args["q"], args["limit"])
    return jsonify({"cards": [card_summary(c) for c in cards]})


@bp.get("/candidates")
def candidates():
    args, q = load_query(_candidates)
    rt = runtime()
    printed, taken = q.printed, q.taken
    result = rt.finder.candidates(printed=printed, cost=q.cost, fmt=q.fmt, phyrexian_as_hybrid=q.phyrexian_as_hybrid,
                                  type_=args.get("type"), keyword=args.get("keyword"), identity=q.identity)
    start = args["offset"]
    end = start + args["limit"] if "limit" in args else None
    bans = rt.pool.bans
    body = {
        "printed": card_json(printed, rt.pool) if printed else None,
        "costs": [str(c) for c in result.costs],
        "format": result.format,
        "count": len(result.candidates),
        "candidates": [
            candidate_json(n, n.key in taken, bans.status(n.card) == "watched")
            for n in result.candidates[start:end]
        ],
        "unknown_faces": list(result.unknown_faces),
        **q.within(),
    }
    if not result.candidates:  # say why: each same-cost card and the rule that keeps it out
        body["excluded"] = [
            {"name": x.name, "french_name": x.french_name, "rule": x.rule, "reason": x.reason}
            for x in explain_empty(rt.pool, printed=printed, cost=q.cost, fmt=q.fmt,
                                   phyrexian_as_hybrid=q.phyrexian_as_hybrid,
                                   type_=args.get("type"), keyword=args.get("keyword"),
                                   identity=q.identity, whose=f"{describe(q.commanders)}'s")
        ]
    return jsonify(body)


@bp.get("/check")
def check():
    args, q = load_query(_check)
    verdict = runtime().finder.check(args["name"], printed=q.printed, cost=q.cost, fmt=q.fmt,
                                     phyrexian_as_hybrid=q.phyrexian_as_hybrid, taken=q.taken,
                                     identity=q.identity, whose=f"{describe(q.commanders)}'s")
    return jsonify(
        {
            "legal": verdict.legal,
            "reasons": [{"rule": r.rule, "message": r.message} for r in verdict.reasons],
            "name": verdict.nameable.name if verdict.nameable else None,
            "format": q.fmt,
            **q.within(),
        }
    )

