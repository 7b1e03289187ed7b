import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS_DIR, commandFixtures, runCommandFixture } from "./diagnostic-commands.ts";

/**
 * The diagnostics reference's command examples, run: each fixture's `mcp-gen` command (a real CLI
 * child process) must print its code, exactly as `expected.txt` holds. Part of the docs step
 * (`npm run docs:examples`, `.ci/docs`: 30-105 s), not of `npm test`; `-u` refreshes `expected.txt`.
 */
describe.each(commandFixtures())("diagnostic fixture %s", (code) => {
  it("prints the code it is named by, as expected.txt holds", async () => {
    const { output } = await runCommandFixture(code);
    expect(output).toMatch(new RegExp(`^\\s*(?:error|warning) ${code}: `, "m"));
    await expect(output).toMatchFileSnapshot(path.join(COMMANDS_DIR, code, "expected.txt"));
  });
});
