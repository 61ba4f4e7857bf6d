/* Asking once before an action that ends a player's game or cuts a player off (issue 20): a modal
 * <dialog> (focus kept inside, Escape cancels), its sentences read as its description. */
import { $, el } from "./dom.js";
import { keyOf } from "./keep.js";

/** Show ``title`` and ``lines``; resolves true when the judge goes ahead, false otherwise.
 *
 * ``more`` (optional), more of the question: {node, focus, ready(say)}. ``node`` (fields) goes under
 * the sentences and ``focus`` has the focus first (else Cancel has it); the yes button first awaits
 * ``ready(say)``: true goes ahead, false keeps the dialog open, and ``say(lines, yes)`` writes its
 * sentences and the button's word anew. */
export function confirmFirst(title, lines, yes, more = null) {
  const dialog = $("confirm-dialog");
  const say = (sentences, word) => {
    $("confirm-body").replaceChildren(...sentences.map((line) => (typeof line === "string" ? el("p", { text: line }) : line)));
    $("confirm-yes").textContent = word;
  };
  $("confirm-title").textContent = title;
  say(lines, yes);
  $("confirm-more").replaceChildren(...(more ? [more.node] : []));
  const back = document.activeElement;
  const backKey = keyOf(back); // a redraw while the dialog is open may have drawn that control anew
  return new Promise((resolve) => {
    let over = false;
    let asking = false;
    const done = (answer) => {
      if (over) return;
      over = true;
      $("confirm-yes").removeEventListener("click", onYes);
      $("confirm-no").removeEventListener("click", onNo);
      dialog.removeEventListener("close", onClose);
      if (dialog.open) dialog.close();
      $("confirm-more").replaceChildren();
      const to = back && back.isConnected ? back : backKey && document.querySelector(backKey);
      if (to) to.focus();
      resolve(answer);
    };
    const onYes = async () => {
      if (asking) return; // one question to the server at a time
      asking = true;
      try {
        if (!more || (await more.ready(say))) done(true);
      } finally {
        asking = false;
      }
    };
    const onNo = () => done(false);
    const onClose = () => done(false);
    $("confirm-yes").addEventListener("click", onYes);
    $("confirm-no").addEventListener("click", onNo);
    dialog.addEventListener("close", onClose);
    dialog.showModal();
    (more && more.focus ? more.focus : $("confirm-no")).focus();
  });
}
