/* The log in words: what each event changed and why, the loss and the end of a game (issue 20).
 * ``who(pid)`` names a player, ``card(id)`` a card as this page numbers it. */
import { t } from "./i18n.js";

const VIA = ["morph", "megamorph", "disguise", "manifest", "cloak", "effect"];
const via = (v) => (VIA.includes(v) ? t(`via.${v}`) : v);

/** Why a player is out: a loss (its rule and reason) or a departure, in a sentence. */
export function lossWords(loss, e, { who, card }) {
  const name = who(loss.player);
  if (loss.rule === "903.10a") {
    return t("loss.commander_damage", { who: name, total: e.data.total, commander: card(e.data.commander) });
  }
  const why = loss.why ? ` ${t(`loss.why.${loss.why}`)}` : "";
  return t("loss.d8", { who: name }) + why;
}

/** The game losses an event records: its game_loss, then each loss that one caused in turn (a leaver's
 * card with no legal name left costs its player the game, D8), as game.py's game_losses. */
export function gameLosses(e) {
  const out = [];
  for (let loss = (e.data || {}).game_loss; loss; loss = loss.game_loss) out.push(loss);
  return out;
}

/** The loss of player ``pid`` an event records, or null. */
export const lossOf = (e, pid) => gameLosses(e).find((loss) => loss.player === pid) || null;

/** What leaves with a player who is out (D9). */
export function departureWords(d, { who }) {
  const n = (d.removed || []).length;
  return t("loss.departure", { who: who(d.player), n });
}

/** The end of the game (104.2a, or the judge's end), in a sentence. */
export function endWords(finished, { who }) {
  if (!finished) return "";
  if (finished.by === "judge") return t("end.by_judge");
  const names = (finished.winners || []).map(who);
  return names.length ? t("end.winners", { names: names.join(", "), n: names.length }) : t("end.no_winner");
}

/** One event in words; the rule is shown beside it by the caller. */
export function describe(e, ctx) {
  const d = e.data || {};
  const { who: name, card } = ctx;
  const said = ctx.name || ((n) => n);  // a given name in the page's language (game.js)
  const who = name(e.player || d.player);
  const named = d.naming && d.naming.name ? ` ${t("log.named", { name: said(d.naming.name) })}` : "";
  const exception = d.naming && d.naming.exception ? ` ${t("log.exception")}` : "";
  // MageRing: a card that left the battlefield or the stack drops its name; Xom 4: a Utopia is named so
  const unnamed = d.unnamed && d.unnamed.name ? ` ${t("log.unnamed", { name: said(d.unnamed.name) })}` : "";
  const landName = d.land_name ? ` ${t("log.named", { name: d.land_name })}` : "";
  const losses = gameLosses(e).map((l) => lossWords(l, e, ctx)).join(" ");
  const loss = losses ? ` — ${losses}` : "";
  // 704.4: a name given again names nothing; the note says the name it already has
  const note = d.note ? ` ${t("log.already_named", { name: said((d.note_params || {}).name || d.name || "") })}` : "";
  switch (e.type) {
    case "draw":
      return t("log.draw", { who, n: (d.cards || []).length, cards: (d.cards || []).map(card).join(" ") });
    case "move": {
      if (d.commander_cast) {
        return t("log.commander_cast", { who, card: card(d.card), count: d.commander_cast.count,
          tax: d.commander_cast.tax });
      }
      if (d.to === "command") return t("log.to_command", { who, card: card(d.card), from: t(`zone.${d.from}`) });
      let how = "";
      if (d.pentaland) how = ` ${t(d.from === "hand" && d.to === "battlefield" ? "log.as_pentaland" : "log.still_pentaland")}`;
      else if (d.face_down && d.via) how = ` ${t("log.face_down_via", { via: via(d.via) })}`;
      else if (d.face_down) how = ` ${t("game.face_down")}`;
      const revealed = d.revealed ? ` ${t("log.revealed_d12")}` : "";
      return t("log.move", { who, card: card(d.card), from: t(`zone.${d.from}`), to: t(`zone.${d.to}`) })
        + how + revealed + unnamed + landName + named + exception + note + loss;
    }
    case "name":
      return t(d.choice ? "log.choose" : "log.name", { who, card: card(d.card),
        name: said((d.naming && d.naming.name) || d.name || "") }) + note;
    case "turn_face_up":
      return t("log.up", { who, card: card(d.card) }) + (d.via ? ` ${t("log.by_via", { via: via(d.via) })}` : "")
        + named + exception + note + loss;
    case "reveal": case "look": case "end_reveal": case "end_look":
      return t(`log.${e.type}`, { who, cards: (d.cards || []).map(card).join(" ") });
    case "leave_game":
      return departureWords(d, ctx) + loss;
    case "shuffle":
      return t(d.random ? "log.shuffle" : "log.shuffle_at", { who, at: d.at });
    case "commander_damage":
      return t("log.commander_damage", { who, n: d.amount, commander: card(d.commander), total: d.total }) + loss;
    case "end_game":
      return t("log.end_game");
    case "turn":
      return t("log.turn", { who, n: d.number });
    default:
      return `${who}: ${e.type}`;
  }
}

/** The consequences a preview (dry run) of an action announces, in sentences; none for an ordinary action. */
export function consequences(preview, ctx) {
  const out = [];
  const e = preview.event || preview.undone;
  if (!e || preview.undone) return out;
  const d = e.data || {};
  for (const loss of gameLosses(e)) out.push(lossWords(loss, e, ctx), departureWords(loss, ctx));
  if (e.type === "leave_game") out.push(departureWords(d, ctx));
  if (e.type === "end_game") out.push(t("confirm.end_game"));
  if (preview.finished && e.type !== "end_game") out.push(endWords(preview.finished, ctx));
  if (out.length) out.push(t("confirm.undo_after"));
  return out;
}
