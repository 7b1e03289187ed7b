import type { ContractTool, JsonSchema } from "../contract.ts";
import { escapeToken, isNeverSchema, isSchemaObject, typesOf } from "../schema-utils.ts";
import { inlineRefsShared } from "./inline.ts";
import { type Conversion, constraintText, describeIn } from "./model.ts";
import type { Plan } from "./plan.ts";
import { OPENAI_STRICT } from "./rules.ts";

/** Chat Completions function tool, non-strict: the input schema with references expanded (recursive ones kept as `$ref`). */
export function toOpenAi(tool: ContractTool): Record<string, unknown> {
  const inlined = inlineRefsShared(tool.inputSchema);
  return functionTool(tool, inlined.cuts.length === 0 ? inlined.schema : tool.inputSchema, false);
}

function functionTool(tool: ContractTool, parameters: JsonSchema, strict: boolean): Record<string, unknown> {
  const fn: Record<string, unknown> = { name: tool.name };
  if (tool.description) fn.description = tool.description;
  fn.parameters = parameters;
  fn.strict = strict;
  return { type: "function", function: fn };
}

/**
 * Chat Completions function tool with `strict: true`: every object closed, every property required,
 * optional properties nullable (`null` is mapped back to "absent" by `normalizeArguments`), and
 * keywords strict mode does not take moved into descriptions. A tool that cannot be made strict
 * (open objects, tuples, `allOf`, recursion, too deep or too large) is emitted non-strict and the
 * reasons are returned.
 */
export function toOpenAiStrict(
  tool: ContractTool,
  conversion: Conversion,
): { definition: Record<string, unknown>; plan?: Plan; fallback?: string[] } {
  const inlined = inlineRefsShared(tool.inputSchema);
  const state: StrictState = { conversion, reasons: [], properties: 0 };
  const cut = inlined.cuts[0];
  if (cut) state.reasons.push(`${conversion.base}${cut.pointer}: recursive type (${cut.ref})`);
  else if (
    !typesOf(inlined.schema).includes("object") ||
    "anyOf" in inlined.schema ||
    "oneOf" in inlined.schema
  )
    state.reasons.push(`${conversion.base}: the root must be an object and not a union`);
  const result = state.reasons.length === 0 ? strictNode(inlined.schema, "", 0, state) : undefined;
  if (state.properties > OPENAI_STRICT.maxProperties)
    state.reasons.push(
      `${conversion.base}: ${state.properties} object properties (strict mode allows ${OPENAI_STRICT.maxProperties})`,
    );
  if (state.reasons.length > 0 || !result) {
    const fallback = [...new Set(state.reasons)];
    conversion.moved.length = 0;
    return { definition: toOpenAi(tool), fallback };
  }
  return {
    definition: functionTool(tool, result.schema, true),
    ...(result.plan ? { plan: result.plan } : {}),
  };
}

interface StrictState {
  conversion: Conversion;
  reasons: string[];
  properties: number;
}

const COPIED = new Set(
  [...OPENAI_STRICT.keywords].filter(
    (k) => !["properties", "required", "additionalProperties", "items", "anyOf"].includes(k),
  ),
);
const SILENT = new Set(["$comment"]);

function strictNode(
  schema: unknown,
  pointer: string,
  depth: number,
  state: StrictState,
): { schema: JsonSchema; plan?: Plan } {
  if (!isSchemaObject(schema)) {
    state.reasons.push(
      `${state.conversion.base}${pointer}: a boolean schema (any value) cannot be expressed`,
    );
    return { schema: {} };
  }
  const out: JsonSchema = {};
  const sentences: string[] = [];
  let plan: Plan | undefined;
  const isObject = typesOf(schema).includes("object") || "properties" in schema;
  for (const [key, value] of Object.entries(schema)) {
    if (COPIED.has(key)) out[key] = value;
    else if (key === "items" && "prefixItems" in schema) continue;
    else if (key === "items") {
      if (Array.isArray(value))
        state.reasons.push(`${state.conversion.base}${pointer}/items: tuples cannot be expressed`);
      else {
        const child = strictNode(value, `${pointer}/items`, depth, state);
        out.items = child.schema;
        if (child.plan) plan = { ...plan, items: child.plan };
      }
    } else if (key === "anyOf" || key === "oneOf") {
      if (key === "oneOf") state.conversion.move(pointer, key, "relaxed", "oneOf offered as anyOf");
      const branches = (Array.isArray(value) ? value : []).map((b, i) =>
        strictNode(b, `${pointer}/${key}/${i}`, depth, state),
      );
      out.anyOf = branches.map((b) => b.schema);
      if (branches.some((b) => b.plan)) {
        plan = {
          ...plan,
          anyOf: branches.map((b, i) => ({ ...b.plan, ...keysOf((value as unknown[])[i]) })),
        };
      }
    } else if (key === "prefixItems")
      state.reasons.push(`${state.conversion.base}${pointer}: tuples (prefixItems) cannot be expressed`);
    else if (key === "allOf")
      state.reasons.push(`${state.conversion.base}${pointer}: allOf cannot be expressed`);
    else if (["properties", "required", "additionalProperties"].includes(key)) continue;
    else if (!SILENT.has(key)) {
      const text = constraintText(key, value);
      sentences.push(text);
      state.conversion.move(pointer, key, "described", text);
    }
  }
  if (isObject) plan = objectPart(schema, out, pointer, depth + 1, state, plan);
  describeIn(out, sentences);
  return plan ? { schema: out, plan } : { schema: out };
}

