/* A card drawn as text (no card images offline): name in the page's language, cost as
 * printed, and per face the type line, rules text and power/toughness or loyalty;
 * then the Mental Magic list and the card's legality per format. Used by the lookup
 * page and meant for the console's card previews.
 */
import { el } from "./dom.js";
import { lang, localName, t } from "./i18n.js";
import { manaCost } from "./mana.js";

export const markEl = (kind, text, title) => el("span", { class: `mark mark-${kind}`, title, text });

/** A type line: the card data has it in English only, so a French page marks it as English (issue 19). */
export const typeLine = (text, cls = "type-line") => el("span", { class: cls },
  el("span", { lang: "en", text }),
  lang !== "en" && text ? el("span", { class: "lang-mark", title: t("type.english_title"), text: ` ${t("type.english_mark")}` }) : null);

/** A name in the other language, marked with its language for screen readers. */
function otherName(card) {
  if (lang === "fr") return card.french_name ? el("span", { lang: "en", text: card.name }) : null;
  return card.french_name ? el("span", { lang: "fr", text: card.french_name }) : null;
}

/** "2/3", "Loyalty: 3" or "Defense: 5" for a face, when the data has it. */
function stats(face) {
  if (face.power != null || face.toughness != null) {
    return el("span", { class: "pt", "aria-label": t("card.pt_label", { p: face.power ?? "?", t: face.toughness ?? "?" }),
      text: `${face.power ?? "?"}/${face.toughness ?? "?"}` });
  }
  if (face.loyalty != null) return el("span", { class: "pt", text: t("card.loyalty", { v: face.loyalty }) });
  if (face.defense != null) return el("span", { class: "pt", text: t("card.defense", { v: face.defense }) });
  return null;
}

/** Rules text as paragraphs; mana symbols inside it stay as printed text ({T}, {2}{R}). */
function rulesText(text) {
  if (!text) return null;
  return el("div", { class: "rules-text", lang: "en" }, ...text.split("\n").map((line) => el("p", { text: line })));
}

function legalityList(card, formats) {
  const known = card.legalities && Object.keys(card.legalities).length;
  if (!known) return el("p", { class: "muted legal-unknown", text: t("card.legal_unknown") });
  return el("ul", { class: "legalities", "aria-label": t("card.legalities") }, ...formats.filter((f) => f !== "all").map((f) => {
    const status = card.legalities[f] || "not_legal";
    return el("li", { class: `legal legal-${status}` },
      el("span", { class: "legal-format", text: f }), " ", el("span", { class: "legal-status", text: t(`legal.${status}`) }));
  }));
}

/** The whole text card. ``formats``: the format names to list legality for. */
export function cardView(card, { formats = [], heading = "h3" } = {}) {
  const multi = card.faces.length > 1;
  const mm = card.mental_magic;
  const rule = card.mental_magic_rule;
  const markText = mm === "banned" ? t("mm.banned", { rule: rule || "706.2" })
    : mm === "watched" ? t("mm.watched", { rule: rule || "706.4a" }) : t("mm.none");
  const head = el("div", { class: "printed-head" },
    el(heading, { class: "printed-name", lang: lang === "fr" && card.french_name ? "fr" : "en", text: localName(card) }),
    manaCost(card.mana_cost));
  const other = otherName(card);
  const alt = other ? el("p", { class: lang === "fr" ? "printed-en" : "printed-fr" },
    lang === "fr" ? t("card.english_name") : t("card.french_name"), other) : null;
  const faces = el("ul", { class: "faces" }, ...card.faces.map((f) => el("li", { class: "face" },
    el("div", { class: "face-line" },
      multi ? el("span", { class: "face-name" }, localName(f),
        f.french_name && lang !== "fr" ? el("span", { class: "muted", lang: "fr", text: ` (${f.french_name})` }) : null) : null,
      multi ? manaCost(f.cost_known ? f.mana_cost : null) : null,
      f.type_line ? typeLine(f.type_line) : el("span", { class: "type-line", text: f.cost_known ? "" : t("card.face_unknown") }),
      stats(f)),
    rulesText(f.text))));
  const marks = el("p", { class: "printed-marks" }, t("mm.label"), " ",
    markEl(mm || "none", markText, mm === "watched" ? t("mm.watched_title") : null),
    card.layout && card.layout !== "normal" ? el("span", { class: "layout", text: ` ${t("card.layout", { layout: card.layout })}` }) : null);
  return el("article", { class: "printed", "aria-label": t("card.aria", { name: localName(card) }) },
    head, alt, faces, marks, legalityList(card, formats));
}
