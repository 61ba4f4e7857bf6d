"""The search language over candidates (mentalmagic/search.py, docs/search.md), on the mini pool.

The property test checks every generated query's answer against a brute-force filter written
here, over the card data's own records (tests/minipool.py), and that a query never adds a name
the rules refuse (704.1, 704.2, 706).
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from minipool import records

from mentalmagic.errors import InvalidInput
from mentalmagic.index import CandidateQuery
from mentalmagic.search import QueryError, parse, stat_number


def names(finder, q: str, printed=None, cost=None, taken=frozenset(), sort="name", **kw) -> list[str]:
    query = CandidateQuery(printed=printed, cost=cost, taken=taken, search=parse(q) if q else None, sort=sort, **kw)
    return [n.name for n in finder.candidates(query).candidates]


def everything(finder):
    """Every nameable of the mini pool's vintage list: a query over it answers alike for any cost."""
    return finder.index("vintage").nameables


def keep(finder, q, taken=frozenset()):
    return [n.name for n in parse(q).keep(everything(finder), finder.context(taken))]


# -- examples ------------------------------------------------------------------------------------
@pytest.mark.parametrize("q, some, none", [
    ("t:creature o:flying pow>=2", ["Air Elemental", "Exalted Angel"], ["Ornithopter", "Shock"]),
    ("t:créature kw:vol pow>=2", ["Air Elemental", "Exalted Angel"], ["Ornithopter"]),  # French words
    ("t:goblin", ["Goblin Guide", "Krenko, Mob Boss"], ["Rise of the Hobgoblins"]),
    ("t:gobelin", ["Goblin Guide"], ["Llanowar Elves"]),
    ("t:éphémère", ["Shock", "Lightning Bolt"], ["Goblin Guide"]),
    ("goblin", ["Goblin Guide", "Rise of the Hobgoblins"], ["Krenko, Mob Boss"]),
    ('"lions des"', ["Savannah Lions"], ["Goblin Guide"]),  # its French name, Lions des savanes
    ('!"fire"', ["Fire"], ["Fires of Yavimaya"]),
    ("c>=rg", ["Fires of Yavimaya"], ["Shock"]),
    ("c:r -c:m", ["Shock"], ["Boros Guildmage"]),
    ("c=w", ["Savannah Lions"], ["Boros Guildmage"]),
    ("c:rouge", ["Shock"], ["Savannah Lions"]),
    ("id<=wu", ["Savannah Lions", "Counterspell"], ["Shock"]),
    ("id:c", ["Black Lotus"], ["Shock"]),
    ("mv>=5 t:creature", ["Craw Wurm"], ["Goblin Guide"]),
    ("pow>tou", ["Ball Lightning"], ["Llanowar Elves"]),
    ("pow=*", ["Aeon Chronicler"], ["Craw Wurm"]),
    ("(t:goblin or t:elf) -c:r", ["Llanowar Elves"], ["Goblin Guide"]),
    ("t:goblin OR t:elf", ["Llanowar Elves", "Goblin Guide"], ["Shock"]),
    ("is:split", ["Fire", "Ice"], ["Shock"]),
    ("is:permanent -t:creature", ["Abundance", "Black Lotus"], ["Shock", "Goblin Guide"]),
    ("is:spell t:land", [], ["Ghost Quarter"]),
    ("is:watched", ["Jace, the Mind Sculptor"], ["Shock"]),  # on the list's watch (706.4a)
    ("o:\"~ deals\"", ["Shock", "Lightning Bolt"], ["Counterspell"]),
])
def test_a_query_keeps_the_names_it_describes(mini_finder, q, some, none):
    got = keep(mini_finder, q)
    assert set(some) <= set(got), q
    assert not set(none) & set(got), q


def test_is_taken_and_is_free_read_the_games_taken_names(mini_finder):
    taken = frozenset({"goblin guide"})
    assert keep(mini_finder, "t:goblin is:taken", taken) == ["Goblin Guide"]
    free = keep(mini_finder, "t:goblin is:free", taken)
    assert "Goblin Guide" not in free and "Goblin Chieftain" in free
    assert keep(mini_finder, "t:gobelin is:libre", taken) == free  # in French
    assert parse("is:free").uses_taken and not parse("t:goblin").uses_taken


