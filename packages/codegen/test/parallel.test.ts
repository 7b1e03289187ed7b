import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Contract } from "../src/contract/types.ts";
import { type EmitJob, EmitPool, runEmitJob } from "../src/emit/parallel.ts";

const ROOT = path.join(import.meta.dirname, "../../..");

function exampleJob(server: string): EmitJob {
  const contract = JSON.parse(
    readFileSync(path.join(ROOT, `schemas/${server}.tools.json`), "utf8"),
  ) as Contract;
  return { contract, contractFile: `schemas/${server}.tools.json`, outDir: `generated/${server}` };
}

const invalid: EmitJob = {
  contract: {
    server: "broken",
    tools: [
      {
        name: "bad",
        inputSchema: { type: "object", properties: { a: { type: "no-such-type" } } },
      },
    ],
  } as unknown as Contract,
  contractFile: "schemas/broken.tools.json",
  outDir: "generated/broken",
};

describe("EmitPool", () => {
  it("emits in a worker thread exactly what the calling thread emits, errors included", async () => {
    const jobs = [exampleJob("smart-home"), invalid, exampleJob("economics")];
    const pool = EmitPool.start(1);
    try {
      const outcomes = await pool.run(jobs, { callerTakesJobs: false });
      expect(pool.doneByWorkers).toBe(3);
      expect(outcomes).toStrictEqual(jobs.map(runEmitJob));
      const broken = outcomes[1]!;
      expect(
        "diagnostics" in broken ? broken.diagnostics.map((d) => [d.code, d.pointer, d.message]) : broken,
      ).toStrictEqual([
        [
          "MCPG040",
          "/tools/0/inputSchema/properties/a/type",
          "invalid JSON Schema: must be equal to one of the allowed values",
        ],
        ["MCPG040", "/tools/0/inputSchema/properties/a/type", "invalid JSON Schema: must be array"],
        [
          "MCPG040",
          "/tools/0/inputSchema/properties/a/type",
          "invalid JSON Schema: must match a schema in anyOf",
        ],
      ]);
    } finally {
      pool.close();
    }
  });

  it("shares the jobs with the calling thread and keeps their order", async () => {
    const jobs = [exampleJob("economics"), exampleJob("smart-home"), exampleJob("economics")];
    const pool = EmitPool.start(1);
    try {
      expect(await pool.run(jobs)).toStrictEqual(jobs.map(runEmitJob));
    } finally {
      pool.close();
    }
  });
});
