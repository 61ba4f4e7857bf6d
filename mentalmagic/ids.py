"""Random public ids (games, decks): URL-safe, and never taken for a command-line option."""

from __future__ import annotations

import secrets


def new_id(nbytes: int = 9) -> str:
    """``nbytes`` random bytes, URL-safe base64; none starts with '-' (`mentalmagic game show -x…`
    would read it as an option)."""
    while (out := secrets.token_urlsafe(nbytes)).startswith("-"):
        pass
    return out
