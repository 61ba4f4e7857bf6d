/* The card-lookup page: talks to the JSON API (/api/v1); native ES modules, no build step.
 *
 * - name autocomplete (combobox.js over GET /cards?q=…, 20 suggestions, prefix matches first)
 * - a mana-cost keypad that edits the cost text box (keypad.js)
 * - results from GET /candidates, drawn with the mana font (mana.js), paged and
 *   rendered in chunks so 2,000 rows never freeze the page; when a cost has no
 *   candidate, the reasons the API gives ("excluded") in words
 * - the URL mirrors the query (/?printed=…&format=…) and loading it shows the result
 * - a search box over the list (the API's q, docs/search.md) narrows it as you type, and a sort;
 *   both go in the URL, so a link shares them; a search the API can't read is said beside the box
 *   and the list shown stays
 */
import { ApiError, getJSON } from "./api.js";
import { cardView, markEl, typeLine } from "./cardview.js";
import { Combobox } from "./combobox.js";
import { $, el, reveal } from "./dom.js";
import { lang, localName, num, t, tn } from "./i18n.js";
import { keypad, previewCost } from "./keypad.js";
import { syncLanguageLinks } from "./langswitch.js";
import { manaCost, readCost, writeCost } from "./mana.js";
import { Status } from "./status.js";
import { ruleRef } from "./rules.js";

const PAGE = 100; // rows fetched per "Show more"
const CHUNK = 200; // rows appended per animation frame
const SUGGEST_LIMIT = 20;

const form = $("lookup-form");
const nameInput = $("name-input");
const costInput = $("cost-input");
const costPreview = $("cost-preview");
const formatSelect = $("format-select");
const typeInput = $("type-input");
const keywordInput = $("keyword-input");
const gameInput = $("game-input");
const commanderInput = $("commander-input");
const phyrexianInput = $("phyrexian-input");
const rulesSelect = $("rules-select");
const queryInput = $("query-input");
const queryError = $("query-error");
const sortSelect = $("sort-select");
const QUERY_WAIT = 60; // ms after the last key before the list is asked again
const DEFAULT_RULES = rulesSelect.options[0].value;
const results = $("results");
const resultsTitle = $("results-title");
const printedEl = $("printed-card");
const costsEl = $("costs-block");
const unknownEl = $("unknown-faces");
const countLine = $("count-line");
const excludedEl = $("excluded");
const table = $("candidates");
const shownLine = $("shown-line");
const moreButton = $("more-button");
const allButton = $("all-button");
const formats = [...formatSelect.options].map((o) => o.value);
const basePath = new URL(form.action, location.href).pathname;

const label = (input) => (input.labels && input.labels[0] ? input.labels[0].firstChild.textContent.trim() : input.name);
const nameField = [nameInput, label(nameInput)];
const status = new Status($("status"), {
  printed: nameField, name: nameField, q: nameField, cost: [costInput, label(costInput)],
  format: [formatSelect, label(formatSelect)], type: [typeInput, label(typeInput)],
  keyword: [keywordInput, label(keywordInput)], game: [gameInput, label(gameInput)],
  commander: [commanderInput, label(commanderInput)],
  phyrexian_as_hybrid: [phyrexianInput, label(phyrexianInput)],
  rules: [rulesSelect, label(rulesSelect)], options: [phyrexianInput, label(phyrexianInput)],
  q: [queryInput, label(queryInput)], sort: [sortSelect, label(sortSelect)],
});

// Small polite live regions for the combobox and keypad (the main status stays for results).
const comboLive = el("div", { class: "visually-hidden", "aria-live": "polite", id: "combo-live" });
const keypadLive = el("div", { class: "visually-hidden", "aria-live": "polite", id: "keypad-live" });
document.body.append(comboLive, keypadLive);

// ---------------------------------------------------------------- cost box and keypad
const updatePreview = () => previewCost(costPreview, costInput.value);
keypad(document.querySelector(".keypad"), costInput, { changed: updatePreview, live: keypadLive });
costInput.addEventListener("input", () => {
  costInput.removeAttribute("aria-invalid");
  updatePreview();
});

