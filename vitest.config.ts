import { configDefaults, defineConfig } from "vitest/config";

/**
 * The docs' examples run as a reader meets them: the pages' code and transcripts with the packed
 * packages in a fresh project (70-170 s), and the diagnostics reference's commands (30-105 s, run
 * alongside). Not part of the everyday suite but of the docs step of CI (`.ci/docs`,
 * `npm run docs:examples`, which uses vitest.docs.config.ts).
 */
export const DOCS_EXAMPLES = [
  "packages/codegen/test/consumer/docs-examples.test.ts",
  "packages/codegen/test/docs/diagnostic-examples.test.ts",
];

export default defineConfig({
  // The repository's own packages run from their TypeScript sources in tests (the
  // "@mcp-gen/source" export condition); child processes started by tests use the compiled dist/.
  resolve: { conditions: ["@mcp-gen/source"] },
  ssr: { resolve: { conditions: ["@mcp-gen/source"] } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...DOCS_EXAMPLES],
    testTimeout: 60_000,
    // Two files at a time: vitest's default on a 2-core machine is one, and most files wait on child
    // processes, servers and npm. The whole suite on the 2-core CI machine: 568 s → 441 s.
    maxWorkers: 2,
    hookTimeout: 60_000,
  },
});
