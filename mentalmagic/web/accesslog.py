"""The access log: one line a request, for a judge or an operator to read.

``2026-11-23T12:00:00Z 127.0.0.1 "POST /api/v1/games/abc/actions" 200 412 3.1ms``
(client, method and path with its query, status, bytes, time to the last byte). Headers
are never written, so neither is ``Authorization``; a query value that looks like a token
or sits under a secret-sounding name is written as ``[redacted]``, and control characters
are escaped so that a crafted path can't forge a line.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from urllib.parse import parse_qsl, quote

from werkzeug.wsgi import ClosingIterator

LOGGER = "mentalmagic.access"
SECRET_NAME = re.compile(r"token|auth|key|secret|pass|session|sig", re.IGNORECASE)
TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{24,}")  # tokens are token_urlsafe(24): 32 such characters
LONGEST = 500  # characters of the path and query written


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
        raise ValueError(f"MENTALMAGIC_ACCESS_LOG={target!r} can't be opened ({e.strerror}): "
                         "name a file in a directory that exists, '-' or '0'") from None
    formatter = logging.Formatter("%(asctime)s %(message)s", "%Y-%m-%dT%H:%M:%SZ")
    formatter.converter = time.gmtime
    handler.setFormatter(formatter)
    log.addHandler(handler)
    return log


def _printable(text: str) -> str:
    if text.isprintable() and '"' not in text:  # the common case, without a pass per character
        return text
    return "".join(c if c.isprintable() and c != '"' else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"
                   for c in text)


def redact_query(query: str) -> str:
    """The query string with every secret-looking value replaced by ``[redacted]``."""
    if not query:
        return ""
    pairs = []
    for name, value in parse_qsl(query, keep_blank_values=True):
        if SECRET_NAME.search(name) or TOKEN_LIKE.search(value):
            value = "[redacted]"
        pairs.append(f"{quote(name, safe='')}={quote(value, safe='[]/{}:,')}")
    return "&".join(pairs)


def request_target(environ) -> str:
    path = environ.get("PATH_INFO", "")
    path = "/".join("[redacted]" if TOKEN_LIKE.fullmatch(seg) and len(seg) >= 32 else seg
                    for seg in path.split("/"))
    query = redact_query(environ.get("QUERY_STRING", ""))
    target = _printable(path + ("?" + query if query else ""))
    return target if len(target) <= LONGEST else target[:LONGEST] + "…"


class AccessLog:
    """WSGI middleware writing one line when the answer's last byte has gone (or the app failed)."""

    def __init__(self, app, log: logging.Logger):
        self.app, self.log = app, log

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        seen = {"status": "-", "length": "-"}

        def recording_start_response(status, headers, exc_info=None):
            seen["status"] = status.split(" ", 1)[0]
            seen["length"] = next((v for k, v in headers if k.lower() == "content-length"), "-")
            return start_response(status, headers, exc_info)

        def write():
            ms = (time.perf_counter() - started) * 1000
            self.log.info('%s "%s %s" %s %s %.1fms', environ.get("REMOTE_ADDR", "-"),
                          _printable(environ.get("REQUEST_METHOD", "-")[:16]), request_target(environ),
                          seen["status"], seen["length"], ms)

        try:
            body = self.app(environ, recording_start_response)
        except BaseException:
            seen["status"] = "500"
            write()
            raise
        return ClosingIterator(body, write)
