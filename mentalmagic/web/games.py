"""The JSON API for games (API.md, "Games"): translate only; the ledger decides."""

from __future__ import annotations

import json

from flask import Blueprint, current_app, jsonify, request

from ..errors import Forbidden, InvalidInput
from ..ledger import could_be, face_up_options, name_taken, printed_facts, share_a_name
from ..storage.gamedb import Caller, Game
from . import schemas
from .errors import envelope
from .openapi import register_operations

bp = Blueprint("games", __name__, url_prefix="/api/v1/games")
_create = schemas.CreateGameIn()
_could_be = schemas.CouldBeQuery()
_same_name = schemas.SameNameQuery()
_face_up = schemas.FaceUpQuery()


def store():
    return current_app.extensions["mentalmagic"].games


def _json_body() -> dict:
    try:
        data = request.get_json(silent=True)
        # text that isn't Unicode (a lone surrogate) can be neither stored nor answered
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (RecursionError, UnicodeEncodeError):
        raise _BadRequest() from None
    if data is None:
        raise _BadRequest()
    return data


class _BadRequest(Exception):
    pass


def _caller(game_id: str) -> Caller:
    return store().authenticate(game_id, request.headers.get("Authorization"))


def card_view(game: Game, card_id: str, caller: Caller) -> dict:
    """One physical card as ``caller`` may see it: ``printed`` only where allowed."""
    c = game.state.cards[card_id]
    visible = c.visible_to(caller.player, caller.is_judge)
    out = {
        "id": c.id, "zone": c.zone, "owner": c.owner, "controller": c.controller,
        # a name is announced when it is given (705.1-705.4) and listed by GET /names: it is public,
        # even once a named card is turned face down (704.4)
        "face_down": c.face_down, "pentaland": c.pentaland, "named_as": c.named_as,
        "revealed": c.revealed,
    }
    if visible:
        out["printed"] = c.printed
        facts = printed_facts(store().finder.pool.lookup(c.printed))
        out["printed_mana_cost"] = facts["mana_cost"]  # 705.7: answerable without naming
        out["mana_value"] = facts["mana_value"]  # 705.7
        out["colors"] = facts["colours"]  # 705.8
        out["nonland"] = facts["nonland"]  # 705.9
    return out


def _listed(game: Game, card_id: str, caller: Caller) -> bool:
    """Cards out of the library, and library cards the caller may see (revealed, looked at)."""
    c = game.state.cards[card_id]
    return c.zone != "library" or c.visible_to(caller.player, caller.is_judge)


def event_view(e, caller: Caller) -> dict:
    d = e.to_dict()
    if not caller.is_judge:  # the printed identity of a drawn card is the drawer's secret
        d["data"] = {k: v for k, v in d["data"].items() if k != "printed"}
    d["at"] = d.get("at") or ""
    return d


def game_json(game: Game, caller: Caller) -> dict:
    return {
        "id": game.id,
        "format": game.format,
        "options": game.options,
        "players": [{"id": p.id, "name": p.name, "team": p.team, "status": game.state.players[p.id].status}
                    for p in game.setup.players],
        "library_size": len(game.state.library),
        "seq": game.state.seq,
        "cards": [card_view(game, cid, caller) for cid in sorted(game.state.cards) if _listed(game, cid, caller)],
        "you": caller.player if not caller.is_judge else "judge",
    }


@bp.errorhandler(_BadRequest)
def bad_json(_e):
    return envelope(400, "bad_request",
                    "the body must be JSON in UTF-8 (Content-Type: application/json), not nested too deep")


@bp.post("")
def create_game():
    data = _create.load(_json_body())
    created = store().create(data["format"], data["options"], data["players"], data["library"],
                             shuffle=data["shuffle"])
    return jsonify(created), 201


@bp.get("/<game_id>")
def get_game(game_id: str):
    caller = _caller(game_id)
    return jsonify(game_json(store().load(game_id), caller))


@bp.post("/<game_id>/actions")
def act(game_id: str):
    caller = _caller(game_id)
    action = schemas.load_action(_json_body())
    event, changed, game = store().act(game_id, caller, action)
    return jsonify({"event": event_view(event, caller),
                    "cards": [card_view(game, cid, caller) for cid in changed]})


