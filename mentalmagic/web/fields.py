"""marshmallow fields that wrap the domain's parsers."""

from __future__ import annotations

from marshmallow import ValidationError, fields

from ..mana import ManaCost, ManaCostError


class ManaCostField(fields.Field):
    """A printed mana cost: '{2}{W}{U/B}'; '' or 'none' is no mana cost (not {0})."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return ManaCost.parse(value)
        except ManaCostError as e:
            raise ValidationError([e.said]) from e

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else str(value)
