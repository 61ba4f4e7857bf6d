/* The console's command line: one line of text -> one API action (or undo), and its completions.
 *
 *   [player] verb [card] [words…]      e.g.  ana draw 2 · ben cast 3 as Shock · cara pentaland 5
 *
 * A player is a name's prefix (or p1, p2…); on a player's own seat it may be left out. A card is
 * its number on the page (#4 or 4) or the end of its id. The grammar is listed on the page.
 */

export const VIAS = ["morph", "megamorph", "disguise", "manifest", "cloak", "effect"];
const ZONE_WORDS = {
  hand: "hand", main: "hand", battlefield: "battlefield", bf: "battlefield", champ: "battlefield",
  graveyard: "graveyard", grave: "graveyard", gy: "graveyard", cimetiere: "graveyard", "cimetière": "graveyard",
  exile: "exile", stack: "stack", pile: "stack", library: "library", bibliotheque: "library",
  "bibliothèque": "library", command: "command", commandement: "command",
};
// English verbs, and French ones for a French table.
export const VERBS = {
  draw: "draw", pioche: "draw", cast: "cast", lance: "cast", play: "play", joue: "play",
  pentaland: "pentaland", name: "name", nomme: "name", up: "up", retourne: "up", move: "move", deplace: "move",
  "déplace": "move", discard: "graveyard", defausse: "graveyard", "défausse": "graveyard",
  reveal: "reveal", "révèle": "reveal", revele: "reveal", look: "look", regarde: "look",
  unreveal: "end_reveal", unlook: "end_look", leave: "leave", quitte: "leave", could: "could", pourrait: "could",
  shuffle: "shuffle", cut: "shuffle", "mélange": "shuffle", melange: "shuffle", coupe: "shuffle",
  choose: "choose", choisit: "choose", search: "search", cherche: "search",
  ...Object.fromEntries(VIAS.filter((v) => v !== "effect").map((v) => [v, "facedown"])),
  facedown: "facedown",
  ...Object.fromEntries(Object.keys(ZONE_WORDS).filter((w) => !["hand", "main"].includes(w)).map((w) => [w, "zone"])),
  hand: "zone", main: "zone",
};
export const MAIN_VERBS = ["draw", "cast", "play", "morph", "pentaland", "name", "up", "move", "grave", "exile",
  "hand", "library", "reveal", "look", "unreveal", "unlook", "leave", "could", "shuffle", "choose", "undo", "same"];

export class CommandError extends Error {}

/**
 * Parse ``line`` for ``ctx`` = {players: [{id, name}], seat: pid|null, card(ref) -> id|null}.
 * Returns {undo: true} or {action} (an API action body). Throws CommandError with a message key.
 */
