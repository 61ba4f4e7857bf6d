/* The game page: every player and zone, the command line and the card menu, names, the log.
 * It polls GET /games/{id} with If-None-Match about every second and redraws what changed.
 * The token: the link's fragment (#token=…, a player's seat) or the judge's, kept by this browser.
 */
import { $, el } from "./dom.js";
import { ApiError, getJSON } from "./api.js";
import { call, savedGames } from "./call.js";
import { cardView } from "./cardview.js";
import { Combobox } from "./combobox.js";
import { confirmFirst } from "./confirm.js";
import { keeping } from "./keep.js";
import { leavingNames, namesAsked } from "./leaving.js";
import { download, gameText } from "./export.js";
import { consequences, describe as describeEvent, endWords, lossOf, lossWords } from "./gamelog.js";
import { CommandError, completions, query, withSeat } from "./commandline.js";
import { givenName, lang, localName, num, saidName, t } from "./i18n.js";
import { manaCost } from "./mana.js";
import { loadSeries, savedSeries, seriesGames, seriesLabel } from "./series.js";
import { Status } from "./status.js";
import { citeWords, ruleRef } from "./rules.js";
import { syncLanguageLinks } from "./langswitch.js";
import { keepAwake } from "./awake.js";
import { originChoice, seatCodeButton, seats } from "./seats.js";

const GAME = document.querySelector('meta[name="game-id"]').content;
const ZONES = ["hand", "battlefield", "stack", "graveyard", "exile", "command", "library", "removed"];
const POLL_MS = 1000;
// a poll that has no answer by then counts as the server out of reach (a laptop gone from the Wi-Fi
// leaves a request hanging for minutes, and no other poll would start meanwhile)
const POLL_TIMEOUT_MS = 8000;
const unreachable = (e) => e instanceof ApiError && [0, 502, 504].includes(e.status);
const fold = (s) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

// The language switch goes through the server, which never sees a fragment: a seat's token is
// carried over in this tab's sessionStorage and put back into the address.
const CARRY = "mentalmagic.fragment";
const carried = sessionStorage.getItem(CARRY);
sessionStorage.removeItem(CARRY);
if (carried && !location.hash) history.replaceState(null, "", `${location.pathname}${location.search}${carried}`);
for (const a of document.querySelectorAll("a.lang-link")) {
  a.addEventListener("click", () => { if (location.hash) sessionStorage.setItem(CARRY, location.hash); });
}
const fragment = new URLSearchParams(location.hash.slice(1));
const saved = savedGames()[GAME] || null;
const token = fragment.get("token") || (saved && saved.judge_token) || null;

const gameStatus = new Status($("game-status"));
const cmdStatus = new Status($("command-status"));
const cardStatus = new Status($("card-status"));

const S = { game: null, etag: null, events: [], names: [], handle: new Map(), byHandle: new Map(), looks: new Map(), selected: null,
  cands: null, busy: false, undoing: false, stale: false, offline: false };
const info = new Map(); // printed name -> a promise of the card's JSON (GET /cards), for text cards
const localPrinted = new Map(); // printed name -> the card's JSON once known, for French names

const isJudge = () => S.game && S.game.you === "judge";
const seat = () => (S.game && !isJudge() ? S.game.you : null);
const playerName = (pid) => (S.game && (S.game.players.find((p) => p.id === pid) || {}).name) || pid || "—";
const cardById = (id) => S.game && S.game.cards.find((c) => c.id === id);
const pstatus = (s) => (t(`pstatus.${s}`).startsWith("pstatus.") ? s : t(`pstatus.${s}`));
const ref = (id) => (S.handle.has(id) ? `#${S.handle.get(id)}` : id);

/** A card in the log: its number, and its name when everybody knows it (a commander, 903.3). */
function cardWords(id) {
  const c = cardById(id);
  return c && c.commander && printedLabel(c) ? `${ref(id)} ${printedLabel(c)}` : ref(id);
}
const localNamed = new Map(); // a name given in the game -> its card's JSON, for its French name

const nameWords = (name) => givenName(name, localNamed.get(name));

const logCtx = { who: playerName, card: cardWords, name: nameWords };
const describe = (e) => describeEvent(e, logCtx);
const finished = () => S.game && S.game.status === "finished";
const formatWords = (f) => (f === "all" ? t("format.all") : f); // the others are the formats' own names

// -- the API -------------------------------------------------------------------------------------
const api = (method, path, body) => call(method, `/games/${encodeURIComponent(GAME)}${path}`, { token, body });

async function cardInfo(name) {
  if (!name) return null;
  if (!info.has(name)) info.set(name, getJSON(`/cards/${encodeURIComponent(name)}`).catch(() => null));
  return info.get(name);
}

/** Each card's number in the grammar (its place in the library at the start, from the server). */
function number() {
  S.handle.clear();
  S.byHandle.clear();
  for (const c of S.game.cards) {
    if (c.handle == null) continue;
    S.handle.set(c.id, c.handle);
    S.byHandle.set(c.handle, c.id);
  }
  // who is looking at what (702.2c): the view has no field for it, the log has
  S.looks = new Map();
  for (const e of S.events) {
    for (const id of e.data.cards || []) {
      if (e.type === "look") S.looks.set(id, new Set([...(S.looks.get(id) || []), e.data.looker || e.player]));
      if (e.type === "end_look") S.looks.delete(id);
    }
  }
}

/** The judge's view lists the whole library; the page shows only what is revealed or looked at. */
const shown = (c) => c.zone !== "library" || c.revealed || S.looks.has(c.id);

