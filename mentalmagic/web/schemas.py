"""marshmallow schemas: the API's inputs are loaded through them, and its outputs
are described by them (the OpenAPI document is generated from these classes,
and the tests validate real responses against them)."""

from __future__ import annotations

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, post_load, pre_load, validate, validates_schema

from .. import commands
from ..formats import FORMATS
from ..zones import MOVE_ZONES, REMOVED
from ..zones import VIAS as ZONE_VIAS
from .fields import ManaCostField

STATUS_VALUES = ["legal", "banned", "restricted"]


class Strict(Schema):
    class Meta:
        unknown = RAISE

    @pre_load
    def format_any_case(self, data, **kwargs):
        """'VINTAGE' means vintage, as it does to the domain."""
        if isinstance(data, dict) and isinstance(data.get("format"), str):
            data = {**data, "format": data["format"].strip().lower()}
        return data


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
    commander = fields.List(fields.String(validate=validate.Length(max=300)), metadata={
        "description": "answer within this commander's colour identity (903.5c); repeat it for two "
                       "partners. One that can't be a commander is a 422 (903.3, D14(c))"})
    player = fields.String(validate=validate.Length(min=1, max=64), metadata={
        "description": "with game: answer within this player's commander's colour identity (903.5c)"})

    @validates_schema
    def one_of_printed_or_cost(self, data, **kwargs):
        if ("printed" in data) == ("cost" in data):
            raise ValidationError("give exactly one of printed or cost", field_name="printed")

    @validates_schema
    def player_of_a_game(self, data, **kwargs):
        if "player" in data and not data.get("game"):
            raise ValidationError("player is a player of a game: give game too", field_name="player")
        if "player" in data and "commander" in data:
            raise ValidationError("give commander or player, not both", field_name="player")


class CandidatesQuery(_PrintedOrCost):
    type = fields.String(validate=validate.Length(min=1, max=50))
    keyword = fields.String(validate=validate.Length(min=1, max=50))
    limit = fields.Integer(validate=validate.Range(min=1, max=10000))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))


class CheckQuery(_PrintedOrCost):
    name = fields.String(required=True, validate=validate.Length(min=1, max=300))


# -- outputs ------------------------------------------------------------------
class Out(Schema):
    """An answer: API.md lets the service add fields freely, so clients must accept unknown ones."""

    class Meta:
        unknown = INCLUDE


class FaceOut(Out):
    name = fields.String(required=True)
    french_name = fields.String(allow_none=True, required=True)
    mana_cost = fields.String(allow_none=True, required=True,
                              metadata={"description": "'' = no mana cost; null = unknown to the source"})
    cost_known = fields.Boolean(required=True)
    mana_value = fields.Float(allow_none=True, required=True)
    type_line = fields.String(required=True)
    keywords = fields.List(fields.String(), required=True)
    text = fields.String(required=True)
    power = fields.String(allow_none=True, metadata={"description": "as printed; null when the face has none"})
    toughness = fields.String(allow_none=True)
    loyalty = fields.String(allow_none=True)
    defense = fields.String(allow_none=True)


class CardOut(Out):
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
    color_identity = fields.List(fields.String(), allow_none=True,
                                 metadata={"description": "903.4, in WUBRG order; null = unknown to the source"})
    can_be_commander = fields.Boolean(metadata={"description": "by itself (903.3, 903.3a)"})


class CardSummaryOut(Out):
    name = fields.String(required=True)
    french_name = fields.String(allow_none=True, required=True)
    mana_cost = fields.String(allow_none=True, required=True)


class SearchOut(Out):
    cards = fields.List(fields.Nested(CardSummaryOut), required=True)


class CandidateOut(Out):
    name = fields.String(required=True)
    french_name = fields.String(allow_none=True, required=True)
    mana_cost = fields.String(required=True)
    mana_value = fields.Float(required=True)
    type_line = fields.String(required=True)
    taken = fields.Boolean(required=True)
    watched = fields.Boolean(required=True)
    card = fields.String(required=True, metadata={"description": "the full name of the card it belongs to"})


class ExcludedOut(Out):
    name = fields.String(required=True)
    french_name = fields.String(allow_none=True, required=True)
    rule = fields.String(allow_none=True, required=True, metadata={"description": "null: left out by a filter"})
    reason = fields.String(required=True)


