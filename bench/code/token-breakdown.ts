/**
 * Where the tokens go: code mode's declarations in the model's form against the Anthropic tool
 * definitions of the same tools, token by token (o200k_base), each token counted under the construct
 * its first visible character belongs to. For the distinct corpus at N tools and the repository's
 * own servers (tools only, as in `tokens.ts`).
 *
 * Usage: npx tsx --conditions @mcp-gen/source bench/code/token-breakdown.ts [200]
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type ApiServer, apiServer, type Contract, renderDeclarations } from "@mcp-gen/schema";
import { decode, encode } from "gpt-tokenizer/encoding/o200k_base";
import { codeCorpus } from "./corpus.ts";

const size = Number(process.argv[2] ?? 200);
const ROOT = path.join(import.meta.dirname, "..", "..");

/** Counts the tokens of `text` by the category of their first non-blank character. */
function count(text: string, categories: string[]): Map<string, number> {
  const by = new Map<string, number>();
  let at = 0;
  for (const token of encode(text)) {
    const piece = decode([token]);
    let i = at;
    while (i < at + piece.length - 1 && /[\s"{},:[\]]/.test(text[i]!)) i++;
    const c = categories[i] ?? "punctuation";
    by.set(c, (by.get(c) ?? 0) + 1);
    at += piece.length;
  }
  return by;
}

/** The category of every character of the declarations (line by line, by pattern). */
function declarationCategories(text: string): string[] {
  const cat: string[] = new Array(text.length).fill("punctuation");
  const mark = (from: number, to: number, c: string) => cat.fill(c, from, to);
  let off = 0;
  for (const whole of text.split("\n")) {
    const lineStart = off;
    off += whole.length + 1;
    // a comment right before a part's type (`):// A device.`, `(// A tag.`) runs to the line's end
    const inPlace = /(?<=[([<,]|\):)\/\/ /.exec(whole)?.index;
    if (inPlace !== undefined) code(whole.slice(0, inPlace), lineStart);
    const start = lineStart + (inPlace ?? 0);
    const line = whole.slice(inPlace ?? 0);
    const at = (m: RegExpMatchArray, c: string) => mark(start + m.index!, start + m.index! + m[0].length, c);
    if (line.startsWith("//")) {
      mark(start, start + 2, "comment markers");
      mark(start + 2, start + line.length, "descriptions");
      const words =
        /\((?:[^()]|\([^()]*\))*\b(?:integer|default|length|matches|format|items|keys|multiple)\b(?:[^()]|\([^()]*\))*\)$/.exec(
          line,
        );
      if (words) mark(start + words.index, start + line.length, "constraint words");
      else if (/^\/\/ (?:integer|default|length|matches|format|items|keys|multiple)\b/.test(line))
        mark(start + 3, start + line.length, "constraint words");
      for (const m of line.matchAll(
        /Returns:|Each item:|Each value:|Item \d+:| ?(?:Read-only|Destructive|Idempotent)\./g,
      ))
        at(m, "annotations, labels");
      continue;
    }
    code(line, start);
  }
  /** The categories of a line's code (from `start`), by pattern. */
  function code(line: string, start: number) {
    const at = (m: RegExpMatchArray, c: string) => mark(start + m.index!, start + m.index! + m[0].length, c);
    for (const m of line.matchAll(/"[^"]*"/g)) at(m, "literals");
    for (const m of line.matchAll(/\b(?:string|number|boolean|null|unknown|never)\b/g))
      at(m, "type keywords");
    for (const m of line.matchAll(
      /\b(?:declare namespace|declare const|function|args|Promise|Record|interface|type)\b/g,
    ))
      at(m, "declaration keywords");
    for (const m of line.matchAll(/(?<=^|[{;&] ?)[A-Za-z_$][\w$]*(?=\??:)/g)) at(m, "property names");
    // a function (`function f(`) or, in the model's reading, a method (`f(`)
    for (const m of line.matchAll(/(?<=^(?:function )?)[A-Za-z_$][\w$]*(?=\()/g)) at(m, "tool names");
    for (const m of line.matchAll(/(?<=(?:interface|type|namespace) )\w+|\b[A-Z]\w*\b/g))
      if (cat[start + m.index!] === "punctuation") at(m, "type names");
  }
  return cat;
}

/** The category of every character of `JSON.stringify(value)`, from a walk that writes the same text. */
function jsonCategories(value: unknown): { text: string; categories: string[] } {
  const parts: [string, string][] = [];
  const STRUCTURE = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "input_schema",
    "anyOf",
    "prefixItems",
    "const",
  ];
  const walk = (v: unknown, role: string) => {
    if (Array.isArray(v)) {
      parts.push(["[", "punctuation"]);
      v.forEach((x, i) => {
        if (i > 0) parts.push([",", "punctuation"]);
        walk(x, role === "enum" ? "literals" : role === "required" ? "property names" : role);
      });
      parts.push(["]", "punctuation"]);
    } else if (v !== null && typeof v === "object") {
      parts.push(["{", "punctuation"]);
      Object.entries(v).forEach(([k, x], i) => {
        if (i > 0) parts.push([",", "punctuation"]);
        const key =
          role === "properties"
            ? "property names"
            : k === "name" || k === "description" || STRUCTURE.includes(k)
              ? "schema keys"
              : "constraint words";
        parts.push([JSON.stringify(k), key], [":", "punctuation"]);
        const next =
          role === "properties"
            ? "schema"
            : k === "description"
              ? "descriptions"
              : k === "name"
                ? "tool names"
                : k === "type"
                  ? "type keywords"
                  : ["enum", "required", "properties"].includes(k)
                    ? k
                    : STRUCTURE.includes(k)
                      ? "schema"
                      : "constraint words";
        walk(x, next);
      });
      parts.push(["}", "punctuation"]);
    } else
      parts.push([
        JSON.stringify(v),
        role === "schema" || role === "enum" ? (typeof v === "boolean" ? "punctuation" : "literals") : role,
      ]);
  };
  walk(value, "top");
  const text = parts.map(([t]) => t).join("");
  if (text !== JSON.stringify(value)) throw new Error("the walk does not write JSON.stringify's text");
  return { text, categories: parts.flatMap(([t, c]) => Array<string>(t.length).fill(c)) };
}

function report(label: string, servers: ApiServer[], anthropic: unknown[]) {
  const declarations = renderDeclarations(servers, { compact: true, forModel: true });
  const inputs = renderDeclarations(
    servers.map((s) => ({ ...s, tools: s.tools.map(({ outputSchema: _, ...t }) => t) })),
    { compact: true, forModel: true },
  );
  const json = jsonCategories(anthropic);
  const d = count(declarations, declarationCategories(declarations));
  const n = count(inputs, declarationCategories(inputs));
  const j = count(json.text, json.categories);
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const jt = total(j);
  const cell = (x: number) => `${x} | ${(x / jt).toFixed(3)}`;
  process.stdout.write(
    `\n${label}: declarations ${total(d)} tokens (inputs only ${total(n)}), Anthropic definitions ${jt}\n` +
      "| construct | declarations | ÷ defs | inputs only | ÷ defs | definitions | ÷ defs |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
  );
  const keys = [...new Set([...d.keys(), ...j.keys()])].sort(
    (a, b) => (d.get(b) ?? 0) + (j.get(b) ?? 0) - (d.get(a) ?? 0) - (j.get(a) ?? 0),
  );
  for (const k of keys)
    process.stdout.write(
      `| ${k} | ${cell(d.get(k) ?? 0)} | ${cell(n.get(k) ?? 0)} | ${cell(j.get(k) ?? 0)} |\n`,
    );
}

const dir = path.join(ROOT, "schemas");
const contracts = readdirSync(dir)
  .filter((f) => f.endsWith(".tools.json"))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Contract);
report(
  "repository's servers",
  contracts.map((c) => ({ ...apiServer(c), resources: [], resourceTemplates: [], prompts: [] })),
  contracts.flatMap(
    (c) =>
      (
        JSON.parse(
          readFileSync(path.join(ROOT, "generated", c.server, "providers", "anthropic.json"), "utf8"),
        ) as { tools: unknown[] }
      ).tools,
  ),
);
const corpus = await codeCorpus(size);
report(
  `distinct corpus, ${size} tools`,
  corpus.contracts.map(apiServer),
  corpus.providers["anthropic.json"]!,
);
