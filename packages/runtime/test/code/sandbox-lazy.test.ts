import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The engine's packages (quickjs-emscripten-core, the WebAssembly build) load when a sandbox
 * starts, by the dynamic import in engine-module.ts — never with `@mcp-gen/runtime/code` itself,
 * which an agent or a server may import only to check programs. Reads the compiled `dist/`.
 */
describe("the sandbox's engine loads lazily", () => {
  it("no module of the sandbox imports the engine's packages statically", () => {
    const dir = new URL("../../dist/code/sandbox/", import.meta.url);
    const files = readdirSync(dir).filter((name) => name.endsWith(".js"));
    expect(files).toContain("engine-ffi.js");
    for (const file of files) {
      const text = readFileSync(new URL(file, dir), "utf8");
      expect(text, file).not.toMatch(/(from\s*|import\s+)["'](quickjs-emscripten-core|@jitl\/)/);
    }
    const module = readFileSync(new URL("engine-module.js", dir), "utf8");
    expect(module).toMatch(/import\("quickjs-emscripten-core"\)/);
  });
});
