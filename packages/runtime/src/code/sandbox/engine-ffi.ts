import { Buffer } from "node:buffer";
// Types only: the engine's packages load when a sandbox starts (engine-module.ts), never with this entry.
import type { Lifetime, QuickJSContext, QuickJSHandle, QuickJSWASMModule } from "quickjs-emscripten-core";

/**
 * The bridge's three crossings per call — settle an answer, run the engine's pending jobs, take
 * what the program queued — straight on quickjs-emscripten's FFI (the QTS_ functions of its
 * WebAssembly) instead of its handle API. The handle API allocates, for every crossing, a
 * `Lifetime` per value, an argument array in the engine's heap, a typed array for an out
 * parameter and a `typeof` string; here the argument slots, the out parameter and a scratch
 * buffer for strings are allocated once per run, and values are plain pointers freed at once
 * (bench/README: "The sandbox and the bridge"). What goes wrong (a throw, an interrupt) is
 * handed back as an ordinary handle, so the rest of the engine code reads it as before.
 *
 * It reads three fields the library keeps private (the module's heap functions, the context's
 * and runtime's pointers): the versions are pinned exactly, and `createEngineCalls` checks the
 * shape, failing the run with a clear message if an update changed it.
 */

/** The QTS_ functions used here; each is the WebAssembly export itself (numbers in, numbers out). */
interface Ffi {
  QTS_Call(ctx: number, fn: number, self: number, argc: number, argv: number): number;
  QTS_ResolveException(ctx: number, value: number): number;
  QTS_FreeValuePointer(ctx: number, value: number): void;
  QTS_FreeValuePointerRuntime(rt: number, value: number): void;
  QTS_NewString(ctx: number, chars: number): number;
  QTS_NewFloat64(ctx: number, value: number): number;
  QTS_GetString(ctx: number, value: number): number;
  QTS_FreeCString(ctx: number, chars: number): void;
  QTS_ExecutePendingJob(rt: number, max: number, lastContext: number): number;
  QTS_Typeof(ctx: number, value: number): number;
  QTS_PromiseState(ctx: number, promise: number): number;
  QTS_GetUndefined(): number;
}

