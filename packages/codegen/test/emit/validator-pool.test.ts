import { availableParallelism } from "node:os";
import type { Contract, ContractTool } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
// The pool starts its worker from the compiled script only, so this test runs the compiled code
// (scripts/test.sh builds dist/ before the suite).
import { precompileShapes } from "../../dist/emit/validator-pool.js";
import { compileShapes, type ValidatorCache } from "../../dist/emit/validators.js";
import { emitServer } from "../../src/emit/index.ts";

/** Tools with different shapes: a string bound, a number bound and a format each. */
const tools = (n: number): ContractTool[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool ${i}.`,
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: i + 1 },
        count: { type: "integer", maximum: 100 + i },
        ...(i % 3 === 0 ? { email: { type: "string", format: "email" } } : {}),
      },
      required: ["name"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { result: { type: "number", minimum: i } },
      required: ["result"],
    },
  }));
const contract: Contract = { server: "many", tools: tools(12) };
const validatorsOf = (validatorCache?: ValidatorCache) =>
  emitServer(contract, {
    contractFile: "schemas/many.tools.json",
    outDir: "generated/many",
    ...(validatorCache ? { validatorCache } : {}),
  }).files.find((f) => f.path.endsWith("/validators.ts"));

describe("validators compiled on two threads", () => {
  it.runIf(availableParallelism() >= 2)(
    "a worker compiles every other shape; validators.ts is what one thread writes",
    async () => {
      const cache: ValidatorCache = new Map();
      const done = await precompileShapes([contract], cache, { minShapes: 1 });
      expect(done).toStrictEqual({ main: 12, worker: 12 });
      // the worker's shapes are what this thread compiles of the same JSON
      for (const [json, compiled] of compileShapes([...cache.keys()]))
        expect(cache.get(json)).toStrictEqual(compiled);
      expect(validatorsOf(cache)).toStrictEqual(validatorsOf());
    },
  );

  it("leaves small builds to one thread", async () => {
    const cache: ValidatorCache = new Map();
    expect(await precompileShapes([contract], cache)).toStrictEqual({ main: 0, worker: 0 });
    expect(cache.size).toBe(0);
  });
});