class CandidatesOut(Out):
    printed = fields.Nested(CardOut, allow_none=True, required=True)
    costs = fields.List(fields.String(), required=True)
    format = fields.String(required=True)
    count = fields.Integer(required=True, metadata={"description": "all candidates, before limit/offset"})
    candidates = fields.List(fields.Nested(CandidateOut), required=True)
    unknown_faces = fields.List(fields.String(), metadata={"description": "printed faces of unknown cost"})
    excluded = fields.List(fields.Nested(ExcludedOut), metadata={
        "description": "only when count is 0: each card of a matching cost and why it is out"})
    commander = fields.List(fields.String(), metadata={"description": "only with ?commander=: the commander(s)"})
    color_identity = fields.List(fields.String(), metadata={
        "description": "only with ?commander=: their colour identity, WUBRG order (903.5c)"})


class ReasonOut(Out):
    rule = fields.String(required=True)
    message = fields.String(required=True)


class CheckOut(Out):
    legal = fields.Boolean(required=True)
    reasons = fields.List(fields.Nested(ReasonOut), required=True)
    name = fields.String(allow_none=True)
    format = fields.String(required=True)
    commander = fields.List(fields.String(), metadata={"description": "only with ?commander=: the commander(s)"})
    color_identity = fields.List(fields.String(), metadata={
        "description": "only with ?commander=: their colour identity, WUBRG order (903.5c)"})


class HealthOut(Out):
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
    reasons = fields.List(fields.String(), metadata={"description": "only when degraded (503): what failed"})


class ErrorBody(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)
    rule = fields.String()
    fields = fields.Dict()


class ErrorOut(Schema):
    error = fields.Nested(ErrorBody, required=True)


# -- games (API.md, "Games") -------------------------------------------------------
ZONES = list(MOVE_ZONES)
VIAS = list(ZONE_VIAS)
_id = fields.String(validate=validate.Length(min=1, max=64))


class CommanderNames(fields.Field):
    """A player's commander: one name, or a list of two (partners, or a commander and a background)."""

    def _deserialize(self, value, attr, data, **kwargs):
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not 1 <= len(names) <= 2 or not all(
                isinstance(n, str) and 1 <= len(n.strip()) <= 300 for n in names):
            raise ValidationError("a card name, or a list of two (partners, D14(c))")
        return [n.strip() for n in names]


class PlayerIn(Strict):
    name = fields.String(required=True, validate=validate.Length(min=1, max=60))
    team = fields.String(allow_none=True, load_default=None, validate=validate.Length(min=1, max=60))
    commander = CommanderNames(metadata={
        "oneOf": [{"type": "string", "minLength": 1, "maxLength": 300},
                  {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 300},
                   "minItems": 1, "maxItems": 2}],
        "description": "format commander only, and required there: the player's commander, or a list of two "
                       "partners (903.3, D14); 422 when it can't be one, and in any other format"})


class OptionsIn(Strict):
    phyrexian_as_hybrid = fields.Boolean(load_default=False, metadata={"description": "house option of D3"})


class CreateGameIn(Strict):
    format = fields.String(load_default="vintage", validate=validate.OneOf(FORMATS))
    players = fields.List(fields.Nested(PlayerIn), required=True, validate=validate.Length(min=2, max=16))
    library = fields.List(fields.String(validate=validate.Length(min=1, max=300)),
                          validate=validate.Length(min=1, max=2000),
                          metadata={"description": "printed identity of every physical card, duplicates allowed"})
    deck = fields.String(validate=validate.Length(min=1, max=64),
                         metadata={"description": "a saved deck's id (GET /decks), in place of library"})
    options = fields.Nested(OptionsIn, load_default=lambda: {"phyrexian_as_hybrid": False})
    shuffle = fields.Boolean(load_default=True, metadata={
        "description": "false keeps the given order as the library, top first (a judge recording a real table)"})
    exactly_one = ("library", "deck")  # for the OpenAPI document, which can't read validates_schema

    @validates_schema
    def library_or_deck(self, data, **kwargs):
        if ("library" in data) == ("deck" in data):
            raise ValidationError("give exactly one of library or deck", field_name="library")


class PlayerOut(Out):
    id = fields.String(required=True)
    name = fields.String(required=True)
    team = fields.String(allow_none=True)
    token = fields.String(metadata={"description": "shown once, at creation"})
    status = fields.String()
    commander = fields.String(allow_none=True, metadata={"description": "commander games: the commander's card id"})
    commanders = fields.List(fields.String(), metadata={"description": "commander games: every commander's card id"})
    color_identity = fields.List(fields.String(), metadata={
        "description": "commander games: the identity the player names within, WUBRG order (903.5c)"})
    commander_casts = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "commander games: casts from the command zone, per commander card id (903.8)"})
    commander_tax = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "commander games: what the next cast from the command zone costs more, '{2}' a cast (903.8)"})
    commander_damage = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "commander games: combat damage taken, per commander card id; 21 loses (903.10a)"})


