/* A rule number as the page shows it: "rule 704.2", its short text on hover and to a screen
 * reader (web/rule_texts.py, in the page's language). */
import { el } from "./dom.js";
import { t } from "./i18n.js";

/** The short text of ``rule`` ("D14(c)" falls back to D14's); "" when the catalogue has none. */
export function ruleText(rule) {
  for (const key of [rule, String(rule).replace(/\(.*$/, ""), String(rule).replace(/[a-z]$/, "")]) {
    const text = t(`rules.${key}`);
    if (text !== `rules.${key}`) return text;
  }
  return "";
}

/** A rule as the page cites it: a number as it is; a section's heading (MageRing's "ban list",
 * "once per game") in the page's language (web/rules_strings.py, cite.*). */
export function citeWords(rule) {
  const words = t(`cite.${rule}`);
  return words === `cite.${rule}` ? rule : words;
}

/** "(rule 704.2)" as an <abbr> whose title is the rule's short text. */
export function ruleRef(rule, { brackets = true } = {}) {
  const label = t("rule", { rule: citeWords(rule) });
  const text = ruleText(rule);
  const node = el("abbr", { class: "rule", text: label, title: text || null });
  if (text) node.setAttribute("aria-description", text);
  return brackets ? [" (", node, ")"] : [node];
}
