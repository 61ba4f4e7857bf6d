/* Card lookup page: talks to the JSON API (/api/v1), no build step, no dependencies.
 *
 * - name autocomplete as an ARIA 1.2 combobox (GET /cards?q=…)
 * - a mana-cost keypad that edits the cost text box
 * - results from GET /candidates, drawn with mana-symbol elements, paged and
 *   rendered in chunks so 2,000 rows never freeze the page
 * - the URL mirrors the query (/?printed=…&format=…) and loading it shows the result
 */
(() => {
  "use strict";

  const API = "/api/v1";
  const PAGE = 100; // rows fetched per "Show more"
  const CHUNK = 200; // rows appended per animation frame
  const SUGGEST_DELAY = 160; // ms of quiet typing before asking for suggestions
  const SUGGEST_LIMIT = 10;

  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k === "tabIndex") node.tabIndex = v;
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
    return node;
  };

  // ---------------------------------------------------------------- mana symbols
  const COLOUR = { W: "white", U: "blue", B: "black", R: "red", G: "green", C: "colorless" };
  const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty"];
  const amount = (n) => WORDS[n] || String(n);

  /** What a screen reader says for one symbol (the part inside the braces). */
  function symbolLabel(sym) {
    if (/^\d+$/.test(sym)) return `${amount(Number(sym))} generic mana`;
    if (COLOUR[sym]) return `one ${COLOUR[sym]} mana`;
    if (sym === "X" || sym === "Y" || sym === "Z") return `${sym} generic mana`;
    if (sym === "S") return "one snow mana";
    if (sym === "½") return "half a generic mana";
    if (sym === "∞") return "infinite generic mana";
    if (sym === "?") return "cost unknown to the card data";
    if (/^H[WUBRGC]$/.test(sym)) return `half a ${COLOUR[sym[1]]} mana`;
    const p = sym.split("/");
    if (p.length === 2 && p[1] === "P" && COLOUR[p[0]]) return `one ${COLOUR[p[0]]} Phyrexian mana`;
    if (p.length === 2 && p[0] === "2" && COLOUR[p[1]]) return `two generic or one ${COLOUR[p[1]]} mana`;
    if (p.length === 2 && COLOUR[p[0]] && COLOUR[p[1]]) return `one ${COLOUR[p[0]]} or ${COLOUR[p[1]]} mana`;
    if (p.length === 3 && p[2] === "P" && COLOUR[p[0]] && COLOUR[p[1]]) {
      return `one ${COLOUR[p[0]]} or ${COLOUR[p[1]]} Phyrexian mana`;
    }
    return `{${sym}} symbol`;
  }

  const colourVar = (c) => (COLOUR[c] ? `var(--mana-${c})` : "var(--mana-generic)");

  /** One symbol as a styled element: a coloured disc, split diagonally for hybrids. */
  function symbolEl(sym) {
    const node = el("span", { class: "ms", role: "img", "aria-label": symbolLabel(sym), title: `{${sym}}` });
    const p = sym.split("/");
    const phyrexian = p.length > 1 && p[p.length - 1] === "P";
    const parts = phyrexian ? p.slice(0, -1) : p;
    if (phyrexian) node.classList.add("ms-phyrexian");
    if (parts.length === 2) {
      node.classList.add("ms-split");
      node.style.setProperty("--c1", colourVar(parts[0]));
      node.style.setProperty("--c2", colourVar(parts[1]));
      if (phyrexian) {
        node.append(el("span", { class: "ms-glyph", "aria-hidden": "true", text: "Φ" }));
      } else {
        node.append(
          el("span", { class: "ms-a", "aria-hidden": "true", text: parts[0] }),
          el("span", { class: "ms-b", "aria-hidden": "true", text: parts[1] }),
        );
      }
      return node;
    }
    let face = parts[0];
    let colour = face;
    if (/^H[WUBRGC]$/.test(face)) {
      node.classList.add("ms-halfmana");
      colour = face[1];
      face = face[1];
    }
    if (phyrexian) face = "Φ";
    if (sym === "?") node.classList.add("ms-unknown");
    node.style.setProperty("--c1", colourVar(colour));
    if (COLOUR[colour]) node.classList.add(`ms-${colour}`);
    if (face.length > 1) node.classList.add("ms-long");
    node.append(el("span", { class: "ms-glyph", "aria-hidden": "true", text: face }));
    return node;
  }

  const BRACES = /\{([^{}]*)\}/g;

  /**
   * A cost as the API writes it ("{1}{R}", "" for no mana cost, "{1}{R} // {1}{U}" for
   * a split card, "?" for a face the data lacks, null for unknown) drawn as symbols.
   */
  function manaCost(text, { short = false } = {}) {
    const wrap = el("span", { class: "mana" });
    const noCost = () => el("span", { class: "no-cost", title: "no mana cost (not {0})", text: short ? "no cost" : "no mana cost" });
    if (text === null || text === undefined) {
      wrap.append(symbolEl("?"));
      return wrap;
    }
    text.split(" // ").forEach((half, i) => {
      if (i) {
        wrap.append(el("span", { class: "mana-sep", "aria-hidden": "true", text: "//" }),
          el("span", { class: "visually-hidden", text: " and " }));
      }
      const h = half.trim();
      if (h === "?") wrap.append(symbolEl("?"));
      else if (h === "") wrap.append(noCost());
      else {
        const syms = [...h.matchAll(BRACES)].map((m) => m[1]);
        if (syms.length) syms.forEach((s) => wrap.append(symbolEl(s)));
        else wrap.append(el("span", { class: "no-cost", text: h }));
      }
    });
    return wrap;
  }

  const costSpeech = (syms) => syms.map(symbolLabel).join(", ");

  // ---------------------------------------------------------------- API
  class ApiError extends Error {
    constructor(body, status) {
      super(body.message || "error");
      this.name = "ApiError";
      this.body = body;
      this.status = status;
    }
  }

  async function getJSON(url, signal) {
    let resp;
    try {
      resp = await fetch(url, { signal, headers: { Accept: "application/json" } });
    } catch (e) {
      if (e.name === "AbortError") throw e;
      throw new ApiError({ code: "network", message: "The arbiter could not be reached; check the connection and try again." }, 0);
    }
    let body = null;
    try {
      body = await resp.json();
    } catch (e) {
      if (e.name === "AbortError") throw e;
    }
    if (!resp.ok) {
      const err = body && body.error && typeof body.error === "object" ? body.error
        : { code: `http_${resp.status}`, message: `The server answered ${resp.status} ${resp.statusText}.` };
      throw new ApiError(err, resp.status);
    }
    if (!body) throw new ApiError({ code: "bad_response", message: "The server sent an answer this page cannot read." }, resp.status);
    return body;
  }

  // ---------------------------------------------------------------- elements
  const form = $("lookup-form");
  const nameInput = $("name-input");
  const listbox = $("name-listbox");
  const costInput = $("cost-input");
  const costPreview = $("cost-preview");
  const formatSelect = $("format-select");
  const typeInput = $("type-input");
  const keywordInput = $("keyword-input");
  const gameInput = $("game-input");
  const statusEl = $("status");
  const results = $("results");
  const resultsTitle = $("results-title");
  const printedEl = $("printed-card");
  const costsEl = $("costs-block");
  const unknownEl = $("unknown-faces");
  const countLine = $("count-line");
  const table = $("candidates");
  const shownLine = $("shown-line");
  const moreButton = $("more-button");
  const allButton = $("all-button");
  const FIELD_INPUT = {
    printed: nameInput, name: nameInput, q: nameInput, cost: costInput, format: formatSelect,
    type: typeInput, keyword: keywordInput, game: gameInput,
  };
  const FIELD_LABEL = {
    printed: "Card name", name: "Card name", q: "Card name", cost: "Mana cost", format: "Format",
    type: "Type", keyword: "Keyword", game: "Game id",
  };
  const basePath = new URL(form.action, location.href).pathname;

  // Small polite live regions for the combobox and keypad (the main status stays for results).
  const comboLive = el("div", { class: "visually-hidden", "aria-live": "polite", id: "combo-live" });
  const keypadLive = el("div", { class: "visually-hidden", "aria-live": "polite", id: "keypad-live" });
  document.body.append(comboLive, keypadLive);

  // ---------------------------------------------------------------- status
  function showStatus(text, kind = "ok") {
    statusEl.className = `status is-${kind}`;
    statusEl.replaceChildren(text);
  }

  function fieldMessages(value) {
    if (Array.isArray(value)) return value.flatMap(fieldMessages);
    if (value && typeof value === "object") return Object.values(value).flatMap(fieldMessages);
    return value === null || value === undefined ? [] : [String(value)];
  }

  function showError(err) {
    const body = err instanceof ApiError ? err.body : { code: "page", message: String(err && err.message || err) };
    const parts = [el("strong", { text: "Error: " }), body.message || "something went wrong."];
    if (body.rule) parts.push(` (rule ${body.rule})`);
    const items = [];
    for (const [field, value] of Object.entries(body.fields || {})) {
      for (const msg of fieldMessages(value)) {
        if ((body.message || "").includes(msg)) continue; // e.g. the unknown name, already quoted
        items.push(el("li", {}, el("span", { class: "field-name", text: `${FIELD_LABEL[field] || field}: ` }), msg));
      }
      const input = FIELD_INPUT[field];
      if (input) input.setAttribute("aria-invalid", "true");
    }
    statusEl.className = "status is-error";
    statusEl.replaceChildren(el("p", {}, ...parts), items.length ? el("ul", { class: "error-fields" }, ...items) : "");
  }

  function clearInvalid() {
    for (const input of Object.values(FIELD_INPUT)) input.removeAttribute("aria-invalid");
  }

  // ---------------------------------------------------------------- cost box and keypad
  /** Read the cost box the way the server will: braces, shorthand, none or empty. */
  function readCost(text) {
    const t = text.trim();
    if (t === "") return { kind: "empty", syms: [] };
    if (t.toLowerCase() === "none") return { kind: "none", syms: [] };
    if (t.includes("{") || t.includes("}")) {
      const syms = [...t.matchAll(BRACES)].map((m) => m[1].trim().toUpperCase());
      if (!syms.length || t.replace(BRACES, "").trim()) return { kind: "invalid", syms: [] };
      return { kind: "symbols", syms };
    }
    const m = /^(\d*)([WUBRGCXYZS]*)$/i.exec(t);
    if (!m) return { kind: "invalid", syms: [] };
    const syms = (m[1] ? [String(Number(m[1]))] : []).concat([...m[2].toUpperCase()]);
    return { kind: "symbols", syms };
  }

  const writeCost = (syms) => syms.map((s) => `{${s}}`).join("");

  function updatePreview() {
    const r = readCost(costInput.value);
    if (r.kind === "empty") costPreview.replaceChildren(el("span", { class: "muted", text: "nothing yet" }));
    else if (r.kind === "none") costPreview.replaceChildren(el("span", { class: "no-cost", text: "no mana cost" }));
    else if (r.kind === "invalid") {
      costPreview.replaceChildren(el("span", { class: "muted", text: "not a cost this page can read; search to see why" }));
    } else {
      const wrap = el("span", { class: "mana" });
      r.syms.forEach((s) => wrap.append(symbolEl(s)));
      costPreview.replaceChildren(wrap);
    }
    return r;
  }

  function keypadSay() {
    const r = readCost(costInput.value);
    keypadLive.textContent = r.kind === "symbols" ? `Cost: ${costSpeech(r.syms)}`
      : r.kind === "none" ? "Cost: no mana cost" : r.kind === "empty" ? "Cost cleared" : `Cost: ${costInput.value}`;
  }

  function addSymbol(sym) {
    const r = readCost(costInput.value);
    if (r.kind === "invalid") {
      costInput.value = `${costInput.value}{${sym}}`;
    } else {
      const syms = r.syms.slice();
      const last = syms[syms.length - 1];
      // Two digits in a row make one number ({1} then {5} is {15}); a cost has one generic part.
      if (/^\d$/.test(sym) && last !== undefined && /^\d+$/.test(last) && last.length < 2) {
        syms[syms.length - 1] = String(Number(last + sym));
      } else {
        syms.push(sym);
      }
      costInput.value = writeCost(syms);
    }
    costInput.removeAttribute("aria-invalid");
    updatePreview();
    keypadSay();
  }

  function editCost(action) {
    const r = readCost(costInput.value);
    if (action === "clear") costInput.value = "";
    else if (action === "none") costInput.value = "none";
    else if (action === "backspace") {
      if (r.kind === "symbols") {
        const syms = r.syms.slice();
        const last = syms.pop();
        if (/^\d{2,}$/.test(last)) syms.push(last.slice(0, -1));
        costInput.value = writeCost(syms);
      } else if (r.kind === "none") costInput.value = "";
      else costInput.value = costInput.value.trimEnd().slice(0, -1);
    }
    costInput.removeAttribute("aria-invalid");
    updatePreview();
    keypadSay();
  }

  for (const key of document.querySelectorAll(".key[data-sym]")) {
    const sym = key.dataset.sym;
    key.setAttribute("aria-label", `Add ${symbolLabel(sym)}`);
    key.title = `{${sym}}`;
    key.replaceChildren(symbolEl(sym));
    key.addEventListener("click", () => addSymbol(sym));
  }
  for (const key of document.querySelectorAll(".key[data-action]")) {
    key.addEventListener("click", () => editCost(key.dataset.action));
  }
  // The keypad is one toolbar (one tab stop): arrows move within a row and between rows.
  const keypad = document.querySelector(".keypad");
  const rows = [...keypad.querySelectorAll(".keys")].map((g) => [...g.querySelectorAll(".key")]);
  const allKeys = rows.flat();
  const rove = (key) => {
    for (const k of allKeys) k.tabIndex = k === key ? 0 : -1;
    key.focus();
  };
  allKeys.forEach((k, i) => { k.tabIndex = i === 0 ? 0 : -1; });
  keypad.addEventListener("focusin", (ev) => {
    if (allKeys.includes(ev.target)) for (const k of allKeys) k.tabIndex = k === ev.target ? 0 : -1;
  });
  keypad.addEventListener("keydown", (ev) => {
    const i = allKeys.indexOf(ev.target);
    if (i < 0) return;
    const r = rows.findIndex((row) => row.includes(ev.target));
    const col = rows[r].indexOf(ev.target);
    let next = null;
    if (ev.key === "ArrowRight") next = allKeys[(i + 1) % allKeys.length];
    else if (ev.key === "ArrowLeft") next = allKeys[(i - 1 + allKeys.length) % allKeys.length];
    else if (ev.key === "ArrowDown" && r < rows.length - 1) next = rows[r + 1][Math.min(col, rows[r + 1].length - 1)];
    else if (ev.key === "ArrowUp" && r > 0) next = rows[r - 1][Math.min(col, rows[r - 1].length - 1)];
    else if (ev.key === "Home") next = allKeys[0];
    else if (ev.key === "End") next = allKeys[allKeys.length - 1];
    if (next) {
      ev.preventDefault();
      rove(next);
    }
  });

  costInput.addEventListener("input", () => {
    costInput.removeAttribute("aria-invalid");
    updatePreview();
  });

  // ---------------------------------------------------------------- name combobox (ARIA 1.2)
  const combo = { cards: [], active: -1, timer: 0, ctrl: null, seq: 0 };

  const isOpen = () => !listbox.hidden;

  function openList() {
    if (!combo.cards.length && !listbox.children.length) return;
    listbox.hidden = false;
    nameInput.setAttribute("aria-expanded", "true");
  }

  function closeList() {
    listbox.hidden = true;
    nameInput.setAttribute("aria-expanded", "false");
    nameInput.removeAttribute("aria-activedescendant");
    setActive(-1);
  }

  function cancelSuggest() {
    clearTimeout(combo.timer);
    combo.seq++;
    if (combo.ctrl) combo.ctrl.abort();
    combo.ctrl = null;
  }

  function setActive(i) {
    const options = listbox.querySelectorAll('[role="option"]');
    options.forEach((o, j) => o.setAttribute("aria-selected", j === i ? "true" : "false"));
    combo.active = i;
    if (i >= 0 && options[i]) {
      nameInput.setAttribute("aria-activedescendant", options[i].id);
      options[i].scrollIntoView({ block: "nearest" });
    } else {
      nameInput.removeAttribute("aria-activedescendant");
    }
  }

  function renderSuggestions(cards, q) {
    combo.cards = cards;
    combo.active = -1;
    nameInput.removeAttribute("aria-activedescendant");
    if (!cards.length) {
      listbox.replaceChildren(el("li", { class: "no-match", role: "option", "aria-disabled": "true",
        id: "name-opt-none", "aria-selected": "false", text: `No card matches “${q}”` }));
      combo.cards = [];
      openList();
      comboLive.textContent = "No matching card.";
      return;
    }
    listbox.replaceChildren(...cards.map((c, i) => {
      const fr = c.french_name && c.french_name !== c.name
        ? el("span", { class: "opt-fr", lang: "fr", text: c.french_name }) : null;
      const li = el("li", { id: `name-opt-${i}`, role: "option", "aria-selected": "false", class: "option" },
        el("span", { class: "opt-names" }, el("span", { class: "opt-name", text: c.name }), fr),
        manaCost(c.mana_cost, { short: true }));
      li.addEventListener("mousedown", (ev) => ev.preventDefault()); // keep focus in the input
      li.addEventListener("click", () => choose(i));
      return li;
    }));
    openList();
    comboLive.textContent = `${cards.length} suggestion${cards.length === 1 ? "" : "s"}; use the arrow keys to choose.`;
  }

  async function suggest(q) {
    cancelSuggest();
    const my = combo.seq;
    const ctrl = combo.ctrl = new AbortController();
    try {
      const data = await getJSON(`${API}/cards?${new URLSearchParams({ q, limit: SUGGEST_LIMIT })}`, ctrl.signal);
      if (my !== combo.seq || nameInput.value.trim() !== q) return;
      renderSuggestions(data.cards || [], q);
    } catch (e) {
      if (e.name === "AbortError" || my !== combo.seq) return;
      closeList();
      showError(e);
    }
  }

  function scheduleSuggest() {
    clearTimeout(combo.timer);
    const q = nameInput.value.trim();
    if (q.length < 2) {
      cancelSuggest();
      combo.cards = [];
      listbox.replaceChildren();
      closeList();
      return;
    }
    combo.timer = setTimeout(() => suggest(q), SUGGEST_DELAY);
  }

  function choose(i) {
    const card = combo.cards[i];
    if (!card) return;
    cancelSuggest();
    nameInput.value = card.name;
    closeList();
    runSearch("printed");
  }

  function move(delta) {
    const n = combo.cards.length;
    if (!n) return;
    let i = combo.active + delta;
    if (i >= n) i = 0;
    if (i < -1) i = n - 1;
    if (i === -1) i = delta > 0 ? 0 : n - 1;
    setActive(i);
  }

  nameInput.addEventListener("input", () => {
    nameInput.removeAttribute("aria-invalid");
    scheduleSuggest();
  });
  nameInput.addEventListener("keydown", (ev) => {
    if (ev.isComposing) return; // an input method is still composing the text
    switch (ev.key) {
      case "ArrowDown":
        ev.preventDefault();
        if (!isOpen()) {
          if (combo.cards.length) {
            openList();
            if (!ev.altKey) setActive(0);
          } else if (nameInput.value.trim().length >= 2) suggest(nameInput.value.trim());
        } else if (!ev.altKey) move(1);
        break;
      case "ArrowUp":
        if (isOpen()) {
          ev.preventDefault();
          if (ev.altKey) closeList();
          else move(-1);
        }
        break;
      case "Enter":
        ev.preventDefault();
        if (isOpen() && combo.active >= 0) choose(combo.active);
        else {
          cancelSuggest();
          closeList();
          runSearch("printed");
        }
        break;
      case "Escape":
        if (isOpen()) {
          ev.preventDefault();
          cancelSuggest();
          closeList();
        }
        break;
      case "Tab":
        closeList();
        break;
      default:
    }
  });
  nameInput.addEventListener("blur", () => closeList());

  // ---------------------------------------------------------------- search and results
  const state = {
    seq: 0, ctrl: null, renderToken: 0,
    params: null, // URLSearchParams of the query shown (or last asked)
    loaded: 0, // candidates fetched
    total: 0,
  };

  function filtersInto(p) {
    p.set("format", formatSelect.value);
    for (const [key, input] of [["type", typeInput], ["keyword", keywordInput], ["game", gameInput]]) {
      const v = input.value.trim();
      if (v) p.set(key, v);
      else p.delete(key);
    }
    return p;
  }

  function queryFromForm(mode) {
    const p = new URLSearchParams();
    if (mode === "printed") p.set("printed", nameInput.value.trim());
    else p.set("cost", costInput.value.trim());
    return filtersInto(p);
  }

  function urlFor(p) {
    return `${basePath}?${p.toString().replace(/\+/g, "%20")}`;
  }

  function setUrl(p, push) {
    const url = urlFor(p);
    if (url === location.pathname + location.search) return;
    history[push ? "pushState" : "replaceState"]({ q: p.toString() }, "", url);
  }

  function runSearch(mode, { push = true } = {}) {
    clearInvalid();
    if (mode === "printed" && !nameInput.value.trim()) {
      nameInput.setAttribute("aria-invalid", "true");
      showStatus("Type a card name first (English or French).", "error");
      nameInput.focus();
      return;
    }
    if (mode === "cost" && !costInput.value.trim()) {
      costInput.setAttribute("aria-invalid", "true");
      showStatus("Enter a mana cost first, or press None for a card with no mana cost.", "error");
      costInput.focus();
      return;
    }
    load(queryFromForm(mode), { push });
  }

  /** Run the query shown again with the current options (format, type, keyword, game). */
  function rerun() {
    if (!state.params) return;
    const p = filtersInto(new URLSearchParams(state.params));
    if (p.toString() === state.params.toString()) return;
    load(p, { push: true });
  }

  function setBusy(busy) {
    results.setAttribute("aria-busy", busy ? "true" : "false");
    document.body.classList.toggle("is-busy", busy);
  }

  function describeQuery(p) {
    const bits = [];
    if (p.has("type")) bits.push(`type ${p.get("type")}`);
    if (p.has("keyword")) bits.push(`keyword ${p.get("keyword")}`);
    if (p.has("game")) bits.push(`game ${p.get("game")}`);
    return bits.length ? ` (${bits.join(", ")})` : "";
  }

  async function load(p, { push }) {
    if (state.ctrl) state.ctrl.abort();
    const ctrl = state.ctrl = new AbortController();
    const my = ++state.seq;
    state.renderToken++;
    state.params = p;
    setUrl(p, push);
    setBusy(true);
    results.classList.add("is-stale");
    showStatus("Looking up…", "busy");
    const q = new URLSearchParams(p);
    q.set("limit", String(PAGE));
    q.set("offset", "0");
    try {
      const data = await getJSON(`${API}/candidates?${q}`, ctrl.signal);
      if (my !== state.seq) return;
      if (data.printed && p.get("printed") !== data.printed.name) {
        // a French or partial-case name: share the card's English name from now on
        if (nameInput.value.trim() === p.get("printed")) nameInput.value = data.printed.name;
        p.set("printed", data.printed.name);
        setUrl(p, false);
      }
      renderResults(data, p);
      const token = state.renderToken;
      await appendRows(data.candidates, token);
      if (token === state.renderToken) reveal();
      const what = data.printed ? data.printed.name : costLabel(p.get("cost"));
      const unknown = data.unknown_faces && data.unknown_faces.length
        ? ` Cost unknown for: ${data.unknown_faces.join(", ")}.` : "";
      showStatus(el("span", {},
        `${data.count.toLocaleString("en")} candidate name${data.count === 1 ? "" : "s"} for `, what,
        ` in ${data.format}${describeQuery(p)}.${unknown}`), "ok");
    } catch (e) {
      if (e.name === "AbortError" || my !== state.seq) return;
      results.hidden = true;
      showError(e);
      reveal(statusEl, "center");
    } finally {
      if (my === state.seq) {
        setBusy(false);
        results.classList.remove("is-stale");
      }
    }
  }

  /** Bring a result or an error into view when it is below the fold (phones, long forms). */
  function reveal(node = results, block = "start") {
    const rect = node.getBoundingClientRect();
    if (rect.top > window.innerHeight * 0.75 || rect.bottom < 0) {
      const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      node.scrollIntoView({ block, behavior: smooth ? "smooth" : "auto" });
    }
  }

  /** The cost a query asked for, drawn as symbols (for headings and the status line). */
  function costLabel(cost) {
    const r = readCost(cost || "");
    if (r.kind === "none" || r.kind === "empty") return el("span", { class: "no-cost", text: "no mana cost" });
    return r.kind === "symbols" ? manaCost(writeCost(r.syms)) : el("span", { text: cost });
  }

  function markEl(kind, text, title) {
    return el("span", { class: `mark mark-${kind}`, title, text });
  }

  function printedBlock(card) {
    const multi = card.faces.length > 1;
    const mm = card.mental_magic;
    const markText = mm === "banned" ? `Banned in Mental Magic${card.mental_magic_rule ? ` (${card.mental_magic_rule})` : ""}`
      : mm === "watched" ? `Watched${card.mental_magic_rule ? ` (${card.mental_magic_rule})` : " (706.4a)"}` : "Not on the Mental Magic list";
    const head = el("div", { class: "printed-head" },
      el("h3", { class: "printed-name" }, card.name),
      manaCost(card.mana_cost));
    const fr = card.french_name ? el("p", { class: "printed-fr" }, "French: ", el("span", { lang: "fr", text: card.french_name })) : null;
    const faces = el("ul", { class: "faces" }, ...card.faces.map((f) => el("li", { class: "face" },
      multi ? el("span", { class: "face-name" }, f.name, f.french_name ? el("span", { class: "muted", lang: "fr", text: ` (${f.french_name})` }) : null) : null,
      multi ? manaCost(f.cost_known ? f.mana_cost : null) : null,
      el("span", { class: "type-line", text: f.type_line || (f.cost_known ? "" : "face unknown to the card data") }))));
    const marks = el("p", { class: "printed-marks" }, "Mental Magic list: ",
      markEl(mm || "none", markText, mm === "watched" ? "706.4a: allowed, but watched" : null),
      card.layout && card.layout !== "normal" ? el("span", { class: "layout", text: ` Layout: ${card.layout}.` }) : null);
    return el("article", { class: "printed", "aria-label": `Printed card: ${card.name}` }, head, fr, faces, marks);
  }

  function renderResults(data, p) {
    for (const chunk of table.querySelectorAll(".chunk")) chunk.remove();
    state.loaded = 0;
    table.setAttribute("aria-rowcount", String(data.count + 1));
    state.total = data.count;
    document.title = `${data.printed ? data.printed.name : (p.get("cost") || "none")} — Card lookup — Mental Magic arbiter`;

    if (data.printed) {
      resultsTitle.replaceChildren(`Names for ${data.printed.name}`);
      printedEl.replaceChildren(printedBlock(data.printed));
    } else {
      resultsTitle.replaceChildren("Names for ", costLabel(p.get("cost")));
      printedEl.replaceChildren();
    }

    const costs = data.costs || [];
    costsEl.replaceChildren(
      el("h3", { class: "sub", text: data.printed ? "It may be named as a card costing" : "Matching costs" }),
      costs.length ? el("ul", { class: "cost-list" }, ...costs.map((c) => el("li", {}, manaCost(c))))
        : el("p", { class: "muted", text: "No cost: this card can't be named from its mana cost." }),
    );

    const unknown = data.unknown_faces || [];
    unknownEl.hidden = !unknown.length;
    unknownEl.replaceChildren(...(unknown.length ? [
      el("strong", { text: "Cost unknown: " }),
      `the card data lacks the mana cost of ${unknown.join(", ")}. `,
      unknown.length === 1 ? "That face offers no cost here, so names it could take are missing from this list."
        : "Those faces offer no cost here, so names they could take are missing from this list.",
    ] : []));

    countLine.replaceChildren(
      el("strong", { class: "count", text: data.count.toLocaleString("en") }),
      ` candidate${data.count === 1 ? "" : "s"} in `, el("strong", { text: data.format }), describeQuery(p), ".",
      data.count ? "" : el("span", { class: "muted", text: " No card of this format has a matching cost." }));
    table.hidden = data.count === 0;
    results.hidden = false;
    updateMore();
  }

  /** One candidate as an ARIA table row (divs laid out by CSS grid; see lookup.css). */
  function rowFor(c, index) {
    const cell = (cls, ...children) => el("div", { class: cls, role: "cell" }, ...children);
    const nameCell = cell("c-name", el("span", { class: "cand-name", text: c.name }));
    if (c.card && c.card !== c.name) nameCell.append(el("span", { class: "of-card", text: `half of ${c.card}` }));
    const fr = c.french_name
      ? cell("c-fr", el("span", { class: "label", "aria-hidden": "true", text: "French: " }),
        el("span", { lang: "fr", text: c.french_name }))
      : cell("c-fr is-empty", el("span", { class: "muted", "aria-hidden": "true", text: "—" }),
        el("span", { class: "visually-hidden", text: "no French name known" }));
    const marks = cell("c-marks");
    if (c.watched) marks.append(markEl("watched", "watched", "706.4a watch list: allowed, but flagged"));
    if (c.taken) marks.append(markEl("taken", "taken", "704.2: already named in this game"));
    const classes = ["cand-row", "cand", index % 2 ? "is-even" : "", c.taken ? "is-taken" : ""].join(" ").trim();
    return el("div", { class: classes, role: "row", "aria-rowindex": String(index + 2) },
      nameCell, cell("c-cost", manaCost(c.mana_cost, { short: true })), cell("c-type", c.type_line), fr, marks);
  }

  /** Append rows a chunk per frame; stops if a newer search started. Returns the first new row. */
  function appendRows(list, token) {
    return new Promise((resolve) => {
      let i = 0;
      let first = null;
      const step = () => {
        if (token !== state.renderToken) { resolve(null); return; }
        // Each chunk is its own row group; off-screen groups skip rendering (content-visibility).
        const end = Math.min(i + CHUNK, list.length);
        const chunk = el("div", { class: "chunk", role: "rowgroup" });
        chunk.style.setProperty("--rows", String(end - i));
        for (; i < end; i++) {
          const row = rowFor(list[i], state.loaded);
          if (!first) first = row;
          chunk.append(row);
          state.loaded++;
        }
        table.append(chunk);
        updateMore();
        if (i < list.length) requestAnimationFrame(step);
        else resolve(first);
      };
      step();
    });
  }

  function updateMore() {
    const left = state.total - state.loaded;
    shownLine.textContent = state.total ? `Showing ${state.loaded.toLocaleString("en")} of ${state.total.toLocaleString("en")}.` : "";
    moreButton.hidden = left <= 0;
    allButton.hidden = left <= PAGE;
    moreButton.textContent = `Show ${Math.min(PAGE, left)} more`;
    allButton.textContent = `Show all ${state.total.toLocaleString("en")}`;
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
    showStatus(all ? `Loading all ${state.total.toLocaleString("en")}…` : "Loading more…", "busy");
    try {
      const data = await getJSON(`${API}/candidates?${q}`, state.ctrl ? state.ctrl.signal : undefined);
      if (token !== state.renderToken) return;
      const first = await appendRows(data.candidates, token);
      if (first) {
        const target = first.querySelector(".cand-name");
        target.tabIndex = -1;
        target.focus({ preventScroll: false });
      }
      showStatus(`Showing ${state.loaded.toLocaleString("en")} of ${state.total.toLocaleString("en")} candidates.`, "ok");
    } catch (e) {
      if (e.name === "AbortError" || my !== state.seq) return;
      showError(e);
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
  for (const input of [typeInput, keywordInput, gameInput]) {
    input.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" || ev.isComposing) return;
      ev.preventDefault();
      if (state.params) rerun();
      else runSearch(inferMode());
    });
    input.addEventListener("change", () => rerun());
  }
  formatSelect.addEventListener("change", () => rerun());

  // ---------------------------------------------------------------- the URL
  function fromUrl(push) {
    const u = new URLSearchParams(location.search);
    const fmt = (u.get("format") || "").toLowerCase();
    if ([...formatSelect.options].some((o) => o.value === fmt)) formatSelect.value = fmt;
    typeInput.value = u.get("type") || "";
    keywordInput.value = u.get("keyword") || "";
    gameInput.value = u.get("game") || "";
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
      state.ctrl && state.ctrl.abort();
      state.params = null;
      state.renderToken++;
      results.hidden = true;
      statusEl.replaceChildren();
      statusEl.className = "status";
    }
  }

  window.addEventListener("popstate", () => fromUrl(false));
  fromUrl(false);
})();
