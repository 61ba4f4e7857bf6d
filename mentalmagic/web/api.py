"""The JSON API for cards and costs (docs/api.md, "Cards and costs"): translate only."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qsl

from flask import Blueprint, current_app, jsonify, request
from marshmallow import ValidationError
from werkzeug.datastructures import MultiDict

from .. import __version__, lookups, services
from ..formats import FORMATS
from ..identity import wubrg
from ..index import CandidateQuery
from ..messages import gap, render, render_all
from ..runtime import source_said
from . import schemas
from .encoding import Encoded, body_response, dumps
from .i18n import language, translations
from .remembered import Remembered
from .rules_strings import rule_sets_answer
from .views import card_json, exclusion_json

bp = Blueprint("api", __name__, url_prefix="/api/v1")

_search = schemas.SearchQuery()
_candidates = schemas.CandidatesQuery()
_check = schemas.CheckQuery()


def runtime():
    return current_app.extensions["mentalmagic"]


_LOADED = Remembered(entries=8192, longest=1024)  # a bot's question is ~100 bytes


def loaded_args(schema) -> tuple[dict, bool]:
    """(the query string loaded through ``schema``, whether it named a format), remembered per raw
    query string (web/remembered.py; at most 8 MiB kept: waitress takes 64 KiB of headers, and a
    query may repeat a key the schema reads once, so a long one is not kept)."""
    return _loaded(schema, request.query_string, lambda: request.args)


def _loaded(schema, key, params: Callable[[], MultiDict]) -> tuple[dict, bool]:
    """``loaded_args`` of the parameters ``params()``, remembered under ``key`` (their raw text, or
    their pairs)."""
    hit = _LOADED.get((schema, key))
    if hit is None:
        given = params()
        data = given.to_dict()
        if "commander" in given:
            data["commander"] = given.getlist("commander")
        hit = (schema.load(data), "format" in given)
        _LOADED.keep((schema, key), len(request.query_string), hit)
    return dict(hit[0]), hit[1]


def _search_apart(raw: bytes) -> tuple[tuple, str] | None:
    """A query string with a search (``q``) as (its other parameters' pairs, the search's text), read
    as ``request.args`` reads it (the first ``q`` counts, as ``to_dict`` takes it); None without one.
    A player typing asks the same question with a new search at each key: the rest of it is then
    loaded and resolved once, and only the search is read anew."""
    if b"q" not in raw:
        return None
    try:
        pairs = parse_qsl(raw.decode(), keep_blank_values=True, errors="werkzeug.url_quote")
    except UnicodeDecodeError:
        return None
    texts = [v for k, v in pairs if k == "q"]
    if not texts:
        return None
    return tuple((k, v) for k, v in pairs if k != "q"), texts[0]


def load_query(schema) -> tuple[dict, CandidateQuery]:
    """The query string, and the question it asks (lookups.candidate_query): a ``game`` gives its
    format, house option and taken names, ``commander`` (repeated for partners: names may hold
    commas) the identity to answer within. Without a game, the question is kept per query string,
    a search's apart (``_search_apart``)."""
    apart = _search_apart(request.query_string) if "q" in schema.fields else None
    if apart is None:
        args, format_given = loaded_args(schema)
    else:
        rest, text = apart
        args, format_given = _searched_args(schema, rest, text)
    rt = runtime()

    def asked(query: str | None) -> CandidateQuery:
        return lookups.candidate_query(
            rt.finder, printed=args.get("printed"), cost=args.get("cost"), fmt=args["format"] if format_given else None,
            phyrexian_as_hybrid=args.get("phyrexian_as_hybrid"), type_=args.get("type"), keyword=args.get("keyword"),
            commanders=args.get("commander", ()), games=services.RulesGames(rt.games), game=args.get("game"),
            player=args.get("player"), rules=args.get("rules"), query=query, sort=args.get("sort"))

    if args.get("game"):  # a game's part is kept per game version (lookups._from_game), not per query string
        return args, asked(args.get("q"))
    # without a game, the question is the query string's alone (a search's apart): resolved once per
    # finder (a refusal raises, never kept)
    key = (schema, request.query_string if apart is None else apart[0], id(rt.finder))
    kept = _ASKED.get(key)
    if kept is None or kept[0] is not rt.finder:
        kept = (rt.finder, asked(None if apart is not None else args.get("q")))
        _ASKED.keep(key, len(request.query_string), kept)
    return args, kept[1] if apart is None else lookups.searched(kept[1], apart[1])


def _searched_args(schema, rest: tuple, text: str) -> tuple[dict, bool]:
    """``loaded_args`` of a query string with a search: the other parameters loaded (and remembered)
    as their own query string, the search checked by its field alone; both one 422 when both fail."""
    errors: dict = {}
    try:
        args, format_given = _loaded(schema, rest, lambda: MultiDict(rest))
    except ValidationError as e:
        errors.update(e.messages if isinstance(e.messages, dict) else {"_schema": e.messages})
    try:
        q = schema.fields["q"].deserialize(text)
    except ValidationError as e:
        errors["q"] = e.messages
    if errors:
        raise ValidationError(errors)
    return {**args, "q": q}, format_given


