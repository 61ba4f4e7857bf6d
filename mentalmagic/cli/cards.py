"""Card look-ups: candidates, check, card; and the rule sets they may read (rule-sets)."""

from __future__ import annotations

import json

import click

from .. import lookups
from ..catalogue import translations
from ..commander import can_be_commander
from ..errors import ArbiterError
from ..formats import COMMANDER as COMMANDER_FORMAT
from ..formats import DEFAULT_FORMAT, FORMATS
from ..identity import identity_text
from ..index import CandidateQuery, rules_of
from ..mana import ManaCost, ManaCostError, cost_words
from ..messages import either, said, say, word_of
from ..rulesets import RULE_SETS
from ..search import SORTS
from .context import Failed, Misused, did_you_mean, fail, runtime, store, with_other


def _query(rt, printed: str, **asked) -> CandidateQuery:
    """The question (lookups.candidate_query): PRINTED is a card if one is called so, else a mana
    cost ('{R/W}{R/W}', '1RR'); a --commander that can't be one fails."""
    if not printed.strip():  # as the API refuses an empty printed: `none` is the cost of a land
        raise Misused(str(say("cli.printed_empty")))
    try:
        name, cost = rt.pool.lookup(printed).name, None
    except ArbiterError as unknown:
        try:
            name, cost = None, ManaCost.parse(printed)
        except ManaCostError as bad:
            # written in braces, it was meant as a cost: say what is wrong with it
            said = say("cli.not_card_nor_cost.why", printed=repr(printed), why=bad.detail) \
                if "{" in printed and bad.detail else say("cli.not_card_nor_cost", printed=repr(printed))
            raise Failed(str(said) + did_you_mean(unknown)) from None
    try:
        return lookups.candidate_query(rt.finder, printed=name, cost=cost, **asked)
    except ArbiterError as e:
        fail(e)


FORMAT = click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
                      show_default=f"{DEFAULT_FORMAT}; {COMMANDER_FORMAT} with --commander")
COMMANDER = click.option("--commander", "commanders", multiple=True, metavar="NAME",
                         help="Only names within this commander's colour identity (903.5c); twice for partners.")


RULES = click.option("--rules", type=click.Choice(RULE_SETS), default=None,
                     help="The rule set (docs/rule-sets.md); magic-ville when not given.")
GAME = click.option("--game", "game", default=None, metavar="ID",
                    help="About this game: its format, rule set and the names taken in it (704.2) and, where "
                         "names last a series, in its series' other games (Xom 6), as its moves read them.")


def _game_asked(ctx, game: str | None) -> dict:
    """The look-up's game part: the game as the rules read it (services.RulesGames), as a move would."""
    if game is None:
        return {}
    from ..services import RulesGames

    return {"games": RulesGames(store(ctx)), "game": game}


@click.command()
@click.argument("printed")
@FORMAT
@click.option("--type", "type_", default=None, help="Only candidates of this type (e.g. creature).")
@click.option("--keyword", default=None, help="Only candidates with this keyword (e.g. morph).")
@click.option("--query", "-q", "query", default=None,
              help="Only the candidates this search keeps (docs/search.md), e.g. 't:creature pow>=2'.")
@click.option("--sort", type=click.Choice(SORTS), default="name", help="The candidates' order, then by name.")
@click.option("--phyrexian-as-hybrid", is_flag=True, help="House option of D3.")
@RULES
@GAME
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@COMMANDER
@click.pass_context
def candidates(ctx, printed, fmt, type_, keyword, query, sort, phyrexian_as_hybrid, rules, game, as_json, commanders):
    """Names a printed card (or a cost like {R/W}{R/W}) may take (704.1)."""
    rt = runtime(ctx)
    q = _query(rt, printed, fmt=fmt, phyrexian_as_hybrid=phyrexian_as_hybrid, type_=type_, keyword=keyword,
               commanders=commanders, rules=rules, query=query, sort=sort, **_game_asked(ctx, game))
    res = lookups.candidates(rt.finder, q)
    if as_json:
        click.echo(json.dumps({"costs": [str(c) for c in res.costs],
                               "candidates": [n.name for n in res.candidates],
                               **({"taken": [n.name for n in res.candidates if n.key in res.taken],
                                   "taken_in": {n.name: res.taken_in[n.key] for n in res.candidates
                                                if n.key in res.taken_in}} if game else {})},
                              ensure_ascii=False))
        return
    if q.printed is not None:
        label = said(q.printed.said_name)
    else:
        label = say("cli.card_no_cost") if q.cost.is_none else say("cli.card_costing", cost=str(q.cost))
    costs = either([say("cost.a_card_none") if c.is_none else c.text for c in res.costs]) or say("cli.nothing_known")
    asked = {"label": label, "costs": costs, "format": q.fmt, "n": len(res.candidates)}
    click.echo(say("cli.candidates_within", **asked, whose=q.whose, identity=identity_text(q.identity))
               if commanders else say("cli.candidates", **asked))
    rs = rules_of(q.rules, q.phyrexian_as_hybrid)
    for n in res.candidates:
        mark = f"  {say('cli.watched')}" if rt.pool.bans.status(n.card) == "watched" else ""
        if n.key in res.taken_in:  # chosen in another game of the series (Xom 6)
            mark += f"  {say('cli.taken_in', game=res.taken_in[n.key], rule=rs.cite('scope'))}"
        elif n.key in res.taken:
            mark += f"  {say('cli.taken', rule=rs.rule_for('704.2'))}"
        click.echo(f"  {cost_words(n.cost):<16} {said(n.said_name)}{mark}")
    if res.unknown_faces:
        click.echo(f"  {say('cli.cost_unknown_faces', faces=[said(q.printed.said_as(f)) for f in res.unknown_faces])}")


