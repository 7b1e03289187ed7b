import type { JsonSchema } from "../contract.ts";
import { RESULT_WRAPPED_META } from "../contract.ts";
import { escapeToken, isSchemaObject } from "../schema-utils.ts";
import { type ApiNames, type ApiServer, type ApiTool, apiNames, readKey } from "./api.ts";
import { constraintWords, partDescriptions, propertyDoc, sentences } from "./doc-words.ts";
import { MODEL_RULE, modelServer } from "./model-reading.ts";
import { Defs } from "./named-defs.ts";
import {
  PROMPT_MESSAGES,
  type ReadFunction,
  readArguments,
  readDoc,
  readFunctions,
  readResult,
} from "./reads.ts";
import { schemaToTs } from "./schema-to-ts.ts";
import {
  isScalarShape,
  type SharedShape,
  scalarShape,
  shapeBase,
  shapeNamer,
  sharedShapes,
} from "./shared-shapes.ts";
import { jsdoc, lineComments } from "./ts-text.ts";

/** Options of `renderDeclarations`. */
export interface RenderDeclarationsOptions {
  /** Called for a schema part that cannot be typed (it becomes `unknown`); `where` names the server. */
  warn?: (where: { server: string; pointer: string }, message: string) => void;
  /**
   * Render only these functions of their server (`name`: the tool's name, or the `readKey` of a
   * resource, template or prompt; `id`: the function's identifier); default: all.
   */
  only?: (server: string, name: string, id: string) => boolean;
  /**
   * The model's form (what a code tool's description carries): no indentation, `//` comments, and
   * every object shape that recurs declared once as a named type. The same declarations and words
   * as the readable form of `api.d.ts`, in fewer tokens.
   */
  compact?: boolean;
  /**
   * With `compact`, the model's reading of it (what a code tool's description and `describeApi`
   * carry): every function's result written as what it resolves to (`):Account;`) under one first
   * line saying every function is async, and each server a constant of an object type whose
   * methods are the functions (see `modelServer`). A checker needs the compact form itself
   * (`Promise<…>`, namespaces of functions): the same API, types and words.
   */
  forModel?: boolean;
}

/**
 * TypeScript declarations of the servers' tools: a `declare namespace` per server, one async
 * function per tool with its JSDoc, its arguments object and its result type (`unknown` when the
 * tool has no output schema). Deterministic: the same servers give the same text.
 *
 * @example
 * renderDeclarations([apiServer(contract)]) // "declare namespace smart_home {\n  …"
 */
export function renderDeclarations(
  servers: readonly ApiServer[],
  options: RenderDeclarationsOptions = {},
): string {
  const names = apiNames(servers);
  const blocks: string[] = [];
  for (const server of servers) {
    const n = names.get(server.name)!;
    const tools = server.tools.filter(
      (t) => options.only?.(server.name, t.name, n.tools.get(t.name)!) ?? true,
    );
    const reads = readFunctions(server).filter(
      (f) => options.only?.(server.name, readKey(f), n.reads.get(readKey(f))!) ?? true,
    );
    if (tools.length === 0 && reads.length === 0 && options.only) continue;
    blocks.push(renderServer(server, tools, reads, n, options));
  }
  const text = blocks.join("\n");
  return options.compact === true && options.forModel === true && text !== "" ? `${MODEL_RULE}${text}` : text;
}