@bp.post("/<game_id>/undo")
def undo(game_id: str):
    caller = _caller(game_id)
    undone, game = store().undo(game_id, caller)
    return jsonify({"undone": event_view(undone, caller), "seq": game.state.seq})


@bp.get("/<game_id>/names")
def names(game_id: str):
    _caller(game_id)
    return jsonify({"names": store().names(game_id)})


@bp.get("/<game_id>/events")
def events(game_id: str):
    caller = _caller(game_id)
    return jsonify({"events": [event_view(e, caller) for e in store().events(game_id)]})


@bp.get("/<game_id>/could-be")
def could_be_view(game_id: str):
    caller = _caller(game_id)
    args = _could_be.load(request.args.to_dict())
    if not caller.is_judge and caller.player != args["player"]:
        raise Forbidden("705.11 questions about a hand are for the judge and that player")
    game = store().load(game_id)
    if game.setup.player(args["player"]) is None:
        raise InvalidInput(f"no player {args['player']!r} in this game", fields={"player": ["unknown player"]})
    finder = store().finder
    ids = could_be(game.state, game.setup, finder, args["player"], args["name"])
    return jsonify({"player": args["player"], "name": finder.pool.nameables_called(args["name"])[0].name,
                    "taken": name_taken(game.state, finder, args["name"]), "cards": ids, "rule": "705.11"})


@bp.get("/<game_id>/same-name")
def same_name(game_id: str):
    _caller(game_id)
    ids = [c.strip() for c in _same_name.load(request.args.to_dict())["cards"].split(",") if c.strip()]
    if len(ids) < 2:
        raise InvalidInput("name at least two cards", fields={"cards": ["at least two card ids"]})
    game = store().load(game_id)
    return jsonify({"cards": ids, "same_name": share_a_name(game.state, ids), "rule": "705.10"})


@bp.get("/<game_id>/cards/<card_id>/face-up")
def face_up(game_id: str, card_id: str):
    """705.4/705.4a: the names a face-down card could take now; for whoever may see the card."""
    caller = _caller(game_id)
    game = store().load(game_id)
    c = game.state.card(card_id)
    if not c.face_down or c.pentaland:
        raise InvalidInput("this card is not a face-down permanent or spell", fields={"card": ["not face down"]})
    if not c.visible_to(caller.player, caller.is_judge):
        raise Forbidden("only its controller and the judge may ask what a face-down card could be")
    choice = face_up_options(game.state, game.setup, store().finder, card_id,
                             _face_up.load(request.args.to_dict()).get("via"))
    return jsonify({"card": card_id, "via": choice.via, "allowed": list(choice.allowed),
                    "exception": choice.exception, "loses": choice.loses, "advice": choice.advice(),
                    "rule": "705.4a" if choice.exception or choice.loses else "705.4"})


register_operations("/games", {"post": ("Create a game (201): tokens are shown only in this answer", None,
                                        "CreateGameIn", "CreateGameOut", "201")})
register_operations("/games/{game_id}", {"get": ("The game as the caller may see it", None, None, "GameOut", "200")})
register_operations("/games/{game_id}/actions", {"post": ("One action; 409 with the rule when refused", None,
                                                     "ActionIn", "ActionOut", "200")})
register_operations("/games/{game_id}/undo", {"post": ("Judge only: take back the last event", None, None,
                                                  "UndoOut", "200")})
register_operations("/games/{game_id}/names", {"get": ("Every name taken", None, None, "NamesOut", "200")})
register_operations("/games/{game_id}/events", {"get": ("The append-only log", None, None, "EventsOut", "200")})
register_operations("/games/{game_id}/same-name", {"get": ("705.10: do these cards share a name?",
                                                            "SameNameQuery", None, "SameNameOut", "200")})
register_operations("/games/{game_id}/cards/{card_id}/face-up", {"get": (
    "705.4/705.4a: the names a face-down card may take if turned face up now", "FaceUpQuery", None,
    "FaceUpOut", "200")})
register_operations("/games/{game_id}/could-be", {"get": ("705.11: unnamed cards of a hand that could be named X",
                                                     "CouldBeQuery", None, "CouldBeOut", "200")})