class CreateGameOut(Out):
    id = fields.String(required=True)
    judge_token = fields.String(required=True)
    players = fields.List(fields.Nested(PlayerOut), required=True)
    library_size = fields.Integer(required=True)
    format = fields.String()
    options = fields.Dict()


class Text(fields.String):
    """A name or printed identity: surrounding blanks dropped, never empty (the core compares folded names)."""

    def __init__(self, **kwargs):
        super().__init__(validate=validate.Length(min=1, max=300), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).strip()


def _flag(**kwargs) -> fields.Boolean:
    """JSON true or false, not "yes" or 1 (a bot that sends those has a bug worth hearing about)."""
    return fields.Boolean(truthy={True}, falsy={False}, **kwargs)


def _kind(command: type[commands.Command]) -> fields.String:
    """``type`` names the schema's own action: the discriminator of the OpenAPI document's oneOf."""
    return fields.String(required=True, validate=validate.OneOf([command.type]))


def _distinct(ids: list) -> None:
    if len(set(ids)) != len(ids):
        raise ValidationError("expected a list of distinct ids")


_card = fields.String(required=True, validate=validate.Length(min=1, max=64))
_cards = fields.List(fields.String(validate=validate.Length(min=1, max=64)),
                     validate=[validate.Length(min=1), _distinct])
_count = fields.Integer(strict=True, validate=validate.Range(min=1, max=500))
_via = fields.String(validate=validate.OneOf(VIAS))


class _Action(Strict):
    """One action body; ``post_load`` builds the typed command the core decides on."""

    command: type[commands.Command]
    player = _id

    @post_load
    def to_command(self, data, **kwargs) -> commands.Command:
        data = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "type"}
        return self.command(**data)


class DrawIn(_Action):
    command = commands.Draw
    type = _kind(commands.Draw)
    not_both = ("count", "printed")
    count = _count
    printed = Text(metadata={"description": "judge only: which physical card was drawn at the table"})

    @validates_schema
    def count_or_printed(self, data, **kwargs):
        if "count" in data and "printed" in data:
            raise ValidationError("give count or printed, not both", field_name="count")


class MoveIn(_Action):
    command = commands.Move
    type = _kind(commands.Move)
    card = _card
    to = fields.String(required=True, validate=validate.OneOf(ZONES))
    face_down = _flag()
    pentaland = _flag()
    name = Text()
    position = fields.String(validate=validate.OneOf(["top", "bottom"]),
                             metadata={"description": "with to=library: top (default) or bottom"})
    via = fields.String(validate=validate.OneOf(VIAS), metadata={
        "description": "how a card goes face down (morph, manifest...): the name it takes face up must fit (705.4)"})

    @validates_schema
    def position_in_library(self, data, **kwargs):
        if "position" in data and data.get("to") != "library":
            raise ValidationError("position is top or bottom, for the library only", field_name="position")


class NameIn(_Action):
    command = commands.Name
    type = _kind(commands.Name)
    card = _card
    name = Text(required=True)
    choice = _flag(load_default=False, metadata={
        "description": "705.5, D11: the acting player names a card an effect has them choose among cards revealed"
                       " to them, which they need not own or control"})


class TurnFaceUpIn(_Action):
    command = commands.TurnFaceUp
    type = _kind(commands.TurnFaceUp)
    card = _card
    name = Text()
    via = fields.String(validate=validate.OneOf(VIAS), metadata={
        "description": "how it is turned up; default: how it went face down, else 'effect'"})


class _CardsOrCount(_Action):
    exactly_one = ("cards", "count")  # for the OpenAPI document, which can't read validates_schema
    cards = _cards
    count = _count

    @validates_schema
    def cards_or_count(self, data, **kwargs):
        if ("cards" in data) == ("count" in data):
            raise ValidationError("give exactly one of cards or count", field_name="cards")


class RevealIn(_CardsOrCount):
    command = commands.Reveal
    type = _kind(commands.Reveal)
    continuous = _flag(load_default=False)


class LookIn(_CardsOrCount):
    command = commands.Look
    type = _kind(commands.Look)


