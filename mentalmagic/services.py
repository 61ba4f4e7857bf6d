"""The use cases of a game, each a few lines over a unit of work (Cosmic Python's service layer).

The web handlers and the CLI call these with typed commands and get plain dicts back
(views.py); storage is behind ``uow.games``, the repository. Nothing here knows HTTP or SQL.
"""

from __future__ import annotations

import random
import secrets
import weakref
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Protocol

from . import grammar, handles, replay, views
from .actions import decide
from .cards import Card
from .clock import now, stamp
from .commander import find_commanders, identity_of
from .commands import Command, Shuffle
from .errors import ArbiterError, Forbidden, GameArchived, InvalidInput, NotACommander, UnknownPlayer
from .formats import COMMANDER
from .game import Event, Game, GameSetup, GameState, Player, check_setup
from .game import undo as undo_last
from .ids import new_id
from .index import CandidateFinder
from .messages import say
from .names import fold, has_control
from .permissions import Caller, identify, may_ask_about_hand, only_the_judge
from .pool import said_name
from .rulesets import SCOPE_SERIES, game_options, game_rules, rule_set, rules_view
from .series import carried_names
from .tokens import new_token, token_hash


class Repository(Protocol):
    # this instance's part of the game ids, when several share the games (docs/deployment.md, "Past one machine")
    shard: str

    def load(self, game_id: str) -> Game: ...  # as of now; its ``version`` grows with every write to it
    def peek(self, game_id: str) -> Game | None: ...  # as this process last saw it (perhaps stale), or None
    def events(self, game_id: str, since: int | None = None, limit: int | None = None) -> list[Event]: ...
    def tokens(self, game_id: str) -> tuple[str, dict[str, str]]: ...
    def add(self, game: Game, judge_hash: str, player_hashes: dict[str, str],
            events: tuple[Event, ...] = ()) -> None: ...
    def append(self, game: Game, event: Event, new_state: GameState) -> tuple[Game, list[str]]: ...
    def remove_last(self, game: Game, last: Event, before: GameState, at: str) -> Game: ...
    def set_token(self, game_id: str, player: str, token_hash: str) -> None: ...
    def summaries(self) -> list[dict]: ...
    def archive(self, idle_since: str, at: str, most: int = 200) -> list[str]: ...


class SeriesRepository(Protocol):
    def add(self, series_id: str, created_at: str, rules: str, options: dict, token_hash: str,
            name: str | None = None) -> None: ...
    def get(self, series_id: str) -> dict: ...
    def game_versions(self, series_id: str) -> list[tuple[str, int]]: ...


class UnitOfWork(Protocol):
    """``with uow: ...; uow.commit()``: all the writes land, or none. Reads need no ``with``."""

    games: Repository
    finder: CandidateFinder
    series: SeriesRepository

    def __enter__(self) -> UnitOfWork: ...
    def __exit__(self, *exc) -> None: ...
    def commit(self, answer: Callable[[], dict] | None = None) -> None: ...  # ``answer()``: kept with the
    # write when the caller gave an Idempotency-Key (the edge sets that up)


# -- writes ---------------------------------------------------------------------------------------
def create_series(uow: UnitOfWork, rules: str, options: dict, name: str | None = None) -> dict:
    """A new series under a rule set and its options, and the name its playgroup calls it, if any;
    its id and its token (shown only now), which makes its games (``series`` in a new game's body)."""
    chosen = rule_set(rules, options)  # refused now if unknown, or an option it doesn't take
    name = name.strip() or None if name is not None else None
    if name is not None and has_control(name):
        raise InvalidInput("setup.invalid", fields={"name": [say("setup.control_character")]})
    token = new_token()
    series_id = _game_id(uow)
    with uow:
        uow.series.add(series_id, now(), chosen.key, dict(chosen.options), token_hash(token), name)
        uow.commit()
    return {"id": series_id, "token": token, "rules": rules_view(chosen), "name": name}