export function parse(line, ctx) {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (!words.length) throw new CommandError("cmd.empty");
  if (["undo", "annule", "annuler"].includes(words[0].toLowerCase())) return { undo: true };
  if (["same", "meme", "même"].includes(words[0].toLowerCase())) {
    const ids = words.slice(1).map((w) => ctx.card(w));
    if (ids.length < 2) throw new CommandError("cmd.two_cards");
    if (ids.some((id) => !id)) throw new CommandError("cmd.unknown_card");
    return { query: { kind: "same", cards: ids } };
  }
  let player = findPlayer(words[0], ctx.players);
  if (player) words.shift();
  else if (ctx.seat) player = ctx.seat;
  else throw new CommandError("cmd.no_player");
  const said = (words.shift() || "").toLowerCase();
  const verb = VERBS[said];
  if (!verb) throw new CommandError("cmd.no_verb");
  const card = () => {
    const ref = words.shift();
    if (!ref) throw new CommandError("cmd.no_card");
    const id = ctx.card(ref);
    if (!id) throw new CommandError("cmd.unknown_card");
    return id;
  };
  const nameAfterAs = () => {
    const i = words.findIndex((w) => w.toLowerCase() === "as" || w.toLowerCase() === "comme");
    if (i < 0) return undefined;
    const name = words.slice(i + 1).join(" ");
    words.splice(i);
    return name || undefined;
  };
  const cards = () => {
    const ids = words.map((w) => ctx.card(w));
    if (!ids.length) throw new CommandError("cmd.no_card");
    if (ids.some((id) => !id)) throw new CommandError("cmd.unknown_card");
    return ids;
  };
  const pid = player;
  switch (verb) {
    case "draw": {
      if (!words.length) return { action: { type: "draw", player: pid, count: 1 } };
      if (words.length === 1 && /^\d+$/.test(words[0])) return { action: { type: "draw", player: pid, count: Number(words[0]) } };
      return { action: { type: "draw", player: pid, printed: words.join(" ") } };
    }
    case "cast":
    case "play": {
      const id = card();
      const name = nameAfterAs();
      return { action: { type: "move", player: pid, card: id, to: verb === "cast" ? "stack" : "battlefield",
        ...(name ? { name } : {}) } };
    }
    case "facedown": {
      const id = card();
      const via = said === "facedown" ? (words[0] && VIAS.includes(words[0]) ? words[0] : "morph") : said;
      return { action: { type: "move", player: pid, card: id, to: "battlefield", face_down: true, via } };
    }
    case "pentaland":
      return { action: { type: "move", player: pid, card: card(), to: "battlefield", pentaland: true } };
    case "name": {
      const id = card();
      if (!words.length) throw new CommandError("cmd.no_name");
      return { action: { type: "name", player: pid, card: id, name: words.join(" ") } };
    }
    case "up": {
      const id = card();
      let via;
      if (words.length && VIAS.includes(words[words.length - 1].toLowerCase())) via = words.pop().toLowerCase();
      const name = words.join(" ");
      return { action: { type: "turn_face_up", player: pid, card: id, ...(name ? { name } : {}), ...(via ? { via } : {}) } };
    }
    case "move":
    case "graveyard":
    case "zone": {
      const id = card();
      const name = nameAfterAs();
      const to = verb === "graveyard" ? "graveyard" : verb === "zone" ? ZONE_WORDS[said] : ZONE_WORDS[(words.shift() || "").toLowerCase()];
      if (!to) throw new CommandError("cmd.no_zone");
      const action = { type: "move", player: pid, card: id, to, ...(name ? { name } : {}) };
      const pos = (words[0] || "").toLowerCase();
      if (to === "library" && (pos === "bottom" || pos === "top")) action.position = pos;
      if (words.includes("facedown")) action.face_down = true;
      return { action };
    }
    case "reveal":
    case "look": {
      const continuous = words.length && words[words.length - 1].toLowerCase() === "continuous";
      if (continuous) words.pop();
      const extra = verb === "reveal" && continuous ? { continuous: true } : {};
      if ((words[0] || "").toLowerCase() === "top") {
        const n = Number(words[1] || 1);
        if (!Number.isInteger(n) || n < 1) throw new CommandError("cmd.no_count");
        return { action: { type: verb, player: pid, count: n, ...extra } };
      }
      return { action: { type: verb, player: pid, cards: cards(), ...extra } };
    }
    case "end_reveal":
    case "end_look":
      return { action: { type: verb, player: pid, cards: cards() } };
    case "shuffle": {
      // 701.1b: a shuffle is a cut; a number is the cut seen at the table (judge)
      if (words.length && !/^\d+$/.test(words[words.length - 1])) throw new CommandError("cmd.no_count");
      return { action: { type: "shuffle", player: pid, ...(words.length ? { at: Number(words[words.length - 1]) } : {}) } };
    }
    case "search":
      return { action: { type: "search", player: pid } }; // refused with 701.1a: the page shows why
    case "choose": {
      const id = card();
      if (!words.length) throw new CommandError("cmd.no_name");
      return { action: { type: "name", player: pid, card: id, name: words.join(" "), choice: true } };
    }
    case "could": {
      if (!words.length) throw new CommandError("cmd.no_name");
      return { query: { kind: "could", player: pid, name: words.join(" ") } };
    }
    case "leave": {
      if ((words[0] || "").toLowerCase() === "returned") words.shift();
      const returned = words.length ? cards() : [];
      return { action: { type: "leave_game", player: pid, ...(returned.length ? { returned } : {}) } };
    }
    default:
      throw new CommandError("cmd.no_verb");
  }
}

