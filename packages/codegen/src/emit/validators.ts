import { AJV_HELPER_ENTRIES } from "@mcp-gen/runtime/ajv-runtime";
import {
  bareSchema,
  createAjv,
  declareAnnotations,
  diagnostic,
  type JsonSchema,
  McpGenError,
  metaSchemaErrors,
  strictNote,
} from "@mcp-gen/schema";
import codegenModule from "ajv/dist/compile/codegen/index.js";
import compileModule from "ajv/dist/compile/index.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import type { EmitContext } from "./context.ts";
import { identifier } from "./names.ts";
import { allItems, emitItems } from "./resources.ts";
import { shapeFingerprint } from "./validator-fingerprint.ts";
import { codeHeader, finish, type OutputFile } from "./writer.ts";

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ??
  standaloneModule) as typeof import("ajv/dist/standalone/index.js").default;
const { ValueScope } = codegenModule as typeof import("ajv/dist/compile/codegen/index.js");
const { SchemaEnv, compileSchema } = compileModule as typeof import("ajv/dist/compile/index.js");

/** Export names of a tool's validators in `validators.ts`. */
export function validatorExports(toolName: string): { input: string; output: string } {
  const id = identifier(toolName);
  return { input: `${id}_input`, output: `${id}_output` };
}

/** Ajv's strictTuples note (`"prefixItems" is 2-tuple, but minItems or maxItems/items are not …`). */
const TUPLE_NOTE = /^"(?:prefixItems|items)" is \d+-tuple, but /;

/** A strict-mode note of Ajv, relative to the compiled schema. */
type Note = { message: string; pointer: string };

/**
 * One schema's validator as Ajv's standalone code, compiled with names of its own (`validate0`,
 * `schema0` …), so that the code depends on nothing but the schema: `root` is its function.
 */
export interface CompiledShape {
  code: string;
  root: string;
  notes: Note[];
}

/**
 * Compiled validators by shape (the schema without annotations, as JSON): shared by the servers
 * of one build, and kept by watch so that a rebuild compiles only the schemas that changed.
 */
export type ValidatorCache = Map<string, CompiledShape>;
const MAX_CACHED_SHAPES = 20_000;

/**
 * Emits `validators.ts` (Ajv standalone ESM: every input and output schema, compiled once
 * at build time, its exports typed `RawValidate`). Each distinct shape is compiled on its own and
 * wrapped in a function scope, so its code is the same whatever else the server has; schemas that
 * validate alike (equal but for annotations such as descriptions) share one validator. A schema
 * Ajv rejects stops the build with the JSON pointer of the problem.
 */
export function emitValidators(ctx: EmitContext): OutputFile {
  const cache: ValidatorCache = ctx.validatorCache ?? new Map();
  let notes: Note[] = [];
  let ajv: Ajv | undefined;
  const lines: string[] = [];
  const shapes = new Map<string, { variable: string; compiled: CompiledShape }>();
  for (const { schema, name, at, label, fromTs } of validatorSlots(ctx)) {
    // the rule check made this copy when it found the schema valid
    const bare = bareSchema(schema) as JsonSchema;
    const json = JSON.stringify(bare);
    validate(ctx, schema, { bare, json }, at);
    let entry = shapes.get(json);
    if (!entry) {
      let compiled = cache.get(json);
      if (!compiled) {
        ajv ??= createAjv({ source: true, log: (message) => notes.push(strictNote(message)) });
        declareAnnotations(ajv, schema);
        notes = [];
        try {
          compiled = compileShape(ajv, bare, json, () => notes);
        } catch (error) {
          throw new McpGenError(
            diagnostic("MCPG040", `cannot compile schema: ${(error as Error).message}`, {
              file: ctx.contractFile,
              pointer: at,
            }),
          );
        }
        if (cache.size >= MAX_CACHED_SHAPES) cache.clear();
        cache.set(json, compiled);
      }
      entry = { variable: `shape${shapes.size}`, compiled };
      shapes.set(json, entry);
      lines.push(shapeLine(entry.variable, json, compiled));
    }
    lines.push(`export const ${name}: RawValidate = ${entry.variable};`);
    for (const note of entry.compiled.notes) {
      // `[A, B?]` and `[A, ...B[]]` say exactly what the TypeScript says; the note is for hand-written schemas
      if (fromTs && TUPLE_NOTE.test(note.message)) continue;
      ctx.warnings.push(
        diagnostic("MCPG124", `${label}: ${note.message}`, {
          file: ctx.contractFile,
          pointer: `${at}${note.pointer}`,
        }),
      );
    }
  }
  const code = lines.length > 0 ? esmImports(lines.join("\n"), ctx.contractFile) : "export {};";
  // TypeScript, so that the project's own `tsc` compiles it into its output with the rest (a `.js`
  // file would need `allowJs`); Ajv's code itself is not type-checked, only its exports are typed.
  const head = `${codeHeader()}// @ts-nocheck: Ajv's standalone code; its exports are typed RawValidate.\n`;
  const imports = lines.length > 0 ? 'import type { RawValidate } from "@mcp-gen/runtime/validation";\n' : "";
  return { path: `${ctx.outDir}/validators.ts`, content: finish(`${head}${imports}${code}`) };
}