class EndRevealIn(_Action):
    command = commands.EndReveal
    type = _kind(commands.EndReveal)
    cards = fields.List(fields.String(validate=validate.Length(min=1, max=64)), required=True,
                        validate=[validate.Length(min=1), _distinct])


class EndLookIn(EndRevealIn):
    command = commands.EndLook
    type = _kind(commands.EndLook)


class LeaveGameIn(_Action):
    command = commands.LeaveGame
    type = _kind(commands.LeaveGame)
    returned = fields.List(fields.String(validate=validate.Length(min=1, max=64)), validate=_distinct, metadata={
        "description": "D9: the cards the leaver controls only through a control-changing effect; they go back to"
                       " their owner's control where they are"})


class ShuffleIn(_Action):
    command = commands.Shuffle
    type = _kind(commands.Shuffle)
    at = fields.Integer(strict=True, validate=validate.Range(min=1, max=2000), metadata={
        "description": "judge only: the cut seen at the table, this many cards from the top; else the service cuts"
                       " at a random point (701.1b)"})


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


class CommanderDamageIn(_Action):
    command = commands.CommanderDamage
    type = _kind(commands.CommanderDamage)
    player = fields.String(required=True, validate=validate.Length(min=1, max=64),
                           metadata={"description": "the player dealt the damage"})
    commander = fields.String(required=True, validate=validate.Length(min=1, max=64),
                              metadata={"description": "the commander's card id"})
    amount = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=1000),
                            metadata={"description": "combat damage dealt (903.10a: 21 from one commander loses)"})


ACTIONS: dict[str, type[_Action]] = {
    s.command.type: s for s in (DrawIn, MoveIn, NameIn, TurnFaceUpIn, RevealIn, LookIn, EndRevealIn, EndLookIn,
                                LeaveGameIn, ShuffleIn, SearchLibraryIn,
                                EndGameIn, CommanderDamageIn)
}


def load_action(data) -> commands.Command:
    """The typed command of one action body, checked by the schema its ``type`` selects."""
    if not isinstance(data, dict):
        raise ValidationError({"_schema": ["an action is a JSON object"]})
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTIONS:
        raise ValidationError({"type": [f"must be one of: {', '.join(ACTIONS)}"]})
    schema = _LOADERS.get(kind)
    if schema is None:  # built once per type: a schema's construction cost more than its load (issue 8)
        schema = _LOADERS[kind] = ACTIONS[kind]()
    return schema.load(data)


_LOADERS: dict[str, _Action] = {}  # a schema keeps no state between loads: threads share one


class GameCardOut(Out):
    id = fields.String(required=True)
    zone = fields.String(required=True, validate=validate.OneOf([*ZONES, REMOVED]))
    owner = fields.String(allow_none=True, required=True)
    controller = fields.String(allow_none=True, required=True)
    face_down = fields.Boolean(required=True)
    pentaland = fields.Boolean(required=True)
    named_as = fields.String(allow_none=True, required=True)
    printed = fields.String(allow_none=True, metadata={"description": "only where the caller may see it"})
    revealed = fields.Boolean()
    printed_mana_cost = fields.String(allow_none=True, metadata={"description": "printed cost (705.7), if visible"})
    mana_value = fields.Float(allow_none=True, metadata={
        "description": "printed mana value (705.7), if visible: an integer when whole (1, never 1.0)"})
    nonland = fields.Boolean(metadata={
        "description": "705.9, D13(b): true when known to be nonland without naming (a non-empty printed cost, {0}"
                       " included, or named a nonland card); false otherwise: a land, a Pentaland, or an unnamed"
                       " card with no mana cost (its owner names it, 705.6)"})
    colors = fields.List(fields.String(), metadata={"description": "printed colours (705.8), if visible"})
    handle = fields.Integer(metadata={"description": "GET /games/{id}: the card's number in the line grammar"})
    commander = fields.Boolean(metadata={"description": "present and true on a commander, in every zone (903.3)"})


class FinishedOut(Out):
    seq = fields.Integer(required=True)
    by = fields.String(required=True, validate=validate.OneOf(["last_side", "judge"]))
    winners = fields.List(fields.String(), required=True)
    rule = fields.String(allow_none=True)


