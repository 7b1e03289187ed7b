import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "@mcp-gen/codegen";
import type { ServerManifest, ToolDefinition } from "@mcp-gen/runtime/server";

export const FIXTURES = path.join(import.meta.dirname, "..", "fixtures");

/**
 * The tools a server built from `contract` lists: the contract's MCP fields. For 2025 clients a
 * wrapped result is marked in `_meta` (what `mcp-gen pull` reads back); 2026-07-28 clients see
 * the result's own schema instead of the `{ result }` wrapper.
 */
export function listedTools(
  contract: {
    tools: ToolDefinition[];
    "x-mcp-gen"?: { tools: Record<string, { resultWrapped?: boolean }> };
  },
  era: "legacy" | "modern" = "legacy",
): ToolDefinition[] {
  return contract.tools.map((tool) => {
    if (!contract["x-mcp-gen"]?.tools[tool.name]?.resultWrapped) return tool;
    if (era === "legacy") return { ...tool, _meta: { "dev.mcp-gen/resultWrapped": true } };
    const { $defs, properties } = tool.outputSchema as unknown as {
      $defs?: object;
      properties: { result: object };
    };
    return { ...tool, outputSchema: { ...properties.result, ...($defs ? { $defs } : {}) } } as ToolDefinition;
  });
}

/** The probe server built by `mcp-gen build` into a fresh folder: its config and generated modules. */
export interface BuiltProbe {
  /** The config file the CLI can be pointed at (`--config`). */
  configFile: string;
  contract: { tools: ToolDefinition[]; "x-mcp-gen"?: { tools: Record<string, { resultWrapped?: boolean }> } };
  /** `createManifest` of the generated `server.ts` (the probe has a tool class). */
  createManifest(instances: { Counter: unknown }): ServerManifest;
  /** `createProbeClient` of the generated `client.ts`: the typed client. */
  createProbeClient(
    client: unknown,
  ): Record<string, (args: unknown) => Promise<{ ok: boolean; value?: unknown }>>;
  serverSource: string;
  /** Removes the output folder. */
  dispose(): void;
}

/**
 * Runs the real pipeline on `fixtures/probe/tools.ts`: each test file gets its own output
 * folder, so parallel test files never write the same files.
 */
export async function buildProbe(): Promise<BuiltProbe> {
  const tmp = path.join(FIXTURES, ".tmp");
  mkdirSync(tmp, { recursive: true });
  const dir = mkdtempSync(path.join(tmp, "probe-"));
  const configFile = path.join(dir, "mcp-gen.config.json");
  const config = {
    schemas: "schemas",
    generated: "generated",
    servers: { probe: { tools: ["../../probe/tools.ts"] } },
  };
  writeFileSync(configFile, JSON.stringify(config));
  await build({ configFile });
  const server = path.join(dir, "generated", "probe", "server.ts");
  const generated = (await import(pathToFileURL(server).href)) as Pick<BuiltProbe, "createManifest">;
  const client = (await import(
    pathToFileURL(path.join(dir, "generated", "probe", "client.ts")).href
  )) as Pick<BuiltProbe, "createProbeClient">;
  return {
    configFile,
    contract: JSON.parse(readFileSync(path.join(dir, "schemas", "probe.tools.json"), "utf8")),
    createManifest: generated.createManifest,
    createProbeClient: client.createProbeClient,
    serverSource: readFileSync(server, "utf8"),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