function findCard(word) {
  const w = word.replace(/^#/, "");
  if (/^\d+$/.test(w) && S.byHandle.has(Number(w))) return S.byHandle.get(Number(w));
  const hits = S.game.cards.filter((c) => c.id === w || (w.length >= 3 && c.id.endsWith(w)));
  return hits.length === 1 ? hits[0].id : null;
}

async function poll(force = false) {
  if ((S.busy && !force) || S.stale) return;
  S.busy = true;
  try {
    const got = await call("GET", `/games/${encodeURIComponent(GAME)}`, { token, etag: force ? null : S.etag,
      timeout: POLL_TIMEOUT_MS });
    // a version already drawn (a forced poll crossing the timer's) is not drawn again: that would wipe
    // what the judge is typing in the page's fields
    if (got.status !== 304 && !(got.etag && got.etag === S.etag)) {
      const [events, names] = await Promise.all([api("GET", "/events"), api("GET", "/names")]);
      S.game = got.body;
      S.etag = got.etag;
      S.events = events.body.events;
      S.names = names.body.names;
      number();
      const printed = [...new Set(S.game.cards.map((c) => c.printed).filter(Boolean))];
      (await Promise.all(printed.map(cardInfo))).forEach((card, i) => localPrinted.set(printed[i], card));
      const named = [...new Set(S.names.map((n) => n.name))].filter((n) => !localNamed.has(n));
      (await Promise.all(named.map(cardInfo))).forEach((card, i) => { if (card) localNamed.set(named[i], card); });
      render();
    }
    if (S.offline || $("game-status").classList.contains("is-error")) gameStatus.clear();
    S.offline = false;
  } catch (e) {
    // the laptop out of reach (its server stopped, the phone off its Wi-Fi): said, and the next polls
    // catch up by themselves once it answers (the ETag says what this page has drawn), with no reload
    S.offline = unreachable(e);
    if (S.offline) gameStatus.show(t("game.reconnecting"), "busy");
    else if (e instanceof ApiError && e.status === 401) noSeat("game.token_stale"); // a reissued seat's old link
    else gameStatus.error(e);
  } finally {
    S.busy = false;
  }
}

// -- drawing ---------------------------------------------------------------------------------------
function printedLabel(c) {
  if (!c.printed) return null;
  const card = localPrinted.get(c.printed);
  return card ? localName(card) : c.printed;
}

function marks(c) {
  const out = [];
  if (c.named_as) out.push(el("span", { class: "mark mark-named", text: t("game.named", { name: nameWords(c.named_as) }) }));
  // MageRing: the names it dropped as it left the battlefield or the stack (only where the caller sees the card, D15)
  if (c.earlier_names && c.earlier_names.length) {
    out.push(el("span", { class: "mark mark-named", text: t("game.earlier_names", { names: c.earlier_names.map(nameWords).join(", ") }) }));
  }
  if (c.pentaland) out.push(el("span", { class: "mark mark-pentaland", text: t("game.pentaland") }));
  else if (c.face_down) out.push(el("span", { class: "mark mark-facedown", text: t("game.face_down") }));
  if (c.revealed) out.push(el("span", { class: "mark mark-revealed", text: t("game.revealed") }));
  const lookers = S.looks && S.looks.get(c.id);
  if (lookers && lookers.size) {
    out.push(el("span", { class: "mark mark-revealed", text: t("game.looked", { names: [...lookers].map(playerName).join(", ") }) }));
  }
  return out;
}

function cardButton(c) {
  const label = printedLabel(c);
  const b = el("button", { type: "button", class: `game-card${S.selected === c.id ? " is-selected" : ""}`,
    "data-card": c.id, "aria-pressed": S.selected === c.id ? "true" : "false" },
    el("span", { class: "handle", text: ref(c.id) }), " ",
    label ? el("span", { class: "card-name", text: label }) : el("span", { class: "card-name muted", text: t("game.hidden") }),
    " ", ...marks(c),
    c.zone !== "hand" && c.owner ? el("span", { class: "owner muted", text: ` ${t("game.owner_controller",
      { owner: playerName(c.owner), controller: playerName(c.controller || c.owner) })}` }) : null);
  b.addEventListener("click", () => select(c.id));
  b.addEventListener("mouseenter", () => preview(c, b));
  b.addEventListener("focus", () => preview(c, b));
  b.addEventListener("mouseleave", hidePreview);
  b.addEventListener("blur", hidePreview);
  return b;
}

function cardList(cards, label) {
  if (!cards.length) return el("p", { class: "muted empty", text: t("game.empty") });
  return el("ul", { class: "card-list", "aria-label": label }, ...cards.map((c) => el("li", {}, cardButton(c))));
}

/** The rule set in force, and its own source's rule for each aspect where it differs (docs/rule-sets.md). */
function rulesLine(r) {
  const parts = r.differs.map((d) => t(`rules.aspect.${d.aspect}`, { rule: citeWords(d.rule), land: r.land.name }));
  const source = t(`rules.source.${r.key}`); // the catalogue's words, else the document's own title
  const line = t("rules.line", { source: source === `rules.source.${r.key}` ? r.source : source });
  return line + (parts.length ? ` — ${t("rules.differs", { list: parts.join(", ") })}` : "");
}

/** The game's series, game by game with the names taken in each, where this browser keeps its token
 * (the console that made it); read again when this game changed. */
let seriesSeen = null;
async function showSeries(g) {
  const id = g.options && g.options.series;
  if (!id || seriesSeen === `${id}.${g.seq}`) return;
  seriesSeen = `${id}.${g.seq}`;
  try {
    const view = await loadSeries(id);
    if (!view) return seatSeries(g);
    $("series").replaceChildren(el("h3", { text: seriesLabel(id, { ...savedSeries()[id], ...view }) }),
      ...(await seriesGames(view, { current: g.id })));
    $("series-panel").hidden = false;
  } catch (e) {
    gameStatus.error(e);
  }
}

/** A seat, which holds no series token: the names the series' other games took (Xom 6), from the game. */
function seatSeries(g) {
  const taken = g.series_names || [];
  if (!taken.length) return;
  $("series").replaceChildren(el("h3", { text: t("series.taken_before") }),
    el("ul", { class: "series-names" }, ...taken.map((n) => el("li", { text: nameWords(n.name) }))));
  $("series-panel").hidden = false;
}

/** The game drawn anew, what the judge is typing, the focus and the caret kept (keep.js). */
function render() {
  keeping(draw);
}

function draw() {
  const g = S.game;
  $("seat").replaceChildren(isJudge() ? t("game.seat_judge", { id: g.id })
    : t("game.seat_player", { name: playerName(g.you), id: g.id }));
  document.title = t("game.title", { id: g.id });
  $("undo-button").hidden = !isJudge();
  const example = (seat() ? playerName(seat()) : g.players[0].name).split(/\s+/)[0].toLowerCase();
  $("command-input").placeholder = t("command.placeholder", { name: example });
  $("links-panel").hidden = !isJudge();
  // players
  $("players").replaceChildren(...g.players.map((p) => {
    const mine = (z) => g.cards.filter((c) => c.zone === z && c.owner === p.id).length;
    const controls = g.cards.filter((c) => ["battlefield", "stack"].includes(c.zone) && (c.controller || c.owner) === p.id).length;
    return el("li", { class: `player status-${p.status}` },
      el("strong", { text: p.name }), el("span", { class: "muted", text: ` ${p.id}` }),
      p.team ? el("span", { class: "muted", text: ` · ${t("game.team", { team: p.team })}` }) : null,
      el("span", { class: "mark", text: pstatus(p.status) }),
      el("span", { text: ` ${t("game.hand_size", { n: mine("hand") })} · ${t("game.controls", { n: controls })}`
        + ` · ${t("game.owns", { n: g.cards.filter((c) => c.owner === p.id && c.zone !== "removed").length })}` }),
      p.id === g.you ? el("span", { class: "mark mark-you", text: t("game.you") }) : null,
      leaveButton(p), outReason(p), commanderLine(g, p), damageForm(g, p));
  }));
  renderEnd(g);
  keepAwake(!finished());
  $("format").textContent = t("game.format", { format: formatWords(g.format) });
  $("library-line").textContent = t("game.library", { n: g.library_size });
  $("rules-line").textContent = g.rules ? rulesLine(g.rules) : "";
  $("turn-line").textContent = g.turn ? t("game.turn", { n: g.turn.number, who: playerName(g.turn.player) }) : "";
  showSeries(g);
  // zones
  const sections = [];
  for (const z of ZONES) {
    const cards = g.cards.filter((c) => c.zone === z && shown(c)).sort((a, b) => S.handle.get(a.id) - S.handle.get(b.id));
    if (!cards.length && !["hand", "battlefield", "stack", "graveyard"].includes(z)) continue;
    const title = t(`zone.${z}`);
    const body = z === "hand" || z === "graveyard"
      ? g.players.map((p) => el("div", { class: "sub-zone" },
        el("h4", { text: t("game.of_player", { zone: title, name: p.name }) }),
        cardList(cards.filter((c) => c.owner === p.id), t("game.of_player", { zone: title, name: p.name }))))
      : [cardList(cards, title)];
    sections.push(el("section", { class: `zone zone-${z}`, "aria-label": title }, el("h3", { text: title }), ...body));
  }
  $("zones").replaceChildren(...sections);
  // names
  $("names").replaceChildren(...(S.names.length ? S.names.map((n) => el("li", {},
    el("strong", { text: nameWords(n.name), title: lang === "fr" && nameWords(n.name) !== n.name ? n.name : null }),
    ` — ${playerName(n.player)} (${ref(n.card)})`,
    n.exception ? el("span", { class: "mark", text: ` ${n.exception}` }) : null,
    n.rule === "D14(e)" ? el("span", { class: "mark", text: ` ${t("game.commander_name")}` }) : null))
    : [el("li", { class: "muted", text: t("game.no_names") })]));
  // the log, and whether anything but undo may be done
  for (const node of [$("command-input"), $("command-submit"), $("end-button"), $("turn-button")]) {
    node.disabled = finished();
  }
  $("end-button").hidden = !isJudge() || finished();
  $("turn-button").hidden = !isJudge() || finished();
  $("log").replaceChildren(...S.events.slice().reverse().map((e) => el("li", { class: "event" },
    el("span", { class: "seq", text: `${num(e.seq)}. ` }), describe(e),
    e.rule ? el("span", { class: "rule" }, ...ruleRef(e.rule)) : null)));
  // links
  if (isJudge()) renderLinks();
  if (S.selected) {
    if (cardById(S.selected)) renderPanel();
    else closePanel();
  }
}

/** D9: a player leaves; what they control only through an effect goes back by the command line's "returned". */
/** A commander game's line for a player (D14): each commander, the identity names must keep to
 * (903.5c), casts from the command zone and the next tax (903.8), combat damage taken (903.10a). */
function commanderLine(g, p) {
  if (!p.commanders || !p.commanders.length) return null;
  const byId = new Map(g.cards.map((c) => [c.id, c]));
  const cardName = (id) => {
    const c = byId.get(id);
    return c ? `#${c.handle} ${printedLabel(c) || ""}`.trim() : id;
  };
  const identity = p.color_identity.length ? manaCost(p.color_identity.map((x) => `{${x}}`).join(""))
    : el("span", { text: t("game.colourless") });
  const parts = p.commanders.map((id) => t("game.commander_casts", {
    name: cardName(id), n: p.commander_casts[id] || 0, tax: p.commander_tax[id] || "{0}" }));
  const damage = Object.entries(p.commander_damage || {}).map(([id, n]) => t("game.commander_damage",
    { name: cardName(id), n }));
  return el("div", { class: "commander-line" },
    el("span", { text: `${t("game.commander")} ${parts.join(" · ")} · ${t("game.identity")} ` }), identity,
    damage.length ? el("span", { text: ` · ${damage.join(", ")}` }) : null);
}

/** Why a player is out of the game, from the log: the loss and its rule, or the departure (D9). */
function outReason(p, tag = "p") {
  if (p.status === "in_game") return null;
  const e = S.events.slice().reverse().find((x) => lossOf(x, p.id) || (x.type === "leave_game" && x.data.player === p.id));
  if (!e) return null;
  const loss = lossOf(e, p.id); // a leaver whose card cost another the game left: their own words
  const words = loss ? lossWords(loss, e, logCtx) : t("log.leave", { who: p.name });
  const rule = loss ? loss.rule : e.rule;
  return el(tag, { class: "out-reason" }, words, ...(rule ? ruleRef(rule) : []));
}

/** The end of the game, for everyone at the table: who won or remains, who is out and why (104.2a). */
function renderEnd(g) {
  const box = $("game-end");
  const wasHidden = box.hidden;
  box.hidden = !finished();
  if (!finished()) return;
  const out = g.players.filter((p) => p.status !== "in_game");
  $("game-end-title").textContent = t("end.title");
  $("game-end-body").replaceChildren(
    el("p", { class: "end-result" }, endWords(g.finished, logCtx),
      ...(g.finished.rule ? ruleRef(g.finished.rule) : [])),
    out.length ? el("ul", { class: "end-out" }, ...out.map((p) => el("li", {}, el("strong", { text: p.name }), " — ",
      outReason(p, "span") || pstatus(p.status)))) : null,
    el("p", { class: "hint", text: t(isJudge() ? "end.read_only_judge" : "end.read_only") }),
    isJudge() ? undoButton() : null);
  if (wasHidden && isJudge()) $("game-end-title").focus();
}

function undoButton() {
  const b = el("button", { type: "button", class: "undo-now", text: t("end.undo") });
  b.addEventListener("click", undo);
  return b;
}

/** 903.10a from the player's row: combat damage a commander dealt this player, in one step. */
function damageForm(g, p) {
  if (!p.commanders || p.status !== "in_game" || finished() || !isJudge()) return null;
  const others = g.players.filter((q) => q.id !== p.id).flatMap((q) => q.commanders || []);
  if (!others.length) return null;
  const sel = el("select", { id: `damage-from-${p.id}`, class: "damage-from" },
    ...others.map((id) => el("option", { value: id, text: cardWords(id) })));
  // empty, never a default a typed amount adds to ("1" then 10 read 110); a placeholder says what goes there
  const amount = el("input", { type: "number", id: `damage-n-${p.id}`, class: "damage-n", min: 1, max: 1000,
    required: true, placeholder: t("damage.placeholder"), inputmode: "numeric" });
  const b = el("button", { type: "submit", class: "small", text: t("damage.record") });
  const form = el("form", { id: `damage-${p.id}`, class: "damage-form", "aria-label": t("damage.for", { name: p.name }) },
    el("label", { for: sel.id, text: t("damage.from") }), sel,
    el("label", { for: amount.id, text: t("damage.amount") }), amount, b);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const n = Number(amount.value);
    // recorded: the redraw kept the amount typed, which is now done with (a refusal keeps it, to correct)
    if (await send({ type: "commander_damage", player: p.id, commander: sel.value, amount: n },
      t("damage.tried", { name: p.name, n, commander: cardWords(sel.value) }), cmdStatus) && $(form.id)) $(form.id).reset();
  });
  return form;
}

