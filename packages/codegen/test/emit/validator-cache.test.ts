import type { Contract, ContractTool } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { emitServer, type ValidatorCache } from "../../src/emit/index.ts";

/** `find`'s `name` property lacks a `type`: Ajv's strict mode notes it (MCPG124). */
const find = (minLength: number, description = "Finds parts."): ContractTool => ({
  name: "find",
  description,
  inputSchema: {
    type: "object",
    properties: { name: { description: "Part of the name", minLength } },
    required: ["name"],
  },
});
const count: ContractTool = {
  name: "count",
  description: "Counts parts.",
  inputSchema: {
    type: "object",
    properties: { shelf: { type: "integer", minimum: 1 } },
    required: ["shelf"],
  },
  outputSchema: { type: "object", properties: { result: { type: "integer" } }, required: ["result"] },
};
const server = (name: string, tools: ContractTool[]): Contract => ({ server: name, tools });

const emit = (contract: Contract, validatorCache?: ValidatorCache) => {
  const out = emitServer(contract, {
    contractFile: `schemas/${contract.server}.tools.json`,
    outDir: `generated/${contract.server}`,
    ...(validatorCache ? { validatorCache } : {}),
  });
  return {
    file: out.files.find((f) => f.path.endsWith("/validators.ts"))!,
    warnings: out.warnings.filter((w) => w.code === "MCPG124"),
  };
};

/** The validator code of each export: what the `shapeN` it names holds. */
function validatorsOf(content: string): Record<string, string> {
  const shapes = new Map([...content.matchAll(/^const (shape\d+) = (.*)$/gm)].map((m) => [m[1], m[2]]));
  return Object.fromEntries(
    [...content.matchAll(/^export const (\w+): RawValidate = (shape\d+);$/gm)].map((m) => [
      m[1],
      shapes.get(m[2]),
    ]),
  );
}

describe("validators compiled once per shape", () => {
  it("each schema's code depends on that schema alone, whatever else the server has", () => {
    const alone = validatorsOf(emit(server("a", [count])).file.content);
    const withOthers = validatorsOf(emit(server("b", [find(2), count])).file.content);
    expect(withOthers.count_input).toBe(alone.count_input);
    expect(withOthers.count_output).toBe(alone.count_output);
    expect(withOthers.find_input).not.toBe(alone.count_input);
  });

  it("a shape is compiled once for the servers of a build, and each file is what it is alone", () => {
    const cache: ValidatorCache = new Map();
    const a = emit(server("a", [count]), cache);
    const b = emit(server("b", [find(2), count]), cache);
    expect(cache.size).toBe(3);
    expect([a.file, b.file]).toStrictEqual([
      emit(server("a", [count])).file,
      emit(server("b", [find(2), count])).file,
    ]);
  });

  it("watch compiles only the schema that changed, and writes what a one-off emission writes", () => {
    const cache: ValidatorCache = new Map();
    const first = emit(server("a", [find(2), count]), cache);
    const before = new Map(cache);
    // another description: the same shapes, nothing compiled
    const described = emit(server("a", [find(2, "Finds parts by name."), count]), cache);
    expect(cache).toStrictEqual(before);
    expect(described.file).toStrictEqual(first.file);
    expect(described.warnings).toStrictEqual(first.warnings);
    // another minLength: one new shape, the others taken as they were
    const changed = emit(server("a", [find(3), count]), cache);
    expect(cache.size).toBe(before.size + 1);
    for (const [shape, compiled] of before) expect(cache.get(shape)).toBe(compiled);
    expect(changed.file).toStrictEqual(emit(server("a", [find(3), count])).file);
  });

  it("a cached shape brings its strict-mode notes along, at the pointer of the schema that uses it", () => {
    const cache: ValidatorCache = new Map();
    emit(server("a", [find(2)]), cache);
    const again = emit(server("b", [count, find(2)]), cache);
    expect(again.warnings.map((w) => [w.message, w.pointer])).toStrictEqual([
      [
        expect.stringMatching(/^tool "find": missing type "string" for keyword "minLength"/),
        "/tools/1/inputSchema/properties/name",
      ],
    ]);
  });
});

describe("the Ajv helpers validators.ts imports", () => {
  const importsOf = (content: string) =>
    content.split("\n").filter((l) => /^(import|const (ajvHelpers|require)) /.test(l));

  it("imports only the helpers its validators call, each from its own entry, sorted by id", () => {
    const dated: ContractTool = {
      name: "dated",
      description: "Takes a day.",
      inputSchema: { type: "object", properties: { day: { type: "string", format: "date" } } },
    };
    expect(importsOf(emit(server("lengths", [find(2)])).file.content)).toStrictEqual([
      'import type { RawValidate } from "@mcp-gen/runtime/validation";',
      'import ajvHelper0 from "@mcp-gen/runtime/ajv-runtime/ucs2length";',
      'const ajvHelpers = { "ajv/dist/runtime/ucs2length": ajvHelper0 };',
      "const require = (id) => ajvHelpers[id];",
    ]);
    expect(importsOf(emit(server("both", [dated, find(2)])).file.content)).toStrictEqual([
      'import type { RawValidate } from "@mcp-gen/runtime/validation";',
      'import ajvHelper0 from "@mcp-gen/runtime/ajv-runtime/formats";',
      'import ajvHelper1 from "@mcp-gen/runtime/ajv-runtime/ucs2length";',
      'const ajvHelpers = { "ajv-formats/dist/formats": ajvHelper0, "ajv/dist/runtime/ucs2length": ajvHelper1 };',
      "const require = (id) => ajvHelpers[id];",
    ]);
    expect(importsOf(emit(server("plain", [count])).file.content)).toStrictEqual([
      'import type { RawValidate } from "@mcp-gen/runtime/validation";',
    ]);
  });
});
