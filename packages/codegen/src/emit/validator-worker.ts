import { parentPort, workerData } from "node:worker_threads";
import { compileShapes } from "./validators.ts";

/** The worker of `precompileShapes`: compiles the shapes it is given and posts them back. */
parentPort!.postMessage(compileShapes(workerData as string[]));
