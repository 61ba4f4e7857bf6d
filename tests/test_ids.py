"""Public ids (games, decks) never start with '-', which a command line would read as an option."""

from __future__ import annotations

from mentalmagic import ids


def test_an_id_starting_with_a_dash_is_drawn_again(monkeypatch):
    drawn = iter(["-Abc123", "--x", "Zz-9_q"])
    monkeypatch.setattr(ids.secrets, "token_urlsafe", lambda n: next(drawn))
    assert ids.new_id() == "Zz-9_q"


def test_ids_are_url_safe_and_twelve_characters_by_default():
    got = {ids.new_id() for _ in range(2000)}
    assert len(got) == 2000
    assert all(len(i) == 12 and not i.startswith("-") and set(i) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") for i in got)