interface Heap {
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

/** A run's engine crossings: see the file's comment. */
export interface EngineCalls {
  /** Calls `fn(id, json)` inside the engine; the thrown value, if it threw. */
  settle(fn: QuickJSHandle, id: number, json: string): QuickJSHandle | undefined;
  /** Runs every pending job; the value a job threw (an interrupt, out of memory), if one did. */
  runJobs(): QuickJSHandle | undefined;
  /** Calls `fn()`, which returns a string, and returns it ("" when it threw). */
  text(fn: QuickJSHandle): string;
  /** 0 pending, 1 fulfilled, 2 rejected. */
  promiseState(promise: QuickJSHandle): number;
  /** Frees what `createEngineCalls` allocated (not after the engine broke). */
  dispose(): void;
}

/** Thrown when the engine's heap has no room for a string the host hands it. */
export class EngineHeapFull extends Error {}

const SCRATCH_BYTES = 4096;
const KEEP_SCRATCH_BYTES = 64 * 1024;

export function createEngineCalls(setup: {
  quickjs: QuickJSWASMModule;
  context: QuickJSContext;
  memory: { readonly buffer: ArrayBuffer };
  /** quickjs-emscripten-core's `Lifetime` class (from the module `instantiateEngine` loaded). */
  Lifetime: typeof Lifetime;
}): EngineCalls {
  const { memory } = setup;
  const ffi = setup.quickjs.getFFI() as unknown as Ffi;
  const module = (setup.quickjs as unknown as { module?: Partial<Heap> }).module;
  const ctx = (setup.context as unknown as { ctx?: { value?: unknown } }).ctx?.value;
  const rt = (setup.context.runtime as unknown as { rt?: { value?: unknown } }).rt?.value;
  if (
    typeof module?._malloc !== "function" ||
    typeof module._free !== "function" ||
    typeof ctx !== "number" ||
    typeof rt !== "number" ||
    typeof ffi.QTS_Call !== "function"
  )
    throw new Error(
      "quickjs-emscripten-core's internals are not as this runtime expects: install the exact version @mcp-gen/runtime pins",
    );
  const heap = module as Heap;
  const undefinedValue = ffi.QTS_GetUndefined();
  // two argument slots and the out parameter of ExecutePendingJob, allocated once
  const slots = heap._malloc(12);
  let scratch = heap._malloc(SCRATCH_BYTES);
  let scratchBytes = SCRATCH_BYTES;
  if (slots === 0 || scratch === 0) throw new EngineHeapFull("the engine's heap is full");
  let bytes = new Uint8Array(memory.buffer);
  let words = new Int32Array(memory.buffer);
  const view = () => {
    // growing the WebAssembly memory detaches the old buffer
    if (bytes.byteLength === 0) {
      bytes = new Uint8Array(memory.buffer);
      words = new Int32Array(memory.buffer);
    }
  };
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const thrown = (value: number) =>
    new setup.Lifetime(value, undefined, (pointer: number) =>
      ffi.QTS_FreeValuePointer(ctx, pointer),
    ) as unknown as QuickJSHandle;

  /** The string as a new engine value (the engine copies it out of the scratch buffer). */
  const newString = (text: string): number => {
    const most = text.length * 3 + 1;
    let target = scratch;
    let size = scratchBytes;
    if (most > scratchBytes) {
      size = Buffer.byteLength(text) + 1;
      if (size > scratchBytes) {
        target = heap._malloc(size);
        if (target === 0) throw new EngineHeapFull("the engine's heap has no room for the answer");
        if (size <= KEEP_SCRATCH_BYTES) {
          heap._free(scratch);
          scratch = target;
          scratchBytes = size;
        }
      }
    }
    view();
    const { written } = encoder.encodeInto(text, bytes.subarray(target, target + size - 1));
    bytes[target + written] = 0;
    const value = ffi.QTS_NewString(ctx, target);
    if (target !== scratch) heap._free(target);
    return value;
  };

  return {
    settle(fn, id, json) {
      const idValue = ffi.QTS_NewFloat64(ctx, id);
      const jsonValue = newString(json);
      view();
      words[slots >> 2] = idValue;
      words[(slots >> 2) + 1] = jsonValue;
      const result = ffi.QTS_Call(ctx, fn.value, undefinedValue, 2, slots);
      ffi.QTS_FreeValuePointer(ctx, idValue);
      ffi.QTS_FreeValuePointer(ctx, jsonValue);
      const error = ffi.QTS_ResolveException(ctx, result);
      ffi.QTS_FreeValuePointer(ctx, result);
      return error ? thrown(error) : undefined;
    },
    runJobs() {
      view();
      words[(slots >> 2) + 2] = 0;
      const result = ffi.QTS_ExecutePendingJob(rt, -1, slots + 8);
      view();
      if (words[(slots >> 2) + 2] === 0) {
        ffi.QTS_FreeValuePointerRuntime(rt, result);
        return undefined;
      }
      // the count of jobs run, or what a job threw
      const type = ffi.QTS_Typeof(ctx, result);
      view();
      const isNumber = bytes[type] === 0x6e; // "number"
      heap._free(type);
      if (isNumber) {
        ffi.QTS_FreeValuePointer(ctx, result);
        return undefined;
      }
      return thrown(result);
    },
    text(fn) {
      const result = ffi.QTS_Call(ctx, fn.value, undefinedValue, 0, slots);
      const error = ffi.QTS_ResolveException(ctx, result);
      if (error) {
        ffi.QTS_FreeValuePointer(ctx, result);
        ffi.QTS_FreeValuePointer(ctx, error);
        return "";
      }
      const chars = ffi.QTS_GetString(ctx, result);
      view();
      const text = decoder.decode(bytes.subarray(chars, bytes.indexOf(0, chars)));
      ffi.QTS_FreeCString(ctx, chars);
      ffi.QTS_FreeValuePointer(ctx, result);
      return text;
    },
    promiseState(promise) {
      return ffi.QTS_PromiseState(ctx, promise.value);
    },
    dispose() {
      heap._free(slots);
      heap._free(scratch);
    },
  };
}
