"""The JSON API for saved decks (docs/api.md, "Decks"): translate only; decks.py holds the use cases."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request
from marshmallow import ValidationError, fields

from .. import decks
from ..runtime.inputs import CreateDeckIn, OneOf, UpdateDeckIn
from ..storage.deckdb import DeckStore
from . import openapi
from .bodies import json_object
from .idempotency import answered, request_key
from .schemas import Out, Query

bp = Blueprint("decks", __name__, url_prefix="/api/v1/decks")
EXTENSION = "mentalmagic_decks"


@bp.record_once
def _attach_store(state):
    rt = state.app.extensions["mentalmagic"]
    state.app.extensions[EXTENSION] = DeckStore(rt.db_path, rt.pool)


def _uow():
    return current_app.extensions[EXTENSION].unit_of_work()


def deck_library(deck_id: str) -> list[str]:
    """The printed name of every card of saved deck ``deck_id``, for POST /games' ``"deck": id``.

    Raises UnknownDeck (404) or InvalidInput (422, an empty deck); call it inside a request."""
    return decks.deck_library(_uow(), deck_id)


# -- schemas (the inputs: runtime/inputs.py, the CLI's too) ----------------------------------------
class DryRunQuery(Query):
    dry_run = fields.Boolean(load_default=False, metadata={"description": "answer the same without saving"})


class DeckCardOut(Out):
    count = fields.Integer(required=True)
    name = fields.String(required=True, metadata={"description": "the English name of the printed card"})
    french_name = fields.String(allow_none=True, required=True)
    line = fields.Integer(required=True)


class DeckProblemOut(Out):
    line = fields.Integer(required=True)
    text = fields.String(required=True)
    message = fields.String(required=True)
    suggestions = fields.List(fields.String(), required=True)
    rule = fields.String()


class DeckReasonOut(Out):
    rule = fields.String(required=True)
    message = fields.String(required=True)


class DeckFlagOut(Out):
    name = fields.String(required=True)
    french_name = fields.String(allow_none=True, required=True)
    mental_magic = fields.String(allow_none=True, required=True, validate=OneOf(["banned", "watched"]),
                                 metadata={"description": "706.2-706.4 banned, 706.4a watched"})
    mental_magic_rule = fields.String(allow_none=True, required=True)
    formats = fields.Dict(keys=fields.String(), values=fields.String(validate=OneOf(["banned",
                                                                                             "restricted"])),
                          required=True, metadata={"description": "706.1"})
    unknown_cost = fields.List(fields.String(), required=True,
                               metadata={"description": "printed faces whose cost the data lacks (704.1, D2)"})
    reasons = fields.List(fields.Nested(DeckReasonOut), required=True)


class DeckOut(Out):
    id = fields.String(allow_none=True, required=True, metadata={"description": "null in a dry run"})
    name = fields.String(required=True)
    edit_token = fields.String(metadata={"description": "only in the answer to POST /decks, once"})
    cards = fields.List(fields.Nested(DeckCardOut), required=True)
    size = fields.Integer(required=True)
    problems = fields.List(fields.Nested(DeckProblemOut), required=True)
    flags = fields.List(fields.Nested(DeckFlagOut), required=True)
    legalities_known = fields.Boolean(required=True)
    list = fields.String(required=True)
    created_at = fields.String(allow_none=True)
    updated_at = fields.String(allow_none=True)
    dry_run = fields.Boolean()


class DeckSummaryOut(Out):
    id = fields.String(required=True)
    name = fields.String(required=True)
    size = fields.Integer(required=True)
    updated_at = fields.String()


class DecksOut(Out):
    decks = fields.List(fields.Nested(DeckSummaryOut), required=True)


class DeckDeletedOut(Out):
    deleted = fields.String(required=True)


_create, _update, _dry = CreateDeckIn(), UpdateDeckIn(), DryRunQuery()


def is_dry_run() -> bool:
    """Is this request a POST /decks?dry_run=1, read as the route reads it? It saves nothing, so
    the hourly cap on what a client creates doesn't count it (web/limits.py)."""
    if request.endpoint != f"{bp.name}.create_deck":
        return False
    try:
        return _dry.load(request.args.to_dict())["dry_run"]
    except ValidationError:
        return False  # the route refuses it (422), and a refusal creates nothing


