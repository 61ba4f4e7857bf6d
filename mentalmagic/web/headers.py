"""Headers every answer carries: security headers, the CORS choice, and OPTIONS in JSON.

CORS: the read-only card routes (health, cards, candidates, check, the OpenAPI document)
answer any origin, so a deck builder on another site may look cards up from the browser.
Game (and deck) routes send no CORS header: they are for bots and for this app's own
page, and a page elsewhere can't send them a token from its visitors' browsers.
"""

from __future__ import annotations

from flask import Flask, jsonify, request

# The page loads only its own files (the front end keeps no inline script or style), the
# favicon included (static/favicon.svg). No framing anywhere.
PAGE_CSP = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; "
            "form-action 'self'; frame-ancestors 'none'")
API_CSP = "default-src 'none'; frame-ancestors 'none'"  # JSON is data, never a document

# Rules (as Flask writes them) any origin may read.
PUBLIC_RULES = ("/api/v1/health", "/api/v1/cards", "/api/v1/cards/<path:name>", "/api/v1/candidates",
                "/api/v1/check", "/api/v1/openapi.json")
PUBLIC_METHODS = "GET, HEAD, OPTIONS"


def _is_public() -> bool:
    return request.url_rule is not None and request.url_rule.rule in PUBLIC_RULES


def register(app: Flask) -> None:
    @app.before_request
    def options_in_json():
        """OPTIONS under /api/ answers which methods the path takes, as JSON (a CORS preflight too)."""
        if request.method != "OPTIONS" or not request.path.startswith("/api/") or request.routing_exception:
            return None  # an unknown path goes on to its 404 envelope
        allowed = sorted(app.create_url_adapter(request).allowed_methods())
        resp = jsonify({"allow": allowed})
        resp.headers["Allow"] = ", ".join(allowed)
        if _is_public():
            resp.headers["Access-Control-Allow-Methods"] = PUBLIC_METHODS
            resp.headers["Access-Control-Max-Age"] = "86400"
        return resp

    @app.after_request
    def security_headers(resp):
        h = resp.headers
        # setdefault, without Headers.setdefault: it scans the headers and raises a KeyError per call
        present = set(h.keys(lower=True))
        api = request.path.startswith("/api/")
        for name, value in (_API_HEADERS if api else _PAGE_HEADERS):
            if name.lower() not in present:
                h.add(name, value)
        if api and _is_public():
            h["Access-Control-Allow-Origin"] = "*"
        return resp


_API_HEADERS = (("X-Content-Type-Options", "nosniff"), ("Content-Security-Policy", API_CSP))
_PAGE_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Content-Security-Policy", PAGE_CSP),
    ("X-Frame-Options", "DENY"),  # frame-ancestors for browsers without CSP 2
    ("Referrer-Policy", "same-origin"),  # a ?game= link never leaks to another site
)
