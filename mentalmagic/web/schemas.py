"""marshmallow schemas: the API's inputs are loaded through them, and its outputs
are described by them (the OpenAPI document is generated from these classes,
and the tests validate real responses against them)."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, ValidationError, fields, pre_load, validates_schema

from .. import commands
from ..formats import FORMATS
from ..messages import say
from ..rulesets import RULE_SETS
from ..runtime.inputs import ACTIONS as ACTIONS
from ..runtime.inputs import VIAS as VIAS
from ..runtime.inputs import ZONES as ZONES
from ..runtime.inputs import CreateGameIn as CreateGameIn
from ..runtime.inputs import Length, OneOf, Range, Strict
from ..runtime.inputs import load_action as load_action
from ..search import MAX_LENGTH as MAX_QUERY
from ..search import SORTS
from ..zones import REMOVED
from .fields import CommanderIds, ManaCostField

STATUS_VALUES = ["legal", "banned", "restricted"]
# The largest number a query's `since` or `offset` takes: past SQLite's 64 bits a number can't even
# be compared (a 500 once, issue 23), and far past any log or list this arbiter holds.
LARGEST = 2**31 - 1



class Query(Strict):
    """A query string: besides its own fields, ``lang`` (en, fr) says the language of the answer's
    words (web/i18n.py reads it); it is no field of the query itself."""

    @pre_load
    def without_lang(self, data, **kwargs):
        if isinstance(data, dict) and "lang" in data:
            data = {k: v for k, v in data.items() if k != "lang"}
        return data


# -- inputs -------------------------------------------------------------------
class SearchQuery(Query):
    q = fields.String(required=True, validate=Length(min=1, max=200))
    limit = fields.Integer(load_default=20, validate=Range(min=1, max=100))


class _PrintedOrCost(Query):
    printed = fields.String(validate=Length(min=1, max=300))
    cost = ManaCostField(metadata={"description": "a printed cost; '' or 'none' = no mana cost"})
    format = fields.String(load_default="vintage", validate=OneOf(FORMATS))
    game = fields.String(validate=Length(min=1, max=100))
    phyrexian_as_hybrid = fields.Boolean(
        metadata={"description": "house option of D3; defaults to the game's option, else false"}
    )
    rules = fields.String(validate=OneOf(RULE_SETS), metadata={
        "description": "the rule set (docs/rule-sets.md); defaults to the game's, else magic-ville"})
    commander = fields.List(fields.String(validate=Length(max=300)), metadata={
        "description": "answer within this commander's colour identity (903.5c); repeat it for two "
                       "partners. One that can't be a commander is a 422 (903.3, D14(c))"})
    player = fields.String(validate=Length(min=1, max=64), metadata={
        "description": "with game: answer within this player's commander's colour identity (903.5c)"})

    @validates_schema
    def one_of_printed_or_cost(self, data, **kwargs):
        if ("printed" in data) == ("cost" in data):
            raise ValidationError([say("input.printed_or_cost")], field_name="printed")

    @validates_schema
    def player_of_a_game(self, data, **kwargs):
        if "player" in data and not data.get("game"):
            raise ValidationError([say("input.player_needs_game")], field_name="player")
        if "player" in data and "commander" in data:
            raise ValidationError([say("input.commander_or_player")], field_name="player")


class CandidatesQuery(_PrintedOrCost):
    type = fields.String(validate=Length(min=1, max=50))
    keyword = fields.String(validate=Length(min=1, max=50))
    q = fields.String(validate=Length(max=MAX_QUERY), metadata={
        "description": "a search over the candidates, in Scryfall's syntax (docs/search.md): "
                       "t:creature o:flying pow>=2 is:free. It narrows the list, never adds a name; "
                       "one that can't be read is a 422 naming its position and token"})
    sort = fields.String(load_default="name", validate=OneOf(SORTS), metadata={
        "description": "the candidates' order: name, mv (mana value), power or toughness, then by name"})
    limit = fields.Integer(validate=Range(min=1, max=10000))
    offset = fields.Integer(load_default=0, validate=Range(min=0, max=LARGEST))


class CheckQuery(_PrintedOrCost):
    name = fields.String(required=True, validate=Length(min=1, max=300))


# -- outputs ------------------------------------------------------------------
class Out(Schema):
    """An answer: docs/api.md lets the service add fields freely, so clients must accept unknown ones."""

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
    legalities = fields.Dict(keys=fields.String(), values=fields.String(validate=OneOf(STATUS_VALUES)),
                             required=True)
    mental_magic = fields.String(allow_none=True, required=True, validate=OneOf(["banned", "watched"]))
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
    power = fields.String(allow_none=True, required=True, metadata={"description": "as printed ('*', '1+*')"})
    toughness = fields.String(allow_none=True, required=True)
    loyalty = fields.String(allow_none=True, required=True)
    taken = fields.Boolean(required=True)
    taken_in = fields.String(metadata={
        "description": "only for a name another game of the game's series took (Xom 6): that game's id"})
    watched = fields.Boolean(required=True)
    card = fields.String(required=True, metadata={"description": "the full name of the card it belongs to"})


class ExcludedOut(Out):
    name = fields.String(required=True)
    french_name = fields.String(allow_none=True, required=True)
    rule = fields.String(allow_none=True, required=True,
                         metadata={"description": "null: left out by a filter or the search (q), not by a rule"})
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
    source_label = fields.String(required=True, metadata={
        "description": "the source in the request's language (the embedded snapshot, a file by its path)"})
    card_count = fields.Integer(required=True)
    built_at = fields.String(required=True)
    lacks = fields.List(fields.String(), required=True, metadata={
        "description": "what the card source is known to lack, each in the request's language"})
    lack_codes = fields.List(fields.Dict(), required=True, metadata={
        "description": "the same gaps as {message_code, params}, stable across languages"})
    legalities_known = fields.Boolean(required=True)
    french_known = fields.Boolean(required=True)
    formats = fields.List(fields.String(), required=True)
    unresolved_bans = fields.List(fields.String(), required=True)
    version = fields.String(required=True)
    reasons = fields.List(fields.String(), metadata={
        "description": "only when degraded (503): what failed, worded in the request's language"})
    reason_codes = fields.List(fields.Dict(), metadata={
        "description": "only when degraded: each reason as {message_code, params}, stable across languages"})


class ErrorBody(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True, metadata={
        "description": "Worded in the request's language: ?lang=, else Accept-Language, else English."})
    rule = fields.String()
    message_code = fields.String(metadata={
        "description": "Which message this is (mentalmagic/messages.py); stable across languages."})
    params = fields.Dict(metadata={
        "description": "The values the message is built from; a nested message is {message_code, params}."})
    suggestions = fields.List(fields.String(), metadata={
        "description": "unknown_card, or a naming of a name no card has (704.1): the card names closest to it, "
                       "English or French (may be empty)"})
    field_codes = fields.Dict(metadata={
        "description": "fields' messages as {message_code, params} (their numbers and choices), in the same places "
                       "as in fields; stable across languages"})
    fields = fields.Dict()  # after the others: it hides marshmallow's ``fields`` in the class body


class ErrorOut(Schema):
    error = fields.Nested(ErrorBody, required=True)


# -- games (docs/api.md, "Games") -------------------------------------------------------
class PlayerOut(Out):
    id = fields.String(required=True)
    name = fields.String(required=True)
    team = fields.String(allow_none=True)
    token = fields.String(metadata={"description": "shown once, at creation"})
    status = fields.String()
    commander = CommanderIds(metadata={
        "description": "commander games: the commander's card id; a list of the two with partners (or a "
                       "commander and a background, D14(c))"})
    commanders = fields.List(fields.String(), metadata={
        "description": "commander games: every commander's card id, one or two, always a list"})
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



class GameExportOut(Out):
    """The judge's whole record of a game (docs/moving.md): what POST /games/import reads back."""

    export = fields.String(required=True, metadata={"description": "always `mentalmagic-game`"})
    version = fields.Integer(required=True, metadata={"description": "2"})
    id = fields.String()
    created_at = fields.String(allow_none=True)
    setup = fields.Dict(required=True, metadata={
        "description": "format, options (the rule set), players, the library top first at the start as "
                       "[card id, printed], commanders as [card id, printed, player]"})
    events = fields.List(fields.Dict(), required=True, metadata={"description": "every event as stored, in order"})
    game = fields.Dict(metadata={"description": "the final state as the judge reads it (GET /games/{id})"})
    names = fields.List(fields.Dict(), metadata={"description": "every name taken (GET /games/{id}/names)"})


