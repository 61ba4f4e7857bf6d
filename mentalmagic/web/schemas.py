"""marshmallow schemas: the API's inputs are loaded through them, and its outputs
are described by them (the OpenAPI document is generated from these classes,
and the tests validate real responses against them)."""

from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from ..formats import FORMATS
from .fields import ManaCostField

STATUS_VALUES = ["legal", "banned", "restricted"]


class Strict(Schema):
    class Meta:
        unknown = RAISE


# -- inputs -------------------------------------------------------------------
class SearchQuery(Strict):
    q = fields.String(required=True, validate=validate.Length(min=1, max=200))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class _PrintedOrCost(Strict):
    printed = fields.String(validate=validate.Length(min=1, max=300))
    cost = ManaCostField(metadata={"description": "a printed cost; '' or 'none' = no mana cost"})
    format = fields.String(load_default="vintage", validate=validate.OneOf(FORMATS))
    game = fields.String(validate=validate.Length(min=1, max=100))
    phyrexian_as_hybrid = fields.Boolean(
        metadata={"description": "house option of D3; defaults to the game's option, else false"}
    )

    @validates_schema
    def one_of_printed_or_cost(self, data, **kwargs):
        if ("printed" in data) == ("cost" in data):
            raise ValidationError("give exactly one of printed or cost", field_name="printed")


class CandidatesQuery(_PrintedOrCost):
    type = fields.String(validate=validate.Length(min=1, max=50))
    keyword = fields.String(validate=validate.Length(min=1, max=50))
    limit = fields.Integer(validate=validate.Range(min=1, max=10000))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))


class CheckQuery(_PrintedOrCost):
    name = fields.String(required=True, validate=validate.Length(min=1, max=300))


# -- outputs ------------------------------------------------------------------
class FaceOut(Schema):
    name = fields.String(required=True)
    french_name = fields.String(allow_none=True, required=True)
    mana_cost = fields.String(allow_none=True, required=True,
                              metadata={"description": "'' = no mana cost; null = unknown to the source"})
    cost_known = fields.Boolean(required=True)
    mana_value = fields.Float(allow_none=True, required=True)
    type_line = fields.String(required=True)
    keywords = fields.List(fields.String(), required=True)
    text = fields.String(required=True)


class CardOut(Schema):
    name = fields.String(required=True)
    french_name = fields.String(allow_none=True, required=True)
    layout = fields.String(required=True)
    mana_cost = fields.String(allow_none=True)
    faces = fields.List(fields.Nested(FaceOut), required=True)
    legalities = fields.Dict(keys=fields.String(), values=fields.String(validate=validate.OneOf(STATUS_VALUES)),
                             required=True)
    mental_magic = fields.String(allow_none=True, required=True, validate=validate.OneOf(["banned", "watched"]))
    mental_magic_rule = fields.String(allow_none=True)
    nameable_as = fields.List(fields.String(), metadata={"description": "the names this card offers (D4)"})
    printed_costs = fields.List(fields.String(), metadata={"description": "costs it offers when printed"})


class CardSummaryOut(Schema):
    name = fields.String(required=True)
    french_name = fields.String(allow_none=True, required=True)
    mana_cost = fields.String(allow_none=True, required=True)


class SearchOut(Schema):
    cards = fields.List(fields.Nested(CardSummaryOut), required=True)


class CandidateOut(Schema):
    name = fields.String(required=True)
    french_name = fields.String(allow_none=True, required=True)
    mana_cost = fields.String(required=True)
    mana_value = fields.Float(required=True)
    type_line = fields.String(required=True)
    taken = fields.Boolean(required=True)
    watched = fields.Boolean(required=True)
    card = fields.String(required=True, metadata={"description": "the full name of the card it belongs to"})


class CandidatesOut(Schema):
    printed = fields.Nested(CardOut, allow_none=True, required=True)
    costs = fields.List(fields.String(), required=True)
    format = fields.String(required=True)
    count = fields.Integer(required=True, metadata={"description": "all candidates, before limit/offset"})
    candidates = fields.List(fields.Nested(CandidateOut), required=True)
    unknown_faces = fields.List(fields.String(), metadata={"description": "printed faces of unknown cost"})


class ReasonOut(Schema):
    rule = fields.String(required=True)
    message = fields.String(required=True)


class CheckOut(Schema):
    legal = fields.Boolean(required=True)
    reasons = fields.List(fields.Nested(ReasonOut), required=True)
    name = fields.String(allow_none=True)
    format = fields.String(required=True)


class HealthOut(Schema):
    status = fields.String(required=True)
    source = fields.String(required=True)
    card_count = fields.Integer(required=True)
    built_at = fields.String(required=True)
    lacks = fields.List(fields.String(), required=True)
    legalities_known = fields.Boolean(required=True)
    french_known = fields.Boolean(required=True)
    formats = fields.List(fields.String(), required=True)
    unresolved_bans = fields.List(fields.String(), required=True)
    version = fields.String(required=True)


class ErrorBody(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)
    rule = fields.String()
    fields = fields.Dict()


class ErrorOut(Schema):
    error = fields.Nested(ErrorBody, required=True)