function leaveButton(p) {
  if (p.status !== "in_game" || finished() || !(isJudge() || seat() === p.id)) return null;
  const b = el("button", { type: "button", class: "small leave", text: t("game.leave"),
    "aria-label": t("game.leave_for", { name: p.name }) });
  b.addEventListener("click", () => send({ type: "leave_game", player: p.id }, t("game.leave_for", { name: p.name }), cmdStatus));
  return b;
}

/** Each player's link and its QR code (seats.js: built with an address the phones reach), and a new token. */
function renderLinks() {
  originChoice($("origin-field"), $("origin-select"), () => keeping(renderLinks));
  $("links").replaceChildren(...seats(GAME, S.game.players).map((p) => {
    const reissue = el("button", { type: "button", class: "small", text: t("links.reissue"),
      "aria-label": t("links.reissue_for", { name: p.name }) });
    reissue.addEventListener("click", async () => {
      if (!(await confirmFirst(t("links.reissue_for", { name: p.name }),
        [t("confirm.reissue", { name: p.name }), t("confirm.reissue_undo")], t("confirm.yes_reissue")))) return;
      try {
        const { body } = await api("POST", `/players/${encodeURIComponent(p.id)}/token`, {});
        const all = savedGames();
        const g = all[GAME] || { players: [] };
        g.players = (g.players || []).filter((q) => q.id !== p.id).concat([{ id: p.id, name: p.name, token: body.token }]);
        all[GAME] = g;
        localStorage.setItem("mentalmagic.games", JSON.stringify(all));
        keeping(renderLinks);
        gameStatus.show(t("links.reissued", { name: p.name }));
      } catch (e) {
        gameStatus.error(e);
      }
    });
    return el("li", { class: "link-row", "data-player": p.id }, el("strong", { text: p.name }), " ",
      p.link ? el("a", { href: p.link, class: "player-link", "data-player": p.id, text: t("links.open", { name: p.name }) })
        : el("span", { class: "muted", text: t("links.unknown") }), " ", reissue,
      p.link ? seatCodeButton(p.link, p.name, (e) => gameStatus.error(e)) : null);
  }));
}