function renderServer(
  server: ApiServer,
  tools: readonly ApiTool[],
  reads: readonly ReadFunction[],
  names: ApiNames,
  options: RenderDeclarationsOptions,
): string {
  const compact = options.compact === true;
  const warn = (pointer: string, message: string) =>
    options.warn?.({ server: server.name, pointer }, message);
  const indent = compact ? "" : "  ";
  const colon = compact ? ":" : ": ";
  const forModel = compact && options.forModel === true;
  const resolves = (type: string) => (forModel ? type : `Promise<${type}>`);
  const keyword = forModel ? "" : "function ";
  const doc = (lines: readonly (string | undefined)[]) =>
    compact ? lineComments(lines) : jsdoc(lines, indent);
  const index = new Map(server.tools.map((t, i) => [t.name, i]));
  const defs = new Defs();
  const prompts = reads.some((f) => f.kind === "prompt");
  if (prompts) defs.taken.add("PromptMessage");
  const parts = tools.map((tool) => {
    const i = index.get(tool.name)!;
    const input = tool.inputSchema;
    const hasArgs =
      Object.keys(isSchemaObject(input.properties) ? input.properties : {}).length > 0 ||
      isSchemaObject(input.additionalProperties) ||
      ["anyOf", "oneOf", "allOf", "$ref"].some((k) => k in input);
    const output = outputPart(tool);
    return {
      tool,
      i,
      id: names.tools.get(tool.name)!,
      args: hasArgs ? withoutDefs(input) : undefined,
      result: output ? { schema: withoutDefs(output.schema), suffix: output.suffix } : undefined,
    };
  });
  const shapes = compact
    ? sharedShapes(
        parts.flatMap((p) => [
          ...(p.args
            ? [{ schema: p.args, pointer: `/tools/${p.i}/inputSchema`, name: `${pascal(p.id)}Args` }]
            : []),
          ...(p.result
            ? [
                {
                  schema: p.result.schema,
                  pointer: `/tools/${p.i}/outputSchema${p.result.suffix}`,
                  name: `${pascal(p.id)}Result`,
                },
              ]
            : []),
        ]),
        defs.taken,
      )
    : new Map<string, SharedShape>();
  const extend = shapeBase(shapes);
  const scalar = scalarShape(shapes);
  const printOptions = (resolveRef: (ref: string) => string | undefined, self?: JsonSchema) => ({
    resolveRef,
    warn,
    // a shared scalar's constraints are said on its alias; its use keeps its own words and default
    doc: (schema: unknown) =>
      propertyDoc(scalar(schema) ? annotations(schema as JsonSchema) : schema, {
        compact,
        partsInPlace: compact,
      }),
    omitDefaultIndex: true,
    inlineBareObjects: true,
    compact,
    named: shapeNamer(shapes, self),
    base: extend,
    partsInPlace: compact,
  });
  const functions = parts.map(({ tool, i, id, args, result }) => {
    const resolve = (slot: string) => defs.resolver(defs.collect(tool, i, slot));
    const print = (schema: JsonSchema, pointer: string, slot: string) =>
      schemaToTs(schema, pointer, printOptions(resolve(slot)), compact ? 0 : 1);
    const argsText = args ? `args${colon}${print(args, `/tools/${i}/inputSchema`, "inputSchema")}` : "";
    const resultText = result
      ? print(result.schema, `/tools/${i}/outputSchema${result.suffix}`, "outputSchema")
      : "unknown";
    const traits = traitsOf(tool, compact);
    // the model's reading says a tool's traits once for all of them that share them (see `modelServer`)
    const own = forModel ? [] : traits;
    // the compact form says what the result is right before its type, `):// A device.\n{…}`
    const said = compact ? resultWords(tool, { compact }) : undefined;
    const before = said ? lineComments([said]) : "";
    return {
      text: `${doc(toolDoc(tool, { id, compact, traits: own }))}${indent}${keyword}${id}(${argsText})${colon}${before}${resolves(resultText)};\n`,
      traits: traits.join(" "),
    };
  });
  reads.forEach((f, i) => {
    const at = `/x-mcp-gen/${f.kind === "template" ? "resourceTemplates" : `${f.kind}s`}/${escapeToken(f.name)}`;
    const print = (schema: JsonSchema, pointer: string) =>
      schemaToTs(
        schema,
        pointer,
        printOptions(() => undefined),
        compact ? 0 : 1,
      );
    const args = readArguments(f);
    const result = readResult(f);
    const argsText = args ? `args${colon}${print(args, `${at}/argumentsSchema`)}` : "";
    const resultText =
      result === "messages" ? "PromptMessage[]" : result ? print(result, `${at}/result/schema`) : "unknown";
    const id = names.reads.get(readKey(f)) ?? `read_${i}`;
    functions.push({
      text: `${doc(readDoc(f))}${indent}${keyword}${id}(${argsText})${colon}${resolves(resultText)};\n`,
      traits: "",
    });
  });
  const named = (name: string, schema: unknown, text: string) =>
    text.startsWith("{\n") && isPlainObject(schema)
      ? `${indent}interface ${name} ${text}\n`
      : `${indent}type ${name} = ${text};\n`;
  const types = defs.pending.map((d) => {
    const text = schemaToTs(d.schema, d.pointer, printOptions(defs.resolver(d.scope)), compact ? 0 : 1);
    return `${doc(propertyDoc(d.schema, { compact, partsInPlace: compact }))}${named(d.name, d.schema, text)}`;
  });
  if (prompts) types.push(`${indent}type PromptMessage = ${PROMPT_MESSAGES};\n`);
  for (const shape of shapes.values()) {
    const text = schemaToTs(
      shape.schema,
      shape.pointer,
      printOptions(() => undefined, shape.schema),
      0,
    );
    const words = isScalarShape(shape) ? constraintWords(withoutDefault(shape.schema), { compact }) : [];
    types.push(`${doc(words.length > 0 ? [words.join(", ")] : [])}${named(shape.name, shape.schema, text)}`);
  }
  const title = server.title && server.title !== server.name ? server.title : undefined;
  const untyped =
    compact && tools.some((t) => !t.outputSchema)
      ? `${forModel ? "A result typed unknown" : "Promise<unknown>"}: the tool declares no output schema.`
      : undefined;
  const head = compact ? lineComments([title, untyped]) : jsdoc([title]);
  if (forModel)
    return modelServer({ head, namespace: names.namespace, types, methods: functions, taken: defs.taken });
  return `${head}declare namespace ${names.namespace} {\n${[...types, ...functions.map((f) => f.text)].join("")}}\n`;
}