def series_options(uow: UnitOfWork, series_id: str, authorization: str | None, asked: dict | None = None) -> dict:
    """The options of a new game of a series: its rule set's, and the series' id; only its token may
    ask. A game asked under other rules than the series' is refused rather than changed."""
    row = uow.series.get(series_id)
    identify(authorization, row["token_hash"], {})  # 401 unless the series' token
    options = game_options(row["options"], row["rules"])
    named = (asked or {}).get("rules")  # asked for by name, the default included: it must be the series'
    switched_on = {k for k, v in (asked or {}).items() if v is True}
    if named not in (None, row["rules"]) or not switched_on <= {k for k, v in row["options"].items() if v}:
        raise InvalidInput("series.other_rules", rules=row["rules"],
                           fields={"rules": [say("series.other_rules.field", rules=row["rules"])]})
    return {**options, "series": series_id}


def series_view(uow: UnitOfWork, series_id: str, authorization: str | None) -> dict:
    """The series' rule set and, game by game, the names taken (what stays taken where names last a series)."""
    row = uow.series.get(series_id)
    identify(authorization, row["token_hash"], {})
    rules = rule_set(row["rules"], row["options"])
    games = [uow.games.load(gid) for gid, _ in uow.series.game_versions(series_id)]
    return {"id": series_id, "name": row.get("name"), "created_at": row["created_at"], "rules": rules_view(rules),
            "games": [{"id": g.id, "status": g.state.status, "names": views.names_view(g.state),
                       "players": [{"id": p.id, "name": p.name} for p in g.setup.players]} for g in games]}


def _series_versions(uow: UnitOfWork, game: Game) -> list[tuple[str, int]] | None:
    """The versions of the other games of ``game``'s series, when its rule set keeps their names (Xom
    6); None otherwise. One read: while none changed, nor ``game``, what they carry is unchanged."""
    series_id = game.setup.options.get("series")
    if not series_id or game_rules(game.setup.options).name_scope != SCOPE_SERIES:
        return None
    return [(gid, v) for gid, v in uow.series.game_versions(series_id) if gid != game.id]


def _with_series(uow: UnitOfWork, game: Game, versions: list[tuple[str, int]] | None = None) -> Game:
    """``game`` with the names its series' other games took, when its rule set keeps them (Xom 6)
    (``versions``: ``_series_versions``, when the caller read them). The same object again while
    ``game`` and those names are unchanged, so what is kept per game object (a look-up's question:
    lookups._from_game) stays good."""
    if versions is None:
        versions = _series_versions(uow, game)
    if versions is None:
        return game
    kept = _CARRIED.get(game.id)
    if kept is not None and kept[0]() is game and kept[1] == versions:
        return kept[2]
    others = [(gid, uow.games.load(gid).state.names.taken_keys()) for gid, _ in versions]
    carried = carried_names(game_rules(game.setup.options), others, game.id)
    out = replace(game, setup=replace(game.setup, carried_names=carried)) if carried else game
    if len(_CARRIED) >= 1024:  # games come and go: start over rather than grow
        _CARRIED.clear()
    _CARRIED[game.id] = (weakref.ref(game), versions, out)
    return out


_CARRIED: dict[str, tuple[weakref.ref, list[tuple[str, int]], Game]] = {}


def rules_game(uow: UnitOfWork, game_id: str) -> Game:
    """The game as the rules read it, with its series' names (Xom 6): what a move, its dry run and
    every look-up about the game decide on, so that they can't disagree."""
    return _with_series(uow, uow.games.load(game_id))


class RulesGames:
    """Games read as the rules read them (``rules_game``), for the look-ups outside a use case
    (``?game=``: lookups.Games), each read in a unit of work of ``store``'s."""

    def __init__(self, store):
        self.store = store

    def load(self, game_id: str) -> Game:
        return rules_game(self.store.unit_of_work(), game_id)


