/**
 * Reruns what the README and the getting-started page show (`npm run docs:transcripts`): packs the
 * packages, makes the getting-started project in a temporary folder (offline, from npm's cache, like
 * the consumer matrix), and fills every `<!-- file:… -->` and `<!-- transcript:… -->` marker with what
 * the run left and printed. packages/codegen/test/consumer/docs-examples.test.ts fails when they differ.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runDocsProject, TRANSCRIBED_PAGES } from "../../packages/codegen/test/consumer/docs-project.ts";
import { buildAndPack } from "../../packages/codegen/test/consumer/packages.ts";
import { REPO_ROOT } from "../../packages/codegen/test/consumer/run.ts";
import { fillMarkers } from "./markers.ts";

const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-docs-"));
try {
  const tarballs = await buildAndPack(path.join(tmp, "tarballs"));
  const project = await runDocsProject(tmp, tarballs);
  for (const page of TRANSCRIBED_PAGES) {
    const file = path.join(REPO_ROOT, page);
    const before = readFileSync(file, "utf8");
    const after = fillMarkers(before, project);
    writeFileSync(file, after);
    console.log(`${after === before ? "unchanged" : "updated"} ${page}`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