type Ajv = ReturnType<typeof createAjv>;

/** A schema that gets a validator in `validators.ts`: its export name, pointer and label in messages. */
export interface ValidatorSlot {
  schema: JsonSchema;
  name: string;
  at: string;
  label: string;
  /** Extracted from TypeScript (not a hand-written `@inputSchema`): tuple notes say nothing to act on. */
  fromTs: boolean;
}

/** Every validator of a server: tools' inputs and outputs, resource templates' variables, prompts' arguments. */
export function validatorSlots(ctx: EmitContext): ValidatorSlot[] {
  const slots: ValidatorSlot[] = [];
  ctx.contract.tools.forEach((tool, i) => {
    const names = validatorExports(tool.name);
    for (const [slot, name] of [
      ["inputSchema", names.input],
      ["outputSchema", names.output],
    ] as const) {
      const schema = tool[slot];
      const extras = ctx.contract["x-mcp-gen"]?.tools?.[tool.name];
      const fromTs = extras?.binding !== undefined && (slot === "outputSchema" || !extras.inputSchema);
      if (schema)
        slots.push({ schema, name, at: `/tools/${i}/${slot}`, label: `tool "${tool.name}"`, fromTs });
    }
  });
  for (const item of allItems(emitItems(ctx))) {
    if (!item.argumentsSchema || !item.validator) continue;
    slots.push({
      schema: item.argumentsSchema,
      name: item.validator,
      at: item.argumentsPointer!,
      label: item.label,
      fromTs: false,
    });
  }
  return slots;
}

/**
 * One shape's line: its code in a function scope of its own, and after it the shape's fingerprint
 * (see `shapeFingerprint`), which lets `build --check` take the line for what compiling would give.
 * A shape with strict-mode notes has none: its notes are not in the file, so it is always compiled.
 */
function shapeLine(variable: string, json: string, compiled: CompiledShape): string {
  const line = `const ${variable} = (() => {${compiled.code}return ${compiled.root};})();`;
  return compiled.notes.length > 0 ? line : `${line} // ${shapeFingerprint(json, compiled)}`;
}

/**
 * Compiles shapes (JSON of schemas without annotations) as `emitValidators` would, in one Ajv of
 * their own; a shape that does not compile is left out (`emitValidators` reports it in place).
 */
export function compileShapes(jsons: readonly string[]): [string, CompiledShape][] {
  let notes: Note[] = [];
  const ajv = createAjv({ source: true, log: (message) => notes.push(strictNote(message)) });
  const out: [string, CompiledShape][] = [];
  for (const json of jsons) {
    const bare = JSON.parse(json) as JsonSchema;
    declareAnnotations(ajv, bare);
    notes = [];
    try {
      out.push([json, compileShape(ajv, bare, json, () => notes)]);
    } catch {
      // reported by emitValidators, with its pointer
    }
  }
  return out;
}

function validate(
  ctx: EmitContext,
  schema: JsonSchema,
  shape: { bare: unknown; json: string },
  at: string,
): void {
  const errors = metaSchemaErrors(schema, shape);
  if (errors.length === 0) return;
  throw new McpGenError(
    errors.map((e) =>
      diagnostic("MCPG040", `invalid JSON Schema: ${e.message}`, {
        file: ctx.contractFile,
        pointer: `${at}${e.instancePath}`,
      }),
    ),
  );
}

/** What `standaloneCode` writes before a single function's code (no line breaks: `code.lines` is off). */
const SINGLE_EXPORT = /^"use strict";export const validate = (\w+);export default \1;/;

/** The key a shape is compiled under (its base URI, as `addSchema(schema, key)` would make it). */
const SHAPE_KEY = "mcp-gen:shape";
/** What Ajv's `addSchema` collects before compiling (`getSchemaRefs`): identifiers and anchors of subschemas. */
const REGISTERS_REFS = /"\$(?:id|anchor|dynamicAnchor)"/;

