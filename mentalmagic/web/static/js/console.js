/* The console's start page: this laptop's games, and a new game from a saved deck or a pasted list. */
import { $, el } from "./dom.js";
import { ApiError, getJSON } from "./api.js";
import { Combobox } from "./combobox.js";
import { call, forgetGame, keep, kept, savedGames, saveGame } from "./call.js";
import { confirmFirst } from "./confirm.js";
import { lang, localName, t } from "./i18n.js";
import { ruleRef } from "./rules.js";
import { keepSeries, loadSeries, savedSeries, seriesGames, seriesLabel, seriesToken } from "./series.js";
import { seats } from "./seats.js";
import { Status } from "./status.js";
import { syncLanguageLinks } from "./langswitch.js";

const status = new Status($("status"));
const rows = $("player-rows");
let checked = null; // the last dry run's answer, for the list as it was then
let editing = null; // the saved deck whose list is being edited: saving changes it (PUT)

// Each deck's edit token, kept by this browser beside the judge's tokens (only the saver gets it).
const DECKS = "mentalmagic.decks";
const keepDeck = (id, token) => keep(DECKS, id, token ? { edit_token: token } : null);
const deckToken = (id) => (kept(DECKS)[id] || {}).edit_token || null;

function listGames() {
  const games = Object.entries(savedGames()).sort((a, b) => (b[1].created || "").localeCompare(a[1].created || ""));
  $("no-games").hidden = games.length > 0;
  $("my-games").replaceChildren(...games.map(([id, g]) => el("li", {},
    el("a", { href: `/games/${encodeURIComponent(id)}`, text: `${(g.players || []).map((p) => p.name).join(", ")}` }),
    " ", el("span", { class: "muted", text: [g.format || "", g.rules ? rulesLabel(g.rules) : null,
      g.series ? seriesLabel(g.series, savedSeries()[g.series]) : null, (g.created || "").slice(0, 16).replace("T", " ")]
      .filter(Boolean).join(" · ") }),
    " ", forgetButton(id))));
}

// -- the rule set (rulesets.py's presets, rendered by the server with their options) and the series
const ruleRadios = () => [...document.querySelectorAll('input[name="rules"]')];
const rulesLabel = (key) => (document.querySelector(`label[for="rules-${key}"]`) || {}).textContent || key;
const chosenRules = () => (ruleRadios().find((r) => r.checked) || ruleRadios()[0]).value;

/** The chosen preset's options, each true or false (a preset shows only the options it takes). */
function chosenOptions() {
  const item = document.querySelector(`.rule-choice[data-rules="${chosenRules()}"]`);
  return Object.fromEntries([...item.querySelectorAll("input[data-option]")].map((b) => [b.dataset.option, b.checked]));
}

/** Only the chosen preset's options are shown (and reachable by Tab). */
function rulesChanged() {
  for (const item of document.querySelectorAll(".rule-choice")) {
    const chosen = item.dataset.rules === chosenRules();
    for (const o of item.querySelectorAll(".rule-option")) o.hidden = !chosen;
  }
}

/** A series kept by this browser sets the rule set and its options: its games play under them. */
function seriesChanged() {
  $("series-name-field").hidden = $("series-select").value !== "new";
  const kept = savedSeries()[$("series-select").value];
  $("rules-set").disabled = Boolean(kept);
  if (kept) {
    for (const r of ruleRadios()) r.checked = r.value === kept.rules;
    const item = document.querySelector(`.rule-choice[data-rules="${kept.rules}"]`);
    for (const b of item.querySelectorAll("input[data-option]")) b.checked = Boolean((kept.options || {})[b.dataset.option]);
    rulesChanged();
    status.show(t("console.series_rules", { rules: rulesLabel(kept.rules) }));
  }
}

function listSeriesChoices(select = null) {
  const kept = Object.entries(savedSeries()).sort((a, b) => (b[1].created || "").localeCompare(a[1].created || ""));
  const box = $("series-select");
  const value = select ?? box.value;
  box.replaceChildren(...[...box.options].slice(0, 2), ...kept.map(([id, s]) => el("option", { value: id,
    text: t("console.series_option", { series: seriesLabel(id, s), rules: rulesLabel(s.rules) }) })));
  box.value = [...box.options].some((o) => o.value === value) ? value : "";
}

/** Each series this browser keeps: its games in order and the names taken in each (GET /series/{id}). */
async function listSeries() {
  const ids = Object.keys(savedSeries());
  const shown = [];
  for (const id of ids) {
    try {
      const view = await loadSeries(id);
      const label = seriesLabel(id, { ...savedSeries()[id], ...(view || {}) });
      if (view) shown.push(el("section", { class: "series", "aria-label": label },
        el("h3", { text: label }), ...(await seriesGames(view))));
    } catch (e) {
      status.error(e);
    }
  }
  $("my-series").replaceChildren(...shown);
  $("my-series-panel").hidden = shown.length === 0;
}

