/* Mana symbols: spoken labels, drawing with the mana font, and reading typed costs.
 *
 * A symbol is <span class="ms ms-cost ms-r" role="img" aria-label="one red mana" title="{R}">:
 * the classes are the mana-font package's (vendored in web/vendor/mana-font, served at /vendor/);
 * the label is what a screen reader says. Each symbol also carries its text
 * ("R", "R/G"), shown in a drawn disc when the font is not installed (the server
 * then leaves the class "has-mana-font" off <html>), so the page works without it.
 */
import { el } from "./dom.js";
import { t } from "./i18n.js";

const COLOURS = "WUBRGC";
const isColour = (c) => c.length === 1 && COLOURS.includes(c);
const colour = (c) => t(`colour.${c}`);
// The hybrid pairs the font draws, in the order costs are printed.
const FONT_PAIRS = new Set(["wu", "ub", "br", "rg", "gw", "wb", "ur", "bg", "rw", "gu",
  "2w", "2u", "2b", "2r", "2g", "cw", "cu", "cb", "cr", "cg"]);

/** What a screen reader says for one symbol (the part inside the braces). */
export function symbolLabel(sym) {
  if (/^\d+$/.test(sym)) return t("mana.generic", { n: Number(sym) });
  if (isColour(sym)) return t("mana.coloured", { c: colour(sym) });
  if (sym === "X" || sym === "Y" || sym === "Z") return t("mana.variable", { x: sym });
  if (sym === "S") return t("mana.snow");
  if (sym === "½") return t("mana.half");
  if (sym === "∞") return t("mana.infinite");
  if (sym === "?") return t("mana.unknown");
  if (/^H[WUBRGC]$/.test(sym)) return t("mana.half_coloured", { c: colour(sym[1]) });
  const p = sym.split("/");
  if (p.length === 2 && p[1] === "P" && isColour(p[0])) return t("mana.phyrexian", { c: colour(p[0]) });
  if (p.length === 2 && p[0] === "2" && isColour(p[1])) return t("mana.twobrid", { c: colour(p[1]) });
  if (p.length === 2 && isColour(p[0]) && isColour(p[1])) return t("mana.hybrid", { a: colour(p[0]), b: colour(p[1]) });
  if (p.length === 3 && p[2] === "P" && isColour(p[0]) && isColour(p[1])) {
    return t("mana.hybrid_phyrexian", { a: colour(p[0]), b: colour(p[1]) });
  }
  return t("mana.symbol", { s: `{${sym}}` });
}

/** The mana font's class for a symbol, or null when the font has no glyph for it. */
export function fontClass(sym) {
  const s = sym.toLowerCase();
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    return n <= 20 || n === 100 || n === 1000000 ? `ms-${n}` : null;
  }
  if (s.length === 1 && "wubrgcxyzs".includes(s)) return `ms-${s}`;
  if (s === "½") return "ms-1-2";
  if (s === "∞") return "ms-infinity";
  const p = s.split("/");
  if (p.length === 2 && p[1] === "p" && isColour(p[0].toUpperCase())) return `ms-${p[0]}p`;
  if (p.length === 2 && FONT_PAIRS.has(p[0] + p[1])) return `ms-${p[0]}${p[1]}`;
  if (p.length === 3 && p[2] === "p" && FONT_PAIRS.has(p[0] + p[1])) return `ms-${p[0]}${p[1]}p`;
  return null;
}

const colourVar = (c) => (isColour(c) ? `var(--mana-${c})` : "var(--mana-generic)");

/** One symbol: the font's glyph, with a text disc as the fallback (colours set for that disc). */
export function symbolEl(sym) {
  const font = fontClass(sym);
  const node = el("span", {
    class: font ? `ms ms-cost ms-font ${font}` : "ms",
    role: "img", "aria-label": symbolLabel(sym), title: `{${sym}}`,
  });
  const p = sym.split("/");
  const phyrexian = p.length > 1 && p[p.length - 1] === "P";
  const parts = phyrexian ? p.slice(0, -1) : p;
  if (phyrexian) node.classList.add("ms-phyrexian");
  if (sym === "?") node.classList.add("ms-unknown");
  // CSSOM custom properties, not a style attribute: a strict CSP allows them.
  node.style.setProperty("--c1", colourVar(/^H[WUBRGC]$/.test(sym) ? sym[1] : parts[0]));
  if (parts.length === 2) {
    node.classList.add("ms-split");
    node.style.setProperty("--c2", colourVar(parts[1]));
  }
  const text = phyrexian ? `${parts.join("/")}/Φ` : sym;
  if (text.length > 2) node.classList.add("ms-long");
  node.append(el("span", { class: "ms-fallback", "aria-hidden": "true", text }));
  return node;
}

export const BRACES = /\{([^{}]*)\}/g;

/**
 * A cost as the API writes it ("{1}{R}", "" for no mana cost, "{1}{R} // {1}{U}" for
 * a split card, "?" for a face the data lacks, null for unknown) drawn as printed.
 */
export function manaCost(text, { short = false } = {}) {
  const wrap = el("span", { class: "mana" });
  const noCost = () => el("span", { class: "no-cost", title: t("cost.none_title"),
    text: short ? t("cost.none_short") : t("cost.none") });
  if (text === null || text === undefined) {
    wrap.append(symbolEl("?"));
    return wrap;
  }
  text.split(" // ").forEach((half, i) => {
    if (i) {
      wrap.append(el("span", { class: "mana-sep", "aria-hidden": "true", text: "//" }),
        el("span", { class: "visually-hidden", text: ` ${t("cost.and")} ` }));
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

export const costSpeech = (syms) => syms.map(symbolLabel).join(", ");

/** Read a typed cost the way the server will: braces, shorthand (1RR), none, or empty. */
export function readCost(text) {
  const s = text.trim();
  if (s === "") return { kind: "empty", syms: [] };
  if (["none", "aucun"].includes(s.toLowerCase())) return { kind: "none", syms: [] };
  if (s.includes("{") || s.includes("}")) {
    const syms = [...s.matchAll(BRACES)].map((m) => m[1].trim().toUpperCase());
    if (!syms.length || s.replace(BRACES, "").trim()) return { kind: "invalid", syms: [] };
    return { kind: "symbols", syms };
  }
  const m = /^(\d*)([WUBRGCXYZS]*)$/i.exec(s);
  if (!m) return { kind: "invalid", syms: [] };
  const syms = (m[1] ? [String(Number(m[1]))] : []).concat([...m[2].toUpperCase()]);
  return { kind: "symbols", syms };
}

export const writeCost = (syms) => syms.map((s) => `{${s}}`).join("");