def create_game(uow: UnitOfWork, fmt: str, options: dict, players: list[dict], library: list[str],
                shuffle: bool = True) -> dict:
    """A new game; its id, and the judge's and players' tokens (shown only now)."""
    pool = uow.finder.pool
    ids: set[str] = set()
    while len(ids) < len(library):  # random ids: a card id says nothing of its printed card
        ids.add(secrets.token_hex(5))
    order = list(library)
    if shuffle:
        random.SystemRandom().shuffle(order)
    found = [pool.find(name) for name in order]  # French or face names become the English name
    chosen = _commanders(pool, fmt, players)
    commander_ids: list[str] = []
    while len(commander_ids) < len(chosen):  # physical cards of their own, never from the library (D14(a))
        cid = secrets.token_hex(5)
        if cid not in ids and cid not in commander_ids:
            commander_ids.append(cid)
    setup = GameSetup(
        format=fmt,
        players=tuple(Player(id=f"p{i}", name=p["name"], team=p.get("team")) for i, p in enumerate(players, 1)),
        library=tuple((cid, card.name if card else name) for cid, card, name in zip(ids, found, order, strict=True)),
        options=dict(options),
        commanders=tuple((cid, card.name, pid) for cid, (pid, card) in zip(commander_ids, chosen, strict=True)),
        secret=secrets.token_hex(16),  # D15: the key of the players' handles (handles.py), never shown
    )
    check_setup(setup, pool)
    game_rules(setup.options)  # an unknown rule set, or an option it doesn't take, is refused now
    game = Game(_game_id(uow), setup, GameState.initial(setup), now())
    judge, tokens, players = _seats(setup)
    answer = {
        "id": game.id,
        "judge_token": judge,
        "players": players,
        "library_size": len(setup.library),
        "format": fmt,
        "options": setup.options,
    }
    with uow:
        uow.games.add(game, token_hash(judge), {pid: token_hash(t) for pid, t in tokens.items()})
        uow.commit(lambda: answer)
    return answer


def _seats(setup: GameSetup) -> tuple[str, dict[str, str], list[dict]]:
    """New tokens for a game's judge and players: the judge's, each player's, and the players as a new
    game's answer lists them (tokens shown only then)."""
    judge, tokens = new_token(), {p.id: new_token() for p in setup.players}
    return judge, tokens, [{"id": p.id, "name": p.name, "team": p.team, "token": tokens[p.id],
                            **views.commander_ids(setup, p.id)} for p in setup.players]


def import_game(uow: UnitOfWork, doc, dry_run: bool = False) -> dict:
    """A game rebuilt from the judge's export (replay.py): every event decided again by the rules,
    then stored in one transaction with new tokens (shown only now), or refused (RecordRefused: the
    event's number and rule) with nothing stored. ``dry_run``: the verdict alone (a record checked)."""
    record = replay.read(doc)
    setup = replace(record.setup, secret=secrets.token_hex(16))  # D15: the players' handles keyed anew
    check_setup(setup, uow.finder.pool)
    rules = game_rules(setup.options)  # an unknown rule set, or an option it doesn't take, is refused
    state = replay.replay(setup, record.events, uow.finder)
    verdict = {"events": len(record.events), "seq": state.seq, "status": state.status, "format": setup.format,
               "rules": rules_view(rules), "options": setup.options}
    if dry_run:
        return {"dry_run": True, **verdict,
                "players": [{"id": p.id, "name": p.name, "team": p.team} for p in setup.players]}
    game = Game(_game_id(uow), setup, state, record.created_at or now(), version=len(record.events))
    judge, tokens, players = _seats(setup)
    answer = {"id": game.id, "judge_token": judge, "players": players, "library_size": len(state.library),
              **verdict, "imported_from": record.source}
    with uow:
        uow.games.add(game, token_hash(judge), {pid: token_hash(t) for pid, t in tokens.items()}, record.events)
        uow.commit(lambda: answer)
    return answer


