/**
 * The sandbox's worker thread (`createSandbox({ thread: "worker" })`): instantiates QuickJS once
 * from the WebAssembly module the host compiled, then runs one program at a time, each in a fresh
 * engine runtime and context.
 */
import { parentPort, workerData } from "node:worker_threads";
import { instantiateEngine, type WasmModule } from "./engine-module.ts";
import { EngineRun } from "./engine-run.ts";
import type { HostMessage, WorkerMessage } from "./protocol.ts";

const port = parentPort!;
const { wasmModule, memoryBytes } = workerData as { wasmModule: WasmModule; memoryBytes: number };
const instance = await instantiateEngine({ wasmModule, memoryBytes });
const post = (messages: WorkerMessage[] | WorkerMessage) => port.postMessage(messages);
let current: { id: number; engine: EngineRun } | undefined;

port.on("message", (message: HostMessage) => {
  if (message.type === "run") {
    current?.engine.dispose();
    const engine = new EngineRun({ ...instance, message }, (out) => {
      post(out);
      if (out.at(-1)?.type === "done") queueMicrotask(() => finish(message.run));
    });
    current = { id: message.run, engine };
    engine.start();
  } else if (message.run === current?.id) current.engine.answer(message.answers);
});

function finish(run: number): void {
  if (current?.id !== run) return;
  current.engine.dispose();
  current = undefined;
}

post({ type: "ready" });
