/* At the end of a game (issue 20): its final state and whole log as a text file in the page's
 * language, or as JSON (what GET /games/{id}, /events and /names answer), downloaded by the browser. */
import { t } from "./i18n.js";

/** The game as text: who played and how it ended, each zone's cards, the names taken, then the log. */
export function gameText({ game, events, names }, { who, card, name, describe, endWords, outWords, cardLine }) {
  const lines = [t("game.title", { id: game.id }), t("game.format", { format: game.format === "all" ? t("format.all") : game.format }), ""];
  if (game.finished) lines.push(`${t("end.title")} — ${endWords(game.finished)}`, "");
  lines.push(`${t("export.players")}`);
  for (const p of game.players) {
    lines.push(`- ${t(p.team ? "export.player_team" : "export.player", { name: p.name, id: p.id, team: p.team, status: outWords(p) })}`);
  }
  lines.push("", t("export.zones"));
  const zones = [...new Set(game.cards.map((c) => c.zone))];
  for (const z of zones) {
    const cards = game.cards.filter((c) => c.zone === z);
    lines.push(`${t(`zone.${z}`)} (${cards.length})`, ...cards.map((c) => `  ${cardLine(c)}`));
  }
  lines.push("", t("game.names_title"));
  for (const n of names) lines.push(`- ${name(n.name)} — ${who(n.player)} (${card(n.card)})`);
  lines.push("", t("export.log"));
  for (const e of events) lines.push(`${e.seq}. ${describe(e)}${e.rule ? ` (${t("rule", { rule: e.rule })})` : ""}`);
  return `${lines.join("\n")}\n`;
}

/** Hand ``text`` to the browser as a file named ``name``. */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
