/* Each player's seat link and its QR code (issue 31), for the judge's game page and the table sheet.
 * A link is built with an address the players' phones reach: the page's own when it is not this laptop's
 * loopback; else the table's network address the server listens on (`mentalmagic serve --table` puts
 * them in <meta name="table-origins">), the one the judge chose when there are several. The token stays
 * in the fragment; the code is drawn by the server (POST /api/v1/qr: the link in the body, never a query).
 */
import { el } from "./dom.js";
import { call, savedGames } from "./call.js";
import { t } from "./i18n.js";

const CHOSEN = "mentalmagic.table-origin";

/** Is ``host`` (a page's location.hostname) this machine only? */
export const loopback = (host) => host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host)
  || host === "[::1]" || host === "::1";

/** The origins phones reach this server at, as the server knows them (none when served on loopback). */
export function tableOrigins() {
  const meta = document.querySelector('meta[name="table-origins"]');
  return meta ? meta.content.split(/\s+/).filter(Boolean) : [];
}

/** The origin of the players' links: the page's own unless it is loopback; then the table's network
 * address (the judge's choice among several, else the first); else the page's own (nothing better:
 * the page says phones can't join). */
export function seatOrigin() {
  if (!loopback(location.hostname)) return location.origin;
  const all = tableOrigins();
  const chosen = localStorage.getItem(CHOSEN);
  return all.includes(chosen) ? chosen : all[0] || location.origin;
}

export const seatLink = (game, token) => `${seatOrigin()}/games/${encodeURIComponent(game)}#token=${token}`;

/** The seats of ``game`` this browser knows: [{id, name, token, link}] in the game's order of ``players``
 * (or as kept, when none are given); a seat without a kept token has no link. */
export function seats(game, players = null) {
  const kept = (savedGames()[game] || {}).players || [];
  return (players || kept).map((p) => {
    const stored = kept.find((q) => q.id === p.id);
    const token = stored && stored.token;
    return { id: p.id, name: p.name || (stored && stored.name) || p.id, token, link: token ? seatLink(game, token) : null };
  });
}

const drawn = new Map(); // link -> its code's data: URI, once drawn
const asked = new Map(); // link -> the promise of it

/** ``link`` as a QR code: an <img> (a data: URI, which the pages' CSP allows), its picture set at once
 * when this page has drawn it before, else when the server has. */
export function seatCode(link, name, onError = () => {}) {
  const img = el("img", { class: "seat-code", alt: t("links.code_alt", { name }), "data-link": link });
  if (drawn.has(link)) {
    img.src = drawn.get(link);
    return img;
  }
  if (!asked.has(link)) {
    asked.set(link, call("POST", "/qr", { body: { text: link } }).then(({ body }) => {
      drawn.set(link, body.image);
      return body.image;
    }).catch((e) => {
      asked.delete(link); // asked again on the next draw
      throw e;
    }));
  }
  asked.get(link).then((src) => { img.src = src; }, onError);
  return img;
}

/** ``link``'s code as a button that shows it large (``#code-dialog``: the laptop turned towards a player
 * across the table), with ``name``'s words. */
export function seatCodeButton(link, name, onError) {
  const b = el("button", { type: "button", class: "code-button", "aria-label": t("links.show_large", { name }) },
    seatCode(link, name, onError));
  b.addEventListener("click", () => {
    const dialog = document.getElementById("code-dialog");
    document.getElementById("code-title").textContent = t("links.large_title", { name });
    const img = document.getElementById("code-large");
    img.alt = t("links.code_alt", { name });
    img.src = b.querySelector("img").src;
    img.dataset.link = link;
    dialog.showModal();
    document.getElementById("code-close").onclick = () => dialog.close();
  });
  return b;
}

/** On a page opened on loopback with several table addresses: a choice of the one the phones are on
 * (``#origin-select``), kept on this laptop; ``redraw`` after a change. */
export function originChoice(field, select, redraw) {
  const all = tableOrigins();
  field.hidden = !(loopback(location.hostname) && all.length > 1);
  if (field.hidden) return;
  const current = seatOrigin();
  select.replaceChildren(...all.map((o) => el("option", { value: o, text: o, selected: o === current })));
  select.onchange = () => {
    localStorage.setItem(CHOSEN, select.value);
    redraw();
  };
}
