/* An ARIA 1.2 combobox with a listbox popup: typing asks for suggestions, arrows move,
 * Enter chooses, Escape closes, focus stays in the input (aria-activedescendant).
 *
 *   new Combobox(input, listbox, {
 *     fetch: (q, signal) => Promise<items>,   // suggestions for the typed text
 *     render: (item) => [nodes],              // an option's content
 *     disabled: (item) => bool,               // optional: shown, announced as unavailable, not chosen
 *     onDisabled: (item) => …,                // optional: a disabled option clicked or entered
 *     quietWhenEmpty: true,                   // optional: no "no match" line, the list just closes
 *     openOnFocus: true,                      // optional: focused empty, the list opens with fetch("")
 *     onChoose: (item) => …,                  // an option chosen (click or Enter)
 *     onEnter: () => …,                       // Enter with no option active
 *     onError: (err) => …,
 *     live: element,                          // a polite live region for counts
 *   })
 */
import { el } from "./dom.js";
import { t } from "./i18n.js";

const DELAY = 160; // ms of quiet typing before asking for suggestions

export class Combobox {
  constructor(input, listbox, options) {
    Object.assign(this, { input, listbox, ...options });
    this.items = [];
    this.active = -1;
    this.timer = 0;
    this.ctrl = null;
    this.seq = 0;
    this.prefix = listbox.id;
    input.addEventListener("input", () => {
      input.removeAttribute("aria-invalid");
      this.schedule();
    });
    input.addEventListener("keydown", (ev) => this.keydown(ev));
    if (this.openOnFocus) input.addEventListener("focus", () => { if (!input.value.trim()) this.suggest(""); });
    input.addEventListener("blur", () => this.close());
  }

  isOpen() {
    return !this.listbox.hidden;
  }

  open() {
    if (!this.items.length && !this.listbox.children.length) return;
    this.listbox.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
  }

  close() {
    this.listbox.hidden = true;
    this.input.setAttribute("aria-expanded", "false");
    this.setActive(-1);
  }

  /** Forget any pending or running request for suggestions. */
  cancel() {
    clearTimeout(this.timer);
    this.seq++;
    if (this.ctrl) this.ctrl.abort();
    this.ctrl = null;
  }

  setActive(i) {
    const options = this.listbox.querySelectorAll('[role="option"]');
    options.forEach((o, j) => o.setAttribute("aria-selected", j === i ? "true" : "false"));
    this.active = i;
    if (i >= 0 && options[i]) {
      this.input.setAttribute("aria-activedescendant", options[i].id);
      options[i].scrollIntoView({ block: "nearest" });
    } else {
      this.input.removeAttribute("aria-activedescendant");
    }
  }

  show(items, q) {
    this.items = items;
    this.active = -1;
    this.input.removeAttribute("aria-activedescendant");
    if (!items.length && this.quietWhenEmpty) { // nothing to complete is no error (a whole command typed)
      this.listbox.replaceChildren();
      this.close();
      return;
    }
    if (!items.length) {
      this.listbox.replaceChildren(el("li", { class: "no-match", role: "option", "aria-disabled": "true",
        id: `${this.prefix}-none`, "aria-selected": "false", text: t("combo.no_match", { q }) }));
      this.open();
      if (this.live) this.live.textContent = t("combo.none");
      return;
    }
    this.listbox.replaceChildren(...items.map((item, i) => {
      const off = !!(this.disabled && this.disabled(item));
      const li = el("li", { id: `${this.prefix}-${i}`, role: "option", "aria-selected": "false",
        class: off ? "option is-disabled" : "option", "aria-disabled": off ? "true" : null }, ...this.render(item));
      li.addEventListener("mousedown", (ev) => ev.preventDefault()); // keep focus in the input
      li.addEventListener("click", () => this.choose(i));
      return li;
    }));
    this.open();
    if (this.live) this.live.textContent = t("combo.count", { n: items.length });
  }

  async suggest(q) {
    this.cancel();
    const my = this.seq;
    const ctrl = this.ctrl = new AbortController();
    try {
      const items = await this.fetch(q, ctrl.signal);
      if (my !== this.seq || this.input.value.trim() !== q) return;
      this.show(items, q);
    } catch (e) {
      if (e.name === "AbortError" || my !== this.seq) return;
      this.close();
      if (this.onError) this.onError(e);
    }
  }

  schedule() {
    clearTimeout(this.timer);
    const q = this.input.value.trim();
    if (q.length < 2 && !(this.openOnFocus && !q)) {
      this.cancel();
      this.items = [];
      this.listbox.replaceChildren();
      this.close();
      return;
    }
    this.timer = setTimeout(() => this.suggest(q), DELAY);
  }

  choose(i) {
    const item = this.items[i];
    if (!item) return;
    if (this.disabled && this.disabled(item)) {
      if (this.onDisabled) this.onDisabled(item);
      return;
    }
    this.cancel();
    this.close();
    this.onChoose(item);
  }

  move(delta) {
    const n = this.items.length;
    if (!n) return;
    let i = this.active + delta;
    if (i >= n) i = 0;
    if (i < -1) i = n - 1;
    if (i === -1) i = delta > 0 ? 0 : n - 1;
    this.setActive(i);
  }

  keydown(ev) {
    if (ev.isComposing) return; // an input method is still composing the text
    switch (ev.key) {
      case "ArrowDown":
        ev.preventDefault();
        if (!this.isOpen()) {
          if (this.items.length) {
            this.open();
            if (!ev.altKey) this.setActive(0);
          } else if (this.input.value.trim().length >= 2) this.suggest(this.input.value.trim());
        } else if (!ev.altKey) this.move(1);
        break;
      case "ArrowUp":
        if (this.isOpen()) {
          ev.preventDefault();
          if (ev.altKey) this.close();
          else this.move(-1);
        }
        break;
      case "Enter":
        ev.preventDefault();
        if (this.isOpen() && this.active >= 0) this.choose(this.active);
        else {
          this.cancel();
          this.close();
          if (this.onEnter) this.onEnter();
        }
        break;
      case "Escape":
        this.cancel(); // suggestions still on their way must not open the list after Escape
        if (this.isOpen()) {
          ev.preventDefault();
          this.close();
        }
        break;
      case "Tab":
        this.close();
        break;
      default:
    }
  }
}
