import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emitServer } from "../../src/emit/index.ts";
import { CONTRACT_FIXTURES, contractCases } from "./cases.ts";

const EXPECTED = path.join(CONTRACT_FIXTURES, "expected");

/**
 * Golden files of every artifact (all targets) for the hand-written contracts and the contracts of
 * the TypeScript fixtures. The server manifest of a TypeScript contract imports its tool modules by a
 * path relative to its real output folder, so it is left out here (the manifest tests cover it).
 */
describe("golden files: every artifact of every fixture contract", () => {
  it.each(contractCases().map((c) => [c.name, c] as const))("%s", async (name, { contract, targets }) => {
    const { files } = emitServer(contract, {
      contractFile: `${name}.tools.json`,
      outDir: name,
      importExtension: ".ts",
      ...(targets ? { targets } : {}),
    });
    const kept = files.filter((f) => !(name.startsWith("ts-") && f.path === `${name}/server.ts`));
    for (const file of kept) await expect(file.content).toMatchFileSnapshot(path.join(EXPECTED, file.path));
    const onDisk = listFiles(path.join(EXPECTED, name)).map((f) => `${name}/${f}`);
    expect(onDisk).toStrictEqual(kept.map((f) => f.path).sort());
  });
});

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
    )
    .sort();
}
