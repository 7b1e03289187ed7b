/**
 * Synthetic corpus for the benchmarks: N exported tool functions spread over several modules
 * and servers, mixing every row of the type-mapping table (primitives, `Int` and type-level
 * tags, arrays, tuples, literal unions, enums, optional and defaulted parameters, nullable,
 * nested interfaces and aliases, records, discriminated unions, Date, recursive types) with
 * JSDoc summaries, `@param` texts, property tags and annotations.
 *
 * Library: `generateCorpus({ tools: 1000 })` writes `bench/corpus/1000/` and returns its paths.
 * CLI: `npx tsx bench/corpus-gen.ts 100 1000 [--per-module 25] [--per-server 10] [--targets openai,…] [--import root|tags] [--out DIR]`.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TEMPLATES, type ToolSource } from "./corpus-templates.ts";

export interface CorpusOptions {
  /** Number of tool functions. */
  tools: number;
  /** Tools per module (default 25). */
  perModule?: number;
  /** Modules per server (default 10). */
  perServer?: number;
  /** Output folder (default `bench/corpus/<tools>`); emptied first. */
  out?: string;
  /**
   * Provider targets of the config (default none: the foundation's scope is contract, validators
   * and types; note that Anthropic and Gemini reject the corpus's recursive types).
   */
  targets?: string[];
  /**
   * Where the tool modules import the tags from: `root` (`@mcp-gen/runtime`, the default, as the
   * README's first example does) or `tags` (`@mcp-gen/runtime/tags`, the dependency-free entry).
   * The `tags` corpus goes to `bench/corpus/<tools>-tags` by default.
   */
  runtimeImport?: "root" | "tags";
}

export interface Corpus {
  /** Corpus folder (absolute). */
  root: string;
  /** `mcp-gen.config.ts` of the corpus. */
  config: string;
  /** `tsconfig.json` covering every module. */
  tsconfig: string;
  /** Tool modules (absolute), in order. */
  modules: string[];
  /** Server name → its modules (absolute). */
  servers: Record<string, string[]>;
  tools: number;
}

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

/** Shared per-module declarations: an enum and a type alias every template may use. */
function modulePrelude(m: number, from: string): string {
  return `import type { Int, Maximum, Minimum, MaxItems, MaxLength, MinItems, MinLength, Pattern, Format, UniqueItems, ExclusiveMinimum } from "${from}";

/** Lifecycle of a record in module ${m}. */
export enum Status {
  Draft = "draft",
  Active = "active",
  Archived = "archived",
}

/** Numeric priority levels. */
export enum Level {
  Low = 1,
  Medium = 2,
  High = 3,
}

/** Who owns a record. */
export interface Owner {
  /** Stable id of the owner. */
  id: string;
  /**
   * Contact address.
   * @format email
   */
  email: string;
  /** Display name. */
  name?: string;
}

function sample<T>(value: T): T {
  return value;
}
`;
}

function pad(i: number, width: number): string {
  return String(i).padStart(width, "0");
}

/**
 * Writes a corpus of `tools` tool functions with its `mcp-gen.config.ts` and `tsconfig.json`.
 *
 * @example
 * const corpus = generateCorpus({ tools: 100 });
 * // node packages/codegen/bin/mcp-gen.js build --config <corpus.config>
 */
export function generateCorpus(options: CorpusOptions): Corpus {
  const perModule = options.perModule ?? 25;
  const perServer = options.perServer ?? 10;
  const tags = options.runtimeImport === "tags";
  const root = path.resolve(
    options.out ?? path.join(BENCH_DIR, "corpus", `${options.tools}${tags ? "-tags" : ""}`),
  );
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, "tools"), { recursive: true });
  const moduleCount = Math.ceil(options.tools / perModule);
  const width = String(options.tools).length;
  const modules: string[] = [];
  const servers: Record<string, string[]> = {};
  for (let m = 0; m < moduleCount; m++) {
    const parts = [modulePrelude(m, tags ? "@mcp-gen/runtime/tags" : "@mcp-gen/runtime")];
    for (let i = m * perModule; i < Math.min(options.tools, (m + 1) * perModule); i++) {
      const template = TEMPLATES[i % TEMPLATES.length]!;
      const tool: ToolSource = template(pad(i, width));
      parts.push(tool);
    }
    const file = path.join(root, "tools", `module${pad(m, String(moduleCount).length)}.ts`);
    writeFileSync(file, `${parts.join("\n")}`);
    modules.push(file);
    const server = `server${Math.floor(m / perServer)}`;
    servers[server] = [...(servers[server] ?? []), file];
  }
  const serverEntries = Object.entries(servers)
    .map(([name, files]) => {
      const list = files.map((f) => JSON.stringify(path.relative(root, f).split(path.sep).join("/")));
      return `    ${name}: { tools: [${list.join(", ")}] },`;
    })
    .join("\n");
  const config = path.join(root, "mcp-gen.config.ts");
  writeFileSync(
    config,
    `import { defineConfig } from "@mcp-gen/codegen/config";

export default defineConfig({
  schemas: "schemas",
  generated: "generated",
  targets: ${JSON.stringify(options.targets ?? [])},
  servers: {
${serverEntries}
  },
});
`,
  );
  const tsconfig = path.join(root, "tsconfig.json");
  writeFileSync(
    tsconfig,
    `${JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2023"],
          types: ["node"],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          verbatimModuleSyntax: true,
        },
        include: ["tools/*.ts"],
      },
      null,
      2,
    )}\n`,
  );
  return { root, config, tsconfig, modules, servers, tools: options.tools };
}

interface CliArgs {
  sizes: number[];
  perModule?: number;
  perServer?: number;
  out?: string;
  targets?: string[];
  runtimeImport?: "root" | "tags";
}

function parseArgs(argv: string[]): CliArgs {
  const sizes: number[] = [];
  const result: CliArgs = { sizes };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--per-module") result.perModule = Number(argv[++i]);
    else if (arg === "--per-server") result.perServer = Number(argv[++i]);
    else if (arg === "--out") result.out = argv[++i];
    else if (arg === "--targets") result.targets = (argv[++i] ?? "").split(",").filter(Boolean);
    else if (arg === "--import") result.runtimeImport = argv[++i] === "tags" ? "tags" : "root";
    else if (/^\d+$/.test(arg)) sizes.push(Number(arg));
    else throw new Error(`unknown argument ${arg}`);
  }
  if (sizes.length === 0) sizes.push(100, 1000);
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  for (const tools of args.sizes) {
    const corpus = generateCorpus({
      tools,
      ...(args.perModule ? { perModule: args.perModule } : {}),
      ...(args.perServer ? { perServer: args.perServer } : {}),
      ...(args.out && args.sizes.length === 1 ? { out: args.out } : {}),
      ...(args.targets ? { targets: args.targets } : {}),
      ...(args.runtimeImport ? { runtimeImport: args.runtimeImport } : {}),
    });
    const servers = Object.keys(corpus.servers).length;
    process.stdout.write(
      `${path.relative(process.cwd(), corpus.root)}: ${tools} tools in ${corpus.modules.length} modules, ${servers} servers\n`,
    );
  }
}