def export_game(uow: UnitOfWork, game_id: str, caller: Caller) -> dict:
    """The judge's whole record of a game, what ``import_game`` reads on another machine (replay.export)."""
    only_the_judge(caller, "judge_only.export")
    g = uow.games.load(game_id)
    return replay.export(g, uow.games.events(game_id), views.game_view(g, caller, uow.finder.pool),
                         views.names_view(g.state))


def _commanders(pool, fmt: str, players: list[dict]) -> list[tuple[str, Card]]:
    """(player id, card) for every commander of a ``commander`` game (903.3, D14(a), D14(c)):
    each player brings one, or two partners; 422 naming the field otherwise. Other formats have
    none, so a commander given there is refused rather than silently dropped."""
    out: list[tuple[str, Card]] = []
    for i, p in enumerate(players):
        field = f"players.{i}.commander"
        names = p.get("commander")
        if fmt != COMMANDER:
            if names:
                raise InvalidInput("commander.wrong_format", format=fmt,
                                   fields={field: [say("commander.wrong_format.field", format=fmt)]})
            continue
        if not names:
            raise NotACommander("commander.required", rule="903.3", field=field)
        try:
            cards = find_commanders(pool, names)
            identity_of(cards)  # 903.4: an identity the card data doesn't give is refused now, not at a naming
            out.extend((f"p{i + 1}", card) for card in cards)
        except NotACommander as e:
            raise NotACommander(e.said, rule=e.rule or "903.3", field=field) from None
    return out


def act(uow: UnitOfWork, game_id: str, caller: Caller, command: Command) -> dict:
    """Check and record one action: the event and the cards it changed, as the caller may see them.

    Writers queue for the write alone: the action is first decided on the game as this process
    last saw it, before the writer lock; under the lock, the game's version (read there anyway)
    says whether anyone wrote since, and only then is it decided again, on the game as it is. A
    refusal is only ever given under the lock, on the game as it is (the copy may be stale)."""
    seen = uow.games.peek(game_id)
    in_series = seen is None or bool(seen.setup.options.get("series"))  # other games count: decided under the lock
    early = None if in_series else _decided(seen, uow.finder, caller, command)
    with uow:
        game = _writable(uow.games.load(game_id))  # inside the lock: nobody can write between read and append
        # every write bumps the version: the same version is the same state, so the same decision
        unchanged = early is not None and seen.version == game.version
        event, after = early if unchanged else _decide(_with_series(uow, game), uow.finder, caller, command)
        before = game.state
        game, changed = uow.games.append(game, event, after)

        def answer() -> dict:
            return _acted(game.setup, event, before, game.state, changed, caller, uow.finder.pool,
                          handles.viewer(game.setup, game.state, caller))

        uow.commit(answer)  # the answer is made in the transaction only when kept (an Idempotency-Key)
    return answer()


def _acted(setup: GameSetup, event: Event, before: GameState, after: GameState, changed, caller: Caller,
           pool, shown: handles.Viewer) -> dict:
    """An action's answer: its event and the cards it changed, as the caller may see them through
    ``shown`` (D15): the game's handles after a recorded action, a dry run's own (handles.Preview)."""
    return {"event": views.event_view(event, caller, before, after, setup, partial(said_name, pool), shown),
            "cards": [views.card_view(after.cards[cid], caller, pool, shown) for cid in changed
                      if views.listed(after.cards[cid], caller, shown)]}  # what its game view lists


