import { parentPort } from "node:worker_threads";
import { type EmitJob, runEmitJob } from "./parallel.ts";

// Worker side of EmitPool: takes job indexes from the shared counter until none is left.
parentPort?.once("message", ({ jobs, counter }: { jobs: EmitJob[]; counter: SharedArrayBuffer }) => {
  const next = new Int32Array(counter);
  for (let i = Atomics.add(next, 0, 1); i < jobs.length; i = Atomics.add(next, 0, 1)) {
    try {
      parentPort?.postMessage({ index: i, outcome: runEmitJob(jobs[i]!) });
    } catch (error) {
      parentPort?.postMessage({ index: i, error: String((error as Error).stack ?? error) });
    }
  }
  parentPort?.postMessage({ done: true });
});