// ---------------------------------------------------------------- name combobox
const combo = new Combobox(nameInput, $("name-listbox"), {
  live: comboLive,
  fetch: async (q, signal) => (await getJSON("/cards", { q, limit: SUGGEST_LIMIT }, signal)).cards || [],
  render: (c) => {
    const shown = localName(c);
    const other = shown === c.name ? c.french_name : c.name;
    return [
      el("span", { class: "opt-names" }, el("span", { class: "opt-name", text: shown }),
        other && other !== shown ? el("span", { class: "opt-fr", lang: shown === c.name ? "fr" : "en", text: other }) : null),
      manaCost(c.mana_cost, { short: true }),
    ];
  },
  onChoose: (c) => {
    nameInput.value = c.name;
    runSearch("printed");
  },
  onEnter: () => runSearch("printed"),
  onError: (e) => status.error(e),
});

// ---------------------------------------------------------------- search and results
const state = {
  seq: 0, ctrl: null, renderToken: 0,
  params: null, // URLSearchParams of the query shown (or last asked)
  loaded: 0, // candidates fetched
  total: 0,
  wanted: PAGE, // rows the reader asked to see ("Show more", "Show all"): a new search keeps as many
};

// Each candidate's row, drawn once per question and reused as a search narrows or reorders the
// list: a search over 1,000 rows shown moves rows, it doesn't build them again (docs/performance.md).
const rowCache = new Map();

/** The question without its search and order: what the rows drawn so far answer. */
function questionOf(p) {
  const b = new URLSearchParams(p);
  b.delete("q");
  b.delete("sort");
  return b.toString();
}

function filtersInto(p) {
  p.set("format", formatSelect.value);
  for (const [key, input] of [["type", typeInput], ["keyword", keywordInput], ["game", gameInput]]) {
    const v = input.value.trim();
    if (v) p.set(key, v);
    else p.delete(key);
  }
  // one commander, or two partners written "A + B": the API takes `commander` once for each
  p.delete("commander");
  for (const name of commanderNames(commanderInput.value)) p.append("commander", name);
  if (phyrexianInput.checked) p.set("phyrexian_as_hybrid", "true");
  else p.delete("phyrexian_as_hybrid");
  if (rulesSelect.value !== DEFAULT_RULES) p.set("rules", rulesSelect.value);
  else p.delete("rules");
  if (queryInput.value.trim()) p.set("q", queryInput.value.trim());
  else p.delete("q");
  if (sortSelect.value !== "name") p.set("sort", sortSelect.value);
  else p.delete("sort");
  return p;
}

const commanderNames = (text) => text.split(" + ").map((s) => s.trim()).filter(Boolean);

function queryFromForm(mode) {
  const p = new URLSearchParams();
  if (mode === "printed") p.set("printed", nameInput.value.trim());
  else p.set("cost", costInput.value.trim());
  return filtersInto(p);
}

const urlFor = (p) => `${basePath}?${p.toString().replace(/\+/g, "%20")}`;

function setUrl(p, push) {
  const url = urlFor(p);
  if (url === location.pathname + location.search) return;
  history[push ? "pushState" : "replaceState"]({ q: p.toString() }, "", url);
  syncLanguageLinks();
}

function runSearch(mode, { push = true } = {}) {
  status.clearInvalid();
  if (mode === "printed" && !nameInput.value.trim()) {
    nameInput.setAttribute("aria-invalid", "true");
    status.show(t("ask.name"), "error");
    nameInput.focus();
    return;
  }
  if (mode === "cost" && !costInput.value.trim()) {
    costInput.setAttribute("aria-invalid", "true");
    status.show(t("ask.cost"), "error");
    costInput.focus();
    return;
  }
  load(queryFromForm(mode), { push });
}

/** Run the query shown again with the current options (format, type, keyword, game, option, search). */
function rerun({ push = true } = {}) {
  if (!state.params) return;
  const p = filtersInto(new URLSearchParams(state.params));
  if (p.toString() === state.params.toString()) return;
  load(p, { push });
}

function setBusy(busy) {
  results.setAttribute("aria-busy", busy ? "true" : "false");
  document.body.classList.toggle("is-busy", busy);
}

