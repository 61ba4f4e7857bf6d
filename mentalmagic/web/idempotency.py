"""``Idempotency-Key`` on the writes a bot may need to retry (issue 23): ``POST /games``,
``POST /decks``, ``POST /games/{id}/actions``.

A bot whose connection breaks after sending can't know whether its write counted. With the
header, the first answer is kept in the write's own transaction (storage/idempotency.py); a retry
with the same key, on the same route, by the same caller (its token however the scheme is
spelled, else its address), with the same body, within a day, gets that answer again
(``Idempotent-Replayed: true``) and writes nothing. The same key with another body is
``422 idempotency_key_reused``. The kept answer is sealed under the key (a SHAKE-256
keystream): it may hold tokens, and the database never holds a token in clear; without the
key the row can't be read.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Callable

from flask import current_app, jsonify, request

from ..errors import ArbiterError, Unauthorized
from ..messages import say
from ..storage import idempotency
from ..tokens import bearer, token_hash
from .encoding import dumps
from .errors import envelope

HEADER = "Idempotency-Key"
LONGEST = 255
# 1 to LONGEST printable ASCII characters (docs/api.md), in the OpenAPI document too: schemathesis draws
# keys from it, and a header may carry a tab or latin-1 that a bare string type would allow.
PATTERN = "^[ -~]+$"


def _seal(data: bytes, key: str, key_hash: str) -> bytes:
    """``data`` XOR a keystream only the key gives (the same call opens it again)."""
    stream = hashlib.shake_256(b"mentalmagic idempotency seal\0" + key.encode() + b"\0" + key_hash.encode()
                               ).digest(len(data))
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def _replay(status: int, body: bytes):
    resp = current_app.response_class(body, status=status, mimetype="application/json")
    resp.headers["Idempotent-Replayed"] = "true"
    return resp


class BadKey(ArbiterError):
    """An ``Idempotency-Key`` the contract refuses: 400, on a write and on its dry run alike."""

    code = "bad_idempotency_key"

    def __init__(self):
        super().__init__("idempotency.bad_key", header=HEADER, n=LONGEST)


def request_key() -> str | None:
    """This request's ``Idempotency-Key``, None without one; ``BadKey`` when the contract refuses it.
    A dry run asks too: it answers what the write would, the write's 400 included."""
    key = request.headers.get(HEADER)
    if key is not None and (len(key) > LONGEST or not re.fullmatch(PATTERN, key)):
        raise BadKey
    return key


def _caller() -> str:
    """Who retries: their token (hashed; ``Bearer``, ``bearer`` or ``BEARER``, the same token is the
    same caller), else their address."""
    try:
        return "token " + token_hash(bearer(request.headers.get("Authorization"), "token.missing"))
    except Unauthorized:
        return f"address {request.remote_addr}"


def _key_hash(key: str) -> str:
    return hashlib.sha256(f"{request.method} {request.path}\0{_caller()}\0{key}".encode()).hexdigest()


def kept_for_retry() -> bool:
    """Whether this request is a retry whose answer is kept: it will be replayed and create nothing
    (web/limits.py lets it through a cap its first try reached). A key the contract refuses: False."""
    try:
        key = request_key()
    except BadKey:
        return False
    if key is None:
        return False
    try:
        return idempotency.find(current_app.extensions["mentalmagic"].db_path, _key_hash(key)) is not None
    except sqlite3.Error:  # the database failing (issue 30): the cap answers, and no traceback
        return False


def answered(uow, status: int, write: Callable[[], dict]):
    """The answer of ``write()`` (which commits through ``uow``) with ``status``; with an
    Idempotency-Key, the kept answer of an earlier request instead, or ``write()``'s kept with it."""
    key = request_key()
    if key is None:
        resp = jsonify(write())
        resp.status_code = status
        return resp
    key_hash = _key_hash(key)
    request_hash = hashlib.sha256(request.get_data(cache=True)).hexdigest()
    db_path = current_app.extensions["mentalmagic"].db_path

    def kept():
        found = idempotency.find(db_path, key_hash)
        if found is None:
            return None
        request_was, status_was, sealed = found
        if request_was != request_hash:
            return envelope(422, "idempotency_key_reused", say("idempotency.reused", header=HEADER))
        return _replay(status_was, _seal(bytes(sealed), key, key_hash))

    first = kept()
    if first is not None:
        return first
    # encoded as the answer is (messages worded in this request's language), so the replay is the same bytes
    uow.remember = lambda answer: (key_hash, request_hash, status, _seal(dumps(answer), key, key_hash))
    try:
        body = write()
    except sqlite3.IntegrityError as e:  # a retry racing its first try: that one's answer (nothing written here)
        if "idempotency" not in str(e):
            raise
        return kept()
    resp = jsonify(body)
    resp.status_code = status
    return resp
