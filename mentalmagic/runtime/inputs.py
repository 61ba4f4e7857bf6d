"""What a caller sends to start or change a game, checked and typed: a new game's body and one
body per action (marshmallow). The API loads requests through them and describes them in its
OpenAPI document; the CLI builds the same bodies from its options, so both check alike."""

from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, pre_load, validate, validates_schema

from .. import commands
from ..decklist import MAX_TEXT
from ..formats import FORMATS
from ..messages import WORDS, Message, say
from ..rulesets import DEFAULT_RULES, RULE_SETS
from ..zones import MOVE_ZONES
from ..zones import VIAS as ZONE_VIAS

# -- marshmallow's messages as codes: worded at each edge in its caller's language ---------------
# Its fixed default messages (a field's or a schema's), each a code of messages.py whose English
# is marshmallow's own text: any error marshmallow raises is turned into codes by ``coded``.
_LIBRARY_CODES = {WORDS[code]: code for code in (
    "input.required", "input.null", "input.invalid", "input.integer", "input.number", "input.number_large",
    "input.number_special", "input.string", "input.utf8", "input.boolean", "input.list", "input.mapping",
    "input.nested_type", "input.schema_type", "input.unknown_field")}


def coded(messages):
    """``messages`` (a ValidationError's, however nested) with marshmallow's own texts as codes."""
    if isinstance(messages, dict):
        return {k: coded(v) for k, v in messages.items()}
    if isinstance(messages, list | tuple):
        return [coded(m) for m in messages]
    if isinstance(messages, str) and messages in _LIBRARY_CODES:
        return Message(_LIBRARY_CODES[messages])
    return messages


class Length(validate.Length):
    """marshmallow's Length, saying a code whose params are its bounds (the value itself is never echoed)."""

    def _format_error(self, value, message: str) -> list[Message]:
        if message == self.message_equal:
            return [say("input.length_equal", equal=self.equal)]
        if message == self.message_min:
            return [say("input.length_min", min=self.min)]
        if message == self.message_max:
            return [say("input.length_max", max=self.max)]
        return [say("input.length_between", min=self.min, max=self.max)]


class Range(validate.Range):
    """marshmallow's Range (bounds included), saying a code whose params are its bounds."""

    def __init__(self, min=None, max=None, **kwargs):  # noqa: A002 - marshmallow's own names
        super().__init__(min, max, **kwargs)
        if not (self.min_inclusive and self.max_inclusive):
            raise TypeError("Range says its bounds included; an excluded bound needs its own message code")

    def _format_error(self, value, message: str) -> list[Message]:
        if self.max is None:
            return [say("input.at_least", min=self.min)]
        if self.min is None:
            return [say("input.at_most", max=self.max)]
        return [say("input.between", min=self.min, max=self.max)]


class OneOf(validate.OneOf):
    """marshmallow's OneOf, saying a code whose param is the list of choices."""

    def _format_error(self, value) -> list[Message]:
        return [say("input.one_of", choices=list(self.choices))]


class Strict(Schema):
    class Meta:
        unknown = RAISE

    @pre_load
    def format_any_case(self, data, **kwargs):
        """'VINTAGE' means vintage, as it does to the domain."""
        if isinstance(data, dict) and isinstance(data.get("format"), str):
            data = {**data, "format": data["format"].strip().lower()}
        return data


ZONES = list(MOVE_ZONES)
VIAS = list(ZONE_VIAS)
_id = fields.String(validate=Length(min=1, max=64))


class CommanderNames(fields.Field):
    """A player's commander: one name, or a list of two (partners, or a commander and a background)."""

    def _deserialize(self, value, attr, data, **kwargs):
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not 1 <= len(names) <= 2 or not all(
                isinstance(n, str) and 1 <= len(n.strip()) <= 300 for n in names):
            raise ValidationError([say("input.commander")])
        return [n.strip() for n in names]


class PlayerIn(Strict):
    name = fields.String(required=True, validate=Length(min=1, max=60))
    team = fields.String(allow_none=True, load_default=None, validate=Length(min=1, max=60))
    commander = CommanderNames(metadata={
        "oneOf": [{"type": "string", "minLength": 1, "maxLength": 300},
                  {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 300},
                   "minItems": 1, "maxItems": 2}],
        "description": "format commander only, and required there: the player's commander, or a list of two "
                       "partners (903.3, D14); 422 when it can't be one, and in any other format"})


