/* The mana keypad: a toolbar of symbol buttons that edits a cost text box.
 * One tab stop; arrows move within a row and between rows, Home/End to the ends.
 */
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { costSpeech, readCost, symbolEl, symbolLabel, writeCost } from "./mana.js";

/** Wire ``toolbar`` (buttons with data-sym or data-action) to ``input``; ``changed()`` after each edit. */
export function keypad(toolbar, input, { changed = () => {}, live = null } = {}) {
  const say = () => {
    if (!live) return;
    const r = readCost(input.value);
    live.textContent = r.kind === "symbols" ? t("keypad.cost", { cost: costSpeech(r.syms) })
      : r.kind === "none" ? t("keypad.cost", { cost: t("cost.none") })
        : r.kind === "empty" ? t("keypad.cleared") : t("keypad.cost", { cost: input.value });
  };
  const done = () => {
    input.removeAttribute("aria-invalid");
    changed();
    say();
  };

  function add(sym) {
    const r = readCost(input.value);
    if (r.kind === "invalid") {
      input.value = `${input.value}{${sym}}`;
    } else {
      const syms = r.syms.slice();
      const last = syms[syms.length - 1];
      // Two digits in a row make one number ({1} then {5} is {15}); a cost has one generic part.
      if (/^\d$/.test(sym) && last !== undefined && /^\d+$/.test(last) && last.length < 2) {
        syms[syms.length - 1] = String(Number(last + sym));
      } else {
        syms.push(sym);
      }
      input.value = writeCost(syms);
    }
    done();
  }

  function edit(action) {
    const r = readCost(input.value);
    if (action === "clear") input.value = "";
    else if (action === "none") input.value = t("cost.none_word");
    else if (action === "backspace") {
      if (r.kind === "symbols") {
        const syms = r.syms.slice();
        const last = syms.pop();
        if (/^\d{2,}$/.test(last)) syms.push(last.slice(0, -1));
        input.value = writeCost(syms);
      } else if (r.kind === "none") input.value = "";
      else input.value = input.value.trimEnd().slice(0, -1);
    }
    done();
  }

  for (const key of toolbar.querySelectorAll(".key[data-sym]")) {
    const sym = key.dataset.sym;
    key.setAttribute("aria-label", t("keypad.add", { what: symbolLabel(sym) }));
    key.title = `{${sym}}`;
    key.replaceChildren(symbolEl(sym));
    key.addEventListener("click", () => add(sym));
  }
  for (const key of toolbar.querySelectorAll(".key[data-action]")) {
    key.addEventListener("click", () => edit(key.dataset.action));
  }

  const rows = [...toolbar.querySelectorAll(".keys")].map((g) => [...g.querySelectorAll(".key")]);
  const keys = rows.flat();
  const rove = (key) => {
    for (const k of keys) k.tabIndex = k === key ? 0 : -1;
    key.focus();
  };
  keys.forEach((k, i) => { k.tabIndex = i === 0 ? 0 : -1; });
  toolbar.addEventListener("focusin", (ev) => {
    if (keys.includes(ev.target)) for (const k of keys) k.tabIndex = k === ev.target ? 0 : -1;
  });
  toolbar.addEventListener("keydown", (ev) => {
    const i = keys.indexOf(ev.target);
    if (i < 0) return;
    const r = rows.findIndex((row) => row.includes(ev.target));
    const col = rows[r].indexOf(ev.target);
    let next = null;
    if (ev.key === "ArrowRight") next = keys[(i + 1) % keys.length];
    else if (ev.key === "ArrowLeft") next = keys[(i - 1 + keys.length) % keys.length];
    else if (ev.key === "ArrowDown" && r < rows.length - 1) next = rows[r + 1][Math.min(col, rows[r + 1].length - 1)];
    else if (ev.key === "ArrowUp" && r > 0) next = rows[r - 1][Math.min(col, rows[r - 1].length - 1)];
    else if (ev.key === "Home") next = keys[0];
    else if (ev.key === "End") next = keys[keys.length - 1];
    if (next) {
      ev.preventDefault();
      rove(next);
    }
  });
  return { add, edit };
}

/** A live preview of the typed cost, drawn as symbols. */
export function previewCost(target, text) {
  const r = readCost(text);
  if (r.kind === "empty") target.replaceChildren(el("span", { class: "muted", text: t("preview.nothing") }));
  else if (r.kind === "none") target.replaceChildren(el("span", { class: "no-cost", text: t("cost.none") }));
  else if (r.kind === "invalid") target.replaceChildren(el("span", { class: "muted", text: t("preview.invalid") }));
  else {
    const wrap = el("span", { class: "mana" });
    r.syms.forEach((s) => wrap.append(symbolEl(s)));
    target.replaceChildren(wrap);
  }
  return r;
}
