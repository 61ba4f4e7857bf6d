"""What the core says, as data: a message is a code and its parameters; the words are made at the edge.

The core never builds a sentence: it returns ``Message(code, params)`` (an error's ``said``, a
verdict's reasons, a deck's problems). Each edge renders it in its caller's language from the one
gettext catalogue the pages use (``web/translations/<lang>/LC_MESSAGES/messages.po``): the web
through Flask-Babel's translations of the request, the CLI through ``catalogue.translations(lang)``,
which reads the same files with Babel and imports nothing of ``mentalmagic.web``. ``render`` takes
any gettext translations object; this module imports no library.

``WORDS`` below maps each code to its English text (the gettext msgid, marked for ``make
messages``); a plural message is a pair chosen by its ``n`` parameter. A parameter is a value, a
list (joined), or another ``Message`` (rendered in the same language): an advice inside a refusal.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

LANGUAGES = ("en", "fr")
ENGLISH = "en"
ALREADY_NAMED = "event.already_named"  # 704.4: an event's note, stored as a code (views.said_note words it)

log = logging.getLogger(__name__)


def N_(text: str) -> str:
    """Marks a message for extraction (gettext_noop); translated when rendered."""
    return text


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural message for extraction; the form is chosen by the ``n`` parameter."""
    return singular, plural


BEFORE_VOWEL = "before a vowel"  # the gettext context of a message's elided form (``ELIDED``)


def Np_(context: str, text: str) -> str:
    """Marks a message in a gettext context for extraction (``ELIDED``'s forms)."""
    return text


@dataclass(frozen=True, eq=True)
class Message:
    """A sentence not yet worded: ``code`` names it in ``WORDS``, ``params`` fill its placeholders."""

    code: str
    params: Mapping = field(default_factory=dict)

    __hash__ = None  # type: ignore[assignment]  # params is a dict

    def __str__(self) -> str:
        """Worded in the process's language: English, unless the CLI was told otherwise (``use_translations``)."""
        return render(self, _translations)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def as_json(self) -> dict:
        """The code and its parameters, nested messages as the same shape: what a bot words itself."""
        return {"message_code": self.code, "params": {k: _json(v) for k, v in self.params.items()}}


def say(code: str, **params) -> Message:
    return Message(code, params)


def gap(text: str) -> Message:
    """A gap of the card source as stored (``PoolInfo.lacks``: English) as its message: a code of
    ``source.gap.*``, or ``source.gap.other`` with the text where none says it (a newer version's)."""
    for code in _GAP_CODES:
        if WORDS[code] == text:
            return Message(code)
    return Message("source.gap.other", {"text": text})


def word_of(family: str, key: str | None, **params) -> Message | str:
    """The message ``family.key`` (a zone's word, an event's type), or ``key`` as it is where the
    catalogue has none (a value a newer database holds)."""
    code = f"{family}.{key}"
    return Message(code, params) if code in WORDS else str(key)


class CardName(str):
    """A card's English name that knows its French one: worded in French where the table speaks
    French and the data has it, else in English, marked as such (``name.english``). A plain str
    everywhere else (JSON gives the English, canonical name)."""

    french: str | None = None


def card_name(name: str, french: str | None = None) -> CardName:
    out = CardName(name)
    out.french = french
    return out


class CardRef(str):
    """A card of a game named in a message: its id (or the handle a player knows a card hidden from
    them by) in JSON, worded as the number its reader knows it by, #N on the page and in `show`
    (handles.Viewer.error, D15). A plain str everywhere else."""

    number: str = ""


def card_ref(ref: str, number: str) -> CardRef:
    out = CardRef(ref)
    out.number = number
    return out


def _joined(code: str, items) -> Message | str:
    items = list(items)
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = Message(code, {"a": item, "b": out})
    return out


def either(items) -> Message | str:
    """'a or b or c', worded in the caller's language."""
    return _joined("list.or", items)


def both(items) -> Message | str:
    """'a and b and c'."""
    return _joined("list.and", items)


def chain(items) -> Message | str:
    """'a; b; c': several reasons in one sentence."""
    return _joined("list.then", items)


def _json(value):
    if isinstance(value, Message):
        return value.as_json()
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


def render(message: Message | str, translations=None) -> str:
    """``message`` in the language of ``translations`` (English when None). A plain string (a
    library's own text, e.g. marshmallow's) is returned as it is."""
    if not isinstance(message, Message):
        return message if message not in WORDS else render(Message(message), translations)
    t = translations or _ENGLISH
    if not message.params:  # the same words every time in one catalogue ("the commander's"): worded once
        key = (t, message.code)
        said = _SAID.get(key)
        return said if said is not None else _keep(_SAID, key, _render(message, t))
    return _render(message, t)


def render_all(messages: list, translations=None) -> list[str]:
    """Each of ``messages`` as ``render`` words it, a message they share as a parameter worded once
    for all (an empty answer's reasons each say whose commander's identity: the same message)."""
    t = translations or _ENGLISH
    shared: dict[int, str] = {}  # by id: every message stays alive in ``messages`` meanwhile
    return [_render(m, t, shared) if isinstance(m, Message) and m.params else render(m, t) for m in messages]


# Kept words: a catalogue never changes once read. Each is read first (its hit costs a dict look-up)
# and kept by _keep on a miss.
_SAID: dict = {}  # a message without parameters, by (translations object, code)
_TEXTS: dict = {}  # a message's translated text, by (translations object, English text)
_LANGUAGE_OF: dict = {}  # the language a catalogue words in, by translations object


def _keep(kept: dict, key, value, most: int = 4096):
    """``value``, kept in ``kept`` under ``key``; ``kept`` starts over once it holds ``most``
    (a process holds a few catalogues; tests make more)."""
    if len(kept) >= most:
        kept.clear()
    kept[key] = value
    return value


def _render(message: Message, t, shared: dict | None = None) -> str:
    words = WORDS.get(message.code)
    if words is None:  # a code with no words is a bug the catalogue test catches; never a crash
        log.error("message code %r has no words", message.code)
        return message.code
    params = {k: v if type(v) is str else _word(v, t, shared) for k, v in message.params.items()}  # most: a plain text
    elided = ELIDED.get(message.code)
    if isinstance(words, tuple):
        text = t.ngettext(words[0], words[1], int(message.params.get("n", 1)))
    elif elided and _VOWEL.match(params.get(elided[0], "")) and hasattr(t, "pgettext"):
        text = t.pgettext(BEFORE_VOWEL, elided[1])  # "Main d’Ana", not "Main de Ana"
    else:
        text = _TEXTS.get((t, words))
        if text is None:
            text = _keep(_TEXTS, (t, words), t.gettext(words))
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):  # a translation with a wrong placeholder: say it in English
        log.error("message %r: its translation does not fit its parameters", message.code)
        english = words[0 if message.params.get("n", 1) == 1 else 1] if isinstance(words, tuple) else words
        return english.format(**params)


def said(name, translations=None) -> str:
    """A card name as a message parameter is worded (``CardName``): in the language of
    ``translations`` (else the process's, the CLI's ``--lang``), its French name where that language
    is French and the data has one, else the English one marked; a plain str as it is. The CLI's
    listings word their names through it, so they say what its sentences say."""
    return _word(name, translations or _translations or _ENGLISH)


def _word(value, t, shared: dict | None = None) -> str:
    if type(value) is str:  # most parameters: a plain text, said as it is
        return value
    if isinstance(value, Message):
        if shared is None:
            return render(value, t)
        said = shared.get(id(value))
        if said is None:
            said = shared[id(value)] = render(value, t)
        return said
    if isinstance(value, CardRef):
        return "#" + value.number
    if isinstance(value, CardName) and _language_of(t) != WORDS["language"]:
        return value.french or render(Message("name.english", {"name": str(value)}), t)
    if isinstance(value, list | tuple):
        return ", ".join(_word(v, t, shared) for v in value)
    return str(value)