// -- the text card on hover or focus -------------------------------------------------------------
async function preview(c, anchor) {
  if (!c.printed) return;
  const card = await cardInfo(c.printed);
  if (!card || document.activeElement !== anchor && !anchor.matches(":hover")) return;
  const box = $("preview");
  box.replaceChildren(cardView(card, { heading: "p" }));
  box.hidden = false;
  const r = anchor.getBoundingClientRect();
  const left = Math.min(window.scrollX + r.left, window.scrollX + document.documentElement.clientWidth - box.offsetWidth - 8);
  box.style.setProperty("--x", `${Math.max(8, left)}px`);
  box.style.setProperty("--y", `${window.scrollY + r.bottom + 6}px`);
}

function hidePreview() {
  $("preview").hidden = true;
}

// -- the card menu --------------------------------------------------------------------------------
async function select(id) {
  S.selected = id;
  S.cands = null;
  $("name-input").value = "";
  $("face-up-box").hidden = true;
  cardStatus.clear();
  $("card-panel").hidden = false;
  render();
  $("card-panel-title").focus();
}

function closePanel() {
  const id = S.selected;
  S.selected = null;
  $("card-panel").hidden = true;
  const back = id && document.querySelector(`[data-card="${id}"]`);
  if (back) back.focus();
}

/** Who acts on a card when the judge clicks it: the holder of a hand, else its controller. */
const actorOf = (c) => seat() || (c.zone === "hand" ? c.owner : c.controller || c.owner) || S.game.players[0].id;

