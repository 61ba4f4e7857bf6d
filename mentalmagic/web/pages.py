"""The card-lookup page at / (HTML shell; the page talks to the JSON API), the language
switch, and the mana font served from its copy in the package (web/vendor/mana-font).

The query in the URL (``/?printed=Boros%20Guildmage&format=vintage``) is echoed
into the form so a shared link shows its inputs at once; the page's script then
asks the API for the result.
"""

from __future__ import annotations

import posixpath
import unicodedata
from pathlib import Path

from flask import Blueprint, abort, current_app, redirect, render_template, request, send_from_directory
from flask_babel import format_number, get_locale, get_translations

from ..filterwords import KEYWORDS_SHOWN_FR, TYPES_SHOWN_FR
from ..formats import DEFAULT_FORMAT, FORMATS
from ..messages import gap, render
from ..runtime import source_said
from .i18n import COOKIE, COOKIE_MAX_AGE, LANGUAGES
from .rules_strings import rule_set_labels
from .script_strings import script_strings

bp = Blueprint("pages", __name__)

_QUERY_FIELDS = ("printed", "cost", "type", "keyword", "game")
# Third-party files shipped in the package (web/vendor/*/README.md); the app serves only these folders.
VENDOR_DIR = Path(__file__).resolve().parent / "vendor"
VENDOR = {"mana-font": ("css", "fonts")}


def vendor_dir() -> Path:
    return Path(current_app.config.get("VENDOR_DIR") or VENDOR_DIR)


def mana_font_installed() -> bool:
    """The font's files are there (a repackaged install might strip them: symbols then fall back to text)."""
    return (vendor_dir() / "mana-font" / "css" / "mana.min.css").is_file()


def _source_label(source: str) -> str:
    """The source in the page's language; a file by its file name (the full path goes in a tooltip)."""
    return render(source_said(source, short=True), get_translations())


def _lacks(lacks: tuple[str, ...]) -> list[tuple[str, str]]:
    """Each gap as (text, its language): the catalogue's words (messages.gap), else the stored English, marked."""
    out = []
    for item in lacks:
        said = gap(item)
        out.append((render(said, get_translations()), "en" if said.code == "source.gap.other" else str(get_locale())))
    return out


_TYPES_SHOWN = ("creature", "instant", "sorcery", "artifact", "enchantment", "planeswalker", "land", "battle",
                "legendary", "kindred")
_KEYWORDS_SHOWN = ("morph", "megamorph", "disguise", "cycling", "suspend", "splice", "flash", "flying",
                   "convoke", "delve")


def page_context() -> dict:
    """What every page's layout needs: the language, the switch, the font, the script strings."""
    lang = str(get_locale())
    return {
        "lang": lang,
        "languages": LANGUAGES,
        "mana_font": mana_font_installed(),
        "script_strings": script_strings(),
        "here": request.full_path.rstrip("?"),
    }


@bp.get("/")
def lookup():
    rt = current_app.extensions["mentalmagic"]
    info = rt.pool.info
    query = {k: request.args.get(k, "")[:300] for k in _QUERY_FIELDS}
    fmt = request.args.get("format", "").strip().lower()
    query["format"] = fmt if fmt in FORMATS else DEFAULT_FORMAT
    query["rules"] = request.args.get("rules", "").strip().lower()
    query["commander"] = " + ".join(request.args.getlist("commander"))[:300]  # partners: A + B
    query["q"] = request.args.get("q", "")[:500]  # a search over the candidates (docs/search.md)
    query["sort"] = request.args.get("sort", "name")
    return render_template(
        "lookup.html",
        formats=FORMATS,
        default_format=DEFAULT_FORMAT,
        rule_sets=rule_set_labels(),
        info=info,
        source_label=_source_label(info.source),
        lacks=_lacks(info.lacks),
        type_words=TYPES_SHOWN_FR if str(get_locale()) == "fr" else _TYPES_SHOWN,
        keyword_words=KEYWORDS_SHOWN_FR if str(get_locale()) == "fr" else _KEYWORDS_SHOWN,
        card_count=format_number(len(rt.pool)),
        query=query,
        **page_context(),
    )


@bp.get("/lang/<code>")
def set_language(code: str):
    """Remember the chosen language in a cookie and go back to the page it was chosen on."""
    if code not in LANGUAGES:
        abort(404)
    resp = redirect(site_path(request.args.get("next", "/")), code=303)
    resp.set_cookie(COOKIE, code, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=True)
    return resp


def site_path(target: str) -> str:
    """``target`` when it is a path of this site, else ``/``: never an open redirect, never a header
    that can't be sent. A path starts with one ``/``; a backslash (read as ``/`` by browsers) or a
    control, format or line-separator character anywhere (browsers drop a tab or a newline, making
    ``/<tab>/evil.example`` into ``//evil.example``; a header can't hold a newline) is refused."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    if any(unicodedata.category(c) in _NOT_IN_A_PATH for c in target):
        return "/"
    return target


_NOT_IN_A_PATH = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # controls, format, surrogates, unassigned, line breaks


@bp.get("/vendor/<package>/<path:filename>")
def vendor(package: str, filename: str):
    """A file of a vendored package (css and fonts of mana-font only); 404 when it isn't there."""
    folders = VENDOR.get(package)
    path = posixpath.normpath(filename)  # "css/../package.json" is not under css/
    if folders is None or path.split("/", 1)[0] not in folders:
        abort(404)
    return send_from_directory(vendor_dir() / package, path, max_age=24 * 3600)
