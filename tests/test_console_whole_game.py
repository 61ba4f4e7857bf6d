"""Issue 20: the whole game a judge plays at the console, in real headless Chromium over real HTTP.

A deck, three players in two teams, a Pentaland, a morph turned up under 705.4a, a loss by D8 whose
705.4a window a teammate closed (D7), undo, a bot, a player's seat, a token reissued, a player who
leaves and the game's end; then a Commander game to 21 commander damage. Every click and keystroke
goes through ``Judge``, which counts them per step (printed at the end: the issue's before/after).
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from pathlib import Path

import pytest
from browser import api, axe_violations, clocked, foreign_lines, next_poll, printed_ids, stored_game
from playwright import sync_api

expect = sync_api.expect

DECK = "Craw Wurm\nCraw Wurm\nShock\nGrizzly Bears\nLightning Bolt\nShock\nSavannah Lions\nLlanowar Elves\nSol Ring\n"
COUNTS = os.environ.get("WHOLE_GAME_COUNTS")  # a file to write the counts to (the before/after)

# The words the judge reads, in each language (the catalogue's), looked for on the page.
WORDS = {
    "fr": {
        "console": "Console de l’arbitre", "deck": "Cube du club", "restricted": "restreinte en vintage",
        "opens": "705.4a l’ouvre", "taken_by": "pris par {who}", "teammate": "coéquipier",
        "loses": "{who} perd la partie", "lost": "perdu", "in_game": "en jeu",
        "reissue": "Nouveau jeton pour Ben", "never_again": "ne marchera plus", "leaves": "Ben quitte",
        "win": "Ana, Cara gagnent", "wins": "Ana gagne", "left": "quitté",
        "export": ("La partie est terminée — Ana, Cara gagnent.", "Journal des évènements", "comme Pentaland",
                   "(règle 703.2)", "face cachée par mue", "(règle 705.4a)", "Élémental de racines",
                   "- Ana (p1, équipe A) : en jeu"),
        # issue 35
        "sol_ring": "Anneau solaire", "undone": "Annulé", "refused": "Refusé", "seat_example": "ben pioche 2",
        "stale": "Demandez le nouveau lien à l’arbitre", "undo_again": "Annuler encore un évènement ?",
        "cancelled": "Abandonné : rien n’a été enregistré", "krenko": "Krenko le caïd",
        "commander_taken": "commandant, pris dès le début (D14(e))", "on_battlefield": "sur le champ de bataille",
        "source": "Règles complètes du Mental Magic", "could": "ana pourrait Choc", "same": "même 3 4",
    },
    "en": {
        "console": "Judge's console", "deck": "Club cube", "restricted": "restricted in vintage",
        "opens": "705.4a opens it", "taken_by": "taken by {who}", "teammate": "teammate",
        "loses": "{who} loses the game", "lost": "lost", "in_game": "in the game",
        "reissue": "New token for Ben", "never_again": "never works again", "leaves": "Ben leaves",
        "win": "Ana, Cara win", "wins": "Ana wins", "left": "left the game",
        "export": ("The game is over — Ana, Cara win.", "Event log", "as a Pentaland",
                   "(rule 703.2)", "face down by morph", "(rule 705.4a)", "Root Elemental",
                   "- Ana (p1, team A): in the game"),
        "sol_ring": "Sol Ring", "undone": "Undone", "refused": "Refused", "seat_example": "ben draw 2",
        "stale": "Ask the judge for the new link", "undo_again": "Undo one more event?",
        "cancelled": "Cancelled: nothing was recorded", "krenko": "Krenko, Mob Boss",
        "commander_taken": "commander, taken from the start (D14(e))", "on_battlefield": "on the battlefield",
        "source": "Mental Magic Comprehensive Rules", "could": "ana could Shock", "same": "same 3 4",
    },
}
class Judge:
    """The judge's hands: each click and keystroke counted for the current step."""

    def __init__(self, pg):
        self.pg = pg
        self.counts: dict[str, list[int]] = {}
        self.step = "setup"

    def at(self, step: str):
        self.step = step
        self.counts.setdefault(step, [0, 0])

    def click(self, target):
        loc = self.pg.locator(target) if isinstance(target, str) else target
        loc.click()
        self.counts[self.step][0] += 1

    def type(self, target, text: str):
        loc = self.pg.locator(target) if isinstance(target, str) else target
        loc.fill(text)
        self.counts[self.step][1] += len(text)

    def paste(self, target, text: str):
        """A deck list is pasted: Ctrl+V is one keystroke."""
        (self.pg.locator(target) if isinstance(target, str) else target).fill(text)
        self.counts[self.step][1] += 1

    def key(self, target, key: str):
        (self.pg.locator(target) if isinstance(target, str) else target).press(key)
        self.counts[self.step][1] += 1

    def command(self, line: str):
        box = self.pg.locator("#command-input")
        box.fill(line)
        box.press("Escape")  # the completion list closed: a test's need, not counted
        box.press("Enter")
        self.counts[self.step][1] += len(line) + 1
        expect(box).to_have_value("")  # done: the page cleared the line

    def card(self, card_id: str):
        self.click(f'[data-card="{card_id}"]')

    def action(self, key: str):
        self.click(f'#card-actions [data-action="{key}"]')

    def confirm(self, *words: str, axe: bool = True):
        """The page asks once, in words with the rule; the judge reads and goes ahead. Its words are read
        for the other language each time; axe runs where ``axe`` (once per page: the dialog is the same)."""
        dialog = self.pg.locator("#confirm-dialog")
        expect(dialog).to_be_visible()
        said = " ".join(dialog.inner_text().split())  # its words are written before it opens (confirm.js)
        for w in words:
            assert w in said, w
        axe_clean(self.pg, axe=axe)
        self.click("#confirm-yes")
        expect(dialog).to_be_hidden()

    def handle(self, card_id: str) -> str:
        return self.pg.locator(f'[data-card="{card_id}"] .handle').first.inner_text()