function renderPanel() {
  const c = cardById(S.selected);
  $("card-panel-title").textContent = t("panel.title", { card: ref(c.id) });
  const facts = [
    t("panel.zone", { zone: t(`zone.${c.zone}`) }),
    c.owner ? t("panel.owner", { name: playerName(c.owner) }) : null,
    c.controller ? t("panel.controller", { name: playerName(c.controller) }) : null,
  ].filter(Boolean);
  const printedFacts = [
    c.printed ? t("panel.printed", { name: printedLabel(c) }) : t("game.hidden"),
    c.mana_value != null ? t("panel.mana_value", { n: c.mana_value }) : null,
    c.colors ? t("panel.colours", { c: c.colors.length ? c.colors.map((x) => t(`colour.${x}`)).join(", ") : t("colour.C") }) : null,
  ].filter(Boolean);
  // a face-down card (708.2) or a Pentaland (703.4) is colourless with mana value 0 where it is;
  // its printed card is what its controller and the judge see, apart
  const seenAs = c.zone !== "hand" && c.zone !== "library" && (c.pentaland ? "panel.table_pentaland"
    : c.face_down ? "panel.table_face_down" : null);
  $("card-facts").replaceChildren(el("ul", { class: "facts" }, ...facts.map((f) => el("li", { text: f })),
    seenAs ? el("li", { class: "table-sees", text: t(seenAs) }) : null,
    ...(seenAs ? [el("li", { class: "printed-heading", text: t("panel.printed_apart") }),
      el("li", {}, el("ul", { class: "facts printed-facts" }, ...printedFacts.map((f) => el("li", { text: f }))))]
      : printedFacts.map((f) => el("li", { text: f }))),
    el("li", {}, ...marks(c))));
  $("card-text").replaceChildren();
  if (c.printed) {
    cardInfo(c.printed).then((card) => {
      if (card && S.selected === c.id) $("card-text").replaceChildren(cardView(card, { heading: "h3" }));
    });
  }
  const inHidden = c.zone === "hand" || c.zone === "library";
  // a name is asked for where an action here may take one: cast, play, resolve, name
  $("outside-field").hidden = S.game.format !== "commander";
  $("name-input").closest(".field").hidden = !(c.printed && !c.named_as && !c.commander && !(c.face_down && !inHidden))
    || (seat() && ![c.owner, c.controller].includes(seat()));
  const acts = [];
  const act = (key, action) => acts.push([key, action]);
  const named = () => ($("name-input").value.trim() ? { name: $("name-input").value.trim() } : {});
  if (c.commander) commanderActions(c, acts);
  else {
    if (c.zone === "hand") {
      act("cast", () => ({ type: "move", card: c.id, to: "stack", ...named() }));
      act("play", () => ({ type: "move", card: c.id, to: "battlefield", ...named() }));
      act("morph", () => ({ type: "move", card: c.id, to: "battlefield", face_down: true, via: "morph" }));
      act("pentaland", () => ({ type: "move", card: c.id, to: "battlefield", pentaland: true }));
    }
    if (c.zone === "stack") act("resolve", () => ({ type: "move", card: c.id, to: "battlefield", ...named() }));
    if (inHidden && !c.named_as) act("name", () => ({ type: "name", card: c.id, name: $("name-input").value.trim() }));
    if (c.face_down && !c.pentaland && !inHidden) acts.push(["face_up", null]);
    for (const z of ["hand", "graveyard", "exile", "library"]) {
      // leaving a hand face up or going to a graveyard asks for the name in the same step (705.2, 705.3)
      if (c.zone !== z) act(`to_${z}`, () => ({ type: "move", card: c.id, to: z, ...named() }));
    }
  }
  if (!c.revealed && inHidden) act("reveal", () => ({ type: "reveal", cards: [c.id] }));
  if (c.revealed) act("end_reveal", () => ({ type: "end_reveal", cards: [c.id] }));
  if (c.zone === "library" && !c.revealed) act("look", () => ({ type: "look", cards: [c.id] }));
  if (S.looks && S.looks.has(c.id)) act("end_look", () => ({ type: "end_look", cards: [c.id] }));
  const mine = !seat() || [c.owner, c.controller].includes(seat());
  // a player acts on their own cards only; a finished game takes nothing, nor a card out of the game (D9)
  const out = c.zone === "removed";
  if (!mine || finished() || out) acts.length = 0;
  if (out || finished()) {
    $("face-up-box").hidden = true;
    $("name-input").closest(".field").hidden = true;
  }
  $("card-actions").replaceChildren(...acts.map(([key, build, vars]) => {
    const label = t(`action.${key}`, vars || {});
    const b = el("button", { type: "button", "data-action": key, text: label });
    b.addEventListener("click", () => (build ? send({ ...build(), player: actorOf(c) }, label, cardStatus)
      : faceUpChoices(c)));
    return b;
  }));
}

/** A commander's card menu (D14): played as itself, never named; cast from the command zone with the
 * next tax shown (903.8); elsewhere, back to the command zone, its owner's choice (903.9a, 903.9b). */
function commanderActions(c, acts) {
  const move = (to) => () => ({ type: "move", card: c.id, to });
  if (c.zone === "command") {
    const p = S.game.players.find((q) => (q.commanders || []).includes(c.id));
    acts.push(["cast_commander", move("stack"), { tax: (p && p.commander_tax && p.commander_tax[c.id]) || "{0}" }]);
    return;
  }
  if (c.zone === "hand") acts.push(["cast", move("stack")], ["play", move("battlefield")]);
  if (c.zone === "stack") acts.push(["resolve", move("battlefield")]);
  acts.push(["to_command", move("command"), { rule: ["hand", "library"].includes(c.zone) ? "903.9b" : "903.9a" }]);
  for (const z of ["hand", "graveyard", "exile", "library"]) if (c.zone !== z) acts.push([`to_${z}`, move(z)]);
}

