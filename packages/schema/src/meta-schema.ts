import { createAjv } from "./ajv.ts";
import type { JsonSchema } from "./contract.ts";
import { metaSchemaValidator } from "./meta-schema-validator.ts";
import { forEachSubschema, isSchemaObject, mapSubschemas } from "./schema-utils.ts";

/** A meta-schema problem: where in the checked schema, and Ajv's wording of what is wrong. */
export interface MetaSchemaError {
  /** JSON pointer relative to the checked schema. */
  instancePath: string;
  message: string;
}

/** Keywords that only annotate: validation ignores them, so schemas differing only in these validate alike. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
]);

/** What JSON Schema 2020-12's meta-schema requires of each annotation keyword (`default` takes anything). */
const ANNOTATION_TYPES: ReadonlyArray<[string, string, (value: unknown) => boolean]> = [
  ["title", "string", (v) => typeof v === "string"],
  ["description", "string", (v) => typeof v === "string"],
  ["$comment", "string", (v) => typeof v === "string"],
  ["examples", "array", Array.isArray],
  ["deprecated", "boolean", (v) => typeof v === "boolean"],
  ["readOnly", "boolean", (v) => typeof v === "boolean"],
  ["writeOnly", "boolean", (v) => typeof v === "boolean"],
];

/** The schema without annotation keywords, at every level (property names stay). */
export function withoutAnnotations(schema: unknown): unknown {
  if (!isSchemaObject(schema)) return schema;
  const kept: JsonSchema = {};
  for (const key in schema) if (!ANNOTATION_KEYWORDS.has(key)) kept[key] = schema[key];
  return mapSubschemas(kept, withoutAnnotations);
}

/** The meta-schema `metaSchemaValidator` holds compiled; a schema naming another goes to Ajv. */
const META_2020 = "https://json-schema.org/draft/2020-12/schema";
/** For schemas naming another meta-schema: validation does not change the instance, so one serves every caller. */
let shared: ReturnType<typeof createAjv> | undefined;
/**
 * Schema objects found valid: the build checks each contract schema twice (the MCP rule check, then
 * the validators emitter), and contracts are not mutated. Worth ≈ 45 ms at N = 1000 (bench/README.md,
 * "Build"); remembering valid shapes by their JSON as well gained nothing measurable and was removed.
 */
const validSchemas = new WeakSet<object>();

/**
 * The problems JSON Schema 2020-12's meta-schema finds in `schema` (empty when it is valid), as
 * Ajv's `validateSchema` words them. The meta-schema validation runs on the schema without its
 * annotations (`shape.bare` when the caller has it); the annotations are checked apart, so the
 * result is the same as validating the whole schema.
 *
 * @example
 * metaSchemaErrors({ type: "strin" }); // → [{ instancePath: "/type", message: "must be equal to one of the allowed values" }, …]
 */
export function metaSchemaErrors(schema: unknown, shape?: { bare: unknown }): MetaSchemaError[] {
  if (isSchemaObject(schema) && validSchemas.has(schema)) return [];
  const annotations = annotationErrors(schema);
  if (annotations.length > 0) return annotations;
  const errors = validateBare(shape?.bare ?? withoutAnnotations(schema));
  if (errors.length === 0) {
    if (isSchemaObject(schema)) validSchemas.add(schema);
    return [];
  }
  return errors.map((e) => ({ instancePath: e.instancePath, message: e.message ?? e.keyword }));
}

type AjvError = { instancePath: string; message?: string; keyword: string };

/**
 * Ajv's `validateSchema` of a schema without annotations. A 2020-12 schema (no `$schema`, or that
 * one) runs the meta-schema's validator compiled ahead of time, the code Ajv would compile for it
 * at every build's start (bench/README.md, "Issue 23"); any other goes through Ajv itself.
 */
function validateBare(bare: unknown): AjvError[] {
  const $schema = isSchemaObject(bare) ? bare.$schema : undefined;
  if ($schema === undefined || $schema === META_2020) {
    const validate = metaSchemaValidator();
    return validate(bare) ? [] : (validate.errors ?? []);
  }
  shared ??= createAjv({ source: false });
  return shared.validateSchema(bare as JsonSchema) ? [] : (shared.errors ?? []);
}

function annotationErrors(schema: unknown): MetaSchemaError[] {
  const errors: MetaSchemaError[] = [];
  const visit = (node: unknown, pointer: string): void => {
    if (!isSchemaObject(node)) return;
    for (const [key, type, ok] of ANNOTATION_TYPES) {
      if (key in node && !ok(node[key]))
        errors.push({ instancePath: `${pointer}/${key}`, message: `must be ${type}` });
    }
    forEachSubschema(node, (sub, suffix) => visit(sub, pointer + suffix));
  };
  visit(schema, "");
  return errors;
}
