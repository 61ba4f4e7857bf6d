"""Domain errors: nouns, each with a stable code and, when a rule refuses, its number.

An error says what it says as a ``Message`` (a message code and its parameters, messages.py);
each edge words it in its caller's language. The web layer maps each family to one HTTP status
(see ``web/errors.py``); ``str(error)`` is the English wording. Nothing here knows about HTTP.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from .messages import Message, say


class ArbiterError(Exception):
    """Base class. ``code`` is machine-readable; ``rule`` cites docs/rules.md when a rule speaks;
    ``said`` is the message (code and parameters); ``fields`` map a field to its messages."""

    code = "error"
    rule: str | None = None
    suggest: Callable[[], tuple[str, ...]] | None = None  # set where a name named no card: its close names

    @cached_property
    def suggestions(self) -> tuple[str, ...] | None:
        """The close names of a name that names no card (closenames.py), found only when asked;
        None for an error about anything else."""
        return self.suggest() if self.suggest is not None else None

    def __init__(self, said: str | Message, /, *, rule: str | None = None, fields: dict | None = None,
                 **params):
        self.said = said if isinstance(said, Message) else Message(said, params)
        super().__init__(self.said.code)
        if rule is not None:
            self.rule = rule
        self.fields = fields or {}

    @property
    def message(self) -> str:
        """The wording in the process's language (English but in a CLI given --lang); the web
        words ``said`` in its request's language."""
        return str(self.said)

    def __str__(self) -> str:
        return self.message


# -- not found -------------------------------------------------------------
class NotFound(ArbiterError):
    code = "not_found"


class UnknownCard(NotFound):
    """``suggestions``: the names close to it, found only when asked: a refusal a caller recovers
    from (a cost, not a name) costs no search."""

    code = "unknown_card"

    def __init__(self, name: str, suggest: Callable[[], tuple[str, ...]] | None = None, field: str = "name",
                 fields: dict | None = None):
        """``field``: the field that named it (``printed`` in a look-up, ``name`` in a check), or
        ``fields`` whole (a game's ``library``, each unknown card under its place)."""
        super().__init__("card.unknown", name=name, fields=fields or {field: [say("card.unknown.field")]})
        self.suggest = suggest or tuple


class UnknownGame(NotFound):
    code = "unknown_game"

    def __init__(self, game_id: str):
        super().__init__("game.unknown", game=game_id)


# -- bad input (a field that can't be read) ---------------------------------
class InvalidInput(ArbiterError):
    code = "invalid"


class UnknownWord(InvalidInput):
    """A type or keyword filter's word that no card of the pool has (``creture``): 422 under its
    field, with ``suggestions``, the close words, rather than an empty answer that says nothing."""

    code = "unknown_word"

    def __init__(self, word: str, field: str, suggest: Callable[[], tuple[str, ...]]):
        said = "filter.unknown_type" if field == "type" else "filter.unknown_keyword"
        super().__init__(said, word=word, fields={field: [say("filter.unknown_word.field")]})
        self.suggest = suggest


class UnknownPlayer(InvalidInput):
    """A ``player`` field (or path part) naming nobody of this game: 422, wherever it is asked."""

    def __init__(self, player_id: str | None):
        super().__init__("player.unknown", player=player_id, fields={"player": [say("player.unknown.field")]})


class UnknownFormat(InvalidInput):
    code = "unknown_format"

    def __init__(self, name, choices: tuple[str, ...]):
        super().__init__("format.unknown", name=name, choices=list(choices),
                         fields={"format": [say("format.unknown.field", name=name)]})


# -- refused by a rule of Mental Magic ----------------------------------------
class RuleRefusal(ArbiterError):
    """An action the rules forbid; always carries the rule number."""

    code = "refused"
    rule = "700.1"


class NotACandidate(RuleRefusal):
    code = "not_a_candidate"
    rule = "704.1"


class NameTaken(RuleRefusal):
    code = "name_taken"
    rule = "704.2"


class AlreadyNamed(RuleRefusal):
    code = "already_named"
    rule = "704.4"


class NameRequired(RuleRefusal):
    code = "name_required"
    rule = "705.1"


# -- who may do what ----------------------------------------------------------
class Unauthorized(ArbiterError):
    code = "unauthorized"


class Forbidden(ArbiterError):
    code = "forbidden"


# -- the game ledger (actions.py) --------------------------------------------------
class UnknownGameCard(NotFound):
    code = "unknown_game_card"

    def __init__(self, card_id):
        super().__init__("game_card.unknown", card=card_id,
                         fields={"card": [say("game_card.unknown.field", card=card_id)]})


class NotInLibrary(NotFound):
    code = "not_in_library"


class Conflict(ArbiterError):
    """The request is well formed but the game's state refuses it, with no rule to cite."""

    code = "conflict"


class RecordRefused(Conflict):
    """A game's record (replay.py) holds an event the rules refuse, or that its action doesn't make:
    the event's number and type, why (the rule's own refusal), and the rule it breaks."""

    code = "record_refused"

    def __init__(self, seq, event_type, why, rule: str | None = None):
        super().__init__("record.event_refused", seq=seq, type=event_type, why=why, rule=rule)
        self.seq = seq


class NothingToUndo(Conflict):
    code = "nothing_to_undo"


class GameFinished(Conflict):
    """The game is over (104.2a, or ended by the judge): no action is recorded any more."""

    code = "game_finished"


class GameArchived(Conflict):
    """An archived game is read-only: its log and state are readable, nothing is written."""

    code = "game_archived"


class LibraryEmpty(RuleRefusal):
    code = "library_empty"
    rule = "702.1"


class PentalandRefused(RuleRefusal):
    code = "pentaland_refused"
    rule = "703.3"


class FaceDownRefused(RuleRefusal):
    code = "face_down_refused"
    rule = "705.4"


class OwnershipRefused(RuleRefusal):
    code = "ownership_refused"
    rule = "702.2"


class WrongNamer(RuleRefusal):
    """The rule gives the naming to another player (705.2 hand, 705.3 graveyard, 705.4 controller)."""

    code = "wrong_namer"
    rule = "705.4"


class PlayerOutOfGame(RuleRefusal):
    code = "player_out_of_game"
    rule = "800.4a"


class CardLeftGame(RuleRefusal):
    code = "card_left_game"
    rule = "800.4a"


# -- Commander (D14) ------------------------------------------------------------------
class NotACommander(InvalidInput):
    """A card that can't be a player's commander, or two that can't be commanders together."""

    code = "not_a_commander"
    rule = "903.3"

    def __init__(self, said: str | Message, /, *, rule: str = "903.3", field: str = "commander", **params):
        said = said if isinstance(said, Message) else Message(said, params)
        super().__init__(said, rule=rule, fields={field: [said]})


# -- leaving the game (D9), the library (701) ------------------------------------------
class ReturnRefused(RuleRefusal):
    """D9: ``returned`` names only cards the leaver controls and doesn't own."""

    code = "return_refused"
    rule = "800.4a"


class LibraryRefused(RuleRefusal):
    """701.1a: players can't search the library."""

    code = "search_refused"
    rule = "701.1a"


class CommanderRefused(RuleRefusal):
    """What the command zone and commanders allow (903.8–903.10a, D14): only a commander goes to
    the command zone, by its owner's choice; a commander is never named."""

    code = "commander_refused"
    rule = "903.9a"


# -- the server itself ---------------------------------------------------------
class StorageFailed(ArbiterError):
    """The disk failed to make a write durable (storage/durable.py): what was asked may or may not
    have been recorded, and this server takes no more writes until it is restarted."""

    code = "storage_failed"
