"""The built pool and its default index, cached beside the database (issue 8): a restart and
a CLI look-up read the cache, and every change of what it was built from rebuilds it."""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys

import pytest
from test_importers import TINY, write

from mentalmagic.carddata import source_from_env
from mentalmagic.runtime import ensure_cards
from mentalmagic.storage import connect
from mentalmagic.storage.carddb import load_pool, pool_cache_path, read_finder, read_pool


def names(finder):
    return [c.name for c in finder.pool.cards]


def test_the_first_read_writes_the_cache_and_the_next_reads_the_same_pool(tmp_path):
    db_path = tmp_path / "cards.sqlite"
    ensure_cards(db_path, source_from_env(str(write(tmp_path / "a.json", TINY))))
    assert not pool_cache_path(db_path).exists()
    built = read_finder(db_path)
    assert pool_cache_path(db_path).is_file()
    cached = read_finder(db_path)
    assert cached is not built and names(cached) == names(built)
    assert ("vintage", False) in cached._indexes  # the default index comes with it
    assert [n.name for n in cached.candidates(printed=cached.pool.lookup("Black Lotus")).candidates] == \
        [n.name for n in built.candidates(printed=built.pool.lookup("Black Lotus")).candidates]
    assert cached.pool.lookup("lions des savanes").name == "Savannah Lions"
    assert cached.pool.bans.entries == built.pool.bans.entries


def test_a_new_source_invalidates_the_cache(tmp_path):
    db_path = tmp_path / "cards.sqlite"
    path = write(tmp_path / "a.json", TINY)
    ensure_cards(db_path, source_from_env(str(path)))
    assert len(read_finder(db_path).pool) == len(TINY["data"])
    write(path, {"meta": {}, "data": {"Ornithopter": TINY["data"]["Ornithopter"]}})
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # a new signature even on a coarse clock
    assert ensure_cards(db_path, source_from_env(str(path))) is True
    assert names(read_finder(db_path)) == ["Ornithopter"]
    assert [c.name for c in read_pool(db_path).cards] == ["Ornithopter"]


def test_an_edited_ban_list_invalidates_the_cache(tmp_path, monkeypatch):
    db_path = tmp_path / "cards.sqlite"
    ensure_cards(db_path, source_from_env(str(write(tmp_path / "a.json", TINY))))

    def zero_drops(finder):
        return [n.name for n in finder.candidates(cost=finder.pool.lookup("Black Lotus").front.cost).candidates]

    assert "Ornithopter" in zero_drops(read_finder(db_path))
    house = tmp_path / "house.csv"
    house.write_text("rule,french_name,english_name,status\n706.2,Ornithoptère,Ornithopter,banned\n",
                     encoding="utf-8")
    monkeypatch.setenv("MENTALMAGIC_BANLIST", str(house))
    finder = read_finder(db_path)
    assert finder.pool.bans.status(finder.pool.lookup("Ornithopter")) == "banned"
    assert "Ornithopter" not in zero_drops(finder)  # the cached index was rebuilt with the house list too


