/* D12 in the dialog that asks first (confirm.js): a player who leaves or loses takes their face-down
 * cards with them, each revealed and named as it goes, and the action's preview asks for those names
 * one card at a time (409 name_required with fields.names.<card>). Here a name field per card asked
 * for, completed with the card's candidates as the card menu completes a name. Every check is a
 * preview, which records nothing: a refusal shows in the dialog with its rule and the dialog stays
 * open; names accepted show what follows, and the next yes goes ahead with them. The API is the
 * command line's `naming C as NAME`: the action's ``names`` (docs/api.md).
 */
import { $, el } from "./dom.js";
import { ApiError } from "./api.js";
import { Combobox } from "./combobox.js";
import { t } from "./i18n.js";
import { ruleRef } from "./rules.js";
import { Status } from "./status.js";

/** The cards a refusal asks names for as their player leaves the game (D12), or null. */
export function namesAsked(e) {
  const asked = e instanceof ApiError && e.body.code === "name_required" && e.body.fields && e.body.fields.names;
  return asked && typeof asked === "object" ? Object.keys(asked) : null;
}

/**
 * The dialog's part (confirm.js's ``more``) that names ``cards``, with ``lines`` and ``yes`` to open it:
 *   preview(names) -> Promise<{body}>   the action's dry run with ``names`` ({card: name})
 *   said(body) -> [sentences]           what the action does, in words
 *   label(card) -> the field's label
 *   choices: {fetch(card, q), render, disabled, onDisabled(item) -> why, chosen(item) -> the field's text}
 */
export function leavingNames(cards, { preview, said, label, choices }) {
  const fields = new Map();
  const list = el("div", { class: "leaving-names" });
  const status = new Status(el("div", { class: "status", role: "status", "aria-live": "polite" }));
  const lines = [el("p", {}, t("leaving.intro"), ...ruleRef("D12"))];
  let accepted = null; // the names the last preview took
  let say = null;
  const names = () => Object.fromEntries([...fields].map(([card, f]) => [card, f.value.trim()]).filter(([, v]) => v));
  const edited = () => { // names changed after a check: checked again before anything is recorded
    if (accepted === null) return;
    accepted = null;
    say(lines, t("leaving.check"));
    status.clear();
  };
  const add = (card) => {
    const id = `leaving-name-${card}`;
    const input = el("input", { id, type: "text", role: "combobox", "aria-autocomplete": "list", "aria-expanded": "false",
      "aria-controls": `${id}-list`, autocomplete: "off", autocapitalize: "off", spellcheck: "false" });
    const listbox = el("ul", { id: `${id}-list`, class: "listbox", role: "listbox", "aria-label": label(card), hidden: true });
    void new Combobox(input, listbox, {
      fetch: (q) => choices.fetch(card, q),
      render: choices.render,
      disabled: choices.disabled,
      onDisabled: (item) => status.show(choices.onDisabled(item), "error"),
      onChoose: (item) => {
        input.value = choices.chosen(item);
        edited();
      },
      onEnter: () => $("confirm-yes").click(), // Enter checks the names, as the dialog's button does
      onError: (e) => status.error(e),
    });
    input.addEventListener("input", edited);
    fields.set(card, input);
    list.append(el("div", { class: "field" }, el("label", { for: id, text: label(card) }),
      el("div", { class: "combo" }, input, listbox)));
    return input;
  };
  /** The field a refusal of a name is about: the one whose name its message quotes, or the only one. */
  const fieldOf = (e) => {
    const message = ((e instanceof ApiError && e.body.message) || "").toLowerCase();
    const typed = [...fields.values()].filter((f) => f.value.trim());
    return typed.find((f) => message.includes(f.value.trim().toLowerCase())) || (fields.size === 1 ? [...fields.values()][0] : null);
  };
  cards.forEach(add);

  async function ready(sayAgain) {
    say = sayAgain;
    const now = names();
    if (accepted !== null && accepted === JSON.stringify(now)) return true;
    for (const f of fields.values()) f.removeAttribute("aria-invalid");
    status.show(t("game.sending"), "busy");
    try {
      const { body } = await preview(now);
      accepted = JSON.stringify(now);
      status.show(t("leaving.accepted"));
      say(said(body), t("confirm.yes"));
      $("confirm-yes").focus();
    } catch (e) {
      const asked = namesAsked(e) || [];
      const fresh = asked.filter((card) => !fields.has(card)).map(add); // a second player's cards, in turn
      status.error(e);
      status.node.prepend(el("p", { class: "refused", text: t("refused") }));
      const wrong = fresh[0] || fields.get(asked[0]) || fieldOf(e);
      if (wrong) {
        wrong.setAttribute("aria-invalid", "true");
        wrong.focus();
      }
    }
    return false;
  }

  return { node: el("div", {}, list, status.node), lines, yes: t("leaving.check"), focus: fields.values().next().value,
    ready, names };
}
