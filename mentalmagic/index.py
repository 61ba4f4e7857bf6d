"""The mana-cost index: which names a printed card or cost may take (704.1, D1–D5).

Every nameable entry is filed under each concrete cost it can be read as (D1).
A query reads the printed cost the same way and unions a few dictionary
look-ups, so it never scans the pool. One index is built per (format, house
option) on first use and kept for the life of the process. A commander's colour
identity (903.5c) filters the remembered list of a cost, and is remembered too.
"""

from __future__ import annotations

from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from threading import Lock

from .cards import SPLIT_LAYOUTS, Card, Nameable
from .commander import whose
from .formats import check_format
from .identity import Identity, identity_text
from .mana import ManaCost, cost_phrase, cost_words
from .messages import Message, both, either, say
from .names import fold
from .pool import CardPool
from .rulesets import DEFAULT_RULES, RuleSet, cost_keys, readings, rule_set, ruleset_refusal
from .search import Context, Search, sorted_names


def rules_of(rules: RuleSet | None, phyrexian_as_hybrid: bool = False) -> RuleSet:
    """The rule set asked for; without one, the default under the house option (as ever)."""
    if rules is not None:
        return rules
    option = bool(phyrexian_as_hybrid)
    default = _DEFAULTS.get(option)
    if default is None:  # asked on every question: the two defaults are made once
        default = _DEFAULTS[option] = rule_set(None, {"phyrexian_as_hybrid": option})
    return default


_DEFAULTS: dict[bool, RuleSet] = {}


def refusal_under(pool: CardPool, rules: RuleSet, card: Card, fmt: str):
    """Why ``card`` can't be chosen in ``fmt`` under ``rules`` (706, D5, or the variant's bans), or None."""
    if rules.key == DEFAULT_RULES:
        return pool.refusal(card, fmt)
    return ruleset_refusal(rules, card, fmt, pool.bans, pool.info.legalities_known)


class CostIndex:
    """Nameable entries of one format filed under every concrete cost they can be read as
    (under a rule set: its cost keys, rulesets.cost_keys)."""

    def __init__(self, pool: CardPool, fmt: str, phyrexian_as_hybrid: bool = False, rules: RuleSet | None = None):
        self.format = fmt
        self.rules = rules_of(rules, phyrexian_as_hybrid)
        self.phyrexian_as_hybrid = bool(self.rules.options.get("phyrexian_as_hybrid"))
        self.nameables = pool.nameables  # sorted by name: a position is a rank
        by_cost: dict[ManaCost, list[int]] = defaultdict(list)
        keys_of: dict[ManaCost, frozenset] = {}  # ~900 distinct costs among ~34k names: each read once
        allowed: dict[int, bool] = {}  # by card: a split card's halves share its refusal
        for pos, n in enumerate(self.nameables):
            ok = allowed.get(id(n.card))
            if ok is None:
                ok = allowed[id(n.card)] = refusal_under(pool, self.rules, n.card, fmt) is None
            if ok:
                keys = keys_of.get(n.cost)
                if keys is None:
                    keys = keys_of[n.cost] = cost_keys(n.cost, self.rules.matching)
                for concrete in keys:
                    by_cost[concrete].append(pos)
        self.by_cost = {k: array("i", v) for k, v in by_cost.items()}  # ~34k positions, not ~34k int objects
        # names more than one entry answers to ("Start"): the identity filter reads all of them
        self.shared_keys = frozenset(k for k, count in Counter(n.key for n in self.nameables).items() if count > 1)
        self.size = sum(len(v) for v in self.by_cost.values())
        self._answers: dict[tuple, tuple[Nameable, ...]] = {}

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_answers": {}}  # the filings are the index; answers refill on use

    def matching(self, costs: Iterable[ManaCost]) -> list[Nameable]:
        """Every entry some reading of which equals some reading of ``costs`` (D1), by name."""
        found: set[int] = set()
        for cost in costs:
            for concrete in cost_keys(cost, self.rules.matching):
                found.update(self.by_cost.get(concrete, ()))
        return [self.nameables[pos] for pos in sorted(found)]

    def names_for(self, costs: tuple[ManaCost, ...], identity: Identity | None = None) -> tuple[Nameable, ...]:
        """``matching(costs)`` with one entry per name, remembered: a pool has ~900 printed costs.

        With ``identity``, only the names whose colour identity is within it (903.5c): a name
        whose identity the data lacks is left out. Remembered under (costs, identity): 32
        identities at most. It filters the cost's remembered list; only when that list holds a
        name two cards share does it filter every entry first, so that the name stays when
        either card is within the identity.
        """
        key = (costs, identity)
        answer = self._answers.get(key)
        if answer is None:
            found = self.names_for(costs) if identity is not None else self.matching(costs)
            if identity is not None:
                if any(n.key in self.shared_keys for n in found):
                    found = self.matching(costs)
                found = [n for n in found if n.identity is not None and n.identity <= identity]
            seen: set[str] = set()
            answer = tuple(n for n in found if not (n.key in seen or seen.add(n.key)))
            if len(self._answers) < 20_000:  # costs typed by users must not grow it forever
                self._answers[key] = answer
        return answer


