/**
 * The serve cold start in an installed project: the corpus's first server built once (untimed,
 * no cache), then three ways to start it — `mcp-gen serve <server>` from the installed bin, the
 * compiled production entry (`tsc`, then `node dist/src/server.js`), and the MCP SDK v2's
 * `McpServer` with the same tools in zod 4 (`sdk-server.mjs`, the same file in every project) —
 * each in both protocol eras: spawn → `initialize` (2025-11-25) or `server/discover` (2026-07-28)
 * answered; and the server and the SDK server each bundled into one file by esbuild (`bundle.ts`). A ref whose runtime predates the SDK v2 serves no 2026-07-28: its rows are 2025 only.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import module from "node:module";
import path from "node:path";
import type { DistinctCorpus } from "../corpus-distinct.ts";
import { bundleServers } from "./bundle.ts";
import {
  type Command,
  coldStart,
  measureTable,
  OPENINGS,
  type Opening,
  type TableContender,
} from "./measure.ts";
import { addCorpus, NODE, type Project, runQuiet, writeServerEntry } from "./project.ts";
import type { Table } from "./report.ts";
import { sdkServerSource } from "./sdk-server.ts";
import { describePacked } from "./tarballs.ts";

export interface ServeSetup {
  project: Project;
  dir: string;
  server: string;
  /** The production entry; when the compiled one cannot run, what runs instead and why. */
  production: Command;
  productionLabel: string;
  note?: string;
}

const firstLine = (text: string, pattern: RegExp) =>
  text
    .split("\n")
    .find((l) => pattern.test(l))
    ?.trim();