def preview(uow: UnitOfWork, game_id: str, caller: Caller, command: Command) -> dict:
    """``act`` without recording: the event the action would make now (or the rule's refusal), the
    cards it would change and, when it would end the game, how (104.2a). Nothing is written: a page
    says what a loss or a departure will do before it asks (issue 20). It shows no more than its
    caller knows now (D15, issue 30): a card the action would show them is shown by the action, once
    recorded, not by its preview (handles.Preview)."""
    game = _writable(rules_game(uow, game_id))
    event, after = _decide(game, uow.finder, caller, command)
    changed = [cid for cid, c in after.cards.items() if game.state.cards.get(cid) != c]
    shown = handles.Preview(game.setup, game.state, after, caller)
    return {**_acted(game.setup, event, game.state, after, changed, caller, uow.finder.pool, shown),
            "dry_run": True, "finished": after.finished}


def _decide(game: Game, finder: CandidateFinder, caller: Caller, command: Command) -> tuple[Event, GameState]:
    """The event ``command`` makes in ``game`` (or the rule's refusal), and the state after it."""
    shown = handles.viewer(game.setup, game.state, caller)
    command = with_randomness(shown.command(command), game.state)  # D15: the handles the caller was shown
    try:
        event = decide(game.state, game.setup, finder, command, caller.player, caller.is_judge, now())
    except ArbiterError as e:
        raise shown.error(e) from None  # a refusal names no card the caller can't see by its id
    return event, game.state.apply_event(event)


def _decided(game: Game | None, finder: CandidateFinder, caller: Caller,
             command: Command) -> tuple[Event, GameState] | None:
    """``_decide`` on a copy that may be stale: None when there is no copy, or it fails there (a
    refusal, or worse, may come of the copy alone: the decision under the lock is the one that counts)."""
    if game is None or game.archived_at is not None:
        return None
    try:
        return _decide(game, finder, caller, command)
    except Exception:  # noqa: BLE001 - a hint only: refused, or worse, perhaps only because the copy is stale
        return None


def with_randomness(command: Command, state: GameState) -> Command:
    """701.1b: a shuffle the judge didn't record is a cut at a random point of the system's
    randomness, drawn here so that the core stays deterministic (the point goes in the event)."""
    if isinstance(command, Shuffle) and command.at is None:
        size = len(state.library)
        return replace(command, random_at=random.SystemRandom().randint(1, size - 1) if size > 1 else 0)
    return command


def undo(uow: UnitOfWork, game_id: str, caller: Caller) -> dict:
    """Take back the last event (judge only): the state is exactly what it was before it."""
    only_the_judge(caller, "judge_only.undo")
    with uow:
        game = _writable(uow.games.load(game_id))
        events = uow.games.events(game_id)
        _, before = undo_last(game.setup, events)
        game = uow.games.remove_last(game, events[-1], before, now())
        uow.commit()
    return {"undone": views.event_view(events[-1], caller, said_name=partial(said_name, uow.finder.pool)),
            "seq": game.state.seq}


def reissue_token(uow: UnitOfWork, game_id: str, caller: Caller, player: str) -> dict:
    """A new token for a player (judge only); the old one stops working (a lost or leaked token)."""
    only_the_judge(caller, "judge_only.reissue")
    token = new_token()
    with uow:
        if _writable(uow.games.load(game_id)).setup.player(player) is None:
            raise UnknownPlayer(player)
        uow.games.set_token(game_id, player, token_hash(token))
        uow.commit()
    return {"token": token}


def archive_idle(uow: UnitOfWork, hours: float, at: datetime | None = None, most: int = 200) -> list[str]:
    """Archive the games, finished or not, nobody wrote to for ``hours`` (the ``most`` longest idle;
    the next sweep takes the rest): the ids archived."""
    at = at or datetime.now(UTC)
    with uow:
        ids = uow.games.archive(stamp(at - timedelta(hours=hours)), stamp(at), most)
        uow.commit()
    return ids


def _game_id(uow: UnitOfWork) -> str:
    """A random id; prefixed ``shard.`` when set, so a router in front finds the instance that holds it."""
    token = new_id()  # letters, digits, - and _: never a dot
    return f"{uow.games.shard}.{token}" if uow.games.shard else token