/**
 * Compiles one schema in a name scope of its own (Ajv numbers the functions and constants of all
 * it compiles in one sequence; a fresh scope makes the code depend on this schema alone) and takes
 * its standalone code. The schema is removed again, so nothing of it stays registered in `ajv`.
 */
function compileShape(ajv: Ajv, schema: JsonSchema, json: string, notes: () => Note[]): CompiledShape {
  const scoped = ajv as unknown as { scope: InstanceType<typeof ValueScope> };
  const { prefixes, es5, lines } = scoped.scope.opts;
  scoped.scope = new ValueScope({ scope: {}, prefixes, es5, lines });
  const source = REGISTERS_REFS.test(json) ? viaAddSchema(ajv, schema) : viaSchemaEnv(ajv, schema);
  const head = SINGLE_EXPORT.exec(source);
  if (!head) throw new Error(`unexpected standalone code: ${source.slice(0, 80)}`);
  return { code: source.slice(head[0].length), root: head[1]!, notes: notes() };
}

/** Ajv's own way: `addSchema` (which walks the schema for `$id` and anchors), `getSchema`, `removeSchema`. */
function viaAddSchema(ajv: Ajv, schema: JsonSchema): string {
  try {
    // validated by the caller: skip addSchema's own meta-schema validation
    ajv.addSchema(schema, SHAPE_KEY, undefined, false);
    return standaloneCode(ajv, ajv.getSchema(SHAPE_KEY)!);
  } finally {
    ajv.removeSchema(SHAPE_KEY);
  }
}

/**
 * What `viaAddSchema` does for a schema without `$id` or anchors, where `addSchema`'s walk finds no
 * reference to register (`localRefs` stays empty): the schema's environment registered under the
 * same key as `addSchema` registers it and compiled. ≈ 4 % of the
 * validators' CPU at N = 1000 (bench/README.md, "Build", sixth round); the same code, byte for byte.
 */
function viaSchemaEnv(ajv: Ajv, schema: JsonSchema): string {
  const registry = ajv as unknown as {
    schemas: Record<string, unknown>;
    refs: Record<string, unknown>;
    _cache: Map<unknown, unknown>;
  };
  const env = new SchemaEnv({ schema, schemaId: "$id", baseId: SHAPE_KEY, localRefs: {} });
  registry.schemas[SHAPE_KEY] = env;
  registry.refs[SHAPE_KEY] = env;
  registry._cache.set(schema, env);
  try {
    compileSchema.call(ajv as never, env);
    if (!env.validate) throw new Error("Ajv compiled no function");
    return standaloneCode(ajv, env.validate as never);
  } finally {
    delete registry.schemas[SHAPE_KEY];
    delete registry.refs[SHAPE_KEY];
    registry._cache.delete(schema);
  }
}

/**
 * Ajv's standalone ESM still `require()`s its runtime helpers and formats. Each helper the code
 * names is imported from its entry in `@mcp-gen/runtime/ajv-runtime/<helper>` (from the runtime's own
 * dependencies: resolved from the user's project they would need `ajv` hoisted into its
 * `node_modules`, and a bundler could not follow them), and a module-local `require` gives them
 * back: a server loads only the helpers its validators call. Sorted by id, so the file is the same
 * on every build.
 */
function esmImports(code: string, file: string): string {
  const body = code.replace(/^"use strict";/, "");
  const ids = [...new Set([...body.matchAll(REQUIRE_CALL)].map((m) => m[1]!))].sort();
  if (ids.length === 0) return body;
  const imports = ids.map((id, i) => {
    const entry = AJV_HELPER_ENTRIES[id];
    if (!entry) {
      throw new McpGenError(
        diagnostic(
          "MCPG040",
          `Ajv's standalone code needs "${id}", which @mcp-gen/runtime does not provide: install the @mcp-gen/runtime and @mcp-gen/codegen of the same version`,
          { file },
        ),
      );
    }
    return `import ajvHelper${i} from "${entry}";`;
  });
  const table = ids.map((id, i) => `${JSON.stringify(id)}: ajvHelper${i}`).join(", ");
  return `${imports.join("\n")}\nconst ajvHelpers = { ${table} };\nconst require = (id) => ajvHelpers[id];\n${body}`;
}

/** A `require("…")` of Ajv's standalone code (an id never holds a quote). */
const REQUIRE_CALL = /\brequire\("([^"]+)"\)/g;
