/**
 * A link checker for the built site, over HTTP: from the landing page it follows every internal link
 * (same origin) and checks that each page answers 200 and each `#anchor` names an `id` on its page.
 */

/** A broken link: on which page, to what, and why. */
export interface BrokenLink {
  page: string;
  href: string;
  problem: string;
}

const attr = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, "g"))].map((m) => m[1] as string);

/** `&amp;` and friends in attribute values, as a browser reads them. */
const decodeEntities = (v: string) =>
  v.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<");

export async function checkLinks(
  origin: string,
): Promise<{ pages: number; links: number; broken: BrokenLink[] }> {
  const html = new Map<string, string | undefined>();
  const fetchPage = async (pathname: string) => {
    if (!html.has(pathname)) {
      const response = await fetch(new URL(pathname, origin));
      html.set(pathname, response.ok ? await response.text() : undefined);
    }
    return html.get(pathname);
  };
  const broken: BrokenLink[] = [];
  const queue = ["/"];
  const seen = new Set(queue);
  let links = 0;
  while (queue.length > 0) {
    const page = queue.shift() as string;
    const source = await fetchPage(page);
    if (source === undefined) continue;
    for (const raw of attr(source, "href").map(decodeEntities)) {
      const url = new URL(raw, new URL(page, origin));
      if (url.origin !== origin || /\.(css|js|svg|png|ico|woff2?)$/.test(url.pathname)) continue;
      links++;
      const target = await fetchPage(url.pathname);
      if (target === undefined) {
        broken.push({ page, href: raw, problem: `${url.pathname} does not answer 200` });
        continue;
      }
      const anchor = decodeURIComponent(url.hash.slice(1));
      if (anchor && !attr(target, "id").map(decodeEntities).includes(anchor)) {
        broken.push({ page, href: raw, problem: `no id="${anchor}" on ${url.pathname}` });
      }
      if (!seen.has(url.pathname) && url.pathname.endsWith(".html")) {
        seen.add(url.pathname);
        queue.push(url.pathname);
      }
    }
  }
  return { pages: seen.size, links, broken };
}
