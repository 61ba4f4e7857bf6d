"""marshmallow fields that wrap the domain's parsers."""

from __future__ import annotations

from marshmallow import ValidationError, fields

from ..mana import ManaCost, ManaCostError
from ..messages import say


class ManaCostField(fields.Field):
    """A printed mana cost: '{2}{W}{U/B}'; '' or 'none' is no mana cost (not {0})."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return ManaCost.parse(value)
        except ManaCostError as e:
            raise ValidationError([e.said]) from e

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else str(value)


class CommanderIds(fields.Field):
    """A player's commander: its card id, or a list of the two (partners, or a commander and a background)."""

    def __init__(self, **kwargs):
        ids = {"type": "string", "minLength": 1}
        kwargs.setdefault("metadata", {})["oneOf"] = [ids, {"type": "array", "items": ids, "minItems": 2,
                                                            "maxItems": 2}]
        super().__init__(**kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and value or (
                isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) and v for v in value)):
            return value
        raise ValidationError([say("input.card_ids")])