@dataclass
class Reason:
    rule: str
    message: Message


def rule_order(rule: str) -> tuple:
    """Sort key of a rule number: 704.1 < 704.2 < 706.1 < 706.4a; anything else after them."""
    head, _, tail = rule.partition(".")
    digits = tail.rstrip("abcdefghijklmnopqrstuvwxyz")
    if head.isdigit() and digits.isdigit():
        return (0, int(head), int(digits), tail[len(digits):])
    return (1, 0, 0, rule)


def in_rule_order(reasons: list[Reason]) -> list[Reason]:
    """Reasons sorted by rule; under one rule, in the order found (the data-independent one first)."""
    if len(reasons) < 2:  # most verdicts: one reason
        return list(reasons)
    return sorted(reasons, key=lambda r: rule_order(r.rule))


# What a Xom relation (rulesets.relations) says of a match it allows; the plain same cost says nothing more.
_MATCH_WORDS = {"zero": "match.zero", "multicolour": "match.multicolour", "hybrid": "match.hybrid",
                "phyrexian": "match.phyrexian"}


@dataclass(frozen=True)
class CandidateQuery:
    """One question to the index, "what may this be named?" or "may it be named X?": the printed
    card or a cost, the format and house option, filters, the commander identity to answer within
    (903.5c), and the names a game has taken (704.2). The CLI, the API and the games ask with one."""

    printed: Card | None = None
    cost: ManaCost | None = None
    fmt: str = "vintage"
    phyrexian_as_hybrid: bool = False
    type_: str | None = None
    keyword: str | None = None
    identity: Identity | None = None
    commanders: tuple[Card, ...] = ()  # whose identity it is (for the reasons and the answer)
    taken: frozenset[str] = frozenset()  # folded names
    # the folded names the game's series' other games took, each with the game that took it (Xom 6)
    carried: Mapping[str, str] = field(default_factory=dict)
    rules: RuleSet | None = None  # a rule set (rulesets.py); None: the default under the house option
    search: Search | None = None  # a query over the candidates (search.py): it narrows, never adds
    sort: str = "name"  # search.SORTS

    @property
    def whose(self) -> Message:
        return whose(self.commanders) if self.commanders else say("commander.the")

    @property
    def all_taken(self) -> frozenset[str]:
        """The folded names no card may take now: the game's (704.2) and its series' (Xom 6)."""
        return self.taken.union(self.carried) if self.carried else self.taken