@pytest.mark.parametrize("q, code, params", [
    ("foo:bar", "query.unknown_key", {"key": "foo", "at": 1}),
    ("t:creature zz>=2", "query.unknown_key", {"key": "zz", "at": 12}),
    ("t:", "query.unfinished", {"at": 3}),
    ("(t:creature", "query.unfinished", {"at": 12}),
    ("t:creature)", "query.unexpected", {"token": ")", "at": 11}),
    ("pow>=x", "query.not_a_number", {"key": "pow", "value": "x", "at": 6}),
    ("is:nothing", "query.unknown_is", {"value": "nothing", "at": 4}),
    ("c:xyz", "query.bad_colors", {"value": "xyz", "at": 3}),
    ("t>=creature", "query.bad_operator", {"key": "t", "op": ">=", "at": 1}),
    ("x" * 501, "query.too_long", {"most": 500}),
])
def test_a_query_that_cant_be_read_says_which_part(q, code, params):
    with pytest.raises(QueryError) as e:
        parse(q)
    assert isinstance(e.value, InvalidInput)  # a 422 at the edges, never a 500
    assert e.value.said.code == code
    assert params.items() <= dict(e.value.said.params).items()
    assert e.value.fields["q"][0].code == code


@pytest.mark.parametrize("printed, number", [
    ("3", 3.0), ("*", 0.0), ("1+*", 1.0), ("7-*", 7.0), ("-1", -1.0), ("+2", 2.0), ("?", None), (None, None),
    ("½", 0.5)])
def test_a_printed_power_reads_as_a_number_with_a_star_as_zero(printed, number):
    assert stat_number(printed) == number


def test_sort_orders_by_mana_value_power_or_toughness_then_by_name(mini_finder):
    cost = mini_finder.pool.lookup("Goblin Guide").front.cost  # {R}: creatures and spells
    by_power = names(mini_finder, "", cost=cost, sort="power")
    found = {n.name: n for n in mini_finder.candidates(cost=cost).candidates}
    powers = [stat_number(found[n].face.power) for n in by_power]
    known = [p for p in powers if p is not None]
    assert known == sorted(known) and powers[len(known):] == [None] * (len(powers) - len(known))
    assert sorted(by_power) == names(mini_finder, "", cost=cost)  # the same names, in another order


def test_a_query_narrows_the_rules_answer_and_an_empty_answer_says_the_query_left_names_out(mini_finder):
    from mentalmagic import lookups

    shock = mini_finder.pool.lookup("Shock")
    plain = names(mini_finder, "", printed=shock)
    assert names(mini_finder, "t:instant", printed=shock) == [n for n in plain if n in {
        x.name for x in mini_finder.candidates(printed=shock).candidates if "Instant" in x.face.type_line}]
    q = CandidateQuery(printed=shock, search=parse("t:planeswalker"))
    assert not mini_finder.candidates(q).candidates
    why = lookups.why_none(mini_finder, q)
    queried = [x for x in why if x.reason.code == "name.queried"]
    assert queried and all(x.rule is None for x in queried)  # no rule: the search
    assert {x.name for x in queried} == set(plain)
    assert queried[0].reason.params["query"] == "t:planeswalker"


# -- the property: a brute-force filter over the records --------------------------------------------
def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in text if not unicodedata.combining(c)).casefold().replace("’", "'").split())


FR = {"creature": "creature", "ephemere": "instant", "gobelin": "goblin", "terrain": "land", "vol": "flying",
      "mue": "morph", "rouge": "R", "bleu": "U", "blanc": "W", "noir": "B", "vert": "G", "libre": "free",
      "pris": "taken"}
RECORDS = {(r["name"], f["name"]): (r, f) for r in records() for f in r["faces"]}
TYPES = ["creature", "créature", "instant", "éphémère", "goblin", "gobelin", "land", "artifact", "elf", "legendary",
         "wizard", "sorcery"]
