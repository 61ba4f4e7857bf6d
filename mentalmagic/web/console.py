"""The judge's console (issue 7): the start page at /console and the game page at /games/<id>.

Both are HTML shells: their scripts (static/js/console.js, game.js) talk to the JSON API
with the tokens the browser keeps (localStorage for the judge's games, the link's fragment
for a player's seat), so no token ever reaches a server log or a Referer.
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for

from ..formats import DEFAULT_FORMAT, FORMATS
from ..zones import MOVE_ZONES, VIAS
from .pages import page_context
from .rules_strings import rule_set_choices

bp = Blueprint("console", __name__)


@bp.get("/console")
def start():
    return render_template("console.html", formats=FORMATS, default_format=DEFAULT_FORMAT,
                           rule_sets=rule_set_choices(), **page_context())


@bp.get("/games")
def games():
    return redirect(url_for("console.start"), code=308)


@bp.get("/games/<game_id>")
def game(game_id: str):
    return render_template("game.html", game_id=game_id[:100], zones=MOVE_ZONES, vias=VIAS, **page_context())
