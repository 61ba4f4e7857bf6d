/* Series (docs/rule-sets.md, "Series"): the series this browser made (it keeps their tokens, which
 * make their games and read them), and a series' games in order with the names taken in each. */
import { el } from "./dom.js";
import { getJSON } from "./api.js";
import { call, keep, kept } from "./call.js";
import { givenName, lang, t } from "./i18n.js";

const KEY = "mentalmagic.series";

/** {id: {token, rules, options, created}} of the series made in this browser. */
export const savedSeries = () => kept(KEY);
export const keepSeries = (id, record) => keep(KEY, id, record);
export const seriesToken = (id) => (savedSeries()[id] || {}).token || null;

/** GET /series/{id} with the token this browser keeps; null when it keeps none. */
export async function loadSeries(id) {
  const token = seriesToken(id);
  return token ? (await call("GET", `/series/${encodeURIComponent(id)}`, { token })).body : null;
}

const when = new Intl.DateTimeFormat(lang, { day: "numeric", month: "numeric", hour: "2-digit", minute: "2-digit" });

/** A series as a reader knows it, never by its id: its name where it has one, else when it was made
 * ("Series of 28/11, 21:40"); the id only when neither is known. ``s``: the series' view (GET
 * /series/{id}: name, created_at) or what this browser kept of it (created). */
export function seriesLabel(id, s = {}) {
  if (s.name) return t("series.named", { name: s.name });
  const made = s.created_at || s.created;
  const date = made ? new Date(made) : null;
  return date && !Number.isNaN(date.getTime()) ? t("series.of_date", { date: when.format(date) }) : t("series.title", { id });
}

const cards = new Map(); // a name taken -> a promise of its card's JSON, for its French name

/** The names a series' games took, as the page says them (French first on a French page). */
async function namesSaid(view) {
  const names = [...new Set(view.games.flatMap((g) => g.names.map((n) => n.name)))];
  for (const n of names) if (!cards.has(n)) cards.set(n, getJSON(`/cards/${encodeURIComponent(n)}`).catch(() => null));
  const found = await Promise.all(names.map((n) => cards.get(n)));
  const said = new Map(names.map((n, i) => [n, givenName(n, found[i])]));
  return (name) => said.get(name) || name;
}

/** The series' games in the order made, each with its status and the names taken there and by
 * whom (Xom 6: under a rule set whose names last a series, each stays taken in the others). */
export async function seriesGames(view, { current = null } = {}) {
  const said = await namesSaid(view);
  const scope = view.rules && view.rules.name_scope === "series" ? t("series.scope_series") : t("series.scope_game");
  return [
    el("p", { class: "hint", text: scope }),
    el("ol", { class: "series-games" }, ...view.games.map((g, i) => {
      const who = (pid) => ((g.players || []).find((p) => p.id === pid) || {}).name || pid;
      const title = t("series.game", { n: i + 1, id: g.id });
      const head = g.id === current
        ? [el("strong", { text: title }), " ", el("span", { class: "mark", text: t("series.this_game") })]
        : [el("a", { href: `/games/${encodeURIComponent(g.id)}`, text: title })];
      const names = g.names.length
        ? el("ul", { class: "series-names", "aria-label": t("series.names_of", { n: i + 1 }) },
          ...g.names.map((n) => el("li", {}, el("strong", { text: said(n.name) }), ` — ${who(n.player)}`)))
        : el("p", { class: "muted", text: t("series.no_names") });
      return el("li", {}, ...head, " ", el("span", { class: "muted", text: t(`series.status.${g.status}`) }), names);
    })),
  ];
}
