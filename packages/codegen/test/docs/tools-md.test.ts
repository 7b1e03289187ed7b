import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createAjv } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { readContract } from "../../src/contract/read.ts";
import { emitDocs } from "../../src/emit/docs.ts";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const EXPECTED = path.join(ROOT, "packages/codegen/test/fixtures/contracts/expected");

/** Every TOOLS.md the build emitted (examples and fixtures), with its contract. */
const docs = [
  ...readdirSync(path.join(ROOT, "generated")).map((s) => [
    `generated/${s}`,
    path.join(ROOT, "generated", s, "TOOLS.md"),
    path.join(ROOT, "schemas", `${s}.tools.json`),
  ]),
  ...readdirSync(EXPECTED).map((s) => [
    `fixtures/${s}`,
    path.join(EXPECTED, s, "TOOLS.md"),
    s.startsWith("ts-")
      ? path.join(ROOT, "packages/codegen/test/fixtures", s.slice(3), "expected/contract.json")
      : path.join(ROOT, "packages/codegen/test/fixtures/contracts", `${s}.tools.json`),
  ]),
].filter(([, md, contract]) => existsSync(md!) && existsSync(contract!)) as [string, string, string][];

describe.each(docs)("TOOLS.md of %s", (_, mdFile, contractFile) => {
  const md = readFileSync(mdFile, "utf8");
  const contract = readContract(contractFile);

  it("has a section and a parameters row for every tool and property", () => {
    for (const tool of contract.tools) {
      expect(md).toContain(`\n## \`${tool.name}\`\n`);
      for (const name of Object.keys((tool.inputSchema.properties as object | undefined) ?? {}))
        expect(md).toContain(`| \`${name}\` |`);
    }
  });

  it("shows example calls whose arguments the tool accepts", () => {
    const ajv = createAjv({ source: false });
    const calls = [...md.matchAll(/```json\n(.*)\n```/g)].map(
      (m) => JSON.parse(m[1]!) as { name: string; arguments: unknown },
    );
    expect(calls.map((c) => c.name)).toStrictEqual(contract.tools.map((t) => t.name));
    for (const call of calls) {
      const tool = contract.tools.find((t) => t.name === call.name)!;
      expect(ajv.validate(tool.inputSchema, call.arguments), `${call.name}: ${ajv.errorsText()}`).toBe(true);
    }
  });
});

it("escapes table cells and lists constraints, defaults and nested properties", () => {
  const contract = {
    server: "demo",
    tools: [
      {
        name: "find",
        description: "Find things.",
        inputSchema: {
          type: "object",
          properties: {
            q: { type: "string", description: "a | b\nsecond line", minLength: 2, pattern: "^x" },
            where: {
              type: "object",
              properties: { lat: { type: "number", exclusiveMinimum: -90 } },
              required: ["lat"],
            },
            mode: { enum: ["fast", "exact"], default: "fast" },
          },
          required: ["q"],
        },
      },
    ],
  };
  const md = emitDocs({
    contract,
    contractFile: "c.json",
    outDir: "g",
    warnings: [],
    importExtension: ".js",
  }).content;
  expect(md.split("\n").filter((l) => l.startsWith("| `"))).toStrictEqual([
    "| `q` | string | yes |  | length ≥ 2, matches `^x` | a \\| b second line |",
    "| `where` | object | no |  |  |  |",
    "| `where.lat` | number | yes |  | > -90 |  |",
    '| `mode` | "fast" \\| "exact" | no | `"fast"` |  |  |',
  ]);
});
