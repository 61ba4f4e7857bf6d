/* DOM helpers shared by every page's script. */

export const $ = (id) => document.getElementById(id);

/** Build an element: props are attributes (class, text, tabIndex special), children are nodes or strings. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "tabIndex") node.tabIndex = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** Scroll a node into view when it is below the fold (phones, long forms), minding reduced motion. */
export function reveal(node, block = "start") {
  const rect = node.getBoundingClientRect();
  if (rect.top > window.innerHeight * 0.75 || rect.bottom < 0) {
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    node.scrollIntoView({ block, behavior: smooth ? "smooth" : "auto" });
  }
}