function describeQuery(p) {
  const bits = [];
  if (p.has("type")) bits.push(t("filter.type", { v: p.get("type") }));
  if (p.has("q")) bits.push(t("filter.query", { v: p.get("q") }));
  if (p.has("keyword")) bits.push(t("filter.keyword", { v: p.get("keyword") }));
  if (p.has("game")) bits.push(t("filter.game", { v: p.get("game") }));
  if (p.has("commander")) bits.push(t("filter.commander", { v: p.getAll("commander").join(" + ") }));
  if (p.get("phyrexian_as_hybrid") === "true") bits.push(t("filter.phyrexian"));
  if (p.has("rules")) bits.push(t("filter.rules", { v: rulesSelect.selectedOptions[0].textContent }));
  return bits.length ? ` (${bits.join(", ")})` : "";
}

async function load(p, { push }) {
  if (state.ctrl) state.ctrl.abort();
  const ctrl = state.ctrl = new AbortController();
  const my = ++state.seq;
  state.renderToken++;
  const refine = state.params !== null && questionOf(state.params) === questionOf(p); // the search or order alone
  const sameOrder = refine && state.params.get("sort") === p.get("sort");
  if (!refine) {
    rowCache.clear();
    state.wanted = PAGE;
  }
  state.params = p;
  setUrl(p, push);
  setBusy(true);
  results.classList.add("is-stale");
  status.show(t("status.busy"), "busy");
  const q = new URLSearchParams(p);
  q.set("limit", String(state.wanted));
  q.set("offset", "0");
  try {
    const data = await getJSON("/candidates", q, ctrl.signal);
    if (my !== state.seq) return;
    const received = performance.now();
    queryFine();
    if (data.printed && p.get("printed") !== data.printed.name) {
      // a French or partial-case name: share the card's English name from now on
      if (nameInput.value.trim() === p.get("printed")) nameInput.value = data.printed.name;
      p.set("printed", data.printed.name);
      setUrl(p, false);
    }
    renderResults(data, p, refine);
    const token = state.renderToken;
    if (!(sameOrder && filterRows(data.candidates))) {
      for (const chunk of table.querySelectorAll(".chunk")) chunk.remove();
      state.loaded = 0;
      await appendRows(data.candidates, token);
    }
    updateMore();
    if (token === state.renderToken) performance.measure("mm:rows", { start: received }); // make bench reads it
    if (token === state.renderToken) reveal(results);
    const what = data.printed ? el("span", { text: localName(data.printed) }) : costLabel(p.get("cost"));
    const unknown = data.unknown_faces && data.unknown_faces.length
      ? ` ${t("status.unknown", { faces: data.unknown_faces.join(", ") })}` : "";
    status.show(el("span", {}, ...tn("status.found", { n: data.count, format: data.format }, { what }),
      describeQuery(p), ".", unknown), "ok");
  } catch (e) {
    if (e.name === "AbortError" || my !== state.seq) return;
    if (queryRefused(e)) return; // the list shown stays; the box says what it can't read
    results.hidden = true;
    status.error(e);
    reveal(status.node, "center");
  } finally {
    if (my === state.seq) {
      setBusy(false);
      results.classList.remove("is-stale");
    }
  }
}

/** A search the API can't read (422 on q alone): said beside the box, the list shown kept. */
function queryRefused(e) {
  const fields = e instanceof ApiError && e.status === 422 ? Object.keys(e.body.fields || {}) : [];
  if (fields.length !== 1 || fields[0] !== "q" || results.hidden) return false;
  queryInput.setAttribute("aria-invalid", "true");
  queryError.textContent = e.body.message;
  status.show(e.body.message, "error");
  return true;
}

function queryFine() {
  queryInput.removeAttribute("aria-invalid");
  queryError.textContent = "";
}

/** The cost a query asked for, drawn as symbols (for headings and the status line). */
function costLabel(cost) {
  const r = readCost(cost || "");
  if (r.kind === "none" || r.kind === "empty") return el("span", { class: "no-cost", text: t("cost.none") });
  return r.kind === "symbols" ? manaCost(writeCost(r.syms)) : el("span", { text: cost });
}

