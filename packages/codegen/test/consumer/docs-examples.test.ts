import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fillMarkers } from "../../../../scripts/docs/markers.ts";
import { CLIENT_CONFIG_PAGES, clientEntries, launchEntry } from "./docs-clients.ts";
import { compileSnippets } from "./docs-compile.ts";
import { type DocsProject, runDocsProject, TRANSCRIBED_PAGES } from "./docs-project.ts";
import { buildAndPack } from "./packages.ts";
import { REPO_ROOT, refuseNetwork } from "./run.ts";

/**
 * The docs' examples as a reader runs them: the getting-started page's commands in a new folder with
 * the packed packages (offline, like the consumer matrix), then every TypeScript block of the README
 * and the site compiled in that project against the installed packages.
 */
let TMP = "";
let project: DocsProject;

beforeAll(async () => {
  refuseNetwork();
  TMP = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-docs-"));
  project = await runDocsProject(TMP, await buildAndPack(path.join(TMP, "tarballs")));
}, 600_000);

afterAll(() => {
  if (TMP) rmSync(TMP, { recursive: true, force: true });
});

it("the files and transcripts the README and getting-started show are what running them gives", () => {
  for (const page of TRANSCRIBED_PAGES) {
    const text = readFileSync(path.join(REPO_ROOT, page), "utf8");
    expect(fillMarkers(text, project), `${page} is stale: npm run docs:transcripts`).toBe(text);
  }
});

it("every TypeScript block of the README and the site compiles against the packed packages", async () => {
  const compiled = await compileSnippets(project.dir);
  expect(compiled.code, compiled.output).toBe(0);
}, 300_000);

it("the Claude Desktop / Cursor entry the getting-started page prints starts the server from another folder", async () => {
  expect(Object.keys(project.desktop)).toStrictEqual(["calc"]);
  expect(await launchEntry(project.desktop.calc!, project.dir)).toStrictEqual({
    tools: ["add"],
    sum: { result: 3 },
  });
});

it.each(
  CLIENT_CONFIG_PAGES,
)("the Claude Desktop / Cursor entries of %s start the server from another folder", async (page) => {
  const entries = Object.entries(clientEntries(page));
  expect(entries.length).toBeGreaterThan(0);
  for (const [name, entry] of entries) {
    expect(await launchEntry(entry, project.dir), name).toStrictEqual({ tools: ["add"], sum: { result: 3 } });
  }
});
