/* The JSON API with a bearer token and a body (games, decks), and the games this browser keeps. */
import { API, ApiError, pageLanguage } from "./api.js";
import { t } from "./i18n.js";

/** ``method`` ``path`` under /api/v1; {status, body, etag}. A 304 has no body; an error throws ApiError (status 0:
 * no answer, the network's failure or none within ``timeout`` ms). */
export async function call(method, path, { token = null, body = undefined, etag = null, timeout = 0 } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": pageLanguage() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (etag) headers["If-None-Match"] = etag;
  let resp;
  try {
    resp = await fetch(`${API}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      signal: timeout ? AbortSignal.timeout(timeout) : undefined });
  } catch {
    throw new ApiError({ code: "network", message: t("error.network") }, 0);
  }
  if (resp.status === 304) return { status: 304, body: null, etag };
  let data = null;
  try {
    data = await resp.json();
  } catch {
    data = null;
  }
  if (!resp.ok) {
    const err = data && data.error && typeof data.error === "object" ? data.error
      : { code: `http_${resp.status}`, message: t("error.http", { status: resp.status }) };
    throw new ApiError(err, resp.status);
  }
  return { status: resp.status, body: data, etag: resp.headers.get("ETag") };
}

/** What this browser keeps under ``key`` (localStorage): {id: record}; {} when none or unreadable. */
export function kept(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}") || {};
  } catch {
    return {};
  }
}

/** Keep ``record`` for ``id`` under ``key``, merged into what is kept for it; null forgets it. */
export function keep(key, id, record) {
  const all = kept(key);
  if (record === null) delete all[id];
  else all[id] = { ...(all[id] || {}), ...record };
  localStorage.setItem(key, JSON.stringify(all));
}

const KEY = "mentalmagic.games";

/** The games created in this browser: {id: {judge_token, players: [{id, name, token}], format, rules, series,
 * created}}. */
export const savedGames = () => kept(KEY);
export const saveGame = (id, record) => keep(KEY, id, record);
export const forgetGame = (id) => keep(KEY, id, null);
