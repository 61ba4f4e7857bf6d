"""The judge's console (issue 7): the start page at /console, the game page at /games/<id>, and
its table sheet at /games/<id>/sheet (every seat's QR code, to print: issue 31).

Both are HTML shells: their scripts (static/js/console.js, game.js) talk to the JSON API
with the tokens the browser keeps (localStorage for the judge's games, the link's fragment
for a player's seat), so no token ever reaches a server log or a Referer.
"""

from __future__ import annotations

import ipaddress
import urllib.parse

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from ..formats import DEFAULT_FORMAT, FORMATS
from ..zones import MOVE_ZONES, VIAS
from .pages import page_context
from .rules_strings import rule_set_choices

bp = Blueprint("console", __name__)


def loopback(host: str) -> bool:
    """Is ``host`` (a request's Host: ``127.0.0.1:5000``, ``[::1]:5000``, ``localhost``) this machine only?"""
    name = urllib.parse.urlsplit(f"//{host}").hostname or ""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def table_context() -> dict:
    """Where phones reach this server (``serve --table``: the origins of the laptop's network
    addresses, which each seat's link is built with when the page is opened on loopback), and
    whether phones can't join at all: no such address, and a page opened on loopback."""
    origins = current_app.config.get("TABLE_ORIGINS") or []
    return {"table_origins": origins, "phones_cannot_join": not origins and loopback(request.host)}


@bp.get("/console")
def start():
    return render_template("console.html", formats=FORMATS, default_format=DEFAULT_FORMAT,
                           rule_sets=rule_set_choices(), **table_context(), **page_context())


@bp.get("/games")
def games():
    return redirect(url_for("console.start"), code=308)


@bp.get("/games/<game_id>")
def game(game_id: str):
    return render_template("game.html", game_id=game_id[:100], zones=MOVE_ZONES, vias=VIAS, **table_context(),
                           **page_context())


@bp.get("/games/<game_id>/sheet")
def sheet(game_id: str):
    """The table sheet: every seat's QR code on one printable page (the judge's browser keeps the tokens)."""
    return render_template("sheet.html", game_id=game_id[:100], **table_context(), **page_context())