/** A tool's annotations in words: `Read-only.`, `Destructive.`, `Idempotent.`. */
function traitsOf(tool: ApiTool, compact: boolean): string[] {
  const a = tool.annotations ?? {};
  return [
    a.readOnlyHint === true ? "Read-only." : undefined,
    a.destructiveHint === true && a.readOnlyHint !== true ? "Destructive." : undefined,
    // MCP: idempotentHint means something only when readOnlyHint is false (the model's form says so)
    a.idempotentHint === true && !(compact && a.readOnlyHint === true) ? "Idempotent." : undefined,
  ].filter((t): t is string => t !== undefined);
}

/** A tool's doc lines: its summary with `traits` on its last line, its MCP name, its result's words. */
function toolDoc(
  tool: ApiTool,
  options: { id: string; compact: boolean; traits: readonly string[] },
): string[] {
  const { id, compact, traits } = options;
  const summary = (tool.description ?? tool.title ?? tool.annotations?.title ?? "").trim();
  // the traits go on the summary's last line: a line of their own costs a model more than the words
  const lines = summary ? summary.split("\n") : [];
  if (traits.length > 0) {
    const last = (lines.pop() ?? "").trimEnd();
    const sentence = last === "" || /[.!?:;)]$/.test(last) ? last : `${last}.`;
    lines.push(`${sentence} ${traits.join(" ")}`.trim());
  }
  return [
    ...lines,
    id !== tool.name ? `MCP tool ${JSON.stringify(tool.name)}.` : undefined,
    // the model's form says it once, on the namespace
    tool.outputSchema || compact ? undefined : "Returns unknown: the tool declares no output schema.",
    compact ? undefined : prefixed("Returns: ", resultWords(tool, { compact })),
  ].filter((l): l is string => Boolean(l));
}

/**
 * The description of what the function resolves to (the type cannot carry it): in the tool's doc
 * after `Returns:`, or in the compact form right before the result type, its parts in their places.
 */
function resultWords(tool: ApiTool, options: { compact: boolean }): string | undefined {
  const schema = outputPart(tool)?.schema;
  if (!schema) return undefined;
  const text = typeof schema.description === "string" ? schema.description.trim() : "";
  const parts = [text, ...partDescriptions(schema, { partsInPlace: options.compact })].filter(Boolean);
  return parts.length > 0 ? sentences(parts) : undefined;
}

const prefixed = (prefix: string, text: string | undefined) => (text ? `${prefix}${text}` : undefined);

/** The schema the function resolves to: the output schema, or its `result` for wrapped results. */
function outputPart(tool: ApiTool): { schema: JsonSchema; suffix: string } | undefined {
  const out = tool.outputSchema;
  if (!out) return undefined;
  const wrapped = tool.resultWrapped === true || tool._meta?.[RESULT_WRAPPED_META] === true;
  const result = isSchemaObject(out.properties) ? out.properties.result : undefined;
  if (wrapped && isSchemaObject(result)) {
    // the definitions stay reachable from the unwrapped result
    const defs = out.$defs !== undefined ? { $defs: out.$defs } : {};
    return { schema: { ...result, ...defs }, suffix: "/properties/result" };
  }
  return { schema: out, suffix: "" };
}

const pascal = (id: string) =>
  id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");

function isPlainObject(schema: unknown): boolean {
  if (!isSchemaObject(schema) || schema.type !== "object" || !isSchemaObject(schema.properties)) return false;
  return !["anyOf", "oneOf", "allOf", "$ref", "const", "enum"].some((k) => k in schema);
}

/** What a property says of itself beside its type's constraints. */
function annotations(schema: JsonSchema): JsonSchema {
  const keep = ["description", "default", "deprecated"];
  return Object.fromEntries(Object.entries(schema).filter(([k]) => keep.includes(k)));
}

function withoutDefault(schema: JsonSchema): JsonSchema {
  const { default: _, ...rest } = schema;
  return rest;
}

function withoutDefs(schema: JsonSchema): JsonSchema {
  const { $defs: _a, definitions: _b, ...rest } = schema;
  return rest;
}