def _language_of(t) -> str:
    """The language a translations object words in, as its catalogue says it (``language``):
    asked for every card name a message words, so remembered per object."""
    said = _LANGUAGE_OF.get(t)
    if said is None:
        msgid = WORDS["language"]  # not a literal in the call: make messages would extract "language"
        said = _keep(_LANGUAGE_OF, t, t.gettext(msgid) or ENGLISH, most=64)
    return said


class English:
    """The msgids themselves: English, with English plurals (as gettext's NullTranslations)."""

    @staticmethod
    def gettext(text: str) -> str:
        return text

    @staticmethod
    def ngettext(singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    @staticmethod
    def pgettext(context: str, text: str) -> str:
        return text


_ENGLISH = English()
_translations = None


def use_translations(translations) -> None:
    """The translations ``str(message)`` words in for this process: the CLI's ``--lang``. The web
    never relies on it: it words every message in its request's language."""
    global _translations
    _translations = translations


# -- the words ----------------------------------------------------------------------------------
WORDS: dict[str, str | tuple[str, str]] = {
    # not found
    "card.unknown": N_("no card named '{name}' in the card pool"),
    "card.unknown.field": N_("unknown card"),
    "filter.unknown_type": N_("no card has the type '{word}'"),
    "filter.unknown_keyword": N_("no card has the keyword '{word}'"),
    "filter.unknown_word.field": N_("a word no card has"),
    "game.unknown": N_("no game '{game}'"),
    "player.unknown": N_("no player '{player}' in this game"),
    "player.unknown.field": N_("unknown player"),
    "format.unknown": N_("unknown format '{name}'; choose one of {choices}"),
    # rule sets (rulesets.py, docs/rule-sets.md) and series (series.py)
    "rules.unknown": N_("unknown rule set '{name}'; choose one of {choices}"),
    "rules.unknown.field": N_("unknown rule set '{name}'"),
    "rules.option.not_bool": N_("{option} must be true or false"),
    "rules.option.not_taken": N_("{rules} takes no option {option}; it takes {choices}"),
    "rules.option.none": N_("{rules} takes no option, not even {option}"),
    "rules.land_refused": N_("this card can't be played as a {land} here, under the {rules} rules"),
    "rules.land_not_active": N_("only the active player plays a {land}, in their own turn"),
    "rules.land_once_per_turn": N_("a {land} was played this turn already: never two in one turn, whatever the "
                                   "extra land drops"),
    "rules.face_down_refused": N_("no card is played or turned face down via {via} under the {rules} rules"),
    "rules.face_card": N_("outside the battlefield and the stack a card is its printed card under these rules: "
                          "it can't be named {name} there"),
    "rules.face_card.field": N_("no name here: the card is its printed card outside the battlefield and the stack"),
    "ban.banned_card": N_("{card} is banned under these rules"),
    "ban.banned_mechanic": N_("{card} has {mechanic}, banned under these rules"),
    "ban.library_size": N_("{card} cares about the size of a library, banned under these rules"),
    "ban.reveal_until": N_("{card} reveals cards from a library until one meets a condition, banned under these rules"),
    "ban.face_down_maker": N_("{card} can make face-down spells or permanents, banned under these rules"),
    "ban.ante_card": N_("{card} mentions ante, banned under these rules"),
    "series.unknown": N_("no series '{id}'"),
    "series.other_rules": N_("this series plays under {rules}: a game of it can't choose other rules"),
    "series.other_rules.field": N_("the series plays under {rules}"),
    "format.unknown.field": N_("unknown format '{name}'"),
    "deck.unknown": N_("no deck '{deck}'"),
    "game_card.unknown": N_("no card '{card}' in this game"),
    "game_card.unknown.field": N_("unknown card '{card}'"),
    "field.required": N_("required"),
    "language": N_("language code: en"),  # the catalogue's own language: which card names to give
    "name.english": N_("{name}"),  # a card name the data lacks in the caller's language: marked so
    "type.english": N_("{type}"),  # a type line: the card data has them in English only, marked so
    # the command line's own frame (cli/)
    "cli.refused": N_("refused ({rule}): {why}"),
    "cli.did_you_mean": N_(" — did you mean: {names}?"),
    "cli.legal": N_("legal"),
    "cli.not_legal": N_("NOT legal"),
    "cli.error": N_("Error: {why}"),
    "cli.try_help": N_("Try '{command} --help' for help."),
    "cli.line": N_("line {n}: {text}"),
    "cli.undone": N_("undone: {event}"),
    # look-ups (cli/cards.py)
    "cli.card_costing": N_("A card costing {cost}"),
    "cli.card_no_cost": N_("A card with no mana cost"),
    "cli.nothing_known": N_("nothing known"),
    "cli.candidates": Nn_("{label} may be named as {costs} in {format}: {n} candidates (704.1)",
                          "{label} may be named as {costs} in {format}: {n} candidates (704.1)"),
    "cli.candidates_within": Nn_("{label} may be named as {costs} in {format}, within {whose} colour identity "
                                 "{identity} (903.5c): {n} candidates (704.1)",
                                 "{label} may be named as {costs} in {format}, within {whose} colour identity "
                                 "{identity} (903.5c): {n} candidates (704.1)"),
    "cli.watched": N_("[watched 706.4a]"),
    "cli.taken": N_("[taken {rule}]"),
    "cli.taken_in": N_("[chosen in game {game} of this series, {rule}]"),
    "cli.cost_unknown_faces": N_("(cost unknown to the card data: {faces})"),
    "cli.unknown_cost": N_("unknown cost"),
    "cli.face": N_("{name}: {cost} — {type}"),
    "cli.offers": N_("offers: {costs}"),
    "cli.identity": N_("colour identity: {identity}"),
    "cli.identity_commander": N_("colour identity: {identity}; can be a commander (903.3)"),
    "cli.unknown": N_("unknown"),
    "cli.ban.banned": N_("Mental Magic: banned ({rule})"),
    "cli.ban.watched": N_("Mental Magic: watched ({rule})"),
    "cli.legal_in": N_("legal in: {formats}"),
    # decks (cli/decks.py)
    "cli.deck_size": Nn_("{n} card on {lines}", "{n} cards on {lines}"),
    "cli.lines": Nn_("{n} line", "{n} lines"),
    "cli.deck_problem": N_("line {line}: {text}: {why}"),
    "cli.deck_flag": N_("flag {rule}: {why}"),
    "cli.no_legalities": N_("note: this card source has no legalities: format bans (706.1) are not flagged"),
    "cli.not_utf8": N_("the list is not UTF-8 text: {why}"),
    "cli.deck_saved": N_("saved deck {id} ({name})"),
    "cli.edit_token": N_("edit token (shown only now): {token}"),
    # games (cli/games.py, current.py)
    "cli.game_created": Nn_("game {id}: {n} card, {format}", "game {id}: {n} cards, {format}"),
    "cli.game_created_unshuffled": Nn_("game {id}: {n} card, {format}, not shuffled",
                                       "game {id}: {n} cards, {format}, not shuffled"),
    "cli.judge_token": N_("judge token (shown only now): {token}"),
    "cli.seat_token": N_("{id}  {name}  token: {token}"),
    "cli.seat_team_token": N_("{id}  {name} (team {team})  token: {token}"),
    "cli.series_created": N_("series {id} under {rules}; its token (shown only now): {token}"),
    "cli.series_rules": N_("series {id}, under {rules}"),
    "cli.series_game": Nn_("{id} ({status}): {n} name taken: {names}", "{id} ({status}): {n} names taken: {names}"),
    "cli.now_current": N_("it is now the current game: the other `game` commands may leave out its id"),
    "cli.game_imported": Nn_("game {id}: imported from {source}, {n} event replayed, legal under {rules}",
                             "game {id}: imported from {source}, {n} events replayed, every one legal under {rules}"),
    "cli.record_holds": Nn_("{n} event, legal under {rules}: the record holds",
                            "{n} events, every one legal under {rules}: the record holds"),
    "cli.not_json": N_("the file is not JSON: {why}"),
    # the whole database (cli/backup.py)
    "cli.backup_done": N_("{db} copied to {file} ({kib} KiB), as of one moment: `mentalmagic restore {file}` "
                          "brings it back"),
    "cli.backup_failed": N_("can't copy {db}: {why}"),
    "cli.restore_in_use": N_("{db} is open in a server or another command: stop the server (Ctrl-C), then restore"),
    "cli.restore_not_database": N_("{file} is not a database of the arbiter: {why}"),
    "cli.restored": N_("{db} restored from {file}"),
    "cli.restore_kept": N_("the database it replaced is kept as {kept}"),
    "cli.current_game": N_("current game: {id}"),
    "cli.game_events": Nn_("{n} event", "{n} events"),
    "cli.game_over_mark": N_("[over]"),
    "cli.archived_mark": N_("[archived]"),
    "cli.tokens_hashed": N_("tokens are kept hashed and can't be shown again; `game tokens GAME PLAYER` reissues one:"),
    "cli.token": N_("{id}  {name}  token: {token}"),
    # what is seen of a game (cli/table.py, seat.py)
    "cli.show_header": Nn_("game {id}  {format}  seq {seq}  library {n} card{hybrid}  seen by {who}",
                           "game {id}  {format}  seq {seq}  library {n} cards{hybrid}  seen by {who}"),
    "cli.phyrexian_as_hybrid": N_("  (phyrexian as hybrid)"),
    "cli.the_judge": N_("the judge"),
    "cli.judge": N_("judge"),
    "cli.rules_differ": N_("rules: {source}: {aspects}"),
    "cli.aspect.matching": N_("matching {rule}"),
    "cli.aspect.zero": N_("zero {rule}"),
    "cli.aspect.multicolour": N_("multicolour {rule}"),
    "cli.aspect.land": N_("land {rule}"),
    "cli.aspect.bans": N_("bans {rule}"),
    "cli.aspect.face_down": N_("face_down {rule}"),
    "cli.aspect.returning": N_("returning {rule}"),
    "cli.aspect.names": N_("names {rule}"),
    "cli.aspect.scope": N_("scope {rule}"),
    # a rule set's source as a reader calls it, and the headings MageRing's rules are cited by (the
    # pages' words too: web/rules_strings.py); the others are titles and names, the same in both
    "rules.source.magic-ville": N_("Mental Magic Comprehensive Rules (Magic-Ville), rules 700–706, with decisions "
                                   "D1–D15"),
    "rules.source.magering": N_("Mental Magic Official Rules (MageRing Network, 2015)"),
    "rules.cite.ban list": N_("ban list"),
    "rules.cite.once per game": N_("once per game"),
    "rules.cite.face cards": N_("face cards"),
    "cli.players": N_("players: {players}"),
    "cli.player": N_("{name} ({id})"),
    "cli.player_team": N_("{name} ({id}, team {team})"),
    "cli.player_status": N_("{name} ({id}, {status})"),
    "cli.player_team_status": N_("{name} ({id}, team {team}, {status})"),
    "cli.status.lost": N_("lost"),
    "cli.status.left": N_("left"),
    "cli.status.won": N_("won"),
    "cli.zone.hand": N_("hand"),
    "cli.zone.stack": N_("stack"),
    "cli.zone.battlefield": N_("battlefield"),
    "cli.zone.graveyard": N_("graveyard"),
    "cli.zone.exile": N_("exile"),
    "cli.zone.command": N_("command"),
    "cli.zone.library": N_("library"),
    "cli.zone.removed": N_("removed"),
    "cli.zone_of": N_("{zone} of {name}"),
    "cli.zone_count": N_("{zone} ({n})"),
    "cli.names_taken": N_("names taken (704.2): {names}"),
    "cli.name_taken": N_("{name} ({card}, {player})"),
    "cli.named": N_("named {name}"),
    "cli.named_before": N_("named before {names}"),
    "cli.unnamed": N_("no longer named {name}"),
    "cli.pentaland": N_("Pentaland"),
    "cli.face_down": N_("face down"),
    "cli.revealed": N_("revealed"),
    "cli.looked_by": N_("looked at by {players}"),
    "cli.from_top": N_("{n} from the top"),
    "cli.owner": N_("{holder} (owner {owner})"),
    "cli.out_lost": N_("out: {player} lost at event {seq} ({rule}): {why}"),
    "cli.out_left": N_("out: {player} left the game at event {seq} ({rule})"),
    "cli.lost_commander_damage": N_("{total} combat damage from {commander}, 21 from one commander loses"),
    "cli.commander_damage": Nn_("{n} combat damage from {commander} ({total} in all)",
                                "{n} combat damage from {commander} ({total} in all)"),
    "cli.lost_d8": N_("no legal name remained for a face-down card (D8)"),
    "cli.lost_d8_why": N_("no legal name remained for a face-down card (D8); {why}"),
    "cli.why.no_legal_name": N_("no name of its cost fits the way it was played face down"),
    "cli.why.taken_before": N_("every name it could take was already taken when it went face down (D6)"),
    "cli.why.own_side": N_("705.4a couldn't apply: the names free when it went face down were taken since by its "
                           "player or a teammate, not by an opponent (D7)"),
    "cli.over_by_judge": N_("GAME OVER at event {seq}: the judge ended it; no winner"),
    "cli.over_won": Nn_("GAME OVER at event {seq} ({rule}): {winners} won; read-only but for `game undo`",
                        "GAME OVER at event {seq} ({rule}): {winners} won; read-only but for `game undo`"),
    "cli.nobody": N_("nobody"),
    "cli.could_be_taken": N_("{name} is taken (704.2): no card could be named so"),
    "cli.could_be": N_("{name} ({rule}): {cards}"),
    "cli.could_be_none": N_("no card of {player}'s hand could be named {name} ({rule})"),
    # one event as a line (cli/seat.py): its type, where it went, how
    "cli.event.draw": N_("draw"),
    "cli.event.move": N_("move"),
    "cli.event.name": N_("name"),
    "cli.event.turn_face_up": N_("turn_face_up"),
    "cli.event.reveal": N_("reveal"),
    "cli.event.end_reveal": N_("end_reveal"),
    "cli.event.look": N_("look"),
    "cli.event.end_look": N_("end_look"),
    "cli.event.leave_game": N_("leave_game"),
    "cli.event.shuffle": N_("shuffle"),
    "cli.event.commander_damage": N_("commander_damage"),
    "cli.event.end_game": N_("end_game"),
    "cli.event.turn": N_("turn"),
    "cli.moved": N_("{from} -> {to}"),
    "cli.position.top": N_("(top)"),
    "cli.position.bottom": N_("(bottom)"),
    "cli.cut": N_("cut {at} from the top"),
    "cli.cut_random": N_("cut {at} from the top (at random)"),
    "cli.returned": N_("returned {cards}"),
    "cli.as_pentaland": N_("as a Pentaland"),
    "cli.face_down_via": N_("face down via {via}"),
    "cli.loses": N_("{player} loses ({rule})"),
    "cli.turned_up_via": N_("{card} turned up via {via} ({rule}): {advice}"),
    # the database and its cards (cli/database.py, serve.py)
    "cli.database_ready": N_("database ready: {path}"),
    "cli.downloaded": N_("saved {path}\nuse it with: MENTALMAGIC_CARDS={path}"),
    # click's own words (cli/words.py hands click the catalogue): each English is click's msgid, exactly
    "click.usage": N_("Usage:"),
    "cli.heading": N_("{heading}:"),  # a help page's heading: Options, Commands
    "click.options": N_("Options"),
    "click.commands": N_("Commands"),
    "click.arguments": N_("Positional arguments"),
    "click.help_option": N_("Show this message and exit."),
    "click.default": N_("default: {default}"),
    "click.env_var": N_("env var: {var}"),
    "click.required": N_("required"),
    "click.error": N_("Error: {message}"),
    "click.try_help": N_("Try '{command} {option}' for help."),
    "click.missing_command": N_("Missing command."),
    "click.no_such_command": N_("No such command {name!r}."),
    "click.no_such_option": N_("No such option {name!r}."),
    "click.did_you_mean": Nn_("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    "click.missing_argument": N_("Missing argument"),
    "click.missing_option": N_("Missing option"),
    "click.missing_parameter": N_("Missing parameter"),
    "click.invalid_value": N_("Invalid value: {message}"),
    "click.invalid_value_for": N_("Invalid value for {param_hint}: {message}"),
    "click.extra_arguments": Nn_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    "click.requires_argument": Nn_("Option {name!r} requires an argument.",
                                   "Option {name!r} requires {nargs} arguments."),
    "click.takes_no_value": N_("Option {name!r} does not take a value."),
    "click.not_a_choice": Nn_("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
    "click.not_a_number": N_("{value!r} is not a valid {number_type}."),
    "click.out_of_range": N_("{value} is not in the range {range}."),
    "click.not_a_boolean": N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    "click.cannot_open": N_("Could not open file {filename!r}: {message}"),
    "click.does_not_exist": N_("{name} {filename!r} does not exist."),
    "click.aborted": N_("Aborted!"),
    # the placeholders of the usage lines and the options (cli/words.py: metavars)
    "cli.metavar.options": N_("OPTIONS"),
    "cli.metavar.command": N_("COMMAND"),
    "cli.metavar.args": N_("ARGS"),
    "cli.metavar.text": N_("TEXT"),
    "cli.metavar.integer": N_("INTEGER"),
    "cli.metavar.boolean": N_("BOOLEAN"),
    "cli.metavar.file": N_("FILE"),
    "cli.metavar.filename": N_("FILENAME"),
    "cli.metavar.game": N_("GAME"),
    "cli.metavar.player": N_("PLAYER"),
    "cli.metavar.players": N_("PLAYERS"),
    "cli.metavar.card": N_("CARD"),
    "cli.metavar.cards": N_("CARDS"),
    "cli.metavar.count": N_("COUNT"),
    "cli.metavar.line": N_("LINE"),
    "cli.metavar.name": N_("NAME"),
    "cli.metavar.printed": N_("PRINTED"),
    "cli.grammar_player": N_("P"),  # the player in `game do`'s grammar lines (P draw [N])
    # words that join words
    "list.or": N_("{a} or {b}"),
    "list.and": N_("{a} and {b}"),
    "list.then": N_("{a}; {b}"),
    "reason.rule": N_("{reason} ({rule})"),
    # naming (704, 705.4, 705.4a, D8)
    "must.have": N_("have {keywords}"),
    "must.be": N_("be a {type}"),
    "face_up.unfit": N_("{why}: a card turned face up by {via} can't take it ({filter}; 705.4, D13(d))"),
    "name.has": N_("{name} has {missing}"),
    "name.not_legal_here": N_("{name} is not a legal name here"),
    "lacks.keyword": N_("no {keywords}"),
    "lacks.type": N_("is not a {type}"),
    "lacks.ability": N_("not the ability asked"),
    "face_down.wrong_via": N_("this card was cast face down via {played}: it is a {played} card, and has no {via} "
                              "to be turned face up by (D13(d))"),
    "face_down.wrong_via.field": N_("a {played} card has no {via}"),
    "face_up.filter": N_("it must {must}"),
    "face_up.any_name": N_("any name of the same cost"),
    # the codes a message names, worded (word_of): how a card goes face down or turns face up
    # (zones.VIAS), a keyword and a type a face-down card's name must have (naming.VIA_FILTERS)
    "via.morph": N_("morph"),
    "via.megamorph": N_("megamorph"),
    "via.disguise": N_("disguise"),
    "via.manifest": N_("manifest"),
    "via.cloak": N_("cloak"),
    "via.effect": N_("an effect"),
    "keyword.morph": N_("morph"),
    "keyword.megamorph": N_("megamorph"),
    "keyword.disguise": N_("disguise"),
    "card_type.creature": N_("creature"),
    "face_up.free": Nn_("{n} legal name is still free, e.g. {names}", "{n} legal names are still free, e.g. {names}"),
    "face_up.window": N_("705.4a allows only the names free when it went face down: {names}"),
    "face_up.none": N_("no legal name remains: turning it face up without a name records the game loss (D8)"),
    "face_up.commander": N_("a commander turns face up as itself, unnamed (D14(a))"),
    "face_down.unfit": N_("{name} has {missing}: it can't be this face-down card, which must {must} (705.4, D13(d))"),
    "name.taken_advice": N_("{name} is already the name of another card in this game; {advice}"),
    "name.taken.field": N_("{name} is taken"),
    "name.already": N_("this card is already named {name}; a named card is never renamed"),
    "name.already.field": N_("already named {name}"),
    "name.cannot": N_("'{name}' can't be chosen"),
    "event.already_named": N_("already named {name} (704.4): no naming"),  # an event's note (ALREADY_NAMED)
    # whose colour identity (903.5c): "within Krenko's ({R})", "Krenko's is {R}"
    "commander.whose": N_("{commander}'s"),
    "commander.the": N_("the commander's"),
    "name.not_a_card": N_("'{name}' is not the name of a card (or split half) in the pool"),
    "name.cost_unknown": N_("{name} is in the pool, but the card data doesn't know its mana cost, so it can't be "
                            "named"),
    "name.split": N_("{card} is a split card: each half is its own name ({halves}), 704.3"),
    "name.meld_back": N_("{card} is not a card that can be in a library (the back face of a meld pair, D4)"),
    "card.not_in_library": N_("{card} is not a card that can be in a library"),
    "name.back_face": N_("{name} is a face of {card}, which is named by its front face, {front} (D4)"),
    "name.no_cost": N_("{card} offers no name with a known mana cost"),
    "name.itself": N_("the chosen card can't be the printed card itself ({card}), D4"),
    "cost.a_card_none": N_("a card with no mana cost"),
    "cost.a_card": N_("a card costing {cost}"),
    "cost.no_known": N_("no known cost"),
    "cost.costs": N_("costs {cost}"),
    "cost.has_none": N_("has no mana cost"),
    "cost.none": N_("no mana cost"),
    "name.cost_mismatch": N_("{name} {cost}, which can't match {printed}"),
    "name.taken": N_("{name} is already the name of another card in this game"),
    "name.taken_in_series": N_("{name} was chosen in an earlier game of this series (game {game})"),
    "name.cost_match": N_("{name} {cost}; {printed} can be read as {read}"),
    "name.match_because": N_("{why}: {because}"),
    "match.zero": N_("a cost of zero and no mana cost count as one cost"),
    "match.multicolour": N_("two multicolour costs of one mana value match"),
    "match.hybrid": N_("a hybrid symbol is read as one of its halves"),
    "match.phyrexian": N_("a Phyrexian symbol is read as its colour"),
    "name.no_cost_match": N_("{name} has no mana cost; {printed} has no mana cost (D2)"),
    "name.no_cost_only": N_("{name} has no mana cost, and a card with no mana cost is named only as one (D2)"),
    "name.watched": N_("{card} is on the watch list: allowed, but watched"),
    "identity.colourless": N_("colourless"),
    "identity.within": N_("{name}'s colour identity is {identity}, within {whose} ({within})"),
    "identity.unknown": N_("the card data doesn't give {name}'s colour identity, so it can't be named within {whose} "
                           "({within})"),
    "identity.outside": N_("{name}'s colour identity is {identity}; {whose} is {within}"),
    "name.is_printed": N_("{name} is the printed card itself"),
    "name.filtered": N_("{name} is not {filter} (the filter asked)"),
    "name.queried": N_("{name} does not fit the search {query}"),
    # a search over the candidates that can't be read (search.py, docs/search.md)
    "query.unexpected": N_("the search can't be read at position {at}: {token}"),
    "query.unfinished": N_("the search ends too soon (position {at}): a value or a closing parenthesis is missing"),
    "query.unknown_key": N_("unknown search key {key} at position {at}; the keys are: {known}"),
    "query.unknown_is": N_("unknown is: word {value} at position {at}; the words are: {known}"),
    "query.bad_operator": N_("{key} can't be compared with {op} (position {at})"),
    "query.not_a_number": N_("{key} needs a number, not {value} (position {at})"),
    "query.bad_colors": N_("{value} is not a colour (position {at}): use the letters W, U, B, R, G, C or a "
                           "colour's name"),
    "query.too_long": N_("the search is longer than {most} characters"),
    # the game's actions (actions.py)
    "card.left_game": N_("card {card} has left the game"),
    "library.only": Nn_("the library has only {n} card", "the library has only {n} cards"),
    "namer.other": N_("{player} names this card ({why})"),
    "namer.nobody": N_("nobody names this card ({why})"),
    "namer.why.face_up": N_("its controller names a face-down card turned face up"),
    "namer.why.turns_up": N_("its controller turns it face up"),
    "namer.why.cast": N_("a card cast or put onto the battlefield face up"),
    "namer.why.hand": N_("an unnamed card leaving a hand face up"),
    "namer.why.graveyard": N_("an unnamed card put face up into a graveyard"),
    "namer.why.face_down": N_("a card played face down from a visible zone"),
    "namer.own_or_control": N_("a player names only cards they own or control"),
    "namer.own_or_control_choice": N_("a player names only cards they own or control (or, with choice, a card an "
                                      "effect has them choose among cards revealed to them, 705.5)"),
    "name.required_face_up": N_("name this card as it turns face up; {advice}"),
    "name.required_leaving": N_("name card {card} as it turns face up, leaving the game with its owner or "
                                "controller (D12); {advice}"),
    "name.required": N_("name this card: {why} is named first"),
    "names.not_leaving": N_("card {card} doesn't turn face up as a player leaves in this action: names name only "
                            "the face-down cards of a player who leaves (D12)"),
    "names.not_leaving.field": N_("not a face-down card of a player who leaves"),
    "library.no_printed": N_("no card printed '{printed}' is in the library"),
    "library.no_printed.field": N_("not in the library"),
    "library.cannot_draw": Nn_("can't draw {count}: the library has {n} card",
                               "can't draw {count}: the library has {n} cards"),
    "library.whose": N_("say whose library it leaves"),
    "library.no_search": N_("players can't search the library (701.1a); an effect that would shuffle it cuts it "
                            "instead (701.1b: the `shuffle` action)"),
    "ownership.hand": N_("a card goes to its owner's hand, not another player's"),
    "ownership.graveyard": N_("a card goes to its owner's graveyard, not another player's"),
    "pentaland.moving": N_("a Pentaland moving between zones stays face down and unnamed"),
    "pentaland.battlefield": N_("a Pentaland is played onto the battlefield"),
    "pentaland.face_down": N_("a Pentaland is played face down and is never named"),
    "pentaland.own_hand": N_("a player plays a Pentaland from their own hand"),
    "pentaland.hidden": N_("a hidden library card can't be played as a Pentaland"),
    "pentaland.named": N_("a named face-up card ({name}) outside a hand can't be played as a Pentaland"),
    "pentaland.never_named": N_("a Pentaland is never named while it is one"),
    "pentaland.not_turned_up": N_("a Pentaland is not a face-down permanent; it is not turned face up"),
    "graveyard.face_up": N_("a card goes face up into a graveyard (only a Pentaland stays face down)"),
    "graveyard.face_up.field": N_("not into a graveyard"),
    "commander.no_pentaland": N_("a commander is played as itself, never as a Pentaland (D14(a))"),
    "commander.never_named": N_("a commander is played as itself: it is never named (D14(a))"),
    "command_zone.not_commander": N_("only a commander goes to the command zone (903.9a, 903.9b); this card is not "
                                     "one"),
    "command_zone.already": N_("this commander is already in the command zone"),
    "command_zone.already.field": N_("already there"),
    "command_zone.face_up": N_("a commander is face up in the command zone (903.6)"),
    "command_zone.face_up.field": N_("not in the command zone"),
    "command_zone.whose": N_("say whose commander goes to the command zone"),
    "command_zone.owner_choice": N_("putting a commander into the command zone is its owner's choice ({player})"),
    "commander_damage.not_commander": N_("only damage dealt by a commander is counted (903.10a); this card is not "
                                         "one"),
    "commander_damage.not_on_battlefield": N_("only a commander on the battlefield deals combat damage (903.10a); "
                                              "this commander is not on the battlefield"),
    "face_down.named_when_up": N_("a face-down card is named only as it is turned face up"),
    "face_down.not": N_("this card is not face down"),
    "reveal.not_hidden": N_("card {card} is not hidden: only library or hand cards are revealed"),
    "reveal.not_hidden.field": N_("{card} is not hidden"),
    "look.face_up": N_("card {card} is face up: everybody sees it"),
    "look.face_up.field": N_("{card} is face up"),
    "reveal.not_revealed": N_("card {card} is not revealed"),
    "look.not_looked": N_("card {card} is not looked at"),
    "player.already_left": N_("{player} has already left the game"),
    "return.owns": N_("card {card} can't go back to its owner: {player} owns it; `returned` lists only cards the "
                      "leaver controls through a control-changing effect (D9)"),
    "return.owns.field": N_("{card}: the leaver owns it"),
    "return.not_controlled": N_("card {card} can't go back to its owner: {player} doesn't control it; `returned` "
                                "lists only cards the leaver controls through a control-changing effect (D9)"),
    "return.not_controlled.field": N_("{card}: the leaver doesn't control it"),
    "cut.needs_point": N_("a cut needs its point: `at` from the judge, else the service draws one"),
    "cut.range": Nn_("a cut of a library of {n} card is made between 0 and {n} cards from the top",
                     "a cut of a library of {n} cards is made between 0 and {n} cards from the top"),
    "cut.range.field": N_("between 0 and {n}"),
    "library.top_only": N_("a player takes from the library only its top card, or a card revealed or looked at by "
                           "them; picking another is a search (701.1a)"),
    "library.top_only.field": N_("not the top card"),
    "brought_by.casts": N_("only the player who brought this commander ({player}) casts it from the command zone "
                           "(D14(f))"),
    "brought_by.command_zone": N_("only the player who brought this commander ({player}) chooses to put it into the "
                                  "command zone (D14(f))"),
    # who may do what (permissions.py)
    "token.missing": N_("send Authorization: Bearer <token> (a player's or the judge's token)"),
    "token.unknown": N_("this token belongs to no player of this game"),
    "judge_only.undo": N_("only the judge may undo"),
    "judge_only.reissue": N_("only the judge may reissue a token"),
    "judge_only.export": N_("only the judge may export the game's whole record"),
    "judge_only.end_game": N_("only the judge may end the game"),
    "judge_only.printed_draw": N_("only the judge records which physical card was drawn"),
    "judge_only.look": N_("only the judge records a look at another player's hidden card"),
    "judge_only.cut_at": N_("only the judge records where the library was cut (at)"),
    "could_be.hand_forbidden": N_("705.11 questions about a hand are for the judge and that player"),
    "action.needs_actor": N_("an action needs a player or the judge"),
    "action.not_a_player": N_("'{player}' is not a player of this game"),
    "player.out": N_("{player} is no longer in the game"),
    "player.say_which": N_("say which player this is for"),
    "themselves.draw": N_("a player can only draw for themselves"),
    "themselves.name": N_("a player can only name a card for themselves"),
    "themselves.turn_up": N_("a player can only turn a card face up for themselves"),
    "themselves.reveal": N_("a player can only reveal for themselves"),
    "themselves.leave": N_("a player can only leave the game themselves"),
    "themselves.cut": N_("a player can only cut the library for themselves"),
    "themselves.turn": N_("a player can only start their own turn"),
    "move.other_hand": N_("a card in another player's hand is moved by that player (or the judge)"),
    "move.face_down_control": N_("taking control of another player's face-down card is the judge's to record"),
    "name.choice_unrevealed": N_("with choice, a player names only a card revealed to them (705.5, D11)"),
    "reveal.own_hand": N_("a player reveals only the cards of their own hand"),
    "commander_damage.who": N_("commander damage is recorded by the player dealt it, the commander's controller "
                               "or the judge"),
    # commanders (903, D14)
    "commander.not_in_deck": N_("{card} is not a card that can be in a deck, so it can't be a commander (903.3)"),
    "commander.background": N_("{card} is a Background: it can be a commander only beside one that says "
                               "\"Choose a Background\" (903.3, D14(c))"),
    "commander.not_legendary": N_("{card} can't be a commander: it is not a legendary creature and doesn't say it "
                                  "can be (903.3)"),
    "commander.twice": N_("a player's two commanders are two different cards, not {card} twice (D14(c))"),
    "commander.pair": N_("{first} and {second} can't be commanders together: two commanders need partner on both, "
                         "\"Partner with\" each other, the same partner group, a commander that chooses a Background "
                         "and a Background, or Doctor's companion and a Time Lord Doctor (D14(c))"),
    "commander.count": Nn_("a player has one commander or two partners, not {n} (D14(a), D14(c))",
                           "a player has one commander or two partners, not {n} (D14(a), D14(c))"),
    "commander.unknown": N_("no card named '{name}' in the card pool to be a commander"),
    "commander.no_identity": N_("the card data doesn't give {card}'s colour identity (903.4)"),
    "commander.wrong_format": N_("only a commander game has commanders, not {format} (D14)"),
    "commander.wrong_format.field": N_("not in a {format} game"),
    "commander.required": N_("each player of a commander game brings a commander (D14(a), 903.6)"),
    # formats and the ban list (704.1, 706)
    "format.banlist": N_("{card} is on the Mental Magic ban list ({rule})"),
    "format.banned": N_("{card} is banned in {format}, so banned in Mental Magic {format}"),
    "format.restricted": N_("{card} is restricted in {format}, so banned in Mental Magic {format}"),
    "format.not_in": N_("{card} is not a card of the chosen format ({format})"),
    # games and services
    "game.archived": N_("this game was archived on {date} (idle or over): it can be read, not changed"),
    "same_name.two": N_("name at least two cards"),
    "same_name.two.field": N_("at least two card ids"),
    "face_up.not_face_down": N_("this card is not a face-down permanent or spell"),
    "face_up.not_face_down.field": N_("not face down"),
    "face_up.who_asks": N_("only its controller and the judge may ask what a face-down card could be"),
    "setup.no_player": N_("a game needs at least one player"),
    "setup.player_ids": N_("player ids must be unique"),
    "setup.same_name": N_("'{name}' is '{other}' ignoring case and accents: give each player a name of their own"),
    "setup.control_character": N_("a name holds no control character (NUL, a line break, a direction mark)"),
    "setup.card_ids": N_("card ids must be unique"),
    "setup.commanders": N_("a commander is a known card of a player of the game"),
    "setup.unknown_cards": N_("unknown cards: {cards}"),
    "setup.invalid": N_("the game setup is not valid"),
    "game.finished": N_("this game is finished; the judge may undo its last event to go on"),
    "library.no_search_event": N_("players can't search the library (701.1a): no such event is recorded"),
    "undo.nothing": N_("there is no event to undo"),
    # a game's record read back (replay.py): import and verify
    "record.event_refused": N_("event {seq} ({type}) is refused: {why}"),
    "record.altered": N_("the rules make another event of this action: the record was altered"),
    "record.seq": N_("it comes where event {expected} was due"),
    "record.not_export": N_("this is not a game exported by the arbiter"),
    "record.not_export.field": N_("not a game's export"),
    "record.not_judges": N_("this export holds no setup (the library at the start): import the judge's full "
                            "export, not a player's"),
    "record.not_judges.field": N_("the judge's export has it"),
    "record.version": N_("this arbiter reads exports of version {known}, not {version}"),
    "record.version.field": N_("an unknown version"),
    "record.malformed": N_("this export can't be read"),
    "record.malformed.field": N_("can't be read"),
    "name.taken_race": N_("that name was taken by another card at the same moment"),
    "name.already_race": N_("this card was named at the same moment"),
    "storage.failed": N_("the disk failed to sync {path} ({why}): this server process answers nothing it doesn't "
                         "know is on disk, and takes no writes, until it is restarted"),
    "storage.failed_now": N_("{failed}. The last write may or may not have been recorded: read the game before "
                             "acting again"),
    "storage.refuses": N_("the server's disk refuses writes now ({why}): nothing was recorded; retry later"),
    "storage.disk_full": N_("the disk is full"),
    "storage.read_only": N_("the database can't be written (read-only)"),
    "storage.io_error": N_("the disk failed to read or write"),
    "storage.cant_open": N_("the database file can't be opened"),
    "storage.corrupt": N_("the database file is damaged (malformed, or not a database)"),
    "storage.unusable_now": N_("the server's database can't be used now ({why}): nothing was recorded; retry later"),
    "storage.file_lost": N_("{why}: this server reads and writes nothing until the file it started on is put back, "
                            "or it is restarted"),
    # decks
    "deck.empty": N_("deck '{deck}' holds no card"),
    "deck.empty.field": N_("the deck holds no card"),
    "deck.token_missing": N_("send Authorization: Bearer <edit_token> (given when the deck was saved)"),
    "deck.token_wrong": N_("this token is not this deck's edit token"),
    "deck.line_long": N_("the line is longer than {n} characters"),
    "deck.count_alone": N_("a count without a card name"),
    "deck.count_range": N_("the count must be between 1 and {n}, not {count}"),
    "deck.not_text": N_("a deck list is text"),
    "deck.not_text.field": N_("must be text"),
    "deck.too_long": N_("the list is longer than {n} characters"),
    "deck.too_long.field": N_("at most {n} characters"),
    "deck.unreadable": N_("unreadable line"),
    "deck.no_card": N_("no card named '{name}'"),
    "deck.not_library": N_("{card} is {layout}, not a card a library holds"),
    # what such a card is, by its layout (cards.NON_LIBRARY_LAYOUTS)
    "layout.planar": N_("a Planechase card"),
    "layout.scheme": N_("an Archenemy scheme"),
    "layout.vanguard": N_("a Vanguard card"),
    "layout.token": N_("a token"),
    "layout.emblem": N_("an emblem"),
    "layout.art_series": N_("an art card"),
    "layout.meld_result": N_("the back of a meld pair"),
    "deck.too_big": N_("the deck would hold more than {n} cards ({size} before this line)"),
    "flag.banned": N_("{card} is banned in Mental Magic: no card may be named it"),
    "flag.watched": N_("{card} is on Mental Magic's watch list: allowed, but worth a word before the game"),
    "flag.format_banned": N_("{card} is banned in {format}, so no card may be named it there"),
    "flag.format_restricted": N_("{card} is restricted in {format}, so no card may be named it there"),
    "flag.unknown_cost": N_("the card data doesn't know the cost of {faces}: no card can be named that, and the "
                            "printed card offers only its known costs (704.1; an unknown cost is neither 'no mana "
                            "cost' nor {{0}}, D2)"),
    # the command line (grammar.py)
    "grammar.not_text": N_("a command is a line of text"),
    "grammar.too_long": N_("a command is at most {n} characters"),
    "grammar.quote": N_("a quote (\") is not closed"),
    "grammar.empty": N_("empty command: try `ana draw 2` or `undo`"),
    "grammar.no_verb": N_("what does {player} do? a verb follows the player: {verbs}"),
    "grammar.unknown_verb": N_("unknown verb '{verb}'; one of: {verbs}"),
    "grammar.player_ambiguous": N_("'{text}' is the start of more than one player's name (players: {players})"),
    "grammar.no_player": N_("'{text}' names no player (players: {players})"),
    "grammar.starts_with_player": N_("a command starts with a player (or is `undo`): {why}"),
    "grammar.expected_card": N_("expected a card (its number in `show`, or its id)"),
    "grammar.expected_commander": N_("expected a commander (its number in `show`, or its id)"),
    "grammar.no_card": N_("no card '{card}' in this game: use its number from `show`, or its id"),
    "grammar.expected_cards": N_("expected cards (their numbers in `show`, or ids), or `top N`"),
    "grammar.card_twice": N_("a card is named twice"),
    "grammar.count": N_("expected a number of cards from 1 to {n}, not '{word}'"),
    "grammar.name_after_as": N_("expected a name after `as`"),
    "grammar.unexpected": N_("unexpected '{word}'"),
    "grammar.unexpected_name": N_("unexpected '{word}': give a name with `as NAME`"),
    "grammar.via_expected": N_("expected how after `via`: {vias}"),
    "grammar.via_unknown": N_("unknown way '{word}': {vias}"),
    "grammar.top_n": N_("expected `top N`: how many cards from the top of the library"),
    "grammar.expected_printed": N_("expected the printed card drawn, or a number"),
    "grammar.expected_name": N_("expected the name to give"),
    "grammar.top_bottom": N_("top or bottom is for a card put into the library"),
    "grammar.where_to": N_("expected where to: {zones}"),
    "grammar.leave_extra": N_("unexpected '{word}': `leave` takes only `returning CARDS…`"),
    "grammar.naming_here": N_("`naming C NAME` names the face-down cards of a player who leaves or loses: after "
                              "`leave`, `up`, a move or `damaged` only"),
    "grammar.at_n": N_("expected `at N`: the cut, N cards from the top"),
    "grammar.shuffle_extra": N_("unexpected '{word}': `shuffle` takes only `at N`"),
    "grammar.turn_n": N_("expected `turn` or `turn N`: the turn's number, 1 or more"),
    "grammar.damaged": N_("expected `damaged N by C`: N combat damage (1 to 1000) dealt by commander C"),
    # the inputs' own checks (inputs.py)
    "input.commander": N_("a card name, or a list of two (partners, D14(c))"),
    "input.library_or_deck": N_("give exactly one of library or deck"),
    "input.distinct_ids": N_("expected a list of distinct ids"),
    "input.count_or_printed": N_("give count or printed, not both"),
    "input.position": N_("position is top or bottom, for the library only"),
    "input.cards_or_count": N_("give exactly one of cards or count"),
    "input.action_object": N_("an action is a JSON object"),
    "input.one_of": N_("must be one of: {choices}"),
    "input.length_between": N_("Length must be between {min} and {max}."),
    "input.length_min": N_("Shorter than minimum length {min}."),
    "input.length_max": N_("Longer than maximum length {max}."),
    "input.length_equal": N_("Length must be {equal}."),
    "input.between": N_("Must be greater than or equal to {min} and less than or equal to {max}."),
    "input.at_least": N_("Must be greater than or equal to {min}."),
    "input.at_most": N_("Must be less than or equal to {max}."),
    # marshmallow's own fixed messages (runtime/inputs.py ``coded``): its English is the msgid
    "input.required": N_("Missing data for required field."),
    "input.null": N_("Field may not be null."),
    "input.invalid": N_("Invalid value."),
    "input.integer": N_("Not a valid integer."),
    "input.number": N_("Not a valid number."),
    "input.number_large": N_("Number too large."),
    "input.number_special": N_("Special numeric values (nan or infinity) are not permitted."),
    "input.string": N_("Not a valid string."),
    "input.utf8": N_("Not a valid utf-8 string."),
    "input.boolean": N_("Not a valid boolean."),
    "input.list": N_("Not a valid list."),
    "input.mapping": N_("Not a valid mapping type."),
    "input.nested_type": N_("Invalid type."),
    "input.schema_type": N_("Invalid input type."),
    "input.unknown_field": N_("Unknown field."),
    # the API's own query and body checks (web/schemas.py, web/decks.py, web/fields.py)
    "input.printed_or_cost": N_("give exactly one of printed or cost"),
    "input.player_needs_game": N_("player is a player of a game: give game too"),
    "input.commander_or_player": N_("give commander or player, not both"),
    "input.deck_change": N_("give a new name or list"),
    "input.card_ids": N_("a card id, or a list of two"),
    # the web edge
    "invalid.fields": N_("some fields are invalid"),
    "invalid.field": N_("{field}: {why}"),
    "internal": N_("the arbiter failed on this request; it has been logged"),
    "rate_limited": Nn_("too many requests from {caller} ({why}); retry in {n} s",
                        "too many requests from {caller} ({why}); retry in {n} s"),
    "body.not_json": N_("the body must be JSON in UTF-8 (Content-Type: application/json)"),
    "body.json_deep": N_("the body's JSON is nested too deep to read"),
    "body.json_object": N_("the body must be a JSON object in UTF-8 (Content-Type: application/json)"),
    # what the HTTP server refuses before the app (web/waitress_errors.py), and a body over the limit
    "server.too_large": N_("the request body is too large for the arbiter: an action is small, and a game or a deck"
                           " list fits in 256 KiB"),
    "server.headers_too_large": N_("the request's headers are too large"),
    "server.bad_request": N_("the request can't be read"),
    "server.no_route": N_("the API has no {path}: its routes are listed in /api/v1/openapi.json"),
    "server.method_not_allowed": N_("{path} does not take {method}: it takes {allowed}"),
    "server.not_implemented": N_("this transfer encoding is not supported"),
    "server.too_many_connections": N_("this client has too many connections open to the arbiter; close some (one "
                                      "kept alive is enough) and retry"),
    # the operator's words: start-up and settings (runtime/, settings.py, cli/), /health, the card source
    "settings.not_a_number": N_("{setting}={value} is not a number of 0 or more; unset it or fix it"),
    "settings.shard": N_("{setting}={value} must be 1 to 16 letters or digits"),
    "settings.storage": N_("{setting}={value}: {why}"),
    "settings.storage_unopened": N_("{setting}={value} can't be opened ({why})"),
    "settings.shared_path": N_("shared:// needs the file for the counts: shared:///path/to/file"),
    "settings.access_log": N_("{setting}={value} can't be opened ({why}): name a file in a directory that exists, "
                              "'-' or '0'"),
    "serve.ready": Nn_("Mental Magic arbiter on {url} ({cards} cards, {server}, {n} worker{pinned})",
                       "Mental Magic arbiter on {url} ({cards} cards, {server}, {n} workers{pinned})"),
    "serve.pinned": N_(", kept on cores {cores} in turn"),
    "serve.table.addresses": N_("Phones on this laptop's network (the same Wi-Fi) reach the arbiter at:"),
    "serve.table.qr": N_("The judge's console on another device: {url}"),
    "serve.table.seats": N_("On this laptop, open {url}: each player's link and QR code carry the address phones "
                            "reach."),
    "serve.table.none": N_("No network address: phones can't reach this laptop. Join the table's Wi-Fi (or share a "
                           "phone's connection), then start again; meanwhile only this laptop opens {url}"),
    "serve.cannot_listen": N_("cannot listen on {host}:{port} ({why}): stop what runs there or choose another --port"),
    "source.embedded": N_("the embedded snapshot ({path})"),
    "source.file": N_("the file {path}"),
    "source.no_card": N_("holds no card"),
    # what a card source is known to lack (cards/__init__.py KNOWN_GAPS, stored in English with the
    # cards): each English is the stored text, exactly (``gap``)
    "source.gap.french_names": N_("French names of cards printed after October 2018, and of many older sets"),
    "source.gap.later_faces": N_("the cost, type and text of 344 later faces of multi-face cards printed after 2018 "
                                 "(Stomp, of Bonecrusher Giant // Stomp): they offer no cost"),
    "source.gap.legalities": N_("modern and pauper legalities of most cards printed after 2018, and every format but "
                                "vintage, legacy, commander, modern and pauper"),
    "source.gap.other": N_("{text}"),  # a gap stored by a newer version, as it is (English)
    "source.lacks_used": Nn_("lacks {n} card that stored games use ({cards})",
                             "lacks {n} cards that stored games use ({cards})"),
    "cards.importing": N_("importing {source}"),
    "cards.imported": N_("imported {n} cards from {source}"),
    "cards.progress": Nn_("{label}: {n} card", "{label}: {n} cards"),
    "cards.progress_so_far": Nn_("{label}: {n} card so far", "{label}: {n} cards so far"),
    "cards.stale_source": N_("the card database holds {stored}, but MENTALMAGIC_CARDS names {source}; run "
                             "`mentalmagic build-cards` to switch"),
    "cards.tables_unreadable": N_("the card tables in {path} can't be read ({why})"),
    "cards.tables_empty": N_("the card tables in {path} are empty"),
    "cards.tables_mismatch": N_("the card tables in {path} hold {cards} cards and {faces} faces where {n} cards were "
                                "imported from {source}"),
    "startup.card_file_unreadable": N_("cannot read the card file {path} ({why}): fix its permissions or point "
                                       "MENTALMAGIC_CARDS at another copy"),
    "startup.card_file_empty": N_("the card file {path} is empty: download it again (`mentalmagic download-cards`) "
                                  "or point MENTALMAGIC_CARDS at a good copy"),
    "startup.card_file_broken": N_("the card file {path} is truncated or isn't an AtomicCards file ({why}): download "
                                   "it again (`mentalmagic download-cards`) or point MENTALMAGIC_CARDS at a good copy"),
    "startup.source_refused": N_("the card file {path} {why}: nothing was replaced; point MENTALMAGIC_CARDS at a "
                                 "complete AtomicCards file (or the one the games were played with)"),
    "startup.rebuild_cards": N_("{problem}: rebuild them with `mentalmagic build-cards --force` (same "
                                "MENTALMAGIC_CARDS)"),
    "startup.why": N_("{says}: {detail}"),
    "startup.unwritable.disk_full": N_("the database {path} can't be written ({why}): make room on its disk, or set "
                                       "MENTALMAGIC_DB to another file"),
    "startup.unwritable.read_only": N_("the database {path} can't be written ({why}): mount it read-write, or let the "
                                       "server's user write the file and its directory, or set MENTALMAGIC_DB to "
                                       "another file"),
    "startup.unwritable.io_error": N_("the database {path} can't be written ({why}): check the disk (dmesg), or set "
                                      "MENTALMAGIC_DB to another file"),
    "startup.unusable": N_("the database {path} can't be used ({why}): {what}"),
    "startup.quick_check": N_("the database {path} fails PRAGMA quick_check ({why}): {what}"),
    "startup.restore_or_move_away": N_("restore it from a backup, or move it away to start with an empty one (or set "
                                       "MENTALMAGIC_DB to another file)"),
    "startup.restore_or_move": N_("restore it from a backup or move it away"),
    "storage.writes_fail": N_("{says}: writes to {path} fail; they are refused (503 storage_failed) until the disk "
                              "takes them again"),
    "storage.writes_fail_why": N_("{says}: writes to {path} fail ({why}); they are refused (503 storage_failed) "
                                  "until the disk takes them again"),
    "storage.mounted_read_only": N_("{path} is mounted read-only"),
    "storage.not_writable": N_("{path} isn't writable by this user"),
    "health.no_cards": N_("no card is loaded"),
    "health.database_gone": N_("the database {path} is gone"),
    "health.database_replaced": N_("the database {path} is another file than the one this server started on "
                                   "(replaced, or moved)"),
    "health.games_unreadable": N_("the games in {path} can't be read ({why})"),
    "health.card_file_unreadable": N_("the card file {path} can't be read: a restart would fail"),
    "cli.cards_built": N_("built: {source}"),
    "cli.cards_current": N_("already current: {source}"),
    "cli.self_check_ok": N_("ok: {db} holds {n} cards from {source}"),
    "cli.warning": N_("warning: {why}"),
    "cli.end_needs_cards": N_("--end ends the reveal or look of the CARDS given"),
    "cli.printed_empty": N_("PRINTED is empty: give a card's name, or a mana cost (none: no mana cost)"),
    "cli.not_card_nor_cost": N_("no card named {printed}, and it isn't a mana cost either"),
    "cli.not_card_nor_cost.why": N_("no card named {printed}, and it isn't a mana cost either ({why})"),
    "cli.no_current_game": N_("no game yet: start one with `mentalmagic game new`, or give its id"),
    "cli.db_folder_missing": N_("--db: no folder {folder}: give a database in a folder that exists"),
    "cli.the_card_source": N_("the card source"),
    "cli.cannot_import": N_("cannot import {source}: {why}"),
    "cli.download_failed": N_("download from {url} failed: {why}"),
    "cli.deck_or_list": N_("give one of --deck DECK or --list FILE"),
    "cli.list_problems": N_("some lines load no card: fix the list, or start with --skip-problems"),
    "cli.no_such_game": N_("no game {game} in this database (`mentalmagic game list`)"),
    "cli.commander_spec": N_("--commander {spec}: write PLAYER=NAME with one of the players given"),
    "cli.source_lacks": N_("note: this card source lacks {gaps}"),
    "idempotency.bad_key": N_("the {header} header must be 1 to {n} printable ASCII characters (a UUID will do)"),
    "idempotency.reused": N_("this {header} was used for another request within a day: use a new key for a new one"),
    # mana costs
    "cost.invalid": N_("invalid mana cost: '{text}'"),
    "cost.invalid.why": N_("invalid mana cost: '{text}' ({why})"),
    "cost.expected_text": N_("expected text"),
    "cost.braces": N_("write symbols in braces, e.g. {{1}}{{W}}"),
    "cost.outside_braces": N_("text outside braces"),
    "cost.no_symbol": N_("no symbol"),
    "cost.too_many_symbols": N_("more than {n} symbols"),
    "cost.long_number": N_("a number over {n} digits"),
    "cost.unknown_symbol": N_("unknown symbol {symbol}"),
    "cost.too_many_readings": N_("too many hybrid symbols: over {n} readings"),
}


# A code whose words elide before a vowel in some language ("Main d’Ana"): the parameter that
# decides, and the same English in the context BEFORE_VOWEL, which the catalogue words elided
# (as the console's "key.vowel.VAR", web/console_strings.py). English reads it as the plain message.
ELIDED: dict[str, tuple[str, str]] = {
    "cli.zone_of": ("name", Np_("before a vowel", "{zone} of {name}")),
    "cli.could_be_none": ("player", Np_("before a vowel", "no card of {player}'s hand could be named {name} ({rule})")),
}
_VOWEL = re.compile(r"[aeiouàâäéèêëîïôöùûü]", re.IGNORECASE)  # as the console's (static/js/i18n.js)

_GAP_CODES = tuple(code for code in WORDS if code.startswith("source.gap.") and code != "source.gap.other")