/** The series the game is made in: none, a kept one, or a new one made now under the chosen rules. */
async function seriesOfGame(rules, options) {
  const choice = $("series-select").value;
  if (!choice) return null;
  if (choice !== "new") return choice;
  status.show(t("console.making_series"), "busy");
  const name = $("series-name").value.trim() || null;
  const { body } = await call("POST", "/series", { body: { rules, options, name } });
  keepSeries(body.id, { token: body.token, rules, options, name: body.name, created: new Date().toISOString() });
  listSeriesChoices(body.id); // a retry after a refused game uses this series, not another new one
  seriesChanged();
  return body.id;
}

function forgetButton(id) {
  const b = el("button", { type: "button", class: "small", text: t("console.forget"),
    "aria-label": t("console.forget_game", { id }) });
  b.addEventListener("click", () => { forgetGame(id); listGames(); });
  return b;
}

function addRow(name = "", team = "") {
  const i = rows.children.length + 1;
  const nameInput = el("input", { type: "text", id: `player-name-${i}`, maxlength: 60, autocomplete: "off", value: name });
  const teamInput = el("input", { type: "text", id: `player-team-${i}`, maxlength: 60, autocomplete: "off", value: team });
  const commanderInput = el("input", { type: "text", id: `player-commander-${i}`, maxlength: 300, autocomplete: "off",
    class: "commander-input", spellcheck: "false", role: "combobox", "aria-autocomplete": "list",
    "aria-expanded": "false", "aria-controls": `player-commander-${i}-listbox` });
  const commanderList = el("ul", { id: `player-commander-${i}-listbox`, class: "listbox", role: "listbox",
    "aria-label": t("console.commander_names"), hidden: true });
  commanderCompletion(commanderInput, commanderList);
  const commanderField = el("div", { class: "field commander-field" },
    el("label", { for: commanderInput.id, text: t("console.commander") }),
    el("div", { class: "combo" }, commanderInput, commanderList));
  commanderField.hidden = !commanderGame();
  const remove = el("button", { type: "button", class: "small", text: t("console.remove"),
    "aria-label": t("console.remove_player", { n: i }) });
  const li = el("li", { class: "player-row" },
    el("div", { class: "field" }, el("label", { for: nameInput.id, text: t("console.player_name", { n: i }) }), nameInput),
    el("div", { class: "field" }, el("label", { for: teamInput.id, text: t("console.team") }), teamInput),
    commanderField, remove);
  remove.addEventListener("click", () => {
    if (rows.children.length > 2) { li.remove(); $("add-player").disabled = false; }
  });
  rows.append(li);
  $("add-player").disabled = rows.children.length >= 8;
  return nameInput;
}

const commanderGame = () => $("format-select").value === "commander";

/** A commander field completes card names as the lookup page does, in the page's language (the API
 * reads a French name as its card); after "A + ", the partner's name. */
function commanderCompletion(input, list) {
  const parts = () => input.value.split("+");
  return new Combobox(input, list, {
    fetch: async (q, signal) => {
      const last = parts().pop().trim();
      return last.length < 2 ? [] : (await getJSON("/cards", { q: last, limit: 10 }, signal)).cards || [];
    },
    render: (c) => [el("span", { class: "opt-names" }, el("span", { class: "opt-name", text: localName(c) }),
      localName(c) !== c.name ? el("span", { class: "opt-fr", lang: "en", text: c.name }) : null)],
    onChoose: (c) => { input.value = [...parts().slice(0, -1).map((p) => p.trim()), localName(c)].join(" + "); },
    quietWhenEmpty: true,
    onError: (e) => status.error(e),
  });
}
const formatShown = () => $("format-select").selectedOptions[0].textContent; // "all" in the page's language

/** Each row's player; in a commander game with their commander, or two partners written "A + B" (D14). */
function players() {
  return [...rows.querySelectorAll(".player-row")].map((li) => {
    const [name, team, commander] = li.querySelectorAll("input");
    const p = { name: name.value.trim(), team: team.value.trim() || null };
    const names = commander.value.split(" + ").map((n) => n.trim()).filter(Boolean);
    if (commanderGame() && names.length) p.commander = names.length === 1 ? names[0] : names;
    return p;
  }).filter((p) => p.name);
}

function formatChanged() {
  for (const field of rows.querySelectorAll(".commander-field")) field.hidden = !commanderGame();
}

