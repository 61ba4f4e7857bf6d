"""The access log: one line a request, for a judge or an operator to read.

``2026-11-23T12:00:00Z 127.0.0.1 "POST /api/v1/games/abc/actions" 200 412 3.1ms``
(client, method and path with its query, status, bytes, time to the last byte). Headers
are never written, so neither is ``Authorization`` nor ``Referer``; in the path and the query,
decoded however many times they were percent-encoded, a run of characters as long as a token,
or a value under a secret-sounding name, is written as ``[redacted]`` (issue 23), and control
characters are escaped so that a crafted path can't forge a line.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from urllib.parse import parse_qsl, quote, unquote

from ..messages import say
from ..settings import ENV

LOGGER = "mentalmagic.access"
SECRET_NAME = re.compile(r"token|auth|key|secret|pass|session|sig", re.IGNORECASE)
TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{24,}")  # tokens are token_urlsafe(24): 32 such characters
TOKEN_RUN = re.compile(r"[A-Za-z0-9_-]{32,}")  # in a path: as long as a token (ids are 12)
LONGEST = 500  # characters of the path and query written
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"  # UTC


def open_log(target: str) -> logging.Logger | None:
    """The logger for MENTALMAGIC_ACCESS_LOG: ``0`` none, ``-`` standard error, else a file (appended to)."""
    if target == "0":
        return None
    log = logging.getLogger(LOGGER)
    log.setLevel(logging.INFO)
    log.propagate = False
    for old in list(log.handlers):
        log.removeHandler(old)
        old.close()
    try:
        handler = logging.StreamHandler(sys.stderr) if target == "-" else logging.FileHandler(target, encoding="utf-8")
    except OSError as e:
        raise ValueError(say("settings.access_log", setting=ENV["access_log"], value=repr(target),
                             why=e.strerror or str(e))) from None
    formatter = logging.Formatter("%(asctime)s %(message)s", TIME_FORMAT)
    formatter.converter = time.gmtime
    handler.setFormatter(formatter)
    log.addHandler(handler)
    return log


def _printable(text: str) -> str:
    if text.isprintable() and '"' not in text:  # the common case, without a pass per character
        return text
    return "".join(c if c.isprintable() and c != '"' else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"
                   for c in text)


def decoded(text: str) -> str:
    """``text`` percent-decoded until it stops changing (at most a few times): a token encoded
    twice (``%2523``, ``%41…``) is found like a plain one."""
    for _ in range(4):
        plain = unquote(text)
        if plain == text:
            break
        text = plain
    return text


def redact_query(query: str) -> str:
    """The query string with every secret-looking value replaced by ``[redacted]`` (a name that
    looks like a token too: ``?<token>``)."""
    if not query:
        return ""
    pairs = []
    for name, value in parse_qsl(query, keep_blank_values=True):
        name, value = decoded(name), decoded(value)
        if SECRET_NAME.search(name) or TOKEN_LIKE.search(value):
            value = "[redacted]"
        name = TOKEN_RUN.sub("[redacted]", name)
        pairs.append(f"{quote(name, safe='[]')}={quote(value, safe='[]/{}:,')}")
    return "&".join(pairs)


def redact_path(path: str) -> str:
    """The path with every run of token characters as long as a token replaced, wherever it sits
    in a segment (``G#token=…``, ``<token>.json``, ``Bearer <token>``) and however it was
    percent-encoded. Game and deck ids (12 characters) and card names stay."""
    return TOKEN_RUN.sub("[redacted]", decoded(path))


def request_target(environ) -> str:
    path = redact_path(environ.get("PATH_INFO", ""))
    query = redact_query(environ.get("QUERY_STRING", ""))
    target = _printable(path + ("?" + query if query else ""))
    return target if len(target) <= LONGEST else target[:LONGEST] + "…"


class AccessLog:
    """WSGI middleware writing one line when the answer's last byte has gone (or the app failed)."""

    def __init__(self, app, log: logging.Logger):
        self.app, self.log = app, log
        self._clock = (-1, "")  # (second, its timestamp): one tuple, so that threads never mix two

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        seen = ["-", "-"]  # status, length

        def recording_start_response(status, headers, exc_info=None):
            seen[0] = status.split(" ", 1)[0]
            seen[1] = next((v for k, v in headers if k.lower() == "content-length"), "-")
            return start_response(status, headers, exc_info)

        try:
            body = self.app(environ, recording_start_response)
        except BaseException:
            seen[0] = "500"
            self.write(environ, seen, started)
            raise
        return _Logged(body, self, environ, seen, started)

    def write(self, environ, seen: list[str], started: float) -> None:
        ms = (time.perf_counter() - started) * 1000
        client, method = environ.get("REMOTE_ADDR", "-"), _printable(environ.get("REQUEST_METHOD", "-")[:16])
        message = f'{client} "{method} {request_target(environ)}" {seen[0]} {seen[1]} {ms:.1f}ms'
        # The line open_log's formatter would write, straight to its handlers: a LogRecord, the
        # formatter and Logger.info cost a request more than the rest of its logging (issue 8).
        handlers = self.log.handlers
        if not all(type(h) in _PLAIN for h in handlers) or self.log.filters or not self.log.isEnabledFor(logging.INFO):
            self.log.info("%s", message)  # configured otherwise (or turned down): logging's own way
            return
        now = time.time()
        second, stamp = self._clock
        if int(now) != second:  # the timestamp changes once a second
            stamp = time.strftime(TIME_FORMAT, time.gmtime(now))
            self._clock = (int(now), stamp)
        line = f"{stamp} {message}\n"
        for h in handlers:
            with h.lock:
                try:
                    h.stream.write(line)
                    h.stream.flush()
                except Exception:  # a full disk, a closed file, no stderr (pythonw): logging reports it its way
                    h.handleError(logging.makeLogRecord({"msg": message}))


_PLAIN = (logging.StreamHandler, logging.FileHandler)  # the handlers open_log makes, with its format


class _Logged:
    """The answer's iterable, writing the line once the server closes it."""

    __slots__ = ("body", "log", "environ", "seen", "started")

    def __init__(self, body, log: AccessLog, environ, seen: list[str], started: float):
        self.body, self.log, self.environ, self.seen, self.started = body, log, environ, seen, started

    def __iter__(self):
        return iter(self.body)

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.log.write(self.environ, self.seen, self.started)
