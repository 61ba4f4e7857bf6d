/* The console's command line. Actions go to the server as text (POST /games/{id}/line): the
 * grammar is the terminal's (mentalmagic/grammar.py), so both read `ben cast 3 as Shock` alike.
 * Here: the two questions the page answers itself (705.10, 705.11), the seat's implied player,
 * and completions built from the grammar's suggestion (GET …/suggest) and the page's cards.
 */

export class CommandError extends Error {}

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
 * The questions: `same 3 4` (705.10) and `[player] could NAME` (705.11); null for any other line.
 * ``ctx`` = {players: [{id, name}], seat: pid|null, card(ref) -> id|null}.
 */
export function query(line, ctx) {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return null;
  if (["same", "meme", "même"].includes(words[0].toLowerCase())) {
    const ids = words.slice(1).map((w) => ctx.card(w));
    if (ids.length < 2) throw new CommandError("cmd.two_cards");
    if (ids.some((id) => !id)) throw new CommandError("cmd.unknown_card");
    return { kind: "same", cards: ids };
  }
  let player = findPlayer(words[0], ctx.players);
  const rest = player ? words.slice(1) : words;
  if (!["could", "pourrait"].includes((rest[0] || "").toLowerCase())) return null;
  player = player || ctx.seat;
  if (!player) throw new CommandError("cmd.no_player");
  if (rest.length < 2) throw new CommandError("cmd.no_name");
  return { kind: "could", player, name: rest.slice(1).join(" ") };
}

/** On a player's own seat the line may leave the player out: `draw 2` is theirs. */
export function withSeat(line, ctx) {
  const first = line.trim().split(/\s+/)[0] || "";
  if (!ctx.seat || first.toLowerCase() === "undo" || findPlayer(first, ctx.players)) return line.trim();
  return `${ctx.seat} ${line.trim()}`;
}

// the verbs whose card comes from a hand, in both languages (grammar.py's FRENCH_VERBS: `ana lance 3`)
const CAST = new Set(["cast", "play", "pentaland", "lance", "lancer", "joue", "jouer"]);

/**
 * Completions [{line, label}] of ``line`` from the grammar's suggestion ``s`` ({kind, prefix, words}):
 * its words, or the page's cards (``ctx.cards``: [{ref, label, zone, owner}]) or a card's candidate names
 * (``ctx.names(cardId, typed)`` -> Promise<[{name, label}]>).
 */
export async function completions(line, s, ctx) {
  const head = line.slice(0, line.length - s.prefix.length);
  const low = fold(s.prefix);
  const words = line.trim().split(/\s+/);
  if (s.kind === "card") {
    // what is cast or played comes from that player's hand
    const fromHand = CAST.has(fold(words[1] || ""));
    const pid = findPlayer(words[0] || "", ctx.players);
    return ctx.cards.filter((c) => (!fromHand || (c.zone === "hand" && (!pid || !c.owner || c.owner === pid)))
      && fold(c.ref).startsWith(low.replace(/^#?/, "#")))
      .slice(0, 20).map((c) => ({ line: `${head}${c.ref} `, label: `${c.ref} ${c.label}` }));
  }
  if (s.kind === "name") {
    const cardId = ctx.card(words[2] || "");
    if (!cardId || !s.prefix) return [];
    return (await ctx.names(cardId, s.prefix)).map((n) => ({ line: `${line.slice(0, line.length - s.prefix.length)}${n.name}`, label: n.label }));
  }
  return s.words.filter((w) => fold(w) !== low).slice(0, 20).map((w) => ({ line: `${head}${w} `, label: w }));
}