# -- routes ---------------------------------------------------------------------------------------
@bp.post("")
def create_deck():
    query = _dry.load(request.args.to_dict())
    data = _create.load(json_object())
    if query["dry_run"]:
        request_key()  # the write's 400 for a key it refuses
        return jsonify(decks.dry_run(_uow(), data["name"], data["list"]))
    uow = _uow()
    return answered(uow, 201, lambda: decks.create_deck(uow, data["name"], data["list"]))


@bp.get("")
def list_decks():
    return jsonify({"decks": decks.list_decks(_uow())})


@bp.get("/<deck_id>")
def get_deck(deck_id: str):
    return jsonify(decks.get_deck(_uow(), deck_id))


@bp.put("/<deck_id>")
def update_deck(deck_id: str):
    auth = request.headers.get("Authorization")
    decks.authorize_deck(_uow(), deck_id, auth)  # 404, 401, 403 before the body is even read
    data = _update.load(json_object())
    return jsonify(decks.update_deck(_uow(), deck_id, auth, name=data.get("name"), text=data.get("list")))


@bp.delete("/<deck_id>")
def delete_deck(deck_id: str):
    return jsonify(decks.delete_deck(_uow(), deck_id, request.headers.get("Authorization")))


@bp.get("/<deck_id>/export")
def export_deck(deck_id: str):
    return Response(decks.export_deck(_uow(), deck_id), mimetype="text/plain")


# -- the OpenAPI document ---------------------------------------------------------------------------
openapi.register_schemas(CreateDeckIn, UpdateDeckIn, DryRunQuery, DeckOut, DecksOut, DeckDeletedOut)
DECKS = "decks"
openapi.register_operations("/decks", {
    "post": openapi.Op("createDeck", DECKS, "Save a deck list (201; the edit token is shown only here). "
                       "?dry_run=1 reads it without saving (200, id null)", "DeckOut", ("400", "413", "422"),
                       query="DryRunQuery", body="CreateDeckIn", status="201", idempotent=True),
    "get": openapi.Op("listDecks", DECKS, "Every saved deck", "DecksOut"),
})


def _dry_run_answers_200(doc: dict) -> None:
    """?dry_run=1 reads the list without saving: 200, beside the 201 of a saved deck."""
    responses = doc["paths"]["/decks"]["post"]["responses"]
    responses["200"] = {**responses["201"], "description": "dry run: read, not saved (id null)"}


openapi.PATCHES.append(_dry_run_answers_200)
openapi.register_operations("/decks/{deck_id}", {
    "get": openapi.Op("getDeck", DECKS, "A saved deck as read now: cards, problems with suggestions, flags (706)",
                      "DeckOut", ("404",)),
    "put": openapi.Op("updateDeck", DECKS, "Change a deck's name or list (its edit token)", "DeckOut",
                      ("400", "401", "403", "404", "413", "422"), body="UpdateDeckIn"),
    "delete": openapi.Op("deleteDeck", DECKS, "Delete a deck (its edit token)", "DeckDeletedOut",
                         ("401", "403", "404")),
})
openapi.register_operations("/decks/{deck_id}/export", {
    "get": openapi.Op("exportDeck", DECKS, "The deck as text, one `4 Shock` line per card", "DeckDeletedOut",
                      ("404",)),
})


def _export_is_text(doc: dict) -> None:
    ok = doc["paths"]["/decks/{deck_id}/export"]["get"]["responses"]["200"]
    ok["description"] = "the deck list as text"
    ok["content"] = {"text/plain": {"schema": {"type": "string"}}}


openapi.PATCHES.append(_export_is_text)