TEXTS = ["flying", "damage", "draw", "destroy", "counter", "target creature", "~"]
KEYWORDS = ["flying", "vol", "haste", "morph", "mue", "flash", "suspend", "first strike"]
COLOURS = ["w", "u", "b", "r", "g", "rg", "wu", "c", "rouge", "bleu", "wubrg"]
IS = ["taken", "free", "watched", "split", "permanent", "spell", "libre", "pris"]
WORDS = ["goblin", "lion", "fire", "bolt", "feu", "éclair", "elemental", "angel"]
NUMBER_KEYS = {"mv": "mana_value", "pow": "power", "tou": "toughness", "loy": "loyalty"}
OPS = ["=", "!=", "<", "<=", ">", ">="]


def _stat(value):
    """The test's own reading of a printed number: a leading integer, else 0 for a star."""
    if value is None:
        return None
    if isinstance(value, float | int):
        return float(value)
    digits = value.lstrip("+-")
    head = ""
    for ch in digits:
        if not ch.isdigit():
            break
        head += ch
    if head:
        return float(head) * (-1 if value.startswith("-") else 1)
    return 0.0 if "*" in value else None


def _letters(word):
    word = FR.get(_fold(word), word)
    return frozenset("" if word == "c" else word.upper())


def _sets(op, have, want):
    return {"=": have == want, "!=": have != want, ">=": have >= want, ">": have > want, "<=": have <= want,
            "<": have < want}[op]


def _holds(term, n, taken, watched) -> bool:
    """The test's brute-force reading of a generated term over the card's record."""
    kind = term[0]
    card, face = RECORDS[(n.card.name, n.face.name)]
    if kind == "and":
        return all(_holds(t, n, taken, watched) for t in term[1])
    if kind == "or":
        return any(_holds(t, n, taken, watched) for t in term[1])
    if kind == "not":
        return not _holds(term[1], n, taken, watched)
    if kind == "t":
        word = _fold(term[1])
        return FR.get(word, word) in _fold(face["type_line"])
    if kind == "o":
        return _fold(term[1]).replace("~", _fold(face["name"])) in _fold(face["text"])
    if kind == "kw":
        word = _fold(term[1])
        return FR.get(word, word) in [_fold(k) for k in face["keywords"]]
    if kind == "name":
        word = _fold(term[1])
        return word in _fold(face["name"]) or word in _fold(face["french_name"] or "")
    if kind == "c":
        op, want = term[1], _letters(term[2])
        if face["colors"] is None:
            return False
        op = (">=" if want else "=") if op == ":" else op
        return _sets(op, frozenset(face["colors"]), want)
    if kind == "id":
        op, want = term[1], _letters(term[2])
        return n.identity is not None and _sets("<=" if op == ":" else op, n.identity, want)  # the rules' identity
    if kind == "num":
        have = _stat(face[NUMBER_KEYS[term[1]]])
        return have is not None and _sets(term[2], have, term[3]) if term[2] != "=" else have == term[3]
    word = FR.get(term[1], term[1])  # is:
    if word == "taken":
        return _fold(n.name) in taken
    if word == "free":
        return _fold(n.name) not in taken
    if word == "watched":
        return watched(card["name"])
    if word == "split":
        return card["layout"] in ("split", "aftermath")
    types = set(face["types"])
    if word == "permanent":
        return bool(types & {"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"})
    return "Land" not in types  # spell


def _text(term) -> str:
    kind = term[0]
    def quoted(w):
        return (f'"{w}"' if " " in w or w == "~" else w)
    if kind in ("and", "or"):
        return "(" + f" {'or' if kind == 'or' else ''} ".join(_text(t) for t in term[1]).replace("  ", " ") + ")"
    if kind == "not":
        return "-" + _text(term[1])
    if kind in ("t", "o", "kw"):
        return f"{kind}:{quoted(term[1])}"
    if kind == "name":
        return term[1]
    if kind in ("c", "id"):
        return f"{kind}{term[1]}{term[2]}"
    if kind == "num":
        return f"{term[1]}{term[2]}{term[3]:g}"
    return f"is:{term[1]}"