async function loadDecks(select = null) {
  try {
    const { body } = await call("GET", "/decks");
    const decks = body.decks || [];
    $("deck-select").replaceChildren(...decks.map((d) => el("option", { value: d.id,
      text: t("console.deck_option", { name: d.name, n: d.size }) })));
    if (select) $("deck-select").value = select;
    if (!decks.length) $("deck-select").append(el("option", { value: "", text: t("console.no_deck") }));
    deckChosen();
  } catch (e) {
    status.error(e);
  }
}

/** The deck's report: size, each problem with its suggestions (a click puts one in the list), the flags. */
function report(deck) {
  const out = [el("p", { class: "deck-size", text: t("console.deck_size", { n: deck.size }) })];
  if (deck.problems.length) {
    out.push(el("h3", { text: t("console.problems") }), el("ul", { class: "problems" }, ...deck.problems.map((p) => {
      const fixes = p.suggestions.map((s) => {
        const b = el("button", { type: "button", class: "small suggestion", text: s,
          "aria-label": t("console.use_suggestion", { s, line: p.line }) });
        b.addEventListener("click", () => fix(p, s));
        return b;
      });
      return el("li", { class: "problem" }, el("strong", { text: t("console.line", { n: p.line }) }), " ",
        el("code", { text: p.text }), " — ", p.message, ...(p.rule ? ruleRef(p.rule) : []), ".",
        fixes.length ? el("span", { class: "suggestions" }, ` ${t("console.did_you_mean")} `, ...fixes) : null);
    })));
  }
  const flags = deck.flags.map((f) => [f, flagWords(f)]).filter(([, words]) => words.length);
  if (flags.length) {
    out.push(el("h3", { text: t("console.flags_in", { format: formatShown() }) }),
      el("ul", { class: "flags" }, ...flags.map(([f, words]) => el("li", {},
        // the card in the page's language where the data has it, else its English name marked so
        el("strong", { text: localName(f), lang: lang === "fr" && !f.french_name ? "en" : null }), " — ",
        words.join("; ")))));
  }
  $("deck-report").replaceChildren(...out);
}

/** What to know about a card before a game of the chosen format (706, 704.1/D2): its other
 * formats' bans are no concern here (Sol Ring is restricted, not banned, in vintage). */
function flagWords(f) {
  const fmt = $("format-select").value;
  const words = [];
  if (f.mental_magic) words.push(t(`console.flag_mm_${f.mental_magic}`, { rule: f.mental_magic_rule }));
  if (f.formats && f.formats[fmt]) words.push(t(`console.flag_${f.formats[fmt]}_in`, { format: formatShown() }));
  if (f.unknown_cost && f.unknown_cost.length) words.push(t("console.flag_unknown", { faces: f.unknown_cost.join(", ") }));
  return words;
}

/** Replace the problem line's text by the chosen suggestion, keeping its count, and check again. */
function fix(problem, suggestion) {
  const lines = $("deck-list").value.split("\n");
  const i = problem.line - 1;
  if (lines[i] !== undefined) {
    const m = /^\s*(\d+\s*x?\s+)/i.exec(lines[i]);
    lines[i] = `${m ? m[1] : ""}${suggestion}`;
    $("deck-list").value = lines.join("\n");
  }
  checkDeck();
}

async function checkDeck(save = false) {
  const list = $("deck-list").value;
  if (!list.trim()) { status.show(t("console.ask_list"), "error"); $("deck-list").focus(); return null; }
  const name = $("deck-name").value.trim() || t("console.default_deck_name");
  status.show(t("console.checking"), "busy");
  try {
    const changing = save && editing && deckToken(editing);
    const { body } = changing
      ? await call("PUT", `/decks/${encodeURIComponent(editing)}`, { token: deckToken(editing), body: { name, list } })
      : await call("POST", save ? "/decks" : "/decks?dry_run=1", { body: { name, list } });
    checked = { list, deck: body };
    if (save && body.edit_token) keepDeck(body.id, body.edit_token);
    if (save) editing = null;
    report(body); // the report stays after saving
    if (save) {
      await loadDecks(body.id);
      $("source-saved").checked = true;
      sourceChanged();
      status.show(t("console.saved", { name: body.name, n: body.size }));
    } else {
      status.show(t("console.checked", { n: body.size, problems: body.problems.length }));
    }
    return body;
  } catch (e) {
    status.error(e);
    return null;
  }
}

/** The tools of a saved deck this browser saved (it keeps the edit token): edit, rename, delete. */
function deckChosen() {
  $("deck-tools").hidden = !deckToken($("deck-select").value);
}

