import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Contract } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { readContract } from "../../src/contract/read.ts";
import { emitServer, type ValidatorCache } from "../../src/emit/index.ts";
import { committedShapes, reuseCommittedShapes } from "../../src/emit/validator-reuse.ts";
import { compileShapes, validatorExports } from "../../src/emit/validators.ts";
import { runCli } from "../support/cli.ts";
import { REPO_ROOT, tempProject } from "../support/project.ts";

const FIXTURES = path.join(REPO_ROOT, "packages/codegen/test/fixtures");

/** Every golden contract: the TypeScript fixtures' and the hand-written ones'. */
const goldens: [string, Contract][] = [
  ...readdirSync(FIXTURES)
    .filter((d) => existsSync(path.join(FIXTURES, d, "expected/contract.json")))
    .map((d) => [d, readContract(path.join(FIXTURES, d, "expected/contract.json"))] as [string, Contract]),
  ...readdirSync(path.join(FIXTURES, "contracts"))
    .filter((f) => f.endsWith(".tools.json"))
    .map((f) => [f, readContract(path.join(FIXTURES, "contracts", f))] as [string, Contract]),
];

const validatorsOf = (contract: Contract, validatorCache?: ValidatorCache) =>
  emitServer(contract, {
    contractFile: `schemas/${contract.server}.tools.json`,
    outDir: `generated/${contract.server}`,
    ...(validatorCache ? { validatorCache } : {}),
  }).files.find((f) => f.path.endsWith("/validators.ts"))!.content;

/** How many shape lines a file has, and how many of them carry a fingerprint. */
const shapeLines = (content: string) => ({
  shapes: content.match(/^const shape\d+ = /gm)?.length ?? 0,
  fingerprinted: new Set(committedShapes(content).values()).size,
});

describe("build --check takes the committed validators.ts instead of compiling", () => {
  it("takes every fingerprinted shape of each golden, byte for byte what compiling gives", () => {
    let taken = 0;
    for (const [name, contract] of goldens) {
      const compiled = validatorsOf(contract);
      const cache: ValidatorCache = new Map();
      const count = reuseCommittedShapes({ contract, committed: compiled, cache });
      expect({ name, count }).toStrictEqual({ name, count: shapeLines(compiled).fingerprinted });
      // each shape taken is exactly what Ajv compiles from its schema now …
      for (const [json, shape] of cache) {
        expect(compileShapes([json])).toStrictEqual([[json, { ...shape, notes: [] }]]);
      }
      // … and the file emitted from the taken shapes is the file compiled
      expect(validatorsOf(contract, cache)).toBe(compiled);
      taken += count;
    }
    expect(taken).toBeGreaterThan(50);
  });

  it("a shape with strict-mode notes has no fingerprint: it is compiled, so its warnings still show", () => {
    const contract: Contract = {
      server: "notes",
      tools: [
        {
          name: "find",
          description: "Finds parts.",
          // `minLength` without `type`: Ajv's strict mode notes it (MCPG124)
          inputSchema: { type: "object", properties: { name: { minLength: 2 } }, required: ["name"] },
        },
      ],
    };
    const compiled = validatorsOf(contract);
    expect(shapeLines(compiled)).toStrictEqual({ shapes: 1, fingerprinted: 0 });
    expect(reuseCommittedShapes({ contract, committed: compiled, cache: new Map() })).toBe(0);
  });

  it("compiles again a shape edited by hand, a shape whose schema changed, and a shape without its fingerprint", () => {
    const [, contract] = goldens.find(([name]) => name === "kitchen-sink.tools.json")!;
    const compiled = validatorsOf(contract);
    const { fingerprinted } = shapeLines(compiled);
    const lines = compiled.split("\n");
    const first = lines.findIndex((l) => /^const shape\d+ = .* \/\/ [\w-]{43}$/.test(l));
    const variants = {
      // the validation itself changed: its first error is not counted
      edited: lines.with(first, lines[first]!.replace("errors++;", "")),
      unmarked: lines.with(first, lines[first]!.replace(/ \/\/ [\w-]{43}$/, "")),
    };
    expect(variants.edited).not.toStrictEqual(lines);
    for (const [variant, edited] of Object.entries(variants)) {
      const cache: ValidatorCache = new Map();
      const count = reuseCommittedShapes({ contract, committed: edited.join("\n"), cache });
      expect({ variant, count }).toStrictEqual({ variant, count: fingerprinted - 1 });
      // the emitted file is the compiled one, so the comparison with the disk finds it stale
      expect(validatorsOf(contract, cache)).toBe(compiled);
    }
    // the same file, but the schema of that shape has another constraint now
    const variable = /^const (shape\d+)/.exec(lines[first]!)![1];
    const [, exported] = new RegExp(`^export const (\\w+): RawValidate = ${variable};$`, "m").exec(compiled)!;
    const changed = structuredClone(contract);
    const tool = changed.tools.find((t) => Object.values(validatorExports(t.name)).includes(exported!))!;
    const key = validatorExports(tool.name).input === exported ? "inputSchema" : "outputSchema";
    tool[key] = { ...tool[key], minProperties: 1 };
    const cache: ValidatorCache = new Map();
    expect(reuseCommittedShapes({ contract: changed, committed: compiled, cache })).toBe(fingerprinted - 1);
    expect(validatorsOf(changed, cache)).toBe(validatorsOf(changed));
  });

  it("this repository's committed validators are taken whole: a check compiles none of them", () => {
    const schemas = path.join(REPO_ROOT, "schemas");
    for (const file of readdirSync(schemas).filter((f) => f.endsWith(".tools.json"))) {
      const contract = readContract(path.join(schemas, file));
      const committed = readFileSync(
        path.join(REPO_ROOT, "generated", contract.server, "validators.ts"),
        "utf8",
      );
      const count = reuseCommittedShapes({ contract, committed, cache: new Map() });
      expect({ file, count }).toStrictEqual({ file, count: shapeLines(committed).fingerprinted });
    }
  });
});

describe("mcp-gen build --check with committed validators (real CLI)", { timeout: 300_000 }, () => {
  it("passes on an unchanged build and finds a validator edited by hand", async () => {
    const dir = tempProject({
      "mcp-gen.config.ts": `import { defineConfig } from "@mcp-gen/codegen/config";
export default defineConfig({ servers: { calc: { tools: ["src/*.ts"] } } });
`,
      "src/calc.ts": `/** Greets someone. */
export function greet(name: string, times: number): string {
  return name.repeat(times);
}
`,
    });
    expect((await runCli(["build"], dir)).code).toBe(0);
    const check = await runCli(["build", "--check"], dir);
    expect({ code: check.code, stdout: check.stdout }).toStrictEqual({
      code: 0,
      stdout: "mcp-gen: up to date (1 server, 1 tool)\n",
    });
    const file = path.join(dir, "generated/calc/validators.ts");
    const content = readFileSync(file, "utf8");
    const edited = content.replace('if(typeof data0 !== "string")', "if(false)");
    expect(edited).not.toBe(content);
    writeFileSync(file, edited);
    const stale = await runCli(["build", "--check"], dir);
    expect({ code: stale.code, stderr: stale.stderr }).toStrictEqual({
      code: 1,
      stderr: [
        "error MCPG050: generated files are stale:",
        "  changed generated/calc/validators.ts",
        "  fix: run `npx mcp-gen build` and commit the result",
        "",
      ].join("\n"),
    });
  });
});
