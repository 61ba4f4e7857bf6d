"""JSON at the web edge, encoded once: orjson for every response, and candidate lists kept as bytes.

Encoding JSON and building per-candidate dicts were most of a ``/candidates`` request (profiles:
docs/performance.md). Here each candidate's JSON is encoded once per process (once more when
taken), a list of candidates once per question (costs, format, option, filters), and a request
only splices bytes of ``finder.candidates()``'s result: it drops the printed card's own faces,
takes the taken names' entries, and cuts a page. ``views.candidate_json`` stays the definition;
the tests check the bytes against it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping
from io import BytesIO
from itertools import accumulate, compress
from operator import attrgetter
from threading import Lock

import orjson
from flask import current_app, has_request_context, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.wsgi import wrap_file

from ..cards import Card, Nameable
from ..index import MAX_KEPT_NAMES, CandidateList
from ..messages import Message, render
from ..pool import CardPool
from ..views import SharedView
from .i18n import translations
from .views import candidate_json, card_json, card_summary

# Dates and dataclasses go through Flask's own ``default`` so that they read as they always did.
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def _default(obj):
    """A core message is worded in the request's language (English outside a request); the rest as Flask does."""
    if isinstance(obj, Message):
        return render(obj, translations() if has_request_context() else None)
    return DefaultJSONProvider.default(obj)


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON through orjson: UTF-8 as is, keys in the order they are built (docs/api.md's order)."""

    default = staticmethod(_default)

    def dumps(self, obj, **kwargs) -> str:
        return orjson.dumps(obj, default=self.default, option=_OPTIONS).decode()

    def loads(self, s, **kwargs):
        return orjson.loads(s)

    def response(self, *args, **kwargs):
        obj = self._prepare_response_obj(args, kwargs)
        if isinstance(obj, SharedView):  # a kept game view: encoded once (two threads at once encode it alike)
            if obj.encoded is None:
                obj.encoded = orjson.dumps(obj, default=self.default, option=_OPTIONS)
            body = obj.encoded
        else:
            body = orjson.dumps(obj, default=self.default, option=_OPTIONS)
        return body_response(body, self.mimetype)


# Above this, waitress copies a body into a growing buffer of its own (and back out of it) before
# sending it; a body handed over as a file it reads once, as it sends: less CPU for a large
# answer such as most of /candidates' (docs/performance.md).
FILE_BODY_BYTES = 16 << 10


def body_response(body: bytes, mimetype: str = "application/json"):
    """A response of ``body``: a large one handed to the WSGI server as a file (see above)."""
    cls = current_app.response_class
    if len(body) < FILE_BODY_BYTES or not has_request_context():
        return cls(body, mimetype=mimetype)
    resp = cls(wrap_file(request.environ, BytesIO(body), len(body)), mimetype=mimetype, direct_passthrough=True)
    resp.content_length = len(body)
    return resp


def dumps(obj) -> bytes:
    return orjson.dumps(obj, default=_default, option=_OPTIONS)


def dumps_kept(obj) -> bytes:
    """``dumps`` for bytes kept for the life of the process: orjson's buffer holds ~2 kB however
    short the JSON, so the kept copy is cut to size (a kept list would be many times its size)."""
    return bytes(memoryview(dumps(obj)))


_KEY = attrgetter("key")
_NONE: Mapping[str, str] = {}  # no name taken in another game of a series


class EncodedList:
    """One list of candidates as JSON bytes: every entry followed by a comma, and where each starts."""

    __slots__ = ("base", "fragment", "joined", "starts", "positions")

    def __init__(self, base: tuple[Nameable, ...], fragment, entries=None):
        self.base = base  # held, so that the id it is filed under can't be reused
        self.fragment = fragment
        # each entry with its comma, kept per name (Encoded.entries): a search's list, new at each
        # keystroke, is joined from them with no per-name work in Python but the look-up
        parts = entries(base) if entries is not None else [fragment(n, False) for n in base]
        self.joined = b"".join(parts)
        self.starts = array("q", accumulate(map(len, parts), initial=0))
        self.positions = dict(zip(map(_KEY, base), range(len(base)), strict=True))  # the finder lists each name once

    def render(self, excluded: frozenset[str], taken: frozenset[str], offset: int, limit: int | None,
               taken_in: Mapping[str, str] = _NONE):
        """(count, pieces): the page's entries, joined by commas once the pieces are joined, without
        the ``excluded`` names and with ``taken`` ones marked (with the series' game that took it,
        ``taken_in``). Pieces are views of the encoded list, so a whole list is copied once, into
        the response."""
        pos = self.positions
        drops = sorted(pos[k] for k in excluded if k in pos)
        # a game holds at most a few hundred names: look up from the smaller side
        if len(taken) < len(pos):
            marks = {pos[k] for k in taken if k in pos and k not in excluded}
        else:
            marks = {i for k, i in pos.items() if k in taken and k not in excluded}
        count = len(self.base) - len(drops)
        first = offset
        last = count if limit is None else min(count, offset + limit)
        if first >= last:
            return count, []
        lo, hi = self._original(first, drops), self._original(last - 1, drops) + 1
        special = sorted({i for i in drops if lo <= i < hi} | {i for i in marks if lo <= i < hi})
        view, starts = memoryview(self.joined), self.starts
        pieces, cur = [], lo
        for i in special:
            pieces.append(view[starts[cur]:starts[i]])
            if i in marks:
                pieces.append(self.fragment(self.base[i], taken_in.get(_KEY(self.base[i]), True)))
            cur = i + 1
        pieces.append(view[starts[cur]:starts[hi]])
        while not pieces[-1]:  # the page ended on a dropped entry
            pieces.pop()
        pieces[-1] = pieces[-1][:-1]  # the last entry's comma
        return count, pieces

    @staticmethod
    def _original(j: int, drops: list[int]) -> int:
        """The position in the whole list of the ``j``-th entry that is not dropped."""
        for d in drops:
            if d <= j:
                j += 1
            else:
                break
        return j


class Encoded:
    """The bytes one runtime's answers are made of, built on first use and reused."""

    MAX_LIST_BYTES = 16 << 20  # the lists of the ~250 commonest costs; bounded like every cache here
    MAX_CARDS = 4096

    def __init__(self, pool: CardPool):
        self.pool = pool
        self._lists: dict[int, EncodedList] = {}
        self._list_bytes = 0
        self._cards: dict[str, bytes] = {}
        self._summaries: dict[str, bytes] = {}
        self._fragments: dict[tuple[int, bool], bytes] = {}
        self._entries: dict[int, bytes] = {}  # the untaken fragments again, by id alone (entries)
        self._taken_in: dict[tuple[int, str], bytes] = {}  # fragments taken in a series' game (fragment)
        self._seen: dict[int, tuple] = {}  # lists answered once (rendered)
        self._seen_names = 0
        self._whole: dict[int, tuple] = {}  # the entries of the lists searches narrow (_entries_of)
        self._explained: dict[tuple, bytes] = {}
        self._checked: dict[tuple, bytes] = {}
        self._healthy: dict[str, bytes] = {}
        self._lock = Lock()

    def entries(self, base: tuple[Nameable, ...]) -> list[bytes]:
        """``fragment(n, False)`` of each name of ``base``: looked up with no Python call per name; for
        a search's list (``search.Narrowed``), cut from its whole list's entries, kept per list."""
        within = getattr(base, "within", None)
        if within is not None:
            return list(compress(self._entries_of(within), base.flags))
        out = list(map(self._entries.get, map(id, base)))
        if None in out:
            for i, n in enumerate(base):
                if out[i] is None:
                    out[i] = self._entries[id(n)] = self.fragment(n, False)
        return out

    def _entries_of(self, names: tuple[Nameable, ...]) -> tuple[bytes, ...]:
        """``entries(names)``, kept per list (the lists searches are asked of: a few per printed card)."""
        kept = self._whole.get(id(names))
        if kept is not None and kept[0] is names:
            return kept[1]
        out = tuple(self.entries(names))
        with self._lock:
            if len(self._whole) >= 1024:  # bounded like every cache here: the live lists come back first
                self._whole.clear()
            self._whole[id(names)] = (names, out)  # the list held, so that its id stays its own
        return out

    def fragment(self, n: Nameable, taken: bool | str) -> bytes:
        """One candidate and its comma, taken or not, or taken in the series' game ``taken`` (Xom 6);
        ``watched`` is the pool's ban list's (706.4a). Encoded once per process (the pool keeps every
        nameable alive: ids stay theirs); a series game's, bounded, since games come and go."""
        kept = self._taken_in if isinstance(taken, str) else self._fragments
        key = (id(n), taken)
        frag = kept.get(key)
        if frag is None:
            watched = self.pool.bans.status(n.card) == "watched"
            if kept is self._taken_in:
                if len(kept) >= 4096:  # start over rather than grow
                    kept.clear()
                frag = kept[key] = dumps(candidate_json(n, True, watched, taken_in=taken)) + b","
            else:
                frag = kept[key] = dumps_kept(candidate_json(n, taken, watched)) + b","
        return frag

    def candidates_answer(self, res: CandidateList, offset: int, limit: int | None, within: dict,
                          why_none: Callable[[], bytes]) -> bytes:
        """The /candidates answer (docs/api.md) of ``finder.candidates()``'s result: its names
        without the printed card's faces, the taken ones marked, one page; ``why_none()`` (the
        encoded reasons) only when there is no candidate; ``within`` a commander's identity."""
        printed = res.printed
        excluded = frozenset() if res.faces_out else res.excluded  # a search's list holds no face to drop
        count, page = self.rendered(res.names, excluded, res.taken, offset, limit, res.taken_in)
        return b"".join([
            b'{"printed":', self.card(printed) if printed is not None else b"null",
            b',"costs":', dumps([str(c) for c in res.costs]),
            b',"format":', dumps(res.format),
            b',"count":', str(count).encode(),
            b',"candidates":[', *page,
            b'],"unknown_faces":', dumps(list(res.unknown_faces)),
            *((b',"excluded":', why_none()) if not count else ()),
            *(b"," + dumps(k) + b":" + dumps(v) for k, v in within.items()),
            b"}",
        ])

    def rendered(self, base: tuple[Nameable, ...], excluded: frozenset[str], taken: frozenset[str], offset: int,
                 limit: int | None, taken_in: Mapping[str, str] = _NONE):
        """``EncodedList.render`` of ``base``: from its kept EncodedList when the list is asked a second
        time, else from each name's kept entry (``render_once``). A search makes a new list at each
        keystroke, mostly asked once: joining and indexing it to keep would be most of its cost."""
        enc = self._lists.get(id(base))
        if enc is not None and enc.base is base:
            return enc.render(excluded, taken, offset, limit, taken_in)
        if self._seen.get(id(base)) is base:
            return self.candidates(base).render(excluded, taken, offset, limit, taken_in)
        if len(self._seen) >= 4096 or self._seen_names + len(base) > MAX_KEPT_NAMES:
            self._seen.clear()
            self._seen_names = 0
        self._seen[id(base)] = base  # held, so that the id stays its own
        self._seen_names += len(base)
        return self.render_once(base, excluded, taken, offset, limit, taken_in)

    def render_once(self, base: tuple[Nameable, ...], excluded: frozenset[str], taken: frozenset[str], offset: int,
                    limit: int | None, taken_in: Mapping[str, str] = _NONE):
        """What ``EncodedList(base).render`` answers, made from the kept entries without an EncodedList."""
        parts = self.entries(base)
        if excluded or taken:  # a search's list comes without the faces (CandidateList.faces_out)
            keys = list(map(_KEY, base))
            present = set(keys)  # a scan of the list only for a key it holds
            drops = sorted(map(keys.index, excluded & present))  # the printed card's faces
            if taken:  # a game's: a few hundred names at most
                for k in (taken & present) - excluded:
                    i = keys.index(k)
                    parts[i] = self.fragment(base[i], taken_in.get(k, True))
            for i in reversed(drops):
                del parts[i]
        count = len(parts)
        page = parts[offset:] if limit is None else parts[offset:offset + limit]
        if page:
            page[-1] = page[-1][:-1]  # the last entry's comma
        return count, page

    def candidates(self, base: tuple[Nameable, ...]) -> EncodedList:
        enc = self._lists.get(id(base))
        if enc is None or enc.base is not base:
            enc = EncodedList(base, self.fragment, self.entries)
            with self._lock:
                if self._list_bytes + len(enc.joined) > self.MAX_LIST_BYTES:
                    self._lists.clear()  # start over: the common lists come back first
                    self._list_bytes = 0
                self._lists[id(base)] = enc
                self._list_bytes += len(enc.joined)
        return enc

    MAX_EXPLAINED = 20_000  # questions typed by users must not grow it forever

    def explained(self, key: tuple, build) -> bytes:
        """The encoded reason list of an empty answer (``build()``: a scan of the pool), once
        per question: it depends on the question alone, never on a game's taken names."""
        return self._kept(self._explained, key, build)

    def checked(self, key: tuple, build) -> bytes:
        """The encoded /check answer (``build()``: the verdict, its reasons worded), once per
        question and language: ``key`` holds all it depends on, a game's taken names included."""
        return self._kept(self._checked, key, build)

    def healthy(self, language: str, build) -> bytes:
        """The encoded /health answer of a healthy server in ``language``: it says this pool's
        facts alone (source, counts, formats), so it is the same bytes every time."""
        return self._kept(self._healthy, language, build)

    def _kept(self, kept: dict, key, build) -> bytes:
        out = kept.get(key)
        if out is None:
            out = dumps_kept(build())
            if len(kept) < self.MAX_EXPLAINED:
                kept[key] = out
        return out

    def summary(self, card: Card) -> bytes:
        """``card_summary`` as bytes, for autocomplete (at most one per card of the pool)."""
        out = self._summaries.get(card.name)
        if out is None:
            out = self._summaries[card.name] = dumps_kept(card_summary(card))
        return out

    def card(self, card: Card) -> bytes:
        """``card_json`` as bytes: printed facts computed once per printed card."""
        out = self._cards.get(card.name)
        if out is None:
            out = dumps_kept(card_json(card, self.pool))
            with self._lock:
                if len(self._cards) >= self.MAX_CARDS:
                    self._cards.clear()
                self._cards[card.name] = out
        return out
