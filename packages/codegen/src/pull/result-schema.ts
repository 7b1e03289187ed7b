import { isSchemaObject, type JsonSchema, mapSubschemas } from "@mcp-gen/schema";

/**
 * Output schemas of non-object results, in the two forms servers list them.
 *
 * MCP 2026-07-28 lets a tool's `outputSchema` be any schema (`{ type: "array", … }`), and its
 * `structuredContent` any value. MCP 2025 requires an object, so for 2025 clients servers list
 * such a tool's schema wrapped as `{ type: "object", properties: { result: <schema> },
 * required: ["result"] }` and send `{ result: <value> }`: mcp-gen's servers (marking the tool
 * with `_meta["dev.mcp-gen/resultWrapped"]`), and the official SDK v2 (no mark; its 2025 codec
 * also moves same-document `$ref`s under `#/properties/result`).
 *
 * A contract records the 2025 form, with `resultWrapped: true` (mcp-gen's typed client unwraps
 * by era), whichever protocol the pull spoke: the functions below turn both listed forms into
 * mcp-gen's wrapper, `additionalProperties: false` and definitions at the root included.
 */

const RESULT = "#/properties/result";
const DEFINITIONS = /^#\/(\$defs|definitions)(\/|$)/;

/** Whether the root of an output schema is not an object: the rule of the SDK's 2025 codec. */
export function isNonObjectRoot(schema: JsonSchema): boolean {
  return schema.type !== "object";
}

/**
 * A non-object result schema in its recorded, 2025 form. `$defs`/`definitions` move to the
 * wrapper's root, so their `#/$defs/…` references keep pointing at them; other same-document
 * references move under `#/properties/result` with the schema.
 *
 * @example
 * wrapResult({ type: "array", items: { $ref: "#/$defs/Device" }, $defs: { Device: {} } });
 * // → { type: "object", properties: { result: { type: "array", items: { $ref: "#/$defs/Device" } } },
 * //     required: ["result"], additionalProperties: false, $defs: { Device: {} } }
 */
export function wrapResult(natural: JsonSchema): JsonSchema {
  const { $schema, ...rest } = natural;
  const definitions: JsonSchema = {};
  let result = rest;
  // Under its own `$id`, references resolve against that id: the schema moves as it is.
  if (!establishesBase(rest.$id)) {
    result = moveRefs(rest, (ref) =>
      ref === "#"
        ? RESULT
        : ref.startsWith("#/") && !DEFINITIONS.test(ref)
          ? `${RESULT}${ref.slice(1)}`
          : ref,
    );
    for (const key of ["$defs", "definitions"]) {
      if (!(key in result)) continue;
      definitions[key] = result[key];
      delete result[key];
    }
  }
  return {
    ...($schema !== undefined ? { $schema } : {}),
    type: "object",
    properties: { result },
    required: ["result"],
    additionalProperties: false,
    ...definitions,
  };
}

/**
 * The natural schema inside an SDK's 2025 projection of a non-object result schema (exactly
 * `{ type: "object", properties: { result }, required: ["result"] }`, with `result` not an
 * object), its references moved back to its own root; `undefined` for any other schema.
 */
export function unprojectResult(schema: JsonSchema): JsonSchema | undefined {
  const { $schema, type, properties, required, ...others } = schema;
  if (type !== "object" || Object.keys(others).length > 0) return undefined;
  if (!Array.isArray(required) || required.length !== 1 || required[0] !== "result") return undefined;
  if (!isSchemaObject(properties) || Object.keys(properties).length !== 1) return undefined;
  const inner = properties.result;
  if (!isSchemaObject(inner) || !isNonObjectRoot(inner)) return undefined;
  const natural = establishesBase(inner.$id)
    ? inner
    : moveRefs(inner, (ref) =>
        ref === RESULT ? "#" : ref.startsWith(`${RESULT}/`) ? `#${ref.slice(RESULT.length)}` : ref,
      );
  return $schema !== undefined && natural.$schema === undefined ? { $schema, ...natural } : natural;
}

/** A copy of `schema` with every `$ref`/`$dynamicRef` replaced by `move(ref)`, outside subschemas with their own `$id`. */
function moveRefs(schema: JsonSchema, move: (ref: string) => string): JsonSchema {
  const visit = (node: unknown, root: boolean): unknown => {
    if (!isSchemaObject(node) || (!root && establishesBase(node.$id))) return node;
    const out = mapSubschemas(node, (sub) => visit(sub, false));
    for (const key of ["$ref", "$dynamicRef"]) {
      const ref = out[key];
      if (typeof ref === "string") out[key] = move(ref);
    }
    return out;
  };
  return visit(schema, true) as JsonSchema;
}

/** An `$id` other than a bare fragment (`#item`) sets a new base for the references below it. */
function establishesBase(id: unknown): boolean {
  return typeof id === "string" && !id.startsWith("#");
}
