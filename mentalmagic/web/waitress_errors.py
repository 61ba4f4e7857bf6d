"""waitress's own refusals in the API's JSON envelope (issue 21).

waitress answers some requests before the app sees them: a body past ``max_request_body_size``
(413), headers past ``max_request_header_size`` (431), a request it can't read (400), a transfer
encoding it doesn't know (501). Its answer is plain text; docs/api.md promises the envelope for every
status on every route, so its error task is replaced by one that writes the envelope.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask

from ..catalogue import text
from ..messages import say

# waitress's status -> the envelope's code (the app's own table, web/errors.py, for the others) and words
CODES = {400: "bad_request", 413: "too_large", 431: "headers_too_large", 501: "not_implemented"}
WORDS = {400: "server.bad_request", 413: "server.too_large", 431: "server.headers_too_large",
         501: "server.not_implemented"}


def envelope_body(status: int, lang: str | None = None) -> bytes:
    """The envelope of a refusal with this status, worded in ``lang`` (the request's, if it said)."""
    said = say(WORDS.get(status, "server.bad_request"))
    code = CODES.get(status, "internal" if status >= 500 else "http_error")
    return json.dumps({"error": {"code": code, "message": text(said, lang), **said.as_json()}},
                      ensure_ascii=False).encode("utf-8")


def request_language(request) -> str | None:
    """``?lang=`` or the first tag of Accept-Language, as the app reads them (English otherwise)."""
    query = parse_qs(getattr(request, "query", "") or "")
    if query.get("lang"):
        return query["lang"][0]
    header = (getattr(request, "headers", None) or {}).get("ACCEPT_LANGUAGE", "")
    return header.split(",")[0].split(";")[0].strip() or None


class EnvelopeErrorTask(ErrorTask):
    """waitress's ErrorTask, writing the envelope instead of text; the connection closes after it,
    as waitress's own does (the rest of a refused body is never read)."""

    def execute(self) -> None:
        e = self.request.error
        body = envelope_body(e.code, request_language(self.request))
        self.status = f"{e.code} {e.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class EnvelopeChannel(HTTPChannel):
    error_task_class = EnvelopeErrorTask


def enveloped(server):
    """``server`` (what waitress's ``create_server`` returns) with every listener's connections
    answering waitress's errors in the envelope."""
    listeners = [server] if hasattr(server, "channel_class") else list(server.map.values())
    for listener in listeners:
        if hasattr(listener, "channel_class"):
            listener.channel_class = EnvelopeChannel
    return server
