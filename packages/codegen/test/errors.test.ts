import { readdirSync } from "node:fs";
import path from "node:path";
import { formatDiagnostic, McpGenError } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { generate } from "../src/build.ts";
import { fixtureConfig } from "./support/project.ts";

/**
 * Error fixtures: each folder of `errors/` holds a `tools.ts` the build must reject; the
 * exact diagnostics (code, message, file:line:col, fix) are in `expected.txt`.
 */
const ERRORS = path.join(import.meta.dirname, "errors");
const cases = readdirSync(ERRORS);

describe.each(cases)("error fixture %s", (name) => {
  it("stops the build with the expected diagnostics", async () => {
    const error = await generate(fixtureConfig(path.join(ERRORS, name))).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpGenError);
    const text = (error as McpGenError).diagnostics.map(formatDiagnostic).join("\n\n");
    await expect(`${text}\n`).toMatchFileSnapshot(`errors/${name}/expected.txt`);
  });
});
