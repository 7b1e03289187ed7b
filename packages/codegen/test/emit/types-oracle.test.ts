import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compile } from "json-schema-to-typescript";
import { describe, expect, it } from "vitest";
import { pascalCase } from "../../src/emit/names.ts";
import { REPO_ROOT, tempProject } from "../support/project.ts";

/**
 * json-schema-to-typescript as an independent oracle for the types mcp-gen prints: every tool
 * schema of the golden fixtures and the examples is also compiled by json-schema-to-typescript,
 * and tsc checks that both types accept exactly the same values (mutual assignability). They
 * differ exactly where json-schema-to-typescript is known to be looser or pre-2020-12 (GAPS);
 * any other difference fails.
 */
const FIXTURES = path.join(import.meta.dirname, "../fixtures");
const TSC = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");

interface Case {
  name: string;
  contract: { tools: { name: string; inputSchema: object; outputSchema?: object }[] };
  types: string;
}

function cases(): Case[] {
  const found: Case[] = [];
  for (const name of readdirSync(FIXTURES).sort()) {
    const contract = path.join(FIXTURES, name, "expected/contract.json");
    const types = path.join(FIXTURES, name, "expected/types.ts");
    if (existsSync(contract) && existsSync(types)) {
      found.push({
        name,
        contract: JSON.parse(readFileSync(contract, "utf8")),
        types: readFileSync(types, "utf8"),
      });
    }
  }
  for (const file of readdirSync(path.join(REPO_ROOT, "schemas")).sort()) {
    const server = file.replace(/\.tools\.json$/, "");
    found.push({
      name: `example-${server}`,
      contract: JSON.parse(readFileSync(path.join(REPO_ROOT, "schemas", file), "utf8")),
      types: readFileSync(path.join(REPO_ROOT, "generated", server, "types.ts"), "utf8"),
    });
  }
  return found;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Every subschema of a schema, itself included. */
function* subschemas(schema: unknown): Generator<Record<string, unknown>> {
  if (!isObject(schema)) return;
  yield schema;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" || key === "$defs" || key === "definitions") {
      if (isObject(value)) for (const sub of Object.values(value)) yield* subschemas(sub);
    } else if (Array.isArray(value)) {
      for (const sub of value) yield* subschemas(sub);
    } else if (key !== "default" && key !== "const" && key !== "examples") {
      yield* subschemas(value);
    }
  }
}

/** Where json-schema-to-typescript's type accepts other values than the schema (and mcp-gen's type). */
const GAPS: { reason: string; applies(schema: unknown): boolean }[] = [
  {
    reason: "a closed object without properties: it prints `{}`, which accepts any value but null",
    applies: (schema) =>
      [...subschemas(schema)].some(
        (s) =>
          isObject(s.properties) &&
          Object.keys(s.properties).length === 0 &&
          s.additionalProperties === false,
      ),
  },
  {
    reason: "`prefixItems` (2020-12 tuples): it reads only draft-07 `items` arrays and prints `never[]`",
    applies: (schema) => [...subschemas(schema)].some((s) => "prefixItems" in s),
  },
  {
    reason:
      "an empty array (`maxItems: 0`, TypeScript's `[]`): it ignores maxItems here and prints `unknown[]`",
    applies: (schema) => [...subschemas(schema)].some((s) => s.maxItems === 0),
  },
  {
    reason: "`{}` (any value): it prints an object with an index signature",
    applies: (schema) =>
      [...subschemas(schema)].some(
        (s) => isObject(s.properties) && Object.values(s.properties).some((p) => isObject(p) && isAny(p)),
      ),
  },
  {
    reason:
      '`required` alone in a branch (a rule between properties, `anyOf: [{ required: ["a"] }, …]` of a hand-written schema): it prints an index signature and requires nothing',
    applies: (schema) =>
      [...subschemas(schema)].some((s) => Object.keys(s).length === 1 && Array.isArray(s.required)),
  },
];
/**
 * Not compared: a property that must be absent next to an index signature. json-schema-to-typescript
 * prints `p?: never` beside `[k: string]: T` without `undefined`, which tsc itself rejects (TS2411);
 * mcp-gen adds `undefined` to the index signature.
 */
const absentBesideIndex = (schema: unknown) =>
  [...subschemas(schema)].some(
    (s) =>
      isObject(s.properties) &&
      s.additionalProperties !== undefined &&
      s.additionalProperties !== false &&
      Object.values(s.properties).some((p) => p === false || (isObject(p) && "not" in p)),
  );