_ASKED = Remembered(entries=8192, longest=1024)  # as _LOADED; each holds its finder, so its id stays its own


def within(q: CandidateQuery) -> dict:
    """What an answer adds when asked within a commander's identity (903.5c); nothing otherwise."""
    if q.identity is None:
        return {}
    return {"commander": [c.name for c in q.commanders], "color_identity": wubrg(q.identity)}


@bp.get("/health")
def health():
    """The card source and count; "degraded" with its reasons (503) when the cards or the database fail.
    A healthy answer is the same bytes for every request in one language: encoded once per language."""
    rt = runtime()
    reasons = current_app.extensions["mentalmagic.health"].problems()
    if not reasons:
        return body_response(encoded().healthy(language(), lambda: _health_body(rt, reasons)))
    body = _health_body(rt, reasons)
    # only when degraded (schemas.HealthOut): worded in the request's language, and as codes
    body["reasons"] = reasons
    body["reason_codes"] = [r.as_json() for r in reasons]
    return jsonify(body), 503


def _health_body(rt, reasons: list) -> dict:
    info = rt.pool.info
    return {
        "status": "degraded" if reasons else "ok",
        "source": info.source,
        "source_label": render(source_said(info.source), translations()),  # in the request's language
        "card_count": len(rt.pool),
        "built_at": info.built_at,
        "lacks": [render(gap(item), translations()) for item in info.lacks],  # in the request's language, and as codes
        "lack_codes": [gap(item).as_json() for item in info.lacks],
        "legalities_known": info.legalities_known,
        "french_known": info.french_known,
        "formats": list(FORMATS),
        "unresolved_bans": [e.french_name for e in rt.pool.bans.unresolved],
        "version": __version__,
    }


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
    """finder.candidates()'s answer, as bytes spliced from encoded parts (encoding.py)."""
    args, q = load_query(_candidates)
    finder = runtime().finder
    res = lookups.candidates(finder, q)
    enc = encoded()

    def why_none() -> bytes:  # asked only of an empty answer; the same question, in one language, the same
        return enc.explained(_question(q), lambda: _worded(lookups.why_none(finder, q)))

    return body_response(enc.candidates_answer(res, args["offset"], args.get("limit"), within(q), why_none))


def _worded(exclusions: list) -> list[dict]:
    said = render_all([x.reason for x in exclusions], translations())  # whose identity, worded once for all
    return [exclusion_json(x, said=reason) for x, reason in zip(exclusions, said, strict=True)]


def encoded() -> Encoded:
    """This app's encoded answers, over the runtime's pool (made on first use)."""
    pool = runtime().pool
    enc = current_app.extensions.get("mentalmagic.encoded")
    if enc is None or enc.pool is not pool:
        enc = current_app.extensions["mentalmagic.encoded"] = Encoded(pool)
    return enc


def _question(q: CandidateQuery) -> tuple:
    """What an empty answer's reasons depend on: the question and the language they are worded in,
    a game's taken names only where the search reads them (is:taken, is:free)."""
    return (q.printed.name if q.printed is not None else None, str(q.cost) if q.cost is not None else None, q.fmt,
            q.phyrexian_as_hybrid, q.type_, q.keyword, tuple(c.name for c in q.commanders), language(),
            q.rules.index_key if q.rules is not None else None, q.search.text if q.search is not None else None,
            q.all_taken if q.search is not None and q.search.uses_taken else None)


@bp.get("/rule-sets")
def rule_sets():
    """Every rule set the arbiter knows (docs/rule-sets.md), worded in the caller's language: the one
    list the console, the lookup page and the CLI's ``rule-sets`` read too (rules_strings)."""
    return jsonify({"rule_sets": rule_sets_answer()})


@bp.get("/check")
def check():
    """The verdict and its reasons, worded in the caller's language: encoded once per question
    (encoding.Encoded.checked), as a bot asks the same questions again and again."""
    args, q = load_query(_check)
    finder = runtime().finder

    def answer() -> dict:
        verdict = lookups.check(finder, args["name"], q)
        t = translations()  # looked up once for every reason
        return {
            "legal": verdict.legal,
            "reasons": [{"rule": r.rule, "message": render(r.message, t)} for r in verdict.reasons],
            "name": verdict.nameable.name if verdict.nameable else None,
            "format": q.fmt,
            **within(q),
        }

    query = request.query_string
    if len(query) > _LOADED.longest:  # a long query string is answered, never kept (as in loaded_args)
        return body_response(dumps(answer()))
    # the query string says the question, but a game's (format, option, rule set, taken names,
    # a player's commanders) may change from version to version: they are part of the key
    asked = (query, language(), q.fmt, q.phyrexian_as_hybrid, q.rules.index_key if q.rules is not None else None,
             q.taken, frozenset(q.carried.items()) if q.carried else None, q.identity,
             tuple(c.name for c in q.commanders))
    return body_response(encoded().checked(asked, answer))
