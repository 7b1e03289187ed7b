/**
 * The docs site as a reader meets it (`bash .ci/docs`, after `npm run docs:build`): `vitepress
 * preview` serves the built site on 127.0.0.1, headless Chromium opens the landing page, follows the
 * navigation, searches "Pattern" and lands on the constraints page; then every internal link and
 * anchor of every page is checked. Exits 1 with what failed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { checkLinks } from "./site/links.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CHROMIUM = process.env.DOCS_CHROMIUM || "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** `vitepress preview` of the built site; resolves once it answers. */
async function preview(port: number): Promise<ChildProcess> {
  const bin = path.join(ROOT, "node_modules/vitepress/bin/vitepress.js");
  const child = spawn(
    process.execPath,
    [bin, "preview", "docs", "--port", String(port), "--host", "127.0.0.1"],
    {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`vitepress preview exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error("vitepress preview did not answer on 127.0.0.1");
}

const failures: string[] = [];
function expectThat(ok: boolean, what: string): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
}

/** Waits for the page's title heading (client-side navigation changes the URL before the content). */
async function expectHeading(page: Page, title: string, what: string): Promise<void> {
  const shown = await page
    .locator(".vp-doc h1", { hasText: title })
    .first()
    .waitFor({ timeout: 10_000 })
    .then(
      () => true,
      () => false,
    );
  expectThat(shown, what);
}

async function browse(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.locator(".VPHero .name").waitFor();
  expectThat(
    (await page.locator(".VPHero .name").innerText()).trim() === "mcp-gen",
    "the landing page renders its hero",
  );
  await page.getByRole("link", { name: "Get started" }).first().click();
  await page.waitForURL(/\/guide\/getting-started\.html$/);
  await expectHeading(page, "Getting started", "'Get started' opens the getting-started page");
  await page.locator(".VPSidebar").getByRole("link", { name: "Constraints", exact: true }).click();
  await page.waitForURL(/\/guide\/constraints\.html$/);
  await expectHeading(page, "Constraints", "the sidebar navigates to Constraints");
  await page.goto(`${origin}/guide/getting-started.html`);
  await page.locator(".VPNavBarSearch button").click();
  await page.locator("#localsearch-input").fill("Pattern");
  const hit = page.locator('.VPLocalSearchBox .result[href*="/guide/constraints.html"]').first();
  await hit.waitFor({ timeout: 15_000 });
  expectThat(true, "searching 'Pattern' finds the constraints page");
  await hit.click();
  await page.waitForURL(/\/guide\/constraints\.html/);
  await expectHeading(page, "Constraints", "the search result opens the constraints page");
}

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const server = await preview(port);
const profile = mkdtempSync(path.join(os.tmpdir(), "docs-chromium-"));
try {
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: FLAGS });
  try {
    await browse(context.pages()[0] ?? (await context.newPage()), origin);
  } catch (error) {
    expectThat(false, `browsing the site: ${(error as Error).message}`);
  } finally {
    await context.close();
  }
  const links = await checkLinks(origin);
  for (const b of links.broken) console.log(`  broken: ${b.page} -> ${b.href}: ${b.problem}`);
  expectThat(
    links.broken.length === 0,
    `${links.links} internal links of ${links.pages} pages resolve, anchors included`,
  );
} finally {
  server.kill();
  rmSync(profile, { recursive: true, force: true });
}
process.exitCode = failures.length === 0 ? 0 : 1;