def test_a_damaged_cache_is_rebuilt(tmp_path):
    db_path = tmp_path / "cards.sqlite"
    ensure_cards(db_path, source_from_env(str(write(tmp_path / "a.json", TINY))))
    want = names(read_finder(db_path))
    cache = pool_cache_path(db_path)
    cache.write_bytes(cache.read_bytes()[: cache.stat().st_size // 2])  # a crash mid-write
    assert names(read_finder(db_path)) == want
    cache.write_bytes(b"not a pickle")
    assert names(read_finder(db_path)) == want
    assert cache.stat().st_size > 1000  # rewritten whole


def _labels(pool):
    """Each card's labels (every name of it, English and French), folded, with their word starts."""
    from mentalmagic.names import fold

    out = []
    for card in pool.cards:
        labels = {card.name, *(f.name for f in card.faces)}
        if card.french_name:
            labels |= {card.french_name, *(f.french_name for f in card.faces if f.french_name)}
        folded = []
        for label in labels:
            text = fold(label)
            starts = [0] + [i for i in range(1, len(text)) if text[i - 1] in " -,'/" and text[i] not in " -,'/"]
            folded.append((text, starts))
        out.append((folded, len(fold(card.name))))
    return out


def _reference_search(pool, labels, query, limit):
    """The plain definition of autocomplete's ranking: every card, every label, scored and sorted."""
    from mentalmagic.names import fold

    q, hits = fold(query), {}
    for pos, (folded, name_length) in enumerate(labels):
        for text, starts in folded:
            for i in starts:
                if text[i:].startswith(q):
                    score = (0 if i == 0 and text == q else 1, 0 if i == 0 else 1, name_length, pos)
                    hits[pos] = min(hits.get(pos, score), score)
    return [pool.cards[p] for p in sorted(hits, key=hits.__getitem__)[:limit]]


def test_autocomplete_ranks_as_the_plain_definition_on_the_snapshot(pool):
    rng = random.Random(8)
    queries = ["fire", "ice", "lions des", "st", "x", "aether", "Æther", "zz"]
    queries += [c.name[: rng.randint(2, 5)] for c in rng.sample(pool.cards, 12)]
    labels = _labels(pool)  # folded once: the definition scans every card of the pool for each query
    for q in queries * 2:  # twice: a common prefix answers the second time from what it kept
        want = _reference_search(pool, labels, q, 100)
        for limit in (1, 20, 100):
            assert pool.search(q, limit) == want[:limit], (q, limit)


def test_the_pool_cache_holds_no_ban_list_of_its_own_when_one_is_passed(tmp_path):
    db_path = tmp_path / "cards.sqlite"
    ensure_cards(db_path, source_from_env(str(write(tmp_path / "a.json", TINY))))
    from mentalmagic.formats import BanList

    assert read_pool(db_path, BanList([])).bans.entries == ()
    assert not pool_cache_path(db_path).exists()  # an explicit list bypasses the cache


def _deep(value):
    """Every field of a card, face or name, with its type: what an answer could show."""
    if dataclasses.is_dataclass(value):
        return type(value).__name__, [(f.name, _deep(getattr(value, f.name))) for f in dataclasses.fields(value)]
    if isinstance(value, dict):
        return "dict", [(k, _deep(v)) for k, v in value.items()]  # in order: an answer lists them so
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_deep(v) for v in value]
    if isinstance(value, frozenset):
        return "frozenset", sorted(value)
    return type(value).__name__, repr(value)


def test_a_first_start_builds_from_the_imported_cards_the_pool_the_tables_give(tmp_path):
    db_path = tmp_path / "cards.sqlite"
    imported = []
    assert ensure_cards(db_path, source_from_env(str(write(tmp_path / "a.json", TINY))), keep=imported) is True
    assert len(imported) == len(TINY["data"])
    db = connect(db_path)
    try:
        from_import, from_tables = load_pool(db, cards=imported), load_pool(db)
    finally:
        db.conn.close()
    assert [_deep(c) for c in from_import.cards] == [_deep(c) for c in from_tables.cards]
    assert [_deep(n) for n in from_import.nameables] == [_deep(n) for n in from_tables.nameables]
    assert from_import._search_texts == from_tables._search_texts


def test_equal_values_of_a_pool_are_one_object(tmp_path):
    db_path = tmp_path / "cards.sqlite"
    ensure_cards(db_path, source_from_env(str(write(tmp_path / "a.json", TINY))))
    cards = read_finder(db_path).pool.cards
    assert len({id(c.legalities) for c in cards}) < len(cards)  # ~35k cards, 33 distinct legalities
    assert len({id(f.types) for c in cards for f in c.faces}) < sum(len(c.faces) for c in cards)


def test_a_first_start_never_reads_the_cards_back_from_the_tables(tmp_path, monkeypatch):
    from mentalmagic.runtime import checked_runtime
    from mentalmagic.storage import carddb

    def read_back(db):
        raise AssertionError("the cards just imported were read back from the tables")

    path = write(tmp_path / "a.json", TINY)
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(path))
    monkeypatch.setattr(carddb, "_read_cards", read_back)
    rt = checked_runtime(tmp_path / "fresh.sqlite", source_from_env(str(path)))
    assert rt.pool.lookup("Lions des Savanes").name == "Savannah Lions"
    assert pool_cache_path(tmp_path / "fresh.sqlite").is_file()  # and the next start reads the cache


