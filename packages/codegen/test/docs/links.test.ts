import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { checkLinks } from "../../../../scripts/docs/site/links.ts";

/** A three-page site on 127.0.0.1 with one dead link and one missing anchor. */
const SITE: Record<string, string> = {
  "/": '<a href="/guide/a.html">A</a> <a href="/guide/b.html#kept">B</a>',
  "/guide/a.html":
    '<h1 id="a">A</h1><a href="./b.html#gone">gone</a> <a href="/guide/missing.html">missing</a>',
  "/guide/b.html": '<h2 id="kept">Kept</h2><a href="#kept">self</a> <a href="https://example.com/">out</a>',
};

let server: Server;
let origin = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = SITE[req.url ?? ""];
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html" }).end(body ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("the docs' link checker reports dead pages and missing anchors, and follows only internal links", async () => {
  expect(await checkLinks(origin)).toStrictEqual({
    pages: 3,
    links: 5,
    broken: [
      { page: "/guide/a.html", href: "./b.html#gone", problem: 'no id="gone" on /guide/b.html' },
      {
        page: "/guide/a.html",
        href: "/guide/missing.html",
        problem: "/guide/missing.html does not answer 200",
      },
    ],
  });
});
