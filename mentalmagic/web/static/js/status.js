/* The status line (a polite live region): progress, results and API errors in words. */
import { el } from "./dom.js";
import { ApiError } from "./api.js";
import { t } from "./i18n.js";
import { ruleRef } from "./rules.js";

export class Status {
  /** ``fields``: {api field name: [input element, label]} to mark invalid and name in messages. */
  constructor(node, fields = {}) {
    this.node = node;
    this.fields = fields;
  }

  show(content, kind = "ok") {
    this.node.className = `status is-${kind}`;
    this.node.replaceChildren(content);
  }

  clear() {
    this.node.className = "status";
    this.node.replaceChildren();
    for (const [input] of Object.values(this.fields)) input.removeAttribute("aria-invalid");
  }

  clearInvalid() {
    for (const [input] of Object.values(this.fields)) input.removeAttribute("aria-invalid");
  }

  /** An API error: its message, rule, and each field's messages, with the inputs marked invalid. */
  error(err) {
    const body = err instanceof ApiError ? err.body : { code: "page", message: String((err && err.message) || err) };
    const parts = [el("strong", { text: `${t("error.label")} ` }), body.message || t("error.unknown")];
    if (body.rule) parts.push(...ruleRef(body.rule));
    if (Array.isArray(body.suggestions) && body.suggestions.length) { // an unknown card's close names
      parts.push(` ${t("error.suggestions", { names: body.suggestions.join(", ") })}`);
    }
    const items = [];
    for (const [field, value] of Object.entries(body.fields || {})) {
      const [input, label] = this.fields[field] || [null, field];
      for (const msg of messages(value)) {
        if ((body.message || "").includes(msg)) continue; // e.g. the unknown name, already quoted
        items.push(el("li", {}, el("span", { class: "field-name", text: `${label}: ` }), msg));
      }
      if (input) input.setAttribute("aria-invalid", "true");
    }
    this.node.className = "status is-error";
    this.node.replaceChildren(el("p", {}, ...parts), items.length ? el("ul", { class: "error-fields" }, ...items) : "");
  }
}

function messages(value) {
  if (Array.isArray(value)) return value.flatMap(messages);
  if (value && typeof value === "object") return Object.values(value).flatMap(messages);
  return value === null || value === undefined ? [] : [String(value)];
}