async function editDeck() {
  const id = $("deck-select").value;
  try {
    const { body } = await call("GET", `/decks/${encodeURIComponent(id)}`);
    editing = id;
    $("deck-name").value = body.name;
    $("deck-list").value = body.list;
    $("source-list").checked = true;
    sourceChanged();
    report(body);
    status.show(t("console.editing", { name: body.name }));
    $("deck-name").focus();
  } catch (e) {
    status.error(e);
  }
}

async function deleteDeck() {
  const id = $("deck-select").value;
  const name = $("deck-select").selectedOptions[0].textContent;
  if (!(await confirmFirst(t("console.delete_title", { name }), [t("console.delete_words")], t("console.delete_yes")))) return;
  try {
    await call("DELETE", `/decks/${encodeURIComponent(id)}`, { token: deckToken(id) });
    keepDeck(id, null);
    await loadDecks();
    status.show(t("console.deleted", { name }));
  } catch (e) {
    status.error(e);
  }
}

function sourceChanged() {
  const saved = $("source-saved").checked;
  $("saved-field").hidden = !saved;
  $("list-field").hidden = saved;
}

async function start(ev) {
  ev.preventDefault();
  const ps = players();
  if (ps.length < 2) { status.show(t("console.ask_players"), "error"); rows.querySelector("input").focus(); return; }
  const rules = chosenRules();
  const options = chosenOptions();
  const body = { format: $("format-select").value, players: ps, shuffle: $("shuffle-check").checked, rules, options };
  if ($("source-saved").checked) {
    if (!$("deck-select").value) { status.show(t("console.no_deck"), "error"); return; }
    body.deck = $("deck-select").value;
  } else {
    const deck = checked && checked.list === $("deck-list").value ? checked.deck : await checkDeck();
    if (!deck) return;
    body.library = deck.cards.flatMap((c) => Array(c.count).fill(c.name));
    if (!body.library.length) { status.show(t("console.ask_list"), "error"); return; }
  }
  try {
    const series = await seriesOfGame(rules, options);
    if (series) body.series = series;
    status.show(t("console.starting"), "busy");
    const { body: game } = await call("POST", "/games", { body, token: series ? seriesToken(series) : null });
    saveGame(game.id, { judge_token: game.judge_token, players: game.players, format: game.format,
      rules, series, created: new Date().toISOString() });
    location.assign(`/games/${encodeURIComponent(game.id)}`);
  } catch (e) {
    if (e instanceof ApiError) status.error(e);
    else throw e;
  }
}

/** A game from another laptop: the judge's export read back (POST /games/import, every event replayed
 * through the rules); this browser keeps its new judge's token and shows each player's new link. */
async function importGame() {
  const file = $("import-file").files[0];
  $("imported").hidden = true;
  if (!file) { importStatus.show(t("console.import_choose"), "error"); return; }
  let doc;
  try {
    doc = JSON.parse(await file.text());
  } catch {
    importStatus.show(t("console.import_not_json"), "error");
    return;
  }
  importStatus.show(t("console.importing"), "busy");
  try {
    const { body: game } = await call("POST", "/games/import", { body: doc });
    saveGame(game.id, { judge_token: game.judge_token, players: game.players, format: game.format,
      rules: game.options.rules || null, series: game.options.series || null, created: new Date().toISOString() });
    importStatus.show(t("console.imported", { n: game.events }), "ok");
    const open = $("imported-game");
    open.href = `/games/${encodeURIComponent(game.id)}`;
    open.textContent = t("console.imported_open");
    $("imported-seats").replaceChildren(...seats(game.id).map((s) => el("li", {},
      el("strong", { text: s.name }), " ", el("a", { href: s.link, class: "seat-link", text: s.link }))));
    $("imported").hidden = false;
    listGames();
  } catch (e) {
    if (e instanceof ApiError) importStatus.error(e);
    else throw e;
  }
}

const importStatus = new Status($("import-status"));
$("import-game").addEventListener("click", importGame);
addRow();
addRow();
$("add-player").addEventListener("click", () => addRow().focus());
$("check-deck").addEventListener("click", () => checkDeck(false));
$("save-deck").addEventListener("click", () => checkDeck(true));
$("format-select").addEventListener("change", () => { formatChanged(); if (checked) report(checked.deck); });
$("deck-select").addEventListener("change", deckChosen);
$("edit-deck").addEventListener("click", editDeck);
$("delete-deck").addEventListener("click", deleteDeck);
$("source-saved").addEventListener("change", sourceChanged);
$("source-list").addEventListener("change", sourceChanged);
$("new-game").addEventListener("submit", start);
for (const r of ruleRadios()) r.addEventListener("change", rulesChanged);
$("series-select").addEventListener("change", seriesChanged);
sourceChanged();
rulesChanged();
listSeriesChoices();
listGames();
listSeries();
loadDecks();
syncLanguageLinks();