/** 705.4: the names this face-down card may take now, the 705.4a exception or the game loss, in words. */
async function faceUpChoices(c) {
  const box = $("face-up-box");
  box.hidden = false;
  box.replaceChildren(el("p", { text: t("status.busy") }));
  try {
    const { body } = await api("GET", `/cards/${encodeURIComponent(c.id)}/face-up`);
    const parts = [el("p", { class: "advice" }, body.advice, ...ruleRef(body.rule))];
    if (body.exception) parts.push(el("p", { class: "mark-exception", text: t("faceup.exception") }));
    if (body.loses) {
      parts.push(el("p", { class: "mark-loss", text: t("faceup.loses", { name: playerName(c.controller || c.owner) })
        + (body.why ? ` ${t(`loss.why.${body.why}`)}` : "") }));
      const b = el("button", { type: "button", text: t("faceup.turn_unnamed") });
      b.addEventListener("click", () => send({ type: "turn_face_up", card: c.id, player: actorOf(c) }, t("faceup.turn_unnamed"), cardStatus));
      parts.push(b);
    }
    // every legal name: the allowed ones enabled (a taken one only because 705.4a opens it, said so),
    // the others disabled with who took them (704.2)
    const takers = new Map(S.names.map((n) => [fold(n.name), n.player]));
    const french = new Map((lang === "fr" ? (await candidates(c.id).catch(() => null)) || [] : [])
      .map((k) => [k.name, k.french_name]));  // the legal names are the printed card's candidates (705.4)
    const allowed = new Set(body.allowed);
    const names = [...body.allowed, ...(body.legal || []).filter((n) => !allowed.has(n))];
    const list = el("ul", { class: "choices", "aria-label": t("faceup.allowed") }, ...names.map((name) => {
      const by = takers.get(fold(name));
      const open = allowed.has(name);
      const why = by ? t(open ? "faceup.opened" : "game.taken_by", { name: playerName(by) }) : null;
      const said = saidName(name, french.get(name));
      const b = el("button", { type: "button", class: "small", disabled: !open, title: said !== name ? name : null,
        "aria-describedby": null }, el("span", { lang: french.get(name) ? lang : "en", text: said }),
      why ? el("span", { class: "mark mark-taken", text: ` ${why}` }) : null);
      if (open) {
        b.addEventListener("click", () => send({ type: "turn_face_up", card: c.id, name, player: actorOf(c) },
          t("faceup.tried", { name: said }), cardStatus));
      }
      return el("li", {}, b);
    }));
    if (names.length) parts.push(el("p", { text: t("faceup.allowed") }), list);
    box.replaceChildren(...parts);
  } catch (e) {
    box.replaceChildren();
    cardStatus.error(e);
  }
}

/** The legal candidates of a card (704.1) with the names taken marked, and who took them; with
 * ``query``, those the search keeps (the API's q, docs/search.md: `t:goblin is:free`). */
async function candidates(cardId, query = "") {
  const c = cardById(cardId);
  if (!c || !c.printed) return null;
  const outside = $("outside-check").checked;
  if (S.cands && S.cands.id === cardId && S.cands.seq === S.game.seq && S.cands.outside === outside
    && S.cands.query === query) return S.cands.list;
  const params = { printed: c.printed, game: GAME, format: S.game.format };
  if (query) params.q = query;
  if (S.game.options && S.game.options.phyrexian_as_hybrid) params.phyrexian_as_hybrid = "true";
  const commander = S.game.format === "commander";
  // within the namer's identity (903.5c); the others only when asked, after them and shut
  const [body, all] = await Promise.all([getJSON("/candidates", commander ? { ...params, player: actorOf(c) } : params),
    commander && outside ? getJSON("/candidates", params) : null]);
  const takers = new Map(S.names.map((n) => [fold(n.name), n.player]));
  const within = new Set(body.candidates.map((k) => k.name));
  const apart = all ? all.candidates.filter((k) => !within.has(k.name)).map((k) => ({ ...k, outside: true })) : [];
  const list = [...body.candidates, ...apart].map((k) => ({ ...k, takenBy: k.taken ? takers.get(fold(k.name)) : null }));
  if (!query) S.cands = { id: cardId, seq: S.game.seq, outside, query, list };
  return list;
}

