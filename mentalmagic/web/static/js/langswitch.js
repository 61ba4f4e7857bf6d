/* The language links return to the page as it is now: the script changes the URL
 * (history.pushState) after the server rendered the links, so their ?next= follows it. */

export function syncLanguageLinks() {
  const here = location.pathname + location.search;
  for (const a of document.querySelectorAll("a.lang-link")) {
    const url = new URL(a.href, location.href);
    url.searchParams.set("next", here);
    a.href = url.pathname + url.search;
  }
}