class ImportGameOut(Out):
    id = fields.String(metadata={"description": "the new game's id (not in a dry run)"})
    judge_token = fields.String(metadata={"description": "shown once, here (not in a dry run)"})
    players = fields.List(fields.Nested(PlayerOut), required=True)
    library_size = fields.Integer()
    format = fields.String(required=True)
    options = fields.Dict()
    rules = fields.Dict()
    events = fields.Integer(required=True, metadata={"description": "the events replayed, every one legal"})
    seq = fields.Integer(required=True)
    status = fields.String(required=True)
    imported_from = fields.String(allow_none=True, metadata={"description": "the game's id where it was exported"})
    dry_run = fields.Boolean()


class GameCardOut(Out):
    id = fields.String(required=True, metadata={
        "description": "the card's id, or, for a card hidden from the caller, a handle that changes each time it"
                       " enters a hidden zone or state (D15)"})
    zone = fields.String(required=True, validate=OneOf([*ZONES, REMOVED]))
    owner = fields.String(allow_none=True, required=True)
    controller = fields.String(allow_none=True, required=True)
    face_down = fields.Boolean(required=True)
    pentaland = fields.Boolean(required=True)
    named_as = fields.String(allow_none=True, required=True, metadata={"description": "the card's current name"})
    earlier_names = fields.List(fields.String(), metadata={
        "description": "MageRing: the names the card had before, oldest first, each dropped as it left the"
                       " battlefield or the stack; present only where it had one and the caller may see the card"
                       " (D15)"})
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
    handle = fields.Integer(metadata={"description": "GET /games/{id}: the card's number in the line grammar; only"
                                                     " for a card the caller sees (D15)"})
    commander = fields.Boolean(metadata={"description": "present and true on a commander, in every zone (903.3)"})


