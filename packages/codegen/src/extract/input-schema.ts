import { readFileSync } from "node:fs";
import path from "node:path";
import { createAjv, metaSchemaErrors } from "@mcp-gen/schema";
import type { IrInputSchema, IrParam, IrTool } from "../ir/types.ts";
import type { ExtractContext, Site } from "./context.ts";
import type { DocTag } from "./jsdoc.ts";

/** The JSDoc tag naming a tool's hand-written input schema: `@inputSchema ./schema.json`. */
export const INPUT_SCHEMA_TAG = "inputSchema";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The files named by `@inputSchema` tags in a module's source text (absolute paths), found without
 * type information so that watch follows them even while the module fails to extract.
 */
export function inputSchemaFiles(fileName: string, text: string): string[] {
  const found = [...text.matchAll(/@inputSchema[ \t]+([^\s*]+)/g)].map((m) =>
    path.resolve(path.dirname(fileName), m[1]!),
  );
  return [...new Set(found)];
}

/**
 * Reads the schema a tool's `@inputSchema <path>` names (relative to the tool module) and checks it:
 * a readable `.json` file (MCPG045) holding a JSON Schema 2020-12 object schema (MCPG046).
 */
export function readInputSchema(options: {
  tag: DocTag;
  module: string;
  ctx: ExtractContext;
  site: Site;
}): IrInputSchema {
  const { tag, module, ctx, site } = options;
  const target = tag.text.split(/\s+/)[0] ?? "";
  if (target === "")
    return ctx.fail(
      "MCPG045",
      "needs the path of a .json file (relative to the tool module)",
      site,
      "write `@inputSchema ./input.json`",
    );
  const absolute = path.resolve(path.dirname(module), target);
  const file = path.relative(ctx.root, absolute).split(path.sep).join("/");
  if (!target.endsWith(".json"))
    return ctx.fail(
      "MCPG045",
      `"${target}" is not a .json file`,
      site,
      "save the schema as JSON in a .json file",
    );
  let text: string;
  try {
    text = readFileSync(absolute, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return ctx.fail(
      "MCPG045",
      `cannot read ${file}: ${code === "ENOENT" ? "no such file" : (code ?? "unreadable")}`,
      site,
    );
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    const { line, column } = positionOf(text, (error as Error).message);
    const at = `line ${line}, column ${column}`;
    return ctx.fail("MCPG045", `${file} is not valid JSON (${at})`, site, `fix the JSON at ${at} of ${file}`);
  }
  if (!isObject(schema)) return ctx.fail("MCPG046", `${file} must hold a JSON Schema object`, site);
  if (schema.$schema !== undefined && schema.$schema !== DIALECT && schema.$schema !== `${DIALECT}#`) {
    return ctx.fail(
      "MCPG046",
      `${file} declares "$schema": ${JSON.stringify(schema.$schema)}; only JSON Schema 2020-12 (${DIALECT}) is read`,
      site,
      `remove "$schema" or set it to "${DIALECT}" (and write the schema in 2020-12)`,
    );
  }
  const errors = metaSchemaErrors(schema);
  if (errors.length > 0) {
    // Ajv words one problem several times (each branch of the meta-schema's anyOf): the first per pointer
    const first = new Map<string, string>();
    for (const e of errors) if (!first.has(e.instancePath)) first.set(e.instancePath, e.message);
    const problems = [...first].map(([pointer, message]) => `${pointer || "(root)"} ${message}`);
    return ctx.fail(
      "MCPG046",
      `${file} is not a valid JSON Schema 2020-12: ${problems.join("; ")}`,
      site,
      "correct the schema at those JSON pointers (JSON Schema 2020-12 keywords)",
    );
  }
  if (schema.type !== "object")
    return ctx.fail(
      "MCPG046",
      `${file} must have "type": "object" at its root (MCP tool arguments are an object)`,
      site,
    );
  const compileError = compileProblem(schema);
  if (compileError) {
    const fix = "make every $ref point into the schema (#/$defs/<name> or #<anchor>)";
    return ctx.fail("MCPG046", `${file} does not compile: ${compileError}`, site, fix);
  }
  return { file, schema };
}

/** Where `JSON.parse` stopped, from the `position N` of its message (the end when it names none). */
function positionOf(text: string, message: string): { line: number; column: number } {
  const match = /position (\d+)/.exec(message);
  const offset = match ? Number(match[1]) : text.length;
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

let ajv: ReturnType<typeof createAjv> | undefined;

/** What Ajv says when it cannot compile the schema (an unresolvable `$ref` …), or `undefined`. */
function compileProblem(schema: Record<string, unknown>): string | undefined {
  ajv ??= createAjv({ source: false });
  try {
    ajv.compile(schema);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    ajv.removeSchema(schema);
  }
}

/**
 * Matches a tool's parameters to the top-level `properties` of its hand-written schema (MCPG047):
 * each parameter is a property, `required` holds the parameters TypeScript requires, and each
 * property is a parameter — unless the tool takes one object parameter, which then receives the
 * arguments object as it is (`argsStyle: "object"`, its properties standing for the parameters).
 */
export function matchInputSchema(options: {
  input: IrInputSchema;
  params: IrParam[];
  argsStyle: IrTool["argsStyle"];
  ctx: ExtractContext;
  site: Site;
}): { params: IrParam[]; argsStyle: IrTool["argsStyle"] } {
  const { input, ctx, site } = options;
  let { params, argsStyle } = options;
  const properties = isObject(input.schema.properties) ? Object.keys(input.schema.properties) : [];
  const required = Array.isArray(input.schema.required) ? input.schema.required : [];
  const only = params.length === 1 ? params[0]! : undefined;
  if (argsStyle === "positional" && only && !properties.includes(only.name) && only.type.kind === "object") {
    argsStyle = "object";
    params = only.type.properties.map((p) => ({ ...p, location: only.location }));
  }
  const problems: string[] = [];
  const noun = (name: string) =>
    argsStyle === "object" ? `property "${name}" of the arguments object` : `parameter "${name}"`;
  for (const param of params) {
    if (!properties.includes(param.name))
      problems.push(`${noun(param.name)} is not a property of ${input.file}`);
    else if (param.required && !required.includes(param.name))
      problems.push(`${noun(param.name)} is required but ${input.file} does not list it in "required"`);
  }
  if (argsStyle === "positional") {
    for (const name of properties) {
      if (!params.some((p) => p.name === name))
        problems.push(`property "${name}" of ${input.file} has no parameter`);
    }
  }
  if (problems.length > 0) return ctx.fail("MCPG047", problems.join("; "), site);
  return { params, argsStyle };
}
