"""The series API (docs/rule-sets.md, "Series"): a playgroup's games under one rule set; translate only."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from marshmallow import fields

from .. import services
from ..rulesets import DEFAULT_RULES, RULE_SETS
from ..runtime.inputs import Length, OneOf, OptionsIn, Strict
from .bodies import json_body
from .openapi import Op, register_operations, register_schemas

bp = Blueprint("series", __name__, url_prefix="/api/v1/series")


class CreateSeriesIn(Strict):
    rules = fields.String(load_default=DEFAULT_RULES, validate=OneOf(RULE_SETS), metadata={
        "description": "the rule set every game of the series plays under (docs/rule-sets.md)"})
    options = fields.Nested(OptionsIn, load_default=lambda: {"phyrexian_as_hybrid": False})
    name = fields.String(load_default=None, allow_none=True, validate=Length(min=1, max=80), metadata={
        "description": "what the playgroup calls it, shown instead of its id (optional)"})


class SeriesCreatedOut(Strict):
    id = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "makes the series' games: shown only now"})
    rules = fields.Dict(required=True)
    name = fields.String(allow_none=True)


class SeriesOut(Strict):
    id = fields.String(required=True)
    name = fields.String(allow_none=True)
    created_at = fields.String(required=True)
    rules = fields.Dict(required=True)
    games = fields.List(fields.Dict(), required=True, metadata={
        "description": "in the order made: each game's id, status, names taken (GET /games/{id}/names) and "
                       "players (id and name, who took them)"})


_create = CreateSeriesIn()


def _uow():
    return current_app.extensions["mentalmagic"].games.unit_of_work()


@bp.post("")
def create_series():
    data = _create.load(json_body())
    return jsonify(services.create_series(_uow(), data["rules"], data["options"], data["name"])), 201


@bp.get("/<series_id>")
def get_series(series_id: str):
    return jsonify(services.series_view(_uow(), series_id, request.headers.get("Authorization")))


register_schemas(CreateSeriesIn, SeriesCreatedOut, SeriesOut)
register_operations("/series", {"post": Op(
    "createSeries", "games", "Create a series (201): its games share a rule set, and under xom their names (Xom 6)",
    "SeriesCreatedOut", ("400", "413", "422"), body="CreateSeriesIn", status="201")})
register_operations("/series/{series_id}", {"get": Op(
    "getSeries", "games", "The series' rule set and the names taken, game by game", "SeriesOut",
    ("401", "404"))})
