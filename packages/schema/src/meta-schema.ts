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

/** `ANNOTATION_TYPES` by keyword, with each one's place there (the order its problems are reported in). */
const ANNOTATION_CHECKS = new Map(
  ANNOTATION_TYPES.map(([key, type, ok], order) => [key, { type, ok, order }]),
);

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
 * Schema objects found valid, with their copy without annotations: the build checks each contract
 * schema twice (the MCP rule check, then the validators emitter, which needs that copy too), and
 * contracts are not mutated. Worth ≈ 45 ms at N = 1000 (bench/README.md, "Build"); remembering
 * valid shapes by their JSON as well gained nothing measurable and was removed.
 */
const validSchemas = new WeakMap<object, unknown>();

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
  // one walk both checks the annotations and copies the schema without them
  const annotations: MetaSchemaError[] = [];
  let bare: unknown;
  if (shape) {
    annotationErrorsIn(schema, annotations);
    bare = shape.bare;
  } else bare = bareChecked(schema, annotations);
  if (annotations.length > 0) return annotations;
  const errors = validateBare(bare);
  if (errors.length === 0) {
    if (isSchemaObject(schema)) validSchemas.set(schema, bare);
    return [];
  }
  return errors.map((e) => ({ instancePath: e.instancePath, message: e.message ?? e.keyword }));
}

/**
 * `withoutAnnotations(schema)`, taken from `metaSchemaErrors`' check of the same object when it found
 * it valid (and forgotten there: each copy serves once), else computed.
 */
export function bareSchema(schema: unknown): unknown {
  if (!isSchemaObject(schema)) return schema;
  const bare = validSchemas.get(schema);
  if (bare === undefined) return withoutAnnotations(schema);
  validSchemas.set(schema, null);
  return bare ?? withoutAnnotations(schema);
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

/** Pushes the annotation problems of `node` itself (not of its subschemas) to `errors`. */
function ownAnnotationErrors(node: JsonSchema, pointer: string, errors: MetaSchemaError[]): void {
  // one pass over the node's own keys (a schema node has a few), not seven `in` look-ups that miss
  let found: MetaSchemaError[] | undefined;
  for (const key in node) {
    const check = ANNOTATION_CHECKS.get(key);
    if (check === undefined || check.ok(node[key])) continue;
    found ??= [];
    found[check.order] = { instancePath: `${pointer}/${key}`, message: `must be ${check.type}` };
  }
  if (found) for (const error of found) if (error) errors.push(error);
}

function annotationErrorsIn(schema: unknown, errors: MetaSchemaError[]): void {
  const visit = (node: unknown, pointer: string): void => {
    if (!isSchemaObject(node)) return;
    ownAnnotationErrors(node, pointer, errors);
    forEachSubschema(node, (sub, suffix) => visit(sub, pointer + suffix));
  };
  visit(schema, "");
}

/** `withoutAnnotations(schema)`, pushing the annotation problems met on the way to `errors`. */
function bareChecked(schema: unknown, errors: MetaSchemaError[], pointer = ""): unknown {
  if (!isSchemaObject(schema)) return schema;
  ownAnnotationErrors(schema, pointer, errors);
  const kept: JsonSchema = {};
  for (const key in schema) if (!ANNOTATION_KEYWORDS.has(key)) kept[key] = schema[key];
  return mapSubschemas(kept, (sub, suffix) => bareChecked(sub, errors, pointer + suffix));
}
