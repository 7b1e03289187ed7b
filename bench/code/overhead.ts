/**
 * Per-program overhead of code mode with the check included: `codeMode().run` (type-check +
 * transpile, the sandbox's fresh context, the bridge, the tools) for a warm 20-tool in-process API,
 * at 0, 1 and 20 calls (sequential awaits), every program text different. p50 / p99 wall time,
 * and the check alone (the same `createChecker` `codeMode` uses) for the same programs.
 *
 *   npx tsc -b packages/runtime && npx tsx --conditions @mcp-gen/source bench/code/overhead.ts [--runs 200]
 */
import { loadavg } from "node:os";
import { codeMode, createChecker } from "@mcp-gen/runtime/code";
import { defineManifest, type ManifestTool } from "@mcp-gen/runtime/server";
import ts from "typescript-5";
import { createSchemaCompiler } from "../../packages/runtime/src/agent/tools/compile-schema.ts";

const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 200;
const compile = createSchemaCompiler();
const tools: ManifestTool[] = Array.from({ length: 20 }, (_, i) => {
  const name = `tool_${String(i).padStart(2, "0")}`;
  const inputSchema = {
    type: "object" as const,
    properties: { id: { type: "string", description: "The item's id" }, n: { type: "integer", minimum: 0 } },
    required: ["id"],
    additionalProperties: false,
  };
  const outputSchema = {
    type: "object" as const,
    properties: { id: { type: "string" }, value: { type: "number" } },
    required: ["id", "value"],
    additionalProperties: false,
  };
  return {
    definition: {
      name,
      description: `Reads item ${i}.`,
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true },
    },
    input: compile(inputSchema, name).validator,
    output: compile(outputSchema, name).validator,
    resultWrapped: false,
    usesContext: false,
    invoke: ({ id, n }: { id: string; n?: number }) => ({ id, value: (n ?? 0) + i }),
  };
});
const manifest = defineManifest({ server: "items", tools });

const program = (calls: number, k: number) =>
  calls === 0
    ? `const k = ${k};\nreturn k + 1;`
    : `let total = ${k};\n${Array.from({ length: calls }, (_, i) => `total += (await items.tool_${String(i % 20).padStart(2, "0")}({ id: "a${k}", n: ${i} })).value;`).join("\n")}\nreturn total;`;

const started = performance.now();
const code = await codeMode({ servers: [{ manifest }], typescript: ts });
const warm = performance.now() - started;
const checker = await createChecker({ servers: code.servers, typescript: ts });
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const rows: Record<string, { run: number[]; check: number[] }> = {
  0: { run: [], check: [] },
  1: { run: [], check: [] },
  20: { run: [], check: [] },
};
for (let k = 0; k < RUNS; k++) {
  for (const calls of [0, 1, 20]) {
    const text = program(calls, k);
    let t = performance.now();
    const checked = checker.check(text);
    rows[calls]!.check.push(performance.now() - t);
    if (!checked.ok) throw new Error(checked.message);
    t = performance.now();
    const result = await code.run(text);
    rows[calls]!.run.push(performance.now() - t);
    if (!result.ok) throw new Error(result.message);
  }
}
await code.close();
console.log(
  `codeMode() warm-up (checker + sandbox): ${warm.toFixed(0)} ms; ${RUNS} runs each; load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log("| program | run incl. check p50 | p99 | check alone p50 | p99 |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const calls of [0, 1, 20]) {
  const r = rows[calls]!;
  const f = (x: number) => `${x.toFixed(2)} ms`;
  console.log(
    `| ${calls} calls | ${f(pct(r.run, 50))} | ${f(pct(r.run, 99))} | ${f(pct(r.check, 50))} | ${f(pct(r.check, 99))} |`,
  );
}
