/**
 * The corpus users have: N tools whose signatures are all different, written with plain
 * TypeScript types (interfaces, literal unions, arrays, records, nested objects, optionals,
 * nullable, tuples, defaults) and no import from `@mcp-gen/runtime`, under the default config
 * (every provider target). Nothing repeats: each tool draws its own parameter names, literal
 * values, object shapes and nesting from a seeded generator, so no two schemas share a shape
 * and no cache of identical shapes helps.
 *
 * Library: `generateDistinctCorpus({ tools: 1000 })` writes `bench/corpus/distinct-1000/`.
 * CLI: `npx tsx bench/corpus-distinct.ts 25 1000 [--per-module 25] [--per-server 250] [--out DIR]`.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface DistinctCorpusOptions {
  tools: number;
  /** Tools per module (default 25). */
  perModule?: number;
  /** Tools per server (default 250). */
  perServer?: number;
  /** Output folder (default `bench/corpus/distinct-<tools>`); emptied first. */
  out?: string;
  /** Seed of the generator (default 1): the same seed writes the same corpus. */
  seed?: number;
}

export interface DistinctCorpus {
  root: string;
  config: string;
  tsconfig: string;
  modules: string[];
  servers: Record<string, string[]>;
  tools: number;
  /** How tables name the corpus (default: "distinct"). */
  name?: string;
  /** Installed projects keep the corpus's tsconfig instead of the standard one (`bench/installed/project.ts`). */
  ownTsconfig?: boolean;
}

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

const WORDS = (
  "account address amount archive batch budget cache calendar campaign cart channel city client " +
  "comment company contact coupon course currency customer dataset deadline device discount " +
  "document domain draft email event expense feature file flight folder forecast garden goal " +
  "grade group guest habit hotel incident invoice issue item journal label language lead ledger " +
  "lesson license listing location machine meeting member message metric milestone module note " +
  "order owner package page partner payment period photo plan player policy post price product " +
  "profile project quote rating receipt record region release report request review room route " +
  "rule sample schedule score section sensor session shift shipment skill slot source sprint " +
  "station status store subject supplier survey task team template ticket topic trip unit user " +
  "vendor version visit volume warehouse webhook widget window workflow zone"
).split(" ");

/** mulberry32: a small seeded generator, so the corpus is the same on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Writer {
  private readonly rand: () => number;
  private serial = 0;
  readonly interfaces: string[] = [];

  constructor(seed: number) {
    this.rand = random(seed);
  }

  int(n: number): number {
    return Math.floor(this.rand() * n);
  }

  word(): string {
    return WORDS[this.int(WORDS.length)]!;
  }

  /** A name no other declaration of the corpus uses. */
  unique(base: string): string {
    this.serial += 1;
    return `${base}${this.serial}`;
  }

  camel(): string {
    const w = this.word();
    const v = this.word();
    return `${w}${v[0]!.toUpperCase()}${v.slice(1)}`;
  }

  /** A type of at most `depth` levels of nesting. */
  type(depth: number): string {
    const leaf = depth <= 0;
    switch (this.int(leaf ? 5 : 11)) {
      case 0:
        return "string";
      case 1:
        return "number";
      case 2:
        return "boolean";
      case 3:
        return this.literals();
      case 4:
        return this.int(2) === 0 ? "string | null" : "number | null";
      case 5: {
        const item = this.type(depth - 1);
        return item.includes("|") ? `(${item})[]` : `${item}[]`;
      }
      case 6:
        return `Record<string, ${this.type(depth - 1)}>`;
      case 7:
        return `[${this.type(depth - 1)}, ${this.type(depth - 1)}]`;
      case 8:
        return this.inlineObject(depth - 1);
      default:
        return this.namedInterface(depth - 1);
    }
  }

  literals(): string {
    const count = 2 + this.int(4);
    const values = new Set<string>();
    while (values.size < count) values.add(`${this.word()}_${this.int(100)}`);
    return [...values].map((v) => JSON.stringify(v)).join(" | ");
  }

  fields(depth: number): string[] {
    const count = 1 + this.int(5);
    const names = new Set<string>();
    while (names.size < count) names.add(this.camel());
    return [...names].map((name) => {
      const optional = this.int(3) === 0 ? "?" : "";
      const doc = this.int(2) === 0 ? `/** The ${name} of the ${this.word()}. */ ` : "";
      return `${doc}${name}${optional}: ${this.type(depth)};`;
    });
  }

  inlineObject(depth: number): string {
    return `{ ${this.fields(depth).join(" ")} }`;
  }

  namedInterface(depth: number): string {
    const word = this.word();
    const name = this.unique(`${word[0]!.toUpperCase()}${word.slice(1)}Shape`);
    const body = this.fields(depth)
      .map((f) => `  ${f}`)
      .join("\n");
    this.interfaces.push(`/** A ${this.word()} record. */\nexport interface ${name} {\n${body}\n}\n`);
    return name;
  }

  tool(): string {
    const name = this.unique(`${this.word()}_${this.word()}_`);
    const params: { name: string; type: string; text: string; init?: string }[] = [];
    const count = this.int(6);
    const names = new Set<string>();
    while (names.size < count) names.add(this.camel());
    for (const p of names) {
      const type = this.type(2);
      const text = `The ${p} to ${this.word()}`;
      const defaulted = type === "number" || type === "boolean" ? this.int(3) === 0 : false;
      params.push({
        name: p,
        type,
        text,
        ...(defaulted ? { init: type === "number" ? String(this.int(50)) : "false" } : {}),
      });
    }
    // Parameters with a default come last, as TypeScript's callers expect.
    params.sort((a, b) => Number(a.init !== undefined) - Number(b.init !== undefined));
    const result = this.type(2);
    const hint = ["", "@readOnly", "@destructive", "@idempotent"][this.int(4)];
    const docs = [
      `/**`,
      ` * Find the ${this.word()} of a ${this.word()} (${name}).`,
      ` *`,
      ...params.map((p) => ` * @param ${p.name} ${p.text}`),
      ...(hint ? [` * ${hint}`] : []),
      ` */`,
    ];
    const signature = params
      .map((p) => (p.init !== undefined ? `${p.name}: ${p.type} = ${p.init}` : `${p.name}: ${p.type}`))
      .join(", ");
    return `${docs.join("\n")}\nexport function ${name}(${signature}): ${result} {\n  throw new Error("not run by the benchmark");\n}\n`;
  }
}

