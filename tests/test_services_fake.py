"""The services over a unit of work in memory (tests/fakes.py): the use cases' own logic, without SQLite."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fakes import FakeUnitOfWork

from mentalmagic import errors, services
from mentalmagic.commands import Draw, Move, Name
from mentalmagic.permissions import JUDGE, Caller


@pytest.fixture
def uow(mini_finder) -> FakeUnitOfWork:
    return FakeUnitOfWork(mini_finder)


def new_game(uow, library=("Shock", "Shock", "Grizzly Bears")) -> str:
    return services.create_game(uow, "vintage", {}, [{"name": "Ana"}, {"name": "Bob"}], list(library),
                                shuffle=False)["id"]


def test_a_refused_action_lands_nothing_and_an_undo_goes_back(uow):
    gid = new_game(uow)
    drawn = services.act(uow, gid, Caller("p1"), Draw(count=2))
    first, second = sorted(c["id"] for c in drawn["cards"])
    services.act(uow, gid, Caller("p1"), Move(card=first, to="stack", name="Lightning Bolt"))
    before = uow.games.load(gid)
    with pytest.raises(errors.NameTaken):  # 704.2
        services.act(uow, gid, Caller("p1"), Name(card=second, name="Lightning Bolt"))
    assert uow.games.load(gid) is before and len(uow.games.logs[gid]) == 2
    services.undo(uow, gid, JUDGE)
    assert not uow.games.load(gid).state.snapshot()["names"] and len(uow.games.logs[gid]) == 1


def _count_decisions(monkeypatch) -> list:
    calls = []
    real = services._decide
    monkeypatch.setattr(services, "_decide", lambda *a: calls.append(1) or real(*a))
    return calls


def test_an_action_decided_on_a_copy_of_the_same_version_is_not_decided_again(uow, monkeypatch):
    gid = new_game(uow)
    game = uow.games.load(gid)
    uow.games.seen[gid] = replace(game)  # an equal copy, not the same object: the version says it is current
    calls = _count_decisions(monkeypatch)
    services.act(uow, gid, Caller("p1"), Draw(count=1))
    assert len(calls) == 1


def test_an_action_decided_on_a_stale_copy_is_decided_again_on_the_game_as_it_is(uow, monkeypatch):
    gid = new_game(uow)
    stale = uow.games.load(gid)
    services.act(uow, gid, Caller("p2"), Draw(count=1))  # another writer: the version moves on
    uow.games.seen[gid] = stale
    calls = _count_decisions(monkeypatch)
    done = services.act(uow, gid, Caller("p1"), Draw(count=1))
    assert len(calls) == 2 and done["event"]["seq"] == 2  # decided after the other draw, not over it


def test_a_name_no_card_has_is_refused_with_the_close_names(uow):
    gid = new_game(uow)
    card = services.act(uow, gid, Caller("p1"), Draw(count=1))["cards"][0]["id"]
    with pytest.raises(errors.NotACandidate) as refused:  # 704.1: a misspelling
        services.act(uow, gid, Caller("p1"), Move(card=card, to="stack", name="Grizly Bears"))
    assert refused.value.suggestions[0] == "Grizzly Bears"
    with pytest.raises(errors.NotACandidate) as refused:  # a card, not a candidate: nothing to suggest
        services.act(uow, gid, Caller("p1"), Move(card=card, to="stack", name="Savannah Lions"))
    assert refused.value.suggestions is None
