"""The JSON API for cards and costs (API.md, "Cards and costs"): translate only."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, current_app, jsonify, request

from .. import __version__
from ..cards import Card
from ..commander import describe, find_commanders, identity_of
from ..errors import UnknownPlayer
from ..formats import FORMATS, check_format
from ..identity import Identity, wubrg
from ..index import explain_empty
from ..mana import ManaCost
from ..naming import commander_cards
from . import schemas
from .encoding import Encoded, body_response, dumps
from .remembered import Remembered
from .views import card_json

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
        """What the answer adds when asked within a commander's identity; nothing otherwise."""
        if self.identity is None:
            return {}
        return {"commander": [c.name for c in self.commanders], "color_identity": wubrg(self.identity)}


_LOADED = Remembered(entries=8192, longest=1024)  # a bot's question is ~100 bytes


def loaded_args(schema) -> tuple[dict, bool]:
    """(the query string loaded through ``schema``, whether it named a format), remembered per raw
    query string (web/remembered.py; at most 8 MiB kept: waitress takes 64 KiB of headers, and a
    query may repeat a key the schema reads once, so a long one is not kept)."""
    query = request.query_string
    key = (schema, query)
    hit = _LOADED.get(key)
    if hit is None:
        data = request.args.to_dict()
        if "commander" in data:
            data["commander"] = request.args.getlist("commander")
        hit = (schema.load(data), "format" in request.args)
        _LOADED.keep(key, len(query), hit)
    return dict(hit[0]), hit[1]


def load_query(schema) -> tuple[dict, Query]:
    """Read the query string; a ``game`` gives its format, house option and taken names, and
    ``commander`` (repeated for partners: names may hold commas) the identity to answer within."""
    args, format_given = loaded_args(schema)
    rt = runtime()
    # 422 when it can't be one (903.3, D14(c))
    commanders = find_commanders(rt.pool, args["commander"]) if "commander" in args else ()
    fmt, option, taken = args["format"], args.get("phyrexian_as_hybrid"), frozenset()
    if args.get("game"):
        game = rt.games.load(args["game"])
        if not format_given:
            fmt = game.setup.format
        if option is None:
            option = game.setup.phyrexian_as_hybrid
        taken = game.state.names.taken_keys()
        if "player" in args:  # within that player's commander's identity (903.5c, D14(b))
            commanders = _players_commanders(rt.pool, game, args["player"])
    printed = rt.pool.lookup(args["printed"]) if "printed" in args else None
    identity = identity_of(commanders) if commanders else None
    return args, Query(printed, args.get("cost"), fmt, bool(option), taken, commanders, identity)


def _players_commanders(pool, game, pid: str) -> tuple[Card, ...]:
    """The commander cards of a player of ``game`` (none outside a commander game); 422 for nobody."""
    if game.setup.player(pid) is None:
        raise UnknownPlayer(pid)
    return commander_cards(game.setup, pool, pid)


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
    if reasons:  # only when degraded (schemas.HealthOut)
        body["reasons"] = reasons
    return jsonify(body), 503 if reasons else 200


@bp.get("/cards/<path:name>")
def card(name: str):
    pool = runtime().pool
    return jsonify(card_json(pool.lookup(name), pool))


@bp.get("/cards")
def search():
    args, _ = loaded_args(_search)
    cards = runtime().pool.search(args["q"], args["limit"])
    enc = encoded()
    return body_response(b'{"cards":[' + b",".join([enc.summary(c) for c in cards]) + b"]}")


@bp.get("/candidates")
def candidates():
    """Spliced from bytes encoded once per question (encoding.py); means what ``candidate_json`` says."""
    args, q = load_query(_candidates)
    finder, printed = runtime().finder, q.printed
    fmt = check_format(q.fmt)
    costs = finder.printed_costs(printed, q.cost)
    base = finder.names_for(costs, fmt, q.phyrexian_as_hybrid, args.get("type"), args.get("keyword"), q.identity)
    enc = encoded()
    # never the printed card itself, nor any face of it (704.1, D4)
    excluded = printed.face_names if printed is not None else frozenset()
    count, page = enc.candidates(base).render(excluded, q.taken, args["offset"], args.get("limit"))
    body = b"".join([
        b'{"printed":', enc.card(printed) if printed is not None else b"null",
        b',"costs":', dumps([str(c) for c in finder.concrete_costs(costs, q.phyrexian_as_hybrid)]),
        b',"format":', dumps(fmt),
        b',"count":', str(count).encode(),
        b',"candidates":[', *page,
        b'],"unknown_faces":', dumps(list(printed.unknown_faces) if printed is not None else []),
        *_excluded(count, printed, q, args),
        *(b"," + dumps(k) + b":" + dumps(v) for k, v in q.within().items()),
        b"}",
    ])
    return body_response(body)


def encoded() -> Encoded:
    """This app's encoded answers, over the runtime's pool (made on first use)."""
    pool = runtime().pool
    enc = current_app.extensions.get("mentalmagic.encoded")
    if enc is None or enc.pool is not pool:
        enc = current_app.extensions["mentalmagic.encoded"] = Encoded(pool)
    return enc


def _excluded(count: int, printed, q, args) -> list[bytes]:
    """Why a question has no candidate: each same-cost card and the rule that keeps it out (asked only then)."""
    if count:
        return []

    def build() -> list[dict]:
        return [{"name": x.name, "french_name": x.french_name, "rule": x.rule, "reason": x.reason}
                for x in explain_empty(runtime().pool, printed=printed, cost=q.cost, fmt=q.fmt,
                                       phyrexian_as_hybrid=q.phyrexian_as_hybrid,
                                       type_=args.get("type"), keyword=args.get("keyword"),
                                       identity=q.identity, whose=f"{describe(q.commanders)}'s")]

    key = (printed.name if printed is not None else None, str(q.cost) if q.cost is not None else None, q.fmt,
           q.phyrexian_as_hybrid, args.get("type"), args.get("keyword"), tuple(c.name for c in q.commanders))
    return [b',"excluded":', encoded().explained(key, build)]


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

