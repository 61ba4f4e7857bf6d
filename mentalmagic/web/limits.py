"""Per-client rate limits (the ``limits`` library): 429 with Retry-After, in the API's error envelope.

Every route counts against MENTALMAGIC_RATE_LIMIT requests per client per minute; the routes
that create something to keep (a game, a series, a deck) also against
MENTALMAGIC_GAMES_PER_HOUR, each route apart, and only what they created (a refusal, an
idempotent replay, or a deck's dry run, is never counted; a replay is answered past the cap). A
creating request takes its place in the hourly count before it runs, in one step (``hit``: add,
then compare), and gives it back when it created nothing: a count tested before and added after
let 30 concurrent creators from one address make 71 games against 60 (issue 30). ``/health``
counts for nothing: a monitor is never refused (issue 23). The counts live in
MENTALMAGIC_RATE_LIMIT_STORAGE: by default ``shared://``, a file beside the database that every
worker of the server maps (web/sharedcounts.py), so the numbers hold for the whole server and
survive a restart; ``memory://`` counts per process, ``redis://`` or ``memcached://`` across
machines. A storage that can't be reached lets requests through (and says so in the log) rather
than failing them.

Why ``limits`` itself and not Flask-Limiter, its Flask extension (which this module used until
issue 8's last round): Flask-Limiter decides on every request which of its limits apply to the
route (defaults, blueprints, decorators, exemptions), which cost more CPU than the route itself
did for /health; these two limits need none of that, and counting with ``limits`` directly costs
a small part of it (docs/performance.md).
"""

from __future__ import annotations

import math
import time
from pathlib import Path

from flask import Flask, current_app, g, request
from limits import RateLimitItem, parse
from limits.errors import ConfigurationError
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from ..messages import say
from ..settings import ENV, Settings
from . import sharedcounts  # noqa: F401 - registers the shared:// storage with limits
from .decks import is_dry_run
from .errors import envelope
from .idempotency import kept_for_retry

# Routes that create what the server keeps: the stricter hourly limit applies to POST on them
# (not to a deck's dry run, which keeps nothing).
CREATING = ("/api/v1/games", "/api/v1/games/import", "/api/v1/series", "/api/v1/decks")


# Routes that never count: a monitor's /health must answer during a client's burst.
EXEMPT = frozenset({"api.health", "static"})


def storage_uri(s: Settings, db_path) -> str:
    """The storage's URI: ``shared://`` alone means the file beside the database."""
    uri = s.rate_limit_storage
    return f"shared://{Path(db_path).resolve()}.limits" if uri.rstrip("/") in ("shared:", "shared:/") else uri


def check_storage(s: Settings) -> None:
    """A storage URI that names no storage (or one whose client isn't installed) is a ValueError naming it.
    ``shared://`` is opened once the self-check has made the database's directory (``install``)."""
    if not (s.rate_limit or s.games_per_hour) or s.rate_limit_storage.startswith("shared:"):
        return
    try:
        storage_from_string(s.rate_limit_storage)
    except ConfigurationError as e:
        raise ValueError(say("settings.storage", setting=ENV["rate_limit_storage"], value=repr(s.rate_limit_storage),
                             why=str(e))) from None


def _why(e: Exception):
    """An error's message as a message parameter: a code of ours (sharedcounts) as it is, else its text."""
    return e.args[0] if isinstance(e, ValueError) and len(e.args) == 1 else str(e)


