"""A request's JSON body, read one way for every route: orjson for the common body, the standard
library for anything orjson can't vouch for, and a 400 envelope for what is not JSON in UTF-8."""

from __future__ import annotations

import json

import orjson
from flask import request
from werkzeug.exceptions import BadRequest

from ..messages import say


class BadBody(BadRequest):
    """400 ``bad_request`` (web/errors.py answers it in the envelope under /api/, worded from ``said``)."""

    description = "the body must be JSON in UTF-8 (Content-Type: application/json)"

    def __init__(self, said: str = "body.not_json"):
        self.said = say(said)
        super().__init__(str(self.said))


def json_body():
    """The body's JSON value, whatever its type (the route's schema says what it wants)."""
    if request.is_json:  # the common body, read by orjson; anything it can't vouch for goes below
        try:
            data = orjson.loads(request.get_data(cache=True))
        except orjson.JSONDecodeError:
            data = None
        if data is not None and _plain(data):
            return data
    try:
        data = request.get_json(silent=True)
        # text that isn't Unicode (a lone surrogate) can be neither stored nor answered
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except RecursionError:
        raise BadBody("body.json_deep") from None
    except UnicodeEncodeError:
        raise BadBody() from None
    if data is None:
        raise BadBody()
    return data


def json_object() -> dict:
    """The body, which must be a JSON object."""
    data = json_body()
    if not isinstance(data, dict):
        raise BadBody("body.json_object")
    return data


def _plain(data, depth: int = 0) -> bool:
    """Does ``data`` (from orjson) read exactly as the standard library reads it: no number read as a
    float (orjson turns integers past 64 bits into floats), nesting far from Python's recursion limit?
    Anything else (and a body orjson refuses: NaN, a lone surrogate, UTF-16) takes the slower path,
    which decides it as before."""
    if isinstance(data, dict):
        return depth < 64 and all(_plain(v, depth + 1) for v in data.values())
    if isinstance(data, list):
        return depth < 64 and all(_plain(v, depth + 1) for v in data)
    return not isinstance(data, float)