class Flag(fields.Boolean):
    """JSON true or false, not "yes", 1 or 0 (a bot that sends those has a bug worth hearing about;
    Python's 0 == False, so marshmallow's ``falsy={False}`` alone would take a 0)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


def flag(**kwargs) -> fields.Boolean:
    """A body's boolean: ``Flag`` (every boolean of every body is one; a query's ``dry_run=1`` is text)."""
    return Flag(truthy={True}, falsy={False}, **kwargs)


class OptionsIn(Strict):
    phyrexian_as_hybrid = flag(load_default=False, metadata={"description": "house option of D3"})


class CreateGameIn(Strict):
    format = fields.String(load_default="vintage", validate=OneOf(FORMATS))
    players = fields.List(fields.Nested(PlayerIn), required=True, validate=Length(min=2, max=16))
    library = fields.List(fields.String(validate=Length(min=1, max=300)),
                          validate=Length(min=1, max=2000),
                          metadata={"description": "printed identity of every physical card, duplicates allowed"})
    deck = fields.String(validate=Length(min=1, max=64),
                         metadata={"description": "a saved deck's id (GET /decks), in place of library"})
    options = fields.Nested(OptionsIn, load_default=lambda: {"phyrexian_as_hybrid": False})
    rules = fields.String(load_default=DEFAULT_RULES, validate=OneOf(RULE_SETS), metadata={
        "description": "the rule set (docs/rule-sets.md): magic-ville (the default), xom or magering; "
                       "options are its options"})
    series = fields.String(validate=Length(min=1, max=100), metadata={
        "description": "a series' id (POST /series): the game plays under its rule set; send the series' token"})
    shuffle = flag(load_default=True, metadata={
        "description": "false keeps the given order as the library, top first (a judge recording a real table)"})
    exactly_one = ("library", "deck")  # for the OpenAPI document, which can't read validates_schema

    @validates_schema
    def library_or_deck(self, data, **kwargs):
        if ("library" in data) == ("deck" in data):
            raise ValidationError([say("input.library_or_deck")], field_name="library")

    @pre_load
    def rules_any_case(self, data, **kwargs):
        if isinstance(data, dict) and isinstance(data.get("rules"), str):
            data = {**data, "rules": data["rules"].strip().lower()}
        return data


class Text(fields.String):
    """A name or printed identity: surrounding blanks dropped, never empty (the core compares folded names)."""

    def __init__(self, **kwargs):
        super().__init__(validate=Length(min=1, max=300), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).strip()


def _kind(command: type[commands.Command]) -> fields.String:
    """``type`` names the schema's own action: the discriminator of the OpenAPI document's oneOf."""
    return fields.String(required=True, validate=OneOf([command.type]))


def _distinct(ids: list) -> None:
    if len(set(ids)) != len(ids):
        raise ValidationError([say("input.distinct_ids")])


_card = fields.String(required=True, validate=Length(min=1, max=64))
_cards = fields.List(fields.String(validate=Length(min=1, max=64)),
                     validate=[Length(min=1), _distinct])
_count = fields.Integer(strict=True, validate=Range(min=1, max=500))


class _Action(Strict):
    """One action body; ``post_load`` builds the typed command the core decides on."""

    command: type[commands.Command]
    player = _id

    @post_load
    def to_command(self, data, **kwargs) -> commands.Command:
        data = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "type"}
        return self.command(**data)


class _MayLeave(_Action):
    """An action by which a player may leave the game (commands.MayLeave): leave_game, and those that
    may cost a player the game (D8, 903.10a)."""

    names = fields.Dict(keys=fields.String(validate=Length(min=1, max=64)),
                        values=fields.String(validate=Length(min=1, max=300)),
                        validate=Length(max=500), metadata={
        "description": "D12: {card: name} for the face-down cards of a player who leaves in this action (leaving,"
                       " or losing: D8, 903.10a) that leave with them or are exiled: revealed as they go, that"
                       " player, their controller, names them (705.4, 705.4a)"})

    @post_load
    def to_command(self, data, **kwargs) -> commands.Command:
        if "names" in data:
            data["names"] = tuple(sorted(data["names"].items()))
        return super().to_command(data, **kwargs)


class DrawIn(_Action):
    command = commands.Draw
    type = _kind(commands.Draw)
    not_both = ("count", "printed")
    count = _count
    printed = Text(metadata={"description": "judge only: which physical card was drawn at the table"})

    @validates_schema
    def count_or_printed(self, data, **kwargs):
        if "count" in data and "printed" in data:
            raise ValidationError([say("input.count_or_printed")], field_name="count")


class MoveIn(_MayLeave):
    command = commands.Move
    type = _kind(commands.Move)
    card = _card
    to = fields.String(required=True, validate=OneOf(ZONES))
    face_down = flag()
    pentaland = flag()
    name = Text()
    position = fields.String(validate=OneOf(["top", "bottom"]),
                             metadata={"description": "with to=library: top (default) or bottom"})
    via = fields.String(validate=OneOf(VIAS), metadata={
        "description": "how a card goes face down (morph, manifest...): the name it takes face up must fit (705.4)"})

    @validates_schema
    def position_in_library(self, data, **kwargs):
        if "position" in data and data.get("to") != "library":
            raise ValidationError([say("input.position")], field_name="position")


class NameIn(_Action):
    command = commands.Name
    type = _kind(commands.Name)
    card = _card
    name = Text(required=True)
    choice = flag(load_default=False, metadata={
        "description": "705.5, D11: the acting player names a card an effect has them choose among cards revealed"
                       " to them, which they need not own or control"})


class TurnFaceUpIn(_MayLeave):
    command = commands.TurnFaceUp
    type = _kind(commands.TurnFaceUp)
    card = _card
    name = Text()
    via = fields.String(validate=OneOf(VIAS), metadata={
        "description": "how it is turned up; default: how it went face down, else 'effect'"})


class _CardsOrCount(_Action):
    exactly_one = ("cards", "count")  # for the OpenAPI document, which can't read validates_schema
    cards = _cards
    count = _count

    @validates_schema
    def cards_or_count(self, data, **kwargs):
        if ("cards" in data) == ("count" in data):
            raise ValidationError([say("input.cards_or_count")], field_name="cards")


class RevealIn(_CardsOrCount):
    command = commands.Reveal
    type = _kind(commands.Reveal)
    continuous = flag(load_default=False)


class LookIn(_CardsOrCount):
    command = commands.Look
    type = _kind(commands.Look)


class EndRevealIn(_Action):
    command = commands.EndReveal
    type = _kind(commands.EndReveal)
    cards = fields.List(fields.String(validate=Length(min=1, max=64)), required=True,
                        validate=[Length(min=1), _distinct])


class EndLookIn(EndRevealIn):
    command = commands.EndLook
    type = _kind(commands.EndLook)


class LeaveGameIn(_MayLeave):
    command = commands.LeaveGame
    type = _kind(commands.LeaveGame)
    returned = fields.List(fields.String(validate=Length(min=1, max=64)), validate=_distinct, metadata={
        "description": "D9: the cards the leaver controls only through a control-changing effect; they go back to"
                       " their owner's control where they are"})


class ShuffleIn(_Action):
    command = commands.Shuffle
    type = _kind(commands.Shuffle)
    at = fields.Integer(strict=True, validate=Range(min=0, max=2000), metadata={
        "description": "judge only: the cut seen at the table, this many cards from the top (0 or the library's"
                       " size: recorded, no change); else the service cuts at a random point (701.1b)"})


class SearchLibraryIn(_Action):
    """701.1a: always refused (409), whatever else it says, so a bot learns why."""

    class Meta:
        unknown = "exclude"  # marshmallow.EXCLUDE: whatever else it says, the answer is 701.1a

    command = commands.Search
    type = _kind(commands.Search)


class EndGameIn(_Action):
    """Judge only: the game is finished; undoing this event takes the end back."""

    command = commands.EndGame
    type = _kind(commands.EndGame)


class CommanderDamageIn(_MayLeave):
    command = commands.CommanderDamage
    type = _kind(commands.CommanderDamage)
    player = fields.String(required=True, validate=Length(min=1, max=64),
                           metadata={"description": "the player dealt the damage"})
    commander = fields.String(required=True, validate=Length(min=1, max=64),
                              metadata={"description": "the commander's card id"})
    amount = fields.Integer(strict=True, required=True, validate=Range(min=1, max=1000),
                            metadata={"description": "combat damage dealt (903.10a: 21 from one commander loses)"})


class TurnIn(_Action):
    """A new turn (issue 32): ``player`` the active player (a player starts only their own), ``number``
    the turn's (default: the last one's and one). Where turns are kept, Xom's Utopia is checked (4, 4a)."""

    command = commands.Turn
    type = _kind(commands.Turn)
    number = fields.Integer(strict=True, validate=Range(min=1, max=100_000),
                            metadata={"description": "the turn's number; default: the last turn's and one"})