def _writable(game: Game) -> Game:
    if game.archived_at is not None:
        raise GameArchived("game.archived", date=game.archived_at[:10])
    return game


# -- reads ----------------------------------------------------------------------------------------
def authenticate(uow: UnitOfWork, game_id: str, authorization: str | None) -> Caller:
    """The player or judge a bearer token stands for in this game (401 otherwise)."""
    return identify(authorization, *uow.games.tokens(game_id))


def game(uow: UnitOfWork, game_id: str, caller: Caller) -> dict:
    g = rules_game(uow, game_id)
    return _with_series_names(uow, g, views.game_view(g, caller, uow.finder.pool))


def _with_series_names(uow: UnitOfWork, g: Game, view: dict) -> dict:
    """``view`` and, in a game of a series whose names last it, ``series_names``: the same view as
    ``views.game_view`` everywhere else (a replay of the log reads the same)."""
    return {**view, "series_names": _series_names(uow, g)} if g.setup.carried_names else view


def _series_names(uow: UnitOfWork, g: Game) -> list[dict]:
    """The names the series' other games took (Xom 6), each with its game: public at the table, so
    every seat is shown them (none outside a series whose names last it)."""
    carried = g.setup.carried_names
    out = []
    for gid in dict.fromkeys(carried.values()):  # each game once, in the series' order
        out += [{"name": n["name"], "game": gid} for n in views.names_view(uow.games.load(gid).state)
                if carried.get(fold(n["name"])) == gid]
    return out


def list_games(uow: UnitOfWork) -> list[dict]:
    """Every game of the database, newest first (the judge's list on the laptop that holds the file)."""
    return uow.games.summaries()


def game_versioned(uow: UnitOfWork, game_id: str, caller: Caller,
                   unchanged: Callable[[str], bool]) -> tuple[str, dict | None]:
    """The game's revision and view, or (revision, None) when ``unchanged(revision)`` (a conditional
    GET). The revision is the game's version and, in a series whose names last it, its other games'
    too: a name taken there changes the ``series_names`` every seat here is shown."""
    game = uow.games.load(game_id)
    versions = _series_versions(uow, game)
    g = _with_series(uow, game, versions)
    # versions only grow (every write, an undo too, bumps one) and games are never taken out of a
    # series: their sum changes whenever one of them changes
    revision = str(g.version) if versions is None else f"{g.version}s{sum(v for _, v in versions)}"
    if unchanged(revision):
        return revision, None
    return revision, _with_series_names(uow, g, views.game_view(g, caller, uow.finder.pool))


def run_line(uow: UnitOfWork, game_id: str, caller: Caller, line: str, dry_run: bool = False) -> dict:
    """One line of the judge's grammar (grammar.py), decided like any action; ``undo`` is the judge's.
    ``dry_run``: what it would do (``preview``); an undo then names the event it would take back."""
    parsed = grammar.parse(line, _table(uow.games.load(game_id), caller))
    if isinstance(parsed, grammar.Undo):
        if dry_run:
            only_the_judge(caller, "judge_only.undo")
            last = uow.games.events(game_id)[-1:]
            shown = views.event_view(last[0], caller, said_name=partial(said_name, uow.finder.pool)) if last else None
            return {"dry_run": True, "undone": shown}
        return undo(uow, game_id, caller)
    return preview(uow, game_id, caller, parsed) if dry_run else act(uow, game_id, caller, parsed)


def _table(g: Game, caller: Caller) -> grammar.Table:
    """The grammar's table for the caller: a player reads cards by the ids and numbers shown to them (D15)."""
    table = grammar.Table.of(g.setup)
    if caller.is_judge:
        return table
    shown = handles.viewer(g.setup, g.state, caller)
    numbers = grammar.handle_of(g.setup)
    cards = {}
    for c in g.state.cards.values():
        sid = shown.shown(c)
        cards[sid.lower()] = sid
        if sid == c.id:
            cards[numbers[c.id]] = sid
    return replace(table, cards=cards)