export async function prepareServe(project: Project, corpus: DistinctCorpus): Promise<ServeSetup> {
  const dir = addCorpus(project, corpus, "serve");
  const server = Object.keys(corpus.servers)[0]!;
  writeServerEntry(dir, server);
  const built = runQuiet([NODE, project.bin, "build"], dir, { MCP_GEN_NO_CACHE: "1" });
  if (built.status !== 0) throw new Error(`mcp-gen build failed in ${dir}:\n${built.output}`);
  const tsc = runQuiet(
    [NODE, path.join(project.root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"],
    dir,
  );
  const compiled: Command = { argv: [NODE, "dist/src/server.js"], cwd: dir };
  const base = { project, dir, server };
  const errors = tsc.output.split("\n").filter((l) => /error TS\d+/.test(l));
  const tscNote =
    tsc.status === 0
      ? "tsc: no errors"
      : `tsc: ${errors.length} errors, e.g. \`${errors[0]?.trim() ?? tsc.output.trim()}\``;
  try {
    await coldStart(compiled, OPENINGS["2025"], { timeoutMs: 30_000 });
    return {
      ...base,
      production: compiled,
      productionLabel: "`node dist/src/server.js` (tsc output)",
      ...(tsc.status === 0 ? {} : { note: tscNote }),
    };
  } catch (error) {
    const message = String((error as Error).message);
    const why = [
      tscNote,
      `node dist/src/server.js: \`${firstLine(message, /^\w*Error\b( \[\w+\])?:/) ?? message.split("\n")[0]}\``,
    ]
      .join("; ")
      .replaceAll(project.root, "<project>");
    const fallback: Command = {
      argv: [NODE, "--import", "tsx", "src/server.ts"],
      cwd: dir,
      env: { TSX_DISABLE_CACHE: "1" },
    };
    await coldStart(fallback, OPENINGS["2025"], { timeoutMs: 30_000 });
    return {
      ...base,
      production: fallback,
      productionLabel: "`node --import tsx src/server.ts` (no compiled entry runs)",
      note: why,
    };
  }
}

/** Writes the SDK server into every setup's folder. */
export function writeSdkServer(setups: readonly ServeSetup[], source: string): void {
  for (const s of setups) writeFileSync(path.join(s.dir, "sdk-server.mjs"), source);
}

/**
 * The production entry preloaded with `@mcp-gen/runtime/server/no-sdk-ajv` (the SDK's Ajv kept out of
 * the start), where the installed runtime has it and this Node has `module.registerHooks` (22.15+).
 */
function withoutSdkAjv(s: ServeSetup): Command | undefined {
  const has = existsSync(
    path.join(s.project.root, "node_modules/@mcp-gen/runtime/dist/server/no-sdk-ajv.js"),
  );
  const hooks = typeof (module as { registerHooks?: unknown }).registerHooks === "function";
  const compiled = s.production.argv.at(-1) === "dist/src/server.js";
  if (!has || !hooks || !compiled) return undefined;
  const [node, ...rest] = s.production.argv;
  return { ...s.production, argv: [node!, "--import", "@mcp-gen/runtime/server/no-sdk-ajv", ...rest] };
}

/**
 * The cold-start commands of one setup: mcp-gen serve, the production entry (and, on Node 22.15+,
 * the same with `--import @mcp-gen/runtime/server/no-sdk-ajv`), the SDK server.
 */
export function serveCommands(
  s: ServeSetup,
): { kind: "serve" | "production" | "production-no-sdk-ajv" | "sdk"; command: Command }[] {
  const lean = withoutSdkAjv(s);
  return [
    {
      kind: "serve",
      // The CLI's defaults, as a user's second start finds them: Node's compile cache (written by
      // the priming start of serveTable) and, on Node 22.15+, mcp-gen's cache of stripped TypeScript
      // (written by the warm-up) warm. tsx's cache of transformed files (Node 20) stays off.
      command: {
        argv: [NODE, s.project.bin, "serve", s.server],
        cwd: s.dir,
        env: { TSX_DISABLE_CACHE: "1" },
      },
    },
    { kind: "production", command: s.production },
    ...(lean ? [{ kind: "production-no-sdk-ajv" as const, command: lean }] : []),
    { kind: "sdk", command: { argv: [NODE, "sdk-server.mjs"], cwd: s.dir } },
  ];
}

/** The floor: a bare node process answering the first line it reads. */
export const BARE_NODE: Command = {
  argv: [
    NODE,
    "-e",
    `process.stdin.once("data", () => process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{}}\\n'))`,
  ],
  cwd: process.cwd(),
};

const ERA_LABEL: Record<Opening["era"], string> = {
  "2025": "2025-11-25 (`initialize`)",
  "2026": "2026-07-28 (`server/discover`)",
};

/**
 * The serve cold-start table: every project's three starts in each era, with the SDK server of the
 * same project and era as peer, and the floor.
 */
export async function serveTable(
  projects: readonly Project[],
  corpus: DistinctCorpus,
  runs: number,
  eras: readonly Opening["era"][] = ["2025", "2026"],
): Promise<Table> {
  const setups: ServeSetup[] = [];
  for (const p of projects) setups.push(await prepareServe(p, corpus));
  const first = setups[0]!;
  const contract = JSON.parse(
    readFileSync(path.join(first.dir, "schemas", `${first.server}.tools.json`), "utf8"),
  );
  writeSdkServer(setups, sdkServerSource(contract));
  const list: TableContender[] = [];
  const notes: string[] = [];
  for (const s of setups) {
    // The timed starts are killed once they answered, and Node writes its compile cache (which the
    // bin turns on) only at a normal exit: one start that ends with its stdin writes it, as an MCP
    // client closing the pipe does.
    const serve = serveCommands(s)[0]!.command;
    const primed = spawnSync(serve.argv[0]!, serve.argv.slice(1), {
      cwd: serve.cwd,
      env: { ...process.env, ...serve.env },
      input: OPENINGS["2025"].line,
      timeout: 60_000,
    });
    if (primed.status !== 0) throw new Error(`priming ${serve.argv.join(" ")} failed:\n${primed.stderr}`);
    const bundles = bundleServers(s.project, s.dir, s.server);
    notes.push(`${describePacked(s.project.packed)}: ${bundles.note}.`);
    const key = s.project.packed.key;
    const who = describePacked(s.project.packed);
    const { versions } = s.project;
    const labels = {
      serve: `\`mcp-gen serve ${s.server}\`, ${who}`,
      production: `production entry ${s.productionLabel}, ${who}`,
      "production-no-sdk-ajv": `production entry with \`--import @mcp-gen/runtime/server/no-sdk-ajv\`, ${who}`,
      sdk: `MCP SDK ${versions["@modelcontextprotocol/server"]} \`McpServer\` + zod ${versions.zod}, same tools (project of ${who})`,
      bundle: `production entry bundled into one file by esbuild, ${who}`,
      "sdk-bundle": `MCP SDK \`McpServer\` + zod, bundled into one file by esbuild (project of ${who})`,
    };
    for (const era of eras) {
      for (const { kind, command } of [
        ...serveCommands(s),
        { kind: "bundle" as const, command: bundles.server },
        { kind: "sdk-bundle" as const, command: bundles.sdk },
      ]) {
        if (era === "2026" && !s.project.serves2026) continue;
        list.push({
          id: `${kind}@${key}:${era}`,
          label: `${labels[kind]}, ${ERA_LABEL[era]}`,
          // the bundled server against the bundled SDK server, the others against the SDK server
          ...(kind === "sdk" ? {} : { peer: `${kind === "bundle" ? "sdk-bundle" : "sdk"}@${key}:${era}` }),
          run: () => coldStart(command, OPENINGS[era]),
        });
      }
    }
    if (s.note) notes.push(`${who}: ${s.note}.`);
    if (eras.includes("2026") && !s.project.serves2026)
      notes.push(`${who}: its runtime predates the SDK v2 and serves no 2026-07-28 (2025 rows only).`);
  }
  list.push({
    id: "floor",
    label: "floor: bare `node` answering one line",
    run: () => coldStart(BARE_NODE, OPENINGS[eras[0]!], { check: false }),
  });
  const title = `Serve cold start: spawn → first answer (stdio; \`initialize\` for 2025-11-25, \`server/discover\` for 2026-07-28), ${contract.tools.length}-tool server`;
  return measureTable(title, "ms", notes, list, runs);
}
