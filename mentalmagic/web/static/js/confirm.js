/* Asking once before an action that ends a player's game or cuts a player off (issue 20): a modal
 * <dialog> (focus kept inside, Escape cancels), its sentences read as its description. */
import { $, el } from "./dom.js";
import { keyOf } from "./keep.js";

/** Show ``title`` and ``lines``; resolves true when the judge goes ahead, false otherwise. */
export function confirmFirst(title, lines, yes) {
  const dialog = $("confirm-dialog");
  $("confirm-title").textContent = title;
  $("confirm-body").replaceChildren(...lines.map((line) => el("p", { text: line })));
  $("confirm-yes").textContent = yes;
  const back = document.activeElement;
  const backKey = keyOf(back); // a redraw while the dialog is open may have drawn that control anew
  return new Promise((resolve) => {
    const done = (answer) => {
      $("confirm-yes").removeEventListener("click", onYes);
      $("confirm-no").removeEventListener("click", onNo);
      dialog.removeEventListener("close", onClose);
      if (dialog.open) dialog.close();
      const to = back && back.isConnected ? back : backKey && document.querySelector(backKey);
      if (to) to.focus();
      resolve(answer);
    };
    const onYes = () => done(true);
    const onNo = () => done(false);
    const onClose = () => done(false);
    $("confirm-yes").addEventListener("click", onYes);
    $("confirm-no").addEventListener("click", onNo);
    dialog.addEventListener("close", onClose);
    dialog.showModal();
    $("confirm-no").focus();
  });
}