class FinishedOut(Out):
    seq = fields.Integer(required=True)
    by = fields.String(required=True, validate=OneOf(["last_side", "judge"]))
    winners = fields.List(fields.String(), required=True)
    rule = fields.String(allow_none=True)


class RulesOut(Out):
    key = fields.String(required=True, validate=OneOf(RULE_SETS))
    source = fields.String(required=True)
    url = fields.String(required=True)
    options = fields.Dict(required=True)
    land = fields.Dict(required=True, metadata={"description": "the face-down land: name, supertypes, subtypes, rule"})
    name_scope = fields.String(required=True, validate=OneOf(["game", "series"]))
    differs = fields.List(fields.Dict(), required=True, metadata={
        "description": "each aspect where it answers unlike magic-ville, and its own source's rule"})


class RuleSetOptionOut(Out):
    key = fields.String(required=True)
    label = fields.String(required=True)
    description = fields.String(required=True)


class RuleSetDifferenceOut(Out):
    aspect = fields.String(required=True)
    rule = fields.String(required=True, metadata={"description": "the rule of the rule set's own source"})
    words = fields.String(required=True, metadata={"description": "the difference in the caller's language"})


class RuleSetOut(Out):
    key = fields.String(required=True, validate=OneOf(RULE_SETS), metadata={
        "description": "what `rules` takes (POST /games, /candidates, /check, POST /series)"})
    name = fields.String(required=True, metadata={"description": "in the caller's language"})
    description = fields.String(required=True)
    source = fields.String(required=True, metadata={"description": "the document it follows, in the caller's language"})
    url = fields.String(required=True)
    default = fields.Boolean(required=True, metadata={"description": "true for the rule set a game has unless asked"})
    options = fields.List(fields.Nested(RuleSetOptionOut), required=True)
    land = fields.Dict(required=True, metadata={"description": "the face-down land: name, supertypes, subtypes, rule"})
    name_scope = fields.String(required=True, validate=OneOf(["game", "series"]))
    differs = fields.List(fields.Nested(RuleSetDifferenceOut), required=True, metadata={
        "description": "each aspect where it answers unlike the default, with its own source's rule"})


class RuleSetsOut(Out):
    rule_sets = fields.List(fields.Nested(RuleSetOut), required=True)


class GameOut(Out):
    id = fields.String(required=True)
    format = fields.String(required=True)
    options = fields.Dict(required=True)
    rules = fields.Nested(RulesOut, metadata={"description": "the rule set in force (docs/rule-sets.md)"})
    players = fields.List(fields.Nested(PlayerOut), required=True)
    library_size = fields.Integer(required=True)
    seq = fields.Integer(required=True)
    cards = fields.List(fields.Nested(GameCardOut), required=True)
    you = fields.String(allow_none=True)
    status = fields.String(validate=OneOf(["active", "finished"]), metadata={
        "description": "finished once the players still in are all of one side (104.2a, D7) or the judge ended it"})
    finished = fields.Nested(FinishedOut, allow_none=True)
    archived = fields.Boolean(metadata={"description": "read-only: idle or over for MENTALMAGIC_ARCHIVE_AFTER hours"})
    series_names = fields.List(fields.Dict(), metadata={
        "description": "where names last a series (Xom 6): the names its other games took, each {name, game}"})
    turn = fields.Dict(allow_none=True, metadata={
        "description": "where the judge keeps turns (the `turn` action): {player, number, land}, `land` true once "
                       "a face-down land was played in it; null until the first"})


