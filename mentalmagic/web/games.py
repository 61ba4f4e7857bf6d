"""The JSON API for games (docs/api.md, "Games"): request -> command -> service -> response, nothing more."""

from __future__ import annotations

import threading
import time

from flask import Blueprint, current_app, jsonify, request
from flask_babel import get_locale

from .. import services
from ..commands import Command
from ..permissions import Caller
from ..rulesets import game_options
from . import schemas
from .bodies import json_body
from .decks import DryRunQuery, deck_library
from .idempotency import answered, request_key
from .openapi import Op, register_operations
from .remembered import Remembered

bp = Blueprint("games", __name__, url_prefix="/api/v1/games")
_create = schemas.CreateGameIn()
_could_be = schemas.CouldBeQuery()
_same_name = schemas.SameNameQuery()
_face_up = schemas.FaceUpQuery()
_events = schemas.EventsQuery()
_line = schemas.LineIn()
_line_query = schemas.LineQuery()
_dry = DryRunQuery()


def _uow():
    return current_app.extensions["mentalmagic"].games.unit_of_work()


_ACTIONS = Remembered(entries=4096, longest=1024)  # a draw is ~25 bytes, a move ~80


def _action() -> Command:
    """This request's action, typed (schemas.load_action), remembered per raw JSON body
    (web/remembered.py): a draw, a pass, a card to the bottom come back turn after turn."""
    raw = request.get_data(cache=True) if request.is_json else None
    command = _ACTIONS.get(raw) if raw is not None else None
    if command is None:
        command = schemas.load_action(json_body())  # a refused body raises: never remembered
        if raw is not None:
            _ACTIONS.keep(raw, len(raw), command)
    return command


def _caller(game_id: str) -> Caller:
    return services.authenticate(_uow(), game_id, request.headers.get("Authorization"))


@bp.post("")
def create_game():
    body = json_body()
    data = _create.load(body)
    library = data["library"] if "library" in data else deck_library(data["deck"])  # docs/api.md: "deck": id
    uow = _uow()
    options = game_options(data["options"], data["rules"])
    if "series" in data:  # the series' rule set and options; its token makes its games
        asked = {**data["options"], **({"rules": data["rules"]} if "rules" in body else {})}  # the default too
        options = services.series_options(uow, data["series"], request.headers.get("Authorization"), asked=asked)
    resp = answered(uow, 201, lambda: services.create_game(uow, data["format"], options, data["players"], library,
                                                           shuffle=data["shuffle"]))
    _archive_now_and_then()
    return resp


@bp.post("/import")
def import_game():
    """A game rebuilt on this server from the judge's export, every event replayed through the rules
    (replay.py): 201 with new tokens, shown only now; ?dry_run=1 says whether the record holds."""
    dry = _dry.load(request.args.to_dict())["dry_run"]
    doc, uow = json_body(), _uow()
    if dry:
        return jsonify(services.import_game(uow, doc, dry_run=True))
    return answered(uow, 201, lambda: services.import_game(uow, doc))


@bp.get("/<game_id>/export")
def export_game(game_id: str):
    """The judge's whole record of the game, what POST /games/import reads (judge only)."""
    return jsonify(services.export_game(_uow(), game_id, _caller(game_id)))


_SWEEP_EVERY = 60.0  # seconds between two sweeps of one app
_sweep_lock = threading.Lock()


def _archive_now_and_then() -> None:
    """New games are what makes the database grow, so creating one sweeps the idle and finished
    games into the archive (MENTALMAGIC_ARCHIVE_AFTER hours; 0 never), at most once a minute."""
    hours = current_app.config["SETTINGS"].archive_after
    with _sweep_lock:
        last = current_app.extensions.get("mentalmagic.swept", float("-inf"))
        if not hours or time.monotonic() - last < _SWEEP_EVERY:
            return
        current_app.extensions["mentalmagic.swept"] = time.monotonic()
    try:
        services.archive_idle(_uow(), hours)
    except Exception:  # noqa: BLE001 - the game is created: its tokens must reach the client; the next sweep retries
        current_app.logger.exception("archiving idle games failed")


@bp.get("/<game_id>")
def get_game(game_id: str):
    """The game as the caller sees it, with an ETag that changes with every event (and undo): a poll
    with If-None-Match gets 304 while nothing happened (docs/api.md)."""
    caller = _caller(game_id)
    revision, view = services.game_versioned(_uow(), game_id, caller, lambda r: _etag(game_id, r, caller)
                                             in request.if_none_match)
    etag = _etag(game_id, revision, caller)
    resp = current_app.response_class(status=304) if view is None else jsonify(view)
    resp.set_etag(etag)
    resp.headers["Cache-Control"] = "no-cache"  # always revalidate: the answer is per token
    resp.vary.add("Authorization")
    return resp


def _etag(game_id: str, revision: str, caller: Caller) -> str:
    """One revision of a game (services.game_versioned) as one caller sees it: each seat's view of
    it is a different document."""
    return f"{game_id}.{revision}.{'judge' if caller.is_judge else caller.player}"


@bp.post("/<game_id>/actions")
def act(game_id: str):
    caller = _caller(game_id)
    if _dry.load(request.args.to_dict())["dry_run"]:
        request_key()  # the write's 400 for a key it refuses
        return jsonify(services.preview(_uow(), game_id, caller, _action()))
    uow, command = _uow(), _action()
    return answered(uow, 200, lambda: services.act(uow, game_id, caller, command))