function objectPart(
  schema: JsonSchema,
  out: JsonSchema,
  pointer: string,
  depth: number,
  state: StrictState,
  plan: Plan | undefined,
): Plan | undefined {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  // a property that must be absent is left out: strict mode closes the object, so it stays absent
  const names = Object.keys(properties).filter((n) => !isNeverSchema(properties[n]));
  const additional = schema.additionalProperties;
  if (names.length === 0 && additional !== false && pointer === "") {
    state.conversion.move(
      pointer,
      "additionalProperties",
      "narrowed",
      "a tool without declared parameters is offered as taking none",
    );
  } else if (names.length === 0 && additional !== false) {
    state.reasons.push(
      `${state.conversion.base}${pointer}: an object without declared properties (a map or any object) cannot be expressed`,
    );
    return plan;
  }
  if (depth > OPENAI_STRICT.maxDepth)
    state.reasons.push(
      `${state.conversion.base}${pointer}: ${depth} levels of object nesting (strict mode allows ${OPENAI_STRICT.maxDepth})`,
    );
  state.properties += names.length;
  if (additional !== undefined && additional !== false)
    state.conversion.move(
      pointer,
      "additionalProperties",
      "narrowed",
      "closed: only the declared properties are offered",
    );
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const outProps: Record<string, unknown> = {};
  const planProps: Record<string, Plan> = {};
  for (const name of names) {
    const at = `${pointer}/properties/${escapeToken(name)}`;
    const sub = properties[name];
    const child = strictNode(sub, at, depth, state);
    let childSchema = child.schema;
    let childPlan = child.plan;
    if (!required.has(name)) {
      if (!acceptsNull(sub)) childSchema = nullable(childSchema);
      childPlan = { ...childPlan, nullMeansAbsent: true };
      if (isSchemaObject(sub) && sub.default !== undefined)
        describeIn(childSchema, ["Send null to use the default"]);
      else describeIn(childSchema, ["Optional: send null to leave it out"]);
    }
    outProps[name] = childSchema;
    if (childPlan) planProps[name] = childPlan;
  }
  out.type = out.type ?? "object";
  out.properties = outProps;
  out.required = names;
  out.additionalProperties = false;
  return Object.keys(planProps).length > 0 ? { ...plan, properties: planProps } : plan;
}

function keysOf(branch: unknown): { keys?: string[] } {
  return isSchemaObject(branch) && isSchemaObject(branch.properties)
    ? { keys: Object.keys(branch.properties) }
    : {};
}

/** Whether the canonical schema accepts `null` (then `null` from the model is kept as a value). */
export function acceptsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isSchemaObject(schema)) return false;
  if (typesOf(schema).includes("null")) return true;
  if ("const" in schema) return schema.const === null;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) return list.some(acceptsNull);
  }
  return (
    !("type" in schema) && Object.keys(schema).every((k) => ["description", "title", "default"].includes(k))
  );
}

/** The schema with `null` added: to `type` (and `enum`) where it has a single type, else as an `anyOf` branch. */
export function nullable(schema: JsonSchema): JsonSchema {
  const types = typesOf(schema);
  if (types.length > 0 && !("anyOf" in schema)) {
    const out: JsonSchema = { ...schema, type: [...types, "null"] };
    if ("const" in out) {
      out.enum = [out.const, null];
      delete out.const;
    } else if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  const { description, ...rest } = schema;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: "null" }] };
}
