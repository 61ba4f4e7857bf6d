"""The card-lookup page at / (HTML shell; the page talks to the JSON API).

The query in the URL (``/?printed=Boros%20Guildmage&format=vintage``) is echoed
into the form so a shared link shows its inputs at once; the page's script then
asks the API for the result.
"""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from ..formats import DEFAULT_FORMAT, FORMATS

bp = Blueprint("pages", __name__)

_QUERY_FIELDS = ("printed", "cost", "type", "keyword", "game")


def _source_label(source: str) -> str:
    """A file source is named by its file name (the full path goes in a tooltip)."""
    return source.rsplit("/", 1)[-1] if source.startswith("/") else source


@bp.get("/")
def lookup():
    rt = current_app.extensions["mentalmagic"]
    info = rt.pool.info
    query = {k: request.args.get(k, "")[:300] for k in _QUERY_FIELDS}
    fmt = request.args.get("format", "").strip().lower()
    query["format"] = fmt if fmt in FORMATS else DEFAULT_FORMAT
    return render_template(
        "lookup.html",
        formats=FORMATS,
        default_format=DEFAULT_FORMAT,
        info=info,
        source_label=_source_label(info.source),
        card_count=len(rt.pool),
        query=query,
    )