@dataclass
class CandidateList:
    """The answer to "what may this be named?": ``names`` are every name the costs match (the same
    tuple for the same question, so an edge may key its work on it), ``excluded`` the printed card's
    own faces (704.1, D4), ``taken`` the game's taken names (704.2): still candidates, marked."""

    printed: Card | None
    costs: list[ManaCost]
    format: str
    names: tuple[Nameable, ...]
    excluded: frozenset[str] = frozenset()
    taken: frozenset[str] = frozenset()
    unknown_faces: tuple[str, ...] = ()
    # of ``taken``, those another game of the series took (Xom 6), each with that game; a name this
    # game took too is this game's (704.2)
    taken_in: Mapping[str, str] = field(default_factory=dict)
    # ``names`` holds none of ``excluded``: a searched or re-sorted list, the faces left out before
    # it was asked (an edge need not look for them in a list made anew at each keystroke)
    faces_out: bool = False

    @property
    def candidates(self) -> list[Nameable]:
        """The candidates in name order: ``names`` without the printed card's own faces."""
        if not self.excluded or self.faces_out:
            return list(self.names)
        return [n for n in self.names if n.key not in self.excluded]


@dataclass
class Verdict:
    """The answer to "may this be named X?": legal, and every reason why (not)."""

    legal: bool
    reasons: list[Reason] = field(default_factory=list)
    nameable: Nameable | None = None

    @property
    def first(self) -> Reason | None:
        """The reason a refusal answers with (its code and rule): the first in rule order."""
        return self.reasons[0] if self.reasons else None


# The names the answers kept for searches may hold at most, all lists together (refined; the
# encoded lists answered once, web/encoding.py, alike): a few hundred long lists.
MAX_KEPT_NAMES = 1 << 18