@bp.post("/<game_id>/line")
def line(game_id: str):
    """One line of the judge's grammar (the console's command line), as the caller."""
    caller = _caller(game_id)
    dry = _dry.load(request.args.to_dict())["dry_run"]
    return jsonify(services.run_line(_uow(), game_id, caller, _line.load(json_body())["line"], dry_run=dry))


@bp.get("/<game_id>/suggest")
def suggest(game_id: str):
    _caller(game_id)
    line = _line_query.load(request.args.to_dict())["line"]
    return jsonify(services.suggest_line(_uow(), game_id, line, str(get_locale() or "en")))


@bp.post("/<game_id>/undo")
def undo(game_id: str):
    return jsonify(services.undo(_uow(), game_id, _caller(game_id)))


@bp.post("/<game_id>/players/<player_id>/token")
def reissue_token(game_id: str, player_id: str):
    return jsonify(services.reissue_token(_uow(), game_id, _caller(game_id), player_id))


@bp.get("/<game_id>/names")
def names(game_id: str):
    return jsonify(services.names(_uow(), game_id, _caller(game_id)))


@bp.get("/<game_id>/events")
def events(game_id: str):
    caller = _caller(game_id)
    page = _events.load(request.args.to_dict())
    return jsonify(services.events(_uow(), game_id, caller, since=page.get("since"), limit=page.get("limit")))


@bp.get("/<game_id>/could-be")
def could_be(game_id: str):
    caller = _caller(game_id)
    args = _could_be.load(request.args.to_dict())
    return jsonify(services.could_be(_uow(), game_id, caller, args["player"], args["name"]))


@bp.get("/<game_id>/same-name")
def same_name(game_id: str):
    caller = _caller(game_id)
    ids = [c.strip() for c in _same_name.load(request.args.to_dict())["cards"].split(",") if c.strip()]
    return jsonify(services.same_name(_uow(), game_id, ids, caller))


@bp.get("/<game_id>/cards/<card_id>/face-up")
def face_up(game_id: str, card_id: str):
    caller = _caller(game_id)
    via = _face_up.load(request.args.to_dict()).get("via")
    return jsonify(services.face_up(_uow(), game_id, caller, card_id, via))


GAMES = "games"
_AUTH = ("401", "404")  # every game route: a token of this game, and a game that exists
register_operations("/games", {"post": Op(
    "createGame", GAMES, "Create a game (201): tokens are shown only in this answer", "CreateGameOut",
    ("400", "404", "413", "422"), body="CreateGameIn", status="201", idempotent=True)})
register_operations("/games/import", {"post": Op(
    "importGame", GAMES, "A game rebuilt from the judge's export, every event replayed through the rules (201, new "
    "tokens shown only now); 409 citing the event and its rule; `dry_run=1`: the verdict, stored nowhere",
    "ImportGameOut", ("400", "404", "409", "413", "422"), body="GameExportOut", query="DryRunQuery", status="201",
    idempotent=True)})
register_operations("/games/{game_id}/export", {"get": Op(
    "exportGame", GAMES, "Judge only: the game's whole record, which POST /games/import reads", "GameExportOut",
    (*_AUTH, "403"))})
register_operations("/games/{game_id}", {"get": Op(
    "getGame", GAMES, "The game as the caller may see it", "GameOut", _AUTH)})
register_operations("/games/{game_id}/actions", {"post": Op(
    "act", GAMES, "One action; 409 with the rule when refused; `dry_run=1`: what it would do, recorded nowhere",
    "ActionOut", ("400", "401", "403", "404", "409", "413", "422"), body="ActionIn", query="DryRunQuery",
    idempotent=True)})
register_operations("/games/{game_id}/line", {"post": Op(
    "line", GAMES, "One line of the judge's grammar (`ana draw 2`, `undo`): an action or undo; 409 with the rule",
    "LineOut", ("400", "401", "403", "404", "409", "413", "422"), body="LineIn", query="DryRunQuery")})
register_operations("/games/{game_id}/suggest", {"get": Op(
    "suggestLine", GAMES, "What may come next at the end of a line of the grammar", "SuggestOut", (*_AUTH, "422"),
    query="LineQuery")})
register_operations("/games/{game_id}/undo", {"post": Op(
    "undo", GAMES, "Judge only: take back the last event", "UndoOut", (*_AUTH, "403", "409"))})
register_operations("/games/{game_id}/players/{player_id}/token", {"post": Op(
    "reissueToken", GAMES, "Judge only: a new token for a player; the old one stops working", "TokenOut",
    (*_AUTH, "403", "422"))})
register_operations("/games/{game_id}/names", {"get": Op("names", GAMES, "Every name taken", "NamesOut", _AUTH)})
register_operations("/games/{game_id}/events", {"get": Op(
    "events", GAMES, "The append-only log; `since` and `limit` page it", "EventsOut", (*_AUTH, "422"),
    query="EventsQuery")})
register_operations("/games/{game_id}/same-name", {"get": Op(
    "sameName", GAMES, "705.10: do these cards share a name?", "SameNameOut", (*_AUTH, "422"),
    query="SameNameQuery")})
register_operations("/games/{game_id}/cards/{card_id}/face-up", {"get": Op(
    "faceUpOptions", GAMES, "705.4/705.4a: the names a face-down card may take if turned face up now", "FaceUpOut",
    (*_AUTH, "403", "422"), query="FaceUpQuery")})
register_operations("/games/{game_id}/could-be", {"get": Op(
    "couldBe", GAMES, "705.11: unnamed cards of a hand that could be named X", "CouldBeOut", (*_AUTH, "403", "422"),
    query="CouldBeQuery")})
