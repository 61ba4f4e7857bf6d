/* A redraw keeps what the judge is doing. The game page draws its lists anew on every version
 * another client makes (a bot, a seat); a field, the focus and the caret would go with the old
 * nodes. keeping(draw) notes them first, by a key that finds the same control in the next draw,
 * and puts them back into the new nodes: what the judge changed in a field that was replaced, and
 * the focus (with its caret) when its node went. A node that stays keeps them by itself.
 */

// what tells a control apart from its neighbours when it has no id, within its nearest parent with one
const KEYS = ["data-card", "data-action", "data-key", "aria-label"];

/** A selector for the control ``node`` is, in this draw or the next; null when it has none. */
export function keyOf(node) {
  if (!node || node === document.body || node === document.documentElement) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  const attr = KEYS.find((a) => node.hasAttribute(a));
  const home = node.parentElement && node.parentElement.closest("[id]");
  if (!attr || !home) return null;
  return `#${CSS.escape(home.id)} ${node.localName}[${attr}="${CSS.escape(node.getAttribute(attr))}"]`;
}

const checkable = (f) => f.type === "checkbox" || f.type === "radio";

/** Whether the judge changed ``field`` from what it was drawn with. */
function changed(field) {
  if (checkable(field)) return field.checked !== field.defaultChecked;
  if (field.localName === "select") return [...field.options].some((o) => o.selected !== o.defaultSelected);
  return field.value !== field.defaultValue;
}

/** ``draw()``, keeping the judge's typing, focus and caret across it. */
export function keeping(draw) {
  const active = document.activeElement;
  const focus = keyOf(active);
  const caret = focus && typeof active.selectionStart === "number" // text fields only (not a number's)
    ? [active.selectionStart, active.selectionEnd, active.selectionDirection] : null;
  const typed = [...document.querySelectorAll("input, select, textarea")].filter(changed)
    .map((field) => [field, keyOf(field)]).filter(([, key]) => key);
  draw();
  for (const [old, key] of typed) {
    const now = old.isConnected ? null : document.querySelector(key);
    if (!now || now.type !== old.type || changed(now)) continue;
    if (checkable(now)) now.checked = old.checked;
    else if (now.localName !== "select" || [...now.options].some((o) => o.value === old.value)) now.value = old.value;
  }
  const lost = !active.isConnected && (!document.activeElement || document.activeElement === document.body);
  const now = lost && focus ? document.querySelector(focus) : null;
  if (now && !now.disabled) {
    now.focus({ preventScroll: true }); // a number field's caret goes to its end, where typing goes on
    if (caret && typeof now.selectionStart === "number") now.setSelectionRange(...caret);
  }
}