class GameOut(Out):
    id = fields.String(required=True)
    format = fields.String(required=True)
    options = fields.Dict(required=True)
    players = fields.List(fields.Nested(PlayerOut), required=True)
    library_size = fields.Integer(required=True)
    seq = fields.Integer(required=True)
    cards = fields.List(fields.Nested(GameCardOut), required=True)
    you = fields.String(allow_none=True)
    status = fields.String(validate=validate.OneOf(["active", "finished"]), metadata={
        "description": "finished once the players still in are all of one side (104.2a, D7) or the judge ended it"})
    finished = fields.Nested(FinishedOut, allow_none=True)
    archived = fields.Boolean(metadata={"description": "read-only: idle or over for MENTALMAGIC_ARCHIVE_AFTER hours"})


class EventOut(Out):
    seq = fields.Integer(required=True)
    at = fields.String(required=True, metadata={"format": "date-time"})
    type = fields.String(required=True, validate=validate.OneOf(list(commands.ACTION_TYPES)))
    player = fields.String(allow_none=True, required=True)
    data = fields.Dict(required=True)
    rule = fields.String(allow_none=True)
    undone = fields.Boolean()


class ActionOut(Out):
    event = fields.Nested(EventOut, required=True)
    cards = fields.List(fields.Nested(GameCardOut), required=True)


class EventsQuery(Strict):
    since = fields.Integer(validate=validate.Range(min=0), metadata={
        "description": "only the events after this seq (exclusive): a bot catching up sends the last seq it saw"})
    limit = fields.Integer(validate=validate.Range(min=1, max=10000), metadata={
        "description": "at most this many events, the oldest first; without it, every event after `since`"})


class EventsOut(Out):
    events = fields.List(fields.Nested(EventOut), required=True)


class NameOut(Out):
    name = fields.String(required=True)
    card = fields.String(required=True)
    player = fields.String(allow_none=True, required=True)
    seq = fields.Integer(required=True)
    exception = fields.String(allow_none=True, required=True)


class NamesOut(Out):
    names = fields.List(fields.Nested(NameOut), required=True)


class CouldBeQuery(Strict):
    player = fields.String(required=True, validate=validate.Length(min=1, max=64))
    name = fields.String(required=True, validate=validate.Length(min=1, max=300))


class CouldBeOut(Out):
    player = fields.String(required=True)
    name = fields.String(required=True)
    taken = fields.Boolean(required=True)
    cards = fields.List(fields.String(), required=True)
    rule = fields.String(required=True)


class UndoOut(Out):
    undone = fields.Nested(EventOut, required=True)
    seq = fields.Integer(required=True)


class SameNameQuery(Strict):
    cards = fields.String(required=True, validate=validate.Length(min=1, max=2000),
                          metadata={"description": "card ids, comma-separated"})


class SameNameOut(Out):
    cards = fields.List(fields.String(), required=True)
    same_name = fields.Boolean(required=True)
    rule = fields.String(required=True)


class FaceUpQuery(Strict):
    via = fields.String(validate=validate.OneOf(VIAS))


class FaceUpOut(Out):
    card = fields.String(required=True)
    via = fields.String(required=True)
    allowed = fields.List(fields.String(), required=True,
                          metadata={"description": "the names the controller may choose now (705.4)"})
    exception = fields.Boolean(required=True, metadata={"description": "705.4a applies"})
    loses = fields.Boolean(required=True, metadata={"description": "D8: no legal name remains"})
    advice = fields.String(required=True)
    rule = fields.String(required=True)


class TokenOut(Out):
    token = fields.String(required=True, metadata={"description": "the player's new token; the old one stops working"})


# -- the judge's line grammar (grammar.py) over HTTP, for the console page -----------------------
class LineIn(Strict):
    line = fields.String(required=True, validate=validate.Length(min=1, max=1000), metadata={
        "description": "one line of the grammar: `ana draw 2`, `ben cast 3 as Shock`, `undo`"})


class LineQuery(Strict):
    line = fields.String(load_default="", validate=validate.Length(max=1000))


class LineOut(Out):
    event = fields.Nested(EventOut, metadata={"description": "the action's event (as POST /actions)"})
    cards = fields.List(fields.Nested(GameCardOut))
    undone = fields.Nested(EventOut, metadata={"description": "for `undo`: the event taken back"})
    seq = fields.Integer()


class SuggestOut(Out):
    kind = fields.String(required=True, metadata={
        "description": "player, verb, card, zone, word, via, name, count, or '' (nothing more)"})
    prefix = fields.String(required=True, metadata={"description": "what is typed of it so far"})
    words = fields.List(fields.String(), required=True, metadata={
        "description": "the choices the grammar knows; for card and name the client knows them"})
