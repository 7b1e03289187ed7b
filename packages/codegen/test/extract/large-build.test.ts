import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LARGE_BUILD_BYTES, signalBuildSize } from "../../src/extract/large-build.ts";
import { tempProject } from "../support/project.ts";

const HOOK = Symbol.for("mcp-gen.large-build");
const globals = globalThis as Record<symbol, unknown>;

describe("the extraction tells the bin's capped build that it is large", () => {
  afterEach(() => {
    delete globals[HOOK];
  });

  it("calls the bin's function once the tool modules reach LARGE_BUILD_BYTES together, not below", () => {
    const half = "x".repeat(LARGE_BUILD_BYTES / 2);
    const dir = tempProject({ "a.ts": half, "b.ts": half, "c.ts": "y" });
    let calls = 0;
    globals[HOOK] = () => {
      calls++;
    };
    signalBuildSize([path.join(dir, "a.ts"), path.join(dir, "c.ts")]);
    expect(calls).toBe(0);
    signalBuildSize([path.join(dir, "a.ts"), path.join(dir, "b.ts")]);
    expect(calls).toBe(1);
  });
});