/** Writes the corpus (config, tsconfig, modules) and returns its paths. */
export function generateDistinctCorpus(options: DistinctCorpusOptions): DistinctCorpus {
  const perModule = options.perModule ?? 25;
  const perServer = options.perServer ?? 250;
  const root = path.resolve(options.out ?? path.join(BENCH_DIR, "corpus", `distinct-${options.tools}`));
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, "tools"), { recursive: true });
  const writer = new Writer(options.seed ?? 1);
  const modules: string[] = [];
  const servers: Record<string, string[]> = {};
  for (let start = 0, m = 0; start < options.tools; start += perModule, m++) {
    const tools: string[] = [];
    for (let i = start; i < Math.min(start + perModule, options.tools); i++) tools.push(writer.tool());
    const file = path.join(root, "tools", `module${m}.ts`);
    writeFileSync(file, `${writer.interfaces.splice(0).join("\n")}\n${tools.join("\n")}`);
    modules.push(file);
    const server = `server${Math.floor(start / perServer)}`;
    const list = servers[server] ?? [];
    list.push(file);
    servers[server] = list;
  }
  const config = path.join(root, "mcp-gen.config.ts");
  const entries = Object.entries(servers)
    .map(
      ([s, files]) =>
        `    ${s}: { tools: [${files.map((f) => JSON.stringify(`tools/${path.basename(f)}`)).join(", ")}] },`,
    )
    .join("\n");
  writeFileSync(
    config,
    `import { defineConfig } from "@mcp-gen/codegen/config";\n\nexport default defineConfig({\n  servers: {\n${entries}\n  },\n});\n`,
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
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        include: ["tools"],
      },
      null,
      2,
    )}\n`,
  );
  return { root, config, tsconfig, modules, servers, tools: options.tools };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args.splice(i, 2)[1]) : undefined;
  };
  const perModule = flag("--per-module");
  const perServer = flag("--per-server");
  const outIndex = args.indexOf("--out");
  const out = outIndex >= 0 ? args.splice(outIndex, 2)[1] : undefined;
  for (const n of args.map(Number)) {
    const corpus = generateDistinctCorpus({
      tools: n,
      ...(perModule ? { perModule } : {}),
      ...(perServer ? { perServer } : {}),
      ...(out ? { out: args.length > 1 ? path.join(out, String(n)) : out } : {}),
    });
    process.stdout.write(`${corpus.root}: ${n} tools in ${corpus.modules.length} modules\n`);
  }
}