@click.command()
@click.argument("printed")
@click.argument("name")
@FORMAT
@click.option("--phyrexian-as-hybrid", is_flag=True)
@RULES
@GAME
@COMMANDER
@click.pass_context
def check(ctx, printed, name, fmt, phyrexian_as_hybrid, rules, game, commanders):
    """May PRINTED (a card or a cost) be named NAME? Exit status 1 when not."""
    rt = runtime(ctx)
    q = _query(rt, printed, fmt=fmt, phyrexian_as_hybrid=phyrexian_as_hybrid, commanders=commanders, rules=rules,
               **_game_asked(ctx, game))
    v = lookups.check(rt.finder, name, q)
    click.echo(str(say("cli.legal" if v.legal else "cli.not_legal")))
    for r in v.reasons:
        click.echo(f"  {r.rule}: {r.message}")
    ctx.exit(0 if v.legal else 1)


@click.command()
@click.argument("name")
@click.pass_context
def card(ctx, name):
    """Show one card, found by any English or French name."""
    rt = runtime(ctx)
    try:
        c = rt.pool.lookup(name)
    except ArbiterError as e:
        fail(e)
    click.echo(f"{with_other(c.said_name)}  [{c.layout}]")
    for f in c.faces:
        cost = say("cli.unknown_cost") if f.cost is None else cost_words(f.cost)
        kind = say("type.english", type=f.type_line) if f.type_line else ""  # the data's is English: marked
        click.echo(f"  {say('cli.face', name=said(f.said_name), cost=cost, type=kind)}")
    click.echo(f"  {say('cli.offers', costs=[cost_words(x) for x in c.printed_costs] or say('cli.nothing_known'))}")
    known = say("cli.unknown") if c.color_identity is None else identity_text(c.color_identity)
    click.echo(f"  {say('cli.identity_commander' if can_be_commander(c) else 'cli.identity', identity=known)}")
    status = rt.pool.bans.entry_for(c)
    if status:
        click.echo(f"  {word_of('cli.ban', status.status, rule=status.rule)}")
    click.echo(f"  {say('cli.legal_in', formats=[f for f, s in sorted(c.legalities.items()) if s == 'legal'] or '-')}")


@click.command("rule-sets")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.pass_context
def rule_sets(ctx, as_json):
    """The rule sets a game or a look-up may use (docs/rule-sets.md), as GET /api/v1/rule-sets lists them."""
    from ..web.rules_strings import rule_sets_answer  # Flask-Babel: never imported by a look-up (test_pool_cache)

    listed = rule_sets_answer(translations((ctx.find_root().obj or {}).get("lang")).gettext)
    if as_json:
        click.echo(json.dumps({"rule_sets": listed}, ensure_ascii=False, indent=2))
        return
    for rs in listed:
        click.echo(f"{rs['key']}  {rs['name']}")
        click.echo(f"  {rs['description']}")
        click.echo(f"  {rs['source']} <{rs['url']}>")
        for d in rs["differs"]:
            click.echo(f"  - {d['words']}")
        for o in rs["options"]:
            click.echo(f"  --{o['key'].replace('_', '-')}: {o['label']}")


COMMANDS = (candidates, check, card, rule_sets)
