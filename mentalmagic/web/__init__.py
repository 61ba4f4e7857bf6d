"""The web edge: the JSON API for bots and the card-lookup page."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from ..runtime import default_db_path, open_runtime
from ..storage.gamedb import GameStore
from .encoding import OrjsonProvider


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app. ``test_config`` may pass DATABASE and a preloaded RUNTIME."""
    app = Flask(__name__, instance_path=str(default_db_path().parent))
    app.config.from_mapping(
        DATABASE=str(default_db_path()),
        MAX_CONTENT_LENGTH=256 * 1024,  # an action is small; a 300-card library fits easily
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.update(test_config)
    app.json = OrjsonProvider(app)  # UTF-8 as is, keys in API.md's order; several times faster (#8)

    rt = app.config.get("RUNTIME") or open_runtime(Path(app.config["DATABASE"]))
    app.extensions["mentalmagic"] = rt

    if rt.games is None:
        rt.games = GameStore(rt.db_path, rt.finder)

    from . import api, errors, games, openapi, pages

    errors.register(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(openapi.bp)
    app.register_blueprint(pages.bp)
    return app