// What reads as a search rather than the start of a name: a key (t:, pow>=), a quote, a group, a
// negation or an `or`. A plain name is matched here, on the card's whole list, kept.
const SEARCH_SYNTAX = /[:<>=!"()]|(^|\s)-|\s(or|and)\s/i;

/** The names a typed text finds among a card's candidates: a search asked of the server, else a name. */
async function findNames(cardId, typed) {
  if (SEARCH_SYNTAX.test(typed)) return ((await candidates(cardId, typed.trim())) || []).slice(0, 20);
  return matchCandidates((await candidates(cardId)) || [], typed);
}

function matchCandidates(list, q) {
  const f = fold(q);
  const starts = list.filter((k) => fold(k.name).startsWith(f) || (k.french_name && fold(k.french_name).startsWith(f)));
  const within = list.filter((k) => !starts.includes(k) && (fold(k.name).includes(f) || (k.french_name && fold(k.french_name).includes(f))));
  return starts.concat(within).slice(0, 20);
}

/** Nothing typed yet: the names still free (neither taken nor outside the identity), in the page's
 * language's order, a first page of them. */
const freeNames = (list) => list.filter((k) => !k.taken && !k.outside)
  .sort((a, b) => localName(a).localeCompare(localName(b), lang)).slice(0, 20);

/** Who took a taken candidate: a player of this game, or another game of its series (Xom 6). */
const takenMark = (k) => (k.taken_in ? t("game.taken_in", { game: k.taken_in })
  : t("game.taken_by", { name: playerName(k.takenBy) }));

function candidateOption(k) {
  return [el("span", { class: "opt-names" }, el("span", { class: "opt-name", text: localName(k) }),
    lang === "fr" && k.french_name ? el("span", { class: "opt-fr", lang: "en", text: k.name }) : null),
  manaCost(k.mana_cost, { short: true }),
  k.taken ? el("span", { class: "mark mark-taken", text: takenMark(k) }) : null,
  k.outside ? el("span", { class: "mark mark-taken", text: t("name.outside") }) : null];
}

/** A card's names to choose from as the card menu offers them: its candidates, a taken one shown but
 * not chosen (704.2; 705.4a opens some only as a face-down card turns up), nor one outside the namer's
 * colour identity (903.5c). */
const nameChoices = {
  fetch: async (cardId, q) => (q ? findNames(cardId, q) : freeNames((await candidates(cardId)) || [])),
  render: candidateOption,
  disabled: (k) => k.taken || k.outside,
  onDisabled: (k) => (k.outside ? t("name.outside_why", { name: localName(k) })
    : k.taken_in ? t("name.taken_in_why", { name: localName(k), game: k.taken_in })
      : t("name.taken_why", { name: localName(k), who: playerName(k.takenBy) })),
  chosen: (k) => localName(k), // a French name on a French page: the server reads either
};

const nameBox = new Combobox($("name-input"), $("name-listbox"), {
  ...nameChoices,
  openOnFocus: true, // the free names at once, before anything is typed
  fetch: (q) => nameChoices.fetch(S.selected, q),
  onChoose: (k) => { $("name-input").value = k.name; },
  onDisabled: (k) => cardStatus.show(nameChoices.onDisabled(k), "error"),
  onEnter: () => {},
  onError: (e) => cardStatus.error(e),
});
void nameBox;

// -- acting ---------------------------------------------------------------------------------------
/** Send one action; on a refusal show the rule and why next to what was tried; nothing changed. */
async function send(action, tried, status) {
  status.show(t("game.sending"), "busy");
  try {
    const names = mayEndAGame(action)
      ? await askFirst((n) => api("POST", "/actions?dry_run=1", withNames(action, n)), tried, status) : {};
    if (!names) return false;
    const { body } = await api("POST", "/actions", withNames(action, names));
    await poll(true);
    done(status, body.event);
    return true;
  } catch (e) {
    refused(status, tried, e);
    return false;
  }
}

/** Actions that may end a player's game (D8, 903.10a, D9) or the game: asked about first. */
function mayEndAGame(a) {
  if (["leave_game", "end_game", "commander_damage", "turn_face_up"].includes(a.type)) return true;
  const c = a.card && cardById(a.card);
  return a.type === "move" && !!c && c.face_down && !c.pentaland;
}

/** A preview's consequences in words, asked once. ``preview(names)`` is the action's dry run with
 * ``names`` ({card: name}) for the face-down cards of a player who leaves or loses (D12), which the
 * dialog asks for when the preview does (leaving.js). The names to go ahead with ({} when none were
 * asked, and at once when nothing follows), or null when the judge said no. */
async function askFirst(preview, tried, status) {
  let body = null;
  let asked = null;
  try {
    ({ body } = await preview({}));
  } catch (e) {
    asked = namesAsked(e);
    if (!asked) throw e;
  }
  const part = asked && leavingNames(asked, { preview, said: (b) => consequences(b, logCtx), choices: nameChoices,
    label: (id) => t("leaving.name_of", { card: [ref(id), printedLabel(cardById(id) || {})].filter(Boolean).join(" ") }) });
  const lines = part ? part.lines : consequences(body, logCtx);
  if (!lines.length) return {};
  const yes = await confirmFirst(tried, lines, part ? part.yes : t("confirm.yes"), part);
  if (!yes) status.show(t("confirm.cancelled"));
  return !yes ? null : part ? part.names() : {};
}

/** ``action`` with the names given to a leaver's face-down cards (D12), when any were asked. */
const withNames = (action, names) => (Object.keys(names).length ? { ...action, names: { ...action.names, ...names } } : action);

/** ``line`` with the names given to a leaver's face-down cards: its `naming C as NAME` clauses (D12). */
const withNaming = (line, names) => [line, ...Object.entries(names).map(([id, name]) => `naming ${ref(id)} as ${name}`)].join(" ");

/** ``what`` as the middle of a sentence the catalogue ends: no full stop of its own ("(D7).."). */
const clause = (what) => String(what).replace(/[.\s]+$/, "");

/** What was done, said once: the statuses of what was done before are cleared (a card menu's action
 * leaves no "Done" of the command line behind, nor an old refusal). After a loss or the end, the undo
 * is offered at the top, by the command line, where Ctrl+Z also works. */
function done(status, event) {
  S.undoing = false;
  const ends = event && (event.data.game_loss || ["leave_game", "end_game"].includes(event.type));
  const where = ends ? cmdStatus : status;
  for (const other of [cmdStatus, cardStatus]) if (other !== where) other.clear();
  where.show(t("done", { what: clause(describe(event)) }));
  if (ends && isJudge()) {
    const b = el("button", { type: "button", class: "small undo-now", text: t("end.undo") });
    b.addEventListener("click", undo);
    where.node.append(" ", b);
  }
}

function refused(status, tried, e) {
  status.error(e);
  status.node.prepend(el("p", { class: "tried" }, el("strong", { text: `${t("tried")} ` }), el("code", { text: tried })));
  if (e instanceof ApiError && e.status === 409) status.node.prepend(el("p", { class: "refused", text: t("refused") }));
}

/** Take back the last event. Right after an undo, one more is asked first, naming the event it
 * would take back: a second Ctrl+Z never undoes a further event without a word. */
async function undo() {
  const last = S.events[S.events.length - 1];
  if (S.undoing && last && !(await confirmFirst(t("undo.again_title"),
    [t("undo.again", { seq: last.seq, what: clause(describe(last)) })], t("undo.again_yes")))) {
    cmdStatus.show(t("confirm.cancelled"));
    return;
  }
  cmdStatus.show(t("game.sending"), "busy");
  try {
    const { body } = await api("POST", "/undo", {});
    await poll(true);
    undone(body.undone);
  } catch (e) {
    refused(cmdStatus, "undo", e);
  }
}

/** An event taken back, said in the command status; what was said of the actions since is stale. */
function undone(event) {
  S.undoing = true;
  cardStatus.clear();
  $("face-up-box").hidden = true;
  cmdStatus.show(t("undone", { what: clause(describe(event)), seq: event.seq }));
}

/** Questions answered without naming: 705.11 (could a card of this hand be X?) and 705.10. */
async function ask(q, line) {
  try {
    if (q.kind === "could") {
      const { body } = await api("GET", `/could-be?${new URLSearchParams({ player: q.player, name: q.name })}`);
      const vars = { who: playerName(q.player), name: body.name, cards: body.cards.map(ref).join(" ") };
      cmdStatus.show(t(body.taken ? "ask.could_taken" : body.cards.length ? "ask.could_yes" : "ask.could_no", vars));
    } else {
      const { body } = await api("GET", `/same-name?${new URLSearchParams({ cards: q.cards.join(",") })}`);
      cmdStatus.show(t(body.same_name ? "ask.same_yes" : "ask.same_no", { cards: q.cards.map(ref).join(" ") }));
    }
  } catch (e) {
    refused(cmdStatus, line, e);
  }
}

const ctx = () => ({
  players: S.game ? S.game.players : [],
  seat: seat(),
  card: findCard,
  cards: S.game ? S.game.cards.filter((c) => S.handle.has(c.id) && shown(c))
    .sort((a, b) => S.handle.get(a.id) - S.handle.get(b.id)).map((c) => ({ ref: `#${S.handle.get(c.id)}`, label: printedLabel(c) || c.named_as || t(`zone.${c.zone}`), zone: c.zone, owner: c.owner })) : [],
  names: async (cardId, typed) => (await findNames(cardId, typed)).map((k) => ({
    name: localName(k), label: k.taken ? `${saidName(k.name, k.french_name)} — ${takenMark(k)}`
      : saidName(k.name, k.french_name) })),
});

async function runCommand() {
  const input = $("command-input");
  const line = input.value.trim();
  if (!line || !S.game) return;
  let q;
  try {
    q = query(line, ctx());
  } catch (e) {
    if (!(e instanceof CommandError)) throw e;
    cmdStatus.show(el("span", {}, el("strong", { text: `${t("tried")} ` }), el("code", { text: line }), " — ", t(e.message)), "error");
    input.setAttribute("aria-invalid", "true");
    return;
  }
  if (q) {
    await ask(q, line);
    return;
  }
  const ok = await sendLine(withSeat(line, ctx()));
  if (ok) input.value = "";
  else if (ok === false) input.setAttribute("aria-invalid", "true"); // null: the judge said no, nothing is wrong
}

/** A line of the grammar, read and decided by the server; a refusal shows its rule next to the line. */
async function sendLine(line) {
  cmdStatus.show(t("game.sending"), "busy");
  try {
    const names = await askFirst((n) => api("POST", "/line?dry_run=1", { line: withNaming(line, n) }), line, cmdStatus);
    if (!names) return null;
    const { body } = await api("POST", "/line", { line: withNaming(line, names) });
    await poll(true);
    if (body.undone) undone(body.undone);
    else done(cmdStatus, body.event);
    return true;
  } catch (e) {
    refused(cmdStatus, line, e);
    return false;
  }
}

/** The line as the grammar reads it (a seat's player put first), and how many letters were added. */
function withSeatForSuggest(text) {
  const first = text.trim().split(/\s+/)[0] || "";
  const c = ctx();
  if (!c.seat || !text.trim() || findPlayerIn(first)) return { text, added: 0 };
  const prefix = `${c.seat} `;
  return { text: prefix + text.replace(/^\s+/, ""), added: prefix.length };
}

const findPlayerIn = (word) => S.game && S.game.players.some((p) => p.id === word.toLowerCase()
  || p.name.toLowerCase().startsWith(word.toLowerCase()));

const cmdInput = $("command-input");
cmdInput.addEventListener("keydown", (ev) => {
  // Tab takes the highlighted (or first) completion while the list is open
  if (ev.key === "Tab" && !ev.shiftKey && cmdBox.isOpen() && cmdBox.items.length) {
    ev.preventDefault();
    cmdBox.choose(Math.max(0, cmdBox.active));
  }
});
const cmdBox = new Combobox(cmdInput, $("command-listbox"), {
  fetch: async () => { // untrimmed: after "ana cast " comes a card
    const line = withSeatForSuggest(cmdInput.value);
    const { body } = await api("GET", `/suggest?${new URLSearchParams({ line: line.text })}`);
    return (await completions(line.text, body, ctx())).map((c) => ({ ...c, line: c.line.slice(line.added) }));
  },
  render: (item) => [el("span", { class: "opt-name", text: item.label })],
  onChoose: (item) => { cmdInput.value = item.line; cmdInput.focus(); },
  onEnter: runCommand,
  onError: (e) => cmdStatus.error(e),
  quietWhenEmpty: true, // "ana draw 2" has nothing left to complete, and nothing wrong
  live: $("command-live"),
});

$("command-form").addEventListener("submit", (ev) => { ev.preventDefault(); runCommand(); });
$("undo-button").addEventListener("click", undo);
$("export-text").addEventListener("click", () => download(`game-${GAME}.txt`, gameText(
  { game: S.game, events: S.events, names: S.names },
  { ...logCtx, describe, endWords: (f) => endWords(f, logCtx),
    outWords: (p) => { const r = outReason(p); return r ? `${pstatus(p.status)} — ${r.textContent}` : pstatus(p.status); },
    cardLine: (c) => [ref(c.id), printedLabel(c) || t("game.hidden"), ...marks(c).map((m) => m.textContent),
      c.owner ? t("game.owner_controller", { owner: playerName(c.owner), controller: playerName(c.controller || c.owner) })
        : ""].filter(Boolean).join(" ") }), "text/plain"));
// the judge's JSON is the game's whole record (GET /games/{id}/export), which another laptop imports;
// a seat's, what the seat sees (D15: no library order, nothing to rebuild the game from)
$("export-json").addEventListener("click", async () => {
  let record = { game: S.game, events: S.events, names: S.names };
  if (isJudge()) {
    try {
      record = (await call("GET", `/games/${encodeURIComponent(GAME)}/export`, { token })).body;
    } catch (e) {
      if (e instanceof ApiError) { cmdStatus.error(e); return; }
      throw e;
    }
  }
  download(`game-${GAME}.json`, JSON.stringify(record, null, 1), "application/json");
});
$("end-button").addEventListener("click", () => send({ type: "end_game" }, t("game.end"), cmdStatus));
// the judge keeps turns (issue 32): the next player still in, in seat order, after the active one
$("turn-button").addEventListener("click", () => {
  const g = S.game;
  const inGame = g.players.filter((p) => p.status === "in_game");
  const at = g.turn ? inGame.findIndex((p) => p.id === g.turn.player) : -1;
  const next = inGame[(at + 1) % inGame.length];
  if (next) send({ type: "turn", player: next.id }, t("game.next_turn"), cmdStatus);
});
$("close-card").addEventListener("click", closePanel);
document.addEventListener("keydown", (ev) => {
  const typing = ev.target.matches("input, textarea") && ev.target.value;
  if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "z" && !ev.shiftKey && !typing && isJudge()) {
    ev.preventDefault();
    undo();
  } else if (ev.key === "Escape" && !$("card-panel").hidden && !ev.target.matches('[role="combobox"]')) {
    closePanel();
  }
});

/** A page with no seat (no token, or one the judge replaced): what to do, and no tool that can't work. */
function noSeat(why) {
  S.stale = true;
  gameStatus.show(t(why), "error");
  $("command-form").closest("section").hidden = true;
  $("undo-button").hidden = true;
}

async function start() {
  syncLanguageLinks();
  if (!token) {
    noSeat("game.no_token");
    return;
  }
  await poll(true);
  setInterval(poll, POLL_MS);
}

start();
