/* The script's strings in the page's language.
 *
 * The server renders the catalogue (web/script_strings.py, translated through
 * gettext like the templates) into <script type="application/json" id="i18n-data">:
 * data, not code, so a strict CSP allows it. Keys with plural forms are looked up
 * as "key.one" / "key.other" through Intl.PluralRules ("0 candidat" in French).
 */

const node = document.getElementById("i18n-data");
const strings = node ? JSON.parse(node.textContent) : {};

export const lang = document.documentElement.lang || "en";
const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

/** A number written the page's way: 1,234 in English, 1 234 in French. */
export const num = (n) => numbers.format(n);

/**
 * The string ``key`` with {name} placeholders filled; ``n`` picks the plural form and is
 * written with num(). Unknown placeholders (a mana cost such as {0}) are left as they are.
 */
const VOWEL = /^[aeiouàâäéèêëîïôöùûü]/i;

export function t(key, vars = {}) {
  let s = strings[key];
  // the catalogue's elision: "key.vowel.VAR" when {VAR} starts with a vowel (console_strings.py)
  for (const [v, value] of Object.entries(vars)) {
    const elided = strings[`${key}.vowel.${v}`];
    if (elided !== undefined && VOWEL.test(String(value))) s = elided;
  }
  if ("n" in vars) s = strings[`${key}.${plurals.select(vars.n)}`] ?? strings[`${key}.other`] ?? s;
  if (s === undefined) s = key;
  return s.replace(/\{(\w+)\}/g, (m, v) => {
    if (!(v in vars)) return m;
    return v === "n" && typeof vars.n === "number" ? num(vars.n) : String(vars[v]);
  });
}

/** Which name to show first: the French one on a French page, when the data has it. */
export const localName = (card) => (lang === "fr" && card.french_name ? card.french_name : card.name);

/** An English card name as the page says it: on a French page its French name ``french``, else
 * the English one marked (en) (issue 19). */
export function saidName(name, french) {
  if (lang !== "fr") return name;
  return french || t("name.english_only", { name });
}

/** A name given to a card in a game, in the page's language: the French name of that face of
 * ``card`` (its JSON, GET /cards) on a French page where the data has one, else the English one
 * marked (en); as it is while ``card`` isn't known yet (issue 19). */
export function givenName(name, card) {
  if (!name || lang !== "fr" || !card) return name;
  const face = (card.faces || []).find((f) => f.name === name);
  return saidName(name, (face && face.french_name) || (card.name === name ? card.french_name : null));
}

/** Like t(), but {name} placeholders in ``nodes`` become those DOM nodes: returns a list for append(). */
export function tn(key, vars = {}, nodes = {}) {
  const out = [];
  for (const piece of t(key, vars).split(/(\{\w+\})/)) {
    const m = /^\{(\w+)\}$/.exec(piece);
    if (m && m[1] in nodes) out.push(nodes[m[1]]);
    else if (piece) out.push(piece);
  }
  return out;
}
