import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "@mcp-gen/codegen";
import type { ServerManifest } from "@mcp-gen/runtime/server";
import { FIXTURES } from "./probe.ts";

/** The task fixture server (`fixtures/tasks/tools.ts`) built by `mcp-gen build` into a fresh folder. */
export interface BuiltTasks {
  /** The config file the CLI can be pointed at (`--config`). */
  configFile: string;
  manifest: ServerManifest;
  /** `createTasksClient` of the generated `client.ts`: the typed client. */
  createTasksClient(client: unknown): any;
  /** Removes the output folder. */
  dispose(): void;
}

/** Runs the real pipeline on `fixtures/tasks/tools.ts` (each test file gets its own folder). */
export async function buildTasks(): Promise<BuiltTasks> {
  const tmp = path.join(FIXTURES, ".tmp");
  mkdirSync(tmp, { recursive: true });
  const dir = mkdtempSync(path.join(tmp, "tasks-"));
  const configFile = path.join(dir, "mcp-gen.config.json");
  const config = {
    schemas: "schemas",
    generated: "generated",
    servers: { tasks: { tools: ["../../tasks/tools.ts"] } },
  };
  writeFileSync(configFile, JSON.stringify(config));
  await build({ configFile });
  const generated = path.join(dir, "generated", "tasks");
  const server = (await import(pathToFileURL(path.join(generated, "server.ts")).href)) as {
    manifest: ServerManifest;
  };
  const client = (await import(pathToFileURL(path.join(generated, "client.ts")).href)) as {
    createTasksClient(client: unknown): any;
  };
  return {
    configFile,
    manifest: server.manifest,
    createTasksClient: client.createTasksClient,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