class CandidateFinder:
    """Candidates and checks over one card pool, with an index per format built on demand."""

    def __init__(self, pool: CardPool):
        self.pool = pool
        self._indexes: dict[tuple, CostIndex] = {}  # (format, the default's house option or a rule set)
        self._filtered: dict[tuple, tuple[Nameable, ...]] = {}
        self._concrete: dict[tuple, tuple[ManaCost, ...]] = {}
        self._refined: dict[tuple, tuple] = {}
        self._refined_names = 0
        self._faceless: dict[tuple, tuple] = {}
        self._lock = Lock()

    def __getstate__(self) -> dict:  # a finder is cached with the indexes it built (storage/carddb.py)
        return {"pool": self.pool, "_indexes": self._indexes}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._filtered, self._concrete, self._refined, self._faceless = {}, {}, {}, {}
        self._refined_names = 0
        self._lock = Lock()

    @staticmethod
    def index_key(fmt: str, rules: RuleSet) -> tuple:
        """What the index of ``fmt`` under ``rules`` is kept under."""
        return check_format(fmt), rules.index_key

    def built(self) -> dict[tuple, CostIndex]:
        """The indexes built (or adopted) so far, by ``index_key``."""
        return dict(self._indexes)

    def adopt(self, indexes: dict[tuple, CostIndex]) -> None:
        """Indexes built elsewhere over this same pool (the pool cache's): kept as if built here."""
        for key, idx in indexes.items():
            if idx.nameables is not self.pool.nameables:
                raise ValueError("an index of another pool")
            self._indexes.setdefault(key, idx)

    def index(self, fmt: str, phyrexian_as_hybrid: bool = False, rules: RuleSet | None = None) -> CostIndex:
        rules = rules_of(rules, phyrexian_as_hybrid)
        key = self.index_key(fmt, rules)
        idx = self._indexes.get(key)
        if idx is None:
            with self._lock:  # two threads asking at once build it once
                idx = self._indexes.get(key)
                if idx is None:
                    idx = self._indexes[key] = CostIndex(self.pool, key[0], rules=rules)
        return idx

    def names_for(
        self,
        costs: Iterable[ManaCost],
        fmt: str = "vintage",
        phyrexian_as_hybrid: bool = False,
        type_: str | None = None,
        keyword: str | None = None,
        identity: Identity | None = None,
        rules: RuleSet | None = None,
    ) -> tuple[Nameable, ...]:
        """One entry per name some reading of ``costs`` matches in ``fmt``, filtered (and within
        ``identity``, 903.5c), by name; the printed card's own faces are still in it. The same
        tuple object for the same question (while remembered), so an edge may key its own work on it."""
        costs = tuple(costs)
        rules = rules_of(rules, phyrexian_as_hybrid)
        found = self.index(fmt, rules=rules).names_for(costs, identity)
        if not (type_ or keyword):
            return found
        key = (costs, fmt, rules.index_key, type_, keyword, identity)
        filtered = self._filtered.get(key)
        if filtered is None:
            filtered = tuple(n for n in found if n.face.fits(type_, keyword))
            if len(self._filtered) < 4096:  # filters typed by users must not grow it forever
                self._filtered[key] = filtered
        return filtered

    def context(self, taken: frozenset[str] = frozenset()) -> Context:
        """What a search reads beyond the card: the taken names (704.2) and the ban list's watch (706.4a)."""
        return Context(taken, self._watched)

    def _watched(self, card: Card) -> bool:
        return self.pool.mental_magic_status(card) == "watched"

    def refined(self, names: tuple[Nameable, ...], search: Search | None, sort: str = "name",
                taken: frozenset[str] = frozenset()) -> tuple[Nameable, ...]:
        """``names`` (the rules' answer) narrowed by ``search`` and ordered by ``sort``: never a name
        the rules did not give. The same tuple for the same question while remembered (a search
        that reads the taken names is asked again for each game's names)."""
        if search is None and sort == "name":
            return names
        key = (id(names), search.text if search is not None else None, sort,
               taken if search is not None and search.uses_taken else None)
        kept = self._refined.get(key)
        if kept is not None and kept[0] is names:
            return kept[1]
        out = search.keep(names, self.context(taken)) if search is not None else names
        out = sorted_names(out, sort)
        # searches typed by users must not grow it forever, nor hold more names than a few long
        # lists: each name held is a reference the garbage collector's full passes walk
        if len(self._refined) >= 4096 or self._refined_names + len(out) > MAX_KEPT_NAMES:
            self._refined.clear()
            self._refined_names = 0
        self._refined[key] = (names, out)  # the list held, so that its id stays its own
        self._refined_names += len(out)
        return out

    def _without(self, names: tuple[Nameable, ...], excluded: frozenset[str]) -> tuple[Nameable, ...]:
        """``names`` without the ``excluded`` faces, the same tuple while remembered (a search's
        answers are kept per list: see ``refined``)."""
        if not excluded:
            return names
        key = (id(names), excluded)
        kept = self._faceless.get(key)
        if kept is not None and kept[0] is names:
            return kept[1]
        out = tuple(n for n in names if n.key not in excluded)
        if len(self._faceless) >= 4096:
            self._faceless.clear()
        self._faceless[key] = (names, out)  # the list held, so that its id stays its own
        return out

    @staticmethod
    def printed_costs(printed: Card | None, cost: ManaCost | None) -> tuple[ManaCost, ...]:
        if printed is not None:
            return printed.printed_costs
        return (cost,) if cost is not None else ()

    def concrete_costs(self, costs: Iterable[ManaCost], phyrexian_as_hybrid: bool = False,
                       rules: RuleSet | None = None) -> list[ManaCost]:
        """The concrete costs a printed card may be named as (704.1, D1), cheapest first."""
        costs = tuple(costs)
        matching = rules_of(rules, phyrexian_as_hybrid).matching
        key = (costs, matching)
        out = self._concrete.get(key)
        if out is None:  # remembered, like the names: a pool has ~900 printed costs
            found = {c for cost in costs for c in readings(cost, matching)}
            out = tuple(sorted(found, key=lambda c: (c.mana_value, str(c))))
            if len(self._concrete) < 4096:  # costs typed by users must not grow it forever
                self._concrete[key] = out
        return list(out)

    def candidates(self, query: CandidateQuery | None = None, /, **asked) -> CandidateList:
        """Every name the printed card (or cost) may take in the query's format, sorted by name;
        with an identity (a commander's, ``commander.identity_of``), only names within it (903.5c).
        Asked with a ``CandidateQuery``, or with its fields as keywords."""
        q = query if query is not None else CandidateQuery(**asked)
        fmt = check_format(q.fmt)
        costs = self.printed_costs(q.printed, q.cost)
        printed = q.printed
        rules = rules_of(q.rules, q.phyrexian_as_hybrid)
        # never the printed card itself, nor any face of it (704.1, D4)
        excluded = printed.face_names if printed is not None else frozenset()
        names = self.names_for(costs, fmt, type_=q.type_, keyword=q.keyword, identity=q.identity, rules=rules)
        faces_out = q.search is not None or q.sort != "name"
        if faces_out:
            names = self._without(names, excluded)
        return CandidateList(
            printed=printed,
            costs=self.concrete_costs(costs, rules=rules),
            format=fmt,
            names=self.refined(names, q.search, q.sort, q.all_taken),
            excluded=excluded,
            faces_out=faces_out,
            taken=q.all_taken,
            unknown_faces=printed.unknown_faces if printed is not None else (),
            taken_in={k: g for k, g in q.carried.items() if k not in q.taken} if q.carried else {},
        )

    def check(
        self,
        name: str,
        query: CandidateQuery | None = None,
        /,
        *,
        printed: Card | None = None,
        cost: ManaCost | None = None,
        fmt: str = "vintage",
        phyrexian_as_hybrid: bool = False,
        taken: Iterable[str] = (),
        identity: Identity | None = None,
        whose: Message | None = None,
        rules: RuleSet | None = None,
        carried: Mapping[str, str] | None = None,
    ) -> Verdict:
        """May the printed card (or cost) be named ``name``? Every reason, with its rule.

        With ``identity`` (the namer's commander's, ``commander.identity_of``), a name outside
        it is refused under 903.5c; ``whose`` says whose identity it is in that reason. Asked
        with a ``CandidateQuery`` (its fields win), or with its fields as keywords.
        """
        if query is not None:
            printed, cost, fmt, phyrexian_as_hybrid = query.printed, query.cost, query.fmt, query.phyrexian_as_hybrid
            taken, identity, rules, carried = query.taken, query.identity, query.rules, query.carried
            whose = query.whose if identity is not None else None  # said only of an identity (903.5c)
        fmt = check_format(fmt)
        rules = rules_of(rules, phyrexian_as_hybrid)
        entries = self.pool.nameables_called(name)
        if not entries:  # the printed card's own name refuses whatever the data says (704.1, D4)
            own = [self._itself(printed, rules)] if printed is not None and printed.answers_to(name) else []
            return Verdict(False, [*own, Reason(rules.rule_for("704.1"), self._why_not_a_name(name))])
        taken_keys = {fold(t) for t in taken}
        verdicts = [
            self._check_entry(n, printed, cost, fmt, rules, taken_keys, identity, whose, carried)
            for n in entries
        ]
        if len(verdicts) == 1:  # a name most often names one entry
            return verdicts[0]
        return min(verdicts, key=lambda v: (not v.legal, len(v.reasons)))

    def _why_not_a_name(self, name: str) -> Message:
        """Why ``name`` names nothing: unknown, a split card's full name, an unknown cost, a back face."""
        card = self.pool.find(name)
        if card is None:
            return say("name.not_a_card", name=name)
        key = fold(name)
        face = next((f for f in card.faces if fold(f.name) == key or fold(f.french_name or "") == key), None)
        if face is not None and face.cost is None:
            return say("name.cost_unknown", name=face.said_name)
        if card.layout in SPLIT_LAYOUTS and card.nameables():
            return say("name.split", card=card.said_name, halves=either([n.said_name for n in card.nameables()]))
        if not card.in_library:
            if card.layout == "meld_result":
                return say("name.meld_back", card=card.said_name)
            return say("card.not_in_library", card=card.said_name)
        if card.nameables():
            return say("name.back_face", name=name, card=card.said_name, front=card.front.said_name)
        return say("name.no_cost", card=card.said_name)

    @staticmethod
    def _itself(printed: Card, rules: RuleSet) -> Reason:
        return Reason(rules.rule_for("704.1"), say("name.itself", card=printed.said_name))

    def _check_entry(self, n, printed, cost, fmt, rules: RuleSet, taken_keys, identity=None,
                     whose=None, carried=None) -> Verdict:
        # Every reason, then in rule order; under 704.1 the printed card itself comes first,
        # as it refuses whatever the card data says.
        reasons: list[Reason] = []
        if printed is not None and n.key in printed.face_names:
            reasons.append(self._itself(printed, rules))
        refusal = refusal_under(self.pool, rules, n.card, fmt)
        if refusal:
            reasons.append(Reason(refusal.rule, refusal.message))
        costs = self.printed_costs(printed, cost)
        keys = cost_keys(n.cost, rules.matching)
        if len(costs) == 1:  # most printed cards: one cost
            keys = keys & cost_keys(costs[0], rules.matching)
        else:
            keys = keys & {k for pc in costs for k in cost_keys(pc, rules.matching)}
        # the costs both read as; a match by Xom's 5e alone reads the printed cost as the name's
        shared = sorted((k for k in keys if isinstance(k, ManaCost)), key=str) or ([n.cost] if keys else [])
        if not shared:
            printed_txt = either([_as_named(c) for c in costs]) or say("cost.no_known")
            reasons.append(Reason(rules.rule_for("704.1"), say(
                "name.cost_mismatch", name=n.said_name, cost=cost_phrase(n.cost), printed=printed_txt)))
        if n.key in taken_keys:
            reasons.append(Reason(rules.rule_for("704.2"), say("name.taken", name=n.said_name)))
        elif carried and n.key in carried:  # chosen in another game of the series (Xom 6)
            reasons.append(Reason(rules.cite("scope"), say("name.taken_in_series", name=n.said_name,
                                                           game=carried[n.key])))
        if identity is not None:
            outside = _outside_identity(n, identity, whose)
            if outside:
                reasons.append(outside)
        if reasons:
            return Verdict(False, in_rule_order(reasons), n)
        if printed is not None:
            what: Message | str = printed.said_name
        else:
            what = say("cost.a_card_none") if cost is None or cost.is_none else say("cost.a_card", cost=str(cost))
        if not all(c.is_none for c in shared):
            why = say("name.cost_match", name=n.said_name, cost=cost_phrase(n.cost), printed=what,
                      read=either([cost_words(c) for c in shared]))
        elif printed is not None:  # D2: no mana cost matches only no mana cost
            why = say("name.no_cost_match", name=n.said_name, printed=what)
        else:
            why = say("name.no_cost_only", name=n.said_name)
        found = rules.match_relations(costs, n.cost)  # under Xom, which of its rules allow it, said too
        because = [say(_MATCH_WORDS[r]) for r in found if r in _MATCH_WORDS]
        if because:
            why = say("name.match_because", why=why, because=both(because))
        ok = [Reason(rules.match_rule(costs, n.cost, found), why)]
        if self.pool.mental_magic_status(n.card) == "watched":
            ok.append(Reason("706.4a", say("name.watched", card=n.card.said_name)))
        if identity is not None:
            ok.append(Reason("903.5c", say("identity.within", name=n.said_name, identity=identity_text(n.identity),
                                           whose=whose or say("commander.the"), within=identity_text(identity))))
        return Verdict(True, ok, n)


