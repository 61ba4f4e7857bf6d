/* The screen kept awake during a game (issue 31), where the browser allows it: the Screen Wake Lock API.
 * A phone lying on the table between turns would otherwise lock, and its seat go dark. Browsers offer the
 * lock only to a secure context (https, or this laptop's own http://127.0.0.1) and may refuse it (battery
 * saver, a hidden tab): then nothing is said and the phone sleeps as it is set to. A lock the browser
 * drops when the page is hidden is asked for again when it shows. */
let wanted = false;
let lock = null;
let asking = false;

async function acquire() {
  if (!wanted || lock || asking || document.visibilityState !== "visible" || !("wakeLock" in navigator)) return;
  asking = true;
  try {
    const got = await navigator.wakeLock.request("screen");
    got.addEventListener("release", () => { if (lock === got) lock = null; });
    lock = got;
    if (!wanted) release(); // the game ended while the browser answered
  } catch {
    lock = null; // refused: fail silently
  } finally {
    asking = false;
  }
}

function release() {
  const held = lock;
  lock = null;
  if (held) held.release().catch(() => {});
}

/** Keep the screen awake while ``on`` (a game going on), let it sleep once not. */
export function keepAwake(on) {
  wanted = on;
  if (on) acquire();
  else release();
}

document.addEventListener("visibilitychange", acquire);
