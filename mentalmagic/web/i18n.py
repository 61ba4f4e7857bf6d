"""The pages' and the API's languages: French and English through Flask-Babel's gettext catalogue.

A page's language is, in order: the ``lang`` cookie the switch sets (a year), the
browser's Accept-Language, else French (the language of the rules' community).
The API's (its errors, reasons, deck problems: every core message, messages.py) is
``?lang=``, else Accept-Language, else English, the bots' default; the pages' scripts
send their page's language as Accept-Language. On a tie the browser's own order decides.

The catalogue is ``translations/fr/LC_MESSAGES/messages.po`` (committed); its
``.mo`` is compiled by ``make setup`` (``pybabel compile``) and git-ignored.
When the ``.mo`` is missing or older than the ``.po`` (a checkout without
``make setup``), ``compile_catalogues`` rebuilds it at start with babel's API,
so a page never shows a stale translation.
"""

from __future__ import annotations

from functools import lru_cache

from babel import Locale
from flask import Flask, request
from flask_babel import Babel, get_translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..catalogue import TRANSLATIONS, compile_catalogues
from ..messages import ENGLISH

LANGUAGES = {"fr": "Français", "en": "English"}
DEFAULT_LANGUAGE = "fr"
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600

__all__ = ["COOKIE", "COOKIE_MAX_AGE", "LANGUAGES", "compile_catalogues", "init_app", "language", "select_language",
           "translations"]


def _primary(value: str) -> str:
    return value.replace("_", "-").split("-")[0].lower()


def select_language() -> str:
    """Under /api/: ``?lang=``, else Accept-Language, else English. A page: the cookie's choice,
    else the best match of Accept-Language, else French."""
    api = request.path.startswith("/api/")
    query = request.query_string
    asked = _asked(query) if query else None
    if asked is not None:
        return asked
    if not api:  # the API reads no cookie: its callers say their language on each request
        chosen = request.cookies.get(COOKIE, "")
        if chosen in LANGUAGES:
            return chosen
    # the header read from the environ, as request.headers.get reads it, without the KeyError it
    # raises and catches when a bot sends none
    return _accepted(request.environ.get("HTTP_ACCEPT_LANGUAGE", "")) or (ENGLISH if api else DEFAULT_LANGUAGE)


def _kept_if_short(longest: int, entries: int):
    """``lru_cache`` for short texts only; a longer one is worked out each time, never kept. Every API
    request that words a message asks for its language: bots and browsers send the same query
    strings and Accept-Language headers again and again (docs/performance.md, "Languages")."""

    def wrap(fn):
        kept = lru_cache(maxsize=entries)(fn)
        return lambda text: kept(text) if len(text) <= longest else fn(text)

    return wrap


@_kept_if_short(1024, 4096)
def _asked(query: bytes) -> str | None:
    """``?lang=``'s language if it names one we speak (read from request.args, whose query
    string is ``query``; ``getlist``, as ``get`` of a missing key makes werkzeug's 400 exception)."""
    given = request.args.getlist("lang")
    asked = _primary(given[0]) if given else ""
    return asked if asked in LANGUAGES else None


@_kept_if_short(256, 1024)
def _accepted(header: str) -> str | None:
    """The first language of Accept-Language we speak, by quality, then the browser's order;
    "fr-CA" is French (werkzeug's best_match would prefer an exact "en;q=0.5" to it)."""
    for value, _quality in parse_accept_header(header, LanguageAccept):
        if _primary(value) in LANGUAGES:
            return _primary(value)
    return None


_LOCALES = {code: Locale.parse(code) for code in LANGUAGES}
_CHOSEN = "mentalmagic.language"  # where a request's language is kept, in its WSGI environ


def language() -> str:
    """The request's language (``select_language``), chosen once per request and kept in its
    environ: the API asks for it for every message it words and every answer it keeps per
    language, and Flask-Babel's ``get_locale`` walks ``g`` and its own context each time."""
    env = request.environ
    chosen = env.get(_CHOSEN)
    if chosen is None:
        chosen = env[_CHOSEN] = select_language()
    return chosen


def _locale() -> Locale:
    """Flask-Babel's selector: a Locale made once per language (Locale.parse of a code reads
    babel's data folder on every call)."""
    return _LOCALES[language()]


_TRANSLATIONS: dict[str, object] = {}


def translations():
    """The request's catalogue, as Flask-Babel's ``get_translations()`` gives it, kept per language:
    every app words from the package's one catalogue folder (``init_app``), and finding it anew
    walks Flask-Babel's context on every message an answer words."""
    code = language()
    kept = _TRANSLATIONS.get(code)
    if kept is None:
        kept = _TRANSLATIONS[code] = get_translations()
    return kept


def init_app(app: Flask) -> None:
    compile_catalogues()
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=_locale)
