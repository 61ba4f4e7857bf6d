"""The server's limits and its access log, read once from MENTALMAGIC_* environment variables.

Both production servers read them from here (waitress through ``waitress_options``,
gunicorn through ``gunicorn_options``), and so does the app (rate limits, access log).
Every limit is turned off by ``0``. docs/deployment.md's "Limits and logs" table lists them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, fields, replace

from .messages import say


@dataclass(frozen=True)
class Settings:
    rate_limit: int = 600  # requests per client per minute, on every route
    games_per_hour: int = 60  # POST /games (and POST /decks) per client per hour
    rate_limit_storage: str = "shared://"  # a limits URI: shared:// (a file beside the database), memory://, redis://…
    proxies: int = 0  # how many reverse proxies in front set X-Forwarded-For (the client is then theirs)
    access_log: str = "-"  # "-" standard error, "0" off, anything else a file path (appended to)
    connection_limit: int = 1000  # open connections per server process before new ones wait
    channel_timeout: int = 30  # seconds a connection may stay silent (half-open, idle keep-alive)
    client_connections: int = 50  # open connections per client address in each worker process (waitress)
    request_deadline: int = 30  # seconds to send a whole request (line, headers, body) once begun (waitress)
    max_header_bytes: int = 64 * 1024  # request line and headers together
    health_interval: float = 5.0  # seconds /health may reuse its check of the database
    archive_after: float = 72.0  # hours after its last write that a game (over or idle) is archived
    game_cache: int = 256  # games kept replayed in memory per process (least recently used go first)
    pin_workers: int = 1  # 1: each worker process kept on one core, in turn (Linux); 0: the scheduler moves them
    shard: str = ""  # this instance's name, the prefix of its game ids: "s1" makes ids "s1.<random>"


# setting -> environment variable
ENV = {
    "rate_limit": "MENTALMAGIC_RATE_LIMIT",
    "games_per_hour": "MENTALMAGIC_GAMES_PER_HOUR",
    "rate_limit_storage": "MENTALMAGIC_RATE_LIMIT_STORAGE",
    "proxies": "MENTALMAGIC_PROXIES",
    "access_log": "MENTALMAGIC_ACCESS_LOG",
    "connection_limit": "MENTALMAGIC_CONNECTION_LIMIT",
    "channel_timeout": "MENTALMAGIC_CHANNEL_TIMEOUT",
    "client_connections": "MENTALMAGIC_CLIENT_CONNECTIONS",
    "request_deadline": "MENTALMAGIC_REQUEST_DEADLINE",
    "max_header_bytes": "MENTALMAGIC_MAX_HEADER_BYTES",
    "health_interval": "MENTALMAGIC_HEALTH_INTERVAL",
    "archive_after": "MENTALMAGIC_ARCHIVE_AFTER",
    "game_cache": "MENTALMAGIC_GAME_CACHE",
    "pin_workers": "MENTALMAGIC_PIN_WORKERS",
    "shard": "MENTALMAGIC_SHARD",
}


def from_env(environ=None) -> Settings:
    """The settings the environment gives; a value that isn't a number >= 0 is a ValueError naming it
    (its message a code: ``str(e)`` words it in the process's language, the CLI's --lang)."""
    environ = os.environ if environ is None else environ
    values = {}
    for f in fields(Settings):
        raw = environ.get(ENV[f.name], "").strip()
        if not raw:
            continue
        if f.type == "str":
            values[f.name] = raw
            continue
        kind = float if f.type == "float" else int
        try:
            value = kind(raw)
        except ValueError:
            value = -1
        if value < 0:
            raise ValueError(say("settings.not_a_number", setting=ENV[f.name], value=repr(raw)))
        values[f.name] = value
    if not re.fullmatch(r"[A-Za-z0-9]{0,16}", values.get("shard", "")):  # it goes into every game's URL
        raise ValueError(say("settings.shard", setting=ENV["shard"], value=repr(values["shard"])))
    return Settings(**values)


def waitress_options(s: Settings) -> dict:
    """waitress.serve() keywords that keep one slow or half-open client from starving the others."""
    return {
        # waitress stops accepting at connection_limit (its default is 100); poll() has no
        # select()'s 1024-descriptor ceiling, so the limit can be higher than that.
        "connection_limit": s.connection_limit or 100_000,
        "asyncore_use_poll": True,
        # connections the kernel holds before a worker accepts them: at waitress's 1024, one client's
        # burst of thousands of connects filled it, and another's connect waited for a SYN resent after
        # 1 s (issue 23). Linux caps it at net.core.somaxconn (4096 by default).
        "backlog": 4096,
        "channel_timeout": s.channel_timeout or 24 * 3600,
        # how often silent connections, and requests past their deadline, are closed
        "cleanup_interval": max(1, min(10, s.channel_timeout or 10, s.request_deadline or 10)),
        "max_request_header_size": s.max_header_bytes or 2**31,
        # a body over the app's 256 KiB gets the app's JSON 413; waitress only stops what is far beyond it
        "max_request_body_size": 4 * 1024 * 1024,
        "ident": "mentalmagic",
    }


def gunicorn_options(s: Settings) -> dict:
    """The same limits under gunicorn's names (for a gunicorn.conf.py: ``globals().update(...)``)."""
    return {
        "worker_connections": s.connection_limit or 100_000,  # gthread: connections per worker
        "keepalive": min(s.channel_timeout, 5) if s.channel_timeout else 2,  # idle keep-alive, seconds
        "timeout": s.channel_timeout or 0,  # a worker silent this long is restarted
        "limit_request_line": 8190,  # gunicorn's maximum: a card name in the path may be long
        "limit_request_fields": 100,
        "limit_request_field_size": min(s.max_header_bytes, 8190) if s.max_header_bytes else 0,
        "accesslog": None,  # the app writes its own access log (tokens and secrets redacted)
    }


def for_table(s: Settings, environ=None, db_path=None) -> Settings:
    """``s`` as ``mentalmagic serve --table`` keeps it for a room of phones on the laptop's network.

    - Phones reach the laptop directly: no proxy is in front, so an ``X-Forwarded-For`` a phone
      sends is never read (``proxies`` 0), or one phone could pose as another client and dodge its
      limits. The per-client limits stay as they are: each phone has its own address on the
      network, and a seat's page asks about once a second, far under 600 a minute.
    - The access log goes to a file beside the database (``<db>.access.log``) unless
      MENTALMAGIC_ACCESS_LOG says where: on standard error, a line per phone per second would
      scroll the addresses and the QR code the terminal shows out of sight.
    """
    environ = os.environ if environ is None else environ
    changes: dict = {"proxies": 0}
    if db_path is not None and not environ.get(ENV["access_log"], "").strip() and s.access_log == "-":
        changes["access_log"] = f"{db_path}.access.log"
    return replace(s, **changes)
