/* The table sheet (/games/<id>/sheet, issue 31): every seat's QR code on one page, to print or hold up.
 * The tokens are the ones this browser keeps (the judge's, from the console); the server never sees a
 * token in a URL. */
import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { seatCode, seats } from "./seats.js";
import { Status } from "./status.js";
import { syncLanguageLinks } from "./langswitch.js";

const GAME = document.querySelector('meta[name="game-id"]').content;
const status = new Status($("sheet-status"));

function draw() {
  const all = seats(GAME).filter((s) => s.link);
  if (!all.length) {
    status.show(t("sheet.none"), "error");
    return;
  }
  $("sheet-seats").replaceChildren(...all.map((s) => el("li", { class: "sheet-seat", "data-player": s.id },
    el("h3", { text: s.name }),
    seatCode(s.link, s.name, (e) => status.error(e)),
    el("p", { class: "seat-url", text: s.link }))));
}

syncLanguageLinks();
$("print-sheet").addEventListener("click", () => window.print());
draw();