const isAny = (s: Record<string, unknown>) =>
  Object.keys(s).every((k) => k === "description" || k === "title" || k === "default" || k === "examples");

/** json-schema-to-typescript resolves no `$ref: "#anchor"`: it is given the pointer of the definition instead. */
function anchorsAsPointers(schema: Record<string, unknown>): Record<string, unknown> {
  let json = JSON.stringify(schema);
  for (const [name, def] of Object.entries(isObject(schema.$defs) ? schema.$defs : {})) {
    if (isObject(def) && typeof def.$anchor === "string")
      json = json.replaceAll(`"$ref":"#${def.$anchor}"`, `"$ref":"#/$defs/${name}"`);
  }
  return JSON.parse(json);
}

/** json-schema-to-typescript reads no `not`: `{ "not": {} }` (a property that must be absent) is given as `false`. */
function notAnythingAsFalse(schema: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown) =>
    isObject(value) && isObject(value.not) && Object.keys(value.not).length === 0 ? false : value,
  );
}

async function theirs(schema: object): Promise<string> {
  const { title: _title, ...root } = notAnythingAsFalse(anchorsAsPointers(schema as Record<string, unknown>));
  return compile(root as never, "Root", {
    bannerComment: "",
    additionalProperties: false,
    ignoreMinAndMaxItems: true,
    unknownAny: true,
    format: false,
    declareExternallyReferenced: true,
  });
}

describe("types agree with json-schema-to-typescript", () => {
  it("accept the same values for every tool schema", async () => {
    const dir = tempProject({ "package.json": '{ "type": "module", "private": true }\n' });
    const labels: string[] = [];
    const expected: string[] = [];
    const lineOf = new Map<string, number>();
    const labelAt = (name: string, line: number) =>
      labels[lineOf.get(`${name}:${line}`)!] ?? `${name}:${line}`;
    for (const c of cases()) {
      const folder = path.join(dir, c.name);
      mkdirSync(folder);
      writeFileSync(path.join(folder, "ours.ts"), c.types);
      const blocks: string[] = [];
      const lines = [
        'import type * as O from "./ours.ts";',
        'import type * as J from "./theirs.ts";',
        "type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
      ];
      for (const [i, tool] of c.contract.tools.entries()) {
        for (const [slot, schema] of [
          ["Input", tool.inputSchema],
          ["Output", tool.outputSchema],
        ] as const) {
          if (!schema || absentBesideIndex(schema)) continue;
          const ns = `T${i}${slot}`;
          blocks.push(`export namespace ${ns} {\n${await theirs(schema)}\n}`);
          lineOf.set(`${c.name}:${lines.length + 1}`, labels.length);
          lines.push(
            `export const c${labels.length}: Same<O.${pascalCase(tool.name)}${slot}, J.${ns}.Root> = true;`,
          );
          labels.push(`${c.name} ${tool.name} ${slot.toLowerCase()}`);
          if (GAPS.some((g) => g.applies(schema))) expected.push(labels[labels.length - 1]!);
        }
      }
      writeFileSync(path.join(folder, "theirs.ts"), blocks.join("\n"));
      writeFileSync(path.join(folder, "check.ts"), `${lines.join("\n")}\n`);
    }
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ extends: path.join(REPO_ROOT, "tsconfig.base.json"), include: ["*/check.ts"] }),
    );
    const tsc = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json", "--pretty", "false"], {
      cwd: dir,
      encoding: "utf8",
    });
    const differ: string[] = [];
    const other: string[] = [];
    for (const line of tsc.stdout.split("\n").filter(Boolean)) {
      const m =
        /^([^/]+)\/check\.ts\((\d+),\d+\): error TS2322: Type 'true' is not assignable to type 'false'\.$/.exec(
          line,
        );
      if (m) differ.push(labelAt(m[1]!, Number(m[2])));
      else other.push(line);
    }
    expect(other).toStrictEqual([]);
    expect(differ.sort()).toStrictEqual(expected.sort());
    // The comparison is live: most schemas agree, and each kind of gap shows up.
    expect(labels.length - differ.length).toBeGreaterThan(60);
    expect(differ).toContain("tuples place input");
    expect(differ).toContain("unknown put input");
    expect(differ).toContain("returns ping input");
  }, 120_000);
});
