/**
 * What the model reads, in tokens: the provider tool definitions the build emits (Anthropic and
 * OpenAI, as sent: compact JSON) vs code mode's declarations vs its index, for the distinct corpus
 * at 10, 50, 200 and 1,000 tools and for the repository's own servers (hand-written descriptions).
 * Tokenizers: gpt-tokenizer's o200k_base (GPT-4o family) and cl100k_base (the older GPT-4 one, a
 * proxy for others; Anthropic publishes no tokenizer for its current models).
 *
 * Usage: npx tsx --conditions @mcp-gen/source bench/code/tokens.ts [10,50,200,1000]
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type ApiServer, apiServer, type Contract, renderDeclarations, renderIndex } from "@mcp-gen/schema";
import { encode as cl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { encode as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { codeCorpus } from "./corpus.ts";

const sizes = (process.argv[2] ?? "10,50,200,1000").split(",").map(Number);
const ROOT = path.join(import.meta.dirname, "..", "..");

interface Row {
  label: string;
  tools: number;
  anthropic: string;
  openai: string;
  /** The model's form (`compact`): what the code tool's description carries. */
  declarations: string;
  /** The readable form of `api.d.ts`. */
  readable: string;
  /** The words alone: every tool name and description of the definitions, one a line (the floor). */
  words: string;
  /**
   * The declarations' own words: every comment (descriptions, results' included, constraints,
   * annotations) and function name, one a line: the floor of the declarations with results.
   */
  comments: string;
  /** The declarations with every result typed `unknown`: the part the definitions also carry. */
  inputsOnly: string;
  index: string;
}

const rows: Row[] = [];
{
  const dir = path.join(ROOT, "schemas");
  const contracts = readdirSync(dir)
    .filter((f) => f.endsWith(".tools.json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Contract);
  const providers = (file: string) =>
    contracts.flatMap(
      (c) =>
        (
          JSON.parse(readFileSync(path.join(ROOT, "generated", c.server, "providers", file), "utf8")) as {
            tools: unknown[];
          }
        ).tools,
    );
  rows.push(
    row(
      "repository's servers",
      // tools only: the provider definitions carry no resources or prompts
      contracts.map((c) => ({ ...apiServer(c), resources: [], resourceTemplates: [], prompts: [] })),
      providers("anthropic.json"),
      providers("openai.json"),
    ),
  );
}
for (const n of sizes) {
  const corpus = await codeCorpus(n);
  rows.push(
    row(
      `distinct corpus`,
      corpus.contracts.map(apiServer),
      corpus.providers["anthropic.json"]!,
      corpus.providers["openai.json"]!,
    ),
  );
}

function row(label: string, servers: ApiServer[], anthropic: unknown[], openai: unknown[]): Row {
  return {
    label,
    tools: servers.reduce((n, s) => n + s.tools.length, 0),
    anthropic: JSON.stringify(anthropic),
    openai: JSON.stringify(openai),
    declarations: renderDeclarations(servers, { compact: true, forModel: true }),
    readable: renderDeclarations(servers),
    inputsOnly: renderDeclarations(
      servers.map((s) => ({ ...s, tools: s.tools.map(({ outputSchema: _, ...t }) => t) })),
      { compact: true, forModel: true },
    ).replace(/^\/\/ A result typed unknown: the tool declares no output schema\.\n/gm, ""),
    index: renderIndex(servers),
    words: wordsOf(anthropic).join("\n"),
    comments: commentsOf(renderDeclarations(servers, { compact: true, forModel: true })),
  };
}

/**
 * Every comment's text (a line's, or one right before a part's type: `):// A device.`,
 * `(// A tag.`) and every function name of declarations, one a line.
 */
function commentsOf(declarations: string): string {
  return [...declarations.matchAll(/(?:^|[([<,]|\):)\/\/ (.*)$|^(?:function )?([A-Za-z_$][\w$]*)\(/gm)]
    .map((m) => m[1] ?? m[2])
    .join("\n");
}

/** Every `name` of a tool and every `description`, as the definitions carry them. */
function wordsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) wordsOf(v, out);
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if ((k === "description" || k === "name") && typeof v === "string") out.push(v);
      else wordsOf(v, out);
    }
  return out;
}

const fmt = (n: number) => n.toLocaleString("en-US");
for (const [name, encode] of [
  ["o200k_base", o200k],
  ["cl100k_base", cl100k],
] as const) {
  process.stdout.write(
    `\n${name}\n| corpus | tools | Anthropic defs | OpenAI defs | declarations | decl ÷ Anthropic | decl ÷ OpenAI | inputs only ÷ Anthropic | words ÷ Anthropic | comments + names ÷ Anthropic | api.d.ts | index |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n`,
  );
  const measured = rows.map((r) => {
    const [a, o, d, n, i, w, h, c] = [
      r.anthropic,
      r.openai,
      r.declarations,
      r.inputsOnly,
      r.index,
      r.words,
      r.readable,
      r.comments,
    ].map((t) => encode(t).length) as [number, number, number, number, number, number, number, number];
    return { r, a, o, d, n, i, w, h, c };
  });
  // the least favourable ratio first
  measured.sort((x, y) => y.d / y.a - x.d / x.a);
  for (const { r, a, o, d, n, i, w, h, c } of measured) {
    process.stdout.write(
      `| ${r.label} | ${fmt(r.tools)} | ${fmt(a)} | ${fmt(o)} | ${fmt(d)} | ${(d / a).toFixed(2)} | ${(d / o).toFixed(2)} | ${(n / a).toFixed(2)} | ${(w / a).toFixed(2)} | ${(c / a).toFixed(2)} | ${fmt(h)} | ${fmt(i)} |\n`,
    );
  }
}
