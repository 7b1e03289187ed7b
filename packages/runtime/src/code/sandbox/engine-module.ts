import { readFile } from "node:fs/promises";
// Imported under another name: esbuild's recipe for ESM bundles of CommonJS dependencies adds a
// banner that declares `createRequire` itself, and an import of the same name would clash with it.
import { createRequire as requireFrom } from "node:module";
import type { Lifetime, QuickJSWASMModule } from "quickjs-emscripten-core";

/** A compiled `WebAssembly.Module` (this package's types have no WebAssembly declarations). */
export type WasmModule = object;

// Node's WebAssembly global; the types of this package (no DOM library) only declare its namespace.
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: {
    compile(bytes: Uint8Array): Promise<WasmModule>;
    Memory: new (descriptor: { initial: number; maximum: number }) => { buffer: ArrayBuffer };
  };
};

let compiled: Promise<WasmModule> | undefined;

/** QuickJS's WebAssembly, compiled once per process and shared by every engine (no recompiling on replacement). */
export function quickjsModule(): Promise<WasmModule> {
  compiled ??= (async () => {
    const file = requireFrom(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
    return wasm.compile(await readFile(file));
  })();
  compiled.catch(() => {
    compiled = undefined;
  });
  return compiled;
}

/** One QuickJS instance on its own capped WebAssembly memory. */
export interface EngineInstance {
  quickjs: QuickJSWASMModule;
  /** The heap cannot grow much more: an error without a message is then the engine out of memory. */
  memoryFull: () => boolean;
  /** The instance's WebAssembly memory (the bridge writes and reads strings in it). */
  memory: { readonly buffer: ArrayBuffer };
  /** quickjs-emscripten-core's `Lifetime` class, for handles the bridge makes of raw values. */
  Lifetime: typeof Lifetime;
}

const PAGE = 65_536;

/**
 * Instantiates QuickJS from the compiled module on a WebAssembly memory of at most
 * `memoryBytes` + 16 MiB (for the engine itself): programs share that heap one after another, and
 * growing past it fails an allocation (an "out of memory" error in the program), never the host.
 * The engine's packages load here, on first use, never with the runtime's other entries.
 */
export async function instantiateEngine(options: {
  wasmModule: WasmModule;
  memoryBytes: number;
}): Promise<EngineInstance> {
  const [{ Lifetime, newQuickJSWASMModuleFromVariant, newVariant }, variantModule] = await Promise.all([
    import("quickjs-emscripten-core"),
    import("@jitl/quickjs-wasmfile-release-sync"),
  ]);
  const maximum = Math.ceil((options.memoryBytes + 16 * 1024 * 1024) / PAGE);
  const wasmMemory = new wasm.Memory({ initial: Math.min(256, maximum), maximum });
  // The variant's types are CommonJS (a `default` property); Node imports its ES module, whose default is the variant.
  type Variant = Parameters<typeof newVariant>[0];
  const imported = variantModule as unknown as Variant & { default?: Variant };
  const variant = imported.default ?? imported;
  const quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(
      variant as never,
      {
        wasmModule: options.wasmModule,
        wasmMemory,
        // The engine prints nothing of the program's (its console is captured); an abort's own
        // text must not reach the host's stdout or stderr either — the abort throws, and the run ends.
        emscriptenModule: { print: () => {}, printErr: () => {} },
      } as Parameters<typeof newVariant>[1],
    ),
  );
  return {
    quickjs,
    memory: wasmMemory,
    Lifetime,
    memoryFull: () => wasmMemory.buffer.byteLength > (maximum - 64) * PAGE,
  };
}