/** Why no card answers: each same-cost card and the rule that keeps it out (the API's "excluded"). */
function renderExcluded(data) {
  const list = data.count === 0 ? data.excluded || [] : [];
  excludedEl.hidden = !list.length;
  if (!list.length) {
    excludedEl.replaceChildren();
    return;
  }
  const items = list.map((x) => el("li", { class: "excluded-item" },
    el("strong", { class: "excluded-name", text: lang === "fr" && x.french_name ? x.french_name : x.name }), ": ",
    x.reason, x.rule ? el("span", { class: "rule" }, ...ruleRef(x.rule)) : null));
  excludedEl.replaceChildren(
    el("h3", { class: "sub", text: t("excluded.title", { n: list.length }) }),
    el("ul", { class: "excluded-list" }, ...items));
}

/** Why the list is empty: a rule (no same-cost card may be named), the search, or both. */
function emptyWhy(data, p) {
  if (!p.has("q")) return "count.none";
  const excluded = data.excluded || [];
  return excluded.length && excluded.every((x) => !x.rule) ? "count.none_query"
    : excluded.some((x) => !x.rule) ? "count.none_both" : "count.none";
}

/** The answer's headings, count and reasons; ``refine``: the same question searched or ordered anew,
 * whose card, costs and gaps are drawn already. The rows are the caller's (filterRows, appendRows). */
function renderResults(data, p, refine = false) {
  table.setAttribute("aria-rowcount", String(data.count + 1));
  state.total = data.count;
  if (!refine) renderQuestion(data, p);
  countLine.replaceChildren(
    ...tn("count.line", { n: data.count }, { count: el("strong", { class: "count", text: num(data.count) }),
      format: el("strong", { text: data.format }) }),
    describeQuery(p), ".",
    data.count ? "" : el("span", { class: "muted", text: ` ${t(emptyWhy(data, p))}` }));
  renderExcluded(data);
  table.hidden = data.count === 0;
  results.hidden = false;
}

/** The printed card (or cost) asked about, its costs, and the faces the data lacks. */
function renderQuestion(data, p) {
  document.title = t("title.results", { what: data.printed ? localName(data.printed) : (p.get("cost") || "none") });
  if (data.printed) {
    resultsTitle.replaceChildren(t("results.for_card", { name: localName(data.printed) }));
    printedEl.replaceChildren(cardView(data.printed, { formats }));
  } else {
    resultsTitle.replaceChildren(...tn("results.for_cost", {}, { cost: costLabel(p.get("cost")) }));
    printedEl.replaceChildren();
  }

  const costs = data.costs || [];
  costsEl.replaceChildren(
    el("h3", { class: "sub", text: data.printed ? t("costs.card") : t("costs.cost") }),
    costs.length ? el("ul", { class: "cost-list" }, ...costs.map((c) => el("li", {}, manaCost(c))))
      : el("p", { class: "muted", text: t("costs.none") }),
  );

  const unknown = data.unknown_faces || [];
  unknownEl.hidden = !unknown.length;
  unknownEl.replaceChildren(...(unknown.length ? [
    el("strong", { text: `${t("unknown.label")} ` }),
    `${t("unknown.lacks", { faces: unknown.join(", ") })} `,
    t("unknown.missing", { n: unknown.length }),
  ] : []));
}

/** A search that narrows the rows shown, in their order: the others hidden, none drawn or moved
 * (1,000 rows in one frame). False, and nothing changed, when a row of ``list`` isn't shown already. */
function filterRows(list) {
  const keep = new Set();
  for (const c of list) {
    const row = rowCache.get(rowKey(c));
    if (!row || !row.isConnected) return false;
    keep.add(row);
  }
  const order = list.map((c) => rowCache.get(rowKey(c)));
  let j = 0;
  for (const row of table.querySelectorAll(".chunk > .cand")) {
    if (keep.has(row) && row !== order[j++]) return false; // another order: drawn anew
  }
  let index = 0;
  for (const chunk of table.querySelectorAll(".chunk")) {
    let shown = 0;
    for (const row of chunk.children) {
      const show = keep.has(row);
      if (row.hidden === show) row.hidden = !show;
      if (show) {
        numberRow(row, index++);
        shown++;
      }
    }
    if (chunk.style.getPropertyValue("--rows") !== String(shown)) chunk.style.setProperty("--rows", String(shown));
  }
  state.loaded = index;
  return true;
}

const rowKey = (c) => `${c.name}\n${c.card}\n${c.taken}`;

/** A row's place in the list shown: its ARIA index and its stripe, set only when they change. */
function numberRow(row, index) {
  const at = String(index + 2);
  if (row.getAttribute("aria-rowindex") !== at) row.setAttribute("aria-rowindex", at);
  row.classList.toggle("is-even", index % 2 === 1);
}

