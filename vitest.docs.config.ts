import { defineConfig } from "vitest/config";
import base, { DOCS_EXAMPLES } from "./vitest.config.ts";

/**
 * The docs step's tests (`.ci/docs`, `npm run docs:examples`): the README's and the site's examples
 * compiled and their transcripts rerun against the packed packages, and the diagnostics reference's
 * commands run, which the everyday suite leaves out.
 */
export default defineConfig({
  ...base,
  test: { ...base.test, include: DOCS_EXAMPLES, exclude: [] },
});