FOUND: list = []  # axe's violations, screen by screen: all of them asserted at the end


FOREIGN_LINES: list = []  # sentences in the other language, screen by screen
LANG = {"lang": "fr"}
CARD_NAMES = re.compile("|".join(re.escape(n) for n in sorted({
    *DECK.split("\n"), "Krenko, Mob Boss", "Mayael the Anima", "Root Elemental", "Warbreak Trumpeter",
    "Goblin Taskmaster", "Boomerang", "Counterspell", "Illusionary Mask"} - {""}, key=len, reverse=True)))
# The names a French table reads in French (the card data's), where the judge typed the English one.
FRENCH_NAMES = {"Root Elemental": "Élémental de racines", "Warbreak Trumpeter": "Joueur de trompe briseguerre",
                "Goblin Taskmaster": "Surveillant gobelin"}


def shown(name: str) -> str:
    return FRENCH_NAMES.get(name, name) if LANG["lang"] == "fr" else name


# The page's text but what it marks as in another language (a card's printed rules text is lang="en").
PAGE_WORDS = """() => [...document.querySelectorAll('body [lang]')]
    .filter((el) => el.lang !== document.documentElement.lang)
    .reduce((text, el) => text.replace(el.innerText, ''), document.body.innerText)"""


def suggested(url: str) -> str | None:
    """The line a request to the command line's completion asks about, if it is one."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.parse_qs(parts.query).get("line", [None])[0] if parts.path.endswith("/suggest") else None


# Resolves once the page's pending tasks have run (a fetched answer read and drawn).
SETTLED = "() => new Promise((done) => setTimeout(() => requestAnimationFrame(() => done()), 0))"


def axe_clean(pg, axe: bool = True):
    """This screen read for sentences in the other language and, unless told not to, checked by axe."""
    if axe:
        FOUND.extend((pg.url.split("#")[0], v) for v in axe_violations(pg))
    FOREIGN_LINES.extend((pg.url.split("#")[0], line)
                         for line in foreign_lines(pg.evaluate(PAGE_WORDS), LANG["lang"], CARD_NAMES))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_whole_game(kept_context, base_url, lang):
    w = WORDS[lang]
    LANG["lang"] = lang
    FOUND.clear()
    FOREIGN_LINES.clear()
    locale = {"fr": "fr-FR", "en": "en-US"}[lang]
    guarded = kept_context(base_url, locale=locale, viewport={"width": 1366, "height": 768})
    pg = clocked(guarded.page)
    j = Judge(pg)
    try:
        j.at("deck")
        pg.goto("/")
        j.click(pg.get_by_role("link", name=w["console"]))  # the lookup page links to the console
        expect(pg.locator("html")).to_have_attribute("lang", lang)
        # the console's script has run (it draws the player rows, after its buttons' handlers): a click
        # can't come before them, as a click does that follows a link without waiting for the load
        expect(pg.locator("#player-name-1")).to_be_visible()
        j.type("#deck-name", w["deck"])
        j.paste("#deck-list", DECK)
        j.click("#save-deck")
        expect(pg.locator("#deck-select option:checked")).to_contain_text(w["deck"])
        report = pg.locator("#deck-report")  # the report stays after saving, its flags for vintage only
        expect(report.locator(".flags strong")).to_have_text(w["sol_ring"])  # in the page's language
        expect(report).to_contain_text(w["restricted"])
        assert "legacy" not in report.inner_text()
        kept_decks = pg.evaluate("JSON.parse(localStorage.getItem('mentalmagic.decks'))")
        assert len(kept_decks) == 1 and all(d["edit_token"] for d in kept_decks.values())
        j.click("#edit-deck")  # the browser kept the edit token: rename it
        expect(pg.locator("#deck-name")).to_have_value(w["deck"])
        j.type("#deck-name", w["deck"] + " 2")
        j.click("#save-deck")
        expect(pg.locator("#deck-select option:checked")).to_contain_text(w["deck"] + " 2")
        axe_clean(pg)

        j.at("three players")
        for i, (name, team) in enumerate([("Ana", "A"), ("Ben", "B")], 1):
            j.type(f"#player-name-{i}", name)
            j.type(f"#player-team-{i}", team)
        j.click("#add-player")
        j.type("#player-name-3", "Cara")
        j.type("#player-team-3", "A")
        j.click("#shuffle-check")
        j.click("#start-game")
        pg.wait_for_url(re.compile(r"/games/[\w-]+$"))
        gid, kept = stored_game(pg)
        judge = kept["judge_token"]
        expect(pg.locator("#players li")).to_have_count(3)
        expect(pg.locator("#rules-line")).to_contain_text(w["source"])
        pg.locator("details.grammar summary").click()  # the commands' help, read too (not counted)
        expect(pg.locator("details.grammar")).to_contain_text(w["could"])
        expect(pg.locator("details.grammar")).to_contain_text(w["same"])
        axe_clean(pg)
        pg.locator("details.grammar summary").click()

        j.at("a morph")
        box = pg.locator("#command-input")
        with pg.expect_response(lambda r: suggested(r.url) == "ana draw 2") as asked:
            box.press_sequentially("ana draw 2")  # a whole, valid command: no "no card matches" popup
        asked.value.finished()
        pg.evaluate(SETTLED)  # the page has drawn what the server suggested
        expect(pg.locator("#command-listbox .no-match")).to_have_count(0)
        box.fill("")
        j.command("ana draw 1")
        expect(pg.locator("#log li")).to_have_count(1)
        game = api(base_url, "GET", f"/games/{gid}", judge)
        ana_wurm = printed_ids(game, "Craw Wurm", "hand")[0]
        j.card(ana_wurm)
        j.action("morph")
        expect(pg.locator(f'.zone-battlefield [data-card="{ana_wurm}"] .mark-facedown')).to_be_visible()

        j.at("a Pentaland")
        j.command("ben draw 3")
        expect(pg.locator("#log li")).to_have_count(3)
        game = api(base_url, "GET", f"/games/{gid}", judge)
        ben_wurm = printed_ids(game, "Craw Wurm", "hand")[0]
        ben_shock = printed_ids(game, "Shock", "hand")[0]
        bears = printed_ids(game, "Grizzly Bears", "hand")[0]
        j.card(bears)
        j.action("pentaland")
        expect(pg.locator(f'.zone-battlefield [data-card="{bears}"] .mark-pentaland')).to_be_visible()

        j.at("names that open 705.4a")
        for card, name in [(ben_wurm, "Root Elemental"), (ben_shock, "Warbreak Trumpeter")]:
            j.card(card)
            j.type("#name-input", name)
            j.key("#name-input", "Escape")
            j.action("cast")
            expect(pg.locator("#names")).to_contain_text(shown(name))
            expect(pg.locator("#card-status")).to_contain_text(shown(name))
            expect(pg.locator("#command-status")).to_have_text("")  # "Done: Ben draws…" is gone
        j.card(ana_wurm)
        j.action("face_up")
        expect(pg.locator("#face-up-box .mark-exception")).to_be_visible()
        opened = pg.locator("#face-up-box .choices button", has_text=shown("Root Elemental"))
        expect(opened).to_be_enabled()
        expect(opened).to_contain_text(w["opens"])  # taken by Ben, enabled only through 705.4a
        j.click(opened)
        expect(pg.locator(f'[data-card="{ana_wurm}"] .mark-facedown')).to_have_count(0)

        j.at("a loss by D8 (a teammate's name, D7), then undo")
        j.command("cara draw 1")
        game = api(base_url, "GET", f"/games/{gid}", judge)
        bolt = printed_ids(game, "Lightning Bolt", "hand")[0]
        j.card(bolt)
        j.action("morph")
        j.command("ana draw 1")
        game = api(base_url, "GET", f"/games/{gid}", judge)
        ana_shock = printed_ids(game, "Shock", "hand")[0]
        j.card(ana_shock)
        j.type("#name-input", "Goblin Taskmaster")
        j.key("#name-input", "Escape")
        j.action("cast")
        expect(pg.locator("#names")).to_contain_text(shown("Goblin Taskmaster"))
        j.card(bolt)
        pg.locator('#card-actions [data-action="face_up"]').click()  # a look, not counted: every name is shut
        shut = pg.locator("#face-up-box .choices button")
        expect(shut).to_have_count(2)
        for name, who in (("Goblin Taskmaster", "Ana"), ("Warbreak Trumpeter", "Ben")):
            expect(shut.filter(has_text=shown(name))).to_be_disabled()
            expect(shut.filter(has_text=shown(name))).to_contain_text(w["taken_by"].format(who=who))
        expect(pg.locator("#face-up-box .mark-loss")).to_contain_text(w["teammate"])
        j.action("to_graveyard")
        # the loss asks first: who, why (705.4a closed by a teammate, D7), the rule; nothing is recorded yet
        expect(pg.locator("#confirm-dialog")).to_be_visible()
        assert len(api(base_url, "GET", f"/games/{gid}/events", judge)["events"]) == 11  # nothing recorded yet
        j.confirm(w["loses"].format(who="Cara"), "705.4a", "D8", w["teammate"], "D7")
        expect(pg.locator("#players li").nth(2)).to_contain_text(w["lost"])
        expect(pg.locator("#players li").nth(2)).to_contain_text("D7")
        expect(pg.locator("#log li").first).to_contain_text(w["teammate"])
        said = pg.locator("#command-status").inner_text()
        assert ".." not in said and said.count("D7") == 1, said  # "(D7).." once
        # the bolt left the game with Cara (D9): its panel offers nothing more
        expect(pg.locator("#card-actions button")).to_have_count(0)
        expect(pg.locator("#face-up-box")).to_be_hidden()
        j.click("#command-status .undo-now")  # undo offered right after the loss, at the top
        expect(pg.locator("#players li").nth(2)).to_contain_text(w["in_game"])
        expect(pg.locator("#command-status")).to_contain_text(w["undone"])
        expect(pg.locator("#card-status")).to_have_text("")
        expect(pg.locator("#card-panel")).not_to_contain_text(w["refused"])
        # a second undo at once asks first, naming the event it would take back; no, nothing changes
        seq = len(api(base_url, "GET", f"/games/{gid}/events", judge)["events"])
        pg.locator("#log").focus()
        pg.keyboard.press("Control+z")
        expect(pg.locator("#confirm-dialog")).to_contain_text(w["undo_again"])
        j.click("#confirm-no")
        expect(pg.locator("#command-status")).to_contain_text(w["cancelled"])
        assert len(api(base_url, "GET", f"/games/{gid}/events", judge)["events"]) == seq

        j.at("a bot")
        api(base_url, "POST", f"/games/{gid}/actions", kept["players"][2]["token"], {"type": "draw", "count": 1})
        next_poll(pg)
        expect(pg.locator("#log li").first).to_contain_text("Cara")

        j.at("a seat")
        link = pg.locator('#links a[data-player="p2"]').get_attribute("href")
        seat = guarded.new_page()
        seat.goto(link)
        j.counts[j.step][0] += 1  # the judge opens Ben's link (on Ben's phone)
        expect(seat.locator("#seat")).to_contain_text("Ben")
        expect(seat.locator("#command-input")).to_have_attribute("placeholder", w["seat_example"])
        axe_clean(seat)
        # the judge's screen in front again: Chromium pauses the frames of a page behind another, and
        # Playwright waits for frames before each click
        pg.bring_to_front()

        j.at("a token reissued")
        j.click(pg.get_by_role("button", name=re.compile(w["reissue"])))
        j.confirm("Ben", w["never_again"], axe=False)  # the dialog of the loss above, with other words
        expect(pg.locator("#game-status")).to_contain_text("Ben")
        assert pg.locator('#links a[data-player="p2"]').get_attribute("href") != link
        seat.goto(link)
        seat.reload()
        expect(seat.locator("#game-status")).to_contain_text(w["stale"])
        expect(seat.locator("#command-form")).to_be_hidden()
        expect(seat.locator("#undo-button")).to_be_hidden()
        pg.bring_to_front()

        j.at("a player leaves: the game ends")
        j.click(pg.get_by_role("button", name=re.compile(w["leaves"])))
        j.confirm("Ben", "D9", w["win"], axe=False)
        expect(pg.locator("#players li").nth(1)).to_contain_text(w["left"])
        assert api(base_url, "GET", f"/games/{gid}", judge)["status"] == "finished"
        end = pg.locator("#game-end")
        expect(end).to_be_visible()
        expect(end).to_contain_text(w["win"])
        expect(end).to_contain_text("104.2a")
        out_line = end.locator(".end-out li").first.inner_text()
        assert "\n" not in out_line.strip() and out_line.startswith("Ben — Ben"), out_line  # not "Ben —"
        expect(pg.locator("#command-input")).to_be_disabled()
        axe_clean(pg)

        j.at("the game exported")
        with pg.expect_download() as got:
            j.click("#export-text")
        text = Path(got.value.path()).read_text(encoding="utf-8")
        for words in w["export"]:
            assert words in text, words
        assert foreign_lines(text, lang, CARD_NAMES) == []
        with pg.expect_download() as got:
            j.click("#export-json")
        exported = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
        assert exported["game"]["status"] == "finished"
        assert [e["seq"] for e in exported["events"]] == list(range(1, len(exported["events"]) + 1))
        seat.goto(pg.locator('#links a[data-player="p2"]').get_attribute("href"))  # Ben's new link
        seat.reload()
        expect(seat.locator("#game-end")).to_contain_text(w["win"])  # on the players' pages too
        seat.close()

        j.at("a deck deleted")
        pg.goto("/console")
        j.click("#source-saved")
        expect(pg.locator("#deck-tools")).to_be_visible()
        j.click("#delete-deck")
        j.confirm(w["deck"] + " 2")
        expect(pg.locator("#deck-select")).not_to_contain_text(w["deck"])

        j.at("a Commander game to 21")
        j.click("#source-list")  # a list again, on the same form
        expect(pg.locator("#deck-list")).to_be_visible()
        j.click(pg.locator("#format-select"))
        pg.locator("#format-select").select_option("commander")
        j.type("#player-name-1", "Ana")
        # the commander field completes names in the page's language (issue 35: it took the exact English)
        pg.locator("#player-commander-1").press_sequentially("Krenko")
        j.counts[j.step][1] += len("Krenko")
        choice = pg.locator("#player-commander-1-listbox [role=option]", has_text=w["krenko"])
        j.click(choice)
        expect(pg.locator("#player-commander-1")).to_have_value(w["krenko"])
        j.type("#player-name-2", "Ben")
        j.type("#player-commander-2", "Mayael the Anima")
        j.paste("#deck-list", "Shock\nLightning Bolt\nCounterspell\n")
        j.click("#start-game")
        pg.wait_for_url(re.compile(r"/games/[\w-]+$"))
        gid, kept = stored_game(pg)
        judge = kept["judge_token"]
        game = api(base_url, "GET", f"/games/{gid}", judge)
        krenko = printed_ids(game, "Krenko, Mob Boss")[0]
        expect(pg.locator("#format")).to_contain_text("commander")
        # the commanders' names are taken from the start (D14(e)), and the page says so
        names = pg.locator("#names")
        expect(names).to_contain_text(w["commander_taken"])
        expect(names.locator("li")).to_have_count(2)
        expect(names.locator("li").first).to_contain_text("Ana")

        j.at("candidates within the identity (903.5c)")
        j.command("ben draw 3")
        game = api(base_url, "GET", f"/games/{gid}", judge)
        counterspell = printed_ids(game, "Counterspell", "hand")[0]
        everyone = api(base_url, "GET", f"/candidates?printed=Counterspell&game={gid}")["candidates"]
        assert "Boomerang" in [k["name"] for k in everyone]  # outside a player's identity, it is a candidate
        j.card(counterspell)
        pg.locator("#name-input").press_sequentially("Boomer")
        j.counts[j.step][1] += len("Boomer")
        expect(pg.locator("#name-listbox")).to_be_visible()
        expect(pg.get_by_role("option", name=re.compile("Boomerang"))).to_have_count(0)  # blue: not Mayael's
        j.key("#name-input", "Escape")
        j.click("#outside-check")  # asked: the others, apart and shut
        j.type("#name-input", "Boomera")
        apart = pg.get_by_role("option", name=re.compile("Boomerang"))
        expect(apart).to_have_attribute("aria-disabled", "true")
        expect(apart).to_contain_text("903.5c")
        j.key("#name-input", "Escape")

        j.at("a Commander game to 21")
        j.card(krenko)  # Commander from clicks alone: cast with its tax (903.8)
        expect(pg.locator('#card-actions [data-action="cast_commander"]')).to_contain_text("{0}")
        j.action("cast_commander")
        expect(pg.locator(f'.zone-stack [data-card="{krenko}"]')).to_be_visible()
        j.action("to_command")  # back to the command zone (903.9a)
        expect(pg.locator(f'.zone-command [data-card="{krenko}"]')).to_be_visible()
        expect(pg.locator('#card-actions [data-action="cast_commander"]')).to_contain_text("{2}")
        j.action("cast_commander")
        expect(pg.locator("#log li").first).to_contain_text("{2}")  # the tax paid, in the log
        expect(pg.locator(".commander-line").first).to_contain_text("{4}")
        damage = pg.locator("#damage-n-p2")
        record = pg.locator("#players li:nth-child(2) .damage-form button")
        expect(damage).to_have_value("")  # empty: nothing a typed amount adds to
        j.type(damage, "10")  # Krenko on the stack deals no combat damage: refused, with 903.10a
        j.click(record)
        status = pg.locator("#command-status")
        expect(status).to_contain_text("903.10a")
        expect(status).to_contain_text(w["on_battlefield"])
        expect(damage).to_have_value("10")  # a refusal keeps what was typed, to correct
        j.action("resolve")  # on the battlefield: only there does a commander deal combat damage (903.10a)
        expect(pg.locator(f'.zone-battlefield [data-card="{krenko}"]')).to_be_visible()
        j.click(record)
        expect(pg.locator(".commander-line").nth(1)).to_contain_text("10")
        expect(damage).to_have_value("")  # empty after each entry
        j.type(damage, "11")  # commander damage from Ben's row (903.10a): 21 in all
        j.click(record)
        j.confirm(w["loses"].format(who="Ben"), "21", "903.10a", w["wins"])
        expect(pg.locator("#players li").nth(1)).to_contain_text(w["lost"])
        expect(pg.locator("#game-end")).to_contain_text(w["wins"])
        assert api(base_url, "GET", f"/games/{gid}", judge)["status"] == "finished"
        axe_clean(pg)
    finally:
        if COUNTS:
            Path(COUNTS).write_text(json.dumps(j.counts, indent=1, ensure_ascii=False))
        print("\nclicks, keystrokes per step:", json.dumps(j.counts, ensure_ascii=False))
    assert FOUND == []
    assert FOREIGN_LINES == []