/** One candidate's row at ``index``: the one drawn before for this name, else drawn now. */
function rowAt(c, index) {
  const key = rowKey(c);
  let row = rowCache.get(key);
  const fresh = !row;
  if (fresh) {
    row = rowFor(c);
    rowCache.set(key, row);
  }
  row.hidden = false; // a search may have hidden it (filterRows)
  numberRow(row, index);
  return [row, fresh];
}

/** One candidate as an ARIA table row (divs laid out by CSS grid; see page.css). */
function rowFor(c) {
  const cell = (cls, ...children) => el("div", { class: cls, role: "cell" }, ...children);
  const french = lang === "fr";
  const shown = french && c.french_name ? c.french_name : c.name;
  const other = french ? (c.french_name ? c.name : null) : c.french_name;
  const nameCell = cell("c-name", el("span", { class: "cand-name", lang: shown === c.name ? "en" : "fr", text: shown }));
  const stats = c.power != null ? `${c.power}/${c.toughness}` : c.loyalty != null ? c.loyalty : null;
  if (c.card && c.card !== c.name) nameCell.append(el("span", { class: "of-card", text: t("cand.half_of", { card: c.card }) }));
  const alt = other
    ? cell("c-fr", el("span", { class: "label", "aria-hidden": "true", text: `${t(french ? "cand.english" : "cand.french")} ` }),
      el("span", { lang: french ? "en" : "fr", text: other }))
    : cell("c-fr is-empty", el("span", { class: "muted", "aria-hidden": "true", text: "—" }),
      el("span", { class: "visually-hidden", text: t(french ? "cand.no_english" : "cand.no_french") }));
  const marks = cell("c-marks");
  if (c.watched) marks.append(markEl("watched", t("mark.watched"), t("mark.watched_title")));
  if (c.taken) marks.append(markEl("taken", t("mark.taken"), t("mark.taken_title")));
  const classes = ["cand-row", "cand", c.taken ? "is-taken" : ""].join(" ").trim();
  return el("div", { class: classes, role: "row" },
    nameCell, cell("c-cost", manaCost(c.mana_cost, { short: true })), cell("c-type", c.type_line ? typeLine(c.type_line, "") : "",
      stats ? el("span", { class: "stats", text: ` ${stats}` }) : null), alt, marks);
}

/** Append rows in chunks, yielding a frame after each CHUNK rows drawn anew (rows drawn before are
 * only moved); stops if a newer search started. Returns the first new row. */
function appendRows(list, token) {
  return new Promise((resolve) => {
    let i = 0;
    let first = null;
    const step = () => {
      let drawn = 0;
      while (i < list.length && drawn < CHUNK) {
        if (token !== state.renderToken) { resolve(null); return; }
        // Each chunk is its own row group; off-screen groups skip rendering (content-visibility).
        const end = Math.min(i + CHUNK, list.length);
        const chunk = el("div", { class: "chunk", role: "rowgroup" });
        chunk.style.setProperty("--rows", String(end - i));
        for (; i < end; i++) {
          const [row, fresh] = rowAt(list[i], state.loaded);
          if (fresh) drawn++;
          if (!first) first = row;
          chunk.append(row);
          state.loaded++;
        }
        table.append(chunk);
      }
      updateMore();
      if (i < list.length) requestAnimationFrame(step);
      else resolve(first);
    };
    step();
  });
}

function updateMore() {
  const left = state.total - state.loaded;
  shownLine.textContent = state.total ? t("shown", { shown: num(state.loaded), total: num(state.total) }) : "";
  moreButton.hidden = left <= 0;
  allButton.hidden = left <= PAGE;
  moreButton.textContent = t("more.some", { n: Math.min(PAGE, left) });
  allButton.textContent = t("more.all", { n: state.total });
}

