import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINES_SKIP, PG_URL, REDIS_URL } from "./engines.ts";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");

/**
 * What a served process loads of the engines' clients (the compiled package, as users run it):
 * nothing without `state`, nothing for `memory:`, only the chosen engine's client for a URL.
 */
const PROBE = `
import { createRequire } from "node:module";
import { defineManifest, serve } from "@mcp-gen/runtime/server";
import { InMemoryTransport } from "@modelcontextprotocol/server";
const require = createRequire(process.cwd() + "/probe.js");
const [, transport] = InMemoryTransport.createLinkedPair();
const state = process.argv[1];
const running = await serve(defineManifest({ server: "lazy", tools: [] }), { transport, ...(state ? { state } : {}) });
await running.close();
const clients = Object.keys(require.cache).map((k) => /node_modules\\/(ioredis|pg)\\//.exec(k)?.[1]).filter(Boolean);
console.log(JSON.stringify([...new Set(clients)].sort()));
`;

function loaded(state?: string): string[] {
  const args = ["--input-type=module", "-e", PROBE, ...(state ? [state] : [])];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: REPO_ROOT, encoding: "utf8" }));
}

describe("engine clients are loaded only when chosen", () => {
  it("loads neither ioredis nor pg for a server without state, or with memory:", () => {
    expect(loaded()).toStrictEqual([]);
    expect(loaded("memory:")).toStrictEqual([]);
  });

  it.skipIf(ENGINES_SKIP || !REDIS_URL || !PG_URL)("loads only the chosen engine's client", () => {
    expect(loaded(REDIS_URL)).toStrictEqual(["ioredis"]);
    expect(loaded(PG_URL)).toStrictEqual(["pg"]);
  });
});