def _outside_identity(n: Nameable, identity: Identity, whose: Message | None) -> Reason | None:
    """903.5c, D14(b): a name outside the namer's commander's colour identity is refused."""
    whose = whose or say("commander.the")
    if n.identity is None:  # never guessed, like an unknown cost (D2)
        return Reason("903.5c", say("identity.unknown", name=n.said_name, whose=whose, within=identity_text(identity)))
    if n.identity <= identity:
        return None
    return Reason("903.5c", say("identity.outside", name=n.said_name, identity=identity_text(n.identity), whose=whose,
                                within=identity_text(identity)))


def _as_named(cost: ManaCost) -> Message | str:
    """A printed cost in a refusal: '{1}{R}', or 'a card with no mana cost' (D2)."""
    return say("cost.a_card_none") if cost.is_none else cost.text


@dataclass(frozen=True)
class Exclusion:
    """A card with a matching cost that is not a candidate, and the rule that keeps it out."""

    name: str
    french_name: str | None
    rule: str | None  # None: left out by the asker's own filter (type, keyword), not by a rule
    reason: Message


def explain_empty(
    pool: CardPool,
    *,
    printed: Card | None = None,
    cost: ManaCost | None = None,
    fmt: str = "vintage",
    phyrexian_as_hybrid: bool = False,
    type_: str | None = None,
    keyword: str | None = None,
    limit: int = 20,
    identity: Identity | None = None,
    whose: Message | None = None,
    rules: RuleSet | None = None,
    search: Search | None = None,
    context: Context | None = None,
) -> list[Exclusion]:
    """Why a query has no candidate: every same-cost name in the whole pool and what stops it.

    The printed card itself (704.1, D4), a card banned or restricted in the format (706.1),
    on the Mental Magic list (706.2–706.4) or not of the format (704.1), or outside the
    asker's type or keyword filter, or outside the asker's commander's colour identity
    (903.5c), or left out by the asker's search (``search`` read in ``context``: no rule). A scan
    of the pool: asked only when the answer is empty.
    """
    fmt = check_format(fmt)
    rules = rules_of(rules, phyrexian_as_hybrid)
    wanted = {c for pc in CandidateFinder.printed_costs(printed, cost) for c in cost_keys(pc, rules.matching)}
    by_cost = _every_nameable_by_cost(pool, rules)
    same_cost = sorted({at for c in wanted for at in by_cost.get(c, ())})  # in the pool's order, as a scan
    out: list[Exclusion] = []
    seen: set[str] = set()
    for n in (pool.nameables[at] for at in same_cost):
        if n.key in seen:
            continue
        seen.add(n.key)
        refusal = refusal_under(pool, rules, n.card, fmt)
        if printed is not None and n.key in printed.face_names:
            rule, reason = rules.rule_for("704.1"), say("name.is_printed", name=n.said_name)
        elif refusal is not None:
            rule, reason = refusal.rule, refusal.message
        elif not n.face.fits(type_, keyword):
            asked = " ".join(w for w in (type_, keyword) if w)
            rule, reason = None, say("name.filtered", name=n.said_name, filter=asked)
        elif identity is not None and (outside := _outside_identity(n, identity, whose)) is not None:
            rule, reason = outside.rule, outside.message
        elif search is not None and not search.test(n, context or Context()):
            rule, reason = None, say("name.queried", name=n.said_name, query=search.text)
        else:  # a candidate after all: not an exclusion (the caller's list was not empty)
            continue
        out.append(Exclusion(n.name, n.french_name, rule, reason))
        if len(out) >= limit:
            break
    return out


_BY_COST: dict[tuple, tuple[CardPool, dict[ManaCost, array]]] = {}
_BY_COST_LOCK = Lock()


def _every_nameable_by_cost(pool: CardPool, rules: RuleSet) -> dict[ManaCost, array]:
    """Every nameable of the pool, legal or not, filed under each concrete reading of its cost (as
    places in ``pool.nameables``): what explain_empty looks up instead of scanning every name per
    question. Built once per pool and option, on the first empty answer."""
    key = (id(pool), rules.index_key)
    kept = _BY_COST.get(key)
    if kept is not None and kept[0] is pool:
        return kept[1]
    with _BY_COST_LOCK:
        by_cost: dict[ManaCost, list[int]] = defaultdict(list)
        keys_of: dict[ManaCost, frozenset] = {}  # ~900 distinct costs among ~34k names: each read once
        for at, n in enumerate(pool.nameables):
            keys = keys_of.get(n.cost)
            if keys is None:
                keys = keys_of[n.cost] = cost_keys(n.cost, rules.matching)
            for c in keys:
                by_cost[c].append(at)
        _BY_COST[key] = (pool, {c: array("i", at) for c, at in by_cost.items()})  # ints packed: every worker keeps it
    return _BY_COST[key][1]