async function loadMore(all) {
  if (!state.params || state.loaded >= state.total) return;
  const token = state.renderToken;
  const my = state.seq;
  const q = new URLSearchParams(state.params);
  const want = all ? Math.min(10000, state.total - state.loaded) : PAGE;
  q.set("limit", String(want));
  q.set("offset", String(state.loaded));
  moreButton.disabled = allButton.disabled = true;
  setBusy(true);
  status.show(all ? t("status.loading_all", { n: state.total }) : t("status.loading_more"), "busy");
  try {
    const data = await getJSON("/candidates", q, state.ctrl ? state.ctrl.signal : undefined);
    if (token !== state.renderToken) return;
    const first = await appendRows(data.candidates, token);
    state.wanted = Math.max(state.wanted, state.loaded);
    if (first) {
      const target = first.querySelector(".cand-name");
      target.tabIndex = -1;
      target.focus({ preventScroll: false });
    }
    status.show(t("status.shown", { shown: num(state.loaded), total: num(state.total) }), "ok");
  } catch (e) {
    if (e.name === "AbortError" || my !== state.seq) return;
    status.error(e);
  } finally {
    moreButton.disabled = allButton.disabled = false;
    if (my === state.seq) setBusy(false);
  }
}
moreButton.addEventListener("click", () => loadMore(false));
allButton.addEventListener("click", () => loadMore(true));

// ---------------------------------------------------------------- form wiring
function inferMode() {
  if (state.params) return state.params.has("printed") ? "printed" : "cost";
  return nameInput.value.trim() || !costInput.value.trim() ? "printed" : "cost";
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const by = ev.submitter && ev.submitter.value;
  runSearch(by === "cost" || by === "printed" ? by : inferMode());
});
costInput.addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.isComposing) {
    ev.preventDefault();
    runSearch("cost");
  }
});
for (const input of [typeInput, keywordInput, gameInput, commanderInput]) {
  input.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" || ev.isComposing) return;
    ev.preventDefault();
    if (state.params) rerun();
    else runSearch(inferMode());
  });
  input.addEventListener("change", () => rerun());
}
formatSelect.addEventListener("change", () => rerun());
// the search narrows the list as you type: asked again a moment after the last key, the older
// question aborted (load); the URL follows without a history entry per key
let queryTimer = 0;
queryInput.addEventListener("input", () => {
  clearTimeout(queryTimer);
  queryTimer = setTimeout(() => rerun({ push: false }), QUERY_WAIT);
});
queryInput.addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" || ev.isComposing) return;
  ev.preventDefault();
  clearTimeout(queryTimer);
  rerun({ push: false });
});
sortSelect.addEventListener("change", () => rerun());
phyrexianInput.addEventListener("change", () => rerun());
rulesSelect.addEventListener("change", () => rerun());

// ---------------------------------------------------------------- the URL
function fromUrl(push) {
  const u = new URLSearchParams(location.search);
  const fmt = (u.get("format") || "").toLowerCase();
  if (formats.includes(fmt)) formatSelect.value = fmt;
  typeInput.value = u.get("type") || "";
  keywordInput.value = u.get("keyword") || "";
  queryInput.value = u.get("q") || "";
  const sort = u.get("sort") || "name";
  sortSelect.value = [...sortSelect.options].some((o) => o.value === sort) ? sort : "name";
  gameInput.value = u.get("game") || "";
  commanderInput.value = u.getAll("commander").join(" + ");
  phyrexianInput.checked = u.get("phyrexian_as_hybrid") === "true";
  const rules = (u.get("rules") || "").toLowerCase();
  rulesSelect.value = [...rulesSelect.options].some((o) => o.value === rules) ? rules : DEFAULT_RULES;
  const hasPrinted = (u.get("printed") || "").trim() !== "";
  const hasCost = u.has("cost") && (u.get("cost") || "").trim() !== "";
  if (hasPrinted) nameInput.value = u.get("printed");
  if (u.has("cost")) costInput.value = u.get("cost");
  updatePreview();
  let mode = null;
  const by = u.get("by");
  if (by === "cost" && hasCost) mode = "cost";
  else if (by === "printed" && hasPrinted) mode = "printed";
  else if (hasPrinted) mode = "printed";
  else if (hasCost) mode = "cost";
  if (mode) load(queryFromForm(mode), { push });
  else {
    if (state.ctrl) state.ctrl.abort();
    combo.cancel();
    state.params = null;
    state.renderToken++;
    results.hidden = true;
    status.clear();
  }
}

window.addEventListener("popstate", () => {
  syncLanguageLinks();
  fromUrl(false);
});
fromUrl(false);
