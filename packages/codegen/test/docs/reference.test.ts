import { readFileSync } from "node:fs";
import path from "node:path";
import { CODES } from "@mcp-gen/schema";
import { expect, it } from "vitest";
import { diagnosticExamples } from "../../../../scripts/docs/reference/diagnostics.ts";
import { REPO_ROOT, referencePages } from "../../../../scripts/docs/reference/index.ts";

it("the docs site's reference pages are what the code says (npm run docs:reference regenerates them)", () => {
  for (const [file, text] of Object.entries(referencePages(REPO_ROOT))) {
    const onDisk = readFileSync(path.join(REPO_ROOT, file), "utf8");
    expect(onDisk, `${file} is stale: run npm run docs:reference`).toBe(text);
  }
}, 120_000);

it("every registered diagnostic code has an example input that triggers it (a new code needs one: CONTRIBUTING.md)", () => {
  const examples = diagnosticExamples(REPO_ROOT);
  expect(Object.keys(CODES).filter((code) => !examples.has(code))).toStrictEqual([]);
});
