/**
 * The sandbox's worker thread: instantiates QuickJS once from the WebAssembly module the host
 * compiled, then runs one program at a time, each in a fresh engine runtime and context.
 */
import { parentPort, workerData } from "node:worker_threads";
import variantModule from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
} from "quickjs-emscripten-core";
import { EngineRun } from "./engine-run.ts";
import type { HostMessage, WorkerMessage } from "./protocol.ts";

const port = parentPort!;
const { wasmModule, memoryBytes } = workerData as {
  wasmModule: Parameters<typeof newVariant>[1]["wasmModule"];
  memoryBytes: number;
};
// The engine's whole heap: programs share it one after another; growing past it fails an allocation
// (an "out of memory" error in the program), never the worker. 16 MiB above the limit for the engine itself.
const PAGE = 65_536;
const maximum = Math.ceil((memoryBytes + 16 * 1024 * 1024) / PAGE);
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => { buffer: ArrayBuffer } };
};
const wasmMemory = new wasm.Memory({ initial: Math.min(256, maximum), maximum });
/** The heap cannot grow much more: an error without a message is then the engine out of memory. */
const memoryFull = () => wasmMemory.buffer.byteLength > (maximum - 64) * PAGE;
// The variant's types are CommonJS (a `default` property); Node imports its ES module, whose default is the variant.
const imported = variantModule as unknown as QuickJSSyncVariant & { default?: QuickJSSyncVariant };
const variant = imported.default ?? imported;
const quickjs = await newQuickJSWASMModuleFromVariant(
  newVariant(variant, { wasmModule, wasmMemory } as Parameters<typeof newVariant>[1]),
);
const post = (messages: WorkerMessage[] | WorkerMessage) => port.postMessage(messages);
let current: { id: number; engine: EngineRun } | undefined;

port.on("message", (message: HostMessage) => {
  if (message.type === "run") {
    current?.engine.dispose();
    const engine = new EngineRun({ quickjs, message, memoryFull }, (out) => {
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