@pytest.mark.processes
def test_a_cli_look_up_loads_neither_flask_nor_marshmallow_nor_the_grammar(tmp_path):
    """Nor Babel (English needs no catalogue), nor the games' and the server's commands, nor what
    only a misspelt name (difflib) or an installed package's data folder (platformdirs) needs."""
    path = write(tmp_path / "a.json", TINY)
    db_path = tmp_path / "cli.sqlite"
    ensure_cards(db_path, source_from_env(str(path)))
    script = ("import sys; from mentalmagic.cli import main\n"
              "try:\n    main(['--db', sys.argv[1], 'candidates', 'Savannah Lions'])\n"
              "except SystemExit as e:\n    assert not e.code, e.code\n"
              "print(sorted(m for m in ('flask', 'marshmallow', 'mentalmagic.grammar', 'mentalmagic.web',\n"
              "                          'urllib.request', 'babel', 'mentalmagic.game', 'mentalmagic.cli.games',\n"
              "                          'mentalmagic.cli.serve', 'difflib', 'platformdirs') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script, str(db_path)], capture_output=True, text=True,
                          env={**os.environ, "MENTALMAGIC_CARDS": str(path)}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "may be named as {W}" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_server_starts_with_each_rule_sets_index_and_a_variant_question_builds_none(tmp_path, monkeypatch):
    """Issue 25: the variant indexes are built with the pool (a first start, before any request)
    and kept in its cache (a restart reads them): a variant question right after a start builds
    no index. A CLI look-up's runtime leaves them unread."""
    from mentalmagic import index, lookups
    from mentalmagic.rulesets import RULE_SETS, rule_set
    from mentalmagic.runtime import checked_runtime, open_runtime
    from mentalmagic.storage.carddb import variant_indexes

    path = write(tmp_path / "a.json", TINY)
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(path))
    db_path = tmp_path / "server.sqlite"
    builds = []
    real_init = index.CostIndex.__init__

    def counted(self, pool, fmt, *args, **kwargs):
        builds.append((fmt, kwargs.get("rules")))
        real_init(self, pool, fmt, *args, **kwargs)

    monkeypatch.setattr(index.CostIndex, "__init__", counted)
    assert {key for _, rules in variant_indexes() for key in [rules.key]} == set(RULE_SETS) - {"magic-ville"}
    for start in ("first start", "restart"):
        rt = checked_runtime(db_path, source_from_env(str(path)))
        assert len(builds) == (1 + len(variant_indexes()) if start == "first start" else 0), start
        builds.clear()
        for key in RULE_SETS:  # as /candidates?rules= asks, with the house option sent switched off
            q = lookups.candidate_query(rt.finder, printed="Savannah Lions", rules=key, phyrexian_as_hybrid=False)
            fresh = index.CandidateFinder(rt.pool).candidates(q)  # a finder of its own builds its index
            builds.clear()
            assert [n.name for n in rt.finder.candidates(q).names] == [n.name for n in fresh.names], key
            assert builds == [], (start, key)  # answered from the index the start brought
    cli = open_runtime(db_path, rebuild=False)  # a look-up: the default index alone
    assert set(cli.finder.built()) == {index.CandidateFinder.index_key("vintage", rule_set(None))}
    assert builds == []


def test_an_option_sent_switched_off_keeps_the_index_of_the_option_not_sent():
    from mentalmagic.rulesets import RULE_SETS, rule_set

    for key in RULE_SETS:
        assert rule_set(key, {"phyrexian_as_hybrid": False}).index_key == rule_set(key).index_key
    assert rule_set("magering", {"phyrexian_as_hybrid": True}).index_key != rule_set("magering").index_key


def test_a_first_start_may_write_its_cache_once_it_answers_and_the_next_start_reads_it(tmp_path, monkeypatch):
    """`mentalmagic serve` leaves a first start's pool cache for later (POOL_CACHE_LATER), and
    writes it aside once it answers (runtime.write_aside): a child process writes what the next
    start reads, every index included."""
    import time

    from mentalmagic import index
    from mentalmagic.runtime import checked_runtime, write_aside
    from mentalmagic.storage.carddb import variant_indexes

    path = write(tmp_path / "a.json", TINY)
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(path))
    db_path = tmp_path / "later.sqlite"
    rt = checked_runtime(db_path, source_from_env(str(path)), defer_cache=True)
    assert not pool_cache_path(db_path).exists() and len(rt.later) == 1
    write_aside(rt)
    assert rt.later == []
    deadline = time.monotonic() + 60  # waiting for the child's file, not timing it
    while not pool_cache_path(db_path).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pool_cache_path(db_path).is_file()
    monkeypatch.setattr(index.CostIndex, "__init__", lambda *a, **k: pytest.fail("an index was built"))
    again = checked_runtime(db_path, source_from_env(str(path)), defer_cache=True)
    assert again.later == []  # read from the cache: nothing left to write
    assert len(again.finder.built()) == 1 + len(variant_indexes())
    assert names(again.finder) == names(rt.finder)
