"""Bearer tokens, for a game's seats and a saved deck's edits: made here, kept only as hashes
(a copy of the database hands out no seat and no deck), read from an ``Authorization`` header."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from .errors import Unauthorized


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bearer(authorization: str | None, what: str) -> str:
    """The token of an ``Authorization: Bearer <token>`` header; 401 when there is none, saying
    ``what`` (a message code: which token to send)."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized(what)
    return token.strip()


def matches(token: str, stored_hash: str) -> bool:
    """Is ``token`` the one ``stored_hash`` was made from (in constant time)?"""
    return hmac.compare_digest(token_hash(token), stored_hash)
