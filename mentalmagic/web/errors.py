"""One JSON error envelope for everything under /api/, and the one table of statuses.

``{"error": {"code", "message", "rule"?, "message_code"?, "params"?, "fields"?, "field_codes"?}}`` — never HTML,
never a bare 500 page under /api/. ``message`` and ``fields`` are worded in the request's language
(``?lang=``, else Accept-Language, else English); ``code``, ``rule``, ``message_code``, ``params`` and
``field_codes`` (each field's messages as code and params) never change with it, so a bot can word
the message itself.
"""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, jsonify, request
from flask_babel import get_translations
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, ServiceUnavailable

from .. import errors
from ..mana import ManaCostError
from ..messages import Message, render, say
from ..runtime.inputs import coded
from ..storage import failures

# Domain error family -> HTTP status. The first match wins, so subclasses come first.
STATUS = [
    (errors.NotFound, 404),
    (errors.InvalidInput, 422),
    (errors.RuleRefusal, 409),
    (errors.Conflict, 409),
    (errors.Unauthorized, 401),
    (errors.Forbidden, 403),
    (errors.StorageFailed, 503),
    (errors.ArbiterError, 400),
]



# Longest text an error repeats back: enough to recognise what was sent, never a 100 KB echo.
ECHO_LIMIT = 300


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to about ``limit`` characters in its middle (where an echoed input sits, while
    the message's reason is at its end), saying how much was left out."""
    if len(text) <= limit:
        return text
    head, tail = limit * 2 // 3, limit // 3
    return f"{text[:head]}… ({len(text) - head - tail:,} characters left out) …{text[-tail:]}"


def _text(value):
    """What the client sent may hold a lone surrogate or be huge: never let it break or bloat the error."""
    if isinstance(value, str):
        return clip(value.encode("utf-8", "backslashreplace").decode("utf-8"))
    if isinstance(value, dict):
        return {_text(k): _text(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_text(v) for v in value]
    return value


def worded(said):
    """A message (or a field's messages) in the request's language; marshmallow's own texts too."""
    said = coded(said)
    if isinstance(said, dict):
        return {k: worded(v) for k, v in said.items()}
    if isinstance(said, list | tuple):
        return [worded(v) for v in said]
    return render(said, get_translations()) if isinstance(said, Message | str) else said


def _codes(fields):
    """``fields`` with each message as its code and params (None for a text with no code), or None
    when no message has one: what a bot words itself, beside the worded ``fields``."""
    if isinstance(fields, dict):
        out = {k: _codes(v) for k, v in fields.items()}
        return {k: v for k, v in out.items() if v is not None} or None
    if isinstance(fields, list | tuple):
        out = [_codes(v) for v in fields]
        return out if any(v is not None for v in out) else None
    return fields.as_json() if isinstance(fields, Message) else None


def envelope(status: int, code: str, message: str | Message, *, rule=None, fields=None, suggestions=None):
    said = message if isinstance(message, Message) else None
    fields = coded(fields)
    codes = _codes(fields)
    message, fields = _text(worded(message)), _text(worded(fields))
    body = {"code": code, "message": message}
    if rule:
        body["rule"] = rule
    if said is not None:
        body.update(_text(said.as_json()))
    if fields:
        body["fields"] = fields
        if codes:
            body["field_codes"] = _text(codes)
    if suggestions is not None:
        body["suggestions"] = list(suggestions)
    resp = jsonify({"error": body})
    resp.status_code = status
    return resp


def _said(e: HTTPException) -> Message | None:
    """Werkzeug's own 404 and 405 (no route, a method a route doesn't take), said from the catalogue."""
    if e.code == 404:
        return say("server.no_route", path=clip(request.path))
    if e.code == 405 and getattr(e, "valid_methods", None):
        allowed = ", ".join(sorted(m for m in e.valid_methods if m not in ("HEAD", "OPTIONS")))
        return say("server.method_not_allowed", path=clip(request.path), method=request.method, allowed=allowed)
    return None


# Routes that take more than an action's body (the app's MAX_CONTENT_LENGTH): a game's whole record
# (POST /games/import), under waitress's own 4 MiB (settings.py)
LARGER_BODIES = {"games.import_game": 3 * 1024 * 1024}


def _is_api() -> bool:
    return request.path.startswith("/api/")


def register(app: Flask) -> None:
    @app.before_request
    def body_size():
        """A body over the limit is a 413 on every route, read or not (Flask checks only bodies it reads)."""
        if not request.environ.get("CONTENT_LENGTH"):  # no length given (a GET): nothing to measure
            return
        limit = LARGER_BODIES.get(request.endpoint) or app.config.get("MAX_CONTENT_LENGTH")
        request.max_content_length = limit
        if limit and (request.content_length or 0) > limit:
            too_large = RequestEntityTooLarge()
            too_large.said = say("server.too_large")  # worded in the request's language (http_error)
            raise too_large

    @app.errorhandler(errors.ArbiterError)
    def domain_error(e: errors.ArbiterError):
        status = next(s for cls, s in STATUS if isinstance(e, cls))
        if status == 503:  # a failed sync, a database file gone or replaced: logged, once a minute at most
            trouble = current_app.extensions["mentalmagic.health"].trouble
            trouble.told(e.said, lambda line: app.logger.error("%s", line))
        # a name that named no card: its close names (docs/api.md, "did you mean")
        return envelope(status, e.code, e.said, rule=e.rule, fields=e.fields, suggestions=e.suggestions)

    @app.errorhandler(ManaCostError)
    def bad_cost(e: ManaCostError):
        return envelope(422, "bad_cost", e.said, fields={"cost": [e.said]})

    @app.errorhandler(ValidationError)
    def invalid(e: ValidationError):
        fields = coded(e.messages if isinstance(e.messages, dict) else {"_schema": e.messages})
        message: str | Message = say("invalid.fields")
        if len(fields) == 1:  # one bad field: say what is wrong with it at the top level too
            (name, msgs), = fields.items()
            first = msgs[0] if isinstance(msgs, list) and msgs and isinstance(msgs[0], str | Message) else None
            if first:
                message = first if name == "_schema" else say("invalid.field", field=name, why=first)
        return envelope(422, "invalid", message, fields=fields)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        if not _is_api():
            return e
        code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
                413: "too_large", 415: "unsupported_media_type", 429: "rate_limited"}.get(e.code, "http_error")
        resp = envelope(e.code or 500, code, getattr(e, "said", None) or _said(e) or e.description or e.name)
        if e.code == 405 and getattr(e, "valid_methods", None):  # RFC 9110 15.5.6: a 405 says what is allowed
            resp.headers["Allow"] = ", ".join(sorted(e.valid_methods))
        return resp

    @app.errorhandler(sqlite3.Error)
    @app.errorhandler(OSError)
    def storage_failed(e: Exception):
        """The disk refused (full, read-only, failing) or the file is broken (can't be opened,
        damaged): 503, the transaction rolled back, one log line a minute; anything else is a bug
        (``unexpected``)."""
        kind = failures.kind_of(e)
        if kind is None:
            return unexpected(e)
        trouble = current_app.extensions["mentalmagic.health"].trouble
        trouble.failed(kind, " ".join(str(e).split()), lambda line: app.logger.error("%s", line))
        said = say(failures.REFUSES[kind], why=failures.SAYS[kind])
        if not _is_api():
            return ServiceUnavailable(worded(said))
        return envelope(503, "storage_failed", said)

    @app.after_request
    def wrote(resp):
        """A write that went through: the disk takes writes again (until the next failure)."""
        if request.method != "GET" and resp.status_code < 400:
            trouble = current_app.extensions["mentalmagic.health"].trouble
            if trouble.current:
                trouble.recovered()
        return resp

    @app.errorhandler(Exception)
    def unexpected(e: Exception):  # a bug: still the envelope, and logged with its trace
        app.logger.exception("unexpected error on %s", request.path)
        if not _is_api():
            raise e
        return envelope(500, "internal", say("internal"))
