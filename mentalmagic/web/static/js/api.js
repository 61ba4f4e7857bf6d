/* The JSON API client (/api/v1, docs/api.md): one GET helper and the error it throws. */
import { t } from "./i18n.js";

export const API = "/api/v1";

/** An answer in docs/api.md's error envelope ({code, message, rule?, fields?}), or a network failure. */
export class ApiError extends Error {
  constructor(body, status) {
    super(body.message || "error");
    this.name = "ApiError";
    this.body = body;
    this.status = status;
  }
}

/** The page's language (its <html lang>): the API words its errors and reasons in it. */
export function pageLanguage() {
  return document.documentElement.lang || "en";
}

/** GET ``path`` under /api/v1 with ``params``; the parsed JSON, or an ApiError. Aborts pass through. */
export async function getJSON(path, params, signal) {
  const query = params ? `?${new URLSearchParams(params)}` : "";
  let resp;
  try {
    const headers = { Accept: "application/json", "Accept-Language": pageLanguage() };
    resp = await fetch(`${API}${path}${query}`, { signal, headers });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError({ code: "network", message: t("error.network") }, 0);
  }
  let body = null;
  try {
    body = await resp.json();
  } catch (e) {
    if (e.name === "AbortError") throw e;
  }
  if (!resp.ok) {
    const err = body && body.error && typeof body.error === "object" ? body.error
      : { code: `http_${resp.status}`, message: t("error.http", { status: `${resp.status} ${resp.statusText}` }) };
    throw new ApiError(err, resp.status);
  }
  if (!body) throw new ApiError({ code: "bad_response", message: t("error.bad_response") }, resp.status);
  return body;
}