def suggest_line(uow: UnitOfWork, game_id: str, line: str, lang: str = "en") -> dict:
    """What may come next at the end of ``line`` (grammar.suggest): the page's completion, in ``lang``."""
    s = grammar.suggest(line, grammar.Table.of(uow.games.load(game_id).setup), lang)
    return {"kind": s.kind, "prefix": s.prefix, "words": list(s.words)}


def events(uow: UnitOfWork, game_id: str, caller: Caller, since: int | None = None,
           limit: int | None = None) -> dict:
    """The log in order; ``since`` (a seq, exclusive) and ``limit`` page it, unpaged it is whole.
    A player's log is read through the states around each event (D15: replayed)."""
    if caller.is_judge:
        said = partial(said_name, uow.finder.pool)
        return {"events": [views.event_view(e, caller, said_name=said)
                           for e in uow.games.events(game_id, since, limit)]}
    setup = uow.games.load(game_id).setup
    return {"events": views.player_events(setup, uow.games.events(game_id), caller, since, limit,
                                          partial(said_name, uow.finder.pool))}


def names(uow: UnitOfWork, game_id: str, caller: Caller) -> dict:
    g = uow.games.load(game_id)
    return {"names": views.names_view(g.state, handles.viewer(g.setup, g.state, caller))}


def could_be(uow: UnitOfWork, game_id: str, caller: Caller, player: str, name: str) -> dict:
    """705.11: the unnamed cards of a hand that could be named ``name``."""
    may_ask_about_hand(caller, player)
    g = rules_game(uow, game_id)
    if g.setup.player(player) is None:
        raise UnknownPlayer(player)
    ids = views.could_be(g.state, g.setup, uow.finder, player, name)  # an unknown name is a 404 here
    return {"player": player, "name": uow.finder.pool.nameables_called(name)[0].name,
            "taken": views.name_taken(g.state, uow.finder, name, g.setup.carried_names), "cards": ids,
            "rule": "705.11"}


def same_name(uow: UnitOfWork, game_id: str, card_ids: list[str], caller: Caller) -> dict:
    """705.10: do these cards share a name?"""
    if len(card_ids) < 2:
        raise InvalidInput("same_name.two", fields={"cards": [say("same_name.two.field")]})
    g = uow.games.load(game_id)
    shown = handles.viewer(g.setup, g.state, caller)
    ids = [shown.resolve(cid) for cid in card_ids]
    return {"cards": card_ids, "same_name": views.share_a_name(g.state, ids), "rule": "705.10"}


def face_up(uow: UnitOfWork, game_id: str, caller: Caller, card_id: str, via: str | None) -> dict:
    """705.4/705.4a: the names a face-down card could take now; for whoever may see the card."""
    g = rules_game(uow, game_id)
    c = g.state.card(handles.viewer(g.setup, g.state, caller).resolve(card_id))
    if not c.face_down or c.pentaland:
        raise InvalidInput("face_up.not_face_down", fields={"card": [say("face_up.not_face_down.field")]})
    if not views.sees(c, caller):
        raise Forbidden("face_up.who_asks")
    if c.commander_of:  # played as itself (D14(a)): nothing to choose
        return {"card": card_id, "via": c.turn_up_via(via), "allowed": [], "legal": [], "exception": False,
                "loses": False, "why": None, "advice": say("face_up.commander"),
                "rule": "903.3"}
    choice = views.face_up_options(g.state, g.setup, uow.finder, c.id, via)
    return {"card": card_id, "via": choice.via, "allowed": list(choice.allowed), "exception": choice.exception,
            "legal": list(choice.legal), "loses": choice.loses, "why": choice.why_no_exception,
            "advice": choice.advice(),
            "rule": "705.4a" if choice.exception or choice.loses else "705.4"}