leaves = st.one_of(
    st.tuples(st.just("t"), st.sampled_from(TYPES)),
    st.tuples(st.just("o"), st.sampled_from(TEXTS)),
    st.tuples(st.just("kw"), st.sampled_from(KEYWORDS)),
    st.tuples(st.just("name"), st.sampled_from(WORDS)),
    st.tuples(st.sampled_from(["c", "id"]), st.sampled_from([":", *OPS]), st.sampled_from(COLOURS)),
    st.tuples(st.just("num"), st.sampled_from(list(NUMBER_KEYS)), st.sampled_from(OPS),
              st.integers(min_value=-1, max_value=6).map(float)),
    st.tuples(st.just("is"), st.sampled_from(IS)),
)
terms = st.recursive(leaves, lambda inner: st.one_of(
    st.tuples(st.just("not"), inner),
    st.tuples(st.sampled_from(["and", "or"]), st.lists(inner, min_size=2, max_size=3)),
), max_leaves=6)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(term=terms, printed=st.sampled_from(["Shock", "Goblin Guide", "Savannah Lions", "Fire // Ice", "Boros Guildmage",
                                            "Air Elemental", "Counterspell", "Hellrider", "Black Lotus"]),
       taken_at=st.sets(st.integers(min_value=0, max_value=40), max_size=4))
def test_every_query_answers_what_a_brute_force_filter_of_the_same_candidates_answers(mini_finder, term, printed,
                                                                                       taken_at):
    pool = mini_finder.pool
    card = pool.lookup(printed) if printed != "Hellrider" else None
    cost = pool.lookup("Goblin Guide").front.cost if card is None else None
    rules_only = mini_finder.candidates(printed=card, cost=cost).candidates
    taken = frozenset(n.key for i, n in enumerate(rules_only) if i in taken_at)
    text = _text(term)
    got = names(mini_finder, text, printed=card, cost=cost, taken=taken)

    def watched(name):
        return pool.mental_magic_status(pool.lookup(name)) == "watched"

    assert got == [n.name for n in rules_only if _holds(term, n, taken, watched)], text
    # never a name the rules refuse: each is a candidate of the plain question, and may be named
    # but for a game's taking of it (704.2)
    for name in got:
        verdict = mini_finder.check(name, printed=card, cost=cost, taken=taken)
        assert verdict.legal or {r.rule for r in verdict.reasons} == {"704.2"}, (text, name)


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(st.text(max_size=40), st.text(alphabet='tTocid:<>=!-()"« »*+0123456789wubrgmv orand~é\x00',
                                                      max_size=40)))
def test_any_text_is_read_or_refused_with_a_code_never_anything_else(mini_finder, text):
    try:
        search = parse(text)
    except QueryError as e:
        assert e.said.code.startswith("query.") and e.fields["q"]
        return
    names = everything(mini_finder)
    kept = search.keep(names, mini_finder.context())
    assert list(kept) == [n for n in names if search.test(n, mini_finder.context())]  # both ways agree


def test_the_searched_lists_kept_hold_a_bounded_number_of_names_and_answer_alike(finder, monkeypatch):
    """Searches typed by players are kept per list (CandidateFinder.refined) up to a number of names
    in all, then started over: memory and the collector's walks stay bounded, the answers the same."""
    import mentalmagic.index as index

    fresh = index.CandidateFinder(finder.pool)
    monkeypatch.setattr(index, "MAX_KEPT_NAMES", 40)
    shock = finder.pool.lookup("Shock")
    for q in ["t:creature", "-t:creature", "c:r", "mv>=1", "t:creature", "-c:r"]:
        assert names(fresh, q, printed=shock) == names(finder, q, printed=shock), q
        assert fresh._refined_names <= 40 or len(fresh._refined) == 1  # one list longer than the bound
