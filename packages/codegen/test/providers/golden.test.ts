import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readContract } from "../../src/contract/read.ts";
import { emitServer } from "../../src/emit/index.ts";
import type { Target } from "../../src/emit/providers/model.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/contracts");

/** Targets per fixture where not all targets can express it (the errors are tested elsewhere). */
const TARGETS: Record<string, Target[]> = { names: ["gemini"] };

const cases = readdirSync(FIXTURES)
  .filter((f) => f.endsWith(".tools.json"))
  .map((f) => f.slice(0, -".tools.json".length))
  .sort();

describe("golden files: every artifact of every fixture contract", () => {
  it.each(cases)("%s", async (name) => {
    const contract = readContract(path.join(FIXTURES, `${name}.tools.json`), `${name}.tools.json`);
    const targets = TARGETS[name];
    const { files } = emitServer(contract, {
      contractFile: `${name}.tools.json`,
      outDir: name,
      ...(targets ? { targets } : {}),
    });
    for (const file of files) {
      await expect(file.content).toMatchFileSnapshot(path.join(FIXTURES, "expected", file.path));
    }
    const expectedDir = path.join(FIXTURES, "expected", name);
    const onDisk = listFiles(expectedDir).map((f) => `${name}/${f}`);
    expect(onDisk).toStrictEqual(files.map((f) => f.path).sort());
  });
});

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
    )
    .sort();
}
