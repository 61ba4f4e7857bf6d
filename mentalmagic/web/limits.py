"""Per-client rate limits (Flask-Limiter): 429 with Retry-After, in the API's error envelope.

Every route counts against MENTALMAGIC_RATE_LIMIT requests per client per minute; the
routes that create something to keep (a game, a deck) also against
MENTALMAGIC_GAMES_PER_HOUR. The counts live in MENTALMAGIC_RATE_LIMIT_STORAGE: in memory
by default, which is per process (with several workers, give them a shared redis:// or
memcached:// storage to count a client once).
"""

from __future__ import annotations

import math
import time

from flask import Flask, g, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits.errors import ConfigurationError
from limits.storage import storage_from_string

from ..settings import Settings
from .decks import is_dry_run
from .errors import envelope

# Routes that create what the server keeps: the stricter hourly limit applies to POST on them
# (not to a deck's dry run, which keeps nothing).
CREATING = ("/api/v1/games", "/api/v1/decks")


def check_storage(s: Settings) -> None:
    """A storage URI that names no storage (or one whose client isn't installed) is a ValueError naming it."""
    if not (s.rate_limit or s.games_per_hour):
        return
    try:
        storage_from_string(s.rate_limit_storage)
    except ConfigurationError as e:
        raise ValueError(f"MENTALMAGIC_RATE_LIMIT_STORAGE={s.rate_limit_storage!r}: {e}") from None


def install(app: Flask, s: Settings) -> Limiter | None:
    """Attach the limits to ``app`` after its routes are registered; None when both are off."""
    if not (s.rate_limit or s.games_per_hour):
        return None
    limiter = Limiter(
        get_remote_address,  # the client's address (MENTALMAGIC_PROXIES makes it the forwarded one)
        # one count per client across every route (default_limits would count each route apart)
        application_limits=[f"{s.rate_limit} per minute"] if s.rate_limit else [],
        storage_uri=s.rate_limit_storage,
        strategy="fixed-window",
        headers_enabled=True,  # X-RateLimit-Limit/-Remaining/-Reset, and Retry-After on a 429
        swallow_errors=True,  # an unreachable shared storage lets requests through rather than failing them
    )

    @app.after_request  # registered before init_app, so it runs after Flask-Limiter's own headers
    def one_retry_after(resp):
        if "retry_after" in g:  # the wait the message says, never a second rounding of it
            resp.headers["Retry-After"] = str(g.retry_after)
        elif resp.status_code != 429:  # Flask-Limiter sends it on every answer; it means "wait" only here
            resp.headers.pop("Retry-After", None)
        return resp

    limiter.init_app(app)
    if s.games_per_hour:
        hourly = limiter.limit(f"{s.games_per_hour} per hour", methods=["POST"], override_defaults=False,
                               error_message=f"at most {s.games_per_hour} created per client per hour",
                               deduct_when=lambda resp: resp.status_code < 300,  # a refused one created nothing
                               exempt_when=is_dry_run)
        for rule in app.url_map.iter_rules():
            if rule.rule.rstrip("/") in CREATING and "POST" in rule.methods:
                # Flask-Limiter checks a decorated limit in its wrapper: the view is wrapped where it stands
                app.view_functions[rule.endpoint] = hourly(app.view_functions[rule.endpoint])

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(e: RateLimitExceeded):
        current = limiter.current_limit
        window = e.limit.limit.get_expiry()  # reset_at is rounded up to a whole second: never wait longer
        left = math.ceil(current.reset_at - time.time()) if current else window
        wait = g.retry_after = max(1, min(window, left))
        if not request.path.startswith("/api/"):
            resp = e.get_response()
        else:
            resp = envelope(429, "rate_limited",
                            f"too many requests from {request.remote_addr} ({e.description}); retry in {wait} s")
        return resp

    return limiter
