/**
 * Writes the reference pages of the docs site from the code (`npm run docs:reference`):
 * the CLI from its commander definitions, the config from its types, the runtime's API from its
 * TSDoc, the diagnostics from their registry and the error fixtures. A test fails when they are stale
 * (packages/codegen/test/docs/reference.test.ts).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT, referencePages } from "./reference/index.ts";

for (const [file, text] of Object.entries(referencePages(REPO_ROOT))) {
  writeFileSync(path.join(REPO_ROOT, file), text);
  console.log(`wrote ${file}`);
}