const fold = (s) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** A player by id (p2) or by the start of their name, when only one name starts so. */
export function findPlayer(word, players) {
  const w = fold(word);
  const byId = players.find((p) => p.id === w);
  if (byId) return byId.id;
  const exact = players.filter((p) => fold(p.name) === w);
  if (exact.length === 1) return exact[0].id;
  const hits = players.filter((p) => fold(p.name).startsWith(w));
  return hits.length === 1 ? hits[0].id : null;
}

/**
 * What may come next: [{line, label}] completions of the whole line. ``ctx`` as for parse, plus
 * cards: [{ref, label, zone?}] and names(cardId, prefix) -> Promise<[name]> for what follows "as" or "name".
 */
export async function complete(line, ctx) {
  const words = line.split(/\s+/);
  const last = words.pop() || "";
  const head = words.length ? `${words.join(" ")} ` : "";
  const low = fold(last);
  const out = [];
  const add = (text, label = text) => { if (fold(text).startsWith(low) && fold(text) !== low) out.push({ line: head + text, label }); };
  let i = 0;
  if (!words.length) {
    for (const p of ctx.players) add(p.name.split(/\s+/)[0].toLowerCase(), p.name);
    add("undo");
    add("same");
    if (ctx.seat) for (const v of MAIN_VERBS) add(v);
    return out.slice(0, 20);
  }
  if (findPlayer(words[0], ctx.players)) i = 1;
  const verbWord = (words[i] || "").toLowerCase();
  if (words.length === i) {
    for (const v of MAIN_VERBS.filter((x) => x !== "undo" && x !== "same")) add(v);
    return out;
  }
  const verb = VERBS[verbWord];
  const rest = words.slice(i + 1);
  const wantsCard = verb && verb !== "draw" && !(verb === "reveal" || verb === "look") ? rest.length === 0
    : (verb === "reveal" || verb === "look" || verb === "end_reveal" || verb === "end_look" || verb === "leave");
  const asAt = rest.findIndex((w) => ["as", "comme"].includes(w.toLowerCase()));
  const naming = ((verb === "name" || verb === "choose") && rest.length >= 1) || (asAt >= 0) || (verb === "up" && rest.length >= 1);
  if (naming && ctx.names) {
    const cardId = ctx.card(rest[0]);
    const start = verb === "name" || verb === "choose" || verb === "up" ? 1 : asAt + 1;
    const typed = [...rest.slice(start), last].join(" ");
    const base = `${words.slice(0, i + 1 + start).join(" ")} `;
    if (cardId && typed.length >= 1) {
      for (const n of await ctx.names(cardId, typed)) out.push({ line: base + n.name, label: n.label || n.name, disabled: n.disabled });
    }
    return out.slice(0, 20);
  }
  if (wantsCard) {
    // what is cast or played comes from a hand (cards without a zone are offered everywhere)
    const fromHand = ["cast", "play", "facedown", "pentaland"].includes(verb);
    for (const c of ctx.cards) if (!fromHand || !c.zone || c.zone === "hand") add(c.ref, `${c.ref} ${c.label}`);
    return out.slice(0, 20);
  }
  if (verb === "move" && rest.length === 1) for (const z of ["hand", "battlefield", "graveyard", "exile", "stack", "library", "command"]) add(z);
  if ((verb === "cast" || verb === "play") && rest.length === 1) add("as");
  if (verb === "up" && rest.length >= 1) for (const v of VIAS) add(v);
  return out.slice(0, 20);
}