class EventOut(Out):
    seq = fields.Integer(required=True)
    at = fields.String(required=True, metadata={"format": "date-time"})
    type = fields.String(required=True, validate=OneOf(list(commands.ACTION_TYPES)))
    player = fields.String(allow_none=True, required=True)
    data = fields.Dict(required=True)
    rule = fields.String(allow_none=True)
    undone = fields.Boolean()


class ActionOut(Out):
    event = fields.Nested(EventOut, required=True)
    cards = fields.List(fields.Nested(GameCardOut), required=True)
    dry_run = fields.Boolean(metadata={"description": "`dry_run=1`: true, and nothing was recorded"})
    finished = fields.Dict(allow_none=True, metadata={
        "description": "`dry_run=1`: how the game would end (104.2a), null when it would go on"})


class EventsQuery(Query):
    since = fields.Integer(validate=Range(min=0, max=LARGEST), metadata={
        "description": "only the events after this seq (exclusive): a bot catching up sends the last seq it saw"})
    limit = fields.Integer(validate=Range(min=1, max=10000), metadata={
        "description": "at most this many events, the oldest first; without it, every event after `since`"})


class EventsOut(Out):
    events = fields.List(fields.Nested(EventOut), required=True)


class NameOut(Out):
    name = fields.String(required=True)
    card = fields.String(required=True)
    player = fields.String(allow_none=True, required=True)
    seq = fields.Integer(required=True)
    exception = fields.String(allow_none=True, required=True)
    rule = fields.String(metadata={"description": "D14(e): a commander's name, taken from the start"})


class NamesOut(Out):
    names = fields.List(fields.Nested(NameOut), required=True)


class CouldBeQuery(Query):
    player = fields.String(required=True, validate=Length(min=1, max=64))
    name = fields.String(required=True, validate=Length(min=1, max=300))


class CouldBeOut(Out):
    player = fields.String(required=True)
    name = fields.String(required=True)
    taken = fields.Boolean(required=True)
    cards = fields.List(fields.String(), required=True)
    rule = fields.String(required=True)


class UndoOut(Out):
    undone = fields.Nested(EventOut, required=True)
    seq = fields.Integer(required=True)


class SameNameQuery(Query):
    cards = fields.String(required=True, validate=Length(min=1, max=2000),
                          metadata={"description": "card ids, comma-separated"})


class SameNameOut(Out):
    cards = fields.List(fields.String(), required=True)
    same_name = fields.Boolean(required=True)
    rule = fields.String(required=True)


class FaceUpQuery(Query):
    via = fields.String(validate=OneOf(VIAS))


class FaceUpOut(Out):
    card = fields.String(required=True)
    via = fields.String(required=True)
    allowed = fields.List(fields.String(), required=True,
                          metadata={"description": "the names the controller may choose now (705.4)"})
    legal = fields.List(fields.String(), metadata={
        "description": "every name that fits it (704.1, its via), free or taken: those not in `allowed` are shut"})
    exception = fields.Boolean(required=True, metadata={"description": "705.4a applies"})
    loses = fields.Boolean(required=True, metadata={"description": "D8: no legal name remains"})
    why = fields.String(allow_none=True, metadata={
        "description": "when no name is free and 705.4a opens none: `no_legal_name`, `taken_before` (D6) or "
                       "`own_side` (taken since by the card's side alone, D7); as the loss's `why`"})
    advice = fields.String(required=True)
    rule = fields.String(required=True)


class TokenOut(Out):
    token = fields.String(required=True, metadata={"description": "the player's new token; the old one stops working"})


# -- the judge's line grammar (grammar.py) over HTTP, for the console page -----------------------
class LineIn(Strict):
    line = fields.String(required=True, validate=Length(min=1, max=1000), metadata={
        "description": "one line of the grammar: `ana draw 2`, `ben cast 3 as Shock`, `undo`"})


class LineQuery(Query):
    line = fields.String(load_default="", validate=Length(max=1000))


class LineOut(Out):
    event = fields.Nested(EventOut, metadata={"description": "the action's event (as POST /actions)"})
    cards = fields.List(fields.Nested(GameCardOut))
    undone = fields.Nested(EventOut, metadata={"description": "for `undo`: the event taken back"})
    seq = fields.Integer()
    dry_run = fields.Boolean(metadata={"description": "`dry_run=1`: true, and nothing was recorded"})
    finished = fields.Dict(allow_none=True, metadata={"description": "`dry_run=1`: as POST /actions"})


class SuggestOut(Out):
    kind = fields.String(required=True, metadata={
        "description": "player, verb, card, zone, word, via, name, count, or '' (nothing more)"})
    prefix = fields.String(required=True, metadata={"description": "what is typed of it so far"})
    words = fields.List(fields.String(), required=True, metadata={
        "description": "the choices the grammar knows; for card and name the client knows them"})
