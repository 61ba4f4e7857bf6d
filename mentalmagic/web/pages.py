"""The card-lookup page at / (HTML shell; the page talks to the JSON API)."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

from ..formats import DEFAULT_FORMAT, FORMATS

bp = Blueprint("pages", __name__)


@bp.get("/")
def lookup():
    info = current_app.extensions["mentalmagic"].pool.info
    return render_template("lookup.html", formats=FORMATS, default_format=DEFAULT_FORMAT, info=info,
                           card_count=len(current_app.extensions["mentalmagic"].pool))
