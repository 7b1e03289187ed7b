import path from "node:path";
import { CODES } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { diagnosticExamples } from "../../../../scripts/docs/reference/diagnostics.ts";
import { REPO_ROOT } from "../../../../scripts/docs/reference/index.ts";
import { COMMANDS_DIR, commandFixtures, runCommandFixture } from "./diagnostic-commands.ts";

describe.each(commandFixtures())("diagnostic fixture %s", (code) => {
  it("prints the code it is named by, as expected.txt holds", async () => {
    const { output } = await runCommandFixture(code);
    expect(output).toMatch(new RegExp(`^\\s*(?:error|warning) ${code}: `, "m"));
    await expect(output).toMatchFileSnapshot(path.join(COMMANDS_DIR, code, "expected.txt"));
  });
});

it("every registered diagnostic code has an example input that triggers it (a new code needs one)", () => {
  const examples = diagnosticExamples(REPO_ROOT);
  expect(Object.keys(CODES).filter((code) => !examples.has(code))).toStrictEqual([]);
});