class RateLimits:
    """The app's two limits and their counts: a fixed window a client, as Flask-Limiter counted."""

    def __init__(self, s: Settings, db_path):
        self.counts = FixedWindowRateLimiter(storage_from_string(storage_uri(s, db_path)))
        self.per_minute = parse(f"{s.rate_limit} per minute") if s.rate_limit else None
        self.per_hour = parse(f"{s.games_per_hour} per hour") if s.games_per_hour else None
        self.hourly_says = f"at most {s.games_per_hour} created per client per hour"

    def check(self):
        """Before a request: count it, and refuse it (429) when its client is over a limit. What the
        answer's X-RateLimit headers describe is kept in ``g.rate_limit``: the hourly limit on a
        creating route, else the per-minute one."""
        if not request.endpoint or request.endpoint in EXEMPT or request.endpoint.endswith(".static"):
            return None  # a path that names no route (its 404), /health and static files count for nothing
        client = request.remote_addr or "127.0.0.1"  # MENTALMAGIC_PROXIES makes it the forwarded one
        try:
            if self.per_minute is not None:
                g.rate_limit = (self.per_minute, client)
                if not self.counts.hit(self.per_minute, client):
                    return self._refused(str(self.per_minute))
            if self.per_hour is not None and self._creating():
                g.rate_limit = (self.per_hour, client, request.url_rule.rule)  # each route counted apart
                g.taken = self.counts.hit(*g.rate_limit)  # its place taken, or not: one step for every worker
                if not g.taken:
                    self._give_back()  # counted refusals would outlast creations given back later
                    if not kept_for_retry():  # a retry of a creation that reached the cap gets its answer
                        return self._refused(self.hourly_says)
        except Exception:  # noqa: BLE001 - a storage that can't be reached must not stop the server
            current_app.logger.exception("rate limits: the counts' storage failed; the request goes through")
            g.pop("rate_limit", None)
        return None

    def headers(self, resp):
        """After a request: count what a creating route created, and say where the client stands."""
        if "rate_limit" not in g:
            return resp
        try:
            if g.get("taken") and (resp.status_code >= 300 or resp.headers.get("Idempotent-Replayed")):
                self._give_back()  # a refusal, or the answer kept for a retry: nothing created
            limit, reset, remaining = self._window()
        except Exception:  # noqa: BLE001 - as in check
            current_app.logger.exception("rate limits: the counts' storage failed; the answer goes without them")
            return resp
        resp.headers["X-RateLimit-Limit"] = str(limit.amount)
        resp.headers["X-RateLimit-Remaining"] = str(remaining)
        resp.headers["X-RateLimit-Reset"] = str(int(reset))
        return resp

    def _creating(self) -> bool:
        rule = request.url_rule
        return request.method == "POST" and rule is not None and rule.rule.rstrip("/") in CREATING \
            and not is_dry_run()

    def _give_back(self) -> None:
        """The place this request took in its hourly count, given back."""
        limit, *ids = g.rate_limit
        g.taken = False
        storage, key = self.counts.storage, limit.key_for(*ids)
        if hasattr(storage, "decr"):  # shared:// and memory://
            storage.decr(key, 1)
        else:  # redis and memcached count down through incr
            storage.incr(key, limit.get_expiry(), amount=-1)

    def _window(self) -> tuple[RateLimitItem, float, int]:
        limit, *ids = g.rate_limit
        reset, remaining = self.counts.get_window_stats(limit, *ids)
        return limit, reset, remaining

    def _refused(self, why: str):
        """429, with the wait the message says in Retry-After: until the window ends, rounded up."""
        limit, reset, _ = self._window()
        wait = max(1, min(limit.get_expiry(), math.ceil(reset - time.time())))
        if request.path.startswith("/api/"):
            resp = envelope(429, "rate_limited", say("rate_limited", caller=request.remote_addr, why=why, n=wait))
        else:
            resp = TooManyRequests(why).get_response()
        resp.headers["Retry-After"] = str(wait)
        return resp


def install(app: Flask, s: Settings) -> RateLimits | None:
    """Count every request of ``app`` against the limits; None when both are off."""
    if not (s.rate_limit or s.games_per_hour):
        return None
    try:
        limits = RateLimits(s, app.config["DATABASE"])
    except (OSError, ValueError) as e:
        raise ValueError(say("settings.storage_unopened", setting=ENV["rate_limit_storage"],
                             value=repr(s.rate_limit_storage), why=_why(e))) from None
    app.before_request(limits.check)
    app.after_request(limits.headers)
    return limits
