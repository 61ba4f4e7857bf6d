"""The web edge: the JSON API for bots and the card-lookup page."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from flask import Flask
from werkzeug.exceptions import BadRequest
from werkzeug.middleware.proxy_fix import ProxyFix

from ..runtime import HealthCheck, checked_runtime, default_db_path
from ..settings import Settings, from_env
from ..storage.gamedb import GameStore
from .encoding import OrjsonProvider


def _read_int(digits: str) -> int:
    """A JSON integer; one too long for Python to read says so, instead of a generic parse error."""
    most = sys.get_int_max_str_digits() or 4300
    if len(digits.lstrip("-")) > most:
        raise BadRequest(f"a number in the body has {len(digits.lstrip('-')):,} digits; "
                         f"the arbiter reads numbers of at most {most:,} digits")
    return int(digits)


class JSONProvider(OrjsonProvider):
    """Answers through orjson (#8); request bodies through the standard library, which lets an
    over-long number say what it is (orjson reads one as "infinity")."""

    def loads(self, s, **kwargs):
        return json.loads(s, parse_int=_read_int)


class ArbiterFlask(Flask):
    """Flask, asking once per function whether it is a coroutine: Flask asks for every hook and
    view on every request (``inspect.iscoroutinefunction``, five a request here: docs/performance.md)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._synced: dict = {}

    def ensure_sync(self, func):
        sync = self._synced.get(func)
        if sync is None:
            sync = self._synced[func] = super().ensure_sync(func)
        return sync


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app. ``test_config`` may pass DATABASE, a preloaded RUNTIME and SETTINGS, and
    POOL_CACHE_LATER (``mentalmagic serve``: a first start's pool cache written once it answers,
    runtime.write_aside).

    Without a RUNTIME the self-check runs first and raises ``StartupError`` (one line) on
    a broken card file, database or card tables.
    """
    app = ArbiterFlask(__name__, instance_path=str(default_db_path().parent))
    app.json_provider_class = JSONProvider
    app.json = JSONProvider(app)
    app.config.from_mapping(
        DATABASE=str(default_db_path()),
        MAX_CONTENT_LENGTH=256 * 1024,  # an action is small; a 300-card library fits easily
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.update(test_config)
    settings: Settings = app.config.get("SETTINGS") or from_env()
    app.config["SETTINGS"] = settings

    from . import accesslog, api, console, decks, errors, games, headers, i18n, limits, openapi, pages, qr, series

    # a bad setting is refused before the (longer) self-check and pool load
    log = accesslog.open_log(settings.access_log)
    limits.check_storage(settings)
    rt = app.config.get("RUNTIME") or checked_runtime(Path(app.config["DATABASE"]),
                                                       defer_cache=bool(app.config.get("POOL_CACHE_LATER")))
    app.extensions["mentalmagic"] = rt
    app.extensions["mentalmagic.health"] = HealthCheck(rt, settings.health_interval,
                                                       checked=app.config.get("RUNTIME") is None)

    if rt.games is None:
        rt.games = GameStore(rt.db_path, rt.finder, cache_size=settings.game_cache, shard=settings.shard)

    errors.register(app)
    headers.register(app)
    i18n.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(series.bp)
    app.register_blueprint(decks.bp)
    app.register_blueprint(openapi.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(console.bp)
    app.register_blueprint(qr.bp)
    limits.install(app, settings)  # its hook last: an OPTIONS that headers.py answers isn't counted

    if log:
        app.wsgi_app = accesslog.AccessLog(app.wsgi_app, log)
    if settings.proxies:  # outermost: the access log and the limits see the forwarded client
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.proxies, x_proto=settings.proxies)
    return app