ACTIONS: dict[str, type[_Action]] = {
    s.command.type: s for s in (DrawIn, MoveIn, NameIn, TurnFaceUpIn, RevealIn, LookIn, EndRevealIn, EndLookIn,
                                LeaveGameIn, ShuffleIn, SearchLibraryIn,
                                EndGameIn, CommanderDamageIn, TurnIn)
}


def load_action(data) -> commands.Command:
    """The typed command of one action body, checked by the schema its ``type`` selects."""
    if not isinstance(data, dict):
        raise ValidationError({"_schema": [say("input.action_object")]})
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTIONS:
        raise ValidationError({"type": [say("input.one_of", choices=list(ACTIONS))]})
    schema = _LOADERS.get(kind)
    if schema is None:  # built once per type: a schema's construction cost more than its load (issue 8)
        schema = _LOADERS[kind] = ACTIONS[kind]()
    return schema.load(data)


_LOADERS: dict[str, _Action] = {}  # a schema keeps no state between loads: threads share one


# -- saved decks (docs/api.md, "Decks"): POST /decks and `mentalmagic deck add` alike ----------------
_name = fields.String(validate=Length(min=1, max=100))
_list = fields.String(validate=Length(min=1, max=MAX_TEXT),
                      metadata={"description": "the deck list: one card a line, `4 Shock`, `4x Shock`, `Shock`, "
                                               "English or French names, comments and headers ignored"})


class DeckIn(Strict):
    name = _name
    list = _list


class CreateDeckIn(DeckIn):
    name = fields.String(required=True, validate=Length(min=1, max=100))
    list = fields.String(required=True, validate=Length(min=1, max=MAX_TEXT),
                         metadata=_list.metadata)


class UpdateDeckIn(DeckIn):
    """A new name, a new list, or both."""

    @validates_schema
    def something(self, data, **kwargs):
        if not data:
            raise ValidationError([say("input.deck_change")], field_name="_schema")
