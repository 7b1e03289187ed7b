/**
 * A minimal synthetic corpus for the watch benchmark (the shared generator of `bench/` may replace
 * it): N exported tool functions, `perModule` per module and `perServer` modules per server, using
 * primitives, `Int` with bounds, literal unions, optional and defaulted parameters, arrays, nested
 * interfaces, nullable values and records, with JSDoc.
 *
 * `writeCorpus({ tools: 1000, out })` writes `mcp-gen.config.ts`, `tsconfig.json` and the modules.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface WatchCorpus {
  root: string;
  /** Tool modules (absolute), in order. */
  modules: string[];
  servers: number;
}

const TEMPLATES: ((id: string) => string)[] = [
  (id) => `/**
 * Search records ${id} by text.
 * @param query Words to look for
 * @param limit How many to return
 * @readOnly
 */
export function search_${id}(query: string, limit: Int & Minimum<1> & Maximum<100> = 10): Item[] {
  const item: Item = { id: query, tags: [], level: "low" };
  return [item].slice(0, limit);
}`,
  (id) => `/** Settings of ${id}. */
export interface Settings_${id} {
  /** Display name. */
  name: string;
  /** Notification channels. */
  channels: ("email" | "sms" | "push")[];
  /** Optional owner. */
  owner?: Item | null;
  limits: { daily: Int; monthly?: Int };
}

/**
 * Update the settings of ${id}.
 * @param settings New settings
 * @param dryRun Only validate
 * @destructive
 */
export async function update_${id}(settings: Settings_${id}, dryRun = false): Promise<{ ok: boolean; changed: string[] }> {
  return { ok: !dryRun, changed: [settings.name] };
}`,
  (id) => `/**
 * Tag records of ${id}.
 * @param ids Record ids
 * @param labels Labels by key
 * @param note A note, if any
 */
export function tag_${id}(ids: string[], labels: Record<string, string>, note: string | null = null): number {
  return ids.length + Object.keys(labels).length + (note ? 1 : 0);
}`,
];

const PRELUDE = `import type { Int, Maximum, Minimum } from "@mcp-gen/runtime";

/** A record. */
export interface Item {
  /** Stable id. */
  id: string;
  tags: string[];
  level: "low" | "medium" | "high";
}
`;

/** Writes the corpus (emptying `out` first) and returns its modules. */
export function writeCorpus(options: {
  tools: number;
  out: string;
  perModule?: number;
  perServer?: number;
}): WatchCorpus {
  const perModule = options.perModule ?? 25;
  const perServer = options.perServer ?? 10;
  const root = path.resolve(options.out);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, "src"), { recursive: true });
  symlinkSync(
    path.resolve(import.meta.dirname, "../../node_modules"),
    path.join(root, "node_modules"),
    "dir",
  );
  const modules: string[] = [];
  const servers: Record<string, string[]> = {};
  for (let t = 0, m = 0; t < options.tools; m++) {
    const count = Math.min(perModule, options.tools - t);
    const body = Array.from({ length: count }, (_, k) =>
      TEMPLATES[(t + k) % TEMPLATES.length]!(`m${m}_t${t + k}`),
    );
    const file = path.join(root, "src", `module${m}.ts`);
    writeFileSync(file, `${PRELUDE}\n${body.join("\n\n")}\n`);
    modules.push(file);
    const server = `server${Math.floor(m / perServer)}`;
    servers[server] = [...(servers[server] ?? []), `src/module${m}.ts`];
    t += count;
  }
  const entries = Object.entries(servers).map(
    ([name, tools]) => `    ${name}: { tools: ${JSON.stringify(tools)} },`,
  );
  writeFileSync(
    path.join(root, "mcp-gen.config.ts"),
    `import { defineConfig } from "@mcp-gen/codegen/config";\nexport default defineConfig({\n  servers: {\n${entries.join("\n")}\n  },\n});\n`,
  );
  writeFileSync(
    path.join(root, "tsconfig.json"),
    `${JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, noEmit: true, types: ["node"] }, include: ["src"] }, null, 2)}\n`,
  );
  return { root, modules, servers: Object.keys(servers).length };
}
