import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type Contract, withoutAnnotations } from "@mcp-gen/schema";
import { type CompiledShape, compileShapes, type ValidatorCache } from "./validators.ts";

/**
 * From how many shapes to compile a worker helps. Measured on the distinct corpus (bench/README.md,
 * "Build"): about 150 shapes +18 % wall time, 370 +10 %, 720 even, 1,420 −11 %.
 */
export const POOL_MIN_SHAPES = 1000;

/** How many shapes each thread compiled (`worker` is 0 when no worker ran). */
export interface Precompiled {
  main: number;
  worker: number;
}

/**
 * Compiles the shapes of the contracts' tools that `cache` does not hold yet on two threads, this
 * one and a worker, into the cache, when there are many and the machine has more than one core;
 * `emitValidators` then finds them there. Shapes compile independently (see `compileShapes`), so
 * the output is the same whichever thread compiled what. A shape that does not compile is left
 * out: `emitValidators` compiles it again and reports it where it is.
 */
export async function precompileShapes(
  contracts: readonly Contract[],
  cache: ValidatorCache,
  options: { minShapes?: number } = {},
): Promise<Precompiled> {
  // compiled code only: from the TypeScript sources (tests, tsx) there is no worker script to start
  const script = new URL("./validator-worker.js", import.meta.url);
  if (availableParallelism() < 2 || !existsSync(fileURLToPath(script))) return { main: 0, worker: 0 };
  const pending = new Set<string>();
  for (const contract of contracts) {
    for (const tool of contract.tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        if (!schema) continue;
        const json = JSON.stringify(withoutAnnotations(schema));
        if (!cache.has(json)) pending.add(json);
      }
    }
  }
  if (pending.size < (options.minShapes ?? POOL_MIN_SHAPES)) return { main: 0, worker: 0 };
  // every other shape, so that both threads get large and small ones alike
  const all = [...pending];
  const theirs = all.filter((_, i) => i % 2 === 1);
  const ours = all.filter((_, i) => i % 2 === 0);
  const fromWorker = new Promise<[string, CompiledShape][]>((resolve) => {
    // none of this process's flags: compiled JavaScript needs no loader, and a `--conditions` flag
    // (this repository's tests run the sources) would send its imports to TypeScript files
    const worker = new Worker(script, { workerData: theirs, execArgv: [] });
    worker.once("message", resolve);
    worker.once("error", () => resolve([]));
    worker.once("exit", () => resolve([]));
  });
  const mine = compileShapes(ours);
  for (const [json, compiled] of mine) cache.set(json, compiled);
  const theirsCompiled = await fromWorker;
  for (const [json, compiled] of theirsCompiled) cache.set(json, compiled);
  return { main: mine.length, worker: theirsCompiled.length };
}
